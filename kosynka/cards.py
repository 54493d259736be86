"""Cards as small integers, and their names in the pinned notation.

A card is an ``int`` from 0 to 51: ``card = rank_index * 4 + suit`` where
``rank_index`` is 0 for the Ace up to 12 for the King and ``suit`` is
0 ♠ spades, 1 ♥ hearts, 2 ♦ diamonds, 3 ♣ clubs (R1). Hearts and diamonds are
red. Names are rank ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by suit
``s h d c``: ``card_name(parse_card("Th")) == "Th"``.

The tables below (``RANK``, ``SUIT``, ``RED``, ``PARENTS``) let the hot paths of
the engine and the solver answer rule questions with one index.
"""

from __future__ import annotations

from typing import TypeAlias

from .errors import KosynkaError

__all__ = [
    "Card", "RANKS", "SUITS", "SUIT_SYMBOLS", "RANK", "SUIT", "RED", "PARENTS",
    "make_card", "card_name", "parse_card", "InvalidCardError",
]

Card: TypeAlias = int

RANKS = "A23456789TJQK"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"

RANK: tuple[int, ...] = tuple(c >> 2 for c in range(52))
"""Rank index of each card: 0 for an Ace … 12 for a King."""
SUIT: tuple[int, ...] = tuple(c & 3 for c in range(52))
"""Suit index of each card (0 s, 1 h, 2 d, 3 c); also its foundation."""
RED: tuple[bool, ...] = tuple(SUIT[c] in (1, 2) for c in range(52))


def make_card(rank_index: int, suit: int) -> Card:
    return rank_index * 4 + suit


PARENTS: tuple[tuple[Card, ...], ...] = tuple(
    tuple(
        make_card(RANK[c] + 1, s)
        for s in range(4)
        if RED[make_card(0, s)] != RED[c]
    ) if RANK[c] < 12 else ()
    for c in range(52)
)
"""The cards a card may be placed on in a column (R3): one rank higher, the
other colour. A King has none."""

_NAMES = tuple(RANKS[RANK[c]] + SUITS[SUIT[c]] for c in range(52))
_BY_NAME = {name: c for c, name in enumerate(_NAMES)}


class InvalidCardError(KosynkaError):
    """A card name that is not rank + suit in the pinned notation."""


def card_name(card: Card) -> str:
    """``card_name(0) == "As"``; ``card_name(51) == "Kc"``."""
    return _NAMES[card]


def parse_card(text: str) -> Card:
    """The card named ``text`` (e.g. ``"Th"``); raises InvalidCardError."""
    try:
        return _BY_NAME[text]
    except (KeyError, TypeError):
        raise InvalidCardError(
            f"not a card: {text!r} (expected rank A23456789TJQK + suit shdc, e.g. 'Th')"
        ) from None
