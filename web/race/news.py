"""What a race tells its players in words (issues 11, 13 and 18): the sentences
for the page's live region and the race screen's news line, made from the
table's **events** (``kosynka.race.table``: joined, left, dropped, back, ready,
settings, started, moved, offered, agreed, refused, cancelled, resigned, counted
out, time up, ended) — what happened, as the host's table knew it when it
happened, never found by comparing two views.

Pure (no browser import, tested on CPython): ``told(lang, events, view)`` takes
the events a view brought (``Player.take_events``) and the view they came with
(who "you" are, the standings at the end) and returns the sentences to say;
``settings(lang, draw, minutes)`` says a race's settings in words; ``ending``
and ``why`` word how a race ended and why each place (the results use them too).

Decisions (what is said, politely, and what is not):
- Said: someone sits at the table or starts watching, leaves it (or is removed
  by the host), loses the connection or is back; a friend's Ready in the lobby
  (and its withdrawal); the host's settings when they change and on the way
  back to the lobby; the Start with the deal and the settings (the deal's
  number only when it is short, as a solo game's: a race deals from 64-bit
  random numbers, twenty digits nobody wants read out); an opponent out of the
  race (resigned, or away past the grace); a draw offered, agreed to, declined
  — by whom, to everyone ("Bohdan declined the draw"), cancelled by a move; the
  time up; the end: how it ended and who won, your result and your place ("Your
  place: 2 of 3"). You out while the others race on: "You resigned — the race
  goes on without you". The last minute of a timed race is said by the race
  screen's clock.
- Not said: an opponent's moves (the strip shows the counters; a race would be a
  stream of words), and what you did yourself when its button says it (your
  Ready, your agreement) — except your own draw offer, said as waiting for the
  others, since its answer comes later, and your refusal.
- Names are used as the players typed them; the sentences avoid gendered verbs
  in Ukrainian and Russian ("Богдан: готово", "Богдан відхиляє нічию", present
  tense), as do the lobby's marks and the results' words (готово, перемога,
  поразка, вихід з гонки), which a name of any gender reads with.
"""

from __future__ import annotations

from typing import Any

from kosynka.race.table import GRACE, RACING
from web.i18n import t
from web.speech import plural

Json = dict[str, Any]   # a view, an event, a standings row (kosynka.race.protocol checks them)
DEAL_DIGITS = 6  # a longer deal number is not read out (a race's is 64-bit random)


def settings(lang: str, draw: int, minutes: int | None) -> str:
    """"draw one, to the last card" / "по три, 5 хвилин"."""
    kind = t(lang, "race_last") if minutes is None else plural(lang, "race_minutes", minutes)
    return f"{t(lang, 'draw1' if draw == 1 else 'draw3')}, {kind}"


def _say(lang: str, key: str, **kw: object) -> str:
    return t(lang, key).format(**kw)


def _names(view: Json, pids: list[int]) -> str:
    names = {p["pid"]: p["name"] for p in view["players"]}
    names.update({s["pid"]: s["name"] for s in view["standings"] or ()})
    return ", ".join(names.get(pid, "?") for pid in pids)


def ending(lang: str, view: Json) -> str:
    """How the race in ``view`` ended and who won, in one sentence ("" while it runs)."""
    end = view.get("end")
    if not end:
        return ""
    if end["reason"] == "agreed":
        return t(lang, "race_end_agreed")
    key = end["reason"] if end["reason"] != "time_up" else end["decided_by"]
    sentence = _say(lang, "race_end_" + key, name=_names(view, end["winners"] or end["drawn"]))
    return (t(lang, "race_time_up") + " " + sentence) if end["reason"] == "time_up" else sentence


def why(lang: str, row: Json) -> str:
    """Why a standings row has its place: "all 52 up", "12 on foundations, 30 face up"…"""
    return _say(lang, "race_why_" + row["why"], f=row["foundation"], u=row["face_up"], s=int(GRACE))


def told(lang: str, events: list[Json], view: Json | None) -> list[str]:
    """The sentences worth saying for ``events`` (oldest first), for the viewer of ``view``."""
    if view is None:
        return []
    me = view["you"]
    out: list[str] = []
    for e in events:
        kind, pid, name = e["kind"], e["pid"], e["name"] or "?"
        mine = pid == me
        if kind == "joined" and not mine:
            out.append(_say(lang, "race_joined" if e["seat"] is not None else "race_now_watching",
                            name=name))
        elif kind == "seated" and not mine:
            out.append(_say(lang, "race_joined", name=name))
        elif kind == "left":
            out.append(_say(lang, "race_removed" if e["why"] == "removed" else "race_left", name=name))
        elif kind in ("dropped", "back") and not mine:
            out.append(_say(lang, "race_conn_lost" if kind == "dropped" else "race_back", name=name))
        elif kind == "ready" and not mine:
            out.append(_say(lang, "race_is_ready" if e["ready"] else "race_is_not_ready", name=name))
        elif kind == "settings":
            out.append(_say(lang, "race_settings_now", settings=settings(lang, e["draw"], e["minutes"])))
        elif kind == "lobby":
            out.append(_say(lang, "race_settings_now",
                            settings=settings(lang, view["draw"], view["minutes"])))
        elif kind == "started":
            deal = (_say(lang, "race_deal_n", n=e["deal"]) if len(str(e["deal"])) <= DEAL_DIGITS
                    else t(lang, "race_deal_any"))
            out.append(_say(lang, "race_started", deal=deal,
                            settings=settings(lang, e["draw"], e["minutes"])))
        elif kind == "offered":
            out.append(t(lang, "race_offer_wait") if mine else _say(lang, "race_offer_from", name=name))
        elif kind == "agreed" and not mine:
            out.append(_say(lang, "race_agrees", name=name))
        elif kind == "refused":
            out.append(t(lang, "race_you_declined") if mine else _say(lang, "race_declined", name=name))
        elif kind == "cancelled":
            out.append(_say(lang, "race_offer_moved", name=name) if e["why"] == "moved" and not mine
                       else t(lang, "race_offer_off"))
        elif kind in ("resigned", "counted_out"):
            if not mine:
                out.append(_say(lang, "race_resigned" if kind == "resigned" else "race_out_away",
                                name=name))
            elif view["phase"] == RACING:
                out.append(t(lang, "race_you_out") if kind == "resigned"
                           else _say(lang, "race_you_counted_out", s=int(GRACE)))
        elif kind == "time_up":
            continue                      # said with the end, in one sentence
        elif kind == "ended":
            out += _end(lang, view)
        elif kind == "closed":            # our Player's own news of the host (N13)
            out.append(_say(lang, "race_host_closed", name=name))
        elif kind == "gone":
            out.append(_say(lang, "race_host_gone", name=name, s=int(GRACE)))
    return out


def line(sentences: list[str], shown: list[str]) -> str:
    """The race screen's news line for ``sentences`` (:func:`told`): those the
    screen shows already in sight (``shown``: the note over the table, the draw
    offer's words) are left out, so nothing is read twice on the screen; the
    live region still says them all (a screen reader is not shown the bar)."""
    return " ".join(x for x in sentences if x not in shown)


def _end(lang: str, view: Json) -> list[str]:
    standings = view["standings"] or []
    out = [ending(lang, view)] if view.get("end") else [t(lang, "race_over")]
    mine = next((s for s in standings if s["pid"] == view["you"]), None)
    if mine is not None:
        out.append(t(lang, {"won": "race_you_won", "lost": "race_you_lost",
                            "draw": "race_you_draw"}[mine["result"]]))
        out.append(_say(lang, "race_place", place=mine["place"], n=len(standings)))
    return out
