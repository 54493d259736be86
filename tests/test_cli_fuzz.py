"""Fuzzing the command line (issue 14 item 5): whatever the arguments and the
input — random JSON, a deal or a saved game with one value replaced, deep
nesting, text — no exception escapes ``main``: it exits 0, 1 (replay: an
illegal move, one line) or 2 (bad input, one line on stderr)."""

from __future__ import annotations

import contextlib
import io
import json
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kosynka import Game
from kosynka.cli import main
from kosynka.deals import deal_json

SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
           | st.sampled_from([0, 1, 2, 3, 3.0, 1.0, "unlimited", "Ah", "Ks>F", "D", "U", 2**64]))
JSON = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=5)
                    | st.dictionaries(st.text(max_size=6), kids, max_size=5), max_leaves=20)


def _saved_game() -> dict:
    g = Game.new(3, clock=lambda: 0.0)
    for m in ("D", "D", "U", "D"):
        g.undo() if m == "U" else g.play(m)
    return json.loads(g.to_json())


DOCS = [deal_json(7, draw=3, redeals=2), _saved_game()]
KEYS = sorted({k for d in DOCS for k in d} | {"elapsed", "extra"})


@st.composite
def documents(draw) -> str:
    kind = draw(st.sampled_from(["mutated", "mutated", "json", "deep", "text"]))
    if kind == "json":
        return json.dumps(draw(JSON))
    if kind == "deep":
        n = draw(st.integers(900, 5000))
        return "[" * n + "]" * draw(st.integers(0, n))
    if kind == "text":
        return draw(st.text(max_size=40))
    doc = json.loads(json.dumps(draw(st.sampled_from(DOCS))))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(KEYS))
        if isinstance(doc.get(key), list) and doc[key] and draw(st.booleans()):
            doc[key][draw(st.integers(0, len(doc[key]) - 1))] = draw(JSON)
        else:
            doc[key] = draw(JSON)
    return json.dumps(doc)


TOKENS = st.sampled_from(["--draw", "--redeals", "--verified", "--max-states", "--max-seconds",
                          "1", "3", "2", "0", "-1", "unlimited", "nan", "inf", "1e400", "0.5",
                          "18446744073709551615", "18446744073709551616", "-", "x", "--",
                          "--bogus", "-h"])


@st.composite
def command_lines(draw) -> list[str]:
    command = draw(st.sampled_from(["deal", "replay", "solve", "nothing"]))
    tail = draw(st.lists(TOKENS | st.text(max_size=6), max_size=6))
    if command == "deal":
        tail = [draw(st.sampled_from(["0", "18446744073709551614", "x", "99"]))] + tail
    elif command == "replay":
        tail = ["-", "-"] + tail
    if command == "solve":       # a small budget: the fuzz is about input, not search
        tail = tail + ["--max-states", "300", "--max-seconds", "60"]
    return [command] + tail


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=command_lines(), stdin=documents())
def test_no_traceback_whatever_the_input(argv, stdin):
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:     # --help / -h prints help and exits 0
                assert e.code == 0 and "-h" in argv, (argv, e.code)
                return
    finally:
        sys.stdin = old_stdin
    lines = err.getvalue().splitlines()
    assert code in (0, 1, 2), (argv, code)
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("kosynka: error: "), (argv, lines)
    elif code == 1:
        assert argv[0] == "replay" and len(lines) == 1 and " is illegal: " in lines[0]
    else:
        assert lines == [], (argv, lines)
