"""The thoughtful solver: decide any Klondike position, knowing every card.

It serves V1 (only verified deals are dealt), F2 (Finish from any position) and
the race (the shared deal is verified). Pure Python, stdlib only; the same code
runs on CPython and on Pyodide in the browser.

API
===

``solve(position, max_states=None, max_seconds=None) -> SolveResult``
    Decide ``position`` (a :class:`kosynka.position.Position`, any mid-game
    state: foundations partly built, redeals partly used, a draw-3 waste in any
    state, C5 columns whose face-up cards are not one run) under its own
    ``position.rules``. The position is not modified. The result has

    * ``result`` — ``"won"``, ``"lost"`` or ``"unknown"``;
    * ``moves`` — for ``"won"``: the full list of moves in the pinned notation
      (``"D"`` taps and ``"Th>4"``/``"Ah>F"`` moves) that takes the position to
      a win when played one by one (``Position.play`` / ``Game.play``);
      ``[]`` otherwise;
    * ``states`` — how many distinct states were searched;
    * ``seconds`` — wall time spent.

    ``"lost"`` is returned only when the whole search space was exhausted under
    pruning proven safe (see *Soundness* below): a winnable position is never
    ``"lost"``. ``"unknown"`` means the budget ran out: ``max_states`` (count of
    states, deterministic everywhere) and/or ``max_seconds`` (wall clock).

``Solver(position, max_states=None, max_seconds=None)`` — the same search in
slices, for the browser. ``solver.step(n=1000)`` searches about ``n`` more
states and returns ``None`` while the search goes on, or the
:class:`SolveResult` once decided (then every later call returns it again).
A state costs about 40–60 µs on CPython on the 2-core benchmark machine
(moves, safe moves and key of each child), so ``step(100)`` is ~5 ms; Pyodide
is a few times slower: in the page use n ≈ 50–100 per slice to keep each task
at a few ms (``step(1000)`` is ~50 ms on CPython). Cancel by
dropping the object; nothing runs in between calls. ``solver.states`` shows the
progress; ``max_seconds`` counts the time spent inside ``step`` only, on
``clock`` (default ``time.perf_counter``; the benchmark passes
``time.process_time`` so that a busy machine does not eat the budget).

``verified_deal(start, rules=Rules(), max_states=VERIFY_STATES) -> (number, SolveResult)``
    V1: the first deal number ``>= start`` whose starting position the solver
    wins within ``max_states`` states, and the winning result (its ``moves``
    are the solution from the deal). The budget is in states, never seconds,
    so the same ``start`` and rules give the same deal and the same solution
    on every machine, CPython or Pyodide (the search order is fully
    deterministic: no hashing of salted objects, no set iteration order).

``VerifiedDealSearch(start, rules=Rules(), max_states=VERIFY_STATES)`` — the
same in slices: ``step(n)`` returns ``None`` while searching, then the tuple
``(number, SolveResult)``; ``.number`` is the deal being tried now.

Switches (for tests): ``Solver(..., prune=frozenset)`` selects which of the
pruning rules below are on; ``ALL_PRUNING`` is the default. Any subset is sound;
turning rules off only makes the search slower. ``strategy="best"`` swaps the
depth-first search for a greedy best-first search on ``weights`` (face-down
cards, cards off the foundations, talon size) — an experiment, not faster on
average; the default ``"dfs"`` is what the figures in the README measure.

Representation
==============

A column is a ``bytes`` object bottom → top, a face-down card stored as
``card + 64``. The talon (waste and stock) is one ``bytes`` in deal order:
``waste`` bottom → top followed by the stock in the order it will be drawn; the
pointer ``p`` = ``len(waste)``, the top waste card is ``talon[p - 1]``.
Drawing moves ``p`` to ``min(p + draw, len(talon))``; a redeal sets ``p = 0``.

Search
======

Depth-first search (moves ordered by :attr:`Solver.SCORES`: foundation moves,
then moves that turn a card up — deepest column first —, talon cards, emptying
a column, partial runs, foundation → column last) with a transposition table (the set of canonical keys of
every state met) and ordered moves; the path on the stack is the solution. A
state counts once, when it is first met. The DFS with a global visited set is
complete on a finite graph: if a winning state is reachable from the root, it
is reached; so an exhausted search is a proof of ``lost``.

Moves searched ("K+" representation, after Bjarnason, Fern & Tadepalli 2007):
column → foundation/column (any tail of the top run), foundation → column (R8),
and *talon moves*: a talon card reachable by some taps of the stock goes to a
foundation or column in one macro move. In the solution a macro move expands
into the right number of ``D`` taps. See :func:`_talon_reach` for the proof that
macro moves lose nothing.

Soundness — pruning rules (each switchable)
===========================================

The frame for every proof: measure a winning line by its number of moves,
stock taps not counted (a macro talon move counts one). A pruning rule is
sound if, from every winnable state, a shortest winning line never starts
with a pruned move, and a forced move (``"safe"``) leaves a state whose
shortest winning line is shorter. Then from every winnable state the pruned
search graph has a successor with a strictly shorter shortest line, so a win
is reachable in that graph and the exhaustive DFS finds it; states merged by
the key (symmetry, pointer, redeals) have the same shortest lines. So
``"lost"`` is only ever said of a position with no winning line.

``"safe"`` — safe moves to foundation, applied at once with no alternative;
    see :func:`_safe` for the proof under R8.
``"symmetry"`` — column order is irrelevant: the key sorts the columns, and a
    King already at the bottom of a column never moves to an empty column.
    Proof: a permutation of the columns maps legal moves to legal moves and a
    win to a win, so two states equal up to column order are both winnable or
    both not; moving a bottom King (with its run) to an empty column gives the
    same state up to column order.
``"pointer"`` — draw 1 with unlimited redeals: the talon pointer is left out of
    the key. Proof: from any pointer every talon card is reachable (draw on, or
    redeal and draw), and the state after a talon move depends only on which
    card moved (the pointer lands on the card's old place), so two states that
    differ only in the pointer have the same moves and the same successors.
``"redeals"`` — unlimited redeals: the count of redeals used is left out of the
    key (no rule looks at it).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

from .cards import PARENTS
from .position import DRAW, FOUNDATION, WASTE, Position, Rules

__all__ = [
    "SolveResult", "Solver", "solve", "verified_deal", "VerifiedDealSearch",
    "ALL_PRUNING", "VERIFY_STATES",
]

ALL_PRUNING = frozenset({"safe", "symmetry", "pointer", "redeals"})
VERIFY_STATES = 5000
"""Default state budget for a verified deal (deterministic everywhere)."""

_FDB = bytes(range(64, 128))
_FD = 64                      # face-down flag added to a card in a column
_PAR = tuple(PARENTS) + tuple(() for _ in range(128 - 52))   # face-down: none
_EMPTY: list = []
_KIDS = tuple(tuple(c for c in range(52) if q in PARENTS[c]) for q in range(52))
_SIB = (3, 2, 1, 0)           # the other suit of the same colour
_OPP = ((1, 2), (0, 3), (0, 3), (1, 2))


@dataclass
class SolveResult:
    """``result`` is ``"won"``, ``"lost"`` or ``"unknown"``; ``moves`` is the
    winning line in the pinned notation (empty unless won)."""

    result: str
    moves: list[str] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"result": self.result, "moves": list(self.moves),
                "states": self.states, "seconds": round(self.seconds, 4)}


def _safe(card: int, found) -> bool:
    """May ``card`` (at a column top, or in a talon as allowed below) go to its
    foundation with no alternative searched?

    Rule: its foundation takes it next, both foundations of the other colour
    hold every card below its rank, and the other foundation of its colour
    holds every card two or more below its rank.

    Proof (valid with R8, cards coming back from foundations). Let ``c`` have
    rank ``r``; let ``L`` be the cards of the other colour of rank < r and the
    cards of c's colour of rank < r - 1 on the sibling suit and < r on c's own
    suit; by the rule all of ``L`` is on foundations in P. Let ``S`` be any
    winning line from P and P' = P with c on its foundation. Project every
    state Q of S by lifting the cards of ``L ∪ {c}`` onto their foundations.
    (1) In a column only a card one rank lower of the other colour is ever put
    on a card, and whatever lies on a card of ``L ∪ {c}`` is in ``L``; none of
    them is face down (in P they are on foundations or c is a top), so they
    always form a top segment of their columns and lifting them leaves a
    legal layout, with at most the same face-down cards. (2) Each move of S
    maps to a legal move or to nothing: a move of a card of ``L ∪ {c}`` (with
    what lies on it) maps to nothing; a move of a run headed by another card
    ``h`` maps to the same move of the run cut at its first lifted card: ``h``
    is a top, face up, and its destination — a parent of ``h``, not in
    ``L ∪ {c}`` by ranks and colours, or an empty column, or h's foundation,
    whose height is unchanged by the lifting because h's rank is at or above
    the lifted part — is still there; a foundation → column move of such an
    ``h`` likewise. Stock taps map to the same taps; if c was in the talon
    (draw 1 only, below) a tap that turns c up maps to nothing and the others
    to the same taps, so redeals used never grow. (3) The projection of a won
    state is won. So S projects to a winning line from P'.

    Talon: with draw 1 the tap mapping above holds wherever c lies in the
    talon, so c may go from the waste top (any redeal limit) and, with
    unlimited redeals (pointer irrelevant, see ``"pointer"``), from anywhere in
    the talon. With draw 3 removing a talon card shifts the triples, so talon
    cards are never moved by this rule.
    """
    r = card >> 2
    s = card & 3
    if found[s] != r:
        return False
    o1, o2 = _OPP[s]
    return found[o1] >= r and found[o2] >= r and found[_SIB[s]] >= r - 1


def _safe_back(card: int, found) -> bool:
    """Is ``card``, the top of its foundation, one that never needs to come
    back (R8)? Same rule as :func:`_safe` with the card counted as not yet on
    its foundation. Proof: if a shortest winning line from P starts by moving
    ``card`` to a column, giving Q, then in Q the card is a column top and the
    rule of :func:`_safe` holds, so the projection in its proof turns the rest
    of the line into a winning line from Q + card→foundation = P that is at
    least one move shorter (the card's move back up is dropped): impossible.
    """
    r = card >> 2
    s = card & 3
    o1, o2 = _OPP[s]
    return found[o1] >= r and found[o2] >= r and found[_SIB[s]] >= r - 1


def _talon_reach(n: int, p: int, draw: int, can_redeal: bool):
    """Indices of the talon cards that can become the top of the waste by taps
    of the stock alone, each with a flag: does it take a redeal.

    Proof that talon macro moves lose nothing: stock taps change only the talon
    pointer (and the redeal count), and no other move depends on the pointer
    except the move of the waste top; so in any winning line the taps can be
    moved forward to stand right before the talon move they serve (taps not
    followed by a talon move are dropped). The pointers reachable by taps from
    ``p`` are ``p`` and ``min(p + k*draw, n)`` for k ≥ 1, then after a redeal
    ``min(k*draw, n)`` for k ≥ 1; a second redeal with no talon move in between
    reaches nothing new. Where a card is reachable with and without a redeal,
    the state without it has the same piles and fewer redeals used, so it does
    at least as well (any line from the other one is legal from it).
    """
    out = []
    seen = set()
    if p > 0:
        out.append((p - 1, False))
        seen.add(p - 1)
    q = p
    while q < n:
        q = q + draw if q + draw < n else n
        out.append((q - 1, False))
        seen.add(q - 1)
    if can_redeal and n:
        q = 0
        while q < n:
            q = q + draw if q + draw < n else n
            if q - 1 not in seen:
                out.append((q - 1, True))
                seen.add(q - 1)
    return out


class Solver:
    """Sliced search; see the module docstring."""

    SCORES = (900, 950, 150, 600, 10, 400, 20, 300, 50, 500, -20)
    """Move-ordering scores (a heuristic; any values are sound): to foundation,
    to foundation revealing (+ cards below), emptying a column, revealing
    (+ per card below), a partial run freeing a card for its foundation, a
    partial run, talon card, its penalty when a redeal is needed, talon card to
    a foundation (added), a talon King to an empty column (added)."""

    def __init__(self, position: Position, max_states: int | None = None,
                 max_seconds: float | None = None, prune=ALL_PRUNING,
                 strategy: str = "dfs", weights=(3, 1, 0), scores=None,
                 clock=time.perf_counter) -> None:
        self._clock = clock
        self.scores = scores or self.SCORES
        self.strategy = strategy
        self._wd, self._wf, self._wt = weights
        self.position = position.copy()
        self.rules = position.rules
        self.draw = position.rules.draw
        self.limit = position.rules.redeals
        self.max_states = max_states
        self.max_seconds = max_seconds
        self.prune = frozenset(prune)
        self._safe_on = "safe" in self.prune
        self._sym = "symmetry" in self.prune
        self._key_p = not ("pointer" in self.prune and self.draw == 1 and self.limit is None)
        self._key_r = not ("redeals" in self.prune and self.limit is None)
        self._auto_talon = self._safe_on and self.draw == 1 and self.limit is None
        self.states = 0
        self.seconds = 0.0
        self.result: SolveResult | None = None
        self._seen: set = set()
        self._reach_cache: dict = {}
        cols = tuple(bytes([c + _FD for c in col[:d]] + list(col[d:]))
                     for col, d in zip(position.columns, position.down))
        talon = bytes(position.waste) + bytes(reversed(position.stock))
        state = (cols, talon, len(position.waste), tuple(position.foundations),
                 position.redeals_used)
        state, autos = self._autos(state)
        self._root_autos = autos
        self._stack: list = []
        self._start(state)

    # ------------------------------------------------------------ keys
    def _key(self, state) -> bytes:
        cols, talon, p, found, r = state
        ck = b"\xff".join(sorted(cols) if self._sym else cols)
        return ck + b"\xfe" + talon + bytes((p if self._key_p else 0,
                                             r if self._key_r else 0))

    def _start(self, state) -> None:
        self._seen.add(self._key(state))
        self.states = 1
        if sum(state[3]) == 52:
            self._won(list(self._root_autos))
            return
        self._root = state
        if self.strategy == "best":
            k = self._key(state)
            self._parents = {k: None}
            self._heap = [(0, 0, state, k)]
            return
        self._stack.append([state, self._moves(state), 0, None])

    # ------------------------------------------------------------ moves
    def _autos(self, state):
        """Apply the ``"safe"`` moves (see :func:`_safe`) until none is left."""
        if not self._safe_on:
            return state, []
        cols, talon, p, found, r = state
        done = None
        while True:
            # the (at most 4) cards the foundations take next that are safe
            f0, f1, f2, f3 = found
            m = False
            for s, k in ((0, f0), (1, f1), (2, f2), (3, f3)):
                if k == 13:
                    continue
                if s == 0 or s == 3:
                    ok = f1 >= k and f2 >= k and (f3 if s == 0 else f0) >= k - 1
                else:
                    ok = f0 >= k and f3 >= k and (f2 if s == 1 else f1) >= k - 1
                if not ok:
                    continue
                c = k * 4 + s
                for i in range(7):
                    col = cols[i]
                    if col and col[-1] == c:
                        rest = col[:-1]
                        if rest and rest[-1] >= _FD:
                            rest = rest[:-1] + bytes((rest[-1] - _FD,))
                        cols = cols[:i] + (rest,) + cols[i + 1:]
                        mv = (0, i, 1, -1)
                        break
                else:
                    if c not in talon:
                        continue
                    i = talon.index(c)
                    if not (self._auto_talon or (self.draw == 1 and i == p - 1)):
                        continue
                    talon = talon[:i] + talon[i + 1:]
                    p = i
                    mv = (1, i, -1, False)
                if done is None:
                    done = []
                done.append(mv)
                f = list(found)
                f[s] += 1
                found = tuple(f)
                m = True
                break
            if not m:
                break
        if done is None:
            return state, _EMPTY
        return (cols, talon, p, found, r), done

    def _reach(self, talon, p, r):
        can = self.limit is None or r < self.limit
        k = (len(talon), p, can)
        v = self._reach_cache.get(k)
        if v is None:
            v = self._reach_cache[k] = dict(_talon_reach(len(talon), p, self.draw, can))
        return v

    def _moves(self, state):
        """Ordered moves of ``state``: ``(0, src, n, dst)`` column run of n
        cards (dst -1 = foundation); ``(1, i, dst, redeal)`` talon card i;
        ``(2, suit, dst)`` foundation → column. Ordering is a heuristic only
        (it never removes a move)."""
        cols, talon, p, found, r = state
        S_F, S_FR, S_E, S_R, S_RJ, S_PF, S_P, S_T, S_TR, S_TF, S_TK = self.scores
        scored = []
        add = scored.append
        tops = {}
        empty = -1
        for i in range(7):
            col = cols[i]
            if col:
                tops[col[-1]] = i
            elif empty < 0:
                empty = i
        get = tops.get
        sym = self._sym
        for i in range(7):
            col = cols[i]
            if not col:
                continue
            n = len(col)
            j = n - 1
            card = col[j]
            if found[card & 3] == card >> 2:
                sc = S_F
                if j > 0 and col[j - 1] >= _FD:
                    sc = S_FR + j
                add((sc, (0, i, 1, -1)))
            while True:
                par = _PAR[card]
                if j == 0:
                    below = -1
                    base = S_E                      # empties the column
                else:
                    below = col[j - 1]
                    if below >= _FD:
                        base = S_R + S_RJ * j       # reveals a card
                    elif found[below & 3] == below >> 2:
                        base = S_PF                 # frees a card for its foundation
                    else:
                        base = S_P                  # partial run
                for q in par:
                    d = get(q)
                    if d is not None:
                        add((base, (0, i, n - j, d)))
                if card >= 48 and empty >= 0:
                    if j:
                        add((base + 5, (0, i, n - j, empty)))
                    elif not sym:
                        add((0, (0, i, n - j, empty)))
                if j == 0 or below not in par:
                    break
                j -= 1
                card = below
        if talon:
            if self.draw == 1 and (self.limit is None or r < self.limit):
                reach = None                        # every talon card
            else:
                reach = self._reach(talon, p, r)
            cands = []
            for s in range(4):
                k = found[s]
                if k < 13:
                    cands.append((k * 4 + s, -1))
            for q, d in tops.items():
                for c in _KIDS[q]:
                    cands.append((c, d))
            if empty >= 0:
                for c in (48, 49, 50, 51):
                    cands.append((c, empty))
            for c, d in cands:
                if c not in talon:
                    continue
                i = talon.index(c)
                if reach is None:
                    red = self.limit is not None and i < p - 1
                else:
                    red = reach.get(i)
                    if red is None:
                        continue
                sc = S_T - S_TR if red else S_T
                if d < 0:
                    sc += S_TF
                elif c >= 48:
                    sc += S_TK
                add((sc, (1, i, d, red)))
        safe_on = self._safe_on
        for s in range(4):
            k = found[s]
            if k:
                card = (k - 1) * 4 + s
                if safe_on and _safe_back(card, found):
                    continue
                for q in _PAR[card]:
                    d = get(q)
                    if d is not None:
                        add((1, (2, s, d)))
                if card >= 48 and empty >= 0:
                    add((1, (2, s, empty)))
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    def _apply(self, state, m):
        cols, talon, p, found, r = state
        kind = m[0]
        if kind == 0:
            _, i, n, d = m
            col = cols[i]
            cards = col[-n:]
            rest = col[:-n]
            if rest and rest[-1] >= _FD:
                rest = rest[:-1] + bytes((rest[-1] - _FD,))
            cl = list(cols)
            cl[i] = rest
            if d < 0:
                f = list(found)
                f[cards[0] & 3] += 1
                found = tuple(f)
            else:
                cl[d] = cols[d] + cards
            cols = tuple(cl)
        elif kind == 1:
            _, i, d, red = m
            card = talon[i]
            talon = talon[:i] + talon[i + 1:]
            p = i
            if red:
                r += 1
            if d < 0:
                f = list(found)
                f[card & 3] += 1
                found = tuple(f)
            else:
                cl = list(cols)
                cl[d] = cols[d] + bytes((card,))
                cols = tuple(cl)
        else:
            _, s, d = m
            f = list(found)
            f[s] -= 1
            card = f[s] * 4 + s
            found = tuple(f)
            cl = list(cols)
            cl[d] = cols[d] + bytes((card,))
            cols = tuple(cl)
        return (cols, talon, p, found, r)

    # ------------------------------------------------------------ search
    def step(self, n: int = 1000):
        """Search about ``n`` more states; ``None`` while running, else the
        :class:`SolveResult`."""
        if self.result is not None:
            return self.result
        if self.strategy == "best":
            return self._step_best(n)
        clock = self._clock
        t0 = clock()
        stack = self._stack
        seen = self._seen
        key = self._key
        apply = self._apply
        autos = self._autos
        moves = self._moves
        max_states = self.max_states
        max_seconds = self.max_seconds
        budget = n
        check = 0
        while budget > 0:
            if not stack:
                self.seconds += clock() - t0
                self.result = SolveResult("lost", [], self.states, self.seconds)
                return self.result
            frame = stack[-1]
            kids = frame[1]
            i = frame[2]
            if i >= len(kids):
                stack.pop()
                continue
            frame[2] = i + 1
            m = kids[i]
            st, done = autos(apply(frame[0], m))
            k = key(st)
            if k in seen:
                continue
            seen.add(k)
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

    def _end_slice(self):
        """After a slice: the ``unknown`` result if the budget is spent (the
        search structures are dropped), else ``None``."""
        if ((self.max_states is not None and self.states >= self.max_states)
                or (self.max_seconds is not None and self.seconds >= self.max_seconds)):
            self.result = SolveResult("unknown", [], self.states, self.seconds)
            self._stack = []
            self._seen = set()
            self._heap = []
            self._parents = {}
            return self.result
        return None

    def _h(self, st) -> int:
        """Best-first priority (lower first): a heuristic only."""
        cols, talon, p, found, r = st
        allc = b"".join(cols)
        down = len(allc) - len(allc.translate(None, _FDB))
        return self._wd * down + self._wf * (52 - found[0] - found[1] - found[2] - found[3]) + self._wt * len(talon)

    def _step_best(self, n: int):
        clock = self._clock
        t0 = clock()
        heap = self._heap
        parents = self._parents
        key = self._key
        apply = self._apply
        autos = self._autos
        moves = self._moves
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
                self.result = SolveResult("lost", [], self.states, self.seconds)
                self._parents = {}
                return self.result
            _, _, st, k = pop(heap)
            for m in moves(st):
                st2, done = autos(apply(st, m))
                k2 = key(st2)
                if k2 in parents:
                    continue
                parents[k2] = (k, m, done)
                self.states += 1
                budget -= 1
                if sum(st2[3]) == 52:
                    self.seconds += clock() - t0
                    path = []
                    while True:
                        link = parents[k2]
                        if link is None:
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

    def run(self) -> SolveResult:
        """Search to the end (or the budget)."""
        while True:
            res = self.step(1 << 30 if self.max_seconds is None else 4096)
            if res is not None:
                return res

    def _won_from_stack(self) -> SolveResult:
        root = self._stack[0][0]
        steps = [frame[3] for frame in self._stack[1:]]
        self._stack = []
        self._seen = set()
        return self._won(self._shorten(root, steps))

    def _shorten(self, root, steps):
        """The internal moves of a winning line, with detours cut: from each
        state of the line, jump to the latest later state of the line that one
        move reaches (depth-first search wanders; this is cosmetic and sound,
        since every jump is a legal move to a state of the winning line)."""
        states = [root]
        for m, done in steps:
            states.append(self._autos(self._apply(states[-1], m))[0])
        kp, kr = self._key_p, self._key_r

        def exact(st):                      # columns in place: no symmetry here
            return (st[0], st[1], st[2] if kp else 0, st[4] if kr else 0)

        last = {}
        for i, st in enumerate(states):
            last[exact(st)] = i
        path = list(self._root_autos)
        i = 0
        n = len(states) - 1
        while i < n:
            best, bm, bd = i + 1, steps[i][0], steps[i][1]
            if i + 1 < n:
                for m in self._moves(states[i]):
                    st2, done = self._autos(self._apply(states[i], m))
                    j = last.get(exact(st2), -1)
                    if j > best:
                        best, bm, bd = j, m, done
            path.append(bm)
            path.extend(bd)
            i = best
        return path

    def _won(self, path) -> SolveResult:
        moves = _notation(self.position, path)
        self.result = SolveResult("won", moves, self.states, self.seconds)
        return self.result


def _first(x):
    return x[0]


def _notation(position: Position, path) -> list[str]:
    """Expand internal moves into the pinned notation by playing them on a copy
    of the engine's position (a talon move becomes its ``D`` taps)."""
    pos = position.copy()
    out: list[str] = []
    for m in path:
        kind = m[0]
        if kind == 0:
            _, i, n, d = m
            mv = (i, FOUNDATION + (pos.columns[i][-1] & 3) if d < 0 else d, n)
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
            mv = (WASTE, FOUNDATION + (card & 3) if d < 0 else d, 1)
        else:
            _, s, d = m
            mv = (FOUNDATION + s, d, 1)
        out.append(pos.format_move(mv))
        pos.push(mv)
    if not pos.is_won:
        raise AssertionError("solver: the line does not win")
    return out


def solve(position: Position, max_states: int | None = None,
          max_seconds: float | None = None, prune=ALL_PRUNING, **kw) -> SolveResult:
    """Decide ``position`` under ``position.rules``; see the module docstring."""
    return Solver(position, max_states, max_seconds, prune, **kw).run()


class VerifiedDealSearch:
    """Sliced :func:`verified_deal`: ``step(n)`` → ``None`` or ``(number, result)``."""

    def __init__(self, start: int, rules: Rules = Rules(),
                 max_states: int = VERIFY_STATES) -> None:
        self.rules = rules
        self.max_states = max_states
        self.number = start
        self.tried = 0
        self._solver = Solver(Position.deal(start, rules), max_states=max_states)
        self.result = None

    def step(self, n: int = 1000):
        if self.result is not None:
            return self.result
        res = self._solver.step(n)
        if res is None:
            return None
        self.tried += 1
        if res.result == "won":
            self.result = (self.number, res)
            return self.result
        self.number += 1
        self._solver = Solver(Position.deal(self.number, self.rules),
                              max_states=self.max_states)
        return None


def verified_deal(start: int, rules: Rules = Rules(),
                  max_states: int = VERIFY_STATES):
    """V1: ``(number, SolveResult)`` of the first deal at or after ``start``
    that the solver wins within ``max_states`` states."""
    search = VerifiedDealSearch(start, rules, max_states)
    while True:
        res = search.step(1 << 20)
        if res is not None:
            return res


def verified_deal_json(start: int, rules: Rules = Rules(),
                       max_states: int = VERIFY_STATES) -> dict:
    """``python -m kosynka deal N --verified``: the deal JSON of the first
    verified deal at or after ``start``, with ``"number"`` and ``"solution"``."""
    from .cli import deal_json
    number, res = verified_deal(start, rules, max_states)
    data = deal_json(Position.deal(number, rules), number)
    data["solution"] = res.moves
    return data


def bench_main(args) -> int:
    """``python -m kosynka bench solver``; see :mod:`kosynka.solver_bench`."""
    from .solver_bench import bench_main as main
    return main(args)
