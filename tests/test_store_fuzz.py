"""Issue 32 item 7: stored data never stops the page and never loses more than the
damaged key — a fuzz of every stored-data reader (tests/store_fuzz.py) on CPython
and in the vendored Pyodide (through node), and the findings that started it as
regression tests (P1, P2, T2)."""

import json
import os
import subprocess

import pytest
import store_fuzz

from kosynka.game import Game, SaveError
from kosynka.position import Rules
from kosynka.records import Records
from web import sheets
from web.store import (
    GAME_KEY,
    RECORDS_KEY,
    SETTINGS_KEY,
    MemoryBackend,
    Settings,
    Store,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYODIDE = os.path.join(ROOT, "web", "vendor", "pyodide")


def test_issue32_fuzz_of_every_stored_reader_finds_nothing_on_cpython():
    assert store_fuzz.run(seed=1, rounds=300) == []


RUN_IN_PYODIDE = """
const {loadPyodide} = await import(process.argv[1] + "/pyodide.mjs");
const py = await loadPyodide({indexURL: process.argv[1] + "/"});
py.FS.mkdir("/repo");
py.FS.mount(py.FS.filesystems.NODEFS, {root: process.argv[2]}, "/repo");
console.log(py.runPython(`
import sys, json
sys.path[:0] = ["/repo", "/repo/tests"]
import store_fuzz
json.dumps(store_fuzz.run(seed=2, rounds=100))
`));
"""


@pytest.mark.skipif(not os.path.exists(os.path.join(PYODIDE, "pyodide.mjs")),
                    reason="the runtime is not vendored (./run-tests vendors it)")
def test_issue32_fuzz_finds_nothing_in_the_vendored_pyodide():
    """10,000 nested levels killed Pyodide's runtime while the page built its Store."""
    out = subprocess.run(["node", "--input-type=module", "-e", RUN_IN_PYODIDE, PYODIDE, ROOT],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


@pytest.mark.parametrize("bad", ['"x"', "null", "[1]", "1e400", "-5", "true", "4294967296"])
def test_issue32_a_records_entry_of_the_wrong_type_is_dropped_and_the_next_win_counts(bad):
    raw = ('{"v":1,"best":{"d1":{"time":%s,"moves":80},"d3":{"time":9,"moves":9}},'
           '"daily":{},"stats":{"played":3,"won":1,"streak":1,"best_streak":1,"assisted":0}}' % bad)
    be = MemoryBackend({RECORDS_KEY: raw})
    st = Store(be)
    assert st.records.best("d1") == {"moves": 80}  # the bad time dropped, the rest kept
    assert st.records.best("d3") == {"time": 9, "moves": 9}
    assert RECORDS_KEY in st.problems
    res = st.change_records(lambda r: r.record_win("d1", 100, 90, assisted=False))
    assert res.new_time and not res.new_moves
    assert Store(be).records.best("d1") == {"time": 100, "moves": 80}
    assert "<td" in sheets.records_html("en", st, Rules(1), None)


def test_issue32_stored_markup_never_reaches_the_records_html():
    raw = json.dumps({"v": 1, "best": {"d1": {"time": 5, "moves": "<img src=x onerror=alert(1)>"}},
                      "daily": {"2026-12-05": {"d1": {"time": 5, "moves": "<b>"}}}, "stats": {}})
    st = Store(MemoryBackend({RECORDS_KEY: raw}))
    html = sheets.records_html("en", st, Rules(1), "2026-12-05")
    assert "<img" not in html and "<b>" not in html


@pytest.mark.parametrize("key", [SETTINGS_KEY, GAME_KEY, RECORDS_KEY])
def test_issue32_deep_json_is_set_aside_before_parsing_and_costs_only_its_key(key):
    good = Store(MemoryBackend())
    good.save_settings(Settings(draw=3, lang="en"))
    good.save_game(Game.new(5).to_json(), "t")
    good.change_records(lambda r: r.record_win("d1", 7, 8, assisted=False))
    data = dict(good.backend.data)  # type: ignore[attr-defined]
    data[key] = "[" * 100_000 + "]" * 100_000
    be = MemoryBackend(data)
    st = Store(be)
    settings, env = st.load_settings(), st.load_game_envelope()
    assert st.problems == [key] and be.get(key + ".bad") == data[key]
    assert (settings == Settings()) == (key == SETTINGS_KEY)
    assert (env is None) == (key == GAME_KEY)
    assert (st.records.best("d1") == {}) == (key == RECORDS_KEY)


def test_issue32_a_saved_game_nested_deep_is_a_save_error():
    with pytest.raises(SaveError, match="nested too deep"):
        Game.from_json('{"kosynka":"game","v":1,"deal":' + "[" * 50_000 + "]" * 50_000 + "}")


@pytest.mark.parametrize("rev", ["Infinity", "1e400", '"7"', "-1", "true", "9007199254740993", "NaN"])
def test_issue32_a_stored_game_with_a_bad_rev_is_set_aside_and_saving_goes_on(rev):
    be = MemoryBackend({GAME_KEY: '{"v":1,"rev":%s,"tab":"t","game":"{}","meta":{}}' % rev})
    st = Store(be)
    assert st.save_game(Game.new(5).to_json(), "t") == 1  # the bad rev does not count
    assert Store(be).load_game_envelope()["rev"] == 1
    be = MemoryBackend({GAME_KEY: '{"v":1,"rev":%s,"tab":"t","game":"{}","meta":{}}' % rev})
    st = Store(be)
    assert st.load_game_envelope() is None and st.problems == [GAME_KEY]


def test_issue32_a_saved_games_daily_that_is_not_a_date_is_dropped():
    be = MemoryBackend()
    Store(be).save_game("{}", "t", {"daily": "<b>", "mark": "verified"})
    assert Store(be).load_game_envelope()["meta"] == {"daily": None, "mark": "verified"}


def test_issue32_records_read_from_a_newer_version_keep_its_sane_fields():
    r, ok = Records.from_json({"best": {"d1": {"time": 5, "moves": 6, "score": 900, "x": [1]}},
                               "daily": {"not a date": {"d1": {"time": 1, "moves": 1}}}, "stats": {}})
    assert r.best("d1") == {"time": 5, "moves": 6, "score": 900} and r.daily == {} and not ok
