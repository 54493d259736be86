"""Finish on the solo game's table (F1 and F2): ``Finisher``, which ``web.solo``
holds; it plays every card through the solo game, as the player would.

Decisions (user-visible):
- Finish glows once F1 applies and plays the rest card by card. Before that it
  first asks "Let the solver finish? This game will not count" (issue 12), then asks
  the solver (F2, ``web.solve``) and plays its line move by move; the win is
  marked assisted by the engine (``Game.play(…, assisted=True)``), sets no record
  and is counted apart in the statistics (``web.store``). If the solver proves
  there is no path, or gives up within its budget, a sheet says so and what the
  player can do next (undo back to a point, or a new deal); it stays until
  dismissed. A game the engine already knows can no longer be won (its
  ``Outcome``) gets that sheet at once: no question, no search.
  Pressing Finish again while it thinks stops it (in the worker too);
  so does Undo, New deal, Restart or Menu, which then go on. New deal, Restart
  or a link while Finish plays its cards stops the cards first, then asks.
  Finish plays on from where they stopped.
- While Finish searches, the background check of the deal's mark (``web.solo``)
  waits: Finish gets the worker; the deal is checked again afterwards.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from kosynka.game import Game
from kosynka.position import Move, Rules
from web import sheets, solve
from web.modes import Mode
from web.solo_needs import SoloPage

FINISH_STEP_S = 0.09  # pause between the cards of a Finish run, and of auto-moves


class FinishTable(Protocol):
    """What Finish needs of the solo game (``web.solo.Solo``)."""

    game: Game | None
    mark: str

    def play(self, move: Move | str, assisted: bool = False) -> bool: ...
    def on_won(self, game: Game) -> None: ...
    def proven_lost(self) -> None: ...
    def cancel_check(self) -> None: ...
    def resume_check(self) -> None: ...
    def rules_from_settings(self) -> Rules: ...


class Finisher:
    """Finish's button, its search (F2) and its runs of cards (F1, F2's line)."""

    def __init__(self, app: SoloPage, solo: FinishTable) -> None:
        self.app = app
        self.solo = solo
        self._search: solve.Finish | None = None  # F2's search, until it answers or stops
        self._line: object | None = None  # the run playing (run_line), until it stops

    def press(self) -> None:
        """Finish pressed: stop the search if it thinks, else F1's run, the
        verdict of a proven dead end, or (asked first) the solver's line."""
        app = self.app
        g = self.solo.game
        if app.mode is Mode.THINKING:
            self.cancel()
            app.toast(app.tr("gave_up"))
            return
        if g is None or app.mode is not Mode.READY or g.is_won:
            return
        app.input.deselect()
        line = g.finish_moves()
        if line is not None:
            asyncio.ensure_future(self.run_line(g, line, assisted=False))
        elif g.outcome() is not None:  # a dead end the engine has proven: nothing to ask the solver
            self.show_verdict(g, "lost")
        elif g.assisted:  # the solver has had this game already: nothing more to lose
            asyncio.ensure_future(self.think(g))
        else:
            def go() -> None:
                if self.solo.game is g and app.mode is Mode.READY and not g.is_won:
                    asyncio.ensure_future(self.think(g))

            app.dialogs.ask(app.lang, app.tr("finish_ask"), go)

    async def think(self, game: Game) -> None:
        """F2: ask the solver for a line; play it, or say why there is none."""
        app = self.app
        solo = self.solo
        app.set_mode(Mode.THINKING)
        app.toast(app.tr("thinking"), 60_000)
        app.solver.stop_preparing()  # it would halve the solver's speed
        solo.cancel_check()  # Finish first; the deal is checked again afterwards
        self._search = app.solver.finish(game.position)
        res = await self._search
        if solo.game is not game:
            return
        if res is None:  # cancelled: whoever cancelled set the mode
            solo.resume_check()
            return
        self._search = None
        app.set_mode(Mode.READY)
        app.hide_toast()
        if res.result == "won":
            await self.run_line(game, list(res.moves), assisted=True)
        else:
            self.show_verdict(game, res.result)
        if solo.game is game:
            solo.resume_check()
        app.solver.prepare_next(solo.rules_from_settings())

    def show_verdict(self, game: Game, result: str) -> None:
        """The sheet of a Finish with no line to play: ``lost`` (proven) or
        ``unknown``; a deal proven lost before any move is marked so."""
        app = self.app
        if result == "lost" and game.moves == 0:
            self.solo.proven_lost()
        app.dialogs.open("verdict", sheets.verdict_html(app.lang, result, way=self.solo.mark == "verified",
                                                        undo=game.can_undo))

    def cancel(self) -> None:
        """Stop a Finish search in progress (the table is the player's again)."""
        if self._search is not None:
            self._search.cancel()
            self._search = None
            if self.app.mode is Mode.THINKING:
                self.app.set_mode(Mode.READY)
            self.app.solver.prepare_next(self.solo.rules_from_settings())

    def stop_line(self) -> None:
        """Stop a run of cards after the card in flight (the game stands still)."""
        self._line = None

    async def run_line(self, game: Game, line: list[str], assisted: bool) -> None:
        """Play ``line`` on ``game`` card by card (an F1 run, or the solver's line for F2)."""
        app = self.app
        solo = self.solo
        run = self._line = object()
        app.set_mode(Mode.FINISHING)
        try:
            for move in line:
                if (self._line is not run or solo.game is not game
                        or not solo.play(move, assisted=assisted) or game.is_won):
                    break
                await asyncio.sleep(0 if app.view.reduced else FINISH_STEP_S)
        finally:
            if self._line is run:
                self._line = None
            if solo.game is game:
                app.set_mode(Mode.READY)
                if game.is_won:
                    solo.on_won(game)
