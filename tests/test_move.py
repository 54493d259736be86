"""The engine's one move type (issue 28 item 5, python-chess's manner): a frozen,
slotted ``Move`` with its own text, the lazy ``legal_moves`` view, ``Game``
taking a ``Move`` or notation, the solver's ``Verdict`` and every engine error
a ``KosynkaError``."""
import dataclasses
import json

import pytest
from race_helpers import LINE, Table

from kosynka import (
    DRAW,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    KosynkaError,
    Move,
    Position,
    Rules,
    card_name,
)
from kosynka.position import FOUNDATION, PILE_IDS, STOCK, WASTE
from kosynka.solver import NoVerifiedDealError, Verdict, solve


def every_move():
    """Every move with a text: DRAW, and each pile to each other pile."""
    yield DRAW
    for src in range(STOCK):
        for dst in range(STOCK):
            if dst in (src, WASTE):
                continue
            for n in range(1, 14 if src < 7 else 2):
                yield Move(src, dst, n)


def test_move_text_round_trips_and_its_repr_evaluates_back():
    moves = list(every_move())
    assert len(moves) == 1 + 7 * 10 * 13 + 11 + 4 * 10   # DRAW, columns, waste, foundations
    for m in moves:
        assert Move.parse(str(m)) == m
        assert eval(repr(m)) == m
    assert str(Move(0, 3, 1)) == "t1>t4" and str(Move(1, 4, 3)) == "t2>t5:3"
    assert str(Move(WASTE, FOUNDATION + 1, 1)) == "waste>f2" and str(DRAW) == "D"
    assert {str(m).split(">")[0] for m in moves if m != DRAW} == set(PILE_IDS[:STOCK])


@pytest.mark.parametrize("text", ["", "d", "t1>t1", "t1>waste", "t1>t2:1", "t1>t2:14",
                                  "waste>f2:2", "f1>t3:2", "stock>waste", "t8>t1", "Th>4",
                                  " t1>t4", None, 7, ("t1", "t4")])
def test_move_parse_refuses_what_is_not_its_text(text):
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_move_is_frozen_slotted_and_ordered_as_its_fields():
    m = Move(0, 3, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.src = 1  # type: ignore[misc]
    assert not hasattr(m, "__dict__")
    assert m == Move(0, 3, 1) and hash(m) == hash(Move(0, 3, 1)) and m != (0, 3, 1)
    assert sorted([DRAW, Move(7, 8, 1), Move(0, 3, 2), Move(0, 3, 1)]) == [
        Move(0, 3, 1), Move(0, 3, 2), Move(7, 8, 1), DRAW]
    assert Move(12, 7, 0) == DRAW and str(Move(0, 0, 1)) == "Move(0, 0, 1)"  # no text, no crash


def test_legal_moves_view_answers_in_count_and_bool_as_the_moves_it_generates():
    for number in range(20):
        p = Position.deal(number, Rules(3))
        for step in range(40):
            view = p.legal_moves
            listed = list(view)
            assert view.count() == len(listed) and bool(view) == bool(listed)
            assert all(m in view for m in listed)
            assert not any(m in view for m in every_move() if m not in listed)
            assert "D" not in view and (12, 7, 0) not in view  # only a Move is a move
            if not listed:
                break
            p.push(listed[(number + step) % len(listed)])


def test_stateful_iteration_bug_push_and_pop_while_iterating_the_view():
    """python-chess's test_stateful_move_generation_bug: a search pushes and pops
    while it iterates the moves; the moves it gets are those of the position
    the iteration started from."""
    p = Position.deal(5, Rules(3))
    before = list(p.legal_moves)
    seen = []
    for m in p.legal_moves:
        seen.append(m)
        p.push(m)
        list(p.legal_moves)
        p.pop()
    assert seen == before and repr(p.legal_moves).startswith("<LegalMoves (")


def test_game_plays_a_move_as_it_plays_its_notation():
    by_text, by_move = Game.new(11), Game.new(11)
    for _ in range(60):
        legal = by_text.legal_moves()
        if not legal:
            break
        text = legal[len(by_text.log) % len(legal)]
        move = by_move.position.parse_move(text)
        assert by_move.is_legal(move) and by_move.is_legal(text)
        assert by_text.play(text) == by_move.play(move) == move
        assert by_move.log == by_text.log and by_move.score == by_text.score
        assert by_move.last == by_text.last


def test_game_refuses_an_illegal_move_or_a_non_move_and_changes_nothing():
    g = Game.new(0)
    before = g.to_json()
    illegal = next(m for m in every_move() if not g.position.is_legal(m))
    with pytest.raises(IllegalMoveError):
        g.play(illegal)
    with pytest.raises(InvalidMoveError):
        g.play((12, 7, 0))  # type: ignore[arg-type]
    assert not g.is_legal(illegal) and not g.is_legal("Zz>9")
    assert g.to_json() == before


def test_card_moves_are_the_legal_moves_of_that_card_foundation_first():
    g = Game.new(3)
    for _ in range(80):
        p = g.position
        for card in range(52):
            lead = card_name(card) + ">"
            mine = [m for m in p.legal_moves if m != DRAW and p.format_move(m).startswith(lead)]
            moves = g.card_moves(card)
            assert moves == sorted(mine, key=lambda m: (m.dst < FOUNDATION, m.dst))
            assert p.targets(card) == ["F" if m.dst >= FOUNDATION else str(m.dst + 1) for m in moves]
        legal = g.legal_moves()
        if not legal:
            break
        g.play(legal[g.moves % len(legal)])


def test_a_race_player_sends_a_move_as_notation():
    t = Table(friends=1)
    t.start()
    p1 = t.players[0]
    p1.play(p1.game.position.parse_move(LINE[0]))
    t.run()
    assert p1.game.log == [LINE[0]]
    assert t.host.table.member(p1.pid).game.log == [LINE[0]]   # the host read it as notation


def test_the_solvers_verdict_is_an_enum_with_its_word_in_json():
    res = solve(Position.deal(0), max_states=50_000)
    assert res.result is Verdict.WON and res.result == "won"
    assert json.loads(json.dumps(res.to_json()))["result"] == "won"
    assert type(res.to_json()["result"]) is str


def test_every_engine_error_is_a_kosynka_error():
    assert issubclass(NoVerifiedDealError, KosynkaError)
    import kosynka
    import kosynka.challenge
    import kosynka.race.table
    import kosynka.solver
    for mod in (kosynka, kosynka.challenge, kosynka.race.table, kosynka.solver):
        for name in dir(mod):
            obj = getattr(mod, name)
            if isinstance(obj, type) and issubclass(obj, Exception) and obj.__module__.startswith("kosynka"):
                assert issubclass(obj, KosynkaError) or name == "UsageError", name
