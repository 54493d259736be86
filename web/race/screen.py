"""The race screen (issue 11 item 3): your own table, a strip with every other
player's counters (N2) and the race clock, the race's buttons, the draw offer,
and the results with every player's final table.

Your table is the solo table's view and input (``web.view.TableView``,
``web.input.TableInput``) over a table of its own, with no undo and no hints
(N10); a move goes to ``RacePage.play`` (the host's copy, or the player's game
sent to the host).

Decisions (user-visible):
- The strip shows, per opponent, the name and three counters: ▲ cards on the
  foundations, ◐ cards face up in the columns, ↻ moves (N2); a player who
  resigned or dropped out is dimmed, one whose connection is down is marked.
- A timed race shows its clock counting down at the top (N6); a race to the last
  card shows none.
- Resign asks first. Offer draw waits for the others' answers; an offer to you
  shows Accept / Decline under your table, by the thumb, above the buttons (N7).
- The table is measured again whenever its box changes (a ResizeObserver: the
  offer bar coming and going, the strip wrapping, a phone turned), so no card
  ever runs under the buttons; it follows the left-handed setting of the solo
  table.
- For a screen reader each opponent reads "Bohdan: 3 on foundations, 12 face up,
  40 moves" (the symbols are hidden from it), the results are a dialog named by
  their heading, and the race's events are said in the live region
  (``web.race.news``); the last minute of a timed race is said once.
- At the end everyone sees the results: places, the counters, the running score
  (N11), and every player's final table, small and read-only (N2). The host has
  Again (everyone moves one seat along, N11) and Change settings; the others wait
  for the host's choice.
- A spectator (arrived after the Start, N3) sees everyone's counters and no table.

DOM contract (tests rely on it): ``#race-screen`` holds ``#race-table`` (piles
``[data-pile]`` as the solo table) and carries ``data-deal`` and ``data-race``
(the race's number); each opponent ``[data-opponent]`` with ``data-pid``,
``data-seat``, ``data-foundation``, ``data-faceup``, ``data-moves``,
``data-status``, ``data-connected`` (yes/no); ``[data-race-clock]`` the time
left; ``[data-my-moves]`` your moves; ``data-action`` = resign, offer-draw,
accept-draw, decline-draw, invite (host), again, change-settings, leave;
``#race-results`` the results with ``tr[data-pid]`` (``data-place``,
``data-result``, ``data-score``) and ``[data-mini-pid]`` per final table.
"""

from __future__ import annotations

from kosynka.cards import SUIT_SYMBOLS, parse_card
from kosynka.race.table import OVER, RACING

import js

from web.dom import document, nil
from web.input import TableInput
from web.race.dom import fill, h
from web.store import format_time
from web.view import TableView

PILES = (("stock", "pile"), ("waste", "pile"), ("f1", "pile found"), ("f2", "pile found"),
         ("f3", "pile found"), ("f4", "pile found")) + tuple((f"t{i}", "pile col") for i in range(1, 8))


def _card_text(name: str) -> tuple[str, bool]:
    """``Th`` → (``10♥``, red)."""
    card = parse_card(name)
    rank = "10" if name[0] == "T" else name[0]
    return rank + SUIT_SYMBOLS[card & 3], (card & 3) in (1, 2)


def mini_table(pid: int, name: str, pos: dict) -> object:
    """A player's final table, small and read-only (N2): foundations, stock and
    waste, and the seven columns (face-down cards as backs)."""
    def chip(text: str | None, red: bool = False, down: bool = False):
        cls = "chip down" if down else ("chip red" if red else "chip")
        return h("span", {"class": cls}, "" if down else text)

    top = [h("span", {"class": "chip stock"}, str(len(pos["stock"])))]
    waste = pos["waste"]
    top.append(chip(*_card_text(waste[-1])) if waste else h("span", {"class": "chip empty"}))
    top.append(h("span"))
    for suit, n in enumerate(pos["foundations"]):
        if n:
            rank = "A23456789TJQK"[n - 1]
            top.append(chip(*_card_text(rank + "shdc"[suit])))
        else:
            top.append(h("span", {"class": "chip empty"}, SUIT_SYMBOLS[suit]))
    cols = []
    for col, down in zip(pos["tableau"], pos["down"]):
        cols.append(h("div", {"class": "mc"}, *(
            chip(None, down=True) if i < down else chip(*_card_text(c)) for i, c in enumerate(col))))
    return h("div", {"class": "mini", "data-mini-pid": pid},
             h("p", {"class": "mini-name"}, name),
             h("div", {"class": "mini-top"}, *top), h("div", {"class": "mini-cols"}, *cols))


class RaceScreen:
    def __init__(self, page) -> None:
        self.page = page
        app = page.app
        self.table = h("main", {"id": "race-table", "class": "race-table"},
                       *(h("div", {"class": cls, "data-pile": name}) for name, cls in PILES))
        for i, suit in enumerate("shdc"):
            self.table.children[2 + i].dataset.suit = suit
        self.strip = h("header", {"class": "race-strip"})
        self.offer = h("div", {"class": "race-offer", "hidden": True})
        self.panel = h("nav", {"class": "race-panel"})
        self.note = h("p", {"class": "race-note", "hidden": True})
        self.root = h("div", {"id": "race-screen", "class": "race-screen", "hidden": True},
                      self.strip, self.table, self.note, self.offer, self.panel)
        self.results = h("div", {"class": "sheet", "role": "dialog", "aria-modal": "true",
                                 "aria-labelledby": "race-outcome", "tabindex": "-1"})
        self.results_root = h("div", {"id": "race-results", "class": "overlay race", "hidden": True},
                              self.results)
        document.body.appendChild(self.root)
        document.body.appendChild(self.results_root)
        for el in (self.root, self.results_root):
            app.listeners.on(el, "click", self.on_click)
        self._resized = js.ResizeObserver.new(app.listeners.proxy(lambda *a: self.measure()))
        self._resized.observe(self.table)
        self.view = TableView(self.table, app.listeners)
        self.input = TableInput(self.view, app.listeners, game=page.game, play=page.play,
                                locked=self.locked, undo=None, hints=False)
        self.v: dict | None = None
        self.v_at = 0.0              # page clock when the view was taken
        self.shown: tuple | None = None
        self.results_key: tuple | None = None
        self.gone = False
        self.warned: int | None = None  # the race whose last minute was said

    # ------------------------------------------------------------ state
    def me(self) -> dict | None:
        v = self.v
        return None if v is None else next((p for p in v["players"] if p["pid"] == v["you"]), None)

    def locked(self) -> bool:
        return not (self.v and self.v["can"]["move"])

    def outcome(self) -> str:
        """``body[data-race]``: running, won, lost, draw or watching."""
        me = self.me()
        if me is None or me["status"] == "watching" or me["seat"] is None and self.v["phase"] == RACING:
            return "watching"
        if me["status"] in ("won", "lost", "draw"):
            return me["status"]
        if me["status"] == "resigned":
            return "lost"
        return "running" if self.v["phase"] == RACING else "watching"

    # ------------------------------------------------------------ showing
    def show(self, v: dict) -> None:
        first = self.root.hidden
        self.v, self.v_at = v, self.page.clock()
        self.root.hidden = False
        self.root.dataset.deal = v["deal"]
        self.root.dataset.race = v["race"]
        if first:
            self.measure()
        document.body.dataset.race = self.outcome()
        lang = self.page.app.lang
        if self.table.getAttribute("lang") != lang:  # cards, piles and moves named in the page's language
            self.table.setAttribute("lang", lang)
            self.view.set_lang(lang)
            self.table.setAttribute("aria-label", self.page.tr("table_label"))
        self.show_own(animate=not first)
        self.show_strip()
        self.show_offer()
        self.show_panel()
        self.show_results()

    def hide(self) -> None:
        self.root.hidden = True
        self.results_root.hidden = True
        self.v = self.shown = self.results_key = None
        self.gone = False

    def measure(self) -> None:
        if not self.root.hidden and not self.table.hidden and self.table.clientHeight:
            self.view.left_handed = self.page.app.view.left_handed
            self.view.measure()

    def show_own(self, animate: bool) -> None:
        game = self.page.game()
        watching = game is None or self.outcome() == "watching"
        self.table.hidden = watching
        self.note.hidden = not watching
        if watching:
            fill(self.note, self.page.tr("race_watching_note"))
            self.shown = None
            return
        key = (id(game), len(game.log))
        if key == self.shown:
            return
        if self.shown is None or self.shown[0] != id(game):
            self.input.deselect()
            self.view.reset()
            animate = False
        self.shown = key
        self.view.render(game.position, animate=animate)

    def show_strip(self) -> None:
        v, tr = self.v, self.page.tr
        game = self.page.game()
        chips = []
        for p in v["players"]:
            if p["pid"] == v["you"] and self.outcome() != "watching":
                continue
            if p["seat"] is None:
                continue  # a spectator
            marks = "" if p["connected"] else " ⚡"
            said = tr("race_opp", name=p["name"], f=p["foundation"], u=p["face_up"], m=p["moves"])
            if p["status"] in ("resigned", "lost", "won", "draw") or not p["connected"]:
                said += ", " + (tr("race_dropped") if not p["connected"] else
                                tr("race_out_resigned" if p["status"] == "resigned" else "race_result_" + p["status"]))
            chips.append(h("li", {"data-opponent": True, "data-pid": p["pid"], "data-seat": p["seat"],
                                  "data-foundation": p["foundation"], "data-faceup": p["face_up"],
                                  "data-moves": p["moves"], "data-status": p["status"],
                                  "data-connected": "yes" if p["connected"] else "no",
                                  "title": tr("race_counters")},
                           h("span", {"class": "sr-only"}, said),
                           h("span", {"class": "who", "aria-hidden": "true"}, p["name"] + marks),
                           h("span", {"class": "nums", "aria-hidden": "true"},
                             f"▲{p['foundation']} ◐{p['face_up']} ↻{p['moves']}")))
        head = []
        if v["minutes"] is not None:
            head.append(h("b", {"class": "race-clock", "data-race-clock": True}, self.clock_text()))
        if game is not None:
            head.append(h("span", {"class": "mine"}, f"{tr('moves')} ",
                          h("b", {"data-my-moves": True}, str(game.moves))))
        fill(self.strip, h("div", {"class": "race-head"}, *head), h("ul", {"class": "opps"}, *chips))

    def time_left(self) -> float | None:
        """Seconds left in a timed race (None: not timed)."""
        v = self.v
        if v is None or v["ends_in"] is None:
            return None
        return max(0.0, v["ends_in"] - (self.page.clock() - self.v_at if v["phase"] == RACING else 0))

    def clock_text(self) -> str:
        left = self.time_left()
        return "" if left is None else format_time(left)

    def tick(self) -> None:
        if self.v is None or self.root.hidden:
            return
        clock = self.strip.querySelector("[data-race-clock]")
        if clock:
            text = self.clock_text()
            if clock.textContent != text:
                clock.textContent = text
            if self.v["phase"] == RACING and self.warned != self.v["race"] and self.time_left() <= 60:
                self.warned = self.v["race"]
                self.page.say(self.page.tr("race_last_minute"))

    def show_offer(self) -> None:
        v, tr = self.v, self.page.tr
        offer = v["offer"] if v["phase"] == RACING else None
        me = self.me()
        if not offer or not me or me["status"] != "racing":
            self.offer.hidden = True
            return
        by = next((p["name"] for p in v["players"] if p["pid"] == offer["by"]), "?")
        ask = me["pid"] not in offer["agreed"]
        self.offer.classList.toggle("ask", ask)
        if not ask:
            fill(self.offer, h("span", None, tr("race_offer_wait")))
        else:
            fill(self.offer, h("span", None, tr("race_offer_from", name=by)),
                 h("button", {"type": "button", "data-action": "decline-draw"}, tr("race_decline")),
                 h("button", {"type": "button", "data-action": "accept-draw"}, tr("race_accept")))
        self.offer.hidden = False

    def show_panel(self) -> None:
        tr = self.page.tr
        can = self.v["can"]
        buttons = [h("button", {"type": "button", "data-action": "resign", "disabled": not can["resign"]},
                     tr("race_resign")),
                   h("button", {"type": "button", "data-action": "offer-draw",
                                "disabled": not can["offer"]}, tr("race_offer"))]
        if self.page.links is not None:
            buttons.append(h("button", {"type": "button", "data-action": "invite"}, tr("race_invite")))
        buttons.append(h("button", {"type": "button", "data-action": "leave"}, tr("race_leave")))
        fill(self.panel, *buttons)

    def show_results(self) -> None:
        v, tr = self.v, self.page.tr
        if v["phase"] != OVER or not v["standings"]:
            self.results_root.hidden = True
            self.results_key = None
            return
        key = (v["race"], tuple(p["connected"] for p in v["players"]), self.gone)
        if key == self.results_key:
            return
        self.results_key = key
        outcome = self.outcome()
        head = {"won": "race_you_won", "lost": "race_you_lost", "draw": "race_you_draw"}.get(
            outcome, "race_over")
        scores = {p["pid"]: p["score"] for p in v["players"]}
        rows = [h("tr", None, h("th", None, "#"), h("th", None, tr("race_player")),
                  h("th", {"class": "n"}, "▲"), h("th", {"class": "n"}, "◐"),
                  h("th", {"class": "n"}, "↻"), h("th", {"class": "n"}, tr("race_score")))]
        for s in v["standings"]:
            result = tr("race_result_" + s["result"]) + (
                f" ({tr('race_out_' + s['out'])})" if s["out"] else "")
            rows.append(h("tr", {"data-pid": s["pid"], "data-place": s["place"],
                                 "data-result": s["result"], "data-score": f"{scores.get(s['pid'], 0):g}"},
                          h("td", {"class": "n"}, str(s["place"])),
                          h("td", None, h("b", None, s["name"]), h("br"), h("small", None, result)),
                          h("td", {"class": "n"}, str(s["foundation"])),
                          h("td", {"class": "n"}, str(s["face_up"])),
                          h("td", {"class": "n"}, str(s["moves"])),
                          h("td", {"class": "n"}, f"{scores.get(s['pid'], 0):g}")))
        names = {str(s["pid"]): s["name"] for s in v["standings"]}
        minis = [mini_table(int(pid), names.get(pid, "?"), pos)
                 for pid, pos in (v["tables"] or {}).items()]
        can = v["can"]
        buttons = self.page.buttons(
            ("leave", "race_leave"),
            ("change-settings", "race_change_settings") if can["change_settings"] else None,
            ("again", "race_again") if can["again"] else None)
        fill(self.results,
             h("h2", {"data-outcome": outcome, "id": "race-outcome"}, tr(head)),
             h("table", {"class": "standings"}, *rows),
             None if can["change_settings"] else h("p", {"class": "help"}, tr("race_wait_host")),
             h("p", {"class": "error"}, tr("race_host_gone")) if self.gone else None,
             h("div", {"class": "minis"}, *minis), buttons)
        self.results_root.hidden = False

    def host_gone(self) -> None:
        """N9 from the friend's side: the host's table did not come back in time."""
        self.gone = True
        self.page.say(self.page.tr("race_host_gone"))
        if self.v is not None and not self.root.hidden:
            fill(self.note, self.page.tr("race_host_gone"))
            self.note.hidden = False
            self.input.deselect()
        else:
            self.page.app.toast(self.page.tr("race_host_gone"), 8000)

    # ------------------------------------------------------------ input
    def on_click(self, ev) -> None:
        btn = ev.target.closest("[data-action]")
        if not nil(btn) and not btn.disabled:
            self.page.action(str(btn.dataset.action), btn)

    def on_key(self, ev) -> None:
        if not self.root.hidden:
            self.input.on_key(ev)
