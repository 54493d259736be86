"""The solver's pruning rules, each with its proof.

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
``"emptying"`` — every variant, the sound search (issue 29, after the
    reveal rule of lonelybot): a move that empties a column by putting its
    whole content (a run on a bottom card C, not a King) onto a parent Q is
    searched only as a pair, that move and at once a King put into the
    emptied column (a King heading a run of a column — not from a column's
    bottom under ``"symmetry"`` —, from its foundation, or from the talon,
    with ``"talon"`` as a talon pair itself; internal move ``(3, first,
    second)``). Proof: take a shortest winning line whose first move is
    such a lone move, the run R (C and the cards on it) onto Q. Delay it:
    leave R where it was and play the same moves, card for card (a move
    onto the top of R goes onto R's top in its own column, a move of a run
    that carried R moves it without R), until the first move that puts a
    King into an empty column while the delayed line has none empty; play
    R onto Q just before it. This is legal throughout: in the original line
    nothing is put on Q while R covers it, nothing can take Q to its
    foundation, and if Q's run moves R moves with it, so Q stays a top in
    the delayed line; R keeps C at a column bottom, so every move of R's
    cards but one of C itself stays legal, and a move of C (with what lies
    on it) after R was moved onto Q would be played straight from R's
    column, one move fewer, which a shortest line cannot allow; the delayed
    line has R's column in use where the original has it empty, and only
    Kings go to empty columns (R6), so the two lines differ only at such a
    King move, and while the original has another empty column the
    delayed one puts the King there (columns are interchangeable). If no
    such King move comes, R's move is never needed and the line without it
    is shorter: impossible. So R's move comes right before a King put into
    its column — the pair. Each delay keeps the pairs made before (the
    moves in between keep their kinds, as only C's move could turn into an
    emptying one), and with ``"talon"`` a talon King's move stays in its
    own pair (the delay inserts R's move before that pair, a triple), and
    the talon delay keeps this rule's pairs (a run carrying T moves
    without it, R's column still empties); so the count of lone pruned
    moves drops at every step. With ``"twins"``, a pair that puts R on a
    covered twin Q comes after the toggle that uncovers Q, as for a single
    move (:meth:`kosynka.solver.moves._Moves._onto`). Draw-3 deal 54 (lost,
    the sound search alone): 34,722 → 32,811 states.
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
``"relax"`` — the sound search answers ``lost`` at once when a relaxed game,
    in which what once held stays true (after the dead-end detection of
    Bjarnason, Fern & Tadepalli 2007), cannot put every card on its
    foundation; see :func:`_relaxed`. It decides 30 of deals 0–499 at once,
    the 12 of ``"deadend"`` and 18 more (6, 80, 103, 164, 174, 189, 200,
    231, 262, 306, 332, 340, 391, 407, 414, 438, 459, 480), in every
    variant; e.g. draw-1 deal 6: 9♥ covers 8♦ and needs a black 10, which
    needs a red Jack, both buried under cards that wait for 8♦ or 9♥. It
    fires wherever ``"deadend"`` does (on these deals and 20,000 random end
    games). (On the states of a search it fired on none: 34,876 states of
    draw-3 deal 54, 4,194 of draw-1 deal 59, both lost; so it is only
    checked on the starting position. The state counts quoted for deal 6 in
    this module are those of the search without it.)

A child is also skipped when the state it reaches before its forced moves
(``"safe"``, ``"twins"``) was met before: that state's forced successor was
searched (or skipped as met or dominated), and forced moves never lengthen
the shortest line, so the completeness argument above is unchanged; it saves
the forced moves of most children, which are states met before.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from ..cards import PARENTS

Columns: TypeAlias = tuple[bytes, ...]
"""The seven columns, each ``bytes`` bottom → top, a face-down card as ``card + 64``."""
Foundations: TypeAlias = tuple[int, ...]
"""Cards on each suit's foundation (four counts)."""
State: TypeAlias = tuple[Columns, bytes, int, Foundations, int]
"""A packed state: columns, talon (waste then stock, deal order), talon
pointer, foundations, redeals used (see :mod:`kosynka.solver`)."""
Move: TypeAlias = tuple[Any, ...]
"""A packed move, one of the tuples listed in
:meth:`kosynka.solver.moves._Moves.moves` (kinds 0–3, the pair of kind 3
holding two moves): plain tuples of ints for speed, so typed loosely."""
Toggle: TypeAlias = tuple[int, int, int, int]
"""A run move between twins: ``(column, length, to, twin)``."""

ALL_PRUNING = frozenset({"safe", "symmetry", "pointer", "redeals", "talon", "twins", "stock",
                         "deadend", "relax", "emptying"})

_FDB = bytes(range(64, 128))
_FD = 64                      # face-down flag added to a card in a column
_PAR = tuple(PARENTS) + tuple(() for _ in range(128 - 52))   # face-down: none
_EMPTY: list[Move] = []
_KIDS = tuple(tuple(c for c in range(52) if q in PARENTS[c]) for q in range(52))
_SIB = (3, 2, 1, 0)           # the other suit of the same colour
_TWIN = tuple((c & ~3) | _SIB[c & 3] for c in range(52))   # same rank and colour


def _toggles(cols: Columns, higher_only: bool = False) -> list[Toggle]:
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
    out: list[Toggle] = []
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


def _dead(cols: Columns) -> set[int]:
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


def _relaxed(cols: Columns, talon: bytes, found: Foundations) -> set[int]:
    """``"relax"``: the cards a relaxed game never puts on their foundations
    from the position with columns ``cols``, talon ``talon`` and
    ``found[s]`` cards on foundation ``s``; the position is lost if any.
    (Checked on the position searched from.)

    The relaxed game keeps three kinds of facts, which once derived stay
    true: *home(c)* (c has been on its foundation), *moved(c)* (c has been
    moved onto a column, alone or in a run) and, for a card of the starting
    columns, *gone(c)* = home(c) or moved(c). From them: *top(p)* = moved(p),
    or p is a column card and the card on it at the start is gone (or none);
    *empty* = a column starts empty or its bottom card is gone. Starting from
    home(c) for the cards on the foundations, it derives until nothing
    changes:

    1. home(c) if c is an Ace or home(the card below it in its suit), and c
       is in the talon, or moved(c), or top(c) as a column card;
    2. moved(c) if c lies face up on a face-up parent b at the start and
       moved(b) (b carries it);
    3. moved(c) if c is in the talon, or home(c), or c is a column card
       that can head a run: some card on c's starting run (c and the
       face-up cards above it at the start, each on its parent; c alone if
       c is face down) is top of the column or has the card above it gone —
       and a parent p of c has top(p), or c is a King and *empty*.

    Talon cards are all reachable at once, a card may be in several places
    at once, and nothing is ever covered again: the relaxation ignores the
    talon order, the redeals and every loss of a fact.

    Proof. Call a fact true at a time of a real line if it held at some
    state up to then; no fact is ever lost. Two lemmas about any state of a
    line. (a) If p is a column top, top(p) holds: if p was never moved
    onto a column, it is a starting column card that never left (from its
    foundation or a column it reaches a column only by such a move), at its
    starting place; the card A on it at the start, if it never left, is
    still on p — so A is gone. (b) If a column is empty, *empty* holds:
    it started empty or its bottom card has left. Now by induction over
    the moves of the line, every fact that becomes true is derived, given
    the facts true before the move (and those the move makes true below it
    in the same column). A move to a foundation puts there an Ace or the
    card above the foundation's top, from the talon, or a column top: by (a)
    top(c), which for a card never moved onto a column is its own
    starting-place case — rule 1. A move onto a column takes its bottom
    card g from the talon, a foundation (home(g)) or a column, to a top
    that is a parent (top(p) by (a)) or to an empty column with a King
    (*empty* by (b)). If g is a column card never moved onto a column, it
    sits at its starting place, and so do the cards of its starting column
    that never left: a bottom part of the column (a card leaves only with
    the cards on it), c_j = g … c_k. Those above g move with it, so they
    form a run on g, face up; each but c_k has lain under the next since the
    start, so if k > j they were face up then (a face-down card turns up
    only as a top, and face-down cards lie below face-up ones); and c_k is
    the column's top at the start or the card on it is gone — rule 3. A
    card c carried above g, never moved onto a column before, is at its
    starting place on the card b under it, which never left either (it
    would have carried c), is face up with c on it since the start, and is
    a parent of c (a run); b moves in the same move, lower — rule 2. So in
    every state of every line, each card on a foundation has home derived;
    if some card never gets home in the relaxed game, no line wins.
    """
    home = [False] * 52
    for s in range(4):
        for c in range(s, 4 * found[s], 4):
            home[c] = True
    moved = [False] * 52
    tal = [False] * 52
    for c in talon:
        tal[c] = True
    above = [-2] * 52           # the card on it at the start, -1 none; -2 not a column card
    carrier = [-1] * 52         # the face-up parent it lies on at the start
    ends: list[list[int]] = [[]] * 52   # what lies on each card of its starting run
    bottoms = []
    empty = False
    for col in cols:
        if not col:
            empty = True
            continue
        bottoms.append(col[0] & 63)
        n = len(col)
        for j in range(n):
            c = col[j] & 63
            above[c] = col[j + 1] & 63 if j + 1 < n else -1
            if j and col[j - 1] in _PAR[col[j]]:
                carrier[c] = col[j - 1]
            k = j
            on = [above[c]]
            while k + 1 < n and col[k] in _PAR[col[k + 1]]:
                k += 1
                on.append(col[k + 1] & 63 if k + 1 < n else -1)
            ends[c] = on

    def gone(x: int) -> bool:
        return x == -1 or moved[x] or home[x]

    def top(p: int) -> bool:
        return moved[p] or (above[p] != -2 and gone(above[p]))

    changed = True
    while changed:
        changed = False
        if not empty:
            empty = any(gone(b) for b in bottoms)
        for c in range(52):
            if not home[c] and (c < 4 or home[c - 4]) and (tal[c] or top(c)):
                home[c] = changed = True
            if moved[c]:
                continue
            if carrier[c] >= 0 and moved[carrier[c]]:
                moved[c] = changed = True
            elif ((tal[c] or home[c] or any(gone(e) for e in ends[c]))
                  and ((c >= 48 and empty) or any(top(p) for p in PARENTS[c]))):
                moved[c] = changed = True
    return {c for c in range(52) if not home[c]}


def _held(h: int, cols: Columns, pos: dict[int, tuple[int, int]], stuck: set[int],
          top: list[int]) -> bool:
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


def _talon_reach(n: int, p: int, draw: int, can_redeal: bool) -> list[tuple[int, bool]]:
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
    out: list[tuple[int, bool]] = []
    seen: set[int] = set()
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


def _dominates(p0: int, r0: int, p1: int, r1: int, n: int, draw: int,
               limit: int | None) -> bool:
    """``"stock"``: does the state with talon pointer ``p0`` and ``r0``
    redeals used do at least as well as the one with the same piles (a talon
    of ``n`` cards) and ``p1``, ``r1``? ``limit`` ``None``: unlimited redeals
    (``r0``, ``r1`` are then ignored).

    Rule: yes if stock taps alone lead from ``(p0, r0)`` to ``(p1, r)`` with
    ``r <= r1``: without a redeal the pointer goes to ``p0 + k*draw`` and to
    ``n`` (``r = r0``); after a redeal to ``k*draw`` and ``n`` for k ≥ 0
    (``r = r0 + 1``, allowed when ``r0 < r1``, as ``r1`` is within the limit).

    Two more cases (issue 29): an empty waste (``p1 == 0``) counts as the
    pointer one tap gives, ``min(draw, n)``, with no redeal used, and with
    no talon (``n == 0``) every state does as well as any other. Compared
    with the *menu* of a state, the (card, redeals used) pairs a talon
    move can take, this rule says yes exactly where the menu of ``(p1,
    r1)`` lies in that of ``(p0, r0)`` (every draw, redeal limit 0, 1, 2
    or none, talons of 0–12 cards: checked pair by pair); the menu is all
    that the pointer and the count decide (a talon move leads to the
    pointer at the card's place, other moves keep both), so no pointer
    merge beyond it is sound for every layout: draw-3 layouts where only
    pointer 1 or only pointer 2 of one talon wins are in
    ``tests/test_crosscheck.py``.

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
    if n == 0:
        return True                 # no talon: no move reads the pointer or the count
    if p1 == 0:
        p1 = min(draw, n)           # one tap from an empty waste, no redeal used
    if limit is not None and r0 > r1:
        return False
    if p1 >= p0 and ((p1 - p0) % draw == 0 or p1 == n):
        return True
    return (limit is None or r0 < r1) and (p1 % draw == 0 or p1 == n)

