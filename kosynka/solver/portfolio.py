"""The portfolio: :class:`Solver` runs the searches of one position in
turns (see :mod:`kosynka.solver`), and :func:`solve` runs it to the end."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from ..position import Position, Rules
from .proofs import ALL_PRUNING
from .search import Clock, SolveResult, Verdict, _Search, _Sliced, streamlined_search


class Solver(_Sliced):
    """Sliced solve; see the module docstring: a streamlined search and the
    sound search take turns of :attr:`QUANTUM` states each; with unlimited
    redeals the sound space best-first takes turns too, and the other two
    take two quanta a turn, and so does the *limited* search
    (:attr:`LIMITED_REDEALS`): 2 : 2 : 1 : 2.

    Classic draw 3 (issue 21): the sound search plays talon cards first
    (:attr:`_Search.TALON_FIRST <kosynka.solver.search._Search.TALON_FIRST>`),
    and a fourth search takes one quantum a turn: the streamlined space,
    depth-first, talon cards first. Of the 14 deals of 0–99 undecided
    within 120,000 states, these win 57 (the sound order) and 69 (the fourth
    search) besides the 2, 20 and 75 won before, in less CPU time (46 s
    against 65 s for the 14), and prove the same loss (54); with 20,000
    states, deals 0–99 give 77 wins against 75 and the same 11 losses; deals
    0–499 at 10 CPU s, 399 against 397 (57, 69, 158 and 399 won; 225 and
    360, won by the old sound order, undecided) and the same 57 losses. With
    limited redeals the fourth search cost more wins than it brought (Turn
    Three, the 33 deals of 0–99 undecided within 20,000 states, 60,000
    each: 6 won against 9), so it is left out there."""

    LIMITED_REDEALS = 3
    """Redeals of the *limited* search (issue 21): with unlimited redeals the
    streamlined space is also searched as if only this many were allowed —
    best-first, as :func:`~kosynka.solver.search.streamlined_search` does
    with limited redeals — taking two quanta a turn. Every line with at most
    this many redeals is legal with unlimited redeals, so its wins are wins
    (and every win is replayed through the engine by the benchmark); it only
    ever says ``won``. The space is smaller and best-first reaches wins that
    the unlimited orders miss: deals 0–499 at 10 CPU s (2026-12-04), draw 1
    decided 96.0 → 96.8 % (34, 104, 259, 285 and 315 won; 447, lost in
    8.5 s before, undecided) and draw 3 93.0 → 94.4 % (66, 194, 225, 259,
    267, 285 and 360 won; nothing lost). Of the limits, 3 won the most of
    the deals undecided before (draw 1: 5 of 20 against 5 with 2, 2 with 1,
    none with 0; draw 3: 7 of 35 against 5, 2, 0, 100,000 states each); one
    quantum a turn won fewer (draw 1: 4, draw 3: 3), and taking a quantum
    from the unlimited streamlined search cost two wins (draw-1 deals 3 and
    287). Turn Three is left as it was: there a 1-redeal search won one of
    its 45 undecided deals (457)."""

    QUANTUM = 32
    """States per turn. A turn is never cut by the end of a ``step`` call, so
    the outcome of a state budget does not depend on how the calls are
    sliced (a best-first turn may overrun by one node's children)."""

    def __init__(self, position: Position, max_states: int | None = None,
                 max_seconds: float | None = None, prune: Iterable[str] = ALL_PRUNING,
                 streamline: bool = True, clock: Clock = time.perf_counter) -> None:
        self.max_states = max_states
        self.max_seconds = max_seconds
        self._clock = clock
        rules = position.rules
        draw3 = rules.draw == 3 and rules.redeals is None
        self._sound = _Search(position, prune=prune, clock=clock,
                              scores=_Search.TALON_FIRST if draw3 else None)
        self._searches = [self._sound]
        self._turns = [self.QUANTUM]
        if streamline:
            self._searches.insert(0, streamlined_search(position, prune=prune, clock=clock))
            self._turns.insert(0, self.QUANTUM)
            if rules.redeals is None:
                # the portfolio: the sound space best-first as well, with
                # half the turns of the others, and the limited search
                self._searches += [
                    _Search(position, prune=prune, strategy="best", clock=clock),
                    streamlined_search(_with_redeals(position, self.LIMITED_REDEALS),
                                       prune=prune, clock=clock)]
                self._turns = [2 * self.QUANTUM, 2 * self.QUANTUM, self.QUANTUM, 2 * self.QUANTUM]
                if draw3:
                    self._searches.append(streamlined_search(
                        position, prune=prune, clock=clock, scores=_Search.TALON_FIRST))
                    self._turns.append(self.QUANTUM)
        self._turn = 0
        self._left = self._turns[0]
        self._spent = 0                 # states of the searches already dropped
        self.seconds = 0.0
        self.result: SolveResult | None = None
        for s in self._searches:
            if s.result is not None and (s.result.result == "won" or s is self._sound):
                self.result = s.result
                break

    @property
    def states(self) -> int:
        """States searched so far, all searches together."""
        return self._spent + sum(s.states for s in self._searches)

    def step(self, n: int = 1000) -> SolveResult | None:
        """Search about ``n`` more states; ``None`` while running, else the
        :class:`SolveResult`."""
        if self.result is not None:
            return self.result
        clock = self._clock
        t0 = clock()
        while n > 0:
            s = self._searches[self._turn]
            k = self._left
            if self.max_states is not None:
                k = min(k, self.max_states - self.states)
            before = s.states
            res = s.step(k)
            done = s.states - before
            n -= done
            self._left -= done
            if res is not None:
                if res.result == "won" or s is self._sound:
                    return self._finish(res.result, res.moves, t0)
                # another space is exhausted: leave the proof to the sound one
                self._spent += s.states
                del self._turns[self._searches.index(s)]
                self._searches.remove(s)
                self._turn = 0
                self._left = self._turns[0]
                continue
            if self._left <= 0:
                self._turn = (self._turn + 1) % len(self._searches)
                self._left = self._turns[self._turn]
            if self.max_states is not None and self.states >= self.max_states:
                return self._finish(Verdict.UNKNOWN, [], t0)
            if self.max_seconds is not None and self.seconds + clock() - t0 >= self.max_seconds:
                return self._finish(Verdict.UNKNOWN, [], t0)
        self.seconds += clock() - t0
        return None

    def _finish(self, result: Verdict, moves: list[str], t0: float) -> SolveResult:
        self.seconds += self._clock() - t0
        self.result = SolveResult(result, list(moves), self.states, self.seconds)
        self._spent = self.states
        self._searches = []
        return self.result


def _with_redeals(position: Position, redeals: int) -> Position:
    """A copy of ``position`` (unlimited redeals) with ``redeals`` left: the
    count used so far does not matter with unlimited redeals."""
    limited = position.copy()
    limited.rules = Rules(position.rules.draw, redeals)
    limited.redeals_used = 0
    return limited


def solve(position: Position, max_states: int | None = None,
          max_seconds: float | None = None, prune: Iterable[str] = ALL_PRUNING,
          **kw: Any) -> SolveResult:
    """Decide ``position`` under ``position.rules``; see the module docstring."""
    return Solver(position, max_states, max_seconds, prune, **kw).run()

