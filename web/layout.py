"""Where every pile and card goes on the table, computed from the position alone.

Pure Python (tested on CPython): ``geometry(width, height)`` sizes the cards for the
table's box, ``places(position, geom)`` gives each card its pile, index and offset
inside the pile's element. The renderer moves elements there and animates the
difference (FLIP), so the DOM always follows the engine's state.

Decisions (user-visible):
- Classic Klondike layout: stock at the top left, waste beside it (draw 3 fans up to
  three cards to the right, into the empty slot), the four foundations ♠ ♥ ♦ ♣ at the
  top right, seven columns below. Left-handed (a setting, issue 13): the
  foundations at the left (still ♠ ♥ ♦ ♣), the waste and the stock at the right,
  the draw-3 fan opening to the left; the columns keep their order.
- Cards are 1.4 times as tall as wide; the width is what seven columns plus gaps
  allow (about 46 px on a 360 px phone), capped so a full column still fits the
  height. Face-up cards in a column overlap so that the corner (rank and suit) stays
  visible. Every column uses the same offsets, computed from the column that needs
  the most room (fans tighten as columns grow): at ``MIN_FU``/``MIN_FD`` pixels per
  card if that fits, tighter still if it must — no card ever runs under the panel
  (issue 13; a 640×360 phone on its side holds an 18-card column).
- A short, wide table (a phone on its side, a short desktop window: width ≥
  ``wide_ratio`` × height) puts the top row *beside* the columns: the stock with
  the waste under it at the left, the foundations in a 2 × 2 block at the right
  (♠ ♥ over ♦ ♣; mirrored for the left hand), the draw-3 fan opening downwards.
  The columns then start at the top and have the whole height, and the side
  margins hold those piles: on a 640×360 phone cards are 54×76 px (49×69 with
  the top row above) and an 18-card column still shows every rank at
  ``MIN_FU``. The keyboard cursor (``step``) goes there to the nearest pile in
  the arrow's direction, as the piles stand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence, TypedDict

from kosynka.cards import Card, make_card
from kosynka.position import (
    FOUNDATION,
    PILE_IDS,
    PILE_NUMBERS,
    STOCK,
    WASTE,
    destination,
)


class Numbers(TypedDict):
    min_side: int
    gap_share: float
    gap_min: int
    gap_max: int
    card_ratio: float
    card_min: int
    card_max: int
    height_share: float
    height_share_side: float
    wide_ratio: float
    top_min: int
    col_gap_min: int
    fd_share: float
    fd_min: int
    fu_share: float
    fu_min: int
    fan_share: float
    room_margin: int


# The layout's numbers. The first paint before Python (web/boot/paint.js) has no
# copy: it draws this module's layout, computed at build time (tools/firstpaint.py).
NUMBERS: Numbers = {
    "min_side": 200,           # px: a smaller table box is laid out as this
    "gap_share": 0.012,        # gap between slots: this share of the width …
    "gap_min": 3, "gap_max": 14,   # … within these px
    "card_ratio": 1.4,         # card height / width
    "card_min": 24, "card_max": 110,  # card width px
    "height_share": 0.2,       # a card is at most this share of the height tall …
    "height_share_side": 0.29, "wide_ratio": 1.6,  # … this share on a table ≥ 1.6 × as wide as tall (side layout)
    "top_min": 7,              # px above the top row, at least (room for a lifted card)
    "col_gap_min": 8,          # px between the top row and the columns, at least
    "fd_share": 0.11, "fd_min": 4,   # face-down card offset in a column: share of card height, min px
    "fu_share": 0.27, "fu_min": 13,  # face-up card offset (its corner stays visible)
    "fan_share": 0.48,         # draw-3 waste fan offset: share of card width
    "room_margin": 4,          # px kept free under the longest column
}
N = NUMBERS
MIN_FU = N["fu_min"]
MIN_FD = N["fd_min"]


def _round(x: float) -> int:
    """Half up, as JavaScript's ``Math.round`` (Python's ``round`` goes to even)."""
    return math.floor(x + 0.5)


@dataclass
class Geometry:
    width: float
    height: float
    cw: int  # card width
    ch: int  # card height
    gap: int
    fd: int  # offset of a face-down card in a column
    fu: int  # offset of a face-up card in a column
    fan: int  # offset of fanned waste cards: horizontal (downwards in the side layout)
    top: int  # y of the top row
    col_top: int  # y of the columns
    x: list[int] = field(default_factory=list)  # x of each of the 7 columns
    left_handed: bool = False  # the top row mirrored (stock at the right)
    side: bool = False  # the top row's piles beside the columns (a wide, short table)
    sx: list[int] = field(default_factory=list)  # side layout: x of the stock, of the foundations' 2 columns

    def slot(self, pile: str) -> int:
        """The slot (0–6, left to right) a pile stands in in the usual layout (the top
        row above the columns); the waste: its top card's."""
        if pile[0] == "t":
            return int(pile[1]) - 1
        if pile[0] == "f":  # ♠ ♥ ♦ ♣ left to right on either hand
            return int(pile[1]) - 1 if self.left_handed else 2 + int(pile[1])
        k = 0 if pile == "stock" else 1
        return 6 - k if self.left_handed else k

    def pile_box(self, pile: str) -> tuple[int, int, int, int]:
        """(left, top, width, height) of a pile's element inside the table."""
        if self.side and pile[0] != "t":
            if pile == "stock":
                return self.sx[0], self.top, self.cw, self.ch
            if pile == "waste":  # under the stock, its fan opening downwards
                return self.sx[0], self.top + self.ch + self.gap, self.cw, self.ch + 2 * self.fan
            k = int(pile[1]) - 1  # ♠ ♥ over ♦ ♣
            return self.sx[1 + k % 2], self.top + (k // 2) * (self.ch + self.gap), self.cw, self.ch
        if pile == "waste":
            x = self.x[self.slot(pile)] - (2 * self.fan if self.left_handed else 0)
            return x, self.top, self.cw + 2 * self.fan, self.ch
        if pile[0] != "t":
            return self.x[self.slot(pile)], self.top, self.cw, self.ch
        i = int(pile[1]) - 1
        return self.x[i], self.col_top, self.cw, max(self.ch, math.floor(self.height) - self.col_top)


def geometry(width: float, height: float, left_handed: bool = False) -> Geometry:
    """Card size and slot positions for a table box of ``width`` × ``height`` px."""
    width = max(width, N["min_side"])
    height = max(height, N["min_side"])
    gap = max(N["gap_min"], min(N["gap_max"], math.floor(width * N["gap_share"])))
    side = width >= N["wide_ratio"] * height
    if side:  # 10 slots (stock, 7 columns, 2 of foundations), 2 gaps between the groups
        cw = math.floor((width - 13 * gap) / 10)
        share = N["height_share_side"]
    else:
        cw = math.floor((width - 8 * gap) / 7)
        share = N["height_share"]
    # a column of 6 face-down + 13 face-up cards should fit without closing up much
    cw = max(N["card_min"], min(cw, math.floor(height * share / N["card_ratio"]), N["card_max"]))
    ch = _round(cw * N["card_ratio"])
    top = max(gap, N["top_min"])
    fd = max(MIN_FD, _round(ch * N["fd_share"]))
    fu = max(MIN_FU, _round(ch * N["fu_share"]))
    if side:
        left = math.floor((width - (10 * cw + 11 * gap)) / 2)
        step = cw + gap
        if left_handed:  # foundations | columns | stock
            found = [left, left + step]
            xs = [left + 2 * step + gap + i * step for i in range(7)]
            sx = [xs[6] + step + gap] + found
        else:  # stock | columns | foundations
            xs = [left + step + gap + i * step for i in range(7)]
            sx = [left, xs[6] + step + gap, xs[6] + 2 * step + gap]
        return Geometry(width, height, cw, ch, gap, fd, fu, fu, top, top, xs, bool(left_handed), True, sx)
    total = 7 * cw + 6 * gap
    left = math.floor((width - total) / 2)
    xs = [left + i * (cw + gap) for i in range(7)]
    col_top = top + ch + max(gap * 2, N["col_gap_min"])
    fan = _round(cw * N["fan_share"])
    return Geometry(width, height, cw, ch, gap, fd, fu, fan, top, col_top, xs, bool(left_handed))


def column_offsets(down: int, up: int, geom: Geometry) -> tuple[int, int]:
    """(face-down offset, face-up offset) so a column of ``down``+``up`` cards fits:
    the usual offsets; else face-up cards close up to ``MIN_FU``, then face-down ones
    to ``MIN_FD // 2``; if it still does not fit, face-up cards close up further
    (at least 1 px) — the column never runs past the table's bottom."""
    fd, fu = geom.fd, geom.fu
    room = geom.height - geom.col_top - geom.ch - N["room_margin"]
    need = down * fd + max(0, up - 1) * fu
    if need <= room or up + down <= 1:
        return fd, fu
    if up > 1:
        fu = max(MIN_FU, math.floor((room - down * fd) / (up - 1)))
    need = down * fd + max(0, up - 1) * fu
    if need > room and down:
        fd = max(MIN_FD // 2, math.floor((room - max(0, up - 1) * fu) / down))
    need = down * fd + max(0, up - 1) * fu
    if need > room and up > 1:
        fu = max(1, math.floor((room - down * fd) / (up - 1)))
    return fd, fu


class Piles(Protocol):
    """What the layout reads of a position (a ``kosynka`` Position has it)."""

    @property
    def columns(self) -> Sequence[Sequence[Card]]: ...
    @property
    def down(self) -> Sequence[int]: ...
    @property
    def stock(self) -> Sequence[Card]: ...
    @property
    def waste(self) -> Sequence[Card]: ...
    @property
    def foundations(self) -> Sequence[int]: ...
    @property
    def fan(self) -> int: ...


def table_offsets(pos: Piles, geom: Geometry) -> tuple[int, int]:
    """The offsets every column uses: the tightest any column needs to fit."""
    fd, fu = geom.fd, geom.fu
    for cards, down in zip(pos.columns, pos.down, strict=True):
        d, u = column_offsets(down, len(cards) - down, geom)
        fd, fu = min(fd, d), min(fu, u)
    return fd, fu


@dataclass(frozen=True)
class Place:
    pile: str
    index: int  # bottom → top within the pile
    x: int  # offset inside the pile's element
    y: int
    up: bool


def places(pos: Piles, geom: Geometry,
           card_of: Callable[[int, int], Card] = make_card) -> dict[int, Place]:
    """Every card's place. ``pos`` is ``game.position``; ``card_of(rank, suit)`` → card
    (the foundations hold counts)."""
    out: dict[int, Place] = {}
    for i, c in enumerate(pos.stock):
        out[c] = Place("stock", i, 0, 0, False)
    waste = pos.waste
    n = len(waste)
    fan = pos.fan if n else 0
    for i, c in enumerate(waste):
        k = i - (n - fan)  # 0..fan-1 for fanned cards
        x = k * geom.fan if fan > 1 and k > 0 else 0
        if geom.side:  # the fan opens downwards
            out[c] = Place("waste", i, 0, x, True)
        else:
            out[c] = Place("waste", i, 2 * geom.fan - x if geom.left_handed else x, 0, True)
    for k, count in enumerate(pos.foundations):
        for r in range(count):
            out[card_of(r, k)] = Place(f"f{k + 1}", r, 0, 0, True)
    fd, fu = table_offsets(pos, geom)
    for col, (cards, down) in enumerate(zip(pos.columns, pos.down, strict=True)):
        y = 0
        for i, c in enumerate(cards):
            out[c] = Place(f"t{col + 1}", i, 0, y, i >= down)
            y += fd if i < down else fu
    return out


# ------------------------------------------------------------ piles by name
# The DOM names piles by the engine's pile ids (``kosynka.position.PILE_IDS``:
# ``t1``–``t7``, ``waste``, ``f1``–``f4`` for ♠♥♦♣, ``stock``); PILES is their
# order on the page, the top row first.
PILES = tuple(PILE_IDS[n] for n in (STOCK, WASTE, *range(FOUNDATION, STOCK), *range(7)))


def engine_pile(name: str) -> int:
    """The engine's pile number of a pile id (``t1`` → 0, ``waste`` → 7, …)."""
    return PILE_NUMBERS[name]


def dest_pile(card: int, dest: str) -> str:
    """The pile a move's destination in notation (``F``, ``1``–``7``) names for ``card``."""
    return PILE_IDS[destination(card, dest)]


def hit(geom: Geometry, placed: dict[int, Place], x: float, y: float) -> tuple[str | None, int | None]:
    """``(pile, index)`` at table point ``(x, y)`` where the cards *are in the game*
    (``placed`` from :func:`places`), whatever an animation shows at that instant:
    the pile whose box holds the point, and the topmost of its cards whose face holds
    it (None on the pile's bare ground); ``(None, None)`` off every pile."""
    for name in PILES:
        bx, by, bw, bh = geom.pile_box(name)
        if bx <= x < bx + bw and by <= y < by + bh:
            best = None
            for p in placed.values():
                if (p.pile == name and bx + p.x <= x < bx + p.x + geom.cw
                        and by + p.y <= y < by + p.y + geom.ch
                        and (best is None or p.index > best)):
                    best = p.index
            return name, best
    return None, None



# ------------------------------------------------------------ keyboard cursor (issue 13)
TOP_ROW = ("stock", "waste", "f1", "f2", "f3", "f4")


def step(geom: Geometry, pos: Piles, pile: str, index: int | None, key: str) -> tuple[str, int | None]:
    """Where the keyboard cursor goes from ``pile`` (card ``index`` in a column) on an
    arrow ``key`` (ArrowLeft/Right/Up/Down), by where the piles stand on the table:
    left and right to the nearest pile of the same row; up and down between a
    column's face-up cards, and between the rows by slot (a column's top card when
    entering it). The index may need clamping to a face-up card (the view does)."""
    if geom.side and not (pile[0] == "t" and key in ("ArrowUp", "ArrowDown")):
        return _nearest(geom, pile, key), None
    row = TOP_ROW if pile in TOP_ROW else tuple(f"t{i}" for i in range(1, 8))
    here = geom.slot(pile)
    if key in ("ArrowLeft", "ArrowRight"):
        sign = -1 if key == "ArrowLeft" else 1
        ahead = [p for p in row if (geom.slot(p) - here) * sign > 0]
        if not ahead:
            return pile, index
        nxt = min(ahead, key=lambda p: abs(geom.slot(p) - here))
        return nxt, None
    if pile[0] == "t":
        i = int(pile[1]) - 1
        cards, down = pos.columns[i], pos.down[i]
        if key == "ArrowDown":
            return pile, (min(index + 1, len(cards) - 1) if index is not None else None)
        if index is not None and index - 1 >= down:
            return pile, index - 1
        if geom.side:  # nothing above the columns: the cursor stays
            return pile, index
        # up from the column's first face-up card: the top row, nearest slot (the waste on a tie)
        return min(TOP_ROW, key=lambda p: (abs(geom.slot(p) - here), p != "waste")), None
    if key == "ArrowDown":
        return f"t{here + 1}", None
    return pile, index


def _nearest(geom: Geometry, pile: str, key: str) -> str:
    """The side layout's cursor: the nearest pile in the arrow's direction, by the
    centres of the piles' top cards (off the arrow's line counts double); ``pile``
    itself when there is none."""
    def centre(name: str) -> tuple[float, float]:
        x, y, w, _ = geom.pile_box(name)
        return x + w / 2, y + geom.ch / 2
    cx, cy = centre(pile)
    dx, dy = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}[key]
    best, score = pile, math.inf
    for name in PILES:
        px, py = centre(name)
        along = (px - cx) * dx + (py - cy) * dy
        if name != pile and along > 1:
            s = along + 2 * abs((px - cx) * dy + (py - cy) * dx)
            if s < score:
                best, score = name, s
    return best
