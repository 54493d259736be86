"""The race table's rules (SPEC N1–N11), one test per rule, on a fake clock."""
import pytest

from kosynka.position import Rules
from kosynka.race.table import (
    GRACE,
    HOST,
    LOBBY,
    OVER,
    RACING,
    RaceError,
    Table,
    progress,
)
from kosynka.solver import verified_deal

DEAL, SOLVED = verified_deal(0, Rules(1, None))
LINE = SOLVED.moves


def code(fn, *args):
    with pytest.raises(RaceError) as e:
        fn(*args)
    return e.value.code


def lobby(friends=1):
    t = Table("Host", 0.0)
    pids = [t.join(f"Friend {i}", 0.0) for i in range(friends)]
    return t, pids


def started(friends=1, minutes=None, draw=1, now=0.0):
    t, pids = lobby(friends)
    t.set_settings(HOST, draw, minutes, now)
    for p in pids:
        t.set_ready(p, True, now)
    t.start(HOST, DEAL, now)
    return t, pids


def play(t, pid, moves, now=1.0):
    for m in moves:
        t.move(pid, m, now)


def row(view, pid):
    return next(p for p in view["players"] if p["pid"] == pid)


def results(t):
    return {s["pid"]: (s["place"], s["result"]) for s in t.standings}


# ---------------------------------------------------------------- N1, names
def test_n1_host_and_up_to_three_friends_sit_later_ones_watch():
    t, pids = lobby(4)
    assert [m.pid for m in t.seated()] == [HOST, *pids[:3]]
    assert t.members[pids[3]].seat is None and t.members[pids[3]].status == "watching"


@pytest.mark.parametrize("name", ["Аня", "李雷", "🂡 ace", "<b>bold</b>", "‏שלום", "a" * 24])
def test_names_are_any_unicode_kept_as_given(name):
    t, _ = lobby(0)
    pid = t.join(name, 0.0)
    assert row(t.view(pid), pid)["name"] == name


def test_unnamed_players_are_numbered_at_the_table():
    """Issue 32 item 5: everyone who skips the name sends the page's word for one
    ("Player", "Гравець"); the table numbers a name in use (kosynka.names.numbered)."""
    t = Table("Player", 0.0)
    pids = [t.join(name, 0.0) for name in ("Player", "player", "Гравець", "Гравець", "Anna")]
    names = [row(t.view(HOST), pid)["name"] for pid in (HOST, *pids)]
    assert names == ["Player", "Player 2", "player 3", "Гравець", "Гравець 2", "Anna"]
    t.leave(pids[0], 1.0)                   # a name freed is given again
    again = t.join("Player", 1.0)
    assert row(t.view(HOST), again)["name"] == "Player 2"


@pytest.mark.parametrize("name", ["", "   ", "a" * 25, "tab\there", "bell\x07", "\ud800", None, 7])
def test_names_too_long_blank_or_with_control_characters_are_refused(name):
    t, _ = lobby(0)
    assert code(t.join, name, 0.0) == "name/bad"
    assert len(t.members) == 1


# ---------------------------------------------------------------- N4 settings
def test_n4_settings_are_the_hosts_before_the_start_and_shown_to_all():
    t, (f,) = lobby(1)
    assert code(t.set_settings, f, 3, 5, 0.0) == "role/not_host"
    t.set_settings(HOST, 3, 10, 0.0)
    assert (t.view(f)["draw"], t.view(f)["minutes"]) == (3, 10)
    assert code(t.set_settings, HOST, 2, None, 0.0) == "settings/bad"
    assert code(t.set_settings, HOST, 1, 7, 0.0) == "settings/bad"
    t.set_ready(f, True, 0.0)
    t.start(HOST, DEAL, 0.0)
    assert code(t.set_settings, HOST, 1, None, 1.0) == "race/started"


# ---------------------------------------------------------------- N3
def test_n3_start_needs_a_seated_friend_and_every_friend_ready():
    t, _ = lobby(0)
    assert code(t.start, HOST, DEAL, 0.0) == "start/no_friend"
    a, b = t.join("A", 0.0), t.join("B", 0.0)
    t.set_ready(a, True, 0.0)
    assert code(t.start, HOST, DEAL, 0.0) == "start/not_ready"
    assert code(t.start, a, DEAL, 0.0) == "role/not_host"
    assert code(t.set_ready, HOST, True, 0.0) == "ready/not_friend"
    t.set_ready(b, True, 0.0)
    t.start(HOST, DEAL, 0.0)
    assert t.phase == RACING


def test_n3_one_deal_for_everyone_seated_later_arrivals_watch():
    t, pids = started(2)
    games = [t.members[p].game for p in (HOST, *pids)]
    assert all(g.start == games[0].start and g.number == DEAL for g in games)
    late = t.join("Late", 5.0)
    assert t.members[late].game is None and t.members[late].status == "watching"
    assert code(t.move, late, LINE[0], 6.0) == "race/out"


def test_n3_the_deal_function_is_called_only_when_the_start_is_allowed():
    t, _ = lobby(1)
    calls = []
    assert code(t.start, HOST, lambda: calls.append(1) or DEAL, 0.0) == "start/not_ready"
    assert calls == []


# ---------------------------------------------------------------- N2, T1
def test_n2_others_see_counters_only_until_the_end_then_every_table():
    t, (f,) = started(1)
    play(t, f, LINE[:20])
    v = t.view(HOST)
    assert v["tables"] is None and "game" not in str(v.keys())
    assert {k: row(v, f)[k] for k in ("foundation", "face_up", "moves")} == progress(
        t.members[f].game.position, 20)
    assert row(v, f)["moves"] == 20          # T1: every action counts
    t.resign(HOST, 2.0)
    tables = t.view(HOST)["tables"]
    assert set(tables) == {str(HOST), str(f)}
    assert tables[str(f)] == t.members[f].game.position.to_json()


# ---------------------------------------------------------------- N4, N5
def test_n4_n5_to_the_last_card_the_first_to_52_wins_all_others_lose():
    t, (a, b) = started(2)
    play(t, b, LINE[:100])
    play(t, a, LINE)
    assert t.phase == OVER
    assert results(t) == {a: (1, "won"), b: (2, "lost"), HOST: (3, "lost")}
    assert code(t.move, b, LINE[100], 2.0) == "race/over"


def _prefixes():
    """Lengths i, j of the solution line with equal foundations but more
    face-up cards in columns after i."""
    from kosynka.position import Position
    p = Position.deal(DEAL, Rules(1, None))
    seen = []
    for k, m in enumerate(LINE):
        pr = progress(p, k)
        for i, q in seen:
            if q["foundation"] == pr["foundation"] and q["face_up"] != pr["face_up"]:
                return (i, k) if q["face_up"] > pr["face_up"] else (k, i)
        seen.append((k, pr))
        p.play(m)
    raise AssertionError("no such prefixes")


def test_n4_timed_most_foundation_cards_win_at_time_up():
    t, (f,) = started(1, minutes=5)
    play(t, f, LINE[:60])
    play(t, HOST, LINE[:30])
    t.tick(299.0)
    assert t.phase == RACING
    n = t.event_n
    t.tick(300.0)
    assert t.phase == OVER and t.ended_at == 300.0
    assert results(t) == {f: (1, "won"), HOST: (2, "lost")}
    assert kinds(t, n) == [("time_up", None), ("ended", None)]        # issue 18: and why
    assert t.end["reason"] == "time_up" and t.end["decided_by"] == "foundation"
    assert outcome(t, f) == ("won", "foundation", 1) and outcome(t, HOST) == ("lost", "foundation", 2)


def test_n4_timed_tie_on_foundations_goes_to_more_face_up_cards():
    i, j = _prefixes()
    t, (f,) = started(1, minutes=5)
    play(t, f, LINE[:i])
    play(t, HOST, LINE[:j])
    t.tick(300.0)
    assert results(t) == {f: (1, "won"), HOST: (2, "lost")}
    assert t.end["decided_by"] == "face_up" and t.end["winners"] == [f]     # issue 18: and why
    assert outcome(t, f) == ("won", "face_up", 1) and outcome(t, HOST) == ("lost", "face_up", 2)


def test_n4_timed_still_tied_among_the_best_is_a_draw_between_them():
    t, (a, b) = started(2, minutes=10)
    play(t, a, LINE[:40])
    play(t, HOST, LINE[:40])
    play(t, b, LINE[:10])
    t.tick(600.0)
    assert results(t) == {a: (1, "draw"), HOST: (1, "draw"), b: (3, "lost")}
    assert (t.members[a].score, t.members[b].score) == (0.5, 0.0)
    assert t.end == {"reason": "time_up", "winners": [], "drawn": [HOST, a], "decided_by": "tie"}
    assert outcome(t, a) == ("draw", "tie", 1) and outcome(t, b)[:2] == ("lost", "foundation")


def test_n4_timed_all_52_before_time_up_wins_at_once():
    t, (f,) = started(1, minutes=15)
    play(t, f, LINE, now=100.0)
    assert t.phase == OVER and t.ended_at == 100.0
    assert results(t)[f] == (1, "won")


# ---------------------------------------------------------------- N6
def test_n6_the_timed_end_waits_for_nobody():
    t, (f,) = started(1, minutes=5)
    t.drop(f, 10.0)
    play(t, HOST, LINE[:60], now=20.0)
    assert t.next_deadline() == GRACE + 10.0
    t.back(f, 30.0)
    assert t.next_deadline() == 300.0
    assert code(t.move, f, LINE[0], 300.5) == "race/over"   # the end came first, by itself
    assert t.ended_at == 300.0 and results(t)[HOST] == (1, "won")


# ---------------------------------------------------------------- N7
def test_n7_a_draw_when_everyone_still_racing_agrees():
    t, (a, b) = started(2)
    t.resign(b, 1.0)
    t.offer_draw(a, 2.0)
    assert code(t.offer_draw, HOST, 2.0) == "draw/pending"
    t.answer_draw(HOST, t.offer["id"], True, 3.0)
    assert results(t) == {a: (1, "draw"), HOST: (1, "draw"), b: (3, "lost")}


def test_n7_a_refusal_cancels_the_offer():
    t, (a,) = started(1)
    t.offer_draw(a, 1.0)
    offer = t.offer["id"]
    t.answer_draw(HOST, offer, False, 2.0)
    assert t.offer is None and t.phase == RACING
    assert code(t.answer_draw, HOST, offer, True, 3.0) == "draw/stale"


def test_n7_a_move_by_someone_who_has_not_agreed_cancels_the_offer():
    t, (a, b) = started(2)
    t.offer_draw(a, 1.0)
    play(t, a, LINE[:1])                     # the offerer has agreed: the offer stands
    assert t.offer is not None
    t.answer_draw(b, t.offer["id"], True, 2.0)
    play(t, HOST, LINE[:1])
    assert t.offer is None and t.phase == RACING


# ---------------------------------------------------------------- N8
def test_n8_resign_is_out_and_lost_the_rest_race_on_the_last_one_wins():
    t, (a, b) = started(2)
    t.resign(a, 1.0)
    assert t.phase == RACING and t.members[a].status == "resigned"
    assert code(t.move, a, LINE[0], 2.0) == "race/out"
    t.resign(HOST, 3.0)
    assert t.phase == OVER
    assert results(t) == {b: (1, "won"), HOST: (2, "lost"), a: (3, "lost")}


# ---------------------------------------------------------------- N9
def test_n9_back_within_60_s_to_the_table_as_it_was():
    t, (f,) = started(1)
    play(t, f, LINE[:10])
    t.drop(f, 5.0)
    t.tick(5.0 + GRACE - 0.1)
    t.back(f, 5.0 + GRACE - 0.1)
    assert t.members[f].status == "racing" and t.members[f].game.log == LINE[:10]
    t.tick(1000.0)
    assert t.phase == RACING


def test_n9_after_60_s_away_a_racer_counts_as_resigned():
    t, (a, b) = started(2)
    t.drop(a, 5.0)
    t.tick(5.0 + GRACE)
    assert t.members[a].status == "resigned" and t.members[a].out == "dropped"
    assert t.phase == RACING
    t.drop(b, 70.0)
    t.tick(70.0 + GRACE)
    assert results(t) == {HOST: (1, "won"), b: (2, "lost"), a: (3, "lost")}


def test_n9_in_the_lobby_one_away_60_s_leaves_and_a_spectator_sits():
    t, pids = lobby(4)
    t.drop(pids[0], 1.0)
    t.tick(1.0 + GRACE)
    assert pids[0] not in t.members
    assert t.members[pids[3]].seat is not None and t.members[pids[3]].status == "waiting"


# ---------------------------------------------------------------- N10
def test_n10_no_undo_in_a_race():
    t, (f,) = started(1)
    play(t, f, LINE[:3])
    assert code(t.move, f, "U", 2.0) == "move/undo"
    assert t.members[f].game.moves == 3


def test_illegal_moves_are_refused_and_change_nothing():
    t, (f,) = started(1)
    for bad in ("Kd>9", "As>1" if LINE[0] != "As>1" else "2s>1", "", "D D"):
        assert code(t.move, f, bad, 1.0) == "move/illegal"
    assert t.members[f].game.moves == 0


# ---------------------------------------------------------------- N11
def test_n11_again_same_players_one_seat_along_new_deal_score_kept():
    t, (a, b) = started(2)
    play(t, a, LINE)
    seats = {m.pid: m.seat for m in t.seated()}
    late = t.join("Late", 10.0)
    assert code(t.again, a, DEAL + 1, 11.0) == "role/not_host"
    t.again(HOST, DEAL + 1, 11.0)
    assert t.phase == RACING and t.race == 2 and t.deal == DEAL + 1
    assert {m.pid: m.seat for m in t.seated()} == {p: (s + 1) % 3 for p, s in seats.items()}
    assert t.members[late].status == "watching"
    assert t.members[a].score == 1.0 and t.members[a].game.moves == 0


def test_n11_change_settings_lets_newcomers_sit_and_keeps_the_score():
    t, (a,) = started(1)
    play(t, a, LINE)
    late = t.join("Late", 10.0)
    t.change_settings(HOST, 11.0)
    assert t.phase == LOBBY and t.members[late].seat is not None
    t.set_settings(HOST, 3, 5, 12.0)
    assert t.members[a].score == 1.0
    assert code(t.start, HOST, DEAL, 13.0) == "start/not_ready"


# ---------------------------------------------------------------- issue 18: outcomes and events
def kinds(t, since=0):
    return [(e["kind"], e["pid"]) for e in t.events_since(since)]


def outcome(t, pid):
    o = t.view(pid)["outcome"]
    return o and (o["result"], o["why"], o["place"])


def why(t):
    return {s["pid"]: s["why"] for s in t.standings}


def test_won_all_up_the_winner_and_the_others_hear_how():
    t, (a, b) = started(2)
    play(t, b, LINE[:30])
    n = t.event_n
    play(t, a, LINE)
    assert t.end == {"reason": "all_up", "winners": [a], "drawn": [], "decided_by": None}
    assert kinds(t, n)[-1] == ("ended", None) and kinds(t, n)[-2] == ("moved", a)
    assert outcome(t, a) == ("won", "all_up", 1)
    assert outcome(t, b) == ("lost", "foundation", 2)
    assert t.view(HOST)["outcome"]["result"] == "lost" and t.view(HOST)["outcome"]["of"] == 3
    assert t.view(HOST)["end"] == t.end


def test_lost_places_say_why_foundation_face_up_or_tie():
    i, j = _prefixes()                      # equal foundations, more face-up after i
    t, (a, b, c) = started(3, minutes=5)
    play(t, a, LINE[:max(i, j) + 40])
    play(t, b, LINE[:i])
    play(t, c, LINE[:j])
    play(t, HOST, LINE[:j])
    t.tick(300.0)
    assert why(t)[a] == "foundation" and outcome(t, a)[0] == "won"
    assert (why(t)[b], why(t)[c], why(t)[HOST]) == ("face_up", "tie", "tie")
    assert t.standings[2]["place"] == t.standings[3]["place"] == 3


def test_a_draw_agreed_by_everyone_still_racing():
    t, (a, b) = started(2)
    t.resign(b, 1.0)
    n = t.event_n
    t.offer_draw(a, 2.0)
    t.answer_draw(HOST, t.offer["id"], True, 3.0)
    assert kinds(t, n) == [("offered", a), ("agreed", HOST), ("ended", None)]
    assert t.end["reason"] == "agreed" and sorted(t.end["drawn"]) == [HOST, a]
    assert outcome(t, a) == ("draw", "agreed", 1)
    assert outcome(t, b) == ("resigned", "resigned", 3)


def test_resigned_the_race_goes_on_without_you_then_the_last_one_left_wins():
    t, (a, b) = started(2)
    n = t.event_n
    t.resign(a, 1.0)
    assert kinds(t, n) == [("resigned", a)] and t.phase == RACING
    assert outcome(t, a) == ("resigned", "resigned", None)      # out, the race goes on
    assert t.can(a)["move"] is False and t.can(b)["move"] is True
    t.resign(HOST, 3.0)
    assert kinds(t, n)[-2:] == [("resigned", HOST), ("ended", None)]
    assert t.end == {"reason": "last_left", "winners": [b], "drawn": [], "decided_by": None}
    assert outcome(t, b) == ("won", "last_left", 1) and outcome(t, a) == ("resigned", "resigned", 3)


def test_counted_out_after_the_grace_and_the_grace_left_is_shown():
    t, (a, b) = started(2)
    t.drop(a, 5.0)
    t.tick(25.0)
    assert row(t.view(b), a)["away"] == GRACE - 20.0 and row(t.view(b), b)["away"] is None
    n = t.event_n
    t.tick(5.0 + GRACE)
    assert kinds(t, n) == [("counted_out", a)]
    assert outcome(t, a) == ("counted_out", "counted_out", None)
    t.drop(b, 70.0)
    t.tick(70.0 + GRACE)
    assert why(t) == {HOST: "last_left", b: "counted_out", a: "counted_out"}


def test_a_draw_offer_refused_cancelled_by_a_move_or_by_its_makers_resignation():
    t, (a, b) = started(2)
    n = t.event_n
    t.offer_draw(a, 1.0)
    t.answer_draw(b, t.offer["id"], False, 2.0)
    assert kinds(t, n) == [("offered", a), ("refused", b)]
    assert t.events_since(n)[-1]["offer"] == 1
    t.offer_draw(a, 3.0)
    play(t, HOST, LINE[:1], now=4.0)
    assert kinds(t, n)[-2:] == [("moved", HOST), ("cancelled", HOST)]
    assert t.events_since(n)[-1]["why"] == "moved"
    t.offer_draw(b, 5.0)
    t.resign(b, 6.0)
    assert kinds(t, n)[-2:] == [("resigned", b), ("cancelled", b)]
    assert t.events_since(n)[-1]["why"] == "out"


def test_the_lobby_tells_who_came_went_and_what_changed():
    t = Table("Host", 0.0)
    a = t.join("Anna", 0.0)
    t.set_ready(a, True, 1.0)
    t.set_ready(a, True, 1.5)                # no change: no event
    t.set_settings(HOST, 3, 5, 2.0)
    t.set_settings(HOST, 3, 5, 2.5)
    t.drop(a, 3.0)
    t.back(a, 4.0)
    b = t.join("Bohdan", 5.0)
    t.remove(HOST, b, 6.0)
    c = t.join("Vira", 7.0)
    t.drop(c, 8.0)
    t.tick(8.0 + GRACE)
    assert kinds(t) == [("joined", a), ("ready", a), ("settings", None), ("dropped", a),
                        ("back", a), ("joined", b), ("left", b), ("joined", c),
                        ("dropped", c), ("left", c)]
    ev = t.events_since(0)
    assert ev[6]["why"] == "removed" and ev[6]["name"] == "Bohdan" and ev[9]["why"] == "away"
    assert ev[2]["draw"] == 3 and ev[2]["minutes"] == 5
    assert [e["n"] for e in ev] == list(range(1, 11))
    t.start(HOST, DEAL, 200.0)
    assert t.events_since(10) == [{"n": 11, "kind": "started", "pid": None, "name": None,
                                   "race": 1, "deal": DEAL, "draw": 3, "minutes": 5}]


def test_events_are_kept_bounded_and_a_view_carries_those_after_its_number():
    from kosynka.race.table import EVENTS_KEPT
    t, (f,) = started(1)
    for _ in range(EVENTS_KEPT + 20):
        t.move(f, "D", 1.0)
    assert len(t.events) == EVENTS_KEPT and t.events[-1]["n"] == t.event_n
    v = t.view(HOST, since=t.event_n - 3)
    assert [e["n"] for e in v["events"]] == [t.event_n - 2, t.event_n - 1, t.event_n]
    assert t.view(HOST)["events"] == [] and v["event"] == t.event_n


def test_a_dropped_players_seat_is_freed_at_change_settings():
    t, (a, b, c) = started(3)
    late = t.join("Late", 1.0)
    t.drop(b, 2.0)
    t.resign(HOST, 2.5)
    t.resign(a, 2.6)
    t.resign(c, 2.7)
    assert t.phase == OVER                   # b, away, is the last one left
    t.change_settings(HOST, 10.0)
    assert t.members[b].seat is None and t.members[late].seat is not None
    assert ("seated", late) in kinds(t)
    t.back(b, 20.0)                          # back within the grace: watching, the seats are full
    assert t.members[b].seat is None and t.members[b].status == "watching"
    t.remove(HOST, late, 21.0)
    assert t.members[b].seat is not None     # a seat freed: the one back sits


def test_the_host_removes_a_stranger_who_blocks_the_start():
    t, (a, stranger) = lobby(2)
    t.set_ready(a, True, 1.0)
    assert code(t.start, HOST, DEAL, 2.0) == "start/not_ready"
    assert code(t.remove, a, stranger, 2.0) == "role/not_host"
    assert code(t.remove, HOST, HOST, 2.0) == "remove/host"
    t.remove(HOST, stranger, 2.0)
    assert stranger not in t.members
    t.start(HOST, DEAL, 3.0)
    assert code(t.remove, HOST, a, 4.0) == "race/started"


def test_spectators_are_capped():
    from kosynka.race.table import MAX_SEATS, MAX_WATCHERS
    t, pids = lobby(MAX_SEATS - 1 + MAX_WATCHERS)
    assert len(t.members) == MAX_SEATS + MAX_WATCHERS
    assert code(t.join, "One too many", 1.0) == "table/full"


def test_can_follows_the_rules_for_each_member():
    t, (a, b) = lobby(2)
    assert t.can(HOST)["settings"] and not t.can(HOST)["start"] and not t.can(a)["settings"]
    assert t.can(a)["ready"] and not t.can(HOST)["ready"]
    t.set_ready(a, True, 0.0)
    t.set_ready(b, True, 0.0)
    assert t.can(HOST)["start"] and t.can(HOST)["remove"]
    t.start(HOST, DEAL, 0.0)
    assert t.can(a)["offer"] and not t.can(a)["answer"]
    t.offer_draw(a, 1.0)
    assert not t.can(a)["answer"] and t.can(b)["answer"] and not t.can(b)["offer"]
    t.resign(b, 2.0)
    assert not any(t.can(b)[k] for k in ("move", "offer", "answer", "resign"))


# ---------------------------------------------------------------- N12: leaving is said
def test_n12_leave_in_the_lobby_frees_the_seat_at_once_and_a_spectator_sits():
    t, pids = lobby(4)
    t.leave(pids[0], 1.0)
    assert pids[0] not in t.members and t.members[pids[3]].seat is not None
    assert [(e["kind"], e["pid"], e.get("why")) for e in t.events_since(0)][-2:] == [
        ("left", pids[0], "left"), ("seated", pids[3], None)]


def test_n12_leave_during_a_race_is_a_resignation_told_at_once_the_rest_race_on():
    t, (a, b) = started(2)
    seen = t.event_n
    t.leave(a, 2.0)
    assert [(e["kind"], e["pid"]) for e in t.events_since(seen)] == [("resigned", a), ("left", a)]
    assert t.phase == RACING and [m.pid for m in t.still_racing()] == [HOST, b]
    r = row(t.view(b), a)
    assert (r["status"], r["out"], r["left"], r["away"]) == ("resigned", "resigned", True, None)
    t.tick(2.0 + 10 * GRACE)                     # said, not guessed: no grace runs out
    assert t.phase == RACING and len(t.events_since(seen)) == 2


def test_n12_leave_mid_race_by_the_last_rival_ends_it_the_host_wins():
    t, (a,) = started(1)
    t.leave(a, 2.0)
    assert t.phase == OVER and t.end["reason"] == "last_left" and results(t)[HOST] == (1, "won")
    assert outcome(t, a) == ("resigned", "resigned", 2)


def test_n12_leave_after_a_race_and_again_does_not_deal_that_player_in():
    t, (a, b) = started(2)
    t.resign(b, 1.0)
    t.resign(a, 2.0)                             # over: the host won
    t.leave(a, 3.0)
    assert set(t.view(HOST)["tables"]) == {str(HOST), str(a), str(b)}   # N2: still shown
    assert row(t.view(HOST), a)["left"] and t.view(HOST)["can"]["again"]
    t.again(HOST, DEAL, 4.0)
    assert a not in t.members and [m.pid for m in t.racers()] == [b, HOST]
    assert sorted(m.seat for m in t.seated()) == [0, 1]


def test_n12_again_needs_a_friend_who_did_not_leave():
    t, (a,) = started(1)
    t.resign(a, 1.0)
    t.leave(a, 2.0)
    assert not t.view(HOST)["can"]["again"]
    assert code(t.again, HOST, DEAL, 3.0) == "start/no_friend"
    t.change_settings(HOST, 3.0)
    assert a not in t.members and [m.pid for m in t.seated()] == [HOST]


def test_n12_a_spectator_who_leaves_goes_at_once_and_the_host_cannot_leave_its_table():
    t, pids = started(1)
    watcher = t.join("Watcher", 1.0)
    t.leave(watcher, 2.0)
    assert watcher not in t.members
    assert code(t.leave, HOST, 2.0) == "leave/host"
