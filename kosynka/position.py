"""The Klondike position: piles, legal moves, push/pop, notation.

:class:`Position` is one mutable table in the manner of python-chess's
``Board``: :meth:`Position.push` applies a move *without* checking it (the
solver's fast path), :meth:`Position.pop` takes it back exactly, and
:meth:`Position.play` checks a move (or its notation) first and raises
:class:`IllegalMoveError` with the reason. Undo as a player sees it (C5, a
revealed card stays up) lives in :class:`kosynka.game.Game`.

Piles, as attributes (read-only outside this module: every change is a
:meth:`Position.push` or a :meth:`Position.pop`):

* ``columns`` — 7 tuples of cards, bottom → top;
* ``down`` — 7 ints: how many bottom cards of each column are face down. The
  top card of a non-empty column is always face up (R5). After an undo the
  face-up cards of a column need not form one run (C5); every rule here only
  looks at what is really there: the cards that move together are the longest
  run ending at the top;
* ``stock`` — tuple, the next card drawn is the **last** element;
* ``waste`` — tuple, the top (playable) card is the last element;
* ``foundations`` — 4 ints: how many cards are on the ♠ ♥ ♦ ♣ foundation
  (foundation ``k`` holds suit ``k`` only, in that fixed order);
* ``redeals_used`` — how many times the waste was turned back (R10);
* ``fan`` — display only: how many top waste cards a draw-3 table shows fanned
  (the rest of the last draw not yet played, at least 1 while the waste has
  cards). It is not part of :meth:`key`.

A :class:`Move` is ``count`` cards from pile ``src`` to pile ``dst``, by pile
numbers: columns 0–6, ``WASTE`` 7, foundation of suit ``s`` at ``FOUNDATION +
s`` (8–11), ``STOCK`` 12. Tapping the stock (draw or redeal) is ``DRAW ==
Move(STOCK, WASTE, 0)``. Each pile also has an id, ``PILE_IDS[number]``
(``t1``–``t7``, ``waste``, ``f1``–``f4``, ``stock``): the names a view gives
its piles, and the words of a move's own text, ``str(move)`` and
:meth:`Move.parse` (``t1>t4``, ``t2>t5:3`` for three cards, ``waste>f2``,
``D``), which needs no position.

Asking: :meth:`Position.is_legal` (one move), :attr:`Position.legal_moves`
(all: a lazy view, ``move in p.legal_moves`` is ``p.is_legal(move)``),
:meth:`Position.card_moves` and :meth:`Position.targets` (where a card may go),
:meth:`Position.outcome` (won, no legal move left, or a dead end — see
:class:`Termination`).

Notation (pinned), read and written by the position because a card's name
says where it is only on a table: ``D`` taps the stock; ``<card>><dest>``
moves a card with everything on it, dest ``F`` (that card's foundation) or
``1``–``7``::

    >>> p = Position.deal(0)
    >>> p.format_move(p.parse_move("D"))
    'D'
    >>> p.parse_move("D") == Move.parse("D") == DRAW
    True

Rule decisions where SPEC is silent: a King may come back from its foundation
to an empty column (R8 + R6: it is placed by the column rules); a King alone at
the bottom of a column may move to another empty column (legal, pointless; the
solver prunes it).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence, TypeAlias

from .cards import (
    PARENTS,
    RANK,
    RANKS,
    SUIT,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    InvalidCardError,
    card_name,
    make_card,
    parse_card,
)
from .deals import deal_cards
from .errors import KosynkaError

__all__ = [
    "Rules", "Position", "Move", "LegalMoves", "WASTE", "FOUNDATION", "STOCK", "DRAW", "PILE_IDS",
    "PILE_NUMBERS", "destination", "Outcome", "Termination",
    "InvalidMoveError", "IllegalMoveError", "InvalidPositionError",
]

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


class InvalidPositionError(KosynkaError):
    """Piles that no game of Klondike can have (a card twice, 53 cards, …)."""


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


class LegalMoves:
    """The legal moves of a position as a lazy view (python-chess's
    ``LegalMoveGenerator``): ``Position.legal_moves``. Iterating generates them
    (:meth:`Position.generate_legal_moves`); ``in`` asks
    :meth:`Position.is_legal` and generates nothing.

    >>> p = Position.deal(0)
    >>> DRAW in p.legal_moves, p.legal_moves.count() == len(list(p.legal_moves))
    (True, True)
    """

    __slots__ = ("position",)

    def __init__(self, position: Position) -> None:
        self.position = position

    def __iter__(self) -> Iterator[Move]:
        return iter(self.position._legal_list())  # generate_legal_moves(), one call less

    def __contains__(self, move: object) -> bool:
        return self.position.is_legal(move)

    def __bool__(self) -> bool:
        return bool(self.position._legal_list())

    def count(self) -> int:
        return len(self.position._legal_list())

    def __repr__(self) -> str:
        p = self.position
        return f"<LegalMoves ({', '.join(p.format_move(m) for m in p._legal_list())})>"


class Termination(enum.Enum):
    """How a game has ended, as far as the rules alone can say exactly."""

    WON = "won"
    """R12: all 52 cards are on the foundations."""
    NO_MOVES = "no_moves"
    """No legal move is left, not even a tap on the stock."""
    DEAD_END = "dead_end"
    """Legal moves are left, but no sequence of them ever puts another card on a
    foundation, turns up a face-down card or plays a card out of the stock and
    waste: the redeals left (if any) cannot help, and the game cannot be won.
    Found by trying every such sequence (the positions they reach are finite);
    where they are too many to try (:data:`DEAD_END_SEARCH`), nothing is said."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game (python-chess's ``Outcome``): see :meth:`Position.outcome`."""

    termination: Termination

    @property
    def won(self) -> bool:
        return self.termination is Termination.WON


DEAD_END_SEARCH = 2000
"""Positions :meth:`Position.outcome` tries at most before it says nothing of a
dead end (a true dead end is found within a few hundred)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Draw count (1 or 3, R9) and redeal limit (R10: ``None`` = unlimited, or
    0–3 returns of the waste; the first pass is not counted).

    >>> Rules(3, 2).name
    'Turn Three'
    """

    draw: int = 1
    redeals: int | None = None

    def __post_init__(self) -> None:
        # integers only: 3.0 == 3 and True == 1 in Python, but neither is a count
        if type(self.draw) is not int or self.draw not in (1, 3):
            raise ValueError(f"draw must be 1 or 3, not {self.draw!r}")
        if self.redeals is not None and (
            type(self.redeals) is not int or self.redeals not in (0, 1, 2, 3)
        ):
            raise ValueError(f"redeals must be 0, 1, 2, 3 or unlimited, not {self.redeals!r}")

    @property
    def name(self) -> str:
        """The variant's name in SPEC's variants table."""
        if self.redeals is None:
            return f"Classic, draw {self.draw}"
        if self.draw == 3 and self.redeals == 2:
            return "Turn Three"
        return f"Limited, draw {self.draw}, {self.redeals} redeal{'s' * (self.redeals != 1)}"

    def to_json(self) -> dict[str, Any]:
        return {"draw": self.draw, "redeals": self.redeals}

    @classmethod
    def from_json(cls, data: object) -> "Rules":
        if not isinstance(data, dict):
            raise ValueError("rules must be an object with draw and redeals")
        return cls(data.get("draw", 1), data.get("redeals"))

    @classmethod
    def parse_redeals(cls, text: str) -> int | None:
        """``"unlimited"`` → None, ``"0"``–``"3"`` → int (the CLI, and links
        through :func:`kosynka.variants.from_text`); ValueError otherwise."""
        if text == "unlimited":
            return None
        if text in ("0", "1", "2", "3"):
            return int(text)
        raise ValueError(f"redeals must be 0, 1, 2, 3 or unlimited, not {str(text)[:8]!r}")


_Saved: TypeAlias = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[Card, ...],
                         tuple[Card, ...], tuple[int, ...], int, int]
"""What :meth:`Position.push` keeps for :meth:`Position.pop`."""

_MOVE_RE = re.compile(r"([A2-9TJQK][shdc])>([F1-7])")


class Position:
    """One table. See the module docstring for the piles and move encoding."""

    __slots__ = ("columns", "down", "stock", "waste", "foundations",
                 "redeals_used", "fan", "rules", "_stack")

    def __init__(
        self,
        columns: Sequence[Sequence[Card]],
        down: Sequence[int] | None = None,
        stock: Sequence[Card] = (),
        waste: Sequence[Card] = (),
        foundations: Sequence[int] = (0, 0, 0, 0),
        rules: Rules = Rules(),
        redeals_used: int = 0,
        fan: int | None = None,
    ) -> None:
        self.columns = [tuple(c) for c in columns]
        self.down = (list(down) if down is not None
                     else [max(len(c) - 1, 0) for c in self.columns])
        self.stock = tuple(stock)
        self.waste = tuple(waste)
        self.foundations = list(foundations)
        self.rules = rules
        self.redeals_used = redeals_used
        self.fan = (min(rules.draw, len(self.waste)) if fan is None else fan)
        self._stack: list[_Saved] = []
        self._validate()

    # ----------------------------------------------------------- construction
    @classmethod
    def deal(cls, number: int, rules: Rules = Rules()) -> "Position":
        """The starting position of deal ``number`` (see :mod:`kosynka.deals`)."""
        tableau, stock = deal_cards(number)
        return cls(tableau, stock=stock[::-1], rules=rules)

    def _validate(self) -> None:
        def bad(msg: str) -> InvalidPositionError:
            return InvalidPositionError(f"impossible position: {msg}")

        if len(self.columns) != 7 or len(self.down) != 7:
            raise bad("there must be 7 columns")
        if len(self.foundations) != 4:
            raise bad("there must be 4 foundations")
        seen: set[int] = set()
        every = [c for col in self.columns for c in col] + list(self.stock) + list(self.waste)
        for s, n in enumerate(self.foundations):
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 13:
                raise bad(f"foundation {SUIT_SYMBOLS[s]} must hold 0–13 cards, not {n!r}")
            every.extend(r * 4 + s for r in range(n))
        for c in every:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise bad(f"not a card: {c!r}")
            if c in seen:
                raise bad(f"{card_name(c)} appears twice")
            seen.add(c)
        if len(every) != 52:
            missing = " ".join(card_name(c) for c in range(52) if c not in seen)
            raise bad(f"{len(every)} cards instead of 52 (missing {missing})")
        for i, (col, d) in enumerate(zip(self.columns, self.down, strict=True)):
            if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= max(len(col) - 1, 0):
                raise bad(f"column {i + 1} has {len(col)} cards and {d!r} face down "
                          "(its top card is always face up)")
        r = self.redeals_used
        if isinstance(r, bool) or not isinstance(r, int) or r < 0 or (
            self.rules.redeals is not None and r > self.rules.redeals
        ):
            raise bad(f"{r!r} redeals used under a limit of {self.rules.redeals}")
        if not (self.fan == 0 if not self.waste else 1 <= self.fan <= min(self.rules.draw, len(self.waste))):
            raise bad(f"a waste of {len(self.waste)} cards cannot show {self.fan!r} fanned")

    @classmethod
    def from_json(cls, data: object, rules: Rules = Rules()) -> "Position":
        """A position from deal JSON: ``{"tableau": [[cards bottom→top] × 7],
        "stock": [cards, first drawn first]}``, optionally also ``down`` (face-down
        counts, default all but the top), ``waste`` (bottom → top),
        ``foundations`` (4 counts ♠♥♦♣), ``redeals_used``, ``fan``. Other keys
        are ignored. Raises :class:`InvalidPositionError`."""
        if not isinstance(data, dict):
            raise InvalidPositionError("a deal must be a JSON object with tableau and stock")
        try:
            tableau = data["tableau"]
            stock = data.get("stock", [])
            waste = data.get("waste", [])
            if not isinstance(tableau, list) or not all(isinstance(c, list) for c in tableau):
                raise InvalidPositionError("tableau must be a list of 7 lists of cards")
            for pile in (stock, waste):
                if not isinstance(pile, list):
                    raise InvalidPositionError("stock and waste must be lists of cards")
            return cls(
                [[parse_card(c) for c in col] for col in tableau],
                down=data.get("down"),
                stock=[parse_card(c) for c in reversed(stock)],
                waste=[parse_card(c) for c in waste],
                foundations=data.get("foundations", [0, 0, 0, 0]),
                rules=rules,
                redeals_used=data.get("redeals_used", 0),
                fan=data.get("fan"),
            )
        except KeyError as e:
            raise InvalidPositionError(f"a deal needs {e.args[0]!r}") from None
        except (InvalidCardError, TypeError) as e:
            raise InvalidPositionError(f"bad deal: {e}") from None

    def to_json(self) -> dict[str, Any]:
        """Deal JSON of this position (with the optional keys filled in)."""
        return {
            "tableau": [[card_name(c) for c in col] for col in self.columns],
            "stock": [card_name(c) for c in reversed(self.stock)],
            "down": list(self.down),
            "waste": [card_name(c) for c in self.waste],
            "foundations": list(self.foundations),
            "redeals_used": self.redeals_used,
            "fan": self.fan,
        }

    def copy(self, stack: bool = False) -> "Position":
        p = Position.__new__(Position)
        p.columns = list(self.columns)
        p.down = list(self.down)
        p.stock = self.stock
        p.waste = self.waste
        p.foundations = list(self.foundations)
        p.redeals_used = self.redeals_used
        p.fan = self.fan
        p.rules = self.rules
        p._stack = list(self._stack) if stack else []
        return p

    # ----------------------------------------------------------- identity
    def key(self) -> tuple[Any, ...]:
        """Everything the rules depend on (``fan`` excluded)."""
        return (tuple(self.columns), tuple(self.down), self.stock, self.waste,
                tuple(self.foundations), self.redeals_used)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.rules == other.rules
                and self.key() == other.key())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Position.from_json({self.to_json()!r}, {self.rules!r})"

    @property
    def is_won(self) -> bool:
        """R12: all 52 cards on the foundations."""
        f = self.foundations
        return f[0] + f[1] + f[2] + f[3] == 52

    def can_redeal(self) -> bool:
        """R10: the stock is empty, the waste is not, and a redeal is left."""
        lim = self.rules.redeals
        return not self.stock and bool(self.waste) and (lim is None or self.redeals_used < lim)

    @property
    def redeals_left(self) -> int | None:
        """R10: how many more times the waste may be turned back (None: unlimited)."""
        lim = self.rules.redeals
        return None if lim is None else lim - self.redeals_used

    def outcome(self, max_positions: int = DEAD_END_SEARCH) -> Outcome | None:
        """How the game has ended, or None while it goes on (or while a dead end
        cannot be told within ``max_positions`` positions): won (R12), no legal
        move left, or a dead end (:class:`Termination`)."""
        if self.is_won:
            return Outcome(Termination.WON)
        if not self._legal_list():
            return Outcome(Termination.NO_MOVES)
        return Outcome(Termination.DEAD_END) if self._dead_end(max_positions) else None

    def _dead_end(self, limit: int) -> bool:
        """No sequence of moves from here puts a card up, turns one up or takes
        one from the talon (see :attr:`Termination.DEAD_END`); False when it
        finds one, or when more than ``limit`` positions would have to be tried."""
        up, down, talon = sum(self.foundations), sum(self.down), len(self.stock) + len(self.waste)
        unlimited = self.rules.redeals is None  # redeals used then change nothing

        def ident(p: Position) -> tuple[Any, ...]:
            k = p.key()
            return k[:-1] if unlimited else k

        seen = {ident(self)}
        todo = [self.copy()]
        while todo:
            p = todo.pop()
            for m in p.generate_legal_moves():
                p.push(m)
                if (sum(p.foundations) > up or sum(p.down) < down
                        or len(p.stock) + len(p.waste) < talon):
                    return False
                k = ident(p)
                if k not in seen:
                    if len(seen) >= limit:
                        return False
                    seen.add(k)
                    todo.append(p.copy())
                p.pop()
        return True

    # ----------------------------------------------------------- moves
    @property
    def legal_moves(self) -> LegalMoves:
        """Every legal move: a lazy view (python-chess's ``legal_moves``) —
        iterate it, ask ``move in`` it (:meth:`is_legal`, nothing generated),
        ``bool`` or :meth:`LegalMoves.count` it."""
        return LegalMoves(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal moves of the position as it is now, in a fixed order (safe
        to :meth:`push` and :meth:`pop` while iterating them)."""
        return iter(self._legal_list())

    def _legal_list(self) -> list[Move]:
        moves: list[Move] = []
        append = moves.append
        table = _MOVES
        cols = self.columns
        found = self.foundations
        top_at: dict[int, int] = {}
        empty: list[int] = []
        for c in range(7):
            col = cols[c]
            if col:
                top_at[col[-1]] = c
            else:
                empty.append(c)
        get = top_at.get
        if self.waste:
            w = self.waste[-1]
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
        down = self.down
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
        if self.stock or self.can_redeal():
            append(DRAW)
        return moves

    def push(self, move: Move) -> None:
        """Apply ``move`` **without checking it**; :meth:`pop` takes it back."""
        src = move.src
        dst = move.dst
        n = move.count
        cols = self.columns
        down = self.down
        self._stack.append((tuple(cols), tuple(down), self.stock, self.waste,
                            tuple(self.foundations), self.redeals_used, self.fan))
        if src == STOCK:
            stock = self.stock
            if stock:
                k = self.rules.draw
                if k > len(stock):
                    k = len(stock)
                self.waste += stock[:-k - 1:-1]
                self.stock = stock[:-k]
                self.fan = k
            else:
                self.stock = self.waste[::-1]
                self.waste = ()
                self.redeals_used += 1
                self.fan = 0
            return
        if src < 7:
            col = cols[src]
            cards = col[-n:]
            rest = col[:-n]
            cols[src] = rest
            if down[src] >= len(rest) and rest:
                down[src] = len(rest) - 1          # R5: the card under turns up
        elif src == WASTE:
            waste = self.waste
            cards = waste[-1:]
            self.waste = waste = waste[:-1]
            self.fan = (self.fan - 1 or 1) if waste else 0
        else:
            s = src - FOUNDATION
            self.foundations[s] -= 1
            cards = (self.foundations[s] * 4 + s,)
        if dst < 7:
            cols[dst] += cards
        else:
            self.foundations[dst - FOUNDATION] += 1

    def pop(self, keep_revealed: bool = False) -> None:
        """Take back the last :meth:`push` exactly (reveals included); with
        ``keep_revealed`` a card it turned face up stays face up (C5, the
        player's undo)."""
        after = self.down
        cols, down, self.stock, self.waste, found, self.redeals_used, self.fan = self._stack.pop()
        self.columns = list(cols)
        self.down = [min(a, b) for a, b in zip(down, after, strict=True)] if keep_revealed else list(down)
        self.foundations = list(found)

    @property
    def ply(self) -> int:
        """How many pushes :meth:`pop` can take back."""
        return len(self._stack)

    def revealed_by(self, move: Move) -> int | None:
        """The column whose face-down card ``move`` would turn up (R5), if any."""
        src, n = move.src, move.count
        if src < 7:
            col = self.columns[src]
            if self.down[src] and self.down[src] >= len(col) - n:
                return src
        return None

    # ----------------------------------------------------------- notation
    def format_move(self, move: Move) -> str:
        """The pinned notation of ``move`` in this position (before it is made)."""
        src, dst, n = move.src, move.dst, move.count
        if src == STOCK:
            return "D"
        if src < 7:
            card = self.columns[src][-n]
        elif src == WASTE:
            card = self.waste[-1]
        else:
            card = (self.foundations[src - FOUNDATION] - 1) * 4 + src - FOUNDATION
        return card_name(card) + ">" + ("F" if dst >= FOUNDATION else str(dst + 1))

    def parse_move(self, text: str) -> Move:
        """The legal move ``text`` names here; raises :class:`InvalidMoveError` if
        it is not notation, :class:`IllegalMoveError` (with the rule) if the
        rules forbid it."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be a string, not {text!r}")
        if text == "D":
            if self.stock or self.can_redeal():
                return DRAW
            if not self.waste:
                raise IllegalMoveError("D: the stock and the waste are both empty")
            raise IllegalMoveError(
                f"D: no redeals left (the limit is {self.rules.redeals}, R10)")
        m = _MOVE_RE.fullmatch(text)
        if not m:
            raise InvalidMoveError(
                f"not a move: {text!r} (expected D, or card>dest like Th>4 or Ah>F)")
        move = self._check(parse_card(m.group(1)), m.group(2))
        if isinstance(move, str):
            raise IllegalMoveError(move)
        return move

    def is_legal(self, move: object) -> bool:
        """Is ``move`` legal here? The answer of ``move in self.legal_moves``,
        without generating them; False for anything that is not a move."""
        if move == DRAW:
            return bool(self.stock) or self.can_redeal()
        if not isinstance(move, Move):
            return False
        src, dst, n = move.src, move.dst, move.count
        try:
            card = self._lifted(src, n)
        except (TypeError, IndexError):
            return False
        if card is None or type(dst) is not int:
            return False
        if dst == FOUNDATION + SUIT[card]:
            return self._check(card, "F") == move
        return 0 <= dst < 7 and self._check(card, str(dst + 1)) == move

    def _lifted(self, src: int, n: int) -> Card | None:
        """The lowest card a move of ``n`` cards from pile ``src`` would lift
        (whether it may is :meth:`_check`'s), or None if there is none."""
        if type(src) is not int or type(n) is not int or n < 1:
            return None
        if 0 <= src < 7:
            col = self.columns[src]
            return col[-n] if n <= len(col) else None
        if n != 1:
            return None
        if src == WASTE:
            return self.waste[-1] if self.waste else None
        if FOUNDATION <= src < STOCK:
            k = self.foundations[src - FOUNDATION]
            return make_card(k - 1, src - FOUNDATION) if k else None
        return None

    def _check(self, card: Card, dest: str) -> Move | str:
        """The legal move of ``card`` (with the cards on it) to ``dest`` (``F``,
        ``1``–``7``), or why there is none: the text of the IllegalMoveError."""
        name = card_name(card)
        at = self._locate(card, name)
        if isinstance(at, str):
            return at
        src, n = at
        if dest == "F":
            return self._to_foundation(card, name, src, n)
        return self._to_column(card, name, src, n, int(dest) - 1)

    def _locate(self, card: Card, name: str) -> tuple[int, int] | str:
        """``(pile, count)``: where ``card`` would move from and how many cards go
        with it, or why it cannot be picked up."""
        if self.waste and self.waste[-1] == card:
            return WASTE, 1
        if card in self.waste:
            return f"{name} is inside the waste: only its top card plays (R9)"
        if card in self.stock:
            return f"{name} is in the stock"
        s, r = SUIT[card], RANK[card]
        if self.foundations[s] > r:
            if self.foundations[s] == r + 1:
                return FOUNDATION + s, 1
            return f"{name} is under other cards on its foundation: only the top card comes back (R8)"
        for c, col in enumerate(self.columns):
            if card in col:
                i = col.index(card)
                if i < self.down[c]:
                    return f"{name} is face down in column {c + 1}"
                return c, len(col) - i
        raise AssertionError("every card is somewhere")  # _validate guarantees it

    def _to_foundation(self, card: Card, name: str, src: int, n: int) -> Move | str:
        s = SUIT[card]
        if src >= FOUNDATION:
            return f"{name} is already on its foundation"
        if n > 1:
            return f"{name}>F: only the top card of a column goes to a foundation (R7)"
        have = self.foundations[s]
        if have != RANK[card]:
            need = RANKS[have] + SUITS[s] if have < 13 else "nothing"
            return f"{name}>F: the {SUIT_SYMBOLS[s]} foundation takes {need} next (R7)"
        return _MOVES[src][FOUNDATION + s][1]

    def _to_column(self, card: Card, name: str, src: int, n: int, dst: int) -> Move | str:
        if src == dst:
            return f"{name} is already in column {dst + 1}"
        if src < 7:
            col = self.columns[src]
            for i in range(len(col) - n, len(col) - 1):
                if col[i] not in PARENTS[col[i + 1]]:
                    return (f"{name}>{dst + 1}: {card_name(col[i + 1])} on {card_name(col[i])} "
                            "is not in sequence, so they cannot move together (R4)")
        target = self.columns[dst]
        if not target:
            if RANK[card] != KING:
                return f"{name}>{dst + 1}: only a King may fill an empty column (R6)"
        elif target[-1] not in PARENTS[card]:
            return (f"{name}>{dst + 1}: {name} cannot go on {card_name(target[-1])}: columns "
                    "build down by one rank in alternating colours (R3)")
        return _MOVES[src][dst][n]

    def play(self, move: Move | str) -> Move:
        """Check and apply a move (a :class:`Move` or notation); returns the
        :class:`Move`. Raises :class:`InvalidMoveError` for what is not a move
        or notation, :class:`IllegalMoveError` for a move the rules forbid here."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"a move must be a Move or notation, not {move!r}")
        elif not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {move!r}")
        self.push(move)
        return move

    # ----------------------------------------------------------- F1
    def finish_moves(self) -> list[str] | None:
        """F1: when every card is face up and the stock and waste are empty, the
        foundation moves that finish the game card by card (lowest rank first);
        ``None`` if the game is not won in principle — including a C5 column
        whose face-up cards block each other (only foundation moves are used)."""
        if self.stock or self.waste or any(self.down):
            return None
        cols = [list(c) for c in self.columns]
        found = list(self.foundations)
        out: list[str] = []
        while True:
            best = None
            for col in cols:
                if col:
                    c = col[-1]
                    if found[c & 3] == c >> 2 and (best is None or c < best[0]):
                        best = (c, col)
            if best is None:
                break
            c, col = best
            col.pop()
            found[c & 3] += 1
            out.append(card_name(c) + ">F")
        return out if sum(found) == 52 else None

    def cards_face_up(self) -> Iterable[Card]:
        """Cards in the columns that are face up (for race scoring, N4)."""
        for col, d in zip(self.columns, self.down, strict=True):
            yield from col[d:]

    # ----------------------------------------------------------- picking (C1, C2)
    def where(self, card: Card) -> tuple[int, int]:
        """``(pile, index)`` of ``card``: pile 0–6 (columns), ``WASTE``,
        ``FOUNDATION + suit`` or ``STOCK``; index bottom → top in that pile
        (the stock's last element is drawn first, as in :attr:`stock`)."""
        if card in self.waste:
            return WASTE, self.waste.index(card)
        if card in self.stock:
            return STOCK, self.stock.index(card)
        s, r = SUIT[card], RANK[card]
        if self.foundations[s] > r:
            return FOUNDATION + s, r
        for c, col in enumerate(self.columns):
            if card in col:
                return c, col.index(card)
        raise AssertionError("every card is somewhere")  # _validate guarantees it

    def run_with(self, card: Card) -> tuple[Card, ...]:
        """The cards that leave with ``card`` when it is picked up: in a column
        the card and every card on it, which must form a run (R4); from the
        waste only its top card (R9), from a foundation only its top card (R8).
        Empty when ``card`` cannot be picked up (face down, in the stock, inside
        the waste or a foundation, or under cards that are not its run)."""
        pile, i = self.where(card)
        if pile == WASTE:
            return (card,) if i == len(self.waste) - 1 else ()
        if pile >= FOUNDATION:  # STOCK included: never picked
            return (card,) if pile < STOCK and i == self.foundations[pile - FOUNDATION] - 1 else ()
        col = self.columns[pile]
        if i < self.down[pile]:
            return ()
        for j in range(i, len(col) - 1):
            if col[j] not in PARENTS[col[j + 1]]:
                return ()
        return col[i:]

    def pickable(self, card: Card) -> bool:
        """C1/C2: ``card`` may be picked up (R4, R8, R9; see :meth:`run_with`)."""
        return bool(self.run_with(card))

    def pick_at(self, pile: int, index: int | None = None) -> Card | None:
        """The card a touch on ``pile`` picks up, ``index`` being the touched
        card's place in it (bottom → top, None for the pile's bare ground):
        anywhere on the waste its top card (R9: nothing inside the waste plays),
        on a foundation its top card (R8), in a column the touched card if it can
        be picked up (:meth:`run_with`); else None (the stock, a face-down card,
        a card under cards that are not its run, an empty pile)."""
        if pile == WASTE:
            return self.waste[-1] if self.waste else None
        if FOUNDATION <= pile < STOCK:
            n = self.foundations[pile - FOUNDATION]
            return (n - 1) * 4 + pile - FOUNDATION if n else None
        if 0 <= pile < 7 and index is not None and 0 <= index < len(self.columns[pile]):
            card = self.columns[pile][index]
            return card if self.pickable(card) else None
        return None

    def card_moves(self, card: Card) -> list[Move]:
        """C4: the legal moves of ``card`` with the cards on it: to its
        foundation first, then to the columns left to right; empty if it
        cannot move."""
        name = card_name(card)
        at = self._locate(card, name)
        if isinstance(at, str):
            return []
        src, n = at
        out = [self._to_foundation(card, name, src, n)]
        out += [self._to_column(card, name, src, n, d) for d in range(7)]
        return [m for m in out if not isinstance(m, str)]

    def targets(self, card: Card) -> list[str]:
        """C4: every destination (``F``, ``1``–``7``) where ``card`` with the
        cards on it may legally go now; empty if it cannot move."""
        return ["F" if m.dst >= FOUNDATION else str(m.dst + 1) for m in self.card_moves(card)]
