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

    * ``result`` — a ``Verdict``: ``WON``, ``LOST`` or ``UNKNOWN``, a ``str``
      whose value is the word ``"won"``, ``"lost"`` or ``"unknown"``;
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
there. In Classic draw 3 the sound search plays talon cards first and a
fourth search, the streamlined space depth-first with talon cards first,
takes turns as well (2 : 2 : 1 : 1 quanta; see :class:`Solver`). With
unlimited redeals a *limited* search takes two quanta a turn as well: the
streamlined space best-first as if only three redeals were allowed, whose
lines are legal with unlimited redeals (:attr:`Solver.LIMITED_REDEALS`); it
too only ever says ``won``.
With limited redeals the streamlined search is a greedy
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

Modules: :mod:`~kosynka.solver.proofs` (the pruning rules, each with its
proof), :mod:`~kosynka.solver.moves` (the packed move generator),
:mod:`~kosynka.solver.search` (one search: depth-first or best-first, sound
or streamlined), :mod:`~kosynka.solver.portfolio` (:class:`Solver`, the
searches taking turns, and :func:`solve`), :mod:`~kosynka.solver.verified`
(V1's verified deals).
"""

from __future__ import annotations

from ..safety import safe_back as _safe_back  # noqa: F401  (tests: the one rule)
from .portfolio import Solver, solve
from .proofs import ALL_PRUNING, _dead, _dominates, _relaxed, _talon_reach, _toggles  # noqa: F401
from .search import SolveResult, Verdict, streamlined_search
from .verified import (
    VERIFY_STATES,
    NoVerifiedDealError,
    VerifiedDealSearch,
    verified_deal,
)

__all__ = [
    "SolveResult", "Verdict", "Solver", "solve", "verified_deal", "VerifiedDealSearch",
    "streamlined_search", "NoVerifiedDealError", "ALL_PRUNING", "VERIFY_STATES",
]
