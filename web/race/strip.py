"""The race screen's parts around your table, as HTML from the host's view (issues
11 and 18): the strip (the clock, your moves, every other racer's counters with
their words for a screen reader), the draw offer, the race's buttons, and the
note over your table when you watch or are out.

Pure functions (no browser import; tested in ``tests/test_race_web_screen.py``);
``web.race.screen.RaceScreen`` puts them in the page. What the view says is
shown, nothing decided: the buttons follow ``can``, the marks ``status`` and
``away``.
"""

from __future__ import annotations

from typing import Any

from kosynka.race.table import GRACE, RACING
from web.race.markup import Html, el, tr, way_mark

Json = dict[str, Any]


def me(v: Json | None) -> Json | None:
    """Our own row of the view's players."""
    return None if v is None else next((p for p in v["players"] if p["pid"] == v["you"]), None)


def outcome(v: Json | None) -> str:
    """``body[data-race]``: running, out (resigned or counted out while the others
    race on), won, lost, draw, or watching."""
    mine = me(v)
    if v is None or mine is None or mine["status"] == "watching":
        return "watching"
    result = v["outcome"] and v["outcome"]["result"]
    if v["phase"] == RACING:
        return "out" if result else ("running" if mine["status"] == "racing" else "watching")
    if result is None:
        return "watching"
    return str(result) if result in ("won", "draw") else "lost"


def time_left(v: Json | None, elapsed: float) -> float | None:
    """Seconds left in a timed race (None: not timed), ``elapsed`` s after the view."""
    if v is None or v["ends_in"] is None:
        return None
    return float(max(0.0, v["ends_in"] - (elapsed if v["phase"] == RACING else 0)))


def note(lang: str, v: Json, watching: bool, gone: str) -> tuple[str, str | None]:
    """The note over the table: (words, ``data-out``) — the host's table closed or
    gone (``gone``: its words), you watch, or you are out of a race that goes on
    (resigned, counted out)."""
    if gone:
        return gone, None
    if watching:
        return tr(lang, "race_watching_note"), None
    out = v["outcome"]["result"]
    text = tr(lang, "race_you_out") if out == "resigned" else tr(lang, "race_you_counted_out",
                                                                  s=int(GRACE))
    return text, out


RELAYED = " ☁"           # after a name on a phone's narrow chip: reached through the relays


def strip(lang: str, v: Json, state: str, elapsed: float, clock: str, moves: int | None,
          ways: dict[int, str] | None = None) -> Html:
    """The strip: the race clock (timed races: ``clock``), your ``moves`` (None:
    no table of your own), each other racer's name, grace left (``away`` counted
    down ``elapsed`` s since the view), how this page reaches them (``ways``, issue
    30 item 2: said, and ``data-way``) and counters ▲ ◐ ↻, and the counters' legend."""
    ways = ways or {}
    chips = []
    for p in v["players"]:
        if p["pid"] == v["you"] and state != "watching":
            continue
        if p["seat"] is None:
            continue  # a spectator
        away = None if p["away"] is None else max(0, int(p["away"] - elapsed + 0.999))
        marks = "" if away is None else " ⚡ " + tr(lang, "race_away_s", s=away)
        said = tr(lang, "race_opp", name=p["name"], f=p["foundation"], u=p["face_up"], m=p["moves"])
        way = ways.get(p["pid"]) if p["connected"] else None
        if way:
            said += ", " + way_mark(lang, way)
        if p.get("left"):                      # said Leave (N12): resigned if racing
            said += ", " + tr(lang, "race_out_left")
        elif p["status"] in ("resigned", "lost", "won", "draw") or not p["connected"]:
            said += ", " + (tr(lang, "race_dropped") if not p["connected"] else
                            tr(lang, "race_out_resigned" if p["out"] == "resigned" else
                               "race_why_counted_out" if p["out"] == "dropped" else
                               "race_result_" + p["status"]).format(s=int(GRACE)))
        chips.append(el("li", {"data-opponent": True, "data-pid": p["pid"], "data-seat": p["seat"],
                               "data-foundation": p["foundation"], "data-faceup": p["face_up"],
                               "data-moves": p["moves"], "data-status": p["status"],
                               "data-connected": "yes" if p["connected"] else "no",
                               "data-way": way,
                               "data-left": "yes" if p.get("left") else None},
                        el("span", {"class": "sr-only"}, said),
                        el("span", {"class": "who", "aria-hidden": "true"},
                           p["name"] + (RELAYED if way == "relay" else "") + marks),
                        el("span", {"class": "nums", "aria-hidden": "true"},
                           f"▲{p['foundation']} ◐{p['face_up']} ↻{p['moves']}")))
    head = []
    if v["minutes"] is not None:
        head.append(el("b", {"class": "race-clock", "data-race-clock": True}, clock))
    if moves is not None:
        head.append(el("span", {"class": "mine"}, f"{tr(lang, 'moves')} ",
                       el("b", {"data-my-moves": True}, str(moves))))
    return Html(el("div", {"class": "race-head"}, *head) + el("ul", {"class": "opps"}, *chips)
                + (el("p", {"class": "legend", "aria-hidden": "true"}, tr(lang, "race_counters")
                      + (f" ·{RELAYED} {tr(lang, 'race_way_through')}"
                         if "relay" in ways.values() else ""))
                   if chips else ""))


def offer_words(lang: str, v: Json) -> str:
    """What the draw offer under the table says ("" when none is shown): an
    offer to us ("Bohdan offers a draw."), or ours waiting for the others. The
    news line leaves these words out (``web.race.news.line``): said once."""
    o, can = v["offer"], v["can"]
    if not o:
        return ""
    if can["answer"]:
        by = next((p["name"] for p in v["players"] if p["pid"] == o["by"]), "?")
        return tr(lang, "race_offer_from", name=by)
    return tr(lang, "race_offer_wait") if can["resign"] and v["you"] in o["agreed"] else ""


def offer(lang: str, v: Json) -> tuple[bool, Html] | None:
    """The draw offer under the table: (an offer to us, its HTML) — its words
    (:func:`offer_words`) with Accept and Decline, or ours waiting for the
    others; None when there is none to show."""
    words = offer_words(lang, v)
    if not words:
        return None
    if not v["can"]["answer"]:
        return False, el("span", None, words)
    return True, Html(el("span", None, words)
                      + el("button", {"type": "button", "data-action": "decline-draw"},
                           tr(lang, "race_decline"))
                      + el("button", {"type": "button", "data-action": "accept-draw"},
                           tr(lang, "race_accept")))


def panel(lang: str, can: Json, invite: bool) -> Html:
    """The race's buttons: Resign, Offer draw, Invite (``invite``: the links-only
    host), Leave."""
    return Html(el("button", {"type": "button", "data-action": "resign", "disabled": not can["resign"]},
                   tr(lang, "race_resign"))
                + el("button", {"type": "button", "data-action": "offer-draw",
                                "disabled": not can["offer"]}, tr(lang, "race_offer"))
                + (el("button", {"type": "button", "data-action": "invite"}, tr(lang, "race_invite"))
                   if invite else "")
                + el("button", {"type": "button", "data-action": "leave"}, tr(lang, "race_leave")))
