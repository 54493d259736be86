"""Deal numbers: one fixed 52-card layout per number, the same everywhere.

The shuffle is defined here, not borrowed from :mod:`random`, so a deal is the
same on every Python version, in the browser and for every player of a race:

* the generator is SplitMix64 (Steele, Lea & Flood 2014) seeded with the deal
  number; every output is a 64-bit integer;
* a bounded draw ``below(n)`` rejects outputs ≥ ``2**64 - 2**64 % n`` and returns
  ``x % n`` (no modulo bias);
* the deck starts in card order 0…51 (see :mod:`kosynka.cards`) and is shuffled
  by Fisher–Yates from the end: for ``i`` from 51 down to 1, swap ``deck[i]``
  with ``deck[below(i + 1)]``;
* the shuffled deck is dealt as a person deals (R2): row by row, the first row
  one card to each of the 7 columns left to right, the next row from column 2
  on, and so on (28 cards); the remaining 24 cards form the stock in deck order,
  ``deck[28]`` being the first card drawn.

Deal numbers are integers ``0 <= n < 2**64``.

The deal JSON of a numbered deal (pinned in docs/rules.md) is :func:`deal_json`;
the other way, ``Position.from_json(data, Rules.from_json(data))`` reads it
back (any position, mid-game keys included).
"""

from __future__ import annotations

import datetime
from typing import Any, Iterator

from .cards import Card, card_name

__all__ = ["MAX_DEAL", "check_number", "shuffled_deck", "deal_cards", "deal_json", "daily_number"]

MAX_DEAL = 1 << 64
_MASK = (1 << 64) - 1


def _splitmix64(state: int) -> Iterator[int]:
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def check_number(number: object) -> int:
    """``number`` if it is a valid deal number, else ValueError."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < MAX_DEAL:
        raise ValueError(f"deal number must be an integer from 0 to 2**64-1, not {number!r}")
    return number


def shuffled_deck(number: int) -> list[Card]:
    """The deck of deal ``number`` after the shuffle, first card dealt first."""
    rng = _splitmix64(check_number(number))
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = (1 << 64) - (1 << 64) % n
        x = next(rng)
        while x >= limit:
            x = next(rng)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(number: int) -> tuple[list[list[Card]], list[Card]]:
    """``(tableau, stock)`` of deal ``number``: 7 columns bottom→top, and the
    stock with the first card to be drawn first."""
    deck = shuffled_deck(number)
    tableau: list[list[Card]] = [[] for _ in range(7)]
    k = 0
    for row in range(7):
        for col in range(row, 7):
            tableau[col].append(deck[k])
            k += 1
    return tableau, deck[28:]


def deal_json(number: int, draw: int = 1, redeals: int | None = None) -> dict[str, Any]:
    """The pinned deal JSON of deal ``number`` under the rules ``draw`` /
    ``redeals`` (``None`` = unlimited; pass ``**rules.to_json()``): its number,
    rules, the 7 columns bottom → top and the stock, first drawn first.

    >>> d = deal_json(0, draw=3, redeals=2)
    >>> d["number"], d["draw"], d["redeals"], d["tableau"][:2], d["stock"][0]
    (0, 3, 2, [['Qd'], ['Ts', '3h']], 'Th')
    """
    tableau, stock = deal_cards(number)
    return {"number": number, "draw": draw, "redeals": redeals,
            "tableau": [[card_name(c) for c in col] for col in tableau],
            "stock": [card_name(c) for c in stock]}


def daily_number(date_iso: str) -> int:
    """The deal number the Deal of the day of ``date_iso`` (``YYYY-MM-DD``)
    starts its search from: a 32-bit mix of the day's ordinal. The day's deal is
    the first verified deal at or after it under the chosen rules."""
    day = datetime.date.fromisoformat(date_iso).toordinal()
    return next(_splitmix64(day ^ 0x4B6F73796E6B61)) >> 32
