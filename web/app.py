"""The page's root: builds the parts, starts up, holds the one mode, routes the panel.

Parts (each in its own module): ``TableView`` (``web.view``) shows a position;
``TableInput`` (``web.input``) turns taps, drags and keys into moves; ``Dialogs``
(``web.dialogs``) with HTML from ``web.sheets``; ``Solo`` (``web.solo``) owns the
game; ``SolverClient`` (``web.solve``) finds verified deals and Finish lines.

DOM contract (tests rely on it): controls carry ``data-action`` (new, restart,
undo, hint, finish, settings); a control at work (a search the player waits for)
has class ``working``; Finish has class ``ready`` once F1 applies; Hints has
``aria-pressed``; ``body[data-state]`` is loading/ready/won, ``body[data-mode]``
the mode (``web.modes``), ``body[data-deal]`` the deal number and
``body[data-variant]`` the variant's key; ``#toast.show`` is a message;
``window.kosynkaSolverStats`` holds solver figures for tests and benchmarks.

Decisions (user-visible):
- The panel sits at the bottom (thumb reach on a phone); time, moves, score and the
  deal number (★ for the Deal of the day) at the top. Score can be hidden (S1 Off).
- Errors of input are quiet: an illegal drop or tap puts the cards back with a
  small shake, counts no move, and shows no message.
- While a verified deal is searched for, only Undo, Hints and Finish answer; while
  the solver thinks (F2), any other button stops it and then does its work.
"""

from __future__ import annotations

import json
import random
from typing import Any

import js

from kosynka.game import Game, SaveError
from web import links, sheets, solve
from web.challenge import ACTIONS as CHALLENGE_ACTIONS
from web.challenge import ChallengePage
from web.dialogs import Dialogs
from web.dom import JsObject, Listeners, LocalStorageBackend, document, nil, window
from web.i18n import pick_language, t
from web.input import TableInput
from web.modes import Mode
from web.race.page import RacePage
from web.solo import Solo
from web.store import AUTO_THEME, GAME_KEY, LEFT_HAND, Backend, MemoryBackend, Store
from web.view import TableView


class App:
    def __init__(self) -> None:
        random.seed()  # a restored memory snapshot freezes random's state
        self.storage_ok = True
        backend: Backend
        try:
            backend = LocalStorageBackend()
        except Exception:  # private mode / blocked: play on, tell the player once
            backend = MemoryBackend()
            self.storage_ok = False
        self.store = Store(backend)
        self.settings = self.store.load_settings()
        self.lang = pick_language(list(window.navigator.languages or []), self.settings.lang)
        self.tab = f"{random.getrandbits(48):012x}"
        self.mode = Mode.LOADING
        self.listeners = Listeners()
        self.buttons = {str(b.dataset.action): b for b in document.querySelectorAll("#panel [data-action]")}
        self.toast_el = document.getElementById("toast")
        self._toast_timer = None
        self._toast_proxy = self.listeners.proxy(lambda *a: self.hide_toast())
        self.solver = solve.SolverClient(self.store.backend, self.publish_stats)
        self.solo = Solo(self)
        self.view = TableView(document.getElementById("table"), self.listeners)
        self.input = TableInput(
            self.view, self.listeners, game=lambda: self.solo.game, play=self.solo.play,
            locked=lambda: self.mode is not Mode.READY or self.dialogs.is_open,
            undo=self.solo.undo, hints=True, no_redeal=lambda: self.toast(self.tr("no_redeal")),
            commands={"hint": lambda: self.run_action("hint"), "finish": lambda: self.run_action("finish"),
                      "new": lambda: self.run_action("new"), "help": self.show_help})
        self.input.set_hints(self.settings.hints)  # remembered like every setting (P2)
        self.dialogs: Dialogs = Dialogs(self.listeners, on_action=self.on_sheet_action,
                                        on_set=self.change_setting, on_closed=self.sheet_closed)
        self.race = RacePage(self)
        self.challenges = ChallengePage(self)
        self.solo.challenges = self.challenges  # what Solo asks of a challenge (web.solo.ChallengeSide)

    # ------------------------------------------------------------ start-up
    async def start(self) -> None:
        window.performance.mark("kosynka:start")  # the app's start-up begins (Long Tasks e2e)
        self.apply_look()
        self.relabel()
        self.apply_score_setting()
        self.bind()
        if self.race.handover_tab():
            return  # this tab only handed a friend's reply to the hosting tab (issue 11)
        self.race.route(str(window.location.hash))
        challenge = self.challenges.take_link(str(window.location.hash))  # opened once the table is up
        solo = self.solo
        link, bad_link = links.from_address(str(window.location.hash), str(window.location.search))
        env = self.challenges.on_start(self.store.load_game_envelope())
        game = None
        meta: dict[str, Any] = {}
        if env is not None:
            try:
                game = Game.from_json(env["game"])
                meta = env.get("meta") or {}
            except SaveError:
                self.store.set_aside(GAME_KEY)
                game = None
        if game is not None and link is not None and (game.number, game.rules) == (link.number, link.rules):
            link = None  # the address names the saved game (the hash follows the table)
        if game is not None and game.is_won:
            game = None  # a finished game is not continued: a fresh deal follows
        if game is not None:
            solo.set_game(game, daily=meta.get("daily"), save=False, mark=meta.get("mark"))
            if link is not None:
                solo.open_link(link)
        elif link is not None:
            solo.deal_link(link)
        else:
            rules = solo.rules_from_settings()
            number = self.solver.take_next(rules)
            if number is None:  # first visit: find the first verified deal (V1)
                document.getElementById("loading").textContent = self.tr("looking")
                number = await self.solver.verified_deal(solve.random_start(), rules)
            assert number is not None  # not cancellable: None only comes from a cancelled search
            solo.set_game(Game.new(number, rules), mark="verified")
        for b in self.buttons.values():
            b.disabled = False
        self.update_status()
        if str(document.visibilityState) == "hidden" and solo.game is not None:
            solo.game.pause()  # opened in a background tab: the clock waits
        if bad_link:  # the address named no deal: say so, and what is on the table (issue 12)
            self.toast(self.tr("bad_link_kept" if game is not None else "bad_link_new"), 6000)
        elif not self.storage_ok:
            self.toast(self.tr("no_storage"), 6000)
        elif GAME_KEY in self.store.problems:
            self.toast(self.tr("bad_save"), 5000)
        elif self.store.problems:
            self.toast(self.tr("bad_data"), 5000)
        if document.documentElement.getAttribute("data-update") == "ready":
            self.announce_update()      # announced before Python was up
        window.setInterval(self.listeners.proxy(lambda *a: self.tick()), 500)
        self.challenges.started(meta if game is not None else {}, challenge)
        self.race.way_back()
        self.solver.prepare_next(solo.rules_from_settings())

    def bind(self) -> None:
        on = self.listeners.on
        solo = self.solo
        on(document.getElementById("panel"), "click", self.on_panel)
        on(window, "resize", lambda ev: self.view.measure())
        on(window, "storage", solo.on_storage)
        on(window, "hashchange", solo.on_hashchange)
        on(window, "kosynka:update", lambda ev: self.announce_update())
        on(window, "pagehide", lambda ev: solo.save())
        on(document, "visibilitychange", solo.on_visibility)
        on(document, "keydown", self.on_key)
        on(window.matchMedia("(prefers-color-scheme: dark)"), "change", lambda ev: self.apply_look())

    # ------------------------------------------------------------ mode and status
    def set_mode(self, mode: Mode) -> None:
        self.mode = mode
        body = document.body
        body.dataset.mode = mode.value
        body.dataset.state = mode.state
        self.buttons["new"].classList.toggle("working", mode is Mode.SEARCHING)
        self.buttons["finish"].classList.toggle("working", mode is Mode.THINKING)
        self.update_status()

    def update_status(self) -> None:
        g = self.solo.game
        if g is None:
            return
        self.tick()
        b = self.buttons
        held = self.mode in (Mode.SEARCHING, Mode.FINISHING)
        b["undo"].disabled = not g.can_undo or held
        b["finish"].disabled = g.is_won or held
        b["finish"].classList.toggle("ready", g.auto_finish_available)
        b["hint"].setAttribute("aria-pressed", "true" if self.input.hints else "false")

    def tick(self) -> None:
        g = self.solo.game
        if g is not None:
            self.view.counters(g.moves, g.score, g.elapsed())

    # ------------------------------------------------------------ words
    def tr(self, key: str) -> str:
        return t(self.lang, key)

    def relabel(self) -> None:
        lang = self.lang
        document.documentElement.lang = lang
        document.title = t(lang, "title")
        for el in document.querySelectorAll("[data-t]"):
            el.textContent = t(lang, el.dataset.t)
        self.view.root.setAttribute("aria-label", t(lang, "table_label"))
        self.view.set_lang(lang)

    def apply_look(self) -> None:
        """Issue 13: the theme (html[data-theme], "auto" follows the system) and the
        hand (the top row mirrored for the left hand)."""
        theme = self.settings.theme
        if theme == AUTO_THEME:
            dark = bool(window.matchMedia("(prefers-color-scheme: dark)").matches)
            theme = "dark" if dark else "light"
        document.documentElement.dataset.theme = theme
        meta = document.querySelector("meta[name=theme-color]")
        if not nil(meta):  # the browser's bar takes the felt's colour
            meta.content = str(window.getComputedStyle(document.documentElement).getPropertyValue("--felt")).strip()
        left = self.settings.hand == LEFT_HAND
        if left != self.view.left_handed:
            self.view.left_handed = left
            self.view.measure()

    def apply_score_setting(self) -> None:
        document.body.classList.toggle("no-score", not self.settings.score)

    def toast(self, text: str, ms: int = 2600) -> None:
        self.toast_el.textContent = text
        self.toast_el.classList.add("show")
        if self._toast_timer is not None:
            window.clearTimeout(self._toast_timer)
        self._toast_timer = window.setTimeout(self._toast_proxy, ms)

    def hide_toast(self) -> None:
        self.toast_el.classList.remove("show")

    def announce_update(self) -> None:
        """O2: a new version is installed and starts at the next launch
        (web/boot/sw-register.mjs); the saved game is untouched."""
        self.toast(self.tr("update"), 8000)

    def publish_stats(self, **kw: object) -> None:
        """Solver figures for tests and benchmarks: ``window.kosynkaSolverStats``."""
        try:
            old = json.loads(str(js.JSON.stringify(window.kosynkaSolverStats or {})))
        except Exception:
            old = {}
        old.update(kw)
        window.kosynkaSolverStats = js.JSON.parse(json.dumps(old))

    # ------------------------------------------------------------ panel and keys
    def on_panel(self, ev: JsObject) -> None:
        btn = ev.target.closest("[data-action]")
        if nil(btn) or btn.disabled:
            return
        self.run_action(str(btn.dataset.action))

    def run_action(self, action: str) -> None:
        """A panel button's work (a click or its key, issue 13)."""
        if self.buttons[action].disabled:
            return
        solo = self.solo
        if action == "undo":
            self.input.deselect()
            solo.undo()
        elif action == "hint":
            self.input.set_hints(not self.input.hints)
            self.settings.hints = self.input.hints
            self.store.save_settings(self.settings)
            self.toast(self.tr("hints_on" if self.input.hints else "hints_off"), 1500)
            self.update_status()
        elif action == "finish":
            solo.finish()
        elif self.mode is Mode.SEARCHING:
            return  # a new deal is being looked for: it will be dealt in a moment
        elif self.mode is Mode.FINISHING and action == "settings":
            return
        else:
            if self.mode is Mode.THINKING:
                # the player changed their mind while the solver thinks: stop it, go on
                solo.cancel_finish()
                self.hide_toast()
            if action == "new":
                solo.new_game()
            elif action == "restart":
                solo.restart()
            elif action == "settings":
                self.show_settings()
            elif action == "race":
                self.race.open_host()

    def on_key(self, ev: JsObject) -> None:
        if self.dialogs.is_open:
            self.dialogs.on_key(ev)
        elif self.challenges.watching.viewing:
            self.challenges.watching.on_key(ev)
        elif self.race.active:
            self.race.on_key(ev)
        else:
            self.input.on_key(ev)

    # ------------------------------------------------------------ sheets
    def on_sheet_action(self, action: str) -> None:
        if action == "again":
            self.dialogs.close()
            self.solo.new_game(confirm=False)
        elif action == "daily":
            self.dialogs.close()
            self.solo.daily_game()
        elif action == "race":
            self.dialogs.close()
            self.race.open_host()
        elif action == "help":
            self.show_help()
        elif action in CHALLENGE_ACTIONS:
            if action in ("challenge", "challenges", "show-way") and self.mode not in (Mode.READY, Mode.WON):
                return  # a deal is being looked for, or played by Finish
            self.challenges.action(action)
        elif action == "copy":
            field = document.getElementById("share-url")
            try:
                window.navigator.clipboard.writeText(field.value)
                self.toast(self.tr("copied"), 1500)
            except Exception:
                field.select()

    def show_settings(self, dealt_now: bool = False) -> None:
        self.input.deselect()
        g = self.solo.game
        rules = g.rules if g is not None else self.solo.rules_from_settings()
        self.dialogs.open("settings", sheets.settings_html(
            self.lang, self.settings, rules, str(window.location.href),
            self.solo.records_html(rules), dealt_now=dealt_now, way=self.solo.mark == "verified"))

    def show_help(self) -> None:
        """The keys, in the player's language (issue 13)."""
        self.input.deselect()
        self.dialogs.open("help", sheets.help_html(self.lang))

    def change_setting(self, name: str, value: str) -> None:
        s = self.settings
        if name == "draw":
            s.draw = int(value)
        elif name == "redeals":
            s.redeals = None if value == "u" else int(value)
        elif name == "score":
            s.score = value == "on"
            self.apply_score_setting()
        elif name == "auto":
            s.auto = value == "on"
        elif name == "lang":
            s.lang = value
            self.lang = value
            self.relabel()
            self.solo.show_mark()
            self.solo.show_number()
        elif name == "theme":
            s.theme = value
        elif name == "hand":
            s.hand = value
        if name in ("theme", "hand"):
            self.apply_look()
        self.store.save_settings(s)
        dealt_now = False
        if name in ("draw", "redeals"):
            g = self.solo.game
            if (g is not None and self.solo.rules_from_settings() != g.rules and g.moves == 0
                    and self.mode is Mode.READY
                    and self.solo.challenge is None):
                # no move made: the new variant is dealt now, and the sheet says so
                self.solo.new_game(confirm=False)
                dealt_now = True
            self.solver.prepare_next(self.solo.rules_from_settings())
        self.show_settings(dealt_now)

    def sheet_closed(self, kind: str | None) -> None:
        """Settings closed with a variant change that waits for the next deal: say so.
        During a race, the solo page goes back under the race at once."""
        self.race.cover()
        self.challenges.closed(kind)
        g = self.solo.game
        if kind == "settings" and g is not None and self.solo.rules_from_settings() != g.rules \
                and self.mode is not Mode.SEARCHING:
            self.toast(self.tr("variant_next"))
