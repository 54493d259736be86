"""What a screen reader hears (issue 13): card and pile names, and what changed.

Pure functions (no browser import, tested on CPython): ``card(lang, c)`` names a
card ("nine of hearts"); ``pile_label(lang, pos, pile, …)`` names a pile with
what it shows ("Column 3: nine of hearts on ten of spades, 3 cards face down";
"Stock: 14 cards, 2 redeals left"); ``said(lang, played, pos)`` says what the
last action did, as the engine tells it (``Game.last``: a move, a draw, a redeal,
an undo, a card turned up, the win) — nothing is found by comparing tables.

Decisions:
- A face-down card is never named: piles count them ("3 cards face down"), the
  stock says how many cards it holds, a face-down card's own label is "face-down
  card".
- A column reads from its top card down ("A on B on C"), the way the player
  meets it; a column whose chosen card is deeper than its top says which first
  ("Column 3 (selected: ten of spades): …"); choosing another card of a column
  (Up/Down) says that card in the live region.
- Announcements are short and polite (``aria-live=polite``): the lead card of a
  move and where it went, a turned-up card, the drawn card, a redeal with the
  redeals left, an undo ("Undone." and where the cards went back), the win.
"""

from __future__ import annotations

from typing import Sequence

from kosynka.cards import RANK, SUIT, make_card
from kosynka.game import Played
from kosynka.position import PILE_IDS, Position
from web.i18n import (
    plural as plural,  # re-exported (web.race.news, web.challenge_sheets)
)
from web.i18n import t


def card(lang: str, c: int) -> str:
    """A face-up card's name: "nine of hearts", "дев'ятка чирв"."""
    return t(lang, "card_fmt").format(rank=t(lang, "ranks").split("|")[RANK[c]],
                                      suit=t(lang, "suits").split("|")[SUIT[c]])


def pile_name(lang: str, pile: str) -> str:
    """"Stock", "Waste", "Foundation of hearts", "Column 3"."""
    if pile in ("stock", "waste"):
        return t(lang, f"pile_{pile}")
    if pile[0] == "f":
        return t(lang, "pile_found").format(suit=t(lang, "suits").split("|")[int(pile[1]) - 1])
    return t(lang, "pile_col").format(n=pile[1])


def _dest(lang: str, pile: str) -> str:
    if pile[0] == "t":
        return t(lang, "to_col").format(n=pile[1])
    return t(lang, {"stock": "to_stock", "waste": "to_waste"}.get(pile, "to_found"))


def _stock_tail(lang: str, pos: Position) -> str:
    left = pos.redeals_left
    return "" if left is None else ", " + plural(lang, "redeals_left", left)


def pile_cards(pos: Position, pile: str) -> tuple[list[int], int]:
    """(cards bottom → top, how many of them are face down) of a pile."""
    if pile == "stock":
        return list(pos.stock), len(pos.stock)
    if pile == "waste":
        return list(pos.waste), 0
    if pile[0] == "f":
        k = int(pile[1]) - 1
        return [make_card(r, k) for r in range(pos.foundations[k])], 0
    i = int(pile[1]) - 1
    return list(pos.columns[i]), pos.down[i]


def pile_label(lang: str, pos: Position, pile: str, chosen: int | None = None) -> str:
    """A pile's accessible name; ``chosen``: the index of the card the keyboard
    cursor is on (said when it is not the top card)."""
    name = pile_name(lang, pile)
    cards, down = pile_cards(pos, pile)
    if pile == "stock":
        body = plural(lang, "cards_n", len(cards)) if cards else t(lang, "empty")
        return f"{name}: {body}{_stock_tail(lang, pos)}"
    if not cards:
        return f"{name}: {t(lang, 'empty')}"
    if pile[0] == "f":
        return f"{name}: {card(lang, cards[-1])}"
    if pile == "waste":
        shown = cards[-max(1, pos.fan):][::-1] if pos.fan else cards[-1:]
        return f"{name}: {_on(lang, shown)}, {plural(lang, 'cards_n', len(cards))}"
    body = _on(lang, cards[down:][::-1])
    if down:
        body += ", " + t(lang, "face_down").format(cards=plural(lang, "cards_n", down))
    if chosen is not None and down <= chosen < len(cards) - 1:
        name += " (" + t(lang, "selected").format(card=card(lang, cards[chosen])) + ")"
    return f"{name}: {body}"


def _on(lang: str, cards: list[int]) -> str:
    return f" {t(lang, 'on')} ".join(card(lang, c) for c in cards)


def card_label(lang: str, c: int, up: bool) -> str:
    return card(lang, c) if up else t(lang, "face_down").format(cards=plural(lang, "cards_n", 1))


def picked(lang: str, cards: Sequence[int]) -> str:
    """"Picked up: ten of spades and 2 cards more"."""
    if len(cards) == 1:
        return t(lang, "picked").format(card=card(lang, cards[0]))
    return t(lang, "picked_more").format(card=card(lang, cards[0]), cards=plural(lang, "cards_n", len(cards) - 1))


def said(lang: str, played: Played | None, pos: Position) -> str:
    """What the last action did (``kosynka.game.Played``, ``Game.last``), in words
    for the live region; ``pos`` is the position after it. "" for nothing."""
    if played is None:
        return ""
    parts = []
    if played.kind == "draw":
        parts.append(t(lang, "drew").format(card=card(lang, played.cards[-1])))
    elif played.kind == "redeal":
        parts.append(t(lang, "redealt") + _stock_tail(lang, pos).replace(",", "", 1))
    else:
        if played.kind == "undo":
            parts.append(t(lang, "undone"))
        if played.cards:
            parts.append(t(lang, "moved").format(card=card(lang, played.cards[0]),
                                                 dest=_dest(lang, PILE_IDS[played.dst])))
    if played.turned is not None:
        parts.append(t(lang, "turned_up").format(card=card(lang, played.turned)))
    if played.won:
        parts.append(t(lang, "win"))
    return " ".join(parts)
