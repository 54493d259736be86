"""The table's layout (web.layout): one set of numbers for the page and the first
paint, pile names ↔ engine piles, and taps resolved by where cards are in the game
(issue 9 items 5 and 6). The browser side of the comparison with paint.js is
tests/e2e/test_layout_paint.py."""
import json
import re
from pathlib import Path

import pytest

from kosynka import Game, Position, Rules, parse_card
from kosynka.position import FOUNDATION, STOCK, WASTE

from web import layout

PAINT_JS = Path(__file__).resolve().parents[1] / "web" / "boot" / "paint.js"


def test_paint_js_carries_the_layout_numbers():
    text = PAINT_JS.read_text(encoding="utf-8")
    m = re.search(r"// LAYOUT: generated from web/layout.py NUMBERS.*?\n\s*var N = (\{.*?\});\n\s*// END LAYOUT",
                  text, re.S)
    want = "  var N = " + json.dumps(layout.NUMBERS, sort_keys=True) + ";"
    assert m, "paint.js lost its LAYOUT markers"
    assert json.loads(m.group(1)) == layout.NUMBERS, f"paste into web/boot/paint.js:\n{want}"


def test_pile_names_and_engine_piles():
    assert [layout.engine_pile(n) for n in layout.PILES] == [
        STOCK, WASTE, FOUNDATION, FOUNDATION + 1, FOUNDATION + 2, FOUNDATION + 3, 0, 1, 2, 3, 4, 5, 6]
    assert layout.dest_pile(parse_card("Qd"), "F") == "f3"
    assert layout.dest_pile(parse_card("Qd"), "4") == "t4"


def test_round_is_half_up_like_javascript():
    assert [layout._round(x) for x in (0.5, 1.5, 2.5, 16.5, 16.49)] == [1, 2, 3, 17, 16]


def _centre_of(geom, placed, card, dy=None):
    p = placed[card]
    bx, by, _, _ = geom.pile_box(p.pile)
    return bx + p.x + geom.cw / 2, by + p.y + (geom.ch / 2 if dy is None else dy)


@pytest.mark.parametrize("size", [(360, 520), (1280, 700), (200, 200)])
def test_hit_finds_every_face_up_card_where_the_game_has_it(size):
    g = Game.new(7)
    for move in ("D", "D", "D"):
        g.play(move)
    geom = layout.geometry(*size)
    placed = layout.places(g.position, geom, lambda r, s: r * 4 + s)
    for card, p in placed.items():
        if not p.up or (p.pile == "waste" and card != g.position.waste[-1]):
            continue  # face down, or covered by the waste's top card (draw 1)
        # a column card is touched on the strip the next card leaves visible
        x, y = _centre_of(geom, placed, card, dy=2 if p.pile[0] == "t" else None)
        pile, index = layout.hit(geom, placed, x, y)
        assert (pile, index) == (p.pile, p.index), card


def test_hit_on_bare_ground_and_off_every_pile():
    geom = layout.geometry(360, 520)
    pos = Position.deal(1)
    placed = layout.places(pos, geom, lambda r, s: r * 4 + s)
    x, y, w, h = geom.pile_box("t1")
    assert layout.hit(geom, placed, x + 2, y + h - 2) == ("t1", None)  # under the column's cards
    fx, fy, _, _ = geom.pile_box("f2")
    assert layout.hit(geom, placed, fx + 2, fy + 2) == ("f2", None)  # an empty foundation
    assert layout.hit(geom, placed, 0.5, 0.5) == (None, None)  # the margin


def test_long_columns_close_up_but_stay_readable():
    # a column of 6 face-down and 13 face-up cards on a short phone table
    geom = layout.geometry(360, 420)
    fd, fu = layout.column_offsets(6, 13, geom)
    assert fu >= layout.MIN_FU and fd >= layout.MIN_FD // 2
    assert fd <= geom.fd and fu <= geom.fu


def test_draw3_waste_fans_its_playable_cards():
    pos = Position.deal(1, Rules(3))
    pos.play("D")
    geom = layout.geometry(360, 520)
    placed = layout.places(pos, geom, lambda r, s: r * 4 + s)
    xs = [placed[c].x for c in pos.waste]
    assert xs == [0, geom.fan, 2 * geom.fan]
