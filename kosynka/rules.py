"""What a table is played by and what the rules decide: the variant
(:class:`Rules`: draw 1 or 3, R9; the redeal limit, R10), the piles a game can
have at all (:func:`check_piles`, :class:`InvalidPositionError`), a card's move
with the rule that refuses it (:func:`check_move`: R3, R4, R6–R9, the text of an
:class:`~kosynka.move.IllegalMoveError`), and how a game ends
(:class:`Outcome`, :class:`Termination`; found by
:meth:`kosynka.position.Position.outcome`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .cards import PARENTS, RANK, RANKS, SUIT, SUIT_SYMBOLS, SUITS, Card, card_name
from .errors import KosynkaError
from .move import _MOVES, FOUNDATION, KING, WASTE, Move, Piles

__all__ = ["Rules", "Outcome", "Termination", "DEAD_END_SEARCH", "InvalidPositionError", "check_piles",
           "check_move", "locate", "to_foundation", "to_column"]


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


class InvalidPositionError(KosynkaError):
    """Piles that no game of Klondike can have (a card twice, 53 cards, …)."""



def check_piles(columns: list[tuple[Card, ...]], down: list[int], stock: tuple[Card, ...],
                waste: tuple[Card, ...], foundations: list[int], rules: Rules, redeals_used: int,
                fan: int) -> None:
    """Raise :class:`InvalidPositionError` for piles no game of Klondike can have
    (a card twice or missing, a face-down top card, a redeal over the limit, …)."""
    def bad(msg: str) -> InvalidPositionError:
        return InvalidPositionError(f"impossible position: {msg}")

    if len(columns) != 7 or len(down) != 7:
        raise bad("there must be 7 columns")
    if len(foundations) != 4:
        raise bad("there must be 4 foundations")
    seen: set[int] = set()
    every = [c for col in columns for c in col] + list(stock) + list(waste)
    for s, n in enumerate(foundations):
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
    for i, (col, d) in enumerate(zip(columns, down, strict=True)):
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= max(len(col) - 1, 0):
            raise bad(f"column {i + 1} has {len(col)} cards and {d!r} face down "
                      "(its top card is always face up)")
    r = redeals_used
    if isinstance(r, bool) or not isinstance(r, int) or r < 0 or (
        rules.redeals is not None and r > rules.redeals
    ):
        raise bad(f"{r!r} redeals used under a limit of {rules.redeals}")
    if not (fan == 0 if not waste else 1 <= fan <= min(rules.draw, len(waste))):
        raise bad(f"a waste of {len(waste)} cards cannot show {fan!r} fanned")


def check_move(p: Piles, card: Card, dest: str) -> Move | str:
    """The legal move of ``card`` (with the cards on it) to ``dest`` (``F``,
    ``1``–``7``), or why there is none: the text of the IllegalMoveError."""
    name = card_name(card)
    at = locate(p, card, name)
    if isinstance(at, str):
        return at
    src, n = at
    if dest == "F":
        return to_foundation(p, card, name, src, n)
    return to_column(p, card, name, src, n, int(dest) - 1)


def locate(p: Piles, card: Card, name: str) -> tuple[int, int] | str:
    """``(pile, count)``: where ``card`` would move from and how many cards go
    with it, or why it cannot be picked up."""
    if p.waste and p.waste[-1] == card:
        return WASTE, 1
    if card in p.waste:
        return f"{name} is inside the waste: only its top card plays (R9)"
    if card in p.stock:
        return f"{name} is in the stock"
    s, r = SUIT[card], RANK[card]
    if p.foundations[s] > r:
        if p.foundations[s] == r + 1:
            return FOUNDATION + s, 1
        return f"{name} is under other cards on its foundation: only the top card comes back (R8)"
    for c, col in enumerate(p.columns):
        if card in col:
            i = col.index(card)
            if i < p.down[c]:
                return f"{name} is face down in column {c + 1}"
            return c, len(col) - i
    raise AssertionError("every card is somewhere")  # check_piles guarantees it


def to_foundation(p: Piles, card: Card, name: str, src: int, n: int) -> Move | str:
    s = SUIT[card]
    if src >= FOUNDATION:
        return f"{name} is already on its foundation"
    if n > 1:
        return f"{name}>F: only the top card of a column goes to a foundation (R7)"
    have = p.foundations[s]
    if have != RANK[card]:
        need = RANKS[have] + SUITS[s] if have < 13 else "nothing"
        return f"{name}>F: the {SUIT_SYMBOLS[s]} foundation takes {need} next (R7)"
    return _MOVES[src][FOUNDATION + s][1]


def to_column(p: Piles, card: Card, name: str, src: int, n: int, dst: int) -> Move | str:
    if src == dst:
        return f"{name} is already in column {dst + 1}"
    if src < 7:
        col = p.columns[src]
        for i in range(len(col) - n, len(col) - 1):
            if col[i] not in PARENTS[col[i + 1]]:
                return (f"{name}>{dst + 1}: {card_name(col[i + 1])} on {card_name(col[i])} "
                        "is not in sequence, so they cannot move together (R4)")
    target = p.columns[dst]
    if not target:
        if RANK[card] != KING:
            return f"{name}>{dst + 1}: only a King may fill an empty column (R6)"
    elif target[-1] not in PARENTS[card]:
        return (f"{name}>{dst + 1}: {name} cannot go on {card_name(target[-1])}: columns "
                "build down by one rank in alternating colours (R3)")
    return _MOVES[src][dst][n]
