"""The command line: deal, replay, bench engine; bad input → one line, exit 2."""
import json
import os
import subprocess
import sys

import pytest

from kosynka.cli import main

DATA = os.path.join(os.path.dirname(__file__), "data")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def data(name):
    return os.path.join(DATA, name)


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kosynka", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_deal_prints_the_pinned_json(capsys):
    assert main(["deal", "0", "--draw", "3", "--redeals", "2"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["number"], d["draw"], d["redeals"]) == (0, 3, 2)
    assert d["tableau"][0] == ["Qd"] and d["stock"][0] == "Th" and len(d["stock"]) == 24


@pytest.mark.parametrize("deal, moves", [
    ("ladder-draw1.json", "ladder-draw1-moves.json"),     # draw 1, uses a redeal
    ("ladder-draw3.json", "ladder-draw3-moves.json"),     # draw 3 (Turn Three)
])
def test_replay_accepts_a_full_winning_line(deal, moves):
    r = run("replay", data(deal), data(moves))
    assert (r.returncode, r.stdout) == (0, "won\n")


def test_replay_takes_rules_from_the_deal_and_flags_override_them(capsys):
    # the draw-3 line played under draw 1 fails at once
    assert main(["replay", data("ladder-draw3.json"), data("ladder-draw3-moves.json"),
                 "--draw", "1"]) == 1
    assert "move 2 (" in capsys.readouterr().err


def test_replay_rejects_an_illegal_move_and_names_it(tmp_path):
    moves = json.load(open(data("ladder-draw1-moves.json")))["moves"]
    moves[30] = "Kc>1"
    f = tmp_path / "m.json"
    f.write_text(json.dumps(moves))
    r = run("replay", data("ladder-draw1.json"), str(f))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("move 31 (Kc>1) is illegal:")
    assert "Traceback" not in r.stderr


def test_replay_of_a_partial_line_prints_the_counts(tmp_path, capsys):
    f = tmp_path / "m.json"
    f.write_text('["2c>2", "8s>6", "U", "D"]')
    deal = tmp_path / "d.json"
    assert main(["deal", "0"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["replay", str(deal), str(f)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("not won: 0/52 on foundations, 4 moves, score 5,")


@pytest.mark.parametrize("args, msg", [
    (["deal", "x"], "not a deal number"),
    (["deal", "-1"], "deal number"),
    (["deal", "1", "--draw", "2"], "invalid choice"),
    (["deal", "1", "--redeals", "7"], "redeals"),
    (["replay", "/no/such/file.json", "x"], "cannot read"),
    (["replay", os.path.join(DATA, "..", "test_cli.py"), "x"], "not valid JSON"),
    (["bench", "nothing"], "invalid choice"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_is_one_line_on_stderr_exit_2(args, msg):
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and msg in r.stderr and "Traceback" not in r.stderr


def test_replay_bad_deal_and_bad_moves(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tableau": [["As", "As"]], "stock": []}')
    assert main(["replay", str(bad), data("ladder-draw1-moves.json")]) == 2
    assert "impossible position" in capsys.readouterr().err
    notmoves = tmp_path / "nm.json"
    notmoves.write_text('{"moves": 5}')
    assert main(["replay", data("ladder-draw1.json"), str(notmoves)]) == 2
    assert "list of moves" in capsys.readouterr().err


def test_bench_engine_prints_a_throughput_figure(capsys):
    assert main(["bench", "engine", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "moves/s" in out
