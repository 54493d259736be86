"""The solver in the page: verified deals prepared in the background (V1, issue 4
item 9) and Finish by the solver (F2).

The solver runs on the main thread in cooperative slices: each slice is bounded in
time (``SLICE_S``) and the loop yields to the browser between slices
(``await asyncio.sleep(0)``), so no task blocks the page for more than ~50 ms and
only one Pyodide is needed (no cross-origin-isolation headers).

Until ``kosynka.solver`` exists, deals are plain numbered deals (not verified) and
Finish can only do F1.
"""

from __future__ import annotations

import asyncio
import random

from kosynka import deals
from kosynka.position import Rules

try:  # the solver lands separately
    from kosynka import solver as _solver  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the engine's progress
    _solver = None

SLICE_S = 0.02


def random_start() -> int:
    """Where the search for the next verified deal starts: short shareable numbers."""
    return random.randrange(1, 1_000_000)


class Background:
    def __init__(self, app) -> None:
        self.app = app
        self.ready: dict[tuple[int, int | None], int] = {}
        self.finishing = False
        self._finish_task = None
        self._prep_task = None

    # -- verified deals ---------------------------------------------------
    def take_next(self, rules: Rules) -> int:
        key = (rules.draw, rules.redeals)
        if key in self.ready:
            return self.ready.pop(key)
        return random_start()

    def prepare_next(self) -> None:
        pass

    def daily_number(self, date: str, rules: Rules) -> int:
        return deals.daily_number(date)

    # -- Finish (F2) -------------------------------------------------------
    def start_finish(self) -> None:
        from web.i18n import t
        self.app.toast(t(self.app.lang, "gave_up"))

    def cancel_finish(self) -> None:
        self.finishing = False
