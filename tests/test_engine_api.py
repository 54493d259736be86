"""The engine's API as python-chess would have it (issue 22 item 3): one error
base class, is_legal, an Outcome, pop(keep_revealed=True) for the player's undo
(C5), redeals left (R10), pile ids."""
from __future__ import annotations

import pytest
from helpers import cards, make

from kosynka import (
    DRAW,
    Game,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidPositionError,
    KosynkaError,
    Move,
    Outcome,
    Position,
    Rules,
    SaveError,
    Termination,
    parse_card,
)
from kosynka.messages import MessageError, Protocol
from kosynka.position import PILE_IDS, PILE_NUMBERS, STOCK, WASTE, destination


@pytest.mark.parametrize("bad", [
    lambda: parse_card("1x"),
    lambda: Position.deal(0).parse_move("Zz>9"),
    lambda: Position.deal(0).play("Qd>F"),
    lambda: Position.from_json({"tableau": [], "stock": []}),
    lambda: Game.from_json("{"),
    lambda: Protocol("demo", 1, {}).parse("[]"),
], ids=["card", "notation", "illegal", "position", "save", "message"])
def test_every_refusal_is_a_kosynka_error_and_still_a_value_error(bad):
    with pytest.raises(KosynkaError) as e:
        bad()
    assert isinstance(e.value, ValueError)
    assert isinstance(e.value, (InvalidCardError, InvalidMoveError, IllegalMoveError,
                                InvalidPositionError, SaveError, MessageError))


def test_is_legal_takes_moves_and_refuses_garbage():
    p = Position.deal(0)
    assert p.is_legal(DRAW)
    assert all(p.is_legal(m) and m in p.legal_moves for m in p.legal_moves)
    for junk in [(0, 1), (0, 1, 1, 1), ("0", 1, 1), (0, 1.0, 1), (True, 1, 1), (0, 1, -1), None,
                 (12, 7, 0), Move("0", 1, 1), Move(0, 1.0, 1), Move(True, 1, 1), Move(0, 1, -1),  # type: ignore[arg-type]
                 Move(13, 0, 1), Move(0, 99, 1)]:
        assert not p.is_legal(junk)  # type: ignore[arg-type]


def test_redeals_left_counts_down_and_is_none_when_unlimited():
    assert make(rules=Rules(3, 2), redeals_used=1, waste="5h").redeals_left == 1
    assert make(rules=Rules(3, 2), redeals_used=2, waste="5h").redeals_left == 0
    assert make(rules=Rules(1), redeals_used=7, waste="5h").redeals_left is None


def test_pop_keeps_a_revealed_card_up_only_when_asked():
    p = make(["Ks 9h", "Tc"], down=[1, 0, 0, 0, 0, 0, 0])
    p.push(p.parse_move("9h>2"))         # turns the King up (R5)
    q = p.copy(stack=True)
    p.pop()
    q.pop(keep_revealed=True)             # C5: the player's undo
    assert p.down[0] == 1 and q.down[0] == 0
    assert p.columns == q.columns


def test_game_undo_keeps_the_revealed_card_up():
    g = Game.from_position(make(["Ks 9h", "Tc"], down=[1, 0, 0, 0, 0, 0, 0]))
    g.play("9h>2")
    g.undo()
    assert g.position.down[0] == 0 and g.position.columns[0] == (parse_card("Ks"), parse_card("9h"))


def test_pile_ids_name_the_engine_piles():
    assert PILE_IDS[0] == "t1" and PILE_IDS[6] == "t7"
    assert PILE_IDS[WASTE] == "waste" and PILE_IDS[STOCK] == "stock"
    assert [PILE_IDS[8 + s] for s in range(4)] == ["f1", "f2", "f3", "f4"]  # ♠ ♥ ♦ ♣
    assert all(PILE_NUMBERS[name] == i for i, name in enumerate(PILE_IDS))
    assert destination(parse_card("Qd"), "F") == 10 and destination(parse_card("Qd"), "4") == 3


# -------------------------------------------------------------- outcome
# every card face down under tops that fit nowhere (no Ace, no 3, no 6 on top)
STUCK_TOPS = ["2s", "2h", "2d", "2c", "5s"]


def _build(cols, down=None, stock="", waste="", rules=Rules(), redeals_used=0) -> Position:
    """``cols`` first (``down``: their face-down counts), then five columns with a
    top card that plays nowhere and every other card face down under them."""
    used = set(cards(" ".join(cols) + " " + stock + " " + waste + " " + " ".join(STUCK_TOPS)))
    rest = [c for c in range(52) if c not in used]
    columns = [cards(c) for c in cols]
    downs = list(down or [0] * len(columns))
    piles = len(STUCK_TOPS)
    for k, top in enumerate(STUCK_TOPS):
        under = rest[k::piles]
        columns.append(under + cards(top))
        downs.append(len(under))
    while len(columns) < 7:
        columns.append([])
        downs.append(0)
    return Position(columns, downs, stock=cards(stock)[::-1], waste=cards(waste),
                    rules=rules, redeals_used=redeals_used)


def test_outcome_won():
    p = Position([[]] * 7, [0] * 7, foundations=(13, 13, 13, 13))
    assert p.outcome() == Outcome(Termination.WON) and p.outcome().won


def test_outcome_no_legal_move_left():
    p = _build(["9c", "9s"])
    assert list(p.legal_moves) == [] and not p.legal_moves and p.legal_moves.count() == 0
    assert p.outcome() == Outcome(Termination.NO_MOVES)
    assert not p.outcome().won


def test_outcome_dead_end_when_only_a_king_shuffles_between_empty_columns():
    p = _build(["Kh"])
    assert p.legal_moves                         # the King may go to another empty column
    assert p.outcome() == Outcome(Termination.DEAD_END)


@pytest.mark.parametrize("rules,used", [(Rules(1, 1), 1), (Rules(3, 2), 0), (Rules(1), 5)],
                         ids=["redeals-exhausted", "redeals-left", "unlimited"])
def test_outcome_dead_end_when_no_card_of_the_talon_ever_plays(rules, used):
    p = _build(["Kh"], stock="9c 8c 9s", waste="7c", rules=rules, redeals_used=used)
    assert p.outcome() == Outcome(Termination.DEAD_END)


def test_no_outcome_while_a_card_of_the_talon_can_still_play():
    p = _build(["Kh"], stock="9c 8c Qs 9s", rules=Rules(1, 0))  # Qs goes on Kh, after two draws
    assert p.outcome() is None


def test_no_outcome_while_a_face_down_card_can_turn_up():
    p = _build(["9d Kh"], down=[1], rules=Rules(1, 0))  # Kh to an empty column turns 9d up
    assert p.outcome() is None


def test_outcome_of_a_fresh_deal_is_none_and_a_search_limit_says_nothing():
    assert Position.deal(0).outcome() is None
    assert _build(["Kh"]).outcome(max_positions=1) is None


def test_game_outcome():
    g = Game.from_position(_build(["9c", "9s"]))
    assert g.outcome() == Outcome(Termination.NO_MOVES)
    assert Game.new(0).outcome() is None
