"""What a player's touch and the Finish button ask of a table: the card a touch
picks up (C1, C2: R4, R8, R9), the cards that leave with it, and the
foundation moves that finish a game (F1). Where the cards may go (C4) is the
position's own (:meth:`~kosynka.position.Position.card_moves`), as the rules'
reasons are."""

from __future__ import annotations

from .cards import PARENTS, RANK, SUIT, Card, card_name
from .move import FOUNDATION, STOCK, WASTE
from .position import Position

__all__ = ["where", "run_with", "pickable", "pick_at", "finish_moves"]


def where(p: Position, card: Card) -> tuple[int, int]:
    """``(pile, index)`` of ``card``: pile 0–6 (columns), ``WASTE``,
    ``FOUNDATION + suit`` or ``STOCK``; index bottom → top in that pile
    (the stock's last element is drawn first, as in ``Position.stock``)."""
    if card in p.waste:
        return WASTE, p.waste.index(card)
    if card in p.stock:
        return STOCK, p.stock.index(card)
    s, r = SUIT[card], RANK[card]
    if p.foundations[s] > r:
        return FOUNDATION + s, r
    for c, col in enumerate(p.columns):
        if card in col:
            return c, col.index(card)
    raise AssertionError("every card is somewhere")  # _validate guarantees it


def run_with(p: Position, card: Card) -> tuple[Card, ...]:
    """The cards that leave with ``card`` when it is picked up: in a column
    the card and every card on it, which must form a run (R4); from the
    waste only its top card (R9), from a foundation only its top card (R8).
    Empty when ``card`` cannot be picked up (face down, in the stock, inside
    the waste or a foundation, or under cards that are not its run)."""
    pile, i = where(p, card)
    if pile == WASTE:
        return (card,) if i == len(p.waste) - 1 else ()
    if pile >= FOUNDATION:  # STOCK included: never picked
        return (card,) if pile < STOCK and i == p.foundations[pile - FOUNDATION] - 1 else ()
    col = p.columns[pile]
    if i < p.down[pile]:
        return ()
    for j in range(i, len(col) - 1):
        if col[j] not in PARENTS[col[j + 1]]:
            return ()
    return col[i:]


def pickable(p: Position, card: Card) -> bool:
    """C1/C2: ``card`` may be picked up (R4, R8, R9; see :func:`run_with`)."""
    return bool(run_with(p, card))


def pick_at(p: Position, pile: int, index: int | None = None) -> Card | None:
    """The card a touch on ``pile`` picks up, ``index`` being the touched
    card's place in it (bottom → top, None for the pile's bare ground):
    anywhere on the waste its top card (R9: nothing inside the waste plays),
    on a foundation its top card (R8), in a column the touched card if it can
    be picked up (:func:`run_with`); else None (the stock, a face-down card,
    a card under cards that are not its run, an empty pile)."""
    if pile == WASTE:
        return p.waste[-1] if p.waste else None
    if FOUNDATION <= pile < STOCK:
        n = p.foundations[pile - FOUNDATION]
        return (n - 1) * 4 + pile - FOUNDATION if n else None
    if 0 <= pile < 7 and index is not None and 0 <= index < len(p.columns[pile]):
        card = p.columns[pile][index]
        return card if pickable(p, card) else None
    return None


def finish_moves(p: Position) -> list[str] | None:
    """F1: when every card is face up and the stock and waste are empty, the
    foundation moves that finish the game card by card (lowest rank first);
    ``None`` if the game is not won in principle — including a C5 column
    whose face-up cards block each other (only foundation moves are used)."""
    if p.stock or p.waste or any(p.down):
        return None
    cols = [list(c) for c in p.columns]
    found = list(p.foundations)
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
