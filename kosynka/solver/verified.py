"""V1: verified deals, the first deal number at or after a start that the
streamlined search wins within a state budget (see :mod:`kosynka.solver`)."""

from __future__ import annotations

from ..deals import MAX_DEAL
from ..errors import KosynkaError
from ..position import Position, Rules
from .search import SolveResult, streamlined_search

VERIFY_STATES = 2000
"""Default state budget for a verified deal (deterministic everywhere), for
the streamlined search. Measured on deals 0–299 (CPU s to a verified deal
from each start, p50 / p95): Turn Three 0.19 / 0.77 at 2,000 against
0.25 / 1.04 at 5,000 (13 % and 22 % of its deals won within the budget);
Classic draw 1 0.003 / 0.12 against 0.003 / 0.28; draw 3 0.014 / 0.11
against 0.014 / 0.23."""


class NoVerifiedDealError(KosynkaError):
    """No deal from the start number to the last one, 2**64-1, is verified."""


class VerifiedDealSearch:
    """Sliced :func:`verified_deal`: ``step(n)`` → ``None`` or ``(number, result)``;
    raises :class:`NoVerifiedDealError` after the last deal number."""

    def __init__(self, start: int, rules: Rules = Rules(),
                 max_states: int = VERIFY_STATES) -> None:
        self.start = start
        self.rules = rules
        self.max_states = max_states
        self.number = start
        self.tried = 0
        self._solver = streamlined_search(Position.deal(start, rules), max_states=max_states)
        self.result: tuple[int, SolveResult] | None = None

    def step(self, n: int = 1000) -> tuple[int, SolveResult] | None:
        if self.result is not None:
            return self.result
        res = self._solver.step(n)
        if res is None:
            return None
        self.tried += 1
        if res.result == "won":
            self.result = (self.number, res)
            return self.result
        if self.number + 1 >= MAX_DEAL:
            raise NoVerifiedDealError(f"no verified deal at or after {self.start} under "
                                      f"{self.rules.name} (deal numbers end at 2**64-1)")
        self.number += 1
        self._solver = streamlined_search(Position.deal(self.number, self.rules),
                                          max_states=self.max_states)
        return None


def verified_deal(start: int, rules: Rules = Rules(),
                  max_states: int = VERIFY_STATES) -> tuple[int, SolveResult]:
    """V1: ``(number, SolveResult)`` of the first deal at or after ``start``
    that the solver wins within ``max_states`` states; :class:`NoVerifiedDealError`
    if none up to the last deal number (only ever near 2**64-1)."""
    search = VerifiedDealSearch(start, rules, max_states)
    while True:
        res = search.step(1 << 20)
        if res is not None:
            return res
