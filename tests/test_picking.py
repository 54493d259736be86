"""What may be picked up and where it may go (C1, C2, C4 by R4, R8, R9), the F2
assisted mark, and variants/deal numbers from outside (V2, T2): the engine
answers, the page asks (issue 9 item 2)."""
import pytest
from helpers import cards, make

from kosynka import Game, Rules, parse_card, variants
from kosynka.picking import pick_at, pickable, run_with, where
from kosynka.position import FOUNDATION, STOCK, WASTE


def c(name):
    return parse_card(name)


def test_R4_a_column_card_is_picked_with_its_run():
    p = make(["Kh Qs Jh", "9c"], down=[0, 0, 0, 0, 0, 0, 0])
    assert run_with(p, c("Qs")) == tuple(cards("Qs Jh"))
    assert run_with(p, c("Kh")) == tuple(cards("Kh Qs Jh"))
    assert run_with(p, c("Jh")) == (c("Jh"),)
    assert pick_at(p, 0, 1) == c("Qs")


def test_R4_a_card_under_cards_that_are_not_its_run_is_not_picked():
    # C5: after an undo the face-up cards of a column need not form one run
    p = make(["Kh 9c Jh"], down=[0, 0, 0, 0, 0, 0, 0])
    assert run_with(p, c("Kh")) == () and not pickable(p, c("Kh"))
    assert run_with(p, c("9c")) == ()
    assert pickable(p, c("Jh"))
    assert pick_at(p, 0, 0) is None and pick_at(p, 0, 2) == c("Jh")


def test_a_face_down_card_or_the_stock_is_never_picked():
    p = make(["Kh", "7d 9c"], down=[0, 1, 0, 0, 0, 0, 0], stock="2c 3c")
    assert run_with(p, c("7d")) == () and pick_at(p, 1, 0) is None
    assert run_with(p, c("2c")) == () and pick_at(p, STOCK, 0) is None
    assert pick_at(p, 1, None) is None and pick_at(p, 2, 0) is None  # bare or empty column


def test_R9_only_the_top_waste_card_and_a_tap_anywhere_on_the_waste_picks_it():
    p = make(["Kh"], waste="4c 5d 6s", rules=Rules(3), fan=3)
    assert run_with(p, c("6s")) == (c("6s"),)
    assert run_with(p, c("5d")) == () and not pickable(p, c("4c"))
    assert pick_at(p, WASTE, 0) == c("6s") == pick_at(p, WASTE, None)
    assert pick_at(make(["Kh"]), WASTE, None) is None


def test_R8_only_the_top_foundation_card():
    p = make(["Kh"], found=(3, 0, 0, 0))
    assert run_with(p, c("3s")) == (c("3s"),)
    assert run_with(p, c("2s")) == ()
    assert pick_at(p, FOUNDATION, 1) == c("3s")
    assert pick_at(p, FOUNDATION + 1) is None  # an empty foundation


def test_C4_targets_are_every_legal_destination():
    p = make(["Kh", "Qs", "Jd", "", "Ks"], found=(0, 0, 10, 0))
    assert p.targets(c("Qs")) == ["1"]
    assert p.targets(c("Jd")) == ["F", "2"]
    assert p.targets(c("Ks")) == ["4", "6"]
    assert p.targets(c("Kh")) == ["4", "6"]
    g = Game.from_position(p)
    assert g.targets("Jd") == ["F", "2"] and g.targets("Zz") == []


def test_where_names_pile_and_index():
    p = make(["Kh Qs"], down=[0] * 7, stock="2c 3c", waste="4c", found=(1, 0, 0, 0))
    assert where(p, c("Qs")) == (0, 1)
    assert where(p, c("4c")) == (WASTE, 0)
    assert where(p, c("2c")) == (STOCK, 1)  # the first card drawn is the stock's last
    assert where(p, c("As")) == (FOUNDATION, 0)


def test_a_won_game_picks_nothing():
    p = make([], found=(13, 13, 12, 13), waste="Kd")
    g = Game.from_position(p)
    g.play("Kd>F")
    assert g.is_won and g.pick_at(FOUNDATION, 12) is None and g.run_with(c("Ks")) == ()


def test_F2_a_solver_move_before_F1_marks_the_game_assisted():
    g = Game.from_position(make(["Kh", "Qs"], stock="As", rest_col=5))
    g.play("Qs>1", assisted=False)
    assert not g.assisted
    g.play("D", assisted=True)
    assert g.assisted and not g.sets_record


def test_F2_solver_moves_once_F1_applies_are_not_assisted():
    g = Game.from_position(make([], found=(13, 13, 13, 12), waste="Kc"))
    g.play("Kc>1")
    assert g.auto_finish_available
    g.play("Kc>F", assisted=True)
    assert g.is_won and not g.assisted and g.sets_record


def test_F2_an_illegal_solver_move_changes_nothing():
    g = Game.from_position(make(["Kh"], stock="As", rest_col=5))
    with pytest.raises(ValueError):
        g.play("Qs>2", assisted=True)
    assert not g.assisted and g.moves == 0


# ------------------------------------------------------------ variants (T2, V2)

@pytest.mark.parametrize("rules,k", [(Rules(1), "d1"), (Rules(3), "d3"), (Rules(3, 2), "d3r2"),
                                     (Rules(1, 0), "d1r0")])
def test_T2_variant_key_round_trip(rules, k):
    assert variants.key(rules) == k
    assert variants.from_key(k) == rules


@pytest.mark.parametrize("bad", ["", "d2", "d1r4", "d3r", "D1", "d1 ", "d1r2x", None, 13])
def test_variant_key_refused(bad):
    with pytest.raises(ValueError):
        variants.from_key(bad)


@pytest.mark.parametrize("text,n", [("0", 0), ("42", 42), ("2147483648", 2**31),
                                    ("18446744073709551615", 2**64 - 1)])
def test_V2_deal_numbers_cover_the_engines_range(text, n):
    assert variants.parse_number(text) == n


@pytest.mark.parametrize("bad", ["", "-1", "18446744073709551616", "1e3", "0x10", " 7", "7.0",
                                 "٣", "9" * 40, None, 7])
def test_V2_bad_deal_numbers_refused(bad):
    with pytest.raises(ValueError):
        variants.parse_number(bad)


def test_V2_variant_from_link_fields():
    assert variants.from_text(None, None) == Rules(1)
    assert variants.from_text("3", "2") == Rules(3, 2)
    assert variants.from_text("3", "u") == variants.from_text("3", "") == Rules(3)
    for draw, red in (("2", None), ("1", "4"), ("1", "-1"), ("x", None), ("1", "1.0")):
        with pytest.raises(ValueError):
            variants.from_text(draw, red)


def test_variant_from_json_fields():
    assert variants.from_fields(3, 2) == Rules(3, 2)
    assert variants.from_fields(1, None) == Rules(1)
    for draw, red in ((True, None), (1, False), ("1", None), (None, None), (2, None), (1, 4)):
        with pytest.raises(ValueError):
            variants.from_fields(draw, red)
