"""What the race keeps in the browser (``web.race.stored``; issues 11, 19, 28):
each value in its own format under ``web.store``'s keys, a bad one read as
unset, blocked storage costing nothing but the memory."""

from __future__ import annotations

import json

from web.race.stored import SEATS_KEPT, USED_KEPT, RaceStore
from web.store import (
    RACE_ICE_KEY,
    RACE_SEAT_KEY,
    RACE_SEATS_KEY,
    RACE_SETTINGS_KEY,
    RACE_SPEED_KEY,
    RACE_USED_KEY,
    MemoryBackend,
)


class Blocked:
    """Storage the browser blocks: every call throws."""

    def get(self, key: str) -> str | None:
        raise RuntimeError("SecurityError")

    set = remove = get  # type: ignore[assignment]


def store() -> tuple[RaceStore, MemoryBackend, MemoryBackend]:
    local, session = MemoryBackend(), MemoryBackend()
    return RaceStore(local, session), local, session


def test_settings_default_and_kept():
    s, local, _ = store()
    assert s.settings() == {"draw": 1, "minutes": None}
    s.save_settings({"draw": 3, "minutes": 10})
    assert json.loads(local.get(RACE_SETTINGS_KEY)) == {"draw": 3, "minutes": 10}
    assert s.settings() == {"draw": 3, "minutes": 10}
    for bad in ("{", "[]", '{"draw": 2, "minutes": 5}', '{"draw": 1, "minutes": 7}'):
        local.set(RACE_SETTINGS_KEY, bad)
        assert s.settings() == {"draw": 1, "minutes": None}


def test_name_ice_and_speed():
    s, local, _ = store()
    assert s.name() == "" and s.ice() is None
    s.set_name("Vira")
    s.save_ice([{"urls": "stun:x"}])
    assert s.name() == "Vira" and json.loads(local.get(RACE_ICE_KEY)) == [{"urls": "stun:x"}]
    for text, speed in (("10", 10.0), ("0.5", 1.0), ("5000", 1.0), ("fast", 1.0), ("", 1.0)):
        local.set(RACE_SPEED_KEY, text)
        assert s.test_speed() == speed


def test_seats_per_table_newest_kept():
    s, local, _ = store()
    for table in range(SEATS_KEPT + 3):
        s.keep_seat(table, 1, f"tok{table}", 100)
    seats = json.loads(local.get(RACE_SEATS_KEY))
    assert list(seats) == [str(t) for t in range(3, SEATS_KEPT + 3)]
    assert s.seat_of(0) is None and s.seat_of(5) == {"pid": 1, "token": "tok5", "at": 100}
    s.keep_seat(5, 1, "tok5", 200)                      # the same seat: nothing rewritten
    assert s.seat_of(5)["at"] == 100
    local.set(RACE_SEATS_KEY, '{"5": {"pid": "1", "token": "t"}}')
    assert s.seat_of(5) is None                         # not a seat: none


def test_this_tabs_way_back():
    s, _, session = store()
    assert s.tab_seat() is None and s.tab_table_code() is None
    s.keep_tab_seat({"table": 1, "pid": 2, "token": "t", "host": "Anna"})
    assert s.tab_seat()["pid"] == 2 and s.tab_table_code() is None
    s.keep_tab_seat({"code": "abc"})
    assert s.tab_table_code() == "abc" and s.tab_seat() is None
    s.keep_tab_seat(None)
    assert session.get(RACE_SEAT_KEY) is None


def test_invites_answered():
    s, local, _ = store()
    assert not s.used("1:2:ab")
    for i in range(USED_KEPT + 1):
        s.mark_used(f"1:{i}:ab")
    assert not s.used("1:0:ab") and s.used(f"1:{USED_KEPT}:ab")
    local.set(RACE_USED_KEY, "null")
    assert not s.used("1:2:ab")
    s.mark_used("1:2:ab")
    assert s.used("1:2:ab")


def test_blocked_storage_just_does_not_remember():
    s = RaceStore(Blocked(), Blocked())
    s.set_name("Vira")
    s.save_settings({"draw": 3, "minutes": None})
    s.keep_seat(1, 1, "t", 0)
    s.keep_tab_seat({"code": "x"})
    s.mark_used("k")
    assert (s.name(), s.settings(), s.seat_of(1), s.tab_table_code(), s.used("k"),
            s.test_speed()) == ("", {"draw": 1, "minutes": None}, None, None, False, 1.0)


def test_a_value_too_deep_to_read_safely_is_unset():
    s, local, session = store()
    deep = "[" * 10_000 + "]" * 10_000          # Pyodide's runtime dies parsing this
    for key in (RACE_SEATS_KEY, RACE_SETTINGS_KEY, RACE_USED_KEY, RACE_ICE_KEY):
        local.set(key, deep)
    session.set(RACE_SEAT_KEY, deep)
    assert (s.seat_of(1), s.settings(), s.used("k"), s.tab_seat()) == (
        None, {"draw": 1, "minutes": None}, False, None)
    s.keep_seat(1, 1, "t", 0)
    assert s.seat_of(1)["token"] == "t"
