"""The solo game: its life (new deal, restart, Deal of the day, links), saving,
the win, Finish (F1 and F2) and what other tabs and the page's visibility do to it.

It owns the ``Game`` on the table and plays every move through the engine; the
view shows it, the input proposes moves, the app root (``web.app``) holds the mode.

Decisions (user-visible):
- New deal and Restart ask for confirmation when the game in progress has moves; a
  changed variant applies from the next deal (at once if no move was made yet).
- Finish: glows once F1 applies and plays the rest card by card. Before that it asks
  the solver (F2, ``web.solve``) and then plays its line move by move; the win is
  marked assisted by the engine (``Game.play(…, assisted=True)``) and sets no
  record. If the solver proves there is no path, or gives up within its budget, the
  page says so plainly. Pressing Finish again while it thinks stops it (in the
  worker too); so does Undo, New deal, Restart or Menu, which then go on.
- The address (hash) is always the link to the deal on the table (V2); a link to
  another deal over a game in progress asks first.
- The clock pauses while the page is hidden; the game is saved after every action
  and when the page is hidden (P1). Another tab's newer save is adopted, and the
  player is told (no move lost silently).
"""

from __future__ import annotations

import asyncio
import json

from kosynka import variants
from kosynka.game import Game, SaveError
from kosynka.position import IllegalMoveError, InvalidMoveError, Rules

from web import links, sheets, solve
from web.dom import document, nil, today_iso, window
from web.modes import Mode
from web.store import GAME_KEY

FINISH_STEP_S = 0.09  # pause between the cards of a Finish run


class Solo:
    def __init__(self, app) -> None:
        self.app = app
        self.game: Game | None = None
        self.daily: str | None = None
        self.recorded = False
        self._finish: solve.Finish | None = None

    # ------------------------------------------------------------ game life
    def rules_from_settings(self) -> Rules:
        return Rules(self.app.settings.draw, self.app.settings.redeals)

    def in_progress(self) -> bool:
        g = self.game
        return g is not None and g.moves > 0 and not g.is_won

    def abandon_current(self) -> None:
        if self.in_progress():
            self.app.store.record_abandon()

    def set_game(self, game: Game, daily: str | None = None, save: bool = True) -> None:
        app = self.app
        self.cancel_finish()
        self.game = game
        self.daily = daily
        self.recorded = False
        app.input.deselect()
        app.view.reset()
        body = document.body
        body.dataset.deal = str(game.number)
        body.dataset.variant = variants.key(game.rules)
        document.getElementById("deal-no").textContent = str(game.number) + (" ★" if daily else "")
        self.show_link()
        app.view.render(game.position, animate=False)
        app.set_mode(Mode.WON if game.is_won else Mode.READY)
        if save:
            self.save()

    def show_link(self) -> None:
        g = self.game
        try:
            # the hash names the deal; a query (``?deal=42``, read at start-up) is dropped
            window.history.replaceState(None, "", str(window.location.pathname) + links.format(
                links.DealLink(g.number, g.rules.draw, g.rules.redeals, self.daily)))
        except Exception:
            pass

    def confirm_abandon(self, go, stay=None) -> None:
        """Run ``go`` — after a confirmation if the game in progress has moves."""
        if self.in_progress():
            self.app.dialogs.ask(self.app.lang, self.app.tr("abandon"), go, stay)
        else:
            go()

    def new_game(self, confirm: bool = True) -> None:
        def go():
            self.abandon_current()
            rules = self.rules_from_settings()
            number = self.app.solver.take_next(rules)
            if number is not None:
                self.set_game(Game.new(number, rules))
                self.app.solver.prepare_next(rules)
            else:
                asyncio.ensure_future(self.search_and_deal(
                    lambda: self.app.solver.verified_deal(solve.random_start(), rules), rules))

        if confirm:
            self.confirm_abandon(go)
        else:
            go()

    def restart(self) -> None:
        def go():
            self.abandon_current()
            self.set_game(self.game.restarted(), daily=self.daily)

        self.confirm_abandon(go)

    def daily_game(self) -> None:
        date = today_iso()
        rules = self.rules_from_settings()

        def go():
            self.abandon_current()
            asyncio.ensure_future(self.search_and_deal(
                lambda: self.app.solver.daily_number(date, rules), rules, daily=date))

        self.confirm_abandon(go)

    async def search_and_deal(self, search, rules: Rules, daily: str | None = None) -> None:
        """Deal once a verified deal is found (the page stays live meanwhile)."""
        app = self.app
        app.input.deselect()
        app.set_mode(Mode.SEARCHING)
        app.toast(app.tr("looking"), 60_000)
        app.solver.stop_preparing()
        try:
            number = await search()
        finally:
            app.hide_toast()
            app.set_mode(Mode.WON if self.game.is_won else Mode.READY)
        if number is not None:
            self.set_game(Game.new(number, rules), daily=daily)
            if daily:
                app.toast(app.tr("daily") + f" {daily}")
        app.solver.prepare_next(self.rules_from_settings())

    def is_link_of_current(self, link: links.DealLink) -> bool:
        g = self.game
        return g is not None and (g.number, g.rules) == (link.number, link.rules)

    def open_link(self, link: links.DealLink) -> None:
        def go():
            self.abandon_current()
            self.set_game(Game.new(link.number, link.rules), daily=link.daily)

        self.confirm_abandon(go, self.show_link)

    def save(self) -> None:
        if self.game is None:
            return
        try:
            self.app.store.save_game(self.game.to_json(), self.app.tab,
                                     {"daily": self.daily, "recorded": self.recorded})
        except Exception as e:  # never let saving break play
            import js
            js.console.warn(f"save failed: {e}")

    # ------------------------------------------------------------ moves
    def play(self, move: str, assisted: bool = False) -> bool:
        """Ask the engine to make ``move``; False (and nothing changes) if illegal."""
        try:
            self.game.play(move, assisted=assisted)
        except (IllegalMoveError, InvalidMoveError):
            return False
        self.after_change()
        return True

    def undo(self) -> None:
        if self.app.mode is Mode.THINKING:
            self.cancel_finish()
            self.app.hide_toast()
        if self.app.mode is not Mode.READY or not self.game.can_undo:
            return
        self.game.undo()
        self.after_change()

    def after_change(self) -> None:
        self.save()
        self.app.view.render(self.game.position, animate=True)
        self.app.update_status()
        if self.game.is_won and self.app.mode is Mode.READY:
            self.on_won()

    def on_won(self) -> None:
        app = self.app
        if self.recorded:
            app.set_mode(Mode.WON)
            return
        g = self.game
        self.recorded = True
        res = app.store.record_win(variants.key(g.rules), int(g.elapsed()), g.moves,
                                   assisted=g.assisted, daily=self.daily)
        self.save()
        app.set_mode(Mode.WON)
        app.dialogs.open("win", sheets.win_html(
            app.lang, seconds=g.elapsed(), moves=g.moves, score=g.score if app.settings.score else None,
            assisted=g.assisted, result=res, records=self.records_html()))

    def records_html(self) -> str:
        return sheets.records_html(self.app.lang, self.app.store, self.game.rules, self.daily)

    # ------------------------------------------------------------ Finish (F1, F2)
    def finish(self) -> None:
        app = self.app
        g = self.game
        if app.mode is Mode.THINKING:
            self.cancel_finish()
            app.toast(app.tr("gave_up"))
            return
        if app.mode is not Mode.READY or g.is_won:
            return
        app.input.deselect()
        if g.auto_finish_available:
            asyncio.ensure_future(self.run_line(g.finish_moves(), assisted=False))
        else:
            asyncio.ensure_future(self.think())

    async def think(self) -> None:
        """F2: ask the solver for a line; play it, or say why there is none."""
        app = self.app
        game = self.game
        app.set_mode(Mode.THINKING)
        app.toast(app.tr("thinking"), 60_000)
        app.solver.stop_preparing()  # it would halve the solver's speed
        self._finish = app.solver.finish(game.position)
        res = await self._finish
        if res is None or self.game is not game:
            return  # cancelled: whoever cancelled set the mode
        self._finish = None
        app.set_mode(Mode.READY)
        if res.result == "won":
            app.hide_toast()
            await self.run_line(list(res.moves), assisted=True)
        else:
            app.toast(app.tr("no_path" if res.result == "lost" else "gave_up"), 6000)
        app.solver.prepare_next(self.rules_from_settings())

    def cancel_finish(self) -> None:
        """Stop a Finish search in progress (the table is the player's again)."""
        if self._finish is not None:
            self._finish.cancel()
            self._finish = None
            if self.app.mode is Mode.THINKING:
                self.app.set_mode(Mode.READY)
            self.app.solver.prepare_next(self.rules_from_settings())

    async def run_line(self, line: list[str], assisted: bool) -> None:
        """Play ``line`` card by card (an F1 run, or the solver's line for F2)."""
        app = self.app
        game = self.game
        app.set_mode(Mode.FINISHING)
        try:
            for move in line:
                if self.game is not game or not self.play(move, assisted=assisted) or game.is_won:
                    break
                await asyncio.sleep(0 if app.view.reduced else FINISH_STEP_S)
        finally:
            if self.game is game:
                app.set_mode(Mode.READY)
                if game.is_won:
                    self.on_won()

    # ------------------------------------------------------------ page events
    def on_storage(self, ev) -> None:
        """Another tab saved the game: adopt it if it is newer (no move lost silently)."""
        app = self.app
        if ev.key != GAME_KEY or nil(ev.newValue):
            return
        try:
            env = json.loads(str(ev.newValue))
            rev, tab = int(env["rev"]), env.get("tab")
            game = Game.from_json(env["game"])
        except (ValueError, TypeError, KeyError, SaveError):
            return
        if tab == app.tab or rev <= app.store.rev:
            return
        app.store.rev = rev
        if app.dialogs.kind == "confirm":
            app.dialogs.close()
        app.store.reload_records()
        meta = env.get("meta") or {}
        self.set_game(game, daily=meta.get("daily"), save=False)
        self.recorded = bool(meta.get("recorded"))
        if not game.is_won:
            app.toast(app.tr("other_tab"), 4000)

    def on_hashchange(self, ev) -> None:
        try:
            link = links.parse(str(window.location.hash))
        except ValueError:  # an edited address that names no deal: say so, keep the game
            self.app.toast(self.app.tr("bad_link_kept"), 6000)
            self.show_link()
            return
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
