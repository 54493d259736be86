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
states (at least one turn of :attr:`Solver.QUANTUM` = 32) and returns
``None`` while the search goes on, or the :class:`SolveResult` once decided
(then every later call returns it again). A state costs about 20–40 µs on
CPython on the 2-core benchmark machine in the streamlined search and
80–150 µs in the sound one (moves, safe and twin moves and key of each
child), so a turn is at most ~5 ms; Pyodide is 1.1–1.4× slower. Cancel by
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
turning rules off only makes the search slower. ``streamline=False`` runs the
sound search alone.

Representation
==============

A column is a ``bytes`` object bottom → top, a face-down card stored as
``card + 64``. The talon (waste and stock) is one ``bytes`` in deal order:
``waste`` bottom → top followed by the stock in the order it will be drawn; the
pointer ``p`` = ``len(waste)``, the top waste card is ``talon[p - 1]``.
Drawing moves ``p`` to ``min(p + draw, len(talon))``; a redeal sets ``p = 0``.

Search
======

:class:`Solver` runs two searches of the same position in turns of 32
states: a *streamlined* search and the *sound* search. The streamlined one
(after the "streamliners" of Blake & Gent) searches a smaller space: every
card that its foundation takes goes there at once, no card comes back from a
foundation (R8), and no partial run moves unless it frees a card for its
foundation. Its moves are all legal, so a line it finds is a real win; but
running out of states proves nothing, and it then just stops. Only the sound
search, below, can say ``lost``. On Classic draw 1, deals 0–59 with 20,000
states, the pair wins 49 deals against 44 for the sound search alone; on
Classic draw 3, 41 against 30; on Turn Three, 23 against 8 (the sound search
alone at 50,000). With unlimited redeals a third search takes its turns too
(a portfolio, with 20 % of the states; the other two 40 % each): the sound
space searched best-first (fewest face-down cards
× 3 + cards off the foundations first), which wins some deals at once that
both depth-first orders miss (of the deals undecided at 10 s in a sample of
deals 0–99, 20,000 states each: draw-1 deal 90 in 6,473 states, draw-3 deal
34 in 861); like the streamlined one it only ever says ``won``. With limited
redeals it won none of the 11 undecided Turn Three deals, so it is left out
there. With limited redeals the streamlined search is a greedy
best-first search (fewest face-down cards × 3 + cards off the foundations
first) instead of depth-first: see :func:`streamlined_search`. V1 (verified deals)
only needs wins: it runs the streamlined search alone.

The sound search is a depth-first search (moves ordered by :attr:`Solver.SCORES`: foundation moves,
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
    see :func:`kosynka.safety.safe` for the proof under R8.
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
``"talon"`` — draw 1 with unlimited redeals: a talon card T goes to a column
    only as a pair of moves, T then at once a child of T onto it (a column
    tail, another talon card or a foundation top; internal move
    ``(3, first, second)``). Proof: take a shortest winning line whose first
    move puts T on a column and whose second move puts nothing on T. Delay the
    first move to just before the first later move that touches T. The moves
    in between do not touch T, and every talon card stays reachable (draw 1,
    unlimited redeals: see ``"pointer"``), so they stay legal. If that move
    moves T alone (to a foundation or a column), play it straight from the
    talon instead: the line gets shorter, which is impossible. If it puts a
    card on T, the delayed pair is there. If it moves T inside a longer run,
    move the run without T, and delay T again. Each delay leaves the pairs
    already made in place, so the count of lone talon moves drops at every
    step, and a shortest line results whose first move is not a lone talon
    move. On draw-1 deal 6 (lost) this cuts the states from 355,670 to 83,940.
``"twins"`` — twin cards (one rank, one colour) are interchangeable under a
    run: see :func:`_toggles` for the rule and its proof.
``"stock"`` — wherever the key keeps the talon pointer (draw 3, or limited
    redeals): a state is skipped when a state met before has the same piles
    and a pointer and redeal count from which stock taps alone reach its
    pointer with no more redeals used: see :func:`_dominates`. On Turn Three
    deal 6 (lost) this cuts the states from 106,563 to 82,045; on Classic
    draw 3 deal 54 (lost) from 51,704 to 34,876.

``"deadend"`` — the sound search answers ``lost`` at once when a set of
    cards of the position it starts from can never move: each waits for a
    parent or a lower card of its suit that lies under one of them, or is
    carried by one; see :func:`_dead`. It decides 12 of deals 0–499 (17, 82,
    156, 169, 290, 356, 408, 416, 426, 456, 469, 494) in every variant, e.g.
    draw-1 deal 17, undecided before after 60 CPU s: 8♦ lies on 5♦ with both
    black 9s face down under it; half of them only across columns (deal
    169: 7♣, 7♠ and 2♠ wait for each other). (Checked on the states of a
    search too, it found none in 120,000 states of six undecided deals: the
    face-down cards that make it do not change, so it is only checked on
    the starting position.)

A child is also skipped when the state it reaches before its forced moves
(``"safe"``, ``"twins"``) was met before: that state's forced successor was
searched (or skipped as met or dominated), and forced moves never lengthen
the shortest line, so the completeness argument above is unchanged; it saves
the forced moves of most children, which are states met before.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

from .cards import PARENTS
from .deals import MAX_DEAL
from .position import DRAW, FOUNDATION, WASTE, Position, Rules
from .safety import safe_back as _safe_back  # the one definition of the rule and its proof

__all__ = [
    "SolveResult", "Solver", "solve", "verified_deal", "VerifiedDealSearch",
    "streamlined_search", "NoVerifiedDealError", "ALL_PRUNING", "VERIFY_STATES",
]

ALL_PRUNING = frozenset({"safe", "symmetry", "pointer", "redeals", "talon", "twins", "stock",
                         "deadend"})
VERIFY_STATES = 2000
"""Default state budget for a verified deal (deterministic everywhere), for
the streamlined search. Measured on deals 0–299 (CPU s to a verified deal
from each start, p50 / p95): Turn Three 0.19 / 0.77 at 2,000 against
0.25 / 1.04 at 5,000 (13 % and 22 % of its deals won within the budget);
Classic draw 1 0.003 / 0.12 against 0.003 / 0.28; draw 3 0.014 / 0.11
against 0.014 / 0.23."""

_FDB = bytes(range(64, 128))
_FD = 64                      # face-down flag added to a card in a column
_PAR = tuple(PARENTS) + tuple(() for _ in range(128 - 52))   # face-down: none
_EMPTY: list = []
_KIDS = tuple(tuple(c for c in range(52) if q in PARENTS[c]) for q in range(52))
_SIB = (3, 2, 1, 0)           # the other suit of the same colour
_OPP = ((1, 2), (0, 3), (0, 3), (1, 2))
_TWIN = tuple((c & ~3) | _SIB[c & 3] for c in range(52))   # same rank and colour


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


def _toggles(cols, higher_only: bool = False):
    """``"twins"``: the runs that can move from one twin to the other (twins:
    two cards of one rank and colour, both face up), as ``(column, length,
    to, x)``: the run on twin ``x`` in ``column`` may go to the other twin,
    the top of column ``to``. ``higher_only``: only runs on the higher twin.

    Rule: after every move a run on the higher twin goes over to the lower
    one where that one is a top (:meth:`_Search._autos`), and a move that
    needs a twin uncovered — to its foundation, or a card put on it — is
    searched as a pair: the run over to the other twin, then that move
    (internal move ``(3, toggle, move)``). On draw-1 deal 6 (lost) this cuts
    the states from 83,940 to 16,891: its 83,940 states held only 16,890
    classes of twinned states; up to 512 (2⁹) states had the same face-down
    cards, foundations and talon.

    Proof. Call two states *twinned* if run moves between twins turn one into
    the other; such a move undoes another, so twinned states reach the same
    states. Measure a state by ``d`` = the shortest winning line of any state
    twinned with it. Let ``c`` be searched, ``s`` twinned with ``c`` with a
    line of length ``d``, ``m`` its first move (or talon pair, see
    ``"talon"``). A move between twins changes nothing but which twin is
    covered, so if ``m`` neither sends a twin X that is covered in ``c`` to
    its foundation nor puts a card on it, the same move from ``c`` gives a
    state twinned with ``m(s)`` (a run moved in ``c`` may carry or leave a
    twin's run where ``s`` leaves or carries it); otherwise in ``c`` the run
    on X can go over to the other twin — it covers X' in ``s``, so X' is a
    top in ``c`` — and the pair does ``m``. Either way a searched successor has
    a smaller ``d``. The run moves of the rule keep ``d``; a ``"safe"`` move
    lowers it, since its card is a top in every twinned state (the children
    of a safe card are on the foundations, so no run lies on it). So from
    every winnable searched state ``d`` falls along some searched move, and
    the exhaustive search reaches a won state. The rule does not need every
    run moved to the lower twin (it only merges more states when it is).
    """
    out = []
    every = b"".join(cols)
    for d in range(7):
        top = cols[d]
        if not top:
            continue
        x = _TWIN[top[-1]]
        if (higher_only and x < top[-1]) or x not in every:
            continue
        for i in range(7):
            col = cols[i]
            k = col.find(x)
            if k < 0:
                continue
            n = len(col)
            if k < n - 1:           # x is covered: by a run headed by its child?
                j = k + 1
                while j < n and col[j - 1] in _PAR[col[j]]:
                    j += 1
                if j == n:
                    out.append((i, n - k - 1, d, x))
            break
    return out


def _dead(cols) -> set:
    """``"deadend"``: the cards of the layout stuck for good, so that the
    position is lost (an empty set if none is). (Checked on the position
    searched from.)

    Rule: the position is lost if a non-empty set S of column cards (face up
    or down) has, for each card H of S:

    1. H is not a King;
    2. both parents of H (the two cards one rank higher of the other colour)
       lie in columns, each strictly below some card of S in its column;
    3. the card just below H, if any, is face down, or not a parent of H, or
       in S;
    4. some card of S lies above H in its column, or some lower card of H's
       suit lies in a column and is in S or strictly below a card of S.

    The union of two such sets is one, so the largest one is found by
    starting from every non-King column card and dropping the cards that
    break a condition until none does; the rule fires if any card is left.
    For example (draw-1 deal 17) 8♦ on 5♦ with both black 9s face down
    under it; or, across columns (deal 169), 7♣ on 8♦ and 7♠ on A♠, both
    needing 8♦ (under 7♣) or 8♥, which lies under 2♠, which needs 3♥ or 3♦
    (both under it) or A♠ (under 7♠) on its foundation.

    Proof. Suppose a line moves a card of S; take its first move that does,
    and let it move the cards from G up to its column's top (a move always
    takes a top segment of one column whose bottom card G is face up and
    under which the moved cards form a run; talon and foundation moves take
    no column card). Until then no card of S moved, so every card below a
    card of S is where it was, face down or up as it was (a card turns up
    only as a top). Let H be the lowest card of S moved. If G is below H,
    the card B just below H moves too: it is face up, a parent of H (the
    cards form a run), not in S (H is the lowest) — as it was at the start,
    against 3. So G = H, face up. To a column, H needs a parent at a column
    top (an empty column takes only a King, R6, and H is not one, 1); each
    parent of H still lies under a card of S, against 2. To its foundation,
    H moves alone, so it is a top: no card of S lies above it, so by 4 a
    lower card of its suit is in S or under a card of S, not yet on its
    foundation, which therefore does not take H. So no card of S ever moves,
    none reaches its foundation, and no line wins.
    """
    pos = {}
    for ci in range(len(cols)):
        col = cols[ci]
        for j in range(len(col)):
            pos[col[j] & 63] = (ci, j)
    stuck = {c for c in pos if c < 48}
    while stuck:
        top = [-1] * len(cols)          # the highest card of S in each column
        for c in stuck:
            ci, j = pos[c]
            if j > top[ci]:
                top[ci] = j
        drop = [h for h in stuck if not _held(h, cols, pos, stuck, top)]
        if not drop:
            return stuck
        stuck.difference_update(drop)
    return stuck


def _held(h: int, cols, pos, stuck, top) -> bool:
    """Conditions 2–4 of :func:`_dead` for the card ``h`` of the set ``stuck``;
    ``top``: the height of the highest card of the set in each column."""
    for q in PARENTS[h]:
        at = pos.get(q)
        if at is None or at[1] >= top[at[0]]:
            return False
    ci, j = pos[h]
    if j:
        col = cols[ci]
        b = col[j - 1]
        if b < _FD and b in PARENTS[h] and b not in stuck:
            return False
    if top[ci] > j:
        return True
    s = h & 3
    for low in range(s, h, 4):          # the lower cards of h's suit
        at = pos.get(low)
        if at is not None and (low in stuck or at[1] < top[at[0]]):
            return True
    return False


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


def _dominates(p0: int, r0: int, p1: int, r1: int, n: int, draw: int, limit) -> bool:
    """``"stock"``: does the state with talon pointer ``p0`` and ``r0``
    redeals used do at least as well as the one with the same piles (a talon
    of ``n`` cards) and ``p1``, ``r1``? ``limit`` ``None``: unlimited redeals
    (``r0``, ``r1`` are then ignored).

    Rule: yes if stock taps alone lead from ``(p0, r0)`` to ``(p1, r)`` with
    ``r <= r1``: without a redeal the pointer goes to ``p0 + k*draw`` and to
    ``n`` (``r = r0``); after a redeal to ``k*draw`` and ``n`` for k ≥ 0
    (``r = r0 + 1``, allowed when ``r0 < r1``, as ``r1`` is within the limit).

    Proof: taps do not count in the length of a line (the frame in the module
    docstring), so the shortest winning line from ``(p0, r0)`` is at most
    that from ``(p1, r)``; and from ``(p1, r)`` every line legal from ``(p1,
    r1)`` is legal (only a redeal looks at the count, and it needs fewer
    used). A state dominated by one already met is skipped: in the
    completeness argument of the depth-first search, the met state has a
    shortest line no longer, so the least winnable state met is never one
    whose successor was skipped this way. Twinned states (``"twins"``) keep
    the talon, so the twin measure compares the same way.
    """
    if limit is not None and r0 > r1:
        return False
    if p1 >= p0 and ((p1 - p0) % draw == 0 or p1 == n):
        return True
    return (limit is None or r0 < r1) and (p1 % draw == 0 or p1 == n)


class _Sliced:
    """``run()`` for a search with a ``step(n)`` that returns ``None`` until done."""

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

    def __init__(self, position: Position, max_states: int | None = None,
                 max_seconds: float | None = None, prune=ALL_PRUNING,
                 strategy: str = "dfs", weights=(3, 1, 0), scores=None,
                 clock=time.perf_counter, streamline: bool = False) -> None:
        self._clock = clock
        self._stream = streamline
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
        self._pair = "talon" in self.prune and self.draw == 1 and self.limit is None
        self._twins = "twins" in self.prune
        # "stock": same piles, talon pointer / redeals used compared by taps
        self._dom = ("stock" in self.prune and not streamline and strategy == "dfs"
                     and self._key_p)
        self._fresh = self._fresh_dom if self._dom else self._fresh_set
        # unlimited redeals: the count is ignored ("redeals") or compared
        self._dom_limit = (self.limit if self.limit is not None or not self._key_r
                           else 1 << 30)
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
        if self._dom:
            return ck + b"\xfe" + talon
        return ck + b"\xfe" + talon + bytes((p if self._key_p else 0,
                                             r if self._key_r else 0))

    def _fresh_set(self, state) -> bool:
        """Is ``state`` new? (Then it is recorded as met.)"""
        k = self._key(state)
        seen = self._seen
        if k in seen:
            return False
        seen.add(k)
        return True

    def _fresh_dom(self, state) -> bool:
        """``"stock"``: is ``state`` neither met before nor dominated by a
        state met before? Two states with the same piles (the key without
        the talon pointer and the redeals used) are compared with
        :func:`_dominates`."""
        k = self._key(state)
        p, r = state[2], state[4]
        met = self._seen.get(k)
        if met is None:
            self._seen[k] = [(p, r)]
            return True
        n = len(state[1])
        draw, limit = self.draw, self._dom_limit
        for p0, r0 in met:
            if _dominates(p0, r0, p, r, n, draw, limit):
                return False
        met.append((p, r))
        return True

    def _start(self, state) -> None:
        self._seen = {} if self._dom else set()
        self._fresh(state)
        self.states = 1
        if sum(state[3]) == 52:
            self._won(list(self._root_autos))
            return
        if "deadend" in self.prune and not self._stream and _dead(state[0]):
            self.result = SolveResult("lost", [], self.states, self.seconds)
            return
        self._root = state
        if self.strategy == "best":
            k = self._key(state)
            self._parents = {k: None}
            self._heap = [(0, 0, state, k)]
            return
        self._stack.append([state, self._moves(state), 0, None])

    # ------------------------------------------------------------ moves
    def _autos(self, state, m=None):
        """Apply the ``"safe"`` moves (see :func:`kosynka.safety.safe`) and the ``"twins"``
        moves (see :func:`_toggles`) until none is left; ``m``: the move that
        led to ``state`` from a state with none left."""
        state, done = self._safe_after(state, m)
        if not self._twins:
            return state, done
        while True:
            toggles = _toggles(state[0], higher_only=True)
            if not toggles:
                return state, done
            i, n, d, _ = toggles[0]
            m = (0, i, n, d)
            state, more = self._safe_after(self._apply(state, m), m)
            done = done + [m] + more

    def _safe_after(self, state, m):
        """:meth:`_safe_autos` of ``state``, reached by ``m`` from a state
        where none was left: after a run moved between columns only the card
        it uncovered can go up (nothing else changed), so only it is
        looked at before the full pass."""
        if m is not None and m[0] == 0 and m[3] >= 0:
            col = state[0][m[1]]
            if not col:
                return state, _EMPTY
            t = col[-1]
            found = state[3]
            if found[t & 3] != t >> 2 or not (self._stream or _safe_back(t, found)):
                return state, _EMPTY
        return self._safe_autos(state)

    def _safe_autos(self, state):
        """Apply the ``"safe"`` moves (see :func:`kosynka.safety.safe`) until none is left."""
        if not self._safe_on:
            return state, _EMPTY
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
                if not ok and not self._stream:
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
                    if not (self._auto_talon or ((self.draw == 1 or self._stream) and i == p - 1)):
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
        ``(2, suit, dst)`` foundation → column; ``(3, first, second)`` two
        moves in a row (``"talon"``, ``"twins"``). Ordering is a heuristic
        only."""
        scored = self._scored(state)
        if self._twins:
            cols, talon, p, found, r = state
            for i, n, d, x in _toggles(cols):
                # uncover the twin x (top of column i after the toggle):
                # worth it if x can go up or its other child can come onto it
                h = cols[i][-n]
                c = _KIDS[x][0] if _KIDS[x][1] == h else _KIDS[x][1]
                if not (found[x & 3] == x >> 2 or c in talon
                        or found[c & 3] == (c >> 2) + 1
                        or any(c in col for col in cols)):
                    continue
                tog = (0, i, n, d)
                for sc, m in self._onto(self._apply(state, tog), i, x):
                    scored.append((sc, (3, tog, m)))
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    def _tail(self, cols, found, c):
        """``(column, length, score)`` of the tail headed by the face-up card
        ``c`` if it can move as one run (it lies under a run to the top), else
        ``None``; the score is :meth:`_scored`'s for moving it."""
        for j in range(7):
            col = cols[j]
            k = col.find(c)
            if k < 0:
                continue
            n = len(col)
            for t in range(k + 1, n):
                if col[t - 1] not in _PAR[col[t]]:
                    return None
            S = self.scores
            if k == 0:
                return j, n, S[2]
            below = col[k - 1]
            if below >= _FD:
                return j, n - k, S[3] + S[4] * k
            if found[below & 3] == below >> 2:
                return j, n - k, S[5]
            return j, n - k, S[6]
        return None

    def _onto(self, state, i, x):
        """The moves of :meth:`_scored` that use the card ``x`` at the top of
        column ``i``: ``x`` to its foundation, or a child of ``x`` onto it
        (the second move of a ``"twins"`` pair), with their scores."""
        cols, talon, p, found, r = state
        S = self.scores
        out = []
        col = cols[i]
        if found[x & 3] == x >> 2:
            j = len(col) - 1
            out.append((S[1] + j if j > 0 and col[j - 1] >= _FD else S[0], (0, i, 1, -1)))
        reach = False
        for c in _KIDS[x]:
            if c in talon:
                if reach is False:
                    reach = (None if self.draw == 1 and (self.limit is None or r < self.limit)
                             else self._reach(talon, p, r))
                t = talon.index(c)
                if reach is None:
                    red = self.limit is not None and t < p - 1
                else:
                    red = reach.get(t)
                    if red is None:
                        continue
                sc = S[7] - S[8] if red else S[7]
                if not self._pair:
                    out.append((sc, (1, t, i, red)))
                    continue
                first = (1, t, i, False)
                for y in _KIDS[c]:
                    tl = self._tail(cols, found, y)
                    if tl is not None:
                        if tl[0] != i:
                            out.append((tl[2], (3, first, (0, tl[0], tl[1], i))))
                    elif y in talon:
                        u = talon.index(y)
                        out.append((sc, (3, first, (1, u - (u > t), i, False))))
                    elif found[y & 3] == (y >> 2) + 1:
                        out.append((1, (3, first, (2, y & 3, i))))
                continue
            if found[c & 3] == (c >> 2) + 1:
                if not (self._stream or (self._safe_on and _safe_back(c, found))):
                    out.append((1, (2, c & 3, i)))
                continue
            tl = self._tail(cols, found, c)
            if tl is not None and tl[0] != i and not (self._stream and tl[2] == S[6]):
                out.append((tl[2], (0, tl[0], tl[1], i)))
        return out

    def _scored(self, state):
        """The moves of ``state`` but the ``"twins"`` pairs, with their
        ordering scores."""
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
        stream = self._stream
        pair = self._pair
        tails = {}                  # head of a movable tail -> (column, length, score)
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
                    elif stream:
                        base = -1                   # streamliner: no partial run
                    else:
                        base = S_P                  # partial run
                if pair:
                    tails[card] = (i, n - j, base if base >= 0 else S_P)
                if base >= 0:
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
                if d < 0 or not pair:
                    add((sc, (1, i, d, red)))
                    continue
                # "talon": a talon card goes to a column only with a child
                # put on it at once (proof in the module docstring)
                first = (1, i, d, False)
                for x in _KIDS[c]:
                    t = tails.get(x)
                    if t is not None:
                        if t[0] != d:
                            add((t[2], (3, first, (0, t[0], t[1], d))))
                    elif x in talon:
                        j = talon.index(x)
                        add((sc, (3, first, (1, j - (j > i), d, False))))
                    elif found[x & 3] == (x >> 2) + 1:
                        add((1, (3, first, (2, x & 3, d))))
        safe_on = self._safe_on
        for s in range(4):
            k = found[s]
            if k and not stream:            # streamliner: no foundation → column
                card = (k - 1) * 4 + s
                if safe_on and _safe_back(card, found):
                    continue
                for q in _PAR[card]:
                    d = get(q)
                    if d is not None:
                        add((1, (2, s, d)))
                if card >= 48 and empty >= 0:
                    add((1, (2, s, empty)))
        return scored

    def _apply(self, state, m):
        kind = m[0]
        if kind == 3:
            return self._apply(self._apply(state, m[1]), m[2])
        cols, talon, p, found, r = state
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
        fresh = self._fresh
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


def streamlined_search(position: Position, **kw) -> _Search:
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


class Solver(_Sliced):
    """Sliced solve; see the module docstring: a streamlined search and the
    sound search take turns of :attr:`QUANTUM` states each; with unlimited
    redeals the sound space best-first takes turns too, and the other two
    take two quanta a turn."""

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
        self._sound = _Search(position, prune=prune, clock=clock)
        self._searches = [self._sound]
        self._turns = [self.QUANTUM]
        if streamline:
            self._searches.insert(0, streamlined_search(position, prune=prune, clock=clock))
            self._turns.insert(0, self.QUANTUM)
            if position.rules.redeals is None:
                # the portfolio: the sound space best-first as well, with
                # half the turns of the others
                self._searches.append(_Search(position, prune=prune, strategy="best",
                                              clock=clock))
                self._turns = [2 * self.QUANTUM, 2 * self.QUANTUM, self.QUANTUM]
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


def _first(x):
    return x[0]


def _flat(path):
    """Internal moves with each compound ``(3, first, second)`` split up."""
    for m in path:
        if m[0] == 3:
            yield from _flat(m[1:])
        else:
            yield m


def _notation(position: Position, path) -> list[str]:
    """Expand internal moves into the pinned notation by playing them on a copy
    of the engine's position (a talon move becomes its ``D`` taps)."""
    pos = position.copy()
    out: list[str] = []
    for m in _flat(path):
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


class NoVerifiedDealError(ValueError):
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
        if self.number + 1 >= MAX_DEAL:
            raise NoVerifiedDealError(f"no verified deal at or after {self.start} under "
                                      f"{self.rules.name} (deal numbers end at 2**64-1)")
        self.number += 1
        self._solver = streamlined_search(Position.deal(self.number, self.rules),
                                          max_states=self.max_states)
        return None


def verified_deal(start: int, rules: Rules = Rules(),
                  max_states: int = VERIFY_STATES):
    """V1: ``(number, SolveResult)`` of the first deal at or after ``start``
    that the solver wins within ``max_states`` states; :class:`NoVerifiedDealError`
    if none up to the last deal number (only ever near 2**64-1)."""
    search = VerifiedDealSearch(start, rules, max_states)
    while True:
        res = search.step(1 << 20)
        if res is not None:
            return res
