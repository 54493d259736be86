"""Cards safe to put up: one rule for the solver's forced moves and the page's
"auto-move to foundations" (issue 12 item 5).

:func:`safe` says whether a card may go to its foundation with no alternative
ever needed: playing it never turns a winnable game into a lost one (the proof
is in its docstring). The solver (``kosynka.solver``) applies these moves
without searching them (the rule inlined in its inner loop, ``_safe_autos``,
and :func:`safe_back` imported from here); :func:`next_safe_move` gives the
player's table the same moves, one at a time, in the pinned notation.

>>> from kosynka.position import Position
>>> p = Position.deal(3)
>>> next_safe_move(p) is None or next_safe_move(p).endswith(">F")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import card_name
from .position import Position

__all__ = ["safe", "safe_back", "next_safe_move"]

_SIB = (3, 2, 1, 0)           # the other suit of the same colour
_OPP = ((1, 2), (0, 3), (0, 3), (1, 2))


def safe(card: int, found: Sequence[int]) -> bool:
    """May ``card`` (at a column top, or in a talon as allowed below) go to its
    foundation with no alternative searched?

    Rule: its foundation takes it next, both foundations of the other colour
    hold every card below its rank, and the other foundation of its colour
    holds every card two or more below its rank.

    Proof (valid with R8, cards coming back from foundations). Let ``c`` have
    rank ``r``; let ``L`` be the cards of the other colour of rank < r and the
    cards of c's colour of rank < r - 1 on the sibling suit and < r on c's own
    suit; by the rule all of ``L`` is on foundations in P. Let ``S`` be any
    winning line from P and P' = P with c on its foundation. Project every
    state Q of S by lifting the cards of ``L ∪ {c}`` onto their foundations.
    (1) In a column only a card one rank lower of the other colour is ever put
    on a card, and whatever lies on a card of ``L ∪ {c}`` is in ``L``; none of
    them is face down (in P they are on foundations or c is a top), so they
    always form a top segment of their columns and lifting them leaves a
    legal layout, with at most the same face-down cards. (2) Each move of S
    maps to a legal move or to nothing: a move of a card of ``L ∪ {c}`` (with
    what lies on it) maps to nothing; a move of a run headed by another card
    ``h`` maps to the same move of the run cut at its first lifted card: ``h``
    is a top, face up, and its destination — a parent of ``h``, not in
    ``L ∪ {c}`` by ranks and colours, or an empty column, or h's foundation,
    whose height is unchanged by the lifting because h's rank is at or above
    the lifted part — is still there; a foundation → column move of such an
    ``h`` likewise. Stock taps map to the same taps; if c was in the talon
    (draw 1 only, below) a tap that turns c up maps to nothing and the others
    to the same taps, so redeals used never grow. (3) The projection of a won
    state is won. So S projects to a winning line from P'.

    Talon: with draw 1 the tap mapping above holds wherever c lies in the
    talon, so c may go from the waste top (any redeal limit) and, with
    unlimited redeals (pointer irrelevant, see the solver's ``"pointer"`` rule), from anywhere in
    the talon. With draw 3 removing a talon card shifts the triples, so talon
    cards are never moved by this rule.
    """
    r = card >> 2
    s = card & 3
    if found[s] != r:
        return False
    o1, o2 = _OPP[s]
    return found[o1] >= r and found[o2] >= r and found[_SIB[s]] >= r - 1


def safe_back(card: int, found: Sequence[int]) -> bool:
    """Is ``card``, the top of its foundation, one that never needs to come
    back (R8)? Same rule as :func:`safe` with the card counted as not yet on
    its foundation. Proof: if a shortest winning line from P starts by moving
    ``card`` to a column, giving Q, then in Q the card is a column top and the
    rule of :func:`safe` holds, so the projection in its proof turns the rest
    of the line into a winning line from Q + card→foundation = P that is at
    least one move shorter (the card's move back up is dropped): impossible.
    """
    r = card >> 2
    s = card & 3
    o1, o2 = _OPP[s]
    return found[o1] >= r and found[o2] >= r and found[_SIB[s]] >= r - 1


def next_safe_move(position: Position) -> str | None:
    """A move of a :func:`safe` card to its foundation in ``position`` — a column
    top, or the waste top with draw 1 (with draw 3 talon cards never move by the
    rule, see :func:`safe`) — or None."""
    found = position.foundations
    tops = [col[-1] for col, down in zip(position.columns, position.down, strict=True) if len(col) > down]
    if position.rules.draw == 1 and position.waste:
        tops.append(position.waste[-1])
    for card in tops:
        if safe(card, found):
            return card_name(card) + ">F"
    return None
