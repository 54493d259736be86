"""The player's records and statistics (T2, issue 12 item 3; issue 18 item 4):
the rules of ``kosynka.records``, on CPython, without storage."""
from __future__ import annotations

import pytest

from kosynka.game import Game
from kosynka.position import Rules
from kosynka.records import DAILY_KEPT, Records, in_progress, win_percent
from kosynka.variants import key


def test_T2_records_per_variant_wins_only_each_on_its_own():
    r = Records()
    res = r.record_win("d1", 300, 120, assisted=False)
    assert res.new_time and res.new_moves and res.any
    res = r.record_win("d1", 200, 130, assisted=False)
    assert res.new_time and not res.new_moves
    assert r.best("d1") == {"time": 200, "moves": 120}
    assert r.best(key(Rules(3, None))) == {}
    assert r.stats == {"played": 2, "won": 2, "streak": 2, "best_streak": 2, "assisted": 0}


def test_an_abandoned_game_is_played_and_ends_the_streak():
    r = Records()
    for _ in range(3):
        r.record_win("d1", 100, 100, assisted=False)
    r.record_abandon()
    r.record_win("d1", 100, 100, assisted=False)
    assert r.stats == {"played": 5, "won": 4, "streak": 1, "best_streak": 3, "assisted": 0}
    assert win_percent(r.stats) == 80 and win_percent(Records().stats) == 0


def test_issue12_an_assisted_win_counts_apart_and_nowhere_else():
    r = Records()
    r.record_win("d1", 300, 120, assisted=False)
    before = dict(r.stats)
    res = r.record_win("d1", 10, 10, assisted=True, daily="2026-12-01")
    assert not res.any
    assert r.stats == dict(before, assisted=1)
    assert r.best("d1") == {"time": 300, "moves": 120}
    assert r.daily_best("2026-12-01", "d1") == {}


def test_the_deal_of_the_day_keeps_its_own_best_and_its_last_dates():
    r = Records()
    res = r.record_win("d1", 100, 90, assisted=False, daily="2026-11-29")
    assert res.daily_new_time and res.daily_new_moves
    assert r.daily_best("2026-11-29", "d1") == {"time": 100, "moves": 90}
    assert r.daily_best("2026-11-30", "d1") == {}
    for day in range(1, DAILY_KEPT + 5):
        r.record_win("d1", 100, 90, assisted=False, daily=f"2027-{day // 28 + 1:02d}-{day % 28 + 1:02d}")
    assert len(r.daily) == DAILY_KEPT and "2026-11-29" not in r.daily


def test_a_game_is_in_progress_once_a_move_is_made_until_it_is_won():
    from kosynka.solver import verified_deal
    number, res = verified_deal(0, Rules(1, None))
    g = Game.new(number, Rules(1, None))
    assert not in_progress(g) and not in_progress(None)
    g.play(res.moves[0])
    assert in_progress(g)
    for m in res.moves[1:]:
        g.play(m)
    assert g.is_won and not in_progress(g)


@pytest.mark.parametrize("data, ok", [
    ({"best": {"d1": {"time": 5, "moves": 6}}, "daily": {}, "stats": {"played": 1}}, True),
    ({"best": {"d1": {"time": 5, "moves": 6}}, "stats": "zz"}, False),
    ({"best": [], "daily": {}, "stats": {"played": -3, "won": True}}, False),
    ("not records", False),
])
def test_saved_records_are_read_keeping_what_can_be_used(data, ok):
    r, fine = Records.from_json(data)
    assert fine == ok
    assert all(isinstance(v, int) and v >= 0 for v in r.stats.values())
    if isinstance(data, dict) and isinstance(data.get("best"), dict):
        assert r.best("d1") == {"time": 5, "moves": 6}


def test_records_round_trip_and_keep_what_a_newer_version_added():
    r = Records()
    r.record_win("d1", 100, 90, assisted=False, daily="2026-11-29")
    again, ok = Records.from_json(r.to_json())
    assert ok and again.to_json() == r.to_json()
    newer, _ = Records.from_json({"best": {"d1": {"time": 5, "moves": 6, "score": 900}},
                                  "daily": {}, "stats": {}})
    newer.record_win("d1", 3, 9, assisted=False)
    assert newer.best("d1") == {"time": 3, "moves": 6, "score": 900}
