"""The Klondike position: piles, legal moves, push/pop, notation.

:class:`Position` is one mutable table in the manner of python-chess's
``Board``: :meth:`Position.push` applies a move *without* checking it (the
solver's fast path), :meth:`Position.pop` takes it back exactly, and
:meth:`Position.play` checks a move (or its notation) first and raises
:class:`IllegalMoveError` with the reason. Undo as a player sees it (C5, a
revealed card stays up) lives in :class:`kosynka.game.Game`. Beside it:
:mod:`kosynka.move` (the :class:`Move`, the piles' numbers and ids, the move
generator), :mod:`kosynka.rules` (:class:`Rules`, the piles a game can have,
:class:`Outcome`), :mod:`kosynka.picking` (what a touch picks up, Finish); this
module names them all.

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

import re
from typing import Any, Iterable, Sequence, TypeAlias

from .cards import (
    SUIT,
    Card,
    InvalidCardError,
    card_name,
    make_card,
    parse_card,
)
from .deals import deal_cards
from .move import (
    DRAW,
    FOUNDATION,
    PILE_IDS,
    PILE_NUMBERS,
    STOCK,
    WASTE,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    destination,
    legal_moves_of,
)
from .rules import (
    DEAD_END_SEARCH,
    InvalidPositionError,
    Outcome,
    Rules,
    Termination,
    check_move,
    check_piles,
    locate,
    to_column,
    to_foundation,
)

__all__ = [
    "Rules", "Position", "Move", "LegalMoves", "WASTE", "FOUNDATION", "STOCK", "DRAW", "PILE_IDS",
    "PILE_NUMBERS", "destination", "Outcome", "Termination", "DEAD_END_SEARCH",
    "InvalidMoveError", "IllegalMoveError", "InvalidPositionError",
]

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
        check_piles(self.columns, self.down, self.stock, self.waste, self.foundations, self.rules,
                    self.redeals_used, self.fan)

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
        if not legal_moves_of(self):
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

    def generate_legal_moves(self) -> list[Move]:
        """The legal moves of the position as it is now, in a fixed order, as a
        new list (safe to :meth:`push` and :meth:`pop` while iterating it; a
        search takes it rather than the view, which costs an object more)."""
        return legal_moves_of(self)

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
        move = check_move(self, parse_card(m.group(1)), m.group(2))
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
            return check_move(self, card, "F") == move
        return 0 <= dst < 7 and check_move(self, card, str(dst + 1)) == move

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

    def cards_face_up(self) -> Iterable[Card]:
        """Cards in the columns that are face up (for race scoring, N4)."""
        for col, d in zip(self.columns, self.down, strict=True):
            yield from col[d:]

    def card_moves(self, card: Card) -> list[Move]:
        """C4: the legal moves of ``card`` with the cards on it: to its
        foundation first, then to the columns left to right; empty if it
        cannot move."""
        name = card_name(card)
        at = locate(self, card, name)
        if isinstance(at, str):
            return []
        src, n = at
        out = [to_foundation(self, card, name, src, n)]
        out += [to_column(self, card, name, src, n, d) for d in range(7)]
        return [m for m in out if not isinstance(m, str)]

    def targets(self, card: Card) -> list[str]:
        """C4: every destination (``F``, ``1``–``7``) where ``card`` with the
        cards on it may legally go now; empty if it cannot move."""
        return ["F" if m.dst >= FOUNDATION else str(m.dst + 1) for m in self.card_moves(card)]
