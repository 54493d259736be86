"""The solver in the page: verified deals prepared in the background (V1, issue 4
item 9) and Finish by the solver (F2).

The solver (``kosynka.solver``) runs on the main thread in cooperative slices: each
``step(n)`` is sized so it takes about ``SLICE_S`` (n adapts to the measured speed),
and the loop yields to the browser between slices, so no task blocks the page for
more than ~50 ms and only one Pyodide is needed (no cross-origin-isolation headers).

Decisions (user-visible):
- New deal hands out a deal verified under the chosen rules (draw, redeal limit).
  One verified deal per variant is searched for in the background ahead of time and
  remembered on the device (``kosynka.next``), so New deal shows at once, even after
  a reload. If none is ready yet (first visit, or a variant just chosen), the table
  says it is looking and deals as soon as the search ends.
- Search for a new deal starts from a random number below one million, so deal
  numbers stay short enough to share.
- Deal of the day: the first verified deal at or after ``kosynka.deals.daily_number``
  of the date, under the chosen rules — the same for everyone on that date.
- Finish (F2) gives the solver ``FINISH_STATES`` states / ``FINISH_SECONDS`` seconds
  of search; then it plays the line it found move by move, or says plainly that the
  position has no path to victory (``lost``) or that it found none within the budget.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

from kosynka import deals
from kosynka.position import Rules
from kosynka.solver import Solver, VerifiedDealSearch

SLICE_S = 0.012          # aim for each solver slice (the page stays responsive)
FINISH_STATES = 400_000
FINISH_SECONDS = 20.0
NEXT_KEY = "kosynka.next"


def random_start() -> int:
    """Where the search for the next verified deal starts: short shareable numbers."""
    return random.randrange(1, 1_000_000)


class Slicer:
    """Runs ``obj.step(n)`` in slices of about ``SLICE_S`` until it returns a result."""

    def __init__(self) -> None:
        self.n = 50  # states per slice; adapts to this machine's speed
        self.longest = 0.0  # longest slice seen (seconds): issue 4 item 9 wants < 50 ms
        self.slices = 0
        self.busy_s = 0.0  # time spent inside step()

    async def run(self, obj, cancelled=lambda: False):
        while True:
            if cancelled():
                return None
            t0 = time.perf_counter()
            res = obj.step(self.n)
            dt = time.perf_counter() - t0
            self.longest = max(self.longest, dt)
            self.slices += 1
            self.busy_s += dt
            if res is not None:
                return res
            # steer n towards SLICE_S per slice, changing by at most 2× at a time
            if dt > 0:
                self.n = max(10, min(20_000, int(self.n * min(2.0, max(0.5, SLICE_S / dt)))))
            await asyncio.sleep(0)


def _key(rules: Rules) -> str:
    return f"d{rules.draw}" if rules.redeals is None else f"d{rules.draw}r{rules.redeals}"


class Background:
    def __init__(self, app) -> None:
        self.app = app
        self.slicer = Slicer()
        self.ready: dict[str, int] = self._load_ready()
        self.preparing: str | None = None
        self.finishing = False
        self._finish_gen = 0
        self._prep_gen = 0

    # -- verified deals ---------------------------------------------------
    def _load_ready(self) -> dict[str, int]:
        try:
            raw = self.app.store.backend.get(NEXT_KEY)
            d = json.loads(raw) if raw else {}
            return {k: v for k, v in d.items() if isinstance(v, int) and not isinstance(v, bool)
                    and 0 <= v < deals.MAX_DEAL} if isinstance(d, dict) else {}
        except Exception:
            return {}

    def _save_ready(self) -> None:
        try:
            self.app.store.backend.set(NEXT_KEY, json.dumps(self.ready))
        except Exception:
            pass

    def has_next(self, rules: Rules) -> bool:
        return _key(rules) in self.ready

    def take_next(self, rules: Rules) -> int | None:
        """A verified deal of ``rules`` prepared earlier, or None."""
        n = self.ready.pop(_key(rules), None)
        self._save_ready()
        return n

    async def search(self, start: int, rules: Rules, cancelled=lambda: False) -> int | None:
        t0 = time.perf_counter()
        search = VerifiedDealSearch(start, rules)
        found = await self.slicer.run(search, cancelled)
        self.app.publish_stats(search_s=round(time.perf_counter() - t0, 3), search_tried=search.tried)
        return None if found is None else found[0]

    def prepare_next(self) -> None:
        """Search one verified deal ahead for the variant in the settings."""
        rules = Rules(self.app.settings.draw, self.app.settings.redeals)
        key = _key(rules)
        if key in self.ready or self.preparing == key:
            return
        self._prep_gen += 1
        gen = self._prep_gen
        self.preparing = key

        async def go():
            # let the page paint and settle first
            await asyncio.sleep(0.3)
            number = await self.search(random_start(), rules, lambda: gen != self._prep_gen)
            if gen != self._prep_gen:
                return
            self.preparing = None
            if number is not None:
                self.ready[key] = number
                self._save_ready()
                self.app.deal_ready(rules)

        asyncio.ensure_future(go())

    def stop_preparing(self) -> None:
        self._prep_gen += 1
        self.preparing = None

    async def daily_number(self, date: str, rules: Rules) -> int | None:
        return await self.search(deals.daily_number(date), rules)

    # -- Finish (F2) -------------------------------------------------------
    def start_finish(self) -> None:
        app = self.app
        game = app.game
        self._finish_gen += 1
        gen = self._finish_gen
        self.finishing = True
        app.busy = True
        app.set_working(True)
        app.toast(app.tr("thinking"), 60_000)
        # the background deal search would halve the solver's speed: pause it
        paused = self.preparing is not None
        self.stop_preparing()

        async def go():
            solver = Solver(game.position.copy(), max_states=FINISH_STATES, max_seconds=FINISH_SECONDS)
            t0 = time.perf_counter()
            res = await self.slicer.run(solver, lambda: gen != self._finish_gen or app.game is not game)
            app.publish_stats(finish_s=round(time.perf_counter() - t0, 3), finish_states=solver.states,
                              finish_result=None if res is None else res.result)
            if gen != self._finish_gen or app.game is not game:
                return
            self.finishing = False
            app.busy = False
            app.set_working(False)
            if res.result == "won":
                app.hide_toast()
                await app.run_line(list(res.moves), assisted=True)
            elif res.result == "lost":
                app.toast(app.tr("no_path"), 6000)
            else:
                app.toast(app.tr("gave_up"), 6000)
            app.update_status()
            if paused:
                self.prepare_next()

        asyncio.ensure_future(go())

    def cancel_finish(self) -> None:
        if self.finishing:
            self._finish_gen += 1
            self.finishing = False
            self.app.busy = False
            self.app.set_working(False)
            self.prepare_next()
