"""One test (or more) per rule: R3–R12, F1. Positions are hand-made."""
import pytest
from helpers import cards, make, names

from kosynka import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Position,
    Rules,
    parse_card,
)
from kosynka.picking import finish_moves


def legal(p):
    return names(p, p.legal_moves)


def test_R3_columns_build_down_in_alternating_colour():
    p = make(["Tc", "9h", "9s", "Td"], stock="As")
    assert "9h>1" in legal(p) and "9s>4" in legal(p)
    assert "9h>4" not in legal(p) and "9s>1" not in legal(p)
    with pytest.raises(IllegalMoveError, match="R3"):
        p.play("9h>4")
    with pytest.raises(IllegalMoveError, match="R3"):
        p.play("Td>2")                       # up, not down


def test_R4_a_run_or_any_tail_of_it_moves_together():
    p = make(["Kh Qs Jh Ts", "Kd", "Qh", "Jd"], rest_col=5)
    got = legal(p)
    assert {"Qs>2", "Ts>4", "Kh>5", "Kh>7"} <= got     # whole run, a tail, a King run
    assert "Jh>3" not in got                            # Jh on Qh: same colour
    p.play("Qs>2")
    assert p.columns[:2] == [tuple(cards("Kh")), tuple(cards("Kd Qs Jh Ts"))]
    assert p.format_move(Move(1, 3, 1)) == "Ts>4"


def test_R4_a_tail_that_is_not_a_run_cannot_move():
    p = make(["8s 7h 5c", "9d"], rest_col=5)     # 5c on 7h is not a run
    with pytest.raises(IllegalMoveError, match="R4"):
        p.play("7h>2")
    assert not {"7h>2", "8s>2", "5c>2"} & legal(p)


def test_R5_the_card_under_turns_up_as_part_of_the_move():
    p = make(["Qd 5s", "6h"], down=[1, 0, 0, 0, 0, 0, 0], rest_col=5)
    p.play("5s>2")
    assert p.down[0] == 0 and p.columns[0] == (parse_card("Qd"),)
    p.pop()
    assert p.down[0] == 1                           # pop is exact (Game.undo keeps it up, C5)


def test_R6_an_empty_column_takes_only_a_king():
    p = make(["", "Qh", "Kc Qd"], rest_col=5)
    got = legal(p)
    assert "Kc>1" in got                           # a King at the head of a run
    assert "Qd>1" not in got and "Qh>1" not in got
    with pytest.raises(IllegalMoveError, match="R6"):
        p.play("Qh>1")


def test_R7_foundations_by_suit_one_card_at_a_time_from_top_or_waste():
    p = make(["As", "2h Ah"], waste="Ad", found=(0, 0, 0, 0), rest_col=5)
    got = legal(p)
    assert {"As>F", "Ah>F", "Ad>F"} <= got
    p.play("Ah>F")
    assert p.foundations == [0, 1, 0, 0]
    p = make(["2s Ah", "3d"], found=(1, 0, 0, 0), rest_col=5)
    with pytest.raises(IllegalMoveError, match="R7"):
        p.play("2s>F")                              # 2s carries Ah
    with pytest.raises(IllegalMoveError, match="R7"):
        p.play("3d>F")                              # ♦ foundation needs Ad


def test_R8_the_top_of_a_foundation_may_come_back_onto_a_column():
    p = make(["6h", "Kd"], found=(5, 0, 0, 0), rest_col=5)
    assert "5s>1" in legal(p)
    p.play("5s>1")
    assert p.foundations[0] == 4 and p.columns[0] == tuple(cards("6h 5s"))
    with pytest.raises(IllegalMoveError, match="R8"):
        p.play("3s>2")                              # not the top of the foundation
    p = make(["", "Qh"], found=(13, 0, 0, 0), rest_col=5)
    assert {"Ks>1"} <= legal(p) and "Ks>2" not in legal(p)


def test_R9_draw_one_and_draw_three_with_fan_and_fewer_left():
    p = make(["Kh"], stock="As 2s 3s 4s", rules=Rules(draw=1), rest_col=5)
    p.play("D")
    assert p.waste == tuple(cards("As")) and p.fan == 1
    assert p.stock == tuple(cards("4s 3s 2s"))      # the next card drawn is the last
    p = make(["Kh"], stock="As 2s 3s 4s", rules=Rules(draw=3), rest_col=5)
    p.play("D")
    assert p.format_move(Move(7, 8, 1)) == "3s>F"      # third card drawn is on top
    assert p.waste == tuple(cards("As 2s 3s")) and p.fan == 3
    assert p.stock == tuple(cards("4s"))
    with pytest.raises(IllegalMoveError, match="R9"):
        p.play("2s>F")                              # inside the waste
    p.play("D")                                     # fewer than three left: the rest
    assert p.fan == 1 and p.stock == () and p.waste == tuple(cards("As 2s 3s 4s"))


def test_R9_draw_three_cards_beneath_become_playable_in_turn():
    p = make(["Kh"], stock="As 2c Ac", found=(0, 0, 0, 0), rules=Rules(draw=3), rest_col=5)
    p.play("D")
    assert "Ac>F" in legal(p) and "As>F" not in legal(p)
    p.play("Ac>F")
    assert p.fan == 2
    p.play("2c>F")
    assert p.fan == 1
    p.play("As>F")
    assert p.fan == 0 and not p.waste


def test_R10_redeal_keeps_order_and_counts_against_the_limit():
    p = make(["Kh"], stock="Qs Js", rules=Rules(draw=1, redeals=1), rest_col=5)
    p.play("D"); p.play("D")
    assert not p.stock and p.can_redeal()
    p.play("D")                                     # redeal
    assert p.redeals_used == 1 and not p.waste
    p.play("D")
    assert p.format_move(Move(7, 0, 1)) == "Qs>1"       # same order: Qs first again
    p.play("D")
    with pytest.raises(IllegalMoveError, match="no redeals left"):
        p.play("D")
    assert "D" not in legal(p)
    p2 = make(["Kh", "Qd"], stock="", waste="Js", rules=Rules(1, 0), rest_col=5)
    assert "Js>2" in legal(p2)                      # playable after the last pass


def test_R10_unlimited_redeals_and_empty_talon():
    p = make(["Kh"], stock="", waste="", rest_col=5)
    assert "D" not in legal(p)
    with pytest.raises(IllegalMoveError, match="empty"):
        p.play("D")


def test_R11_rules_are_fixed_and_named():
    assert Rules().name == "Classic, draw 1"
    assert Rules(3).name == "Classic, draw 3"
    assert Rules(3, 2).name == "Turn Three"
    # integers only: 3.0 == 3 and True == 1, yet neither is a count (issue 14 item 5)
    for bad in ((2, None), (1, 4), (1, -1), (True, None), (3.0, None), (1, 2.0), (1, False),
                ("3", None), (1, "2")):
        with pytest.raises(ValueError):
            Rules(*bad)


def test_R12_won_when_all_52_are_on_foundations():
    p = make(["Kc"], found=(13, 13, 13, 12))
    assert not p.is_won
    p.play("Kc>F")
    assert p.is_won


def test_F1_finish_moves_when_won_in_principle():
    p = make(["Kc Qh", "Kh Qc", "Jh", "Jc"], found=(13, 10, 13, 10))
    assert finish_moves(p) == ["Jh>F", "Jc>F", "Qh>F", "Qc>F", "Kh>F", "Kc>F"]
    p = make(["Kc Qh", "Kh Qc"], down=[1, 0, 0, 0, 0, 0, 0], found=(13, 11, 13, 11))
    assert finish_moves(p) is None                 # a card is face down
    p = make(["Kc"], stock="Kh", found=(13, 12, 13, 12))
    assert finish_moves(p) is None                 # stock not empty


def test_F1_on_a_C5_column_that_blocks_itself_is_not_offered():
    # after an undo a column can hold 2h under 3s while 2s sits under 3h
    blocked = make(["Kd Kc Qd Qc Jd Jc Td Tc 9d 9c 8d 8c 7d 7c 6d 6c 5d 5c 4d 4c 3d 3c 2d 2c Ad Ac",
                    "2h 3s", "2s 3h", "Ks Kh Qs Qh Js Jh Ts Th 9s 9h 8s 8h 7s 7h 6s 6h 5s 5h 4s 4h"],
                   found=(1, 1, 0, 0))
    assert finish_moves(blocked) is None


def test_notation_round_trip_on_every_legal_move():
    for n in range(30):
        p = Position.deal(n, Rules(3))
        for _ in range(60):
            moves = list(p.legal_moves)
            if not moves:
                break
            for m in moves:
                assert p.parse_move(p.format_move(m)) == m
            p.push(moves[(n * 7) % len(moves)])


@pytest.mark.parametrize("bad", ["", "d", "Th-4", "Th>8", "Th>0", "Th>f", "Xx>1", "Th>4 ", 17])
def test_bad_notation_is_invalid_move_error(bad):
    with pytest.raises(InvalidMoveError):
        Position.deal(0).parse_move(bad)


def test_face_down_card_cannot_move():
    p = Position.deal(0)
    with pytest.raises(IllegalMoveError, match="face down"):
        p.play("Qs>1")


@pytest.mark.parametrize("data, msg", [
    ({"tableau": [[]] * 7, "stock": []}, "0 cards"),
    ({"tableau": [["As", "As"]] + [[]] * 6, "stock": []}, "twice"),
    ({"tableau": [["As"]] * 6, "stock": []}, "7 columns"),
    ({"stock": []}, "tableau"),
    ({"tableau": [["Zz"]] + [[]] * 6, "stock": []}, "not a card"),
    ("nope", "object"),
])
def test_impossible_positions_are_refused(data, msg):
    with pytest.raises(InvalidPositionError, match=msg):
        Position.from_json(data)


def test_a_53rd_card_and_an_impossible_face_down_count():
    data = Position.deal(3).to_json()
    data["stock"].append(data["stock"][0])
    with pytest.raises(InvalidPositionError, match=f"{data['stock'][0]} appears twice"):
        Position.from_json(data)
    data = Position.deal(3).to_json()
    data["down"] = [1, 1, 2, 3, 4, 5, 6]              # column 1's only card face down
    with pytest.raises(InvalidPositionError, match="face up"):
        Position.from_json(data)


def test_legal_moves_perft_of_pinned_deals():
    """Perft-style counts: leaves at depth 3 from deal 0 and deal 1 (pinned)."""
    def perft(p, depth):
        if depth == 0:
            return 1
        total = 0
        for m in p.legal_moves:
            p.push(m)
            total += perft(p, depth - 1)
            p.pop()
        return total
    assert [perft(Position.deal(n, Rules(r)), 3) for n in (0, 1) for r in (1, 3)] == PERFT


PERFT = [21, 28, 27, 22]
