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


def test_replay_says_when_the_game_cannot_be_won_any_more(tmp_path, capsys):
    """The engine's Outcome (issue 22): deal 25 under draw 3 with no redeal, the
    stock drawn through: no card of it, nor of the columns, can ever play."""
    f = tmp_path / "m.json"
    f.write_text('["D", "D", "D", "D", "D", "D", "D", "D"]')
    deal = tmp_path / "d.json"
    assert main(["deal", "25", "--draw", "3", "--redeals", "0"]) == 0
    deal.write_text(capsys.readouterr().out)
    assert main(["replay", str(deal), str(f)]) == 0
    assert capsys.readouterr().out.startswith("not won: a dead end (no move can put a card up")


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


# ------------------------------------------------ crash paths (issue 14 item 5)
DEEP = "[" * 1000 + "]" * 1000


def saved_game(**changes) -> str:
    from kosynka import Game
    g = Game.new(0)
    g.play("D")
    d = json.loads(g.to_json())
    d.update(changes)
    return json.dumps(d, separators=(",", ":"))


def deal_doc(**changes) -> str:
    from kosynka.deals import deal_json
    d = deal_json(0)
    d.update(changes)
    return json.dumps(d)


@pytest.mark.parametrize("args, stdin, msg", [
    # the verified-deal search ran past 2**64-1 (ValueError from the deal)
    (["deal", "18446744073709551615", "--verified", "--draw", "3", "--redeals", "2"], None,
     "no verified deal at or after 18446744073709551615"),
    (["solve", "--max-states", "10"], deal_doc(draw=3.0), "draw must be 1 or 3, not 3.0"),
    (["solve", "--max-states", "10"], deal_doc(redeals=2.0), "redeals must be"),
    (["replay", "-", data("ladder-draw1-moves.json")], deal_doc(draw=3.0), "draw must be"),
    (["solve", "--max-states", "10"], saved_game(rules={"draw": 3.0, "redeals": None}),
     "draw must be"),
    (["solve", "--max-states", "10"], saved_game(v=True), "unknown schema version True"),
    (["solve"], DEEP, "nested too deep"),
    (["solve"], "[" * 100_000, "nested too deep"),
    (["replay", "-", data("ladder-draw1-moves.json")], DEEP, "nested too deep"),
    (["replay", data("ladder-draw1.json"), "-"], DEEP, "nested too deep"),
    # a saved game nested deep inside, yet parseable: Game.from_json's own error only
    (["solve"], saved_game().replace('"rules":', '"rules":' + "[" * 900, 1).replace(
        ',"deal":', "]" * 900 + ',"deal":', 1), "rules must be"),
    (["bench", "engine", "--seconds", "nan"], None, "--seconds"),
    (["bench", "engine", "--seconds", "-1"], None, "--seconds"),
], ids=lambda v: (" ".join(v) if isinstance(v, list) else str(v))[:40])
def test_crash_paths_are_one_line_and_exit_2(args, stdin, msg):
    r = run(*args, stdin=stdin)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and msg in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_verified_deal_api_stops_at_the_last_deal_number():
    from kosynka import Rules
    from kosynka.solver import NoVerifiedDealError, VerifiedDealSearch, verified_deal
    with pytest.raises(NoVerifiedDealError,
                       match="no verified deal at or after 18446744073709551615"):
        verified_deal(2**64 - 1, Rules(3, 2))
    search = VerifiedDealSearch(2**64 - 1, Rules(3, 2))
    with pytest.raises(NoVerifiedDealError):
        while search.step(100) is None:
            pass
    assert search.number == 2**64 - 1


def test_a_control_character_in_bad_input_stays_on_one_line():
    r = run("replay", "-", "-", "\x1e\n")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr == "kosynka: error: unrecognized arguments: \\x1e\\n\n"


def test_a_closed_pipe_is_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "kosynka", "deal", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                          # the reader is gone before the output
    err = proc.stderr.read().decode()
    proc.wait(60)
    proc.stderr.close()
    assert err == ""


def test_solve_max_seconds_counts_cpu_time(monkeypatch, capsys, tmp_path):
    """Issue 14 item 4: the budget is CPU time of the process, like the benchmark's
    (time.process_time, here a fake one on which every reading costs 10 s)."""
    ticks = iter(range(0, 10**9, 10))
    monkeypatch.setattr("time.process_time", lambda: float(next(ticks)))
    from kosynka.deals import deal_json
    deal = tmp_path / "d.json"
    deal.write_text(json.dumps(deal_json(3)))     # undecided after 20,000 states
    assert main(["solve", str(deal), "--max-seconds", "25"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["result"] == "unknown" and res["seconds"] >= 25


def test_solve_help_says_cpu_seconds():
    r = run("solve", "--help")
    assert r.returncode == 0 and "CPU seconds" in " ".join(r.stdout.split())


@pytest.fixture(scope="module")
def unicode_code(tmp_path_factory):
    d = tmp_path_factory.mktemp("ch")
    (d / "deal.json").write_text(run("deal", "5").stdout)
    (d / "moves.json").write_text('["D"]')
    r = run("challenge", "pack", str(d / "deal.json"), str(d / "moves.json"), "--name", "Оля 🦊 Zoë",
            "--seconds", "30")
    assert r.returncode == 0, r.stderr
    return d, r.stdout.strip()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1251", "utf-8"])
def test_issue32_challenge_check_prints_any_name_on_any_terminal(unicode_code, encoding):
    _, code = unicode_code
    r = subprocess.run([sys.executable, "-m", "kosynka", "challenge", "check", code], cwd=ROOT,
                       capture_output=True, timeout=60, env=dict(os.environ, PYTHONIOENCODING=encoding))
    assert r.returncode == 0 and r.stderr == b""
    assert json.loads(r.stdout.decode(encoding))["name"] == "Оля 🦊 Zoë"


@pytest.mark.parametrize("seconds", ["4294967296", "99999999999999999999", "-1"])
def test_issue32_challenge_pack_refuses_what_check_would_refuse(unicode_code, seconds):
    d, _ = unicode_code
    r = run("challenge", "pack", str(d / "deal.json"), str(d / "moves.json"), "--name", "A",
            "--seconds", seconds)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("kosynka: error: --seconds must be from 0 to 4294967295")
    assert r.stderr.count("\n") == 1


def test_issue32_challenge_pack_checks_its_own_code(unicode_code):
    d, _ = unicode_code
    r = run("challenge", "pack", str(d / "deal.json"), str(d / "moves.json"), "--name", "A",
            "--seconds", "4294967295")
    assert r.returncode == 0 and run("challenge", "check", r.stdout.strip()).returncode == 0
