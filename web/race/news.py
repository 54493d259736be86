"""What a screen reader hears of a race (issues 11 and 13): the words for the
page's live region when the race's view changes.

Pure (no browser import, tested on CPython): ``news(lang, before, after)`` takes
two views of ``kosynka.race`` (``Table.view``: the one last shown and the new
one) and returns the sentences to say; ``settings(lang, draw, minutes)`` says a
race's settings in words.

Decisions (what is said, politely, and what is not):
- Said: someone sits at the table or starts watching, leaves it, loses the
  connection or is back; a friend's Ready in the lobby (and its withdrawal); the
  host's settings when they change in the lobby; the Start with the deal and the
  settings (the deal's number only when it is short, as a solo game's: a race
  deals from 64-bit random numbers, twenty digits nobody wants read out); an opponent out of the race (resigned, or away past the grace); a
  draw offered, agreed to by someone, or off (refused, or cancelled by a move);
  the end: who won, your result and your place ("Your place: 2 of 3"). The last
  minute of a timed race is said by the race screen's clock.
- Not said: an opponent's moves (the strip shows the counters; a race would be a
  stream of words), and what you did yourself (your own Ready, offer answer,
  resignation: the button says it) — except your own draw offer, said as waiting
  for the others, since its answer comes later.
- Names are used as the players typed them; the sentences avoid gendered verbs
  in Ukrainian and Russian ("Богдан: готово", "Богдан знову на зв'язку"), as do
  the lobby's marks and the results' words (готово, перемога, поразка, вихід з
  гонки), which a name of any gender reads with.
"""

from __future__ import annotations

from web.i18n import t
from web.speech import plural

DEAL_DIGITS = 6  # a longer deal number is not read out (a race's is 64-bit random)


def settings(lang: str, draw: int, minutes: int | None) -> str:
    """"draw one, to the last card" / "по три, 5 хвилин"."""
    kind = t(lang, "race_last") if minutes is None else plural(lang, "race_minutes", minutes)
    return f"{t(lang, 'draw1' if draw == 1 else 'draw3')}, {kind}"


def _say(lang: str, key: str, **kw) -> str:
    return t(lang, key).format(**kw)


def news(lang: str, before: dict | None, after: dict | None) -> list[str]:
    """The sentences worth saying between two views (none for the first one)."""
    if before is None or after is None:
        return []
    me = after["you"]
    out: list[str] = []
    started = after["phase"] == "racing" and (before["phase"] != "racing" or before["race"] != after["race"])
    if started:
        deal = (_say(lang, "race_deal_n", n=after["deal"]) if len(str(after["deal"])) <= DEAL_DIGITS
                else t(lang, "race_deal_any"))
        return [_say(lang, "race_started", deal=deal, settings=settings(lang, after["draw"], after["minutes"]))]
    old = {p["pid"]: p for p in before["players"]}
    new = {p["pid"]: p for p in after["players"]}
    for pid, p in new.items():
        was = old.get(pid)
        if pid == me:
            continue
        name = p["name"]
        if was is None:
            out.append(_say(lang, "race_joined" if p["seat"] is not None or after["phase"] == "lobby"
                            else "race_now_watching", name=name))
            continue
        if was["connected"] != p["connected"]:
            out.append(_say(lang, "race_back" if p["connected"] else "race_conn_lost", name=name))
        if after["phase"] == before["phase"] == "lobby" and was["ready"] != p["ready"]:
            out.append(_say(lang, "race_is_ready" if p["ready"] else "race_is_not_ready", name=name))
        if was["status"] == "racing" and p["out"] and not was["out"]:
            out.append(_say(lang, "race_resigned" if p["out"] == "resigned" else "race_out_away", name=name))
    out += [_say(lang, "race_left", name=p["name"]) for pid, p in old.items() if pid not in new]
    if after["phase"] == "lobby" and (before["phase"] != "lobby" or (before["draw"], before["minutes"])
                                       != (after["draw"], after["minutes"])):
        out.append(_say(lang, "race_settings_now", settings=settings(lang, after["draw"], after["minutes"])))
    if after["phase"] == "racing":
        out += _offer_news(lang, before, after, new)
    elif before["phase"] == "racing" and after["phase"] == "over":
        out += _end_news(lang, after)
    return out


def _offer_news(lang: str, before: dict, after: dict, players: dict) -> list[str]:
    was, now, me = before["offer"], after["offer"], after["you"]
    if now is not None and (was is None or was["id"] != now["id"]):
        if now["by"] == me:
            return [t(lang, "race_offer_wait")]
        return [_say(lang, "race_offer_from", name=players.get(now["by"], {}).get("name", "?"))]
    if now is not None:
        return [_say(lang, "race_agrees", name=players[pid]["name"])
                for pid in now["agreed"] if pid not in was["agreed"] and pid != me and pid in players]
    if was is not None:
        return [t(lang, "race_offer_off")]
    return []


def _end_news(lang: str, after: dict) -> list[str]:
    standings = after["standings"] or []
    mine = next((s for s in standings if s["pid"] == after["you"]), None)
    winners = [s["name"] for s in standings if s["result"] == "won" and s["pid"] != after["you"]]
    out = [_say(lang, "race_winner", name=", ".join(winners))] if winners else []
    if mine is None:
        return out or [t(lang, "race_over")]
    out.append(t(lang, {"won": "race_you_won", "lost": "race_you_lost", "draw": "race_you_draw"}[mine["result"]]))
    out.append(_say(lang, "race_place", place=mine["place"], n=len(standings)))
    return out
