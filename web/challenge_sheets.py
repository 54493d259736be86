"""The challenge's sheets (issue 20) as HTML: the link to send, the offer a friend
opens, the results side by side, a refused link, and the list of challenges.
Pure functions of checked codes (``kosynka.challenge.Checked``): no browser
import, tested on CPython (``tests/test_web_challenge.py``). Every text from
outside — names above all, which come from links — is escaped.

DOM contract (tests rely on it): the offer is ``[data-challenge]`` with
``data-kind`` (challenge/answer), ``data-name``, ``data-deal``, ``data-won``
(yes/no), ``data-moves`` and ``data-foundation``, all from the replay,
``data-kept`` (yes: the player's game in progress will be kept) and
``[data-action=play-challenge]`` (select it as ``#sheet [data-challenge]``:
``body`` carries ``data-challenge`` too); a link box holds the link as text in
``[data-challenge-link]`` (a challenge) or ``[data-challenge-answer-link]``
(an answer), with ``data-action`` challenge-copy and challenge-share; the
name field is ``[data-field=challenge-name]``; the results are
``#challenge-results`` with ``data-outcome`` (won/lost/tie from your side,
``none`` when you played no part) and a row per game ``tr[data-result]``
(``data-name``, ``data-you`` yes/no, ``data-won`` yes/no, ``data-moves``,
``data-place``), best place first; Watch buttons are ``[data-action=watch]``
in the same order, with ``data-watch`` (the game's index in ``rows``); a refused link is ``[data-challenge-error]``
(``challenge/…``); the list's entries ``[data-action=challenge-open]`` with
``data-entry`` (``made:<i>`` / ``taken:<i>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from kosynka.challenge import Checked, rank
from web.i18n import t, variant_name
from web.speech import plural
from web.store import format_time


@dataclass(frozen=True)
class Row:
    """One game in the results: whose, checked, and whether it is the player's."""

    game: Checked
    you: bool = False


def deal_label(number: int) -> str:
    """A deal number in groups of three (``12 345``), with narrow no-break spaces."""
    return f"{number:,}".replace(",", "\u202f")


def _e(lang: str, key: str, **kw: object) -> str:
    text = t(lang, key)
    return escape(text.format(**kw) if kw else text)


def _buttons(lang: str, *actions: tuple[str, str]) -> str:
    return "<div class='buttons'>" + "".join(
        f"<button type='button' data-action='{a}'>{_e(lang, label)}</button>" for a, label in actions
    ) + "</div>"


def result_text(lang: str, c: Checked) -> str:
    """"won in 3:12, 142 moves" / "40 cards up in 5:00, 200 moves" (plain text)."""
    r, ch = c.result, c.challenge
    moves = plural(lang, "ch_moves_n", r.moves)
    time = format_time(ch.seconds)
    text = (t(lang, "ch_result_won").format(time=time, moves=moves) if r.won else
            t(lang, "ch_result_up").format(cards=plural(lang, "cards_n", r.foundation), time=time,
                                           moves=moves))
    return text + (t(lang, "ch_assisted_mark") if ch.assisted else "")


def summary(lang: str, c: Checked) -> str:
    """"Anna won deal 12 345 (Classic, draw 3) in 3:12, 142 moves" (plain text)."""
    r, ch = c.result, c.challenge
    return t(lang, "ch_summary_won" if r.won else "ch_summary_up").format(
        name=ch.name, deal=deal_label(ch.number), variant=variant_name(lang, ch.rules.draw, ch.rules.redeals),
        time=format_time(ch.seconds), moves=plural(lang, "ch_moves_n", r.moves),
        cards=plural(lang, "cards_n", r.foundation)) + (t(lang, "ch_assisted_mark") if ch.assisted else "")


def link_box(lang: str, attr: str, url: str, share: bool) -> str:
    """A link as text, its QR code (``web.qr``, where segno is bundled), Copy
    and — where the browser has it — Share."""
    try:
        from web import qr
        code = qr.make(url)
        qr_html = f"<div class='qrbox' data-qr-version='{code.version}'>{code.svg}</div>"
    except ImportError:  # segno not bundled: the link still works
        qr_html = ""
    share_btn = (f"<button type='button' data-action='challenge-share'>{_e(lang, 'race_share')}</button>"
                 if share else "")
    return (f"<div class='challenge-linkbox'><p class='challenge-link' {attr}>{escape(url)}</p>{qr_html}"
            f"<div class='row share'><button type='button' data-action='challenge-copy'>"
            f"{_e(lang, 'copy')}</button>{share_btn}</div></div>")


def name_field(lang: str, name: str) -> str:
    return (f"<label class='challenge-name'>{_e(lang, 'ch_name')}<input type='text' "
            f"data-field='challenge-name' maxlength='24' autocomplete='nickname' "
            f"value='{escape(name)}' placeholder='{_e(lang, 'race_player')}'></label>")


def rule_html(lang: str) -> str:
    return (f"<p class='note rule' data-challenge-rule>{_e(lang, 'ch_rule')}</p>"
            f"<p class='note' data-time-reported>{_e(lang, 'ch_time_note')}</p>")


def made_html(lang: str, c: Checked, url: str, name: str, share: bool) -> str:
    """The link to send: what it carries, the name it goes under, the link."""
    return (f"<h2>{_e(lang, 'ch_challenge')}</h2>"
            f"<p class='big'>{escape(summary(lang, c))}</p>"
            + link_box(lang, "data-challenge-link", url, share) + name_field(lang, name)
            + f"<p class='note'>{_e(lang, 'ch_make_help')}</p>" + rule_html(lang)
            + _buttons(lang, ("close", "close")))


def offer_html(lang: str, c: Checked, kept: bool) -> str:
    """A friend's challenge, checked: who did what on which deal — your turn.
    ``kept``: the player has a game in progress, which comes back afterwards."""
    r, ch = c.result, c.challenge
    attrs = (f"data-challenge data-kind='{ch.kind}' data-name='{escape(ch.name)}' "
             f"data-deal='{ch.number}' data-won='{'yes' if r.won else 'no'}' "
             f"data-moves='{r.moves}' data-foundation='{r.foundation}' data-kept='{'yes' if kept else 'no'}'")
    return (f"<div {attrs}><h2>{_e(lang, 'ch_title')}</h2>"
            f"<p class='big'>{escape(summary(lang, c))} — {_e(lang, 'ch_your_turn')}</p>"
            + rule_html(lang)  # (its last line says the game was checked by replaying every move)
            + (f"<p class='note'>{_e(lang, 'ch_kept')}</p>" if kept else "") + "</div>"
            + _buttons(lang, ("close", "ch_not_now"), ("play-challenge", "ch_play")))


def results_html(lang: str, rows: list[Row], *, answer_url: str | None = None,
                 answer_to: str | None = None, name: str = "", note: str | None = None,
                 share: bool = False, score: bool = True) -> str:
    """The games side by side, best place first (the rule over them), who won, Watch for each game,
    and — after the player's own answer — the link to send back (``answer_url``,
    to ``answer_to``). ``note``: a sentence said above the table (a key)."""
    ranking = rank([r.game for r in rows], [r.you for r in rows])  # the rule is kosynka's
    out = ranking.outcome
    heads = {"won": _e(lang, "ch_you_win"), "lost": _e(lang, "ch_you_lose"), "tie": _e(lang, "ch_tie")}
    if out == "none":
        best = ranking.winners
        head = (_e(lang, "ch_tie") if len(best) > 1 else
                _e(lang, "ch_they_win", name=rows[best[0]].game.challenge.name))
    else:
        head = heads[out]
    th = (f"<tr><th>#</th><th>{_e(lang, 'race_player')}</th><th class='n'>{_e(lang, 'moves')}</th>"
          f"<th class='n'>{_e(lang, 'time')}</th>"
          + (f"<th class='n'>{_e(lang, 'score')}</th>" if score else "") + "</tr>")
    ps, order = ranking.places, ranking.order  # best first; equal places as they came
    body = []
    for row, place in ((rows[i], ps[i]) for i in order):
        g, r = row.game, row.game.result
        who = escape(g.challenge.name) + (f" <small>({_e(lang, 'race_you_mark')})</small>" if row.you else "")
        state = (_e(lang, "ch_won") if r.won else escape(plural(lang, "ch_up_n", r.foundation))) + (
            escape(t(lang, "ch_assisted_mark")) if g.challenge.assisted else "")
        body.append(
            f"<tr data-result data-name='{escape(g.challenge.name)}' data-you='{'yes' if row.you else 'no'}' "
            f"data-won='{'yes' if r.won else 'no'}' data-moves='{r.moves}' data-place='{place}'>"
            f"<td class='n'>{place}</td><td><b>{who}</b><br><small>{state}</small></td>"
            f"<td class='n'>{r.moves}</td><td class='n'>{format_time(g.challenge.seconds)}</td>"
            + (f"<td class='n'>{r.score}</td>" if score else "") + "</tr>")
    first = rows[0].game.challenge
    watch = "".join(
        f"<button type='button' data-action='watch' data-watch='{i}'>"
        f"{_e(lang, 'ch_watch_mine' if rows[i].you else 'ch_watch', name=rows[i].game.challenge.name)}</button>"
        for i in order)
    answer = ""
    if answer_url is not None:
        answer = (f"<h3>{_e(lang, 'ch_send_answer')}</h3>"
                  f"<p class='note'>{_e(lang, 'ch_answer_help', name=answer_to or '')}</p>"
                  + name_field(lang, name) + link_box(lang, "data-challenge-answer-link", answer_url, share))
    return (f"<div id='challenge-results' data-outcome='{out}'><h2>{_e(lang, 'ch_title')} · "
            f"{_e(lang, 'deal')}&nbsp;{deal_label(first.number)}</h2>"
            f"<p class='note'>{escape(variant_name(lang, first.rules.draw, first.rules.redeals))}</p>"
            + (f"<p class='note'>{_e(lang, note)}</p>" if note else "")
            + f"<p class='big' data-outcome-said>{head}</p>"
            f"<table class='challenge-table'>{th}{''.join(body)}</table>" + rule_html(lang)
            + f"<div class='row actions watch'>{watch}</div>{answer}</div>"
            + _buttons(lang, ("close", "close")))


def refused_html(lang: str, code: str) -> str:
    """A link that cannot be used: why, in the player's words; nothing changed."""
    key = "ch_err_" + code.split("/")[-1]
    return (f"<h2>{_e(lang, 'ch_refused')}</h2>"
            f"<p class='big' data-challenge-error='{escape(code)}' role='alert'>{_e(lang, key)}</p>"
            f"<p class='note'>{_e(lang, 'ch_nothing_changed')}</p>" + _buttons(lang, ("close", "close")))


def list_html(lang: str, made: list[tuple[Checked, int]], taken: list[Checked]) -> str:
    """The challenges on this device, newest first: the player's own (with how many
    answers came) and the friends' they answered; Open shows one's results."""
    def item(kind: str, i: int, c: Checked, more: str) -> str:
        ch = c.challenge
        return (f"<li><span class='what'><b>{_e(lang, 'deal')}&nbsp;{deal_label(ch.number)}</b> "
                f"<small>{escape(variant_name(lang, ch.rules.draw, ch.rules.redeals))}</small><br>"
                f"<small>{escape(more)}</small></span><button type='button' data-action='challenge-open' "
                f"data-entry='{kind}:{i}'>{_e(lang, 'ch_open')}</button></li>")

    parts = [f"<h2>{_e(lang, 'ch_list')}</h2>"]
    if not made and not taken:
        parts.append(f"<p class='note'>{_e(lang, 'ch_none')}</p>")
    if made:
        parts.append(f"<h3>{_e(lang, 'ch_made')}</h3><ul class='challenge-list'>" + "".join(
            item("made", i, c, plural(lang, "ch_answers_n", n)) for i, (c, n) in enumerate(made)) + "</ul>")
    if taken:
        parts.append(f"<h3>{_e(lang, 'ch_taken')}</h3><ul class='challenge-list'>" + "".join(
            item("taken", i, c, summary(lang, c)) for i, c in enumerate(taken)) + "</ul>")
    return "".join(parts) + _buttons(lang, ("close", "close"))
