"""The HTML of the sheets the page opens: confirmation, win, settings, records.

Pure functions of their arguments (language, store, settings, game figures): no
browser import, tested on CPython (``tests/test_web_sheets.py``). Every text
from outside (labels, the share link) is escaped.

DOM contract of the sheets (tests rely on it): buttons carry ``data-action``
(confirm/cancel in a confirmation; close, again in the win sheet; close, daily,
copy, help in settings); a setting's choice is a button with ``data-set`` (draw,
redeals, score, auto, lang, theme, hand), ``data-value`` and ``aria-pressed``; the win sheet has
``#win-time``, ``#win-moves``, ``#win-score`` (when the score is shown) and
``#win-record[data-record=yes|no]``; statistics cells carry ``data-stat``
(played, won, win_pct, streak, best_streak, assisted); a records row
``data-variant`` (the variant's key); ``#variant-note`` says when a changed
variant is dealt (``data-when`` now: at once, next: from the next deal);
``#share-url`` holds the link to the deal on the table; the solver's verdict
sheet (``verdict_html``) is ``#verdict[data-result=lost|unknown]`` with Play on
(close) and New deal (again).
"""

from __future__ import annotations

from html import escape
from typing import Iterable

from kosynka import variants
from kosynka.position import Rules
from kosynka.records import WinResult, win_percent
from web.i18n import LANGS, plural, t, variant_name
from web.store import HANDS, REDEAL_CHOICES, THEMES, Settings, Store, format_time

LANG_NAMES = {"uk": "Українська", "ru": "Русский", "en": "English"}


def _buttons(lang: str, *actions: str) -> str:
    return "<div class='buttons'>" + "".join(
        f"<button type='button' data-action='{a}'>{escape(t(lang, a))}</button>" for a in actions) + "</div>"


def confirm_html(lang: str, question: str) -> str:
    return f"<p class='big'>{escape(question)}</p>" + _buttons(lang, "cancel", "confirm")


def records_html(lang: str, store: Store, rules: Rules, daily: str | None) -> str:
    """Best time and fewest moves per variant (T2) — the table's own variant always
    listed —, the Deal of the day's best when one is on the table, and statistics."""
    L = lang
    none = t(L, "none")
    rows = []
    current = variants.key(rules)
    for k in sorted(set(store.records.best_of) | {current}):
        try:
            r = variants.from_key(k)
        except ValueError:
            continue  # a key this version does not know: not shown, kept
        b = store.records.best(k)
        rows.append(
            f"<tr data-variant='{escape(k)}'><td>{escape(variant_name(L, r.draw, r.redeals))}</td>"
            f"<td class='n'>{format_time(b['time']) if 'time' in b else none}</td>"
            f"<td class='n'>{escape(str(b.get('moves', none)))}</td></tr>")
    st = store.records.stats
    html = (f"<h3>{escape(t(L, 'records'))}</h3><table class='records'><tr><th>{escape(t(L, 'variant'))}</th>"
            f"<th class='n'>{escape(t(L, 'best_time'))}</th><th class='n'>{escape(t(L, 'fewest_moves'))}</th></tr>"
            + "".join(rows) + "</table>")
    if daily:
        db = store.records.daily_best(daily, current)
        html += (f"<p class='daily-best'>{escape(t(L, 'daily_best'))} ({escape(daily)}): "
                 f"{format_time(db['time']) if 'time' in db else none}, "
                 f"{escape(plural(L, 'ch_moves_n', db['moves']) if 'moves' in db else none)}</p>")
    stat_rows = [("played", "played", st["played"]), ("won", "won", st["won"]),
                 ("win_pct", "win_pct", f"{win_percent(st)}%"), ("streak", "streak", st["streak"]),
                 ("best_streak", "best_streak", st["best_streak"]),
                 ("assisted", "stat_assisted", st["assisted"])]  # apart: not in the rate (issue 12)
    html += (f"<h3>{escape(t(L, 'stats'))}</h3><table class='stats'>"
             + "".join(f"<tr><td>{escape(t(L, label))}</td><td class='n' data-stat='{k}'>{escape(str(v))}</td></tr>"
                       for k, label, v in stat_rows)
             + "</table>")
    return html


def win_html(lang: str, *, seconds: float, moves: int, score: int | None, assisted: bool,
             result: WinResult, records: str) -> str:
    """The win sheet: time, moves, score (None: hidden, S1 Off), whether a record
    fell (never for an assisted win, F2), the records, Close and Again."""
    L = lang
    if assisted:
        rec = t(L, "assisted")
    elif result.any:
        rec = t(L, "record")
    else:
        rec = t(L, "no_record")
    score_row = (f"<tr><td>{escape(t(L, 'score'))}</td><td class='n' id='win-score'>{score}</td></tr>"
                 if score is not None else "")
    return (f"<h2>{escape(t(L, 'win_assisted' if assisted else 'win'))}</h2>"
            f"<table><tr><td>{escape(t(L, 'time'))}</td><td class='n' id='win-time'>{format_time(seconds)}</td></tr>"
            f"<tr><td>{escape(t(L, 'moves'))}</td><td class='n' id='win-moves'>{moves}</td></tr>{score_row}</table>"
            f"<p class='big' id='win-record' data-record='{'yes' if result.any and not assisted else 'no'}'>"
            f"{escape(rec)}</p>" + _challenge_row(L) + records + _buttons(L, "close", "again"))


def _challenge_row(lang: str, way: bool = False) -> str:
    """Challenge a friend on this game, the list of challenges (issue 20) and, on a
    verified deal (``way``), Show me a way to win."""
    actions = [("challenge", "ch_challenge"), ("challenges", "ch_list")] + ([("show-way", "ch_way")] if way else [])
    return "<div class='row actions challenge-row'>" + "".join(
        f"<button type='button' data-action='{a}'>{escape(t(lang, k))}</button>" for a, k in actions) + "</div>"


def _seg(name: str, options: Iterable[tuple[object, str, bool]]) -> str:
    return "<span class='seg'>" + "".join(
        f"<button type='button' data-set='{name}' data-value='{v}' "
        f"aria-pressed='{'true' if cur else 'false'}'>{escape(label)}</button>"
        for v, label, cur in options) + "</span>"


def verdict_html(lang: str, result: str, way: bool = False, undo: bool = True) -> str:
    """The solver's verdict on Finish (F2) when it has no line to play: ``lost``
    (proven: no path to victory) or ``unknown`` (none found within its limit). It
    stays until dismissed and says what the player can do next: undo back to a
    point (``undo``: there is a move to take back; before the first move the deal
    itself is judged, and undo is not offered), or a new deal — or, on a verified
    deal (``way``), see a way to win it from the start (``show-way``, issue 20)."""
    title = "verdict_lost" if result == "lost" else "verdict_unknown"
    text = title + ("_text" if undo else "_start_text")
    return (f"<div id='verdict' data-result='{'lost' if result == 'lost' else 'unknown'}'>"
            f"<h2>{escape(t(lang, title))}</h2><p>{escape(t(lang, text))}</p></div>"
            + (f"<div class='row actions'><button type='button' data-action='show-way'>"
               f"{escape(t(lang, 'ch_way'))}</button></div>" if way else "")
            + f"<div class='buttons'><button type='button' data-action='close'>{escape(t(lang, 'play_on'))}"
            f"</button><button type='button' data-action='again'>{escape(t(lang, 'again'))}</button></div>")


def settings_html(lang: str, settings: Settings, table_rules: Rules, url: str, records: str,
                  dealt_now: bool = False, way: bool = False) -> str:
    """Settings: draw, redeal limit, score on/off, auto-move to foundations,
    language, Deal of the day, the link to share, records and statistics.

    A changed variant is said for what happens: ``dealt_now`` (no move was made,
    so the page deals it at once) — "The new variant is dealt now"; else, when
    it differs from the table's, it applies from the next deal."""
    L = lang
    s = settings
    draw = _seg("draw", [(1, t(L, "draw1"), s.draw == 1), (3, t(L, "draw3"), s.draw == 3)])
    redeals = _seg("redeals", [("u" if r is None else r, t(L, "redeals_any") if r is None else str(r),
                                s.redeals == r) for r in REDEAL_CHOICES])
    score = _seg("score", [("on", t(L, "score_on"), s.score), ("off", t(L, "score_off"), not s.score)])
    langs = _seg("lang", [(x, LANG_NAMES[x], lang == x) for x in LANGS])
    auto = _seg("auto", [("on", t(L, "auto_on"), s.auto), ("off", t(L, "auto_off"), not s.auto)])
    theme = _seg("theme", [(x, t(L, f"theme_{x}"), s.theme == x) for x in THEMES])
    hand = _seg("hand", [(x, t(L, f"hand_{x}"), s.hand == x) for x in HANDS])
    note = ""
    if dealt_now:
        note = f"<p class='note' id='variant-note' data-when='now'>{escape(t(L, 'variant_now'))}</p>"
    elif Rules(s.draw, s.redeals) != table_rules:
        note = f"<p class='note' id='variant-note' data-when='next'>{escape(t(L, 'variant_next'))}</p>"
    return (f"<h2>{escape(t(L, 'settings_title'))}</h2>"
            f"<div class='row'><span>{escape(t(L, 'draw'))}</span>{draw}</div>"
            f"<div class='row'><span>{escape(t(L, 'redeals'))}</span>{redeals}</div>{note}"
            f"<div class='row'><span>{escape(t(L, 'score_setting'))}</span>{score}</div>"
            f"<div class='row'><span>{escape(t(L, 'auto_setting'))}</span>{auto}</div>"
            f"<div class='row'><span>{escape(t(L, 'language'))}</span>{langs}</div>"
            f"<div class='row'><span>{escape(t(L, 'theme'))}</span>{theme}</div>"
            f"<div class='row'><span>{escape(t(L, 'hand_label'))}</span>{hand}</div>"
            f"<div class='row actions'><button type='button' data-action='daily'>{escape(t(L, 'daily'))}</button>"
            f"<button type='button' data-action='race'>{escape(t(L, 'race'))}</button>"
            f"<button type='button' data-action='help'>{escape(t(L, 'help'))}</button></div>"
            + _challenge_row(L, way)
            + f"<p id='share-label'>{escape(t(L, 'share'))}</p><div class='row share'><input type='text' id='share-url' "
            f"aria-labelledby='share-label' readonly "
            f"value='{escape(url)}'><button type='button' data-action='copy'>{escape(t(L, 'copy'))}</button></div>"
            f"<details><summary>{escape(t(L, 'records'))} · {escape(t(L, 'stats'))}</summary>"
            + records + "</details>" + _buttons(L, "close"))


def help_html(lang: str) -> str:
    """The keys (issue 13): a table of key → what it does, and Close. Each key is
    its own ``<kbd>`` (``Enter, Space``: two), so a narrow phone wraps between them."""
    rows = "".join(
        f"<tr><th scope='row'>{', '.join(f'<kbd>{escape(x)}</kbd>' for x in k.split(', '))}</th>"
        f"<td>{escape(v)}</td></tr>"
        for k, v in (line.split("|", 1) for line in t(lang, "keys").split("\n")))
    return (f"<h2>{escape(t(lang, 'keys_title'))}</h2><table class='keys'>{rows}</table>"
            + _buttons(lang, "close"))
