"""One search of the solver over one space: the sound space or the
streamlined one, depth-first or best-first, sliced into ``step(n)`` calls
(see :mod:`kosynka.solver`); and the expansion of a winning line into the
pinned notation."""

from __future__ import annotations

import enum
import heapq
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from ..position import DRAW, FOUNDATION, WASTE, Position
from ..position import Move as PileMove
from .moves import Scores, _Moves
from .proofs import (
    _FD,
    _FDB,
    ALL_PRUNING,
    Columns,
    Move,
    State,
    _dead,
    _dominates,
    _relaxed,
)

Clock: TypeAlias = Callable[[], float]
Step: TypeAlias = tuple[Move, list[Move]]
"""A step of a line: a move and the forced moves after it."""
Frame: TypeAlias = list[Any]
"""A frame of the depth-first stack, a list for speed: ``[state, moves,
index of the next move, step that led here or None]``."""
Link: TypeAlias = "tuple[bytes, Move, list[Move]] | Literal[False] | None"
"""Best-first: how a key was reached, ``(parent key, move, forced moves)``;
``None`` for the root, ``False`` for a state before its forced moves."""


class Verdict(enum.StrEnum):
    """What a search says of a position; each is its own word in the CLI's
    JSON (a ``str``: ``Verdict.WON == "won"``)."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


@dataclass
class SolveResult:
    """``result`` is a :class:`Verdict` (given as one or as its word);
    ``moves`` is the winning line in the pinned notation (empty unless won)."""

    result: Verdict
    moves: list[str] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.result = Verdict(self.result)

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result.value, "moves": list(self.moves),
                "states": self.states, "seconds": round(self.seconds, 4)}



class _Sliced:
    """``run()`` for a search with a ``step(n)`` that returns ``None`` until done."""

    def step(self, n: int = 1000) -> SolveResult | None:
        """Search about ``n`` more states; ``None`` while running, else the
        :class:`SolveResult`."""
        raise NotImplementedError

    def run(self) -> SolveResult:
        """Search to the end (or the budget)."""
        while True:
            res = self.step(4096)
            if res is not None:
                return res


class _Search(_Sliced):
    """One sliced search over one space (sound, or streamlined when
    ``streamline``); :class:`Solver` runs them. ``step(n)`` searches exactly
    ``n`` more new states unless the search ends first, so the outcome depends
    only on the states counted, never on how the calls are sliced."""

    SCORES = (900, 950, 150, 600, 10, 400, 20, 300, 50, 500, -20)
    """Move-ordering scores (a heuristic; any values are sound): to foundation,
    to foundation revealing (+ cards below), emptying a column, revealing
    (+ per card below), a partial run freeing a card for its foundation, a
    partial run, talon card, its penalty when a redeal is needed, talon card to
    a foundation (added), a talon King to an empty column (added)."""

    TALON_FIRST = SCORES[:7] + (1000,) + SCORES[8:]
    """The same with talon cards first (above foundation moves): the order of
    the sound search and of a fourth search of the portfolio in Classic draw 3
    (see :class:`kosynka.solver.Solver`)."""

    def __init__(self, position: Position, max_states: int | None = None,
                 max_seconds: float | None = None, prune: Iterable[str] = ALL_PRUNING,
                 strategy: str = "dfs", weights: tuple[int, int, int] = (3, 1, 0),
                 scores: Scores | None = None, clock: Clock = time.perf_counter,
                 streamline: bool = False) -> None:
        self._clock = clock
        self._stream = streamline
        self.strategy = strategy
        self._wd, self._wf, self._wt = weights
        self.position = position.copy()
        self.rules = position.rules
        self.draw = position.rules.draw
        self.limit = position.rules.redeals
        self.max_states = max_states
        self.max_seconds = max_seconds
        self.prune = frozenset(prune)
        self._gen = _Moves(self.draw, self.limit, self.prune, scores or self.SCORES, streamline)
        self._sym = "symmetry" in self.prune
        self._key_p = not ("pointer" in self.prune and self.draw == 1 and self.limit is None)
        self._key_r = not ("redeals" in self.prune and self.limit is None)
        # "stock": same piles, talon pointer / redeals used compared by taps
        self._dom = ("stock" in self.prune and not streamline and strategy == "dfs"
                     and self._key_p)
        self._fresh: Callable[[State], bool] = self._fresh_dom if self._dom else self._fresh_set
        # unlimited redeals: the count is ignored ("redeals") or compared
        self._dom_limit = (self.limit if self.limit is not None or not self._key_r
                           else 1 << 30)
        self.states = 0
        self.seconds = 0.0
        self.result: SolveResult | None = None
        self._seen: set[bytes] = set()
        self._met: dict[bytes, list[tuple[int, int]]] = {}     # "stock": pointers met
        self._parents: dict[bytes, Link] = {}
        self._heap: list[tuple[int, int, State, bytes]] = []
        cols = tuple(bytes([c + _FD for c in col[:d]] + list(col[d:]))
                     for col, d in zip(position.columns, position.down, strict=True))
        talon = bytes(position.waste) + bytes(reversed(position.stock))
        state = (cols, talon, len(position.waste), tuple(position.foundations),
                 position.redeals_used)
        state, autos = self._gen.autos(state)
        self._root_autos = autos
        self._root = state
        self._stack: list[Frame] = []
        self._start(state)

    # ------------------------------------------------------------ keys
    def _key(self, state: State) -> bytes:
        cols, talon, p, found, r = state
        ck = b"\xff".join(sorted(cols) if self._sym else cols)
        if self._dom:
            return ck + b"\xfe" + talon
        return ck + b"\xfe" + talon + bytes((p if self._key_p else 0,
                                             r if self._key_r else 0))

    def _fresh_set(self, state: State) -> bool:
        """Is ``state`` new? (Then it is recorded as met.)"""
        k = self._key(state)
        seen = self._seen
        if k in seen:
            return False
        seen.add(k)
        return True

    def _fresh_dom(self, state: State) -> bool:
        """``"stock"``: is ``state`` neither met before nor dominated by a
        state met before? Two states with the same piles (the key without
        the talon pointer and the redeals used) are compared with
        :func:`_dominates`."""
        k = self._key(state)
        p, r = state[2], state[4]
        met = self._met.get(k)
        if met is None:
            self._met[k] = [(p, r)]
            return True
        n = len(state[1])
        draw, limit = self.draw, self._dom_limit
        for p0, r0 in met:
            if _dominates(p0, r0, p, r, n, draw, limit):
                return False
        met.append((p, r))
        return True

    def _start(self, state: State) -> None:
        self._fresh(state)
        self.states = 1
        if sum(state[3]) == 52:
            self._won(list(self._root_autos))
            return
        if not self._stream and (("deadend" in self.prune and _dead(state[0]))
                                 or ("relax" in self.prune
                                     and _relaxed(state[0], state[1], state[3]))):
            self.result = SolveResult(Verdict.LOST, [], self.states, self.seconds)
            return
        if self.strategy == "best":
            k = self._key(state)
            self._parents = {k: None}
            self._heap = [(0, 0, state, k)]
            return
        self._stack.append([state, self._gen.moves(state), 0, None])

    # ------------------------------------------------------------ search
    def step(self, n: int = 1000) -> SolveResult | None:
        """Search about ``n`` more states; ``None`` while running, else the
        :class:`SolveResult`."""
        if self.result is not None:
            return self.result
        if self.strategy == "best":
            return self._step_best(n)
        clock = self._clock
        t0 = clock()
        stack = self._stack
        fresh = self._fresh
        gen = self._gen
        apply = gen.apply
        autos = gen.autos
        moves = gen.moves
        max_states = self.max_states
        max_seconds = self.max_seconds
        budget = n
        check = 0
        while budget > 0:
            if not stack:
                self.seconds += clock() - t0
                self.result = SolveResult(Verdict.LOST, [], self.states, self.seconds)
                return self.result
            frame = stack[-1]
            kids = frame[1]
            i = frame[2]
            if i >= len(kids):
                stack.pop()
                continue
            frame[2] = i + 1
            m = kids[i]
            st = apply(frame[0], m)
            if not fresh(st):           # met before its forced moves: see _Search
                continue
            st, done = autos(st, m)
            if done and not fresh(st):
                continue
            self.states += 1
            budget -= 1
            if sum(st[3]) == 52:
                stack.append([st, [], 0, (m, done)])
                self.seconds += clock() - t0
                return self._won_from_stack()
            stack.append([st, moves(st), 0, (m, done)])
            if max_states is not None and self.states >= max_states:
                break
            check += 1
            if max_seconds is not None and check >= 128:
                check = 0
                if self.seconds + clock() - t0 >= max_seconds:
                    break
        self.seconds += clock() - t0
        return self._end_slice()

    def _end_slice(self) -> SolveResult | None:
        """After a slice: the ``unknown`` result if the budget is spent (the
        search structures are dropped), else ``None``."""
        if ((self.max_states is not None and self.states >= self.max_states)
                or (self.max_seconds is not None and self.seconds >= self.max_seconds)):
            self.result = SolveResult(Verdict.UNKNOWN, [], self.states, self.seconds)
            self._stack = []
            self._seen = set()
            self._met = {}
            self._heap = []
            self._parents = {}
            return self.result
        return None

    def _h(self, st: State) -> int:
        """Best-first priority (lower first): a heuristic only."""
        cols, talon, p, found, r = st
        allc = b"".join(cols)
        down = len(allc) - len(allc.translate(None, _FDB))
        return self._wd * down + self._wf * (52 - found[0] - found[1] - found[2] - found[3]) + self._wt * len(talon)

    def _step_best(self, n: int) -> SolveResult | None:
        clock = self._clock
        t0 = clock()
        heap = self._heap
        parents = self._parents
        key = self._key
        gen = self._gen
        apply = gen.apply
        autos = gen.autos
        moves = gen.moves
        hfun = self._h
        push = heapq.heappush
        pop = heapq.heappop
        max_states = self.max_states
        max_seconds = self.max_seconds
        budget = n
        check = 0
        while budget > 0:
            if not heap:
                self.seconds += clock() - t0
                self.result = SolveResult(Verdict.LOST, [], self.states, self.seconds)
                self._parents = {}
                return self.result
            _, _, st, k = pop(heap)
            for m in moves(st):
                st2 = apply(st, m)
                k2 = key(st2)
                if k2 in parents:
                    continue
                st2, done = autos(st2, m)
                if done:
                    parents[k2] = False     # a state before its forced moves
                    k2 = key(st2)
                    if k2 in parents:
                        continue
                parents[k2] = (k, m, done)
                self.states += 1
                budget -= 1
                if sum(st2[3]) == 52:
                    self.seconds += clock() - t0
                    path: list[Step] = []
                    while True:
                        link = parents[k2]
                        if not link:        # the root (a chain never holds False)
                            break
                        k2, m2, done2 = link
                        path.append((m2, done2))
                    self._parents = {}
                    self._heap = []
                    return self._won(self._shorten(self._root, path[::-1]))
                push(heap, (hfun(st2), -self.states, st2, k2))
            if max_states is not None and self.states >= max_states:
                break
            check += 1
            if max_seconds is not None and check >= 16:
                check = 0
                if self.seconds + clock() - t0 >= max_seconds:
                    break
        self.seconds += clock() - t0
        return self._end_slice()

    def _won_from_stack(self) -> SolveResult:
        root = self._stack[0][0]
        steps = [frame[3] for frame in self._stack[1:]]
        self._stack = []
        self._seen = set()
        self._met = {}
        return self._won(self._shorten(root, steps))

    def _shorten(self, root: State, steps: list[Step]) -> list[Move]:
        """The internal moves of a winning line, with detours cut: from each
        state of the line, jump to the latest later state of the line that one
        move reaches (depth-first search wanders; this is cosmetic and sound,
        since every jump is a legal move to a state of the winning line)."""
        gen = self._gen
        states = [root]
        for m, _done in steps:
            states.append(gen.autos(gen.apply(states[-1], m))[0])
        kp, kr = self._key_p, self._key_r

        def exact(st: State) -> tuple[Columns, bytes, int, int]:   # columns in place
            return (st[0], st[1], st[2] if kp else 0, st[4] if kr else 0)

        last: dict[tuple[Columns, bytes, int, int], int] = {}
        for i, st in enumerate(states):
            last[exact(st)] = i
        path = list(self._root_autos)
        i = 0
        n = len(states) - 1
        while i < n:
            best, bm, bd = i + 1, steps[i][0], steps[i][1]
            if i + 1 < n:
                for m in gen.moves(states[i]):
                    st2, done = gen.autos(gen.apply(states[i], m))
                    j = last.get(exact(st2), -1)
                    if j > best:
                        best, bm, bd = j, m, done
            path.append(bm)
            path.extend(bd)
            i = best
        return path

    def _won(self, path: list[Move]) -> SolveResult:
        moves = _notation(self.position, path)
        self.result = SolveResult(Verdict.WON, moves, self.states, self.seconds)
        return self.result


def streamlined_search(position: Position, **kw: Any) -> _Search:
    """The streamlined search: best-first when the redeals are limited (there
    it wins about 1.4× as many deals within 5,000 states as depth-first:
    Turn Three deals 0–99, 32 against 23), depth-first otherwise (more wins
    there: 67 against 58 on Classic draw 1, 65 against 61 on draw 3). It
    leaves ``"twins"`` out: there its pairs cost more time than they save
    (Classic draw 1, deals 0–59, 3 CPU s each: 54 won with the sound search
    alone using it, 50 with both).

    Public for V1's test of one deal: ``streamlined_search(position,
    max_states=VERIFY_STATES).run().result == "won"`` is what
    :func:`verified_deal` asks of each deal (``.step(n)`` slices it)."""
    strategy = "dfs" if position.rules.redeals is None else "best"
    kw["prune"] = kw.get("prune", ALL_PRUNING) - {"twins"}
    return _Search(position, streamline=True, strategy=strategy, **kw)



def _flat(path: Iterable[Move]) -> Iterator[Move]:
    """Internal moves with each compound ``(3, first, second)`` split up."""
    for m in path:
        if m[0] == 3:
            yield from _flat(m[1:])
        else:
            yield m


def _notation(position: Position, path: list[Move]) -> list[str]:
    """Expand internal moves into the pinned notation by playing them on a copy
    of the engine's position (a talon move becomes its ``D`` taps)."""
    pos = position.copy()
    out: list[str] = []
    for m in _flat(path):
        kind = m[0]
        if kind == 0:
            _, i, n, d = m
            mv = PileMove(i, FOUNDATION + (pos.columns[i][-1] & 3) if d < 0 else d, n)
        elif kind == 1:
            _, ti, d, red = m
            talon = pos.waste + pos.stock[::-1]
            card = talon[ti]
            taps = 0
            while not (pos.waste and pos.waste[-1] == card):
                out.append("D")
                pos.push(DRAW)
                taps += 1
                if taps > 200:
                    raise AssertionError("solver: talon card not reachable")
            mv = PileMove(WASTE, FOUNDATION + (card & 3) if d < 0 else d, 1)
        else:
            _, s, d = m
            mv = PileMove(FOUNDATION + s, d, 1)
        out.append(pos.format_move(mv))
        pos.push(mv)
    if not pos.is_won:
        raise AssertionError("solver: the line does not win")
    return out

