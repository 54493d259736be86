"""The solo table in the page: rendering, input, panel, dialogs (issue 4, items 3–10).

The DOM follows the engine: after every action ``render`` computes where each card
belongs (``web.layout``), moves the card elements there and animates the difference
(FLIP, keyed on the card). The web layer never decides a rule: legality, targets,
counters, score, undo and Finish all come from ``kosynka``.

DOM contract (tests rely on it): cards carry ``data-card`` (face up only) and
``data-face``; piles ``data-pile`` (stock, waste, f1–f4 in suit order ♠♥♦♣, t1–t7)
hold their cards bottom → top; controls carry ``data-action`` (new, restart, undo,
hint, finish, settings; confirm/cancel in a confirmation); ``body[data-state]`` is
loading/ready/won and ``body[data-deal]`` the deal number.

Look (user-visible decisions):
- Cards are drawn by us: white faces with the rank and a suit symbol in the top-left
  corner (the part a column leaves visible) and a big suit below; suits are inline
  SVG symbols (no font or image needed). Ranks read A 2–10 J Q K in every language.
  Backs are a blue lattice. Red suits are red, black are black.
- The panel sits at the bottom (thumb reach on a phone); time, moves, score and the
  deal number (★ for the Deal of the day) at the top. Score can be hidden (S1 Off).
- Errors of input are quiet: an illegal drop or tap puts the cards back with a
  small shake, counts no move, and shows no message.

Input decisions (user-visible):
- Tap-tap (C1): a tap on a face-up card picks it up with everything on it (lifted,
  outlined in gold); a tap on a legal destination plays the move; a tap on the same
  card puts it down. A tap anywhere on the waste picks its top card (R9). A tap on
  an illegal destination puts the cards back (no move counted); if that tap was on
  another face-up card, that card is picked up instead.
- Drag (C2) with mouse or finger: after 6 px of movement the cards follow the
  pointer; they land on the legal destination their lead card overlaps most, and go
  back if they overlap none. Handlers are bound once on the table (delegation).
- Double tap / double click (two taps on the same card within 350 ms) sends the card
  to its foundation when that is legal.
- Stock (C3): a tap draws or redeals; the empty stock shows a circle when a redeal is
  left and a struck circle when none is.
- Hints (C4) start off each time the page opens; while on, every legal destination
  of the picked card is outlined in red.
- Finish: glows once F1 applies and plays the rest card by card. Before that it asks
  the solver (F2; in the solver worker, or in short slices on the page, see
  ``web.solve``) and then plays its line move by move; the win is marked assisted
  and sets no record. If the solver proves there is no path, or gives up within its
  budget, the page says so plainly. Pressing Finish again while it thinks stops it.
- Animation: FLIP keyed on the card — measure, move, invert with a transform, and
  let the transform glide to nothing on the next frame (180 ms); a card turning up
  flips (``scale``). ``prefers-reduced-motion`` turns all of it off.
- New deal and Restart ask for confirmation when the game in progress has moves; a
  changed variant applies from the next deal (at once if no move was made yet).
- The clock pauses while the page is hidden; the game is saved after every action
  and when the page is hidden (P1).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from html import escape

import js
from pyodide.ffi import create_proxy

try:  # recent Pyodide turns JS null into ``jsnull``, not None
    from pyodide.ffi import jsnull as _jsnull
except ImportError:  # pragma: no cover
    _jsnull = None


def nil(x) -> bool:
    """True for JS null/undefined as Pyodide hands them over."""
    return x is None or x is _jsnull

from kosynka.cards import RANKS, SUITS, make_card, card_name, SUIT
from kosynka.game import Game, SaveError
from kosynka.position import IllegalMoveError, InvalidMoveError, Rules

from web import layout, links, solve
from web.race.page import RacePage, menu_enabled as race_menu_enabled
from web.i18n import pick_language, t, variant_name, LANGS
from web.store import (GAME_KEY, MemoryBackend, Store, format_time, variant_key,
                       win_percent, REDEAL_CHOICES)

document = js.document
window = js.window

DOUBLE_TAP_MS = 350
DRAG_SLOP = 6
FINISH_STEP_S = 0.09  # pause between the cards of a Finish run


class LocalStorageBackend:
    """``localStorage`` behind the ``store.Backend`` protocol; quietly falls back."""

    def __init__(self) -> None:
        self.ls = window.localStorage
        self.ls.setItem("kosynka.probe", "1")
        self.ls.removeItem("kosynka.probe")

    def get(self, key: str) -> str | None:
        v = self.ls.getItem(key)
        return None if nil(v) else str(v)

    def set(self, key: str, value: str) -> None:
        self.ls.setItem(key, value)

    def remove(self, key: str) -> None:
        self.ls.removeItem(key)


def _display_rank(card: int) -> str:
    r = RANKS[card >> 2]
    return "10" if r == "T" else r


def today_iso() -> str:
    d = js.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


class App:
    def __init__(self) -> None:
        random.seed()  # a restored memory snapshot freezes random's state
        self.storage_ok = True
        try:
            backend = LocalStorageBackend()
        except Exception:  # private mode / blocked: play on, tell the player once
            backend = MemoryBackend()
            self.storage_ok = False
        self.store = Store(backend)
        self.settings = self.store.load_settings()
        self.lang = pick_language(list(window.navigator.languages or []), self.settings.lang)
        self.tab = f"{random.getrandbits(48):012x}"
        self.body = document.body
        self.table = document.getElementById("table")
        self.piles = {p.dataset.pile: p for p in document.querySelectorAll("[data-pile]")}
        self.buttons = {b.dataset.action: b for b in document.querySelectorAll("#panel [data-action]")}
        self.dialog = document.getElementById("dialog")
        self.sheet = document.getElementById("sheet")
        self.toast_el = document.getElementById("toast")
        self.els: dict[int, object] = {}
        self.placed: dict[int, layout.Place] = {}
        self.built: set[int] = set()
        self.game: Game | None = None
        self.daily: str | None = None
        self.recorded = False
        self.selected: int | None = None
        self.hints = False
        self.busy = False  # a Finish run or a solver search is on
        self.searching = False  # looking for a verified deal to deal
        self.drag: dict | None = None
        self.last_tap: tuple[int | None, float] = (None, 0.0)
        self.geom: layout.Geometry | None = None
        self.reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        self.flying: list = []
        self._to_play: list = []
        self._play_pending = False
        self.dialog_kind: str | None = None
        self.on_confirm = None
        self.on_cancel = None
        self._raf = None
        self._proxies: list = []
        self.solver = solve.Background(self)
        self._toast_timer = None

    # ------------------------------------------------------------ start-up
    async def start(self) -> None:
        # elements are told apart by a per-page random key, never by the hidden card
        self.keys = random.sample(range(100, 1000), 52)
        self.card_by_key = {}
        for c in range(52):
            el = document.createElement("div")
            el.className = "card red" if SUIT[c] in (1, 2) else "card"
            el.dataset.face = "down"
            el.dataset.k = str(self.keys[c])
            self.els[c] = el
            self.card_by_key[self.keys[c]] = c
        self.relabel()
        self.apply_score_setting()
        self.bind()
        self.measure()
        self.race = RacePage(self)
        if self.race.route(str(window.location.hash)) and self.race.mode == "handover":
            return  # this tab only hands a friend's reply to the hosting tab (issue 11)
        link = links.parse(str(window.location.hash))
        env = self.store.load_game_envelope()
        game = None
        meta = {}
        if env is not None:
            try:
                game = Game.from_json(env["game"])
                meta = env.get("meta") or {}
            except SaveError:
                self.store.set_aside(GAME_KEY)
                game = None
        if game is not None and link is not None and (
                game.number, game.rules.draw, game.rules.redeals) == (link.number, link.draw, link.redeals):
            link = None  # the address names the saved game (the hash follows the table)
        if game is not None and game.is_won:
            game = None  # a finished game is not continued: a fresh deal follows
        if game is not None:
            self.set_game(game, daily=meta.get("daily"), save=False)
            if link is not None and not self.is_link_of_current(link):
                self.open_link(link)
        elif link is not None:
            self.set_game(Game.new(link.number, Rules(link.draw, link.redeals)), daily=link.daily)
        else:
            rules = self.rules_from_settings()
            number = self.solver.take_next(rules)
            if number is None:  # first visit: find the first verified deal (V1)
                document.getElementById("loading").textContent = self.tr("looking")
                number = await self.solver.search(solve.random_start(), rules)
            self.set_game(Game.new(number, rules))
        for b in self.buttons.values():
            b.disabled = False
        self.body.dataset.state = "won" if self.game.is_won else "ready"
        if str(document.visibilityState) == "hidden":
            self.game.pause()  # opened in a background tab: the clock waits
        if not self.storage_ok:
            self.toast(t(self.lang, "no_storage"), 6000)
        elif GAME_KEY in self.store.problems:
            self.toast(t(self.lang, "bad_save"), 5000)
        elif self.store.problems:
            self.toast(t(self.lang, "bad_data"), 5000)
        if document.documentElement.getAttribute("data-update") == "ready":
            self.announce_update()      # announced before Python was up
        self.update_status()
        tick = create_proxy(lambda *a: self.tick())
        self._proxies.append(tick)
        window.setInterval(tick, 500)
        self.solver.start_worker()
        self.solver.prepare_next()

    def bind(self) -> None:
        def on(target, name, fn, passive=None):
            p = create_proxy(fn)
            self._proxies.append(p)
            if passive is None:
                target.addEventListener(name, p)
            else:
                target.addEventListener(name, p, js.Object.fromEntries([["passive", passive]]))

        on(self.table, "pointerdown", self.on_pointerdown)
        on(self.table, "pointermove", self.on_pointermove)
        on(self.table, "pointerup", self.on_pointerup)
        on(self.table, "pointercancel", self.on_pointercancel)
        on(self.table, "lostpointercapture", self.on_pointercancel)
        on(self.table, "contextmenu", lambda ev: ev.preventDefault())
        on(document.getElementById("panel"), "click", self.on_panel)
        on(self.dialog, "click", self.on_dialog)
        on(self.dialog, "pointerdown", self.arm_dialog)
        on(window, "resize", lambda ev: self.measure(rerender=True))
        on(window, "storage", self.on_storage)
        on(window, "hashchange", self.on_hashchange)
        on(window, "kosynka:update", lambda ev: self.announce_update())
        on(window, "pagehide", lambda ev: self.save())
        on(document, "visibilitychange", self.on_visibility)
        on(document, "keydown", self.on_key)
        self._raf_proxy = create_proxy(self.on_frame)
        self._cleanup_proxy = create_proxy(lambda *a: self.cleanup_anim())
        self._play_proxy = create_proxy(self.play_anim)
        self._proxies.append(self._play_proxy)
        self._toast_proxy = create_proxy(lambda *a: self.toast_el.classList.remove("show"))
        self._proxies += [self._raf_proxy, self._cleanup_proxy, self._toast_proxy]

    def measure(self, rerender: bool = False) -> None:
        w = float(self.table.clientWidth)
        h = float(self.table.clientHeight)
        g = layout.geometry(w, h)
        self.geom = g
        self.table.style.setProperty("--cw", f"{g.cw}px")
        self.table.style.setProperty("--ch", f"{g.ch}px")
        for name, el in self.piles.items():
            x, y, pw, ph = g.pile_box(name)
            el.style.left = f"{x}px"
            el.style.top = f"{y}px"
            el.style.height = f"{ph}px"
            if name == "waste":
                el.style.width = f"{pw}px"
        if rerender and self.game is not None:
            self.placed = {}
            self.render(animate=False)

    # ------------------------------------------------------------ labels
    def relabel(self) -> None:
        lang = self.lang
        document.documentElement.lang = lang
        document.title = t(lang, "title")
        for el in document.querySelectorAll("[data-t]"):
            el.textContent = t(lang, el.dataset.t)
        self.table.setAttribute("aria-label", t(lang, "title"))

    def apply_score_setting(self) -> None:
        self.body.classList.toggle("no-score", not self.settings.score)

    def tr(self, key: str) -> str:
        return t(self.lang, key)

    def hide_toast(self) -> None:
        self.toast_el.classList.remove("show")

    def set_working(self, on: bool, action: str = "finish") -> None:
        self.buttons[action].classList.toggle("working", on)
        self.update_status()

    def publish_stats(self, **kw) -> None:
        """Solver figures for tests and benchmarks: ``window.kosynkaSolverStats``."""
        sl = self.solver.slicer
        kw.update(longest_slice_ms=round(sl.longest * 1000, 2), slices=sl.slices,
                  step_s=round(sl.busy_s, 3), n=sl.n)
        try:
            old = json.loads(str(js.JSON.stringify(window.kosynkaSolverStats or {})))
        except Exception:
            old = {}
        old.update(kw)
        window.kosynkaSolverStats = js.JSON.parse(json.dumps(old))

    def deal_ready(self, rules: Rules) -> None:
        """The background search found the next verified deal (nothing to show)."""

    def announce_update(self) -> None:
        """O2: a new version is installed and starts at the next launch
        (web/boot/sw-register.mjs); the saved game is untouched."""
        self.toast(t(self.lang, "update"), 8000)

    def toast(self, text: str, ms: int = 2600) -> None:
        self.toast_el.textContent = text
        self.toast_el.classList.add("show")
        if self._toast_timer is not None:
            window.clearTimeout(self._toast_timer)
        self._toast_timer = window.setTimeout(self._toast_proxy, ms)

    # ------------------------------------------------------------ game life
    def rules_from_settings(self) -> Rules:
        return Rules(self.settings.draw, self.settings.redeals)

    def in_progress(self) -> bool:
        g = self.game
        return g is not None and g.moves > 0 and not g.is_won

    def abandon_current(self) -> None:
        if self.in_progress():
            self.store.record_abandon()

    def set_game(self, game: Game, daily: str | None = None, save: bool = True) -> None:
        self.solver.cancel_finish()
        self.game = game
        self.daily = daily
        self.recorded = False
        self.selected = None
        self.busy = False
        self.clear_hints()
        self.placed = {}
        for el in self.els.values():
            el.classList.remove("picked", "dragging", "fly", "flip")
            el.style.transform = ""
        self.body.dataset.deal = str(game.number)
        self.body.dataset.state = "won" if game.is_won else "ready"
        self.body.dataset.variant = variant_key(game.rules.draw, game.rules.redeals)
        document.getElementById("deal-no").textContent = str(game.number) + (" ★" if daily else "")
        link = links.DealLink(game.number, game.rules.draw, game.rules.redeals, daily)
        try:
            window.history.replaceState(None, "", links.format(link))
        except Exception:
            pass
        self.render(animate=False)
        self.update_status()
        if save:
            self.save()

    def new_game(self, confirm: bool = True) -> None:
        def go():
            self.abandon_current()
            rules = self.rules_from_settings()
            number = self.solver.take_next(rules)
            if number is not None:
                self.set_game(Game.new(number, rules))
                self.solver.prepare_next()
            else:
                asyncio.ensure_future(self.search_and_deal(
                    lambda: self.solver.search(solve.random_start(), rules), rules))

        if confirm and self.in_progress():
            self.ask(t(self.lang, "abandon"), go)
        else:
            go()

    def restart(self) -> None:
        def go():
            self.abandon_current()
            self.set_game(self.game.restarted(), daily=self.daily)

        if self.in_progress():
            self.ask(t(self.lang, "abandon"), go)
        else:
            go()

    async def search_and_deal(self, search, rules: Rules, daily: str | None = None) -> None:
        """Deal once a verified deal is found (sliced search; the page stays live)."""
        self.busy = True
        self.searching = True
        self.deselect()
        self.set_working(True, "new")
        self.toast(self.tr("looking"), 60_000)
        self.solver.stop_preparing()
        try:
            number = await search()
        finally:
            self.busy = False
            self.searching = False
            self.set_working(False, "new")
            self.hide_toast()
        if number is not None:
            self.set_game(Game.new(number, rules), daily=daily)
            if daily:
                self.toast(self.tr("daily") + f" {daily}")
        self.solver.prepare_next()

    def daily_game(self) -> None:
        date = today_iso()
        rules = self.rules_from_settings()

        def go():
            self.abandon_current()
            asyncio.ensure_future(self.search_and_deal(
                lambda: self.solver.daily_number(date, rules), rules, daily=date))

        if self.in_progress():
            self.ask(t(self.lang, "abandon"), go)
        else:
            go()

    def is_link_of_current(self, link: links.DealLink) -> bool:
        g = self.game
        return (g is not None and g.number == link.number and g.rules.draw == link.draw
                and g.rules.redeals == link.redeals)

    def open_link(self, link: links.DealLink) -> None:
        def go():
            self.abandon_current()
            self.set_game(Game.new(link.number, Rules(link.draw, link.redeals)), daily=link.daily)

        def stay():
            g = self.game
            window.history.replaceState(None, "", links.format(
                links.DealLink(g.number, g.rules.draw, g.rules.redeals, self.daily)))

        if self.in_progress():
            self.ask(t(self.lang, "abandon"), go, stay)
        else:
            go()

    def save(self) -> None:
        if self.game is None:
            return
        try:
            self.store.save_game(self.game.to_json(), self.tab,
                                 {"daily": self.daily, "recorded": self.recorded})
        except Exception as e:  # never let saving break play
            js.console.warn(f"save failed: {e}")

    # ------------------------------------------------------------ actions
    def play(self, move: str, animate: bool = True) -> bool:
        """Ask the engine to make ``move``; False (and nothing changes) if illegal."""
        try:
            self.game.play(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        self.after_change(animate)
        return True

    def undo(self) -> None:
        if self.busy or not self.game.can_undo:
            return
        self.deselect()
        self.game.undo()
        self.after_change(True)

    def after_change(self, animate: bool = True) -> None:
        self.deselect(render=False)
        self.save()
        self.render(animate=animate)
        self.update_status()
        if self.game.is_won and not self.busy:
            self.on_won()

    def on_won(self) -> None:
        if self.recorded:
            return
        g = self.game
        self.recorded = True
        vkey = variant_key(g.rules.draw, g.rules.redeals)
        res = self.store.record_win(vkey, int(g.elapsed()), g.moves, assisted=g.assisted,
                                    daily=self.daily)
        self.save()
        self.body.dataset.state = "won"
        self.show_win(res)

    # ------------------------------------------------------------ rendering
    def card_of(self, rank: int, suit: int) -> int:
        return make_card(rank, suit)

    def build_face(self, c: int) -> None:
        el = self.els[c]
        s = SUITS[SUIT[c]]
        el.innerHTML = (
            f'<span class="ix">{_display_rank(c)}<svg><use href="#suit-{s}"/></svg></span>'
            f'<svg class="pip"><use href="#suit-{s}"/></svg>'
        )
        self.built.add(c)

    def render(self, animate: bool = True) -> None:
        g = self.game
        pos = g.position
        pl = layout.places(pos, self.geom, self.card_of)
        anim = animate and not self.reduced and bool(self.placed)
        changed = [c for c, p in pl.items() if self.placed.get(c) != p]
        before = {}
        if anim:
            for c in changed:
                if c in self.placed:
                    r = self.els[c].getBoundingClientRect()
                    before[c] = (r.left, r.top)
        # piles whose membership or order changed: put their cards in order
        dirty = {pl[c].pile for c in changed} | {self.placed[c].pile for c in changed if c in self.placed}
        by_pile: dict[str, list[int]] = {name: [] for name in dirty}
        for c, p in pl.items():
            if p.pile in by_pile:
                by_pile[p.pile].append(c)
        for name, cards in by_pile.items():
            cards.sort(key=lambda c: pl[c].index)
            self.piles[name].replaceChildren(*[self.els[c] for c in cards])
        flipped = []
        for c in changed:
            p = pl[c]
            el = self.els[c]
            old = self.placed.get(c)
            st = el.style
            if c in before:
                st.transition = "none"
                st.transform = ""
            st.left = f"{p.x}px"
            st.top = f"{p.y}px"
            st.zIndex = str(p.index + 1)
            if old is None or old.up != p.up:
                if p.up:
                    if c not in self.built:
                        self.build_face(c)
                    el.dataset.card = card_name(c)
                    el.dataset.face = "up"
                    if anim and old is not None:
                        flipped.append(el)
                else:
                    # a card turned back down (redeal) shows nothing, not even in the DOM
                    el.removeAttribute("data-card")
                    el.dataset.face = "down"
                    if c in self.built:
                        el.innerHTML = ""
                        self.built.discard(c)
        for name in ("stock", "waste", *[f"f{i}" for i in range(1, 5)], *[f"t{i}" for i in range(1, 8)]):
            pile = self.piles[name]
            if pile.childElementCount:
                pile.removeAttribute("data-empty")
            else:
                pile.setAttribute("data-empty", "")
        self.piles["stock"].dataset.redeal = (
            "" if pos.stock else ("yes" if pos.can_redeal() else "no"))
        self.placed = pl
        if anim and (before or flipped):
            moved = []
            for c, (bx, by) in before.items():
                el = self.els[c]
                r = el.getBoundingClientRect()
                dx, dy = bx - r.left, by - r.top
                if abs(dx) + abs(dy) > 0.5:
                    el.style.transform = f"translate({dx:.1f}px,{dy:.1f}px)"
                    el.classList.add("fly")
                    moved.append(el)
                else:
                    el.style.transition = ""
            for el in flipped:
                el.classList.add("flip")
            # play on the next frame: the inverted positions are painted first, and
            # no third forced layout is needed
            self._to_play += moved
            if not self._play_pending:
                self._play_pending = True
                window.requestAnimationFrame(self._play_proxy)
            self.flying += moved + flipped
            window.setTimeout(self._cleanup_proxy, 300)
        else:
            for c in before:
                self.els[c].style.transition = ""

    def play_anim(self, *args) -> None:
        """FLIP's last step: let the moved cards glide from where they were."""
        self._play_pending = False
        for el in self._to_play:
            el.style.transition = ""
            el.style.transform = ""
        self._to_play = []

    def cleanup_anim(self) -> None:
        for el in self.flying:
            el.classList.remove("fly", "flip")
        self.flying = []

    def update_status(self) -> None:
        g = self.game
        if g is None:
            return
        document.getElementById("moves").textContent = str(g.moves)
        document.getElementById("score").textContent = str(g.score)
        self.tick()
        b = self.buttons
        if b:
            b["undo"].disabled = not g.can_undo or (self.busy and not self.solver.finishing)
            b["finish"].disabled = g.is_won or (self.busy and not self.solver.finishing)
            b["finish"].classList.toggle("ready", g.auto_finish_available)
            b["hint"].setAttribute("aria-pressed", "true" if self.hints else "false")

    def tick(self) -> None:
        if self.game is not None:
            el = document.getElementById("time")
            text = format_time(self.game.elapsed())
            if el.textContent != text:
                el.textContent = text

    # ------------------------------------------------------------ picking
    def pick_group(self, card: int) -> list[int]:
        """The card and everything on it (the elements that lift/drag together)."""
        p = self.placed.get(card)
        if p is None:
            return []
        if p.pile[0] == "t":
            col = self.game.position.columns[int(p.pile[1]) - 1]
            return list(col[p.index:])
        return [card]

    def pickable(self, card: int) -> bool:
        p = self.placed.get(card)
        if p is None or not p.up or self.game.is_won:
            return False
        pos = self.game.position
        if p.pile == "waste":
            return bool(pos.waste) and pos.waste[-1] == card
        if p.pile[0] == "f":
            return p.index == pos.foundations[int(p.pile[1]) - 1] - 1
        return p.pile[0] == "t"

    def select(self, card: int) -> None:
        self.deselect(render=False)
        self.selected = card
        for c in self.pick_group(card):
            self.els[c].classList.add("picked")
        if self.hints:
            self.show_hints(card)

    def deselect(self, render: bool = True) -> None:
        if self.selected is not None:
            for el in self.els.values():
                el.classList.remove("picked")
        self.selected = None
        self.clear_hints()

    def dest_piles(self, card: int) -> dict[str, str]:
        """pile name → notation dest, for every legal destination of ``card``."""
        out = {}
        for d in self.game.targets(card_name(card)):
            out[f"f{SUIT[card] + 1}" if d == "F" else f"t{d}"] = d
        return out

    def show_hints(self, card: int) -> None:
        self.clear_hints()
        for name in self.dest_piles(card):
            self.piles[name].setAttribute("data-hint", "")

    def clear_hints(self) -> None:
        for el in self.piles.values():
            el.removeAttribute("data-hint")

    def shake(self, cards) -> None:
        if self.reduced:
            return
        for c in cards:
            el = self.els[c]
            el.classList.remove("shake")
        self.table.offsetWidth
        for c in cards:
            self.els[c].classList.add("shake")
            self.flying.append(self.els[c])
        window.setTimeout(self._cleanup_shake_proxy(), 260)

    def _cleanup_shake_proxy(self):
        if not hasattr(self, "_shake_proxy"):
            def clean(*a):
                for el in self.els.values():
                    el.classList.remove("shake")
            self._shake_proxy = create_proxy(clean)
            self._proxies.append(self._shake_proxy)
        return self._shake_proxy

    # ------------------------------------------------------------ taps (C1, C3)
    def target_of(self, node) -> tuple[int | None, str | None]:
        """(card, pile) under a DOM node: the face-up card, and its pile."""
        if nil(node) or not hasattr(node, "closest"):
            return None, None
        pile_el = node.closest("[data-pile]")
        pile = None if nil(pile_el) else str(pile_el.dataset.pile)
        card_el = node.closest(".card")
        card = None
        if not nil(card_el) and not nil(card_el.dataset.k):
            card = self.card_by_key.get(int(card_el.dataset.k))
        return card, pile

    def tap(self, card: int | None, pile: str | None) -> None:
        if self.busy or self.game.is_won:
            return
        if pile is None:  # the bare table: put the picked cards back
            if self.selected is not None:
                group = self.pick_group(self.selected)
                self.deselect()
                self.shake(group)
            return
        if pile == "stock":
            self.deselect()
            if "D" in self.game.legal_moves():
                self.play("D")
            elif not self.game.position.stock and not self.game.position.can_redeal():
                self.toast(t(self.lang, "no_redeal"))
            return
        now = time.monotonic() * 1000
        if pile == "waste":
            w = self.game.position.waste
            card = w[-1] if w else None
        elif card is not None and not self.pickable(card):
            card = None if pile[0] == "t" else card
        last_card, last_time = self.last_tap
        self.last_tap = (card, now)
        if card is not None and card == last_card and now - last_time < DOUBLE_TAP_MS:
            self.last_tap = (None, 0.0)
            if self.selected == card or self.selected is None:
                if "F" in self.game.targets(card_name(card)):
                    self.play(f"{card_name(card)}>F")
                    return
        if self.selected is not None:
            sel = self.selected
            if card == sel:
                self.deselect()
                return
            dests = self.dest_piles(sel)
            if pile in dests:
                self.play(f"{card_name(sel)}>{dests[pile]}")
                return
            group = self.pick_group(sel)
            self.deselect()
            if card is not None and self.pickable(card) and card not in group:
                self.select(card)
            else:
                self.shake(group)
            return
        if card is not None and self.pickable(card):
            self.select(card)

    # ------------------------------------------------------------ drag (C2)
    def on_pointerdown(self, ev) -> None:
        if ev.button != 0 or self.drag is not None:
            return
        card, pile = self.target_of(ev.target)
        self.drag = {
            "id": ev.pointerId, "x0": float(ev.clientX), "y0": float(ev.clientY),
            "card": card, "pile": pile, "on": False, "dx": 0.0, "dy": 0.0,
        }
        try:
            self.table.setPointerCapture(ev.pointerId)
        except Exception:
            pass
        ev.preventDefault()

    def on_pointermove(self, ev) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        dx = float(ev.clientX) - d["x0"]
        dy = float(ev.clientY) - d["y0"]
        if not d["on"]:
            if abs(dx) + abs(dy) < DRAG_SLOP:
                return
            card = d["card"]
            if d["pile"] == "waste":
                w = self.game.position.waste
                card = w[-1] if w else None
                if card is not None:
                    # dragging the waste moves its top card even if the touch was on a fanned one
                    d["card"] = card
            if (card is None or self.busy or not self.pickable(card)):
                return
            self.deselect()
            d["on"] = True
            d["els"] = [self.els[c] for c in self.pick_group(card)]
            for el in d["els"]:
                el.classList.add("dragging")
            if self.hints:
                self.show_hints(card)  # C4: a dragged card is picked up too
        d["dx"], d["dy"] = dx, dy
        if self._raf is None:
            self._raf = window.requestAnimationFrame(self._raf_proxy)

    def on_frame(self, *args) -> None:
        self._raf = None
        d = self.drag
        if d is None or not d["on"]:
            return
        tr = f"translate({d['dx']:.1f}px,{d['dy']:.1f}px)"
        for el in d["els"]:
            el.style.transform = tr

    def on_pointerup(self, ev) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        self.drag = None
        if not d["on"]:
            self.tap(d["card"], d["pile"])
            return
        d["dx"] = float(ev.clientX) - d["x0"]
        d["dy"] = float(ev.clientY) - d["y0"]
        self.on_frame_for(d)
        self.drop(d)

    def on_frame_for(self, d) -> None:
        tr = f"translate({d['dx']:.1f}px,{d['dy']:.1f}px)"
        for el in d["els"]:
            el.style.transform = tr

    def on_pointercancel(self, ev) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        self.drag = None
        if d is not None and d["on"]:
            self.snap_back(d)

    def snap_back(self, d) -> None:
        self.clear_hints()
        for el in d["els"]:
            el.classList.remove("dragging")
            el.style.transform = ""

    def drop(self, d) -> None:
        card = d["card"]
        lead = d["els"][0].getBoundingClientRect()
        best, best_area = None, 0.0
        for name, dest in self.dest_piles(card).items():
            r = self.piles[name].getBoundingClientRect()
            w = min(lead.right, r.right) - max(lead.left, r.left)
            h = min(lead.bottom, r.bottom) - max(lead.top, r.top)
            if w > 0 and h > 0 and w * h > best_area:
                best, best_area = dest, w * h
        if best is None:
            self.snap_back(d)
            return
        self.clear_hints()
        for el in d["els"]:
            el.classList.remove("dragging")
        if not self.play(f"{card_name(card)}>{best}"):
            self.snap_back(d)

    # ------------------------------------------------------------ panel
    def on_panel(self, ev) -> None:
        btn = ev.target.closest("[data-action]")
        if nil(btn) or btn.disabled:
            return
        action = str(btn.dataset.action)
        if action == "undo":
            if self.solver.finishing:
                self.solver.cancel_finish()
                self.hide_toast()
            self.undo()
        elif action == "hint":
            self.hints = not self.hints
            if self.selected is not None and self.hints:
                self.show_hints(self.selected)
            else:
                self.clear_hints()
            self.toast(t(self.lang, "hints_on" if self.hints else "hints_off"), 1500)
            self.update_status()
        elif action == "finish":
            self.finish()
        elif self.searching:
            return  # a new deal is being looked for: it will be dealt in a moment
        elif self.busy and self.solver.finishing:
            # the player changed their mind while the solver thinks: stop it, go on
            self.solver.cancel_finish()
            self.hide_toast()
            self.on_panel(ev)
        elif self.busy and action == "settings":
            return
        elif action == "new":
            self.new_game()
        elif action == "restart":
            self.restart()
        elif action == "settings":
            self.show_settings()

    def on_key(self, ev) -> None:
        key = str(ev.key)
        if self.dialog_kind is not None:
            if key == "Escape":
                self.close_dialog(cancelled=True)
            return
        if key in ("z", "Z", "u", "Backspace") and (key in ("u", "Backspace") or ev.ctrlKey or ev.metaKey):
            ev.preventDefault()
            self.undo()
        elif key == "Escape":
            self.deselect()

    def finish(self) -> None:
        g = self.game
        if g.is_won:
            return
        self.deselect()
        if self.solver.finishing:
            self.solver.cancel_finish()
            self.toast(t(self.lang, "gave_up"))
            return
        if self.busy:
            return
        if g.auto_finish_available:
            asyncio.ensure_future(self.run_line(g.finish_moves(), assisted=False))
        else:
            self.solver.start_finish()

    async def run_line(self, line: list[str], assisted: bool) -> None:
        """Play ``line`` card by card (F1 run, or the solver's line for F2)."""
        self.busy = True
        self.update_status()
        game = self.game
        try:
            for i, move in enumerate(line):
                if self.game is not game:
                    return
                if assisted and not game.auto_finish_available:
                    game.assisted = True
                t0 = time.perf_counter()
                try:
                    game.play(move)
                except (IllegalMoveError, InvalidMoveError):
                    break
                t1 = time.perf_counter()
                self.save()
                t2 = time.perf_counter()
                self.render(animate=True)
                t3 = time.perf_counter()
                self.update_status()
                t4 = time.perf_counter()
                prof = getattr(self, "_prof", [0, 0, 0, 0])
                self._prof = [max(a, b) for a, b in zip(prof, (t1 - t0, t2 - t1, t3 - t2, t4 - t3))]
                if game.is_won:
                    break
                await asyncio.sleep(0 if self.reduced else FINISH_STEP_S)
        finally:
            if self.game is game:
                self.busy = False
                self.update_status()
                if game.is_won:
                    self.on_won()
                self.publish_stats(run_ms=[round(x * 1000, 1) for x in getattr(self, "_prof", [])])

    # ------------------------------------------------------------ dialogs
    def arm_dialog(self, ev) -> None:
        self._dialog_armed = True

    def open_dialog(self, kind: str, html: str) -> None:
        # a tap that opened the dialog (e.g. the winning move) is followed by the
        # browser's click at the same spot: only clicks whose press began inside
        # the open dialog (or keyboard clicks) count
        self._dialog_armed = False
        self.dialog_kind = kind
        self.sheet.innerHTML = html
        self.dialog.hidden = False

    def close_dialog(self, cancelled: bool = False) -> None:
        kind = self.dialog_kind
        self.dialog_kind = None
        self.dialog.hidden = True
        self.sheet.innerHTML = ""
        on_cancel = self.on_cancel
        self.on_confirm = self.on_cancel = None
        if cancelled and on_cancel is not None:
            on_cancel()
        if kind == "settings":
            self.settings_closed()

    def ask(self, question: str, on_yes, on_no=None) -> None:
        L = self.lang
        self.open_dialog("confirm", (
            f"<p class='big'>{escape(question)}</p>"
            f"<div class='buttons'><button type='button' data-action='cancel'>{escape(t(L, 'cancel'))}</button>"
            f"<button type='button' data-action='confirm'>{escape(t(L, 'confirm'))}</button></div>"))
        self.on_confirm = on_yes
        self.on_cancel = on_no

    def on_dialog(self, ev) -> None:
        if not getattr(self, "_dialog_armed", False) and int(ev.detail or 0) != 0:
            return
        target = ev.target
        if str(target.id) == "dialog":
            if self.dialog_kind != "confirm":
                self.close_dialog(cancelled=True)
            return
        setter = target.closest("[data-set]")
        if not nil(setter):
            self.change_setting(str(setter.dataset.set), str(setter.dataset.value))
            return
        btn = target.closest("[data-action]")
        if nil(btn):
            return
        action = str(btn.dataset.action)
        if action == "confirm":
            fn = self.on_confirm
            self.on_cancel = None
            self.close_dialog()
            if fn is not None:
                fn()
        elif action in ("cancel", "close"):
            self.close_dialog(cancelled=True)
        elif action == "again":
            self.close_dialog()
            self.new_game(confirm=False)
        elif action == "daily":
            self.close_dialog()
            self.daily_game()
        elif action == "race":
            self.close_dialog()
            self.race.open_host()
        elif action == "copy":
            field = document.getElementById("share-url")
            try:
                window.navigator.clipboard.writeText(field.value)
                self.toast(t(self.lang, "copied"), 1500)
            except Exception:
                field.select()

    def records_html(self) -> str:
        L = self.lang
        rows = []
        keys = sorted(set(self.store.records["best"]) | {variant_key(self.game.rules.draw, self.game.rules.redeals)})
        for k in keys:
            b = self.store.best(k)
            draw = int(k[1])
            red = int(k[3:]) if "r" in k else None
            rows.append(
                f"<tr data-variant='{k}'><td>{escape(variant_name(L, draw, red))}</td>"
                f"<td class='n'>{format_time(b['time']) if 'time' in b else t(L, 'none')}</td>"
                f"<td class='n'>{b.get('moves', t(L, 'none'))}</td></tr>")
        st = self.store.stats
        html = (f"<h3>{escape(t(L, 'records'))}</h3><table class='records'><tr><th>{escape(t(L, 'variant'))}</th>"
                f"<th class='n'>{escape(t(L, 'best_time'))}</th><th class='n'>{escape(t(L, 'fewest_moves'))}</th></tr>"
                + "".join(rows) + "</table>")
        if self.daily:
            db = self.store.daily_best(self.daily, variant_key(self.game.rules.draw, self.game.rules.redeals))
            html += (f"<p class='daily-best'>{escape(t(L, 'daily_best'))} ({self.daily}): "
                     f"{format_time(db['time']) if 'time' in db else t(L, 'none')}, "
                     f"{db.get('moves', t(L, 'none'))} {escape(t(L, 'moves').lower())}</p>")
        html += (f"<h3>{escape(t(L, 'stats'))}</h3><table class='stats'>"
                 f"<tr><td>{escape(t(L, 'played'))}</td><td class='n' data-stat='played'>{st['played']}</td></tr>"
                 f"<tr><td>{escape(t(L, 'won'))}</td><td class='n' data-stat='won'>{st['won']}</td></tr>"
                 f"<tr><td>{escape(t(L, 'win_pct'))}</td><td class='n' data-stat='win_pct'>{win_percent(st)}%</td></tr>"
                 f"<tr><td>{escape(t(L, 'streak'))}</td><td class='n' data-stat='streak'>{st['streak']}</td></tr>"
                 f"<tr><td>{escape(t(L, 'best_streak'))}</td><td class='n' data-stat='best_streak'>{st['best_streak']}</td></tr>"
                 "</table>")
        return html

    def show_win(self, res) -> None:
        L = self.lang
        g = self.game
        if g.assisted:
            rec = t(L, "assisted")
        elif res.new_time or res.new_moves or res.daily_new_time or res.daily_new_moves:
            rec = t(L, "record")
        else:
            rec = t(L, "no_record")
        score = (f"<tr><td>{escape(t(L, 'score'))}</td><td class='n' id='win-score'>{g.score}</td></tr>"
                 if self.settings.score else "")
        self.open_dialog("win", (
            f"<h2>{escape(t(L, 'win'))}</h2>"
            f"<table><tr><td>{escape(t(L, 'time'))}</td><td class='n' id='win-time'>{format_time(g.elapsed())}</td></tr>"
            f"<tr><td>{escape(t(L, 'moves'))}</td><td class='n' id='win-moves'>{g.moves}</td></tr>{score}</table>"
            f"<p class='big' id='win-record' data-record='{'yes' if res.any and not g.assisted else 'no'}'>{escape(rec)}</p>"
            + self.records_html() +
            f"<div class='buttons'><button type='button' data-action='close'>{escape(t(L, 'close'))}</button>"
            f"<button type='button' data-action='again'>{escape(t(L, 'again'))}</button></div>"))

    def show_settings(self) -> None:
        self.deselect()
        L = self.lang
        s = self.settings

        def seg(name, options):
            return "<span class='seg'>" + "".join(
                f"<button type='button' data-set='{name}' data-value='{v}' "
                f"aria-pressed='{'true' if cur else 'false'}'>{escape(label)}</button>"
                for v, label, cur in options) + "</span>"

        draw = seg("draw", [(1, t(L, "draw1"), s.draw == 1), (3, t(L, "draw3"), s.draw == 3)])
        redeals = seg("redeals", [("u" if r is None else r, t(L, "redeals_any") if r is None else str(r),
                                   s.redeals == r) for r in REDEAL_CHOICES])
        score = seg("score", [("on", t(L, "score_on"), s.score), ("off", t(L, "score_off"), not s.score)])
        lang = seg("lang", [(x, {"uk": "Українська", "ru": "Русский", "en": "English"}[x], self.lang == x)
                            for x in LANGS])
        g = self.game
        note = ""
        if (s.draw, s.redeals) != (g.rules.draw, g.rules.redeals):
            note = f"<p class='note' id='variant-note'>{escape(t(L, 'variant_next'))}</p>"
        url = str(window.location.href)
        self.open_dialog("settings", (
            f"<h2>{escape(t(L, 'settings_title'))}</h2>"
            f"<div class='row'><span>{escape(t(L, 'draw'))}</span>{draw}</div>"
            f"<div class='row'><span>{escape(t(L, 'redeals'))}</span>{redeals}</div>{note}"
            f"<div class='row'><span>{escape(t(L, 'score_setting'))}</span>{score}</div>"
            f"<div class='row'><span>{escape(t(L, 'language'))}</span>{lang}</div>"
            f"<div class='row'><button type='button' data-action='daily'>{escape(t(L, 'daily'))}</button>"
            + (f"<button type='button' data-action='race'>{escape(t(L, 'race'))}</button>"
               if race_menu_enabled() else "") + "</div>"
            f"<p>{escape(t(L, 'share'))}</p><div class='row share'><input type='text' id='share-url' readonly value='{escape(url)}'>"
            f"<button type='button' data-action='copy'>{escape(t(L, 'copy'))}</button></div>"
            f"<details><summary>{escape(t(L, 'records'))} · {escape(t(L, 'stats'))}</summary>"
            + self.records_html() + "</details>" +
            f"<div class='buttons'><button type='button' data-action='close'>{escape(t(L, 'close'))}</button></div>"))

    def change_setting(self, name: str, value: str) -> None:
        s = self.settings
        if name == "draw":
            s.draw = int(value)
        elif name == "redeals":
            s.redeals = None if value == "u" else int(value)
        elif name == "score":
            s.score = value == "on"
            self.apply_score_setting()
        elif name == "lang":
            s.lang = value
            self.lang = value
            self.relabel()
        self.store.save_settings(s)
        if name in ("draw", "redeals"):
            self.solver.prepare_next()
        self.show_settings()

    def settings_closed(self) -> None:
        """A variant change applies now if no move was made, else from the next deal."""
        g = self.game
        s = self.settings
        if (s.draw, s.redeals) != (g.rules.draw, g.rules.redeals) and g.moves == 0 and not self.busy:
            self.new_game(confirm=False)
        elif (s.draw, s.redeals) != (g.rules.draw, g.rules.redeals):
            self.toast(t(self.lang, "variant_next"))

    # ------------------------------------------------------------ page events
    def on_storage(self, ev) -> None:
        """Another tab saved the game: adopt it if it is newer (no move lost silently)."""
        if ev.key != GAME_KEY or nil(ev.newValue):
            return
        try:
            env = json.loads(str(ev.newValue))
            rev, tab = int(env["rev"]), env.get("tab")
        except Exception:
            return
        if tab == self.tab or rev <= self.store.rev:
            return
        self.store.rev = rev
        try:
            game = Game.from_json(env["game"])
        except SaveError:
            return
        if self.dialog_kind == "confirm":
            self.close_dialog()
        self.store.reload_records()
        meta = env.get("meta") or {}
        self.solver.cancel_finish()
        self.set_game(game, daily=meta.get("daily"), save=False)
        self.recorded = bool(meta.get("recorded"))
        if not game.is_won:
            self.toast(t(self.lang, "other_tab"), 4000)

    def on_hashchange(self, ev) -> None:
        link = links.parse(str(window.location.hash))
        if link is not None and not self.is_link_of_current(link):
            self.open_link(link)

    def on_visibility(self, ev) -> None:
        if self.game is None:
            return
        if str(document.visibilityState) == "hidden":
            self.game.pause()
            self.save()
        else:
            self.game.resume()
