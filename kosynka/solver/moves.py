"""The sound and streamlined searches' move generator over packed states
(see the representation in :mod:`kosynka.solver`): the moves of a state in
search order, the forced moves after a move, and applying a move."""

from __future__ import annotations

from typing import TypeAlias

from ..safety import (
    safe_back as _safe_back,  # the one definition of the rule and its proof
)
from .proofs import (
    _EMPTY,
    _FD,
    _KIDS,
    _PAR,
    Foundations,
    Move,
    State,
    _talon_reach,
    _toggles,
)

Scores: TypeAlias = tuple[int, ...]
"""Move-ordering scores: see :attr:`kosynka.solver.search._Search.SCORES`."""
Scored: TypeAlias = list[tuple[int, Move]]


class _Moves:
    """The move generator of one search (:class:`kosynka.solver.search._Search`
    holds one): the moves of a state in search order, the forced moves
    after a move, applying a move. It is set once from the search's rules
    (``draw``, ``limit`` redeals or ``None``), ``prune`` switches, ordering
    ``scores`` and space (``stream``: the streamlined one), and keeps the
    talon-reach cache."""

    def __init__(self, draw: int, limit: int | None, prune: frozenset[str], scores: Scores,
                 stream: bool) -> None:
        self.draw = draw
        self.limit = limit
        self.scores = scores
        self._stream = stream
        self._safe_on = "safe" in prune
        self._sym = "symmetry" in prune
        self._auto_talon = self._safe_on and draw == 1 and limit is None
        self._pair = "talon" in prune and draw == 1 and limit is None
        self._twins = "twins" in prune
        self._emptying = "emptying" in prune and not stream
        self._reach_cache: dict[tuple[int, int, bool], dict[int, bool]] = {}

    def autos(self, state: State, m: Move | None = None) -> tuple[State, list[Move]]:
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
            state, more = self._safe_after(self.apply(state, m), m)
            done = done + [m] + more

    def _safe_after(self, state: State, m: Move | None) -> tuple[State, list[Move]]:
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

    def _safe_autos(self, state: State) -> tuple[State, list[Move]]:
        """Apply the ``"safe"`` moves (see :func:`kosynka.safety.safe`) until none is left."""
        if not self._safe_on:
            return state, _EMPTY
        cols, talon, p, found, r = state
        done: list[Move] | None = None
        mv: Move
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

    def _reach(self, talon: bytes, p: int, r: int) -> dict[int, bool]:
        can = self.limit is None or r < self.limit
        k = (len(talon), p, can)
        v = self._reach_cache.get(k)
        if v is None:
            v = self._reach_cache[k] = dict(_talon_reach(len(talon), p, self.draw, can))
        return v

    def moves(self, state: State) -> list[Move]:
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
                for sc, m in self._onto(self.apply(state, tog), i, x):
                    scored.append((sc, (3, tog, m)))
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    def _tail(self, cols: tuple[bytes, ...], found: Foundations,
              c: int) -> tuple[int, int, int] | None:
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

    def _onto(self, state: State, i: int, x: int) -> Scored:
        """The moves of :meth:`_scored` that use the card ``x`` at the top of
        column ``i``: ``x`` to its foundation, or a child of ``x`` onto it
        (the second move of a ``"twins"`` pair), with their scores."""
        cols, talon, p, found, r = state
        S = self.scores
        out: Scored = []
        col = cols[i]
        if found[x & 3] == x >> 2:
            j = len(col) - 1
            out.append((S[1] + j if j > 0 and col[j - 1] >= _FD else S[0], (0, i, 1, -1)))
        looked = False
        reach: dict[int, bool] | None = None
        for c in _KIDS[x]:
            if c in talon:
                if not looked:
                    looked = True
                    reach = (None if self.draw == 1 and (self.limit is None or r < self.limit)
                             else self._reach(talon, p, r))
                t = talon.index(c)
                red: bool | None
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
                out += self._talon_pairs(cols, talon, found, t, i, sc)
                continue
            if found[c & 3] == (c >> 2) + 1:
                if not (self._stream or (self._safe_on and _safe_back(c, found))):
                    out.append((1, (2, c & 3, i)))
                continue
            tl = self._tail(cols, found, c)
            if tl is not None and tl[0] != i and not (self._stream and tl[2] == S[6]):
                mv = (0, tl[0], tl[1], i)
                if self._emptying and tl[1] == len(cols[tl[0]]):
                    for km in self._kings_into(state, mv):
                        out.append((tl[2], (3, mv, km)))
                else:
                    out.append((tl[2], mv))
        return out

    def _talon_pairs(self, cols: tuple[bytes, ...], talon: bytes, found: Foundations, t: int,
                     d: int, sc: int) -> Scored:
        """``"talon"``: the talon card ``t`` put on column ``d``, each time
        with a child put on it at once (a column tail, a talon card or a
        foundation top)."""
        out: Scored = []
        first = (1, t, d, False)
        for y in _KIDS[talon[t]]:
            tl = self._tail(cols, found, y)
            if tl is not None:
                if tl[0] != d:
                    out.append((tl[2], (3, first, (0, tl[0], tl[1], d))))
            elif y in talon:
                u = talon.index(y)
                out.append((sc, (3, first, (1, u - (u > t), d, False))))
            elif found[y & 3] == (y >> 2) + 1:
                out.append((1, (3, first, (2, y & 3, d))))
        return out

    def _kings_into(self, state: State, em: Move) -> list[Move]:
        """``"emptying"``: after ``em`` = ``(0, e, n, d)``, which empties
        column ``e`` of ``state`` onto column ``d``, the moves that put a
        King into column ``e`` (the second move of the pair): a King heading
        a run of another column (not from a column's bottom under
        ``"symmetry"``), from its foundation (R8), or from the talon — with
        the ``"talon"`` rule, with a child put on it at once. Read from
        ``state`` itself (only column ``d`` changes, ``n`` cards longer),
        but for a talon pair."""
        _, e, n, d = em
        cols, talon, p, found, r = state
        out: list[Move] = []
        for x in range(7):
            col = cols[x]
            j = len(col) - 1
            while j >= 0:
                card = col[j]
                if card >= _FD:
                    break
                if card >= 48:
                    if j or not self._sym:
                        out.append((0, x, len(col) - j + (n if x == d else 0), e))
                    break
                if j == 0 or col[j - 1] not in _PAR[card]:
                    break
                j -= 1
        for s in range(4):
            if found[s] == 13 and not (self._safe_on and _safe_back(48 + s, found)):
                out.append((2, s, e))
        for c in (48, 49, 50, 51):
            if c not in talon:
                continue
            t = talon.index(c)
            red: bool | None
            if self.draw == 1 and (self.limit is None or r < self.limit):
                red = self.limit is not None and t < p - 1
            else:
                red = self._reach(talon, p, r).get(t)
                if red is None:
                    continue
            if self._pair:
                after = self.apply(state, em)[0]
                out += [m for _, m in self._talon_pairs(after, talon, found, t, e, 0)]
            else:
                out.append((1, t, e, red))
        return out

    def _scored(self, state: State) -> Scored:
        """The moves of ``state`` but the ``"twins"`` pairs, with their
        ordering scores."""
        cols, talon, p, found, r = state
        S_F, S_FR, S_E, S_R, S_RJ, S_PF, S_P, S_T, S_TR, S_TF, S_TK = self.scores
        scored: Scored = []
        add = scored.append
        tops: dict[int, int] = {}
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
        emptying = self._emptying
        tails: dict[int, tuple[int, int, int]] = {}    # head of a movable tail -> (column, length, score)
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
                            if j or not emptying:
                                add((base, (0, i, n - j, d)))
                                continue
                            # "emptying": only with a King put into it at once
                            em = (0, i, n, d)
                            for km in self._kings_into(state, em):
                                add((base, (3, em, km)))
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
            reach: dict[int, bool] | None
            if self.draw == 1 and (self.limit is None or r < self.limit):
                reach = None                        # every talon card
            else:
                reach = self._reach(talon, p, r)
            cands: list[tuple[int, int]] = []
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
                red: bool | None
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

    def apply(self, state: State, m: Move) -> State:
        kind = m[0]
        if kind == 3:
            return self.apply(self.apply(state, m[1]), m[2])
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



def _first(x: tuple[int, Move]) -> int:
    return x[0]
