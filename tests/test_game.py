"""T1 moves, S1–S3 score, C5 undo, the clock, and the saved game (P1)."""
import json

import pytest
from helpers import make

from kosynka import Game, IllegalMoveError, Rules, SaveError, parse_card
from kosynka.game import win_bonus


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def game_of(p, clock=None):
    return Game.from_position(p, clock=clock or Clock())


def test_T1_every_action_counts_as_a_move():
    g = game_of(make(["Kh", "Qs", "As"], stock="2c 3c", rest_col=5))
    g.play("D")                      # draw
    g.play("Qs>1")                   # card move
    g.undo()                         # undo
    g.play("As>F")
    g.play("D"); g.play("D")         # draw, redeal
    assert g.moves == 6
    with pytest.raises(IllegalMoveError):
        g.play("Qs>3")
    assert g.moves == 6              # an illegal move counts nothing


def test_S1_score_of_each_kind_of_move():
    g = game_of(make(["Kh", "8d Qs", "As", "Jd", "Tc"], down=[0, 1, 0, 0, 0, 0, 0],
                     stock="9h", found=(0, 0, 0, 7), rest_col=5))
    g.play("As>F");  assert g.score == 10                  # to foundation
    g.play("Qs>1");  assert g.score == 15                  # column → column 0, flip +5
    g.play("D");     assert g.score == 15                  # draw 0
    g.play("9h>5");  assert g.score == 20                  # waste → column +5
    g.play("7c>2");  assert g.score == 5                   # foundation → column −15
    g.play("7c>F");  assert g.score == 15                  # to foundation again +10


def test_S1_to_foundation_and_a_flip_add_up_to_15():
    g = game_of(make(["Kd As"], down=[1, 0, 0, 0, 0, 0, 0], rest_col=5))
    g.play("As>F")
    assert g.score == 15


def test_S1_first_redeal_free_each_later_minus_20_and_S3_floor_at_zero():
    g = game_of(make(["Kh"], stock="Qs", found=(1, 0, 0, 0), rest_col=5))
    g.play("D"); g.play("D")          # redeal 1: free
    assert g.score == 0
    g.play("D"); g.play("D")          # redeal 2: −20, floored at 0
    assert g.score == 0
    g.undo()
    assert g.score == 0


def test_S3_undo_restores_exact_score_with_no_penalty():
    g = game_of(make(["Kh", "Qs", "As"], stock="Jd", rest_col=5))
    g.play("As>F"); g.play("D"); g.play("D"); g.play("D")  # 10, draw, redeal free, draw
    g.play("D")                                         # second redeal: 10 − 20 → 0
    assert g.score == 0
    g.undo()
    assert g.score == 10                                # exactly what the redeal cost
    g.undo(); g.undo(); g.undo(); g.undo()
    assert g.moves == 10
    assert g.score == 0                                 # As back off the foundation


def test_S2_win_bonus():
    assert win_bonus(0) == 1100 and win_bonus(29.9) == 1100
    assert win_bonus(30) == 1100 and win_bonus(31) == 100 + 967
    assert win_bonus(300) == 200 and win_bonus(300.9) == 200
    assert win_bonus(100000) == 100


def test_S2_win_adds_bonus_and_stops_the_clock():
    clock = Clock()
    g = game_of(make(["Kc"], found=(13, 13, 13, 12)), clock)
    clock.t += 5
    g.play("Kc>F")                 # clock starts at the first move: 0 s elapsed
    assert g.is_won and g.score == 10 + 1100
    clock.t += 50
    assert g.elapsed() == 0
    with pytest.raises(IllegalMoveError):
        g.undo()


def test_clock_starts_at_first_move_and_pauses():
    clock = Clock()
    g = Game.new(0, clock=clock)
    clock.t += 10
    assert g.elapsed() == 0
    g.play("D")
    clock.t += 3
    assert g.elapsed() == 3
    g.pause(); clock.t += 100; g.resume(); clock.t += 1
    assert g.elapsed() == 4


def test_C5_undo_keeps_the_revealed_card_up_and_rules_stay_right():
    g = game_of(make(["Kd 4c 8s", "9h", "", "5h"], down=[2, 0, 0, 0, 0, 0, 0], rest_col=4))
    g.play("8s>2")                   # 4c turns up (+5)
    assert g.position.down[0] == 1 and g.score == 5
    g.undo()
    col = g.position.columns[0]
    assert g.position.down[0] == 1 and [c for c in col[1:]] == [parse_card("4c"), parse_card("8s")]
    assert g.score == 0
    # 8s on 4c is not a run: 4c cannot carry 8s, 8s still moves alone
    assert "4c>4" not in g.legal_moves() and "8s>2" in g.legal_moves()
    g.play("8s>2")
    assert g.score == 0              # no second flip bonus: nothing turned up
    g.play("4c>4")                   # now 4c is the top: black 4 on red 5
    assert g.position.down[0] == 0 and g.score == 5   # Kd turns up: a real flip


def test_C5_undo_all_the_way_keeps_every_reveal():
    g = Game.new(0)
    g.play("2c>2"); g.play("8s>6")
    g.undo(); g.undo()
    assert g.position.down == [0, 1, 1, 2, 4, 5, 6]
    assert g.moves == 4 and g.score == 0 and not g.can_undo


def test_targets_and_F1_on_game():
    g = game_of(make(["Kc Qh", "Kh Qc", "Jh", "Jc"], found=(13, 10, 13, 10)))
    assert g.targets("Jh") == ["F", "2"] and g.targets("Kc") == ["5", "6", "7"] and g.targets("Qc") == []
    assert g.auto_finish_available
    for m in g.finish_moves():
        g.play(m)
    assert g.is_won and g.moves == 6 and not g.auto_finish_available


# ---------------------------------------------------------------- P1: save
def played_game():
    g = Game.new(0, Rules(3, 2), clock=Clock())
    for m in ["2c>2", "8s>6", "D", "D", "U", "D"]:
        g.undo() if m == "U" else g.play(m)
    g.assisted = True
    return g


def test_P1_save_round_trips_exactly():
    g = played_game()
    g.clock.t += 42.5
    h = Game.from_json(g.to_json(), clock=Clock())
    assert h.position == g.position and h.position.fan == g.position.fan
    assert (h.number, h.rules, h.moves, h.score, h.log, h.assisted) == \
           (g.number, g.rules, g.moves, g.score, g.log, g.assisted)
    assert h.elapsed() == pytest.approx(42.5)
    h.undo(); g.undo()
    assert h.position == g.position                 # undo history survives


@pytest.mark.parametrize("seconds, score", [(0, 1110), (59.9999, 10 + 100 + 508)])
def test_P1_save_of_a_won_game_keeps_the_score(seconds, score):
    clock = Clock()
    g = game_of(make(["Kd", "Kc"], found=(13, 13, 12, 12)), clock)
    g.play("Kd>F")
    clock.t += seconds
    g.play("Kc>F")
    h = Game.from_json(g.to_json())
    assert h.is_won and h.score == g.score == 10 + score


def corrupt(doc: str, **changes) -> str:
    d = json.loads(doc)
    d.update(changes)
    return json.dumps(d)


def old_save(doc: str, **changes) -> str:
    """The document as saves before ``elapsed_ms`` had it (seconds, 3 decimals)."""
    d = json.loads(doc)
    d["elapsed"] = d.pop("elapsed_ms") / 1000
    d.update(changes)
    return json.dumps(d)


@pytest.mark.parametrize("mutate, msg", [
    (lambda s: s[: len(s) // 2], "not valid JSON"),
    (lambda s: "", "not valid JSON"),
    (lambda s: "[1, 2]", "not a Kosynka"),
    (lambda s: corrupt(s, v=2), "newer"),
    (lambda s: corrupt(s, v="x"), "unknown schema"),
    (lambda s: corrupt(s, log="2c>2 Qs>1"), "impossible"),
    (lambda s: corrupt(s, log="U"), "impossible"),
    (lambda s: corrupt(s, number=1), "does not match deal"),
    (lambda s: corrupt(s, score=999), "score"),
    (lambda s: corrupt(s, elapsed_ms=-1), "elapsed"),
    (lambda s: corrupt(s, elapsed_ms=1.5), "elapsed"),
    (lambda s: corrupt(s, elapsed_ms=True), "elapsed"),
    (lambda s: old_save(s, elapsed=-1), "elapsed"),
    (lambda s: old_save(s, elapsed=float("inf")), "elapsed"),
    (lambda s: corrupt(s, v=True), "unknown schema"),           # true == 1 in Python
    (lambda s: corrupt(s, rules={"draw": 3.0, "redeals": 2}), "draw must be"),
    (lambda s: corrupt(s, rules={"draw": 3, "redeals": 2.0}), "redeals must be"),
    (lambda s: "[" * 1000 + "]" * 1000, "nested too deep"),
    (lambda s: "[" * 100_000, "nested too deep"),
    (lambda s: s.replace('"rules":', '"rules":' + "[" * 900, 1).replace(
        ',"deal":', "]" * 900 + ',"deal":', 1), "rules must be"),
    (lambda s: corrupt(s, rules={"draw": 2}), "malformed"),
    (lambda s: corrupt(s, deal={"tableau": [["As", "As"]], "stock": []}), "inconsistent"),
    (lambda s: corrupt(s, position={"tableau": [[]] * 7}), "inconsistent"),
    (lambda s: s.replace('"Qd"', '"Qd","Qd"', 1), "inconsistent"),
])
def test_P1_bad_documents_raise_one_clear_error(mutate, msg):
    with pytest.raises(SaveError, match=msg):
        Game.from_json(mutate(played_game().to_json()))


# ---------------------------------------------------------------- the clock, saved
@pytest.mark.parametrize("ms", [0, 1, 291, 1001, 4_123, 59_999, 86_399_999, 10**10 + 7])
def test_P1_elapsed_time_round_trips_to_the_millisecond(ms):
    # 0.291 s was saved as 0.29 after one load: floor(0.291 * 1000) == 290
    doc = corrupt(played_game().to_json(), elapsed_ms=ms)
    for _ in range(3):
        g = Game.from_json(doc, clock=Clock())          # a stopped clock: no time passes
        assert g.elapsed_ms() == ms and g.elapsed() == ms / 1000
        doc = g.to_json()
    assert json.loads(doc)["elapsed_ms"] == ms


@pytest.mark.parametrize("seconds, ms", [(0.291, 291), (42.5, 42_500), (0.0, 0), (7, 7_000)])
def test_P1_saves_before_elapsed_ms_still_load_exactly(seconds, ms):
    g = Game.from_json(old_save(played_game().to_json(), elapsed=seconds), clock=Clock())
    assert g.elapsed_ms() == ms
    assert json.loads(g.to_json())["elapsed_ms"] == ms


def test_a_move_or_an_undo_resumes_a_paused_clock():
    """Decision: a player who moves is back, so any action restarts the clock."""
    clock = Clock()
    g = Game.new(0, clock=clock)
    g.play("D")
    clock.t += 5
    g.pause()
    clock.t += 100                   # hidden: does not count
    g.play("D")
    clock.t += 2
    assert g.elapsed() == 7
    g.pause()
    clock.t += 100
    g.undo()
    clock.t += 1
    assert g.elapsed() == 8


def test_the_running_clock_counts_whole_milliseconds_never_rounding_up():
    clock = Clock()
    g = Game.new(0, clock=clock)
    g.play("D")
    clock.t += 1.9999
    assert g.elapsed_ms() == 1_999
    g.pause()
    assert g.elapsed() == 1.999
