"""A fuzz of every reader of stored data (issue 32 item 7), run on CPython by
tests/test_store_fuzz.py and inside the vendored Pyodide by the same test (node).

Pure Python, no pytest: ``run(seed, rounds)`` returns the list of failures (empty
when every reader held). A failure is any exception out of a reader or out of the
play that follows it, an unescaped value in the records' HTML, a save that fails
after the damage, or a damaged key that cost another key its value.

The values: every field of every stored value (settings, the saved game's
envelope and its game, records, the deals searched ahead, the challenges' book,
the game put aside for a challenge) replaced by hostile ones — wrong types,
strings with markup, huge and negative numbers, non-finite numbers (``NaN``,
``Infinity``, ``1e400``), 10,000 levels of nesting, a 2 MB string — and whole
values replaced by deep, oversized or non-JSON text.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from kosynka.challenge_book import Book
from kosynka.game import Game, SaveError
from kosynka.position import Rules
from kosynka.records import Records
from web import sheets, solve, store
from web.store import (
    BOOK_KEY,
    GAME_KEY,
    KEPT_KEY,
    NEXT_KEY,
    RECORDS_KEY,
    SETTINGS_KEY,
    MemoryBackend,
    Store,
)

MARK = "<i>x</i>"  # markup that must never reach the page as markup
DEEP = 10_000
HOSTILE: list[Any] = [
    None, True, False, 0, -1, 2**63, 1.5, "x", "", MARK, [], [1, 2], {}, {"a": MARK},
    "NaN", "Infinity", "1e400",  # placeholders written below as bare JSON numbers
]
RAW_NUMBERS = {"NaN": "NaN", "Infinity": "Infinity", "1e400": "1e400"}


def _dumps(value: Any) -> str:
    """JSON with the placeholders written as bare (non-finite) numbers."""
    text = json.dumps(value, separators=(",", ":"))
    for name, raw in RAW_NUMBERS.items():
        text = text.replace(json.dumps(name), raw)
    return text


def _deep(n: int = DEEP) -> str:
    return "[" * n + "]" * n


def _game_json() -> str:
    g = Game.new(7, Rules(3, 2))
    g.play(next(iter(g.position.legal_moves)))
    return g.to_json()


def _valid() -> dict[str, Any]:
    """A valid value of every stored key (as the page writes them)."""
    r = Records()
    r.record_win("d1", 100, 90, assisted=False, daily="2026-12-05")
    r.record_abandon()
    game = _game_json()
    return {
        SETTINGS_KEY: {"v": 1, "draw": 3, "redeals": 2, "score": True, "lang": "en", "auto": False,
                       "theme": "dark", "hand": "left"},
        GAME_KEY: {"v": 1, "rev": 5, "tab": "t1", "game": game,
                   "meta": {"daily": "2026-12-05", "recorded": False, "mark": "verified", "challenge": None}},
        RECORDS_KEY: dict(r.to_json(), v=1),
        NEXT_KEY: {"d1": 42, "d3r2": 77},
        BOOK_KEY: {"v": 1, "made": [{"code": "abc", "answers": ["d"]}], "taken": [{"code": "e", "answer": None}]},
        KEPT_KEY: {"game": game, "meta": {"daily": None, "mark": "verified"}},
    }


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a field (a dict key or a list index) inside ``value``."""
    out = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += _paths(v, path + (i,))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(copy[path[0]], path[1:], new)
    return copy


def _use(data: dict[str, str]) -> None:
    """What the page does with its stored data: start, show, play, win, save."""
    be = MemoryBackend(data)
    st = Store(be)
    st.load_settings()
    env = st.load_game_envelope()
    if env is not None:
        try:
            Game.from_json(env["game"])
        except SaveError:
            st.set_aside(GAME_KEY)
    solve.SolverClient._load_ready(_Ready(be))  # type: ignore[arg-type]
    raw = be.get(BOOK_KEY)
    if raw is not None:
        try:
            Book.from_json(store.loads_stored(raw))
        except (ValueError, TypeError):  # web.challenge's reader sets these aside
            pass
    raw = be.get(KEPT_KEY)
    if raw is not None:
        try:
            back = store.loads_stored(raw)
            Game.from_json(back["game"])
        except (ValueError, TypeError, KeyError, SaveError):
            pass
    html = sheets.records_html("en", st, Rules(1), "2026-12-05")
    if "<i>" in html:
        raise AssertionError("markup from storage reached the records' HTML")
    st.change_records(lambda r: r.record_win("d1", 50, 60, assisted=False, daily="2026-12-05"))
    st.change_records(lambda r: r.record_win("d3r2", 50, 60, assisted=True))
    st.change_records(Records.record_abandon)
    sheets.records_html("uk", st, Rules(3, 2), None)
    rev = st.save_game(_game_json(), "t2", {"daily": None})
    again = Store(be).load_game_envelope()
    if again is None or again["rev"] != rev:
        raise AssertionError(f"the save after the damage cannot be read back (rev {rev})")
    if Store(be).records.best("d1").get("time") != 50 and "time" not in Store(be).records.best("d1"):
        raise AssertionError("the win after the damage was not recorded")


class _Ready:
    def __init__(self, backend: MemoryBackend) -> None:
        self.backend = backend


def cases(seed: int, rounds: int) -> list[tuple[str, dict[str, str]]]:
    """(name, stored data) of the fuzz: every field of every key replaced by every
    hostile value, whole values deep, oversized or not JSON, then ``rounds``
    random mixes of those."""
    valid = _valid()
    good = {k: json.dumps(v) for k, v in valid.items()}
    single: list[tuple[str, str, str]] = []  # (name, key, raw)
    for key, value in valid.items():
        for whole in (_deep(), "{\"v\":1,\"x\":" + _deep() + "}", "x" * 2_000_000, "{not json",
                      "NaN", "[]", "null", _dumps({"v": 1, "rev": "Infinity", "game": "x"})):
            single.append((f"{key} whole {whole[:12]!r}…", key, whole))
        for path in _paths(value):
            for new in HOSTILE + [_deep(50)]:
                raw = _dumps(_replace(value, path, new))
                single.append((f"{key} {path} = {str(new)[:12]!r}", key, raw))
            single.append((f"{key} {path} deep", key,
                           _dumps(_replace(value, path, "DEEP")).replace('"DEEP"', _deep())))
    out = [(name, dict(good, **{key: raw})) for name, key, raw in single]
    rnd = random.Random(seed)
    for i in range(rounds):
        mix = dict(good)
        for _, key, raw in rnd.sample(single, 3):
            mix[key] = raw
        out.append((f"mix {i}", mix))
    return out


def run(seed: int = 1, rounds: int = 300, use: Callable[[dict[str, str]], None] = _use) -> list[str]:
    """The failures of the fuzz (empty: every reader held)."""
    failures = []
    for name, data in cases(seed, rounds):
        try:
            use(data)
        except Exception as e:  # any exception is a finding
            failures.append(f"{name}: {type(e).__name__}: {str(e)[:200]}")
    return failures
