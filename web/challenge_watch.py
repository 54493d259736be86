"""The challenge's viewer (issue 20): a game of the results replayed move by
move (Watch), and the solver's line of the deal on the table from its start
("Show me a way to win"; a game not won yet then counts as finished with help,
F2) — both in ``web.replay.ReplayViewer`` over the page's own table."""

from __future__ import annotations

import asyncio
from typing import Callable

from kosynka.challenge import Challenge, replay
from web.challenge_needs import Page
from web.dom import JsObject
from web.i18n import t
from web.replay import ReplayViewer


class Watching:
    def __init__(self, app: Page) -> None:
        self.app = app
        self._viewer: ReplayViewer | None = None

    def _say(self, key: str, **kw: object) -> str:
        text = t(self.app.lang, key)
        return text.format(**kw) if kw else text

    @property
    def viewer(self) -> ReplayViewer:
        """The viewer, made when first opened (its table is only built then)."""
        if self._viewer is None:
            app = self.app
            self._viewer = ReplayViewer(app.listeners, app.view, lambda: app.solo.game)
        return self._viewer

    @property
    def viewing(self) -> bool:
        return self._viewer is not None and self._viewer.active

    def on_key(self, ev: JsObject) -> None:
        self.viewer.on_key(ev)

    def watch(self, ch: Challenge, back: Callable[[], None]) -> None:
        """Watch ``ch``'s game; ``back`` when the viewer closes (the results again)."""
        self.viewer.open(self.app.lang, self._say("ch_v_game", name=ch.name),
                         replay(ch.number, ch.rules, ch.actions), list(ch.actions), ch.name,
                         on_close=back)

    def ask_way(self) -> None:
        """Show me a way to win: the solver's line of this deal from the start; a
        game not won yet then counts as finished with help (F2)."""
        app = self.app
        g = app.solo.game
        if g is None or app.mode.value not in ("ready", "won"):
            return
        if g.moves and not g.is_won and not g.assisted:
            app.dialogs.ask(app.lang, self._say("ch_way_q"), self._way)
        else:
            app.dialogs.close()
            self._way()

    def _way(self) -> None:
        asyncio.ensure_future(self.show_way())

    async def show_way(self) -> None:
        app, solo = self.app, self.app.solo
        g = solo.game
        if g is None or g.number is None:
            return
        if not g.is_won:
            g.assisted = True  # the solution seen: this game sets no record
            solo.save()
        app.toast(self._say("thinking"), 60_000)
        app.solver.stop_preparing()
        res = await app.solver.finish(g.start)
        app.hide_toast()
        app.solver.prepare_next(solo.rules_from_settings())
        if solo.game is not g:
            return
        if res is None or res.result != "won":
            app.toast(self._say("ch_no_way"), 4000)
            return
        moves = list(res.moves)
        self.viewer.open(app.lang, self._say("ch_way_title"), replay(g.number, g.rules, moves), moves,
                         self._say("ch_solver"))
