"""The race screen (issues 11 and 18): your own table, a strip with every other
player's counters (N2) and the race clock, a line saying what just happened, the
race's buttons, the draw offer, and the results with every player's final table.

Your table is the solo table's view and input (``web.view.TableView``,
``web.input.TableInput``) over a table of its own, with no undo and no hints
(N10); a move goes to ``RacePage.play`` (our ``Player``'s game, sent to the
host). What the screen may offer comes from the view (``can``: move, offer,
answer, resign, again, change settings), how it went from its ``outcome`` and
``end``, what happened from its events (``web.race.news``): the screen decides
no rule.

Decisions (user-visible):
- The strip shows, per opponent, the name and three counters: ▲ cards on the
  foundations, ◐ cards face up in the columns, ↻ moves (N2), and under them a
  legend in words that a phone shows too (no hover tooltip). A player who
  resigned or was counted out is dimmed; one whose connection is down is marked
  ⚡ with the seconds of their grace left (N9).
- A line under the strip says what just happened, for a few seconds: "Bohdan
  declined the draw" (to everyone), "Vira resigned", "Hanna: connection lost",
  "Time is up" … — the same words the live region says.
- Out of a race that goes on (resigned, or counted out after the grace): "You
  resigned — the race goes on without you" over your table (left as it was,
  still), the others' counters live in the strip.
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
  their heading, and the race's events are said in the live region; the last
  minute of a timed race is said once.
- At the end everyone sees the results: your result, how the race ended and why
  ("Time is up. Vira wins: most cards on the foundations"), places with why each
  ("12 on foundations", "tied: 8 on foundations, 20 face up", "resigned"), the
  counters, the running score (N11), and every player's final table, small and
  read-only (N2). The host has Again (everyone moves one seat along, N11) and
  Change settings; the others wait for the host's choice.
- A spectator (arrived after the Start, N3) sees everyone's counters and no table.

DOM contract (tests rely on it): ``#race-screen`` holds ``#race-table`` (piles
``[data-pile]`` as the solo table) and carries ``data-deal`` and ``data-race``
(the race's number); each opponent ``[data-opponent]`` with ``data-pid``,
``data-seat``, ``data-foundation``, ``data-faceup``, ``data-moves``,
``data-status``, ``data-connected`` (yes/no); ``.legend`` the counters' words;
``[data-race-clock]`` the time left; ``[data-my-moves]`` your moves;
``[data-race-news]`` what just happened; ``[data-out]`` the note of one out of
the race; ``[data-race-note]`` a friend's own connection (``web.race.page``); ``data-action`` = resign, offer-draw, accept-draw, decline-draw,
invite (host), again, change-settings, leave; ``#race-results`` the results with
``[data-outcome]`` (your result), ``[data-end]`` (how it ended: all_up,
time_up, agreed, last_left), ``tr[data-pid]`` (``data-place``,
``data-result``, ``data-why``, ``data-score``) and ``[data-mini-pid]`` per
final table.
"""

from __future__ import annotations

import js

from kosynka.cards import RANK, RANKS, RED, SUIT, SUIT_SYMBOLS, SUITS
from kosynka.position import Position, Rules
from kosynka.race.table import GRACE, OVER, RACING
from web.dom import document, fill, h, nil
from web.input import TableInput
from web.race import news
from web.store import format_time
from web.view import TableView

PILES = (("stock", "pile"), ("waste", "pile"), ("f1", "pile found"), ("f2", "pile found"),
         ("f3", "pile found"), ("f4", "pile found")) + tuple((f"t{i}", "pile col") for i in range(1, 8))
NEWS_S = 8.0         # seconds the news line stays
HEADS = {"won": "race_you_won", "lost": "race_you_lost", "draw": "race_you_draw",
         "resigned": "race_you_resigned", "counted_out": "race_you_counted"}


def _card_text(card: int) -> tuple[str, bool]:
    """A card's chip: (``10♥``, red)."""
    rank = "10" if RANKS[RANK[card]] == "T" else RANKS[RANK[card]]
    return rank + SUIT_SYMBOLS[SUIT[card]], RED[card]


def mini_table(pid: int, name: str, pos: Position) -> object:
    """A player's final table, small and read-only (N2): foundations, stock and
    waste, and the seven columns (face-down cards as backs)."""
    def chip(card: int | None = None, down: bool = False):
        if down or card is None:
            return h("span", {"class": "chip down"}, "")
        text, red = _card_text(card)
        return h("span", {"class": "chip red" if red else "chip"}, text)

    top = [h("span", {"class": "chip stock"}, str(len(pos.stock))),
           chip(pos.waste[-1]) if pos.waste else h("span", {"class": "chip empty"}), h("span")]
    for suit, n in enumerate(pos.foundations):
        top.append(chip((n - 1) * 4 + suit) if n else h("span", {"class": "chip empty"}, SUIT_SYMBOLS[suit]))
    cols = [h("div", {"class": "mc"}, *(chip(c, down=i < down) for i, c in enumerate(col)))
            for col, down in zip(pos.columns, pos.down, strict=True)]
    return h("div", {"class": "mini", "data-mini-pid": pid},
             h("p", {"class": "mini-name"}, name),
             h("div", {"class": "mini-top"}, *top), h("div", {"class": "mini-cols"}, *cols))


class RaceScreen:
    def __init__(self, page) -> None:
        self.page = page
        app = page.app
        self.table = h("main", {"id": "race-table", "class": "race-table"},
                       *(h("div", {"class": cls, "data-pile": name}) for name, cls in PILES))
        for i, suit in enumerate(SUITS):
            self.table.children[2 + i].dataset.suit = suit
        self.strip = h("header", {"class": "race-strip"})
        self.news = h("p", {"class": "race-news", "data-race-news": True, "aria-hidden": "true",
                            "hidden": True})
        self.offer = h("div", {"class": "race-offer", "hidden": True})
        self.panel = h("nav", {"class": "race-panel"})
        self.note = h("p", {"class": "race-note", "hidden": True})
        self.conn = h("p", {"class": "race-note bar conn", "role": "status", "hidden": True})
        self.root = h("div", {"id": "race-screen", "class": "race-screen", "hidden": True},
                      self.strip, self.news, self.conn, self.note, self.table, self.offer, self.panel)
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
        self.news_until = 0.0

    # ------------------------------------------------------------ state
    def me(self) -> dict | None:
        v = self.v
        return None if v is None else next((p for p in v["players"] if p["pid"] == v["you"]), None)

    def locked(self) -> bool:
        return not (self.v and self.v["can"]["move"])

    def outcome(self) -> str:
        """``body[data-race]``: running, out (resigned or counted out while the
        others race on), won, lost, draw, or watching."""
        v, me = self.v, self.me()
        if v is None or me is None or me["status"] == "watching":
            return "watching"
        result = v["outcome"] and v["outcome"]["result"]
        if v["phase"] == RACING:
            return "out" if result else ("running" if me["status"] == "racing" else "watching")
        if result is None:
            return "watching"
        return result if result in ("won", "draw") else "lost"

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
        self.news.hidden = True

    def measure(self) -> None:
        if not self.root.hidden and not self.table.hidden and self.table.clientHeight:
            self.view.left_handed = self.page.app.view.left_handed
            self.view.measure()

    def show_own(self, animate: bool) -> None:
        game = self.page.game()
        state = self.outcome()
        watching = game is None or state == "watching"
        self.table.hidden = watching
        self.table.classList.toggle("out", state == "out")
        if watching or state == "out" or self.gone:
            self.show_note(watching)
        else:
            self.note.hidden = True
        if watching:
            self.shown = None
            return
        key = (id(game), len(game.log))
        if key == self.shown:
            return
        one_more = self.shown is not None and key == (self.shown[0], self.shown[1] + 1)
        if self.shown is None or self.shown[0] != id(game):
            self.input.deselect()
            self.view.reset()
            animate = False
        self.shown = key
        self.view.render(game.position, animate=animate, played=game.last if one_more else None)

    def show_note(self, watching: bool) -> None:
        tr = self.page.tr
        if self.gone:
            text, out = tr("race_host_gone"), None
        elif watching:
            text, out = tr("race_watching_note"), None
        else:
            out = self.v["outcome"]["result"]
            text = tr("race_you_out") if out == "resigned" else tr("race_you_counted_out", s=int(GRACE))
        fill(self.note, text)
        self.note.classList.toggle("bar", not watching)
        if out:
            self.note.dataset.out = out
        else:
            self.note.removeAttribute("data-out")
        self.note.hidden = False

    def show_strip(self) -> None:
        v, tr = self.v, self.page.tr
        game = self.page.game()
        elapsed = self.page.clock() - self.v_at
        chips = []
        for p in v["players"]:
            if p["pid"] == v["you"] and self.outcome() != "watching":
                continue
            if p["seat"] is None:
                continue  # a spectator
            away = None if p["away"] is None else max(0, int(p["away"] - elapsed + 0.999))
            marks = "" if away is None else " ⚡ " + tr("race_away_s", s=away)
            said = tr("race_opp", name=p["name"], f=p["foundation"], u=p["face_up"], m=p["moves"])
            if p["status"] in ("resigned", "lost", "won", "draw") or not p["connected"]:
                said += ", " + (tr("race_dropped") if not p["connected"] else
                                tr("race_out_resigned" if p["out"] == "resigned" else
                                   "race_why_counted_out" if p["out"] == "dropped" else
                                   "race_result_" + p["status"]).format(s=int(GRACE)))
            chips.append(h("li", {"data-opponent": True, "data-pid": p["pid"], "data-seat": p["seat"],
                                  "data-foundation": p["foundation"], "data-faceup": p["face_up"],
                                  "data-moves": p["moves"], "data-status": p["status"],
                                  "data-connected": "yes" if p["connected"] else "no"},
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
        fill(self.strip, h("div", {"class": "race-head"}, *head), h("ul", {"class": "opps"}, *chips),
             h("p", {"class": "legend", "aria-hidden": "true"}, tr("race_counters")) if chips else None)

    def time_left(self) -> float | None:
        """Seconds left in a timed race (None: not timed)."""
        v = self.v
        if v is None or v["ends_in"] is None:
            return None
        return max(0.0, v["ends_in"] - (self.page.clock() - self.v_at if v["phase"] == RACING else 0))

    def clock_text(self) -> str:
        left = self.time_left()
        return "" if left is None else format_time(left)

    def tell(self, sentences: list[str]) -> None:
        """What just happened, on the news line for a few seconds (what the
        screen's own note says already is not said twice)."""
        shown = "" if self.note.hidden else str(self.note.textContent)
        text = " ".join(x for x in sentences if x != shown)
        if not text:
            return
        fill(self.news, text)
        self.news.hidden = self.root.hidden
        self.news_until = self.page.clock() + NEWS_S

    def tick(self) -> None:
        if self.v is None or self.root.hidden:
            return
        if not self.news.hidden and self.page.clock() > self.news_until:
            self.news.hidden = True
        if any(p["away"] is not None for p in self.v["players"]):
            self.show_strip()           # the grace counts down
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
        offer, can = v["offer"], v["can"]
        ask = can["answer"]                 # an offer to us; or ours, waiting for the others
        if not offer or not (ask or can["resign"] and v["you"] in offer["agreed"]):
            self.offer.hidden = True
            return
        by = next((p["name"] for p in v["players"] if p["pid"] == offer["by"]), "?")
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
        lang = self.page.app.lang
        if v["phase"] != OVER or not v["standings"]:
            self.results_root.hidden = True
            self.results_key = None
            return
        key = (v["race"], tuple(p["connected"] for p in v["players"]), self.gone, lang)
        if key == self.results_key:
            return
        self.results_key = key
        result = v["outcome"]["result"] if v["outcome"] else None
        scores = {p["pid"]: p["score"] for p in v["players"]}
        rows = [h("tr", None, h("th", None, "#"), h("th", None, tr("race_player")),
                  h("th", {"class": "n"}, "▲"), h("th", {"class": "n"}, "◐"),
                  h("th", {"class": "n"}, "↻"), h("th", {"class": "n"}, tr("race_score")))]
        for s in v["standings"]:
            rows.append(h("tr", {"data-pid": s["pid"], "data-place": s["place"],
                                 "data-result": s["result"], "data-why": s["why"],
                                 "data-score": f"{scores.get(s['pid'], 0):g}"},
                          h("td", {"class": "n"}, str(s["place"])),
                          h("td", None, h("b", None, s["name"]), h("br"),
                            h("small", None, f"{tr('race_result_' + s['result'])} — {news.why(lang, s)}")),
                          h("td", {"class": "n"}, str(s["foundation"])),
                          h("td", {"class": "n"}, str(s["face_up"])),
                          h("td", {"class": "n"}, str(s["moves"])),
                          h("td", {"class": "n"}, f"{scores.get(s['pid'], 0):g}")))
        names = {str(s["pid"]): s["name"] for s in v["standings"]}
        rules = Rules(v["draw"], None)
        minis = [mini_table(int(pid), names.get(pid, "?"), Position.from_json(pos, rules))
                 for pid, pos in (v["tables"] or {}).items() if pid.isdigit()]
        can = v["can"]
        buttons = self.page.buttons(
            ("leave", "race_leave"),
            ("change-settings", "race_change_settings") if can["change_settings"] else None,
            ("again", "race_again") if can["again"] else None)
        fill(self.results,
             h("h2", {"data-outcome": result or "over", "id": "race-outcome"},
               tr(HEADS.get(result, "race_over"), s=int(GRACE))),
             h("p", {"class": "ending", "data-end": v["end"]["reason"]}, news.ending(lang, v))
             if v["end"] else None,
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
            self.show_note(self.table.hidden)
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
