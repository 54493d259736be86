"""A move and the piles it names, in python-chess's manner: pile numbers and
ids, :class:`Move` with its own text, :data:`DRAW`, the errors a move meets,
and the move generator over a table's piles (:func:`legal_moves_of`), served by
:class:`kosynka.position.Position` as its lazy ``legal_moves`` view
(:class:`LegalMoves`).

A :class:`Move` is ``count`` cards from pile ``src`` to pile ``dst``, by pile
numbers: columns 0–6, ``WASTE`` 7, foundation of suit ``s`` at ``FOUNDATION +
s`` (8–11), ``STOCK`` 12. Tapping the stock (draw or redeal) is ``DRAW ==
Move(STOCK, WASTE, 0)``. Each pile also has an id, ``PILE_IDS[number]``
(``t1``–``t7``, ``waste``, ``f1``–``f4``, ``stock``): the names a view gives
its piles, and the words of a move's own text, ``str(move)`` and
:meth:`Move.parse` (``t1>t4``, ``t2>t5:3`` for three cards, ``waste>f2``,
``D``), which needs no position. The notation of cards (``Th>4``) does: it is
the position's (:meth:`~kosynka.position.Position.parse_move`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Protocol

from .cards import PARENTS, SUIT, Card
from .errors import KosynkaError

__all__ = ["Move", "DRAW", "LegalMoves", "Piles", "legal_moves_of", "WASTE", "FOUNDATION", "STOCK",
           "KING", "PILE_IDS", "PILE_NUMBERS", "destination", "InvalidMoveError", "IllegalMoveError"]

WASTE = 7
FOUNDATION = 8
STOCK = 12
KING = 12

PILE_IDS: tuple[str, ...] = (*(f"t{i + 1}" for i in range(7)), "waste",
                             *(f"f{s + 1}" for s in range(4)), "stock")
"""Each pile's id by its number: ``t1``–``t7`` the columns (0–6), ``waste`` (7),
``f1``–``f4`` the foundations of ♠ ♥ ♦ ♣ (8–11), ``stock`` (12)."""
PILE_NUMBERS: dict[str, int] = {name: i for i, name in enumerate(PILE_IDS)}
"""The pile number of each id in :data:`PILE_IDS`."""


def destination(card: Card, dest: str) -> int:
    """The pile a destination of the notation names for ``card``: ``F`` its
    foundation (the foundation of its suit), ``1``–``7`` that column."""
    return FOUNDATION + SUIT[card] if dest == "F" else int(dest) - 1


class InvalidMoveError(KosynkaError):
    """Text that is not a move in the pinned notation."""


class IllegalMoveError(KosynkaError):
    """A well-formed move that the rules do not allow in this position."""


_MOVE_TEXT = re.compile(r"(t[1-7]|waste|f[1-4])>(t[1-7]|f[1-4])(?::([2-9]|1[0-3]))?")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move: ``count`` cards from pile ``src`` to pile ``dst`` (pile numbers,
    see :data:`PILE_IDS`); the stock tap is :data:`DRAW`. Frozen and slotted, it
    compares, hashes and sorts as ``(src, dst, count)``. The move generator
    hands out shared instances, so the solver's search makes no new object
    (and a slotted class's fields read faster than a tuple subclass's: the
    engine benchmark, docs/rules.md).

    Its text needs no position: ``D``, or ``<pile>><pile>`` by pile ids with
    ``:<count>`` when more than one card moves; it says nothing of legality
    (:meth:`Position.is_legal`). The notation of cards (``Th>4``) is the
    position's: :meth:`Position.parse_move`, :meth:`Position.format_move`.

    >>> Move.parse("t2>t5:3")
    Move.parse('t2>t5:3')
    >>> str(Move(WASTE, FOUNDATION + 1, 1)), Move.parse("D") == DRAW
    ('waste>f2', True)
    """

    src: int
    dst: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move ``text`` writes (``str(move)``'s form); raises
        :class:`InvalidMoveError` for anything else."""
        if text == "D":
            return DRAW
        m = _MOVE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None or m.group(1) == m.group(2) or (m.group(3) and m.group(1)[0] != "t"):
            raise InvalidMoveError(
                f"not a move: {text!r} (expected D, or pile>pile like t1>t4, t2>t5:3 or "
                "waste>f2; a position reads Th>4 with parse_move)")
        return cls(PILE_NUMBERS[m.group(1)], PILE_NUMBERS[m.group(2)], int(m.group(3) or 1))

    def __str__(self) -> str:
        src, dst, n = self.src, self.dst, self.count
        if (src, dst, n) == (STOCK, WASTE, 0):
            return "D"
        if (type(src) is type(dst) is type(n) is int and 0 <= src < STOCK and src != dst
                and 0 <= dst < STOCK and dst != WASTE and (n == 1 or (src < 7 and 1 < n < 14))):
            return f"{PILE_IDS[src]}>{PILE_IDS[dst]}" + (f":{n}" if n != 1 else "")
        return f"Move({src!r}, {dst!r}, {n!r})"  # no text: never a legal move

    def __repr__(self) -> str:
        text = str(self)
        return text if text.startswith("Move(") else f"Move.parse({text!r})"


DRAW = Move(STOCK, WASTE, 0)
"""A tap on the stock: draw (R9), or redeal when the stock is empty (R10)."""

_MOVES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(tuple(Move(s, d, n) for n in range(14)) for d in range(STOCK)) for s in range(STOCK))
"""``_MOVES[src][dst][count]``: the move generator hands out these few
thousand moves instead of making new ones (as fast as bare tuples)."""


class Piles(Protocol):
    """What the move generator and the view read of a table
    (:class:`kosynka.position.Position`)."""

    @property
    def columns(self) -> list[tuple[Card, ...]]: ...
    @property
    def down(self) -> list[int]: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def waste(self) -> tuple[Card, ...]: ...
    @property
    def foundations(self) -> list[int]: ...
    def can_redeal(self) -> bool: ...
    def is_legal(self, move: object) -> bool: ...
    def format_move(self, move: Move) -> str: ...


class LegalMoves:
    """The legal moves of a position as a lazy view (python-chess's
    ``LegalMoveGenerator``): ``Position.legal_moves``. Iterating generates them
    (:meth:`Position.generate_legal_moves`); ``in`` asks
    :meth:`Position.is_legal` and generates nothing.

    >>> from kosynka.position import Position
    >>> p = Position.deal(0)
    >>> DRAW in p.legal_moves, p.legal_moves.count() == len(list(p.legal_moves))
    (True, True)
    """

    __slots__ = ("position",)

    def __init__(self, position: Piles) -> None:
        self.position = position

    def __iter__(self) -> Iterator[Move]:
        return iter(legal_moves_of(self.position))

    def __contains__(self, move: object) -> bool:
        return self.position.is_legal(move)

    def __bool__(self) -> bool:
        return bool(legal_moves_of(self.position))

    def count(self) -> int:
        return len(legal_moves_of(self.position))

    def __repr__(self) -> str:
        p = self.position
        return f"<LegalMoves ({', '.join(p.format_move(m) for m in legal_moves_of(p))})>"


def legal_moves_of(pos: Piles) -> list[Move]:
    """The legal moves of the table ``pos`` as it is now, in a fixed order: waste,
    columns left to right, foundations, the stock tap (the view and
    :meth:`Position.generate_legal_moves` serve them)."""
    moves: list[Move] = []
    append = moves.append
    table = _MOVES
    cols = pos.columns
    found = pos.foundations
    top_at: dict[int, int] = {}
    empty: list[int] = []
    for c in range(7):
        col = cols[c]
        if col:
            top_at[col[-1]] = c
        else:
            empty.append(c)
    get = top_at.get
    if pos.waste:
        w = pos.waste[-1]
        frm = table[WASTE]
        if found[w & 3] == w >> 2:
            append(frm[FOUNDATION + (w & 3)][1])
        for p in PARENTS[w]:
            d = get(p)
            if d is not None:
                append(frm[d][1])
        if w >= 48:
            for d in empty:
                append(frm[d][1])
    down = pos.down
    for c in range(7):
        col = cols[c]
        if not col:
            continue
        i = len(col) - 1
        card = col[i]
        frm = table[c]
        if found[card & 3] == card >> 2:
            append(frm[FOUNDATION + (card & 3)][1])
        lowest = down[c]
        while True:
            parents = PARENTS[card]
            for p in parents:
                d = get(p)
                if d is not None:
                    append(frm[d][len(col) - i])
            if card >= 48:
                for d in empty:
                    append(frm[d][len(col) - i])
            if i == lowest:
                break
            below = col[i - 1]
            if below not in parents:
                break
            i -= 1
            card = below
    for s in range(4):
        k = found[s]
        if k:
            card = (k - 1) * 4 + s
            frm = table[FOUNDATION + s]
            for p in PARENTS[card]:
                d = get(p)
                if d is not None:
                    append(frm[d][1])
            if card >= 48:
                for d in empty:
                    append(frm[d][1])
    if pos.stock or pos.can_redeal():
        append(DRAW)
    return moves
