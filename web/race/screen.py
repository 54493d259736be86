"""The race screen (issues 11 and 18): your own table, a strip with every other
player's counters (N2) and the race clock, a line saying what just happened, the
race's buttons, the draw offer, and the results with every player's final table.

Your table is the solo table's view and input (``web.view.TableView``,
``web.input.TableInput``) over a table of its own, with no undo and no hints
(N10); a move goes to the page's ``play`` (our ``Player``'s game, sent to the
host, ``web.race.control``). What the screen may offer comes from the view (``can``: move, offer,
answer, resign, again, change settings), how it went from its ``outcome`` and
``end``, what happened from its events (``web.race.news``): the screen decides
no rule. Its parts are HTML from the view (``web.race.strip``, ``web.race.results``);
this class puts them in the page and keeps the table's view and input.

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

from typing import Any, Callable, Protocol

import js

from kosynka.cards import SUITS
from kosynka.game import Game
from kosynka.position import Move
from kosynka.race.table import OVER, RACING
from web.dialogs import Dialogs
from web.dom import JsObject, Listeners, document, nil
from web.input import TableInput
from web.race import news, results, strip
from web.race.control import RaceControl
from web.race.markup import Html, el, tr
from web.store import format_time
from web.view import TableView

PILES = (("stock", "pile"), ("waste", "pile"), ("f1", "pile found"), ("f2", "pile found"),
         ("f3", "pile found"), ("f4", "pile found")) + tuple((f"t{i}", "pile col") for i in range(1, 8))
NEWS_S = 8.0         # seconds the news line stays

Json = dict[str, Any]


class RaceApp(Protocol):
    """What the race's screens need of the app (``web.app.App``)."""

    lang: str
    listeners: Listeners
    view: TableView          # the solo table's: the live region, the hand
    dialogs: Dialogs
    solo: Any                # the solo game (its clock waits during a race)

    def toast(self, text: str, ms: int = ...) -> None: ...


def _set_html(node: JsObject, html: Html) -> None:
    node.innerHTML = html


class RaceScreen:
    """The race screen and the results over it; ``act(action, button)`` takes their
    buttons, ``play(move)`` our table's moves."""

    def __init__(self, app: RaceApp, control: RaceControl,
                 act: Callable[[str, JsObject], None], play: Callable[[Move], bool]) -> None:
        self.app, self.control, self.act = app, control, act
        self.table = node(el("main", {"id": "race-table", "class": "race-table"},
                              *(el("div", {"class": cls, "data-pile": name}) for name, cls in PILES)))
        for i, suit in enumerate(SUITS):
            self.table.children[2 + i].dataset.suit = suit
        self.strip = node(el("header", {"class": "race-strip"}))
        self.news = node(el("p", {"class": "race-news", "data-race-news": True, "aria-hidden": "true",
                                   "hidden": True}))
        self.offer = node(el("div", {"class": "race-offer", "hidden": True}))
        self.panel = node(el("nav", {"class": "race-panel"}))
        self.note = node(el("p", {"class": "race-note", "hidden": True}))
        self.conn = node(el("p", {"class": "race-note bar conn", "role": "status", "hidden": True}))
        self.root = node(el("div", {"id": "race-screen", "class": "race-screen", "hidden": True}))
        self.root.append(self.strip, self.news, self.conn, self.note, self.table, self.offer, self.panel)
        self.results = node(el("div", {"class": "sheet", "role": "dialog", "aria-modal": "true",
                                        "aria-labelledby": "race-outcome", "tabindex": "-1"}))
        self.results_root = node(el("div", {"id": "race-results", "class": "overlay race",
                                             "hidden": True}))
        self.results_root.append(self.results)
        document.body.appendChild(self.root)
        document.body.appendChild(self.results_root)
        for part in (self.root, self.results_root):
            app.listeners.on(part, "click", self.on_click)
        self._resized = js.ResizeObserver.new(app.listeners.proxy(lambda *a: self.measure()))
        self._resized.observe(self.table)
        self.view = TableView(self.table, app.listeners)
        self.input = TableInput(self.view, app.listeners, game=self.game, play=play,
                                locked=self.locked, undo=None, hints=False)
        self.v: Json | None = None
        self.v_at = 0.0              # race clock when the view was taken
        self.shown: tuple[int, int] | None = None
        self.results_key: tuple[Any, ...] | None = None
        self.gone = ""               # the host's table closed or gone: the words (N13)
        self.warned: int | None = None  # the race whose last minute was said
        self.news_until = 0.0

    # ------------------------------------------------------------ state
    def game(self) -> Game | None:
        game: Game | None = self.control.game()
        return game

    def can(self) -> Json:
        """What we may do: the view's word, nothing once the host's table is gone."""
        can: Json = (self.v or {}).get("can") or {}
        return {k: False for k in can} if self.gone else can

    def locked(self) -> bool:
        return not self.can().get("move")

    def outcome(self) -> str:
        return strip.outcome(self.v)

    def elapsed(self) -> float:
        return self.control.clock() - self.v_at

    # ------------------------------------------------------------ showing
    def show(self, v: Json) -> None:
        first = bool(self.root.hidden)
        self.v, self.v_at = v, self.control.clock()
        self.root.hidden = False
        self.root.dataset.deal = v["deal"]
        self.root.dataset.race = v["race"]
        if first:
            self.measure()
        document.body.dataset.race = self.outcome()
        lang = self.app.lang
        if self.table.getAttribute("lang") != lang:  # cards, piles and moves named in the page's language
            self.table.setAttribute("lang", lang)
            self.view.set_lang(lang)
            self.table.setAttribute("aria-label", tr(lang, "table_label"))
        self.show_own(animate=not first)
        self.show_strip()
        self.show_offer()
        _set_html(self.panel, strip.panel(lang, self.can(), self.control.host is not None))
        self.show_results()

    def hide(self) -> None:
        self.root.hidden = True
        self.results_root.hidden = True
        self.v = self.shown = self.results_key = None
        self.gone = ""
        self.note.removeAttribute("data-race-ended")
        self.news.hidden = True

    def measure(self) -> None:
        if not self.root.hidden and not self.table.hidden and self.table.clientHeight:
            self.view.left_handed = self.app.view.left_handed
            self.view.measure()

    def show_own(self, animate: bool) -> None:
        game = self.game()
        state = self.outcome()
        watching = game is None or state == "watching"
        self.table.hidden = watching
        self.table.classList.toggle("out", state == "out")
        if watching or state == "out" or self.gone:
            self.show_note(watching)
        else:
            self.note.hidden = True
        if game is None or watching:
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
        text, out = strip.note(self.app.lang, self.v or {}, watching, self.gone)
        self.note.textContent = text
        self.note.classList.toggle("bar", not watching)
        if out:
            self.note.dataset.out = out
        else:
            self.note.removeAttribute("data-out")
        self.note.hidden = False

    def show_strip(self) -> None:
        assert self.v is not None
        game = self.game()
        _set_html(self.strip, strip.strip(self.app.lang, self.v, self.outcome(), self.elapsed(),
                                          self.clock_text(), game.moves if game is not None else None,
                                          self.control.ways()))

    def time_left(self) -> float | None:
        """Seconds left in a timed race (None: not timed)."""
        return strip.time_left(self.v, self.elapsed())

    def clock_text(self) -> str:
        left = self.time_left()
        return "" if left is None else format_time(left)

    def show_offer(self) -> None:
        assert self.v is not None
        offer = strip.offer(self.app.lang, self.v)
        if offer is None:
            self.offer.hidden = True
            return
        self.offer.classList.toggle("ask", offer[0])
        _set_html(self.offer, offer[1])
        self.offer.hidden = False

    def show_results(self) -> None:
        v = self.v
        assert v is not None
        if v["phase"] != OVER or not v["standings"]:
            self.results_root.hidden = True
            self.results_key = None
            return
        key = (v["race"], tuple(p["connected"] for p in v["players"]), self.gone, self.app.lang)
        if key == self.results_key:
            return
        self.results_key = key
        _set_html(self.results, results.results(self.app.lang, v, self.gone))
        self.results_root.hidden = False

    def tell(self, sentences: list[str]) -> None:
        """What just happened, on the news line for a few seconds (what the
        screen's own note or draw offer says already is not said twice)."""
        shown = [] if self.note.hidden else [str(self.note.textContent)]
        if not self.offer.hidden and self.v is not None:
            shown.append(strip.offer_words(self.app.lang, self.v))
        text = news.line(sentences, shown)
        if not text:
            return
        self.news.textContent = text
        self.news.hidden = self.root.hidden
        self.news_until = self.control.clock() + NEWS_S

    def tick(self) -> None:
        v = self.v
        if v is None or self.root.hidden or self.gone:
            return                      # (the race has ended here: its clock stops)
        if not self.news.hidden and self.control.clock() > self.news_until:
            self.news.hidden = True
        if any(p["away"] is not None for p in v["players"]):
            self.show_strip()           # the grace counts down
        clock = self.strip.querySelector("[data-race-clock]")
        if not nil(clock):
            text = self.clock_text()
            if clock.textContent != text:
                clock.textContent = text
            left = self.time_left()
            if v["phase"] == RACING and self.warned != v["race"] and left is not None and left <= 60:
                self.warned = v["race"]
                self.app.view.say(tr(self.app.lang, "race_last_minute"))

    def show_conn(self, note: tuple[str, str] | None) -> None:
        """Our own way to the table over it (``data-race-note``): lost, with the
        grace left; closed or gone (N13), the race ends here (:meth:`host_gone`)."""
        if self.root.hidden:
            return                      # (the page toasts it over a lobby)
        state = note[0] if note else ""
        if note and state in ("closed", "gone"):
            if self.gone != note[1]:
                self.host_gone(note[1], state)
            return
        if self.gone:
            self.host_back()
        conn = self.conn
        if conn.getAttribute("data-race-note") != state or (note and conn.textContent != note[1]):
            if note:
                conn.textContent = note[1]
                conn.setAttribute("data-race-note", state)
            else:
                conn.removeAttribute("data-race-note")
            conn.hidden = note is None

    def host_gone(self, words: str, why: str) -> None:
        """N13 from a friend's side: the host closed the table (``why`` closed), or
        it has not been heard for the whole grace (N9; gone) — ``words`` say
        which; the race ends here with no result (the news line has said it):
        the note says it (``data-race-ended``), nothing can be played or sent."""
        self.gone = words
        self.note.setAttribute("data-race-ended", why)
        self.conn.hidden = self.news.hidden = True     # the note says it all now
        self.conn.removeAttribute("data-race-note")
        if self.v is not None:
            self.show_note(bool(self.table.hidden))
            self.input.deselect()
            _set_html(self.panel, strip.panel(self.app.lang, self.can(), self.control.host is not None))
            self.show_results()

    def host_back(self) -> None:
        """The host answered after all (our own network was down past the grace):
        its word stands — the race as it holds it."""
        self.gone = ""
        self.note.removeAttribute("data-race-ended")
        if self.v is not None:
            self.show(self.v)

    # ------------------------------------------------------------ input
    def on_click(self, ev: JsObject) -> None:
        btn = ev.target.closest("[data-action]")
        if not nil(btn) and not btn.disabled:
            self.act(str(btn.dataset.action), btn)

    def on_key(self, ev: JsObject) -> None:
        if not self.root.hidden:
            self.input.on_key(ev)


def node(html: Html) -> JsObject:
    """The element ``html`` makes (one element)."""
    box = document.createElement("template")
    box.innerHTML = html
    return box.content.firstElementChild
