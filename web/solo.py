"""The solo game: its life (new deal, restart, Deal of the day, links), saving,
the win, Finish (F1 and F2) and what other tabs and the page's visibility do to it.

It owns the ``Game`` on the table and plays every move through the engine; the
view shows it, the input proposes moves, the app root (``web.app``) holds the mode.

Decisions (user-visible):
- New deal and Restart ask for confirmation when the game in progress has moves; a
  changed variant applies from the next deal (at once if no move was made yet).
- Finish (F1, F2): ``web.finish`` (its decisions are there); the solo game holds
  it and plays its cards.
- The deal's mark next to its number (``body[data-verified]``, V1): every deal
  Kosynka hands out (New deal, Deal of the day, the first deal) is verified when
  dealt. A deal from a link — or a saved game whose mark is unknown — is dealt at
  once and checked in the background by the solver worker with Finish's budget:
  "✓ verified" (the solver won it), "✗ no path to victory" (proven lost) or "not
  verified" (undecided within the budget); "checking…" meanwhile. A link carries
  no mark (anyone can edit a link); the mark is kept with the saved game.
- Auto-move to foundations (a setting, off by default): after each move of the
  player, the cards the solver's safety rule (``kosynka.safety``) puts up go up,
  one at a time. Each is a move like any other (T1: it counts, scores and is
  undone by Undo one at a time); an Undo never triggers one, so a card the player
  took back stays until their next move. Finish runs (F1, F2) play their own lines.
- The win: a short cascade of the cards (``TableView.celebrate``; none with
  reduced motion), then the win sheet.
- A game that can no longer be won says so once, as it gets there (the
  engine's ``Outcome``: no legal move left, or a dead end — no sequence of moves
  puts a card up, turns one up or plays one from the stock and waste): a toast
  says undo or deal again; ``body[data-outcome]`` names it (``won`` too). The
  game stays on the table: undo is the player's way out.
- The address (hash) is always the link to the deal on the table (V2); a link to
  another deal over a game in progress asks first. A link's ``daily=`` makes the
  deal a Deal of the day only when it is that day's own deal (``deal_link``).
- The clock pauses while the page is hidden; the game is saved after every action
  and when the page is hidden (P1). Another tab's newer save is adopted, and the
  player is told (no move lost silently).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from html import escape
from typing import Protocol

from kosynka import deals, records, variants
from kosynka.game import Game, SaveError
from kosynka.position import IllegalMoveError, InvalidMoveError, Move, Rules
from kosynka.safety import next_safe_move
from web import links, sheets, solve, store
from web.dom import JsObject, document, nil, today_iso, window
from web.finish import FINISH_STEP_S, Finisher
from web.i18n import variant_short
from web.modes import Mode
from web.solo_needs import SoloPage

MARK_SYMBOLS = {"verified": "✓", "checking": "", "lost": "✗", "unknown": "?"}  # checking: a spinner (CSS)


class ChallengeSide(Protocol):
    """What the solo game asks of a challenge whose game is on the table
    (``web.challenge.ChallengePage``); it knows nothing else of it."""

    def ask_end(self, stay: Callable[[], None] | None = None) -> None:
        """The player would leave the challenge's game: ask to end it first."""

    def finished(self) -> None:
        """The challenge's game is won: its results take the win sheet's place."""


class Solo:
    """The game on the table and its life. ``game`` is None only before start-up
    deals the first one (``web.app.App.start``); until then no control answers,
    and what runs on an event of the page (another tab's save, the address, the
    page hidden) does nothing."""

    def __init__(self, app: SoloPage) -> None:
        self.app = app
        self.game: Game | None = None
        self.daily: str | None = None
        self.recorded = False
        self.mark = "checking"
        self._check: solve.Finish | None = None
        self._auto: asyncio.Future[None] | None = None
        self.finisher = Finisher(app, self)
        self.challenge: str | None = None  # the code of the challenge on the table (web.challenge)
        self.challenges: ChallengeSide | None = None  # the page's challenges, once they are there

    # ------------------------------------------------------------ game life
    def rules_from_settings(self) -> Rules:
        return Rules(self.app.settings.draw, self.app.settings.redeals)

    def in_progress(self) -> bool:
        return records.in_progress(self.game)

    def abandon_current(self) -> None:
        if self.in_progress():
            self.app.store.change_records(records.Records.record_abandon)

    def set_game(self, game: Game, daily: str | None = None, save: bool = True,
                 mark: str | None = None, recorded: bool = False) -> None:
        """Put ``game`` on the table. ``mark``: ``verified`` for a deal Kosynka found,
        a saved mark, or None — the deal is then checked in the background.
        ``recorded``: the game is already counted in the statistics (a kept game)."""
        app = self.app
        self.cancel_finish()
        self.cancel_check()
        self.game = game
        self.daily = daily
        self.recorded = recorded
        app.input.deselect()
        app.view.reset()
        body = document.body
        body.dataset.deal = str(game.number)
        body.dataset.variant = variants.key(game.rules)
        self.show_number()
        self.mark = mark if mark in MARK_SYMBOLS and mark != "checking" else "checking"
        self.show_mark()
        if self.mark == "checking":
            self.start_check(game)
        self.show_link()
        app.view.render(game.position, animate=False)
        app.set_mode(Mode.WON if game.is_won else Mode.READY)
        self.show_outcome(game)
        if save:
            self.save()

    def show_number(self) -> None:
        """The deal's number, with ★ when it is a Deal of the day, and its variant."""
        g = self.game
        if g is None:
            return
        document.getElementById("deal-no").textContent = str(g.number) + (" ★" if self.daily else "")
        document.getElementById("variant").textContent = variant_short(self.app.lang, g.rules.draw,
                                                                       g.rules.redeals)

    def deal_link(self, link: links.DealLink) -> None:
        """Deal the deal a link names. Its ``daily=`` counts only for that day's own
        deal (issue 32): below the day's starting number it is dropped at once,
        else the day's deal is searched (as Deal of the day does) and the deal on
        the table becomes the Deal of the day — ★, the records of that date — when
        it is that one; until then, and otherwise, it is an ordinary deal."""
        game = Game.new(link.number, link.rules)
        self.set_game(game)
        date = link.daily
        if date is None or link.number < deals.daily_number(date):
            return

        async def confirm() -> None:
            number = await self.app.solver.daily_number(date, link.rules)
            if self.game is game and number == game.number and self.daily is None:
                self.daily = date
                self.show_number()
                self.show_link()
                self.save()

        asyncio.ensure_future(confirm())

    def show_link(self) -> None:
        """The address names the deal on the table (V2); a game with no deal number
        (a saved game may have none) has no link: the address then has no hash."""
        g = self.game
        if g is None:
            return
        link = "" if g.number is None else links.format(
            links.DealLink(g.number, g.rules.draw, g.rules.redeals, self.daily))
        try:
            # the hash names the deal; a query (``?deal=42``, read at start-up) is dropped
            window.history.replaceState(None, "", str(window.location.pathname) + link)
        except Exception:
            pass

    # ------------------------------------------------------------ the deal's mark (V1)
    def show_mark(self) -> None:
        """The mark next to the deal number, in words (``body[data-verified]``)."""
        no = document.getElementById("deal-no")
        el = document.getElementById("deal-mark")
        if nil(el):
            el = document.createElement("span")
            el.id = "deal-mark"
            el.setAttribute("role", "img")  # one mark, named by its sentence
            no.after(el)
        el.dataset.mark = self.mark
        el.innerHTML = (f"<b aria-hidden='true'>{MARK_SYMBOLS[self.mark]}</b> "
                        f"<span class='word'>{escape(self.app.tr('mark_' + self.mark))}</span>")
        el.title = self.app.tr(f"mark_{self.mark}_title")
        el.setAttribute("aria-label", el.title)
        document.body.dataset.verified = self.mark

    def start_check(self, game: Game) -> None:
        """Decide the deal of ``game``, on the table, in the worker (never on the page)."""
        job = self.app.solver.check(game.start)
        self._check = job

        async def run() -> None:
            res = await job
            if self.game is not game or self._check is not job:
                return
            self._check = None
            if res is None and job.cancelled:
                return  # stopped for Finish: checked again afterwards
            self.mark = "unknown" if res is None else {"won": "verified", "lost": "lost"}.get(res.result, "unknown")
            self.show_mark()
            self.save()

        asyncio.ensure_future(run())

    def resume_check(self) -> None:
        """Check again a deal whose check Finish stopped."""
        if self.mark == "checking" and self._check is None and self.game is not None:
            self.start_check(self.game)

    def proven_lost(self) -> None:
        """Finish proved the deal itself lost (before any move): the mark says so."""
        if self.mark != "lost":
            self.mark = "lost"
            self.show_mark()
            self.save()

    def cancel_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
            self._check = None

    def confirm_abandon(self, go: Callable[[], None], stay: Callable[[], None] | None = None) -> None:
        """Run ``go`` — after a confirmation if the game in progress has moves. A
        challenge's game is not left: the challenge ends first (``web.challenge``).
        A Finish run stops first: the question is about a game that stands still."""
        self.finisher.stop_line()
        if self.challenge is not None and self.challenges is not None:
            self.challenges.ask_end(stay)
        elif self.in_progress():
            self.app.dialogs.ask(self.app.lang, self.app.tr("abandon"), go, stay)
        else:
            go()

    def new_game(self, confirm: bool = True) -> None:
        def go() -> None:
            self.abandon_current()
            rules = self.rules_from_settings()
            number = self.app.solver.take_next(rules)
            if number is not None:
                self.set_game(Game.new(number, rules), mark="verified")
                self.app.solver.prepare_next(rules)
            else:
                asyncio.ensure_future(self.search_and_deal(
                    lambda: self.app.solver.verified_deal(solve.random_start(), rules), rules))

        if confirm:
            self.confirm_abandon(go)
        else:
            go()

    def restart(self) -> None:
        def go() -> None:
            g = self.game
            if g is not None:
                self.abandon_current()
                self.set_game(g.restarted(), daily=self.daily, mark=self.mark)

        self.confirm_abandon(go)

    def daily_game(self) -> None:
        date = today_iso()
        rules = self.rules_from_settings()

        def go() -> None:
            self.abandon_current()
            asyncio.ensure_future(self.search_and_deal(
                lambda: self.app.solver.daily_number(date, rules), rules, daily=date))

        self.confirm_abandon(go)

    async def search_and_deal(self, search: Callable[[], Awaitable[int | None]], rules: Rules,
                              daily: str | None = None) -> None:
        """Deal once a verified deal is found (the page stays live meanwhile)."""
        app = self.app
        app.input.deselect()
        app.set_mode(Mode.SEARCHING)
        app.toast(app.tr("looking"), 60_000)
        app.solver.stop_preparing()
        self.cancel_check()  # the deal on the table is being left: the worker is needed
        try:
            number = await search()
        finally:
            app.hide_toast()
            app.set_mode(Mode.WON if self.game is not None and self.game.is_won else Mode.READY)
        if number is not None:
            self.set_game(Game.new(number, rules), daily=daily, mark="verified")
            if daily:
                app.toast(app.tr("daily") + f" {daily}")
        app.solver.prepare_next(self.rules_from_settings())

    def is_link_of_current(self, link: links.DealLink) -> bool:
        g = self.game
        return g is not None and (g.number, g.rules) == (link.number, link.rules)

    def open_link(self, link: links.DealLink) -> None:
        def go() -> None:
            self.abandon_current()
            self.deal_link(link)

        self.confirm_abandon(go, self.show_link)

    def save(self) -> None:
        if self.game is None:
            return
        try:
            self.app.store.save_game(self.game.to_json(), self.app.tab,
                                     {"daily": self.daily, "recorded": self.recorded, "mark": self.mark,
                                      "challenge": self.challenge})
        except Exception as e:  # never let saving break play
            import js
            js.console.warn(f"save failed: {e}")

    # ------------------------------------------------------------ moves
    def play(self, move: Move | str, assisted: bool = False) -> bool:
        """Ask the engine to make ``move``; False (and nothing changes) if illegal."""
        g = self.game
        if g is None:
            return False
        try:
            g.play(move, assisted=assisted)
        except (IllegalMoveError, InvalidMoveError):
            return False
        self.after_change(g)
        return True

    def undo(self) -> None:
        if self.app.mode is Mode.THINKING:
            self.cancel_finish()
            self.app.hide_toast()
        g = self.game
        if self.app.mode is not Mode.READY or g is None or not g.can_undo:
            return
        g.undo()
        self.after_change(g, moved=False)

    def after_change(self, game: Game, moved: bool = True) -> None:
        """``game``, on the table, has changed: save, show, then the win or auto-moves."""
        self.save()
        self.app.view.render(game.position, animate=True, played=game.last)
        self.app.update_status()
        self.show_outcome(game)
        if game.is_won and self.app.mode is Mode.READY:
            self.on_won(game)
        elif moved and self.app.settings.auto and (self._auto is None or self._auto.done()):
            self._auto = asyncio.ensure_future(self.auto_moves(game))

    def show_outcome(self, game: Game) -> None:
        """``body[data-outcome]``: how ``game`` has ended (the engine's Outcome), if
        it has; a game that can no longer be won says so when it gets there."""
        body = document.body
        outcome = game.outcome()
        if outcome is None:
            body.removeAttribute("data-outcome")
            return
        name = outcome.termination.value
        if body.getAttribute("data-outcome") != name:
            body.setAttribute("data-outcome", name)
            if not outcome.won:
                self.app.toast(self.app.tr("dead_end"), 6000)

    async def auto_moves(self, game: Game) -> None:
        """Auto-move to foundations on ``game``: the safe cards go up one at a time, each a move."""
        app = self.app
        while True:
            await asyncio.sleep(0 if app.view.reduced else FINISH_STEP_S)
            if self.game is not game or app.mode is not Mode.READY or not app.settings.auto:
                return
            move = None if game.is_won else next_safe_move(game.position)
            if move is None:
                return
            app.input.deselect()
            self.play(move)

    def on_won(self, g: Game) -> None:
        """``g``, on the table, is won: record it (once), then the cascade and the sheet."""
        app = self.app
        if self.recorded:
            app.set_mode(Mode.WON)
            return
        self.recorded = True
        res = app.store.change_records(lambda r: r.record_win(
            variants.key(g.rules), int(g.elapsed()), g.moves, assisted=g.assisted, daily=self.daily))
        self.save()
        app.set_mode(Mode.WON)
        app.hide_toast()

        def sheet() -> None:
            if self.game is g and self.challenge is not None and self.challenges is not None:
                self.challenges.finished()  # the challenge's results take the win sheet's place
            elif self.game is g:
                app.dialogs.open("win", sheets.win_html(
                    app.lang, seconds=g.elapsed(), moves=g.moves,
                    score=g.score if app.settings.score else None,
                    assisted=g.assisted, result=res, records=self.records_html(g.rules)))

        app.view.celebrate(sheet)

    def records_html(self, rules: Rules) -> str:
        """The records of ``rules`` (the variant shown), and the day's if a Deal of the day is on the table."""
        return sheets.records_html(self.app.lang, self.app.store, rules, self.daily)

    # ------------------------------------------------------------ Finish (F1, F2): web.finish
    def finish(self) -> None:
        self.finisher.press()

    def cancel_finish(self) -> None:
        """Stop a Finish search in progress (the table is the player's again)."""
        self.finisher.cancel()

    # ------------------------------------------------------------ page events
    def on_storage(self, ev: JsObject) -> None:
        """Another tab saved the game: adopt it if it is newer (no move lost silently)."""
        app = self.app
        if ev.key != store.GAME_KEY or nil(ev.newValue):
            return
        try:
            env = store.envelope(store.loads_stored(str(ev.newValue)))
            if env is None:
                return
            rev, tab = env["rev"], env.get("tab")
            game = Game.from_json(env["game"])
        except (ValueError, SaveError):
            return
        if tab == app.tab or rev <= app.store.rev:
            return
        app.store.rev = rev
        if app.dialogs.kind == "confirm":
            app.dialogs.close()
        app.store.reload_records()
        meta = env["meta"]
        self.set_game(game, daily=meta.get("daily"), save=False, mark=meta.get("mark"))
        self.recorded = bool(meta.get("recorded"))
        if not game.is_won:
            app.toast(app.tr("other_tab"), 4000)

    def on_hashchange(self, ev: JsObject) -> None:
        try:
            link = links.parse(str(window.location.hash))
        except ValueError:  # an edited address that names no deal: say so, keep the game
            self.app.toast(self.app.tr("bad_link_kept"), 6000)
            self.show_link()
            return
        if link is not None and not self.is_link_of_current(link):
            self.open_link(link)

    def on_visibility(self, ev: JsObject) -> None:
        if self.game is None:
            return
        if str(document.visibilityState) == "hidden":
            self.game.pause()
            self.save()
        else:
            self.game.resume()
