"""Challenge codes (O6, issue 20): pack/unpack round trips in every variant, the
replay as the truth (T1, S1–S3, R12), every way a code can be bad (item 5: each
its own error), who wins a challenge, the device's list of challenges, and the
``challenge`` subcommand (item 6)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kosynka import challenge as C
from kosynka import challenge_book as CB
from kosynka.challenge import (
    Challenge,
    ChallengeError,
    Result,
    check,
    compare,
    pack,
)
from kosynka.challenge_book import Book
from kosynka.challenge_bytes import to_varint
from kosynka.cli import main
from kosynka.deals import deal_json
from kosynka.game import Game
from kosynka.position import Rules
from kosynka.solver import verified_deal

VARIANTS = [Rules(1), Rules(3), Rules(3, 2), Rules(1, 0), Rules(1, 1), Rules(3, 3), Rules(1, 3)]
ROOT = Path(__file__).resolve().parents[1]
NAMES = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=24).filter(
    lambda s: s.strip())


@lru_cache(maxsize=None)
def win(number: int = 7, rules: Rules = Rules(1)) -> tuple[int, tuple[str, ...]]:
    """A verified deal and the solver's winning line (V1)."""
    n, res = verified_deal(number, rules)
    assert res.result == "won"
    return n, tuple(res.moves)


def random_game(number: int, rules: Rules, picks: list[int]) -> Game:
    """Random legal play with undos, as a player's log has them (T1, C5)."""
    g = Game.new(number, rules, clock=lambda: 0.0)
    for k in picks:
        options = C.choices(g)
        if not options:
            break
        action = options[k % len(options)]
        g.undo() if action == "U" else g.play(action)
    return g


def raw(code: str) -> bytes:
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))


def recode(data: bytes) -> str:
    """``data`` (a code's bytes without its CRC) with a correct CRC: a forger's code."""
    data = bytes(data)
    return base64.urlsafe_b64encode(data + zlib.crc32(data).to_bytes(4, "big")).rstrip(b"=").decode()


def error_of(code) -> str:
    with pytest.raises(ChallengeError) as e:
        check(code)
    return e.value.code


# ------------------------------------------------------------------ round trips

@settings(max_examples=120, deadline=None)
@given(number=st.integers(0, 2**64 - 1), rules=st.sampled_from(VARIANTS), name=NAMES,
       seconds=st.integers(0, 10**6), assisted=st.booleans(),
       reply_to=st.none() | st.integers(0, 2**32 - 1),
       picks=st.lists(st.integers(0, 10**6), max_size=250))
def test_round_trip_in_every_variant(number, rules, name, seconds, assisted, reply_to, picks):
    g = random_game(number, rules, picks)
    ch = Challenge(number, rules, name, seconds, tuple(g.log), assisted, reply_to)
    code = pack(ch)
    c = check(code)
    assert c.challenge == ch
    assert c.result.moves == g.moves == len(g.log)
    assert c.result.foundation == sum(g.position.foundations) and c.result.won == g.is_won
    assert c.result.score == g.score  # not won: no time bonus, the score is the replay's
    assert c.id == C.code_id(code) and c.challenge.kind == ("challenge" if reply_to is None else "answer")
    assert check(C.link("https://x.example/kosynka/?a=1#deal=3", code)).challenge == ch


@pytest.mark.parametrize("rules", [Rules(1), Rules(3), Rules(3, 2)])
def test_a_win_checks_as_won_with_the_time_bonus_of_the_reported_time(rules):
    number, line = win(7, rules)
    t = [0.0]
    g = Game.new(number, rules, clock=lambda: t[0])
    for move in line:
        t[0] += 1.5
        g.play(move)
    seconds = int(g.elapsed())
    c = check(pack(Challenge(number, rules, "Anna", seconds, line)))
    assert c.result == Result(len(line), 52, True, g.score)  # S2: 100 + 30000 // s


def test_a_150_move_win_makes_a_short_link():
    """Item 1: a 150-move win's link is well under 600 characters (bench/challenge.py
    prints the figures; docs/challenge.md has them)."""
    number, line = win(7)
    assert len(line) >= 150
    url = C.link("https://friend.example.org/kosynka/", pack(Challenge(number, Rules(1), "Анна", 192, line)))
    assert len(url) < 300, len(url)


def test_the_choices_are_the_sorted_legal_moves_then_undo():
    g = Game.new(7)
    first = C.choices(g)
    p = g.position
    assert first == [p.format_move(m) for m in sorted(p.legal_moves)] and first[-1] == "D"
    g.play("D")
    assert C.choices(g)[-1] == "U" and "U" not in first
    won = Game.new(win()[0])
    for move in win()[1]:
        won.play(move)
    assert C.choices(won) == []


def test_replay_gives_every_frame_up_to_the_win():
    number, line = win(7)
    frames = C.replay(number, Rules(1), line)
    assert len(frames) == len(line) + 1 and frames[-1].is_won and not frames[-2].is_won
    assert sum(frames[0].down) == 21
    with pytest.raises(ChallengeError) as e:
        C.replay(number, Rules(1), ["D", "Kc>9"])
    assert e.value.code == "challenge/illegal"


# ------------------------------------------------------------------ bad codes (item 5)

@lru_cache(maxsize=None)
def sample_code() -> str:
    number, line = win(7)
    return pack(Challenge(number, Rules(1), "Anna", 192, line[:60] + ("U", "U") + line[58:]))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_byte_mutation_is_refused_or_checks(data):
    """A changed byte anywhere is refused with a clear error — never a traceback,
    never a game the replay did not give (CRC-32 catches every single-byte change)."""
    code = sample_code()
    b = bytearray(raw(code))
    i = data.draw(st.integers(0, len(b) - 1))
    b[i] = data.draw(st.integers(0, 255).filter(lambda v: v != b[i]))
    mutated = base64.urlsafe_b64encode(bytes(b)).rstrip(b"=").decode()
    assert error_of(mutated) in ("challenge/damaged", "challenge/truncated", "challenge/version")


def test_every_character_mutation_is_refused_or_checks():
    code = sample_code()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    good = check(code)
    for i in range(len(code)):
        for ch in alphabet[(i * 7) % 64::9]:  # 7 other characters per position
            if ch == code[i]:
                continue
            mutated = code[:i] + ch + code[i + 1:]
            try:
                c = check(mutated)
            except ChallengeError as e:
                assert e.code in ("challenge/damaged", "challenge/truncated", "challenge/version")
            else:  # the last character's unused low bits: the same bytes, the same game
                assert i == len(code) - 1 and c.challenge == good.challenge


def test_a_cut_link_is_truncated():
    code = sample_code()
    for k in range(1, len(code)):
        assert error_of(code[:-k]) == "challenge/truncated", k


def test_a_forged_win_claim_is_refused():
    """Done when: a won claim with a move list that does not win is refused — a
    forger's code, with every byte in place and a correct checksum."""
    number, line = win(7)
    ch = Challenge(number, Rules(1), "Anna", 60, line[:100])
    _, honest, final, packed = C.unpack(pack(ch))
    assert not honest.won and check(C._assemble(ch, "Anna", honest, final, packed)).result == honest
    for claim in (Result(honest.moves, 52, True, honest.score),
                  Result(honest.moves, 52, True, 2000),
                  Result(honest.moves, honest.foundation + 1, False, honest.score),
                  Result(honest.moves, honest.foundation, False, honest.score + 10)):
        assert error_of(C._assemble(ch, "Anna", claim, final, packed)) == "challenge/forged"


def test_another_version_is_said_so():
    b = bytearray(raw(sample_code())[:-4])
    for version in (0, 2, 15):
        b[0] = version << 4 | (b[0] & 15)
        assert error_of(recode(b)) == "challenge/version"


def test_an_illegal_move_in_the_list_is_named():
    # a deal whose first position has a spare index: n choices in a width of more
    number = next(k for k in range(100) if len(C.choices(Game.new(k))) & (len(C.choices(Game.new(k))) - 1))
    n = len(C.choices(Game.new(number)))
    width = (n - 1).bit_length()
    ch = Challenge(number, Rules(1), "Anna", 1, ("D",))
    claim = Result(1, 0, False, 0)
    bad = ((1 << width) - 1) << (8 - width)  # the highest index: no such move
    with pytest.raises(ChallengeError) as e:
        check(C._assemble(ch, "Anna", claim, 0, bytes([bad])))
    assert e.value.code == "challenge/illegal" and "action 1" in e.value.detail


def test_moves_of_another_deal_are_refused():
    """A move list that does not fit the deal: the same code with another deal
    number (and a correct CRC) is refused — an illegal move on the way, or an end
    that is not where its game went."""
    number, line = win(7)
    ch = Challenge(number, Rules(1), "Anna", 192, line)
    b = raw(pack(ch))[:-4]
    errors = set()
    for other in range(8, 60):
        forged = bytearray(b)
        forged[2] = other  # the deal number's one byte (7 → other)
        errors.add(error_of(recode(forged)))
    assert errors <= {"challenge/deal", "challenge/illegal"}
    # a short list of draws fits any deal's choices: only the end tells
    short = Challenge(number, Rules(1), "Anna", 5, ("D", "D", "D"))
    b = bytearray(raw(pack(short))[:-4])
    deal_errors = set()
    for other in range(8, 40):
        b[2] = other
        deal_errors.add(error_of(recode(b)))
    assert "challenge/deal" in deal_errors


def test_a_huge_code_is_refused_unread():
    assert error_of("A" * (C.MAX_CODE + 1)) == "challenge/huge"
    assert error_of("#challenge=" + "A" * 100_000) == "challenge/huge"
    with pytest.raises(ChallengeError) as e:
        pack(Challenge(7, Rules(1), "Anna", 1, ("D",) * (C.MAX_MOVES + 1)))
    assert e.value.code == "challenge/huge"
    # a code claiming more actions than any link carries
    data = bytearray(raw(pack(Challenge(7, Rules(1), "A", 1, ())))[:-4])
    i = data.index(b"A") + 1  # the count follows the name
    data[i:i + 1] = to_varint(C.MAX_MOVES + 1)
    data[1] = len(data) + 4  # the length counts the whole code
    assert error_of(recode(data)) == "challenge/huge"


@pytest.mark.parametrize("text", ["", "hello", "https://example.org/", "#deal=5", None, 42,
                                  "#race=AAAAAAAA", "#challenge=", "#challenge=@@@"])
def test_what_is_no_challenge_is_said_so(text):
    assert error_of(text) in ("challenge/foreign", "challenge/damaged", "challenge/truncated")


def test_a_link_with_breaks_a_messenger_added_still_checks():
    code = sample_code()
    text = "Beat me: https://x.example/#challenge=" + code[:30] + "\n " + code[30:] + " !"
    assert check(text).id == check(code).id


# ------------------------------------------------------------------ who wins

def checked(moves: int, won: bool, seconds: int, foundation: int = 52, assisted: bool = False):
    return C.Checked(Challenge(1, Rules(1), "x", seconds, (), assisted),
                     Result(moves, foundation if not won else 52, won, 0), 0, "")


def test_who_wins_a_challenge():
    assert compare(checked(200, True, 900), checked(90, False, 10, 51)) == 1    # won beats not won
    assert compare(checked(150, True, 300), checked(151, True, 100)) == 1      # then fewer moves
    assert compare(checked(150, True, 300), checked(150, True, 299)) == -1     # then less time
    assert compare(checked(150, True, 300), checked(150, True, 300)) == 0      # a tie
    assert compare(checked(90, False, 1, 30), checked(50, False, 1, 31)) == -1  # more cards up
    assert compare(checked(90, False, 1, 30), checked(50, False, 999, 30)) == 0
    assert compare(checked(300, True, 900), checked(100, True, 10, assisted=True)) == 1  # F2 after
    assert compare(checked(300, True, 900, assisted=True), checked(10, False, 1, 51)) == 1


def test_ranking_places_ties_and_the_players_side():
    """Issue 28 item 3: the results' rule, in the engine. Places share on a tie
    (1, 1, 3), the order is best first with ties as given, the winners are the
    first place, and the player's side is won, lost, tie or none."""
    fast, slow, lost = checked(100, True, 60), checked(100, True, 90), checked(80, False, 5, 40)
    r = C.rank([lost, slow, fast, checked(100, True, 60)])
    assert r.places == (4, 3, 1, 1) and r.order == (2, 3, 1, 0) and r.winners == (2, 3)
    assert r.outcome == "none"
    assert C.rank([slow, fast], [True, False]).outcome == "lost"
    assert C.rank([fast, slow, lost], [True, False, False]).outcome == "won"
    assert C.rank([fast, checked(100, True, 60)], [False, True]).outcome == "tie"   # equal games
    assert C.rank([fast, slow], [True, False]).winners == (0,)
    assert C.rank([lost], [True]).outcome == "tie"              # alone: nobody to beat yet
    assert C.rank([fast, slow, fast], [True, False, True]).outcome == "won"  # your other game is not against you
    assert C.rank([]) == C.Ranking((), (), "none")
    with pytest.raises(ValueError):
        C.rank([fast, slow], [True])


# ------------------------------------------------------------------ the book

def test_the_book_keeps_challenges_and_every_answer_once():
    number, line = win(7)
    mine = check(pack(Challenge(number, Rules(1), "Anna", 192, line)))
    book = Book()
    book.add_made(mine.code)
    answer = check(pack(Challenge(number, Rules(1), "Bohdan", 40, ("D", "D"), reply_to=mine.id)))
    stranger = check(pack(Challenge(number, Rules(1), "Ch", 40, ("D",), reply_to=mine.id ^ 1)))
    assert book.add_answer(answer) is book.add_answer(answer) is book.entry(mine.id)
    assert book.add_answer(stranger) is None
    assert book.entry(mine.id).answers == [answer.code]
    book.add_taken(answer.code, None)
    again = Book.from_json(json.loads(json.dumps(book.to_json())))
    assert again == book
    assert Book.from_json({"v": 1, "made": [{"code": 5}, {"code": "x", "answers": [3, "y"]}],
                           "taken": "no"}).made == [CB.Made("x", ["y"])]
    with pytest.raises(ValueError):
        Book.from_json({"v": 9})
    renamed = pack(Challenge(number, Rules(1), "Anya", 192, line))
    book.add_made(renamed, replaces=mine.code)
    assert [m.code for m in book.made] == [renamed, mine.code]  # an answer came: the old link stays
    fresh = pack(Challenge(number, Rules(1), "Anja", 192, line))
    book.add_made(fresh, replaces=renamed)
    assert [m.code for m in book.made] == [fresh, mine.code]
    for k in range(CB.MAX_BOOK + 5):
        book.add_made(pack(Challenge(number, Rules(1), "Anna", k, ())))
    assert len(book.made) == CB.MAX_BOOK


# ------------------------------------------------------------------ the command line (item 6)

@pytest.fixture
def files(tmp_path):
    number, line = win(7)
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(deal_json(number)))
    moves = tmp_path / "moves.json"
    moves.write_text(json.dumps({"moves": list(line)}))
    return deal, moves, line


def test_cli_pack_then_check(files, capsys):
    deal, moves, line = files
    assert main(["challenge", "pack", str(deal), str(moves), "--name", "Анна", "--seconds", "192"]) == 0
    code = capsys.readouterr().out.strip()
    assert main(["challenge", "check", "https://x.example/#challenge=" + code]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {k: out[k] for k in ("kind", "deal", "draw", "redeals", "name", "seconds", "moves", "won",
                                "foundation", "assisted", "answers")} == {
        "kind": "challenge", "deal": 7, "draw": 1, "redeals": None, "name": "Анна", "seconds": 192,
        "moves": len(line), "won": True, "foundation": 52, "assisted": False, "answers": None}
    assert out["actions"] == list(line) and out["id"] == C.code_id(code)
    assert main(["challenge", "pack", str(deal), str(moves), "--name", "B", "--seconds", "9",
                 "--answers", code, "--assisted"]) == 0
    answer = json.loads(_check(capsys, capsys.readouterr().out.strip()))
    assert (answer["kind"], answer["answers"], answer["assisted"]) == ("answer", out["id"], True)


def _check(capsys, code: str) -> str:
    assert main(["challenge", "check", code]) == 0
    return capsys.readouterr().out


def test_cli_takes_the_rules_flags(tmp_path, capsys):
    number, line = win(7, Rules(3, 2))
    deal = tmp_path / "d.json"
    deal.write_text(json.dumps(deal_json(number)))  # draw 1 in the file; the flags decide
    moves = tmp_path / "m.json"
    moves.write_text(json.dumps(list(line)))
    assert main(["challenge", "pack", str(deal), str(moves), "--name", "A", "--seconds", "1",
                 "--draw", "3", "--redeals", "2"]) == 0
    out = json.loads(_check(capsys, capsys.readouterr().out.strip()))
    assert (out["draw"], out["redeals"], out["won"]) == (3, 2, True)


@pytest.mark.parametrize("args, says", [
    (["check", "AAAA"], "challenge/"),
    (["check", "#challenge=" + "A" * 5000], "challenge/huge"),
    (["pack", "{deal}", "{moves}", "--name", "", "--seconds", "1"], "--name"),
    (["pack", "{deal}", "{moves}", "--name", "A", "--seconds", "-1"], "--seconds"),
    (["pack", "{deal}", "{bad}", "--name", "A", "--seconds", "1"], "not a legal move"),
    (["pack", "{nonumber}", "{moves}", "--name", "A", "--seconds", "1"], "numbered deal"),
    (["pack", "{other}", "{moves}", "--name", "A", "--seconds", "1"], "not those of deal"),
    (["pack", "{deal}", "{moves}", "--name", "A", "--seconds", "1", "--answers", "junk"], "not a valid"),
    (["pack", "{deal}", "{moves}", "--name", "A"], "--seconds"),
])
def test_cli_bad_input_is_one_line_and_exit_2(files, tmp_path, capsys, args, says):
    deal, moves, _ = files
    d = json.loads(deal.read_text())
    (tmp_path / "bad.json").write_text('["Kc>1"]')
    (tmp_path / "nonumber.json").write_text(json.dumps({k: v for k, v in d.items() if k != "number"}))
    (tmp_path / "other.json").write_text(json.dumps({**d, "number": 8}))
    paths = {"deal": deal, "moves": moves, "bad": tmp_path / "bad.json",
             "nonumber": tmp_path / "nonumber.json", "other": tmp_path / "other.json"}
    argv = ["challenge"] + [a.format(**paths) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_cli_check_of_a_damaged_code_in_a_real_process():
    r = subprocess.run([sys.executable, "-m", "kosynka", "challenge", "check", sample_code()[:-3]],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("kosynka: error: not a valid challenge (challenge/truncated)")
    assert r.stderr.count("\n") == 1
