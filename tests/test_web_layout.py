"""The table's layout (web.layout): pile names ↔ engine piles, and taps resolved by
where cards are in the game (issue 9 items 5 and 6). The first paint draws this
layout from data (tools/firstpaint.py): tests/test_first_paint.py and, in the
browser, tests/e2e/test_layout_paint.py."""
import pytest

from kosynka import Game, Position, Rules, parse_card
from kosynka.position import FOUNDATION, STOCK, WASTE
from web import layout


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
    placed = layout.places(g.position, geom)
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
    placed = layout.places(pos, geom)
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
    placed = layout.places(pos, geom)
    xs = [placed[c].x for c in pos.waste]
    assert xs == [0, geom.fan, 2 * geom.fan]


# ------------------------------------------------------------ issue 13: every screen shape, either hand

def _long_column_position():
    """A position whose column 7 holds 18 cards: 6 face down and a K…2 run (12 up)."""
    pos = Position.deal(3)
    cols = [list(c) for c in pos.columns]
    run = [parse_card(r + s) for r, s in zip("KQJT98765432", "shdcshdcshdc", strict=True)]
    # the run's cards leave wherever they were; column 7 keeps its 6 face-down cards
    taken = set(run)
    for i in range(7):
        cols[i] = [c for c in cols[i] if c not in taken]
    cols[6] = cols[6][:6] + run
    stock = [c for c in pos.stock if c not in taken]
    waste = [c for c in pos.waste if c not in taken]
    down = [min(d, len(c) - 1) if c else 0 for d, c in zip(pos.down, cols, strict=True)]
    down[6] = 6
    return type("P", (), {"columns": cols, "down": down, "stock": stock, "waste": waste,
                          "foundations": (0, 0, 0, 0), "fan": 1})()


@pytest.mark.parametrize("size", [(640, 279), (360, 531), (1000, 691), (1000, 971), (200, 200)])
def test_no_column_runs_past_the_table_bottom(size):
    """Issue 13: fans tighten as columns grow, from the longest column, so the
    bottom card of an 18-card column stays above the panel."""
    pos = _long_column_position()
    assert len(pos.columns[6]) == 18
    geom = layout.geometry(*size)
    placed = layout.places(pos, geom)
    bottom = max(geom.col_top + p.y + geom.ch for p in placed.values() if p.pile[0] == "t")
    assert bottom <= max(size[1], layout.N["min_side"])
    # every column uses the same offsets
    fd, fu = layout.table_offsets(pos, geom)
    t1 = [p for p in placed.values() if p.pile == "t1"]
    assert all(p.y == p.index * fd for p in t1 if p.index <= pos.down[0])
    assert fu >= 1 and fd >= 1


def test_landscape_phone_cards_use_the_height():
    """640×360 on its side: cards taller than the old 55 px, within the height."""
    g = layout.geometry(640, 279)
    assert g.ch >= 65 and g.x[-1] + g.cw <= 640


@pytest.mark.parametrize("left", [False, True], ids=["right-handed", "left-handed"])
def test_landscape_puts_the_top_row_beside_the_columns(left):
    """A phone on its side (640×360, table 640×279): the stock and the waste at one
    side, the foundations 2 × 2 at the other, so cards are larger than with the
    top row above (49×69 px) and an 18-card column keeps every rank readable
    (face-up offset ≥ MIN_FU) above the panel."""
    g = layout.geometry(640, 279, left_handed=left)
    assert g.side and g.cw >= 54 and g.col_top == g.top
    boxes = {n: g.pile_box(n) for n in layout.PILES}
    # nothing overlaps, everything inside the table
    for a in layout.PILES:
        ax, ay, aw, ah = boxes[a]
        assert 0 <= ax and ax + aw <= 640 and 0 <= ay and ay + ah <= 279, a
        for b in layout.PILES:
            bx, by, bw, bh = boxes[b]
            if a < b:
                assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)
    sides = (boxes["stock"][0] > boxes["t7"][0], boxes["f1"][0] < boxes["t1"][0])
    assert sides == ((True, True) if left else (False, False))
    assert boxes["waste"][0] == boxes["stock"][0] and boxes["waste"][1] > boxes["stock"][1]
    assert [boxes[f][:2] for f in ("f1", "f2", "f3", "f4")] == [
        (g.sx[1], g.top), (g.sx[2], g.top), (g.sx[1], g.top + g.ch + g.gap), (g.sx[2], g.top + g.ch + g.gap)]
    pos = _long_column_position()
    fd, fu = layout.table_offsets(pos, g)
    assert fu >= layout.MIN_FU
    placed = layout.places(pos, g)
    assert max(g.col_top + p.y + g.ch for p in placed.values() if p.pile[0] == "t") <= 279
    # draw 3: the fan opens downwards, the playable card lowest and hit there
    p3 = Position.deal(1, Rules(3))
    p3.play("D")
    placed = layout.places(p3, g)
    assert [(placed[c].x, placed[c].y) for c in p3.waste] == [(0, 0), (0, g.fan), (0, 2 * g.fan)]
    wx, wy, _, _ = boxes["waste"]
    assert layout.hit(g, placed, wx + 2, wy + 2 * g.fan + 5) == ("waste", 2)


def test_left_handed_mirrors_the_top_row():
    g = layout.geometry(360, 531, left_handed=True)
    r = layout.geometry(360, 531)
    assert g.pile_box("stock")[0] == r.x[6] and g.pile_box("f1")[0] == r.x[0]
    assert [g.slot(f"f{k}") for k in range(1, 5)] == [0, 1, 2, 3]  # ♠ ♥ ♦ ♣ left to right
    wx, _, ww, _ = g.pile_box("waste")
    assert wx + ww == r.x[5] + g.cw  # the waste's right edge is slot 6's
    assert all(g.pile_box(f"t{i}") == r.pile_box(f"t{i}") for i in range(1, 8))
    pos = Position.deal(1, Rules(3))
    pos.play("D")
    placed = layout.places(pos, g)
    # the fan opens to the left: the playable card is the leftmost
    assert [placed[c].x for c in pos.waste] == [2 * g.fan, g.fan, 0]
    x, y = wx + 2, 10
    assert layout.hit(g, placed, x, y) == ("waste", 2)


def test_keyboard_cursor_steps_by_where_piles_stand():
    """Issue 13: arrows move between piles as they stand, and within a column's
    face-up cards."""
    pos = Position.deal(1)
    g = layout.geometry(360, 531)
    step = lambda p, i, k: layout.step(g, pos, p, i, k)  # noqa: E731
    assert step("stock", None, "ArrowRight") == ("waste", None)
    assert step("waste", None, "ArrowRight") == ("f1", None)
    assert step("f4", None, "ArrowRight") == ("f4", None)
    assert step("stock", None, "ArrowLeft") == ("stock", None)
    assert step("f2", None, "ArrowDown") == ("t5", None)
    assert step("t3", 2, "ArrowUp") == ("waste", None)  # slot 2 is empty: the waste
    assert step("t1", 0, "ArrowUp") == ("stock", None)
    assert step("t1", 0, "ArrowRight") == ("t2", None)
    lh = layout.geometry(360, 531, left_handed=True)
    assert layout.step(lh, pos, "f1", None, "ArrowRight") == ("f2", None)
    assert layout.step(lh, pos, "f4", None, "ArrowRight") == ("waste", None)
    assert layout.step(lh, pos, "t7", 6, "ArrowUp") == ("stock", None)
    # within a column: up the face-up cards, then out to the top row
    g2 = Game.new(7)
    for _ in solver_prefix(g2):
        pass
    p = g2.position
    col = next(i for i in range(7) if len(p.columns[i]) - p.down[i] >= 2)
    name, top, down = f"t{col + 1}", len(p.columns[col]) - 1, p.down[col]
    assert layout.step(g, p, name, top, "ArrowUp") == (name, top - 1)
    assert layout.step(g, p, name, top - 1, "ArrowDown") == (name, top)
    assert layout.step(g, p, name, top, "ArrowDown") == (name, top)
    assert layout.step(g, p, name, down, "ArrowUp")[0] in layout.TOP_ROW


def test_keyboard_cursor_in_the_side_layout_goes_where_piles_stand():
    """A phone on its side: the stock and waste at the left, the foundations 2 × 2
    at the right (mirrored for the left hand) — the arrows reach them from the
    columns beside them, and move within the 2 × 2 block."""
    pos = Position.deal(1)
    g = layout.geometry(640, 279)
    step = lambda p, i, k: layout.step(g, pos, p, i, k)  # noqa: E731
    assert step("t1", 0, "ArrowLeft") == ("stock", None)
    assert step("stock", None, "ArrowDown") == ("waste", None)
    assert step("waste", None, "ArrowUp") == ("stock", None)
    assert step("stock", None, "ArrowRight") == ("t1", None)
    assert step("t7", 6, "ArrowRight") == ("f1", None)
    assert step("f1", None, "ArrowRight") == ("f2", None)
    assert step("f2", None, "ArrowDown") == ("f4", None)
    assert step("f3", None, "ArrowLeft") == ("t7", None)
    assert step("t4", 3, "ArrowUp") == ("t4", 3)  # nothing above the columns
    assert step("stock", None, "ArrowLeft") == ("stock", None)
    lh = layout.geometry(640, 279, left_handed=True)
    assert layout.step(lh, pos, "t1", 0, "ArrowLeft") == ("f2", None)
    assert layout.step(lh, pos, "t7", 6, "ArrowRight") == ("stock", None)


def solver_prefix(game, n=40):
    """Play the first ``n`` moves of the deal's winning line (long runs appear)."""
    from kosynka.solver import verified_deal
    _, res = verified_deal(game.number, game.rules)
    for m in res.moves[:n]:
        game.play(m)
        yield m
