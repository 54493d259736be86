"""Building hand-made positions for rule tests."""
from __future__ import annotations

from kosynka import Position, Rules, parse_card


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def make(cols=(), down=None, stock="", waste="", found=(0, 0, 0, 0), rules=Rules(),
         rest_col=6, redeals_used=0, fan=None) -> Position:
    """A position from short strings. ``cols`` lists up to 7 columns
    (bottom→top, space-separated); ``stock`` is written first drawn first.
    Every card not placed (and not on a foundation) goes face down at the
    bottom of column ``rest_col``, in card order; if that column is otherwise
    empty its top (the highest rest card, usually a King) is face up."""
    columns = [cards(c) for c in cols] + [[] for _ in range(7 - len(cols))]
    dn = list(down) if down is not None else [0] * 7
    placed = {c for col in columns for c in col} | set(cards(stock)) | set(cards(waste))
    placed |= {r * 4 + s for s in range(4) for r in range(found[s])}
    rest = [c for c in range(52) if c not in placed]
    if rest:
        dn[rest_col] += len(rest) - (not columns[rest_col])
        columns[rest_col] = rest + columns[rest_col]
    return Position(columns, dn, stock=cards(stock)[::-1], waste=cards(waste),
                    foundations=found, rules=rules, redeals_used=redeals_used, fan=fan)


def packed(p: Position) -> tuple[bytes, ...]:
    """The columns as the solver packs them: bottom → top, a face-down card
    as ``card + 64``."""
    return tuple(bytes([c + 64 for c in col[:d]] + list(col[d:]))
                 for col, d in zip(p.columns, p.down, strict=True))


def names(p: Position, moves) -> set[str]:
    return {p.format_move(m) for m in moves}
