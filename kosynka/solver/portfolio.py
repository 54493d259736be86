"""The portfolio: :class:`Solver` runs the searches of one position in
turns (see :mod:`kosynka.solver`), and :func:`solve` runs it to the end."""

from __future__ import annotations

import time

from ..position import Position
from .proofs import ALL_PRUNING
from .search import SolveResult, _Search, _Sliced, streamlined_search


class Solver(_Sliced):
    """Sliced solve; see the module docstring: a streamlined search and the
    sound search take turns of :attr:`QUANTUM` states each; with unlimited
    redeals the sound space best-first takes turns too, and the other two
    take two quanta a turn.

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

    QUANTUM = 32
    """States per turn. A turn is never cut by the end of a ``step`` call, so
    the outcome of a state budget does not depend on how the calls are
    sliced (a best-first turn may overrun by one node's children)."""

    def __init__(self, position: Position, max_states: int | None = None,
                 max_seconds: float | None = None, prune=ALL_PRUNING,
                 streamline: bool = True, clock=time.perf_counter) -> None:
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
                # half the turns of the others
                self._searches.append(_Search(position, prune=prune, strategy="best",
                                              clock=clock))
                self._turns = [2 * self.QUANTUM, 2 * self.QUANTUM, self.QUANTUM]
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

    def step(self, n: int = 1000):
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
                return self._finish("unknown", [], t0)
            if self.max_seconds is not None and self.seconds + clock() - t0 >= self.max_seconds:
                return self._finish("unknown", [], t0)
        self.seconds += clock() - t0
        return None

    def _finish(self, result: str, moves: list, t0: float) -> SolveResult:
        self.seconds += self._clock() - t0
        self.result = SolveResult(result, list(moves), self.states, self.seconds)
        self._spent = self.states
        self._searches = []
        return self.result


def solve(position: Position, max_states: int | None = None,
          max_seconds: float | None = None, prune=ALL_PRUNING, **kw) -> SolveResult:
    """Decide ``position`` under ``position.rules``; see the module docstring."""
    return Solver(position, max_states, max_seconds, prune, **kw).run()

