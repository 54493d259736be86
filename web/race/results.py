"""The race's results (issues 11 and 18), as HTML from the host's view: your
result, how the race ended and why, the places with why each, the counters and
the running score (N11), every racer's final table small and read-only (N2),
and Again / Change settings for the host.

Pure functions (no browser import; tested in ``tests/test_race_web_screen.py``);
the final tables are read by the engine (``Position.from_json``).
"""

from __future__ import annotations

from typing import Any

from kosynka.cards import RANK, RANKS, RED, SUIT, SUIT_SYMBOLS
from kosynka.position import Position, Rules
from kosynka.race.table import GRACE
from web.race import news
from web.race.markup import Html, buttons, el, tr

Json = dict[str, Any]
HEADS = {"won": "race_you_won", "lost": "race_you_lost", "draw": "race_you_draw",
         "resigned": "race_you_resigned", "counted_out": "race_you_counted"}


def card_text(card: int) -> tuple[str, bool]:
    """A card's chip: (``10♥``, red)."""
    rank = "10" if RANKS[RANK[card]] == "T" else RANKS[RANK[card]]
    return rank + SUIT_SYMBOLS[SUIT[card]], RED[card]


def mini_table(pid: int, name: str, pos: Position) -> Html:
    """A player's final table, small and read-only (N2): foundations, stock and
    waste, and the seven columns (face-down cards as backs)."""
    def chip(card: int | None = None, down: bool = False) -> Html:
        if down or card is None:
            return el("span", {"class": "chip down"}, "")
        text, red = card_text(card)
        return el("span", {"class": "chip red" if red else "chip"}, text)

    top = [el("span", {"class": "chip stock"}, str(len(pos.stock))),
           chip(pos.waste[-1]) if pos.waste else el("span", {"class": "chip empty"}), el("span")]
    for suit, n in enumerate(pos.foundations):
        top.append(chip((n - 1) * 4 + suit) if n
                   else el("span", {"class": "chip empty"}, SUIT_SYMBOLS[suit]))
    cols = [el("div", {"class": "mc"}, *(chip(c, down=i < down) for i, c in enumerate(col)))
            for col, down in zip(pos.columns, pos.down, strict=True)]
    return el("div", {"class": "mini", "data-mini-pid": pid},
              el("p", {"class": "mini-name"}, name),
              el("div", {"class": "mini-top"}, *top), el("div", {"class": "mini-cols"}, *cols))


def results(lang: str, v: Json, gone: str) -> Html:
    """The results sheet of a race that is over (``v["standings"]`` set); ``gone``:
    the words of the host's table closed or gone (a friend's page, N13)."""
    result = v["outcome"]["result"] if v["outcome"] else None
    scores = {p["pid"]: p["score"] for p in v["players"]}
    rows = [el("tr", None, el("th", None, "#"), el("th", None, tr(lang, "race_player")),
               el("th", {"class": "n"}, "▲"), el("th", {"class": "n"}, "◐"),
               el("th", {"class": "n"}, "↻"), el("th", {"class": "n"}, tr(lang, "race_score")))]
    for s in v["standings"]:
        rows.append(el("tr", {"data-pid": s["pid"], "data-place": s["place"],
                              "data-result": s["result"], "data-why": s["why"],
                              "data-score": f"{scores.get(s['pid'], 0):g}"},
                       el("td", {"class": "n"}, str(s["place"])),
                       el("td", None, el("b", None, s["name"]), el("br"),
                          el("small", None,
                             f"{tr(lang, 'race_result_' + s['result'])} — {news.why(lang, s)}")),
                       el("td", {"class": "n"}, str(s["foundation"])),
                       el("td", {"class": "n"}, str(s["face_up"])),
                       el("td", {"class": "n"}, str(s["moves"])),
                       el("td", {"class": "n"}, f"{scores.get(s['pid'], 0):g}")))
    names = {str(s["pid"]): s["name"] for s in v["standings"]}
    rules = Rules(v["draw"], None)
    minis = [mini_table(int(pid), names.get(pid, "?"), Position.from_json(pos, rules))
             for pid, pos in (v["tables"] or {}).items() if pid.isdigit()]
    can = v["can"]
    return Html(
        el("h2", {"data-outcome": result or "over", "id": "race-outcome"},
           tr(lang, HEADS.get(result or "", "race_over"), s=int(GRACE)))
        + (el("p", {"class": "ending", "data-end": v["end"]["reason"]}, news.ending(lang, v))
           if v["end"] else "")
        + el("table", {"class": "standings"}, *rows)
        + ("" if can["change_settings"] else el("p", {"class": "help"}, tr(lang, "race_wait_host")))
        + (el("p", {"class": "error"}, gone) if gone else "")
        + el("div", {"class": "minis"}, *minis)
        + buttons(lang, ("leave", "race_leave"),
                  ("change-settings", "race_change_settings") if can["change_settings"] else None,
                  ("again", "race_again") if can["again"] else None))
