"""The host decides (issue 10 item 2): players over in-memory links; one test
per reject reason — each gets an explicit reject, changes nothing, and the
table runs on; reconnects resynchronise from the host's copy (N9)."""
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from race_helpers import DEAL, LINE, Table

from kosynka.position import Rules
from kosynka.race import protocol as P
from kosynka.race.host import SILENT_PINGS
from kosynka.race.player import JOIN_AGAIN_S, Player
from kosynka.race.protocol import PING_S
from kosynka.race.table import GRACE, HOST, RaceError
from kosynka.race.transport import Link


@pytest.fixture
def race():
    t = Table()
    t.start()
    return t


def test_friends_join_get_seats_and_everyone_the_same_view(race):
    p1, p2 = race.players
    assert (p1.pid, p2.pid) == (1, 2)
    assert p1.view["players"] == race.me.view["players"]
    assert p1.game.start == p2.game.start == race.me.game.start and p1.game.number == DEAL


def test_moves_reach_the_host_and_the_others_see_counters_only(race):
    p1, p2 = race.players
    for m in LINE[:30]:
        p1.play(m)
    race.run()
    host_copy = race.host.table.members[p1.pid].game
    assert host_copy.log == LINE[:30] and host_copy.position == p1.game.position
    mine = next(r for r in p2.view["players"] if r["pid"] == p1.pid)
    assert mine["moves"] == 30 and p2.view["tables"] is None
    assert race.host.rejected == {}


def test_the_race_ends_with_every_peer_holding_the_hosts_standings(race):
    p1, p2 = race.players
    for m in LINE:
        p1.play(m)
    race.run()
    standings = race.me.view["standings"]
    assert standings[0]["pid"] == p1.pid and standings[0]["result"] == "won"
    assert p1.standings == p2.standings == standings
    assert set(p2.view["tables"]) == {"0", "1", "2"}     # N2: every table shown at the end


def test_a_player_of_another_version_is_told_to_update_and_not_seated():
    t = Table(friends=0)
    h, p = t.net.pair("old")
    t.host.attach(h)
    got = []
    p.on_message = got.append
    p.send(P.join(0, "Old").replace(f'"v":{P.VERSION}', '"v":0'))
    t.run()
    (answer,) = [json.loads(x) for x in got]
    assert answer["kind"] == "refuse" and "update Kosynka" in answer["detail"]
    assert len(t.host.table.members) == 1


def test_a_player_who_gets_a_host_of_another_version_says_update():
    t = Table(friends=1)
    t.links[0].on_message(P.view(99, 0, {"phase": "lobby", "players": []}).replace(f'"v":{P.VERSION}', f'"v":{P.VERSION + 1}'))
    assert "update Kosynka" in t.players[0].error


def test_a_bad_name_is_refused_not_seated():
    t = Table(friends=0)
    t.players.append(Player("x" * 30, t.net.clock))
    t.connect(0)
    t.run()
    assert t.players[0].pid is None and "at most 24" in t.players[0].error
    assert t.host.rejected == {"name/bad": 1}


def _forgeries(race):
    p1 = race.players[0]
    n = p1._id + 1
    return {
        "msg/not_json": "garbage {{{",
        "msg/too_big": "x" * 5000,
        "msg/kind": json.dumps({"v": P.VERSION, "id": n, "kind": "win", "pid": 1}),
        "msg/version": P.resign(n, 1).replace(f'"v":{P.VERSION}', '"v":7'),
        "msg/field": json.dumps({"v": P.VERSION, "id": n, "kind": "resign"}),
        "join/again": P.join(n, "Again"),
        "sender/wrong": P.resign(n, 2),
        "seq/duplicate": P.resign(1, 1),
        "seq/gap": P.resign(n + 5, 1),
        "move/illegal": P.move(n, 1, 1, "Kd>9", None),
        "move/undo": P.move(n, 1, 1, "U", None),
        "claim/false": P.move(n, 1, 1, LINE[0], {"foundation": 52, "face_up": 0, "moves": 1}),
        "race/stale": P.move(n, 1, 7, LINE[0], None),
        "draw/stale": P.answer_draw(n, 1, 5, True),
        "race/started": P.ready(n, 1, True),
        "role/not_host": P.again(n, 1),              # the host's seat's only (N11)
    }


def _still(view):
    return {k: v for k, v in view.items() if k not in ("clock", "ends_in")}


REASONS = ["msg/not_json", "msg/too_big", "msg/kind", "msg/version", "msg/field", "join/again",
           "sender/wrong", "seq/duplicate", "seq/gap", "move/illegal", "move/undo",
           "claim/false", "race/stale", "draw/stale", "race/started", "role/not_host"]


@pytest.mark.parametrize("reason", REASONS)
def test_every_bad_message_gets_a_reject_with_its_reason_and_changes_nothing(race, reason):
    p1, p2 = race.players
    p1.play(LINE[0])
    race.run()
    before = _still(race.me.view)
    answers = race.raw(0, _forgeries(race)[reason])
    assert [(a["kind"], a["code"]) for a in answers] == [("reject", reason)]
    assert race.host.rejected == {reason: 1} and race.host.log[-1]["code"] == reason
    assert _still(race.me.view) == before
    p1.play(LINE[1])                          # the table runs on, the player unharmed
    race.run()
    assert race.host.table.members[1].game.log == LINE[:2] == p1.game.log
    assert not p1.rejects


def test_a_message_before_joining_is_refused():
    t = Table(friends=0)
    h, p = t.net.pair("x")
    t.host.attach(h)
    got = []
    p.on_message = got.append
    p.send(P.resign(1, 1))
    t.run()
    assert json.loads(got[0])["code"] == "join/first"


def test_a_comeback_with_a_wrong_token_is_refused(race):
    h, p = race.net.pair("thief")
    race.host.attach(h)
    got = []
    p.on_message = got.append
    p.send(P.join(0, "Thief", 1, "0" * 16))
    race.run()
    assert json.loads(got[0])["code"] == "join/token"
    assert race.host.table.members[1].name == "P1"


def test_n10_the_player_refuses_undo_itself(race):
    with pytest.raises(RaceError):
        race.players[0].play("U")


def test_n9_reconnect_resynchronises_the_players_game_from_the_hosts_copy(race):
    p1, _ = race.players
    for m in LINE[:20]:
        p1.play(m)
    race.run()
    race.net.cut(race.links[0])
    race.run()
    assert not next(r for r in race.me.view["players"] if r["pid"] == 1)["connected"]
    # the page reloads: a fresh Player that remembers only its pid and token
    fresh = Player("P1", race.net.clock)
    fresh.pid, fresh.token = p1.pid, p1.token
    race.players[0] = fresh
    race.net.run(until=race.net.now + GRACE - 5)
    race.connect(0)
    race.run()
    assert fresh.game.log == LINE[:20] and fresh.game.position == p1.game.position
    fresh.play(LINE[20])
    race.run()
    assert race.host.table.members[1].game.log == LINE[:21]
    assert race.host.table.members[1].status == "racing"


def test_n9_moves_made_while_the_link_was_down_are_sent_after_the_comeback(race):
    p1, _ = race.players
    p1.play(LINE[0])
    race.run()
    race.net.cut(race.links[0])
    for m in LINE[1:5]:
        p1.play(m)
    race.run()
    race.connect(0)
    race.run()
    assert race.host.table.members[1].game.log == LINE[:5] == p1.game.log


class _SameConnection(Link):
    """A new link object on the player's page over the connection the host's end
    still holds: Trystero may keep a connection across a leave and a join, so the
    friend's page gets a new link while the host's page never saw the old one go."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        inner.on_message = lambda text: self.on_message(text)
        inner.on_status = lambda status: self.on_status(status)

    @property
    def connected(self):
        return self.inner.connected

    def send(self, text):
        self.inner.send(text)

    def close(self):
        self.inner.close()


def test_n9_a_comeback_over_the_link_the_host_still_holds_is_answered_and_its_moves_arrive(race):
    p1, _ = race.players
    p1.play(LINE[0])
    race.run()
    host_end = race.links[0].peer
    heard = host_end.on_message
    host_end.on_message = lambda text: None          # the path is gone: this move is lost
    p1.play(LINE[1])
    race.run()
    host_end.on_message = heard
    p1.connect(_SameConnection(race.links[0]))       # the page's "new" link: it joins again
    race.run()
    assert race.host.table.members[1].game.log == LINE[:2] == p1.game.log
    assert race.host.rejected == {} and p1.view["players"] == race.me.view["players"]


def test_the_host_ticks_the_timed_end_by_itself():
    t = Table(friends=1)
    t.me.set_settings(1, 5)
    t.start()
    assert t.host.next_deadline() == t.host.table.started_at + 300
    t.net.at(t.host.next_deadline(), t.host.tick)
    t.run()
    assert t.players[0].standings == t.me.view["standings"]
    assert t.players[0].view["phase"] == "over"


def test_again_deals_a_new_race_to_the_players(race):
    p1, p2 = race.players
    for m in LINE:
        p1.play(m)
    race.run()
    race.me.again()
    race.run()
    assert race.host.table.race == 2 and p1.race == p2.race == 2
    assert p1.game.number == race.host.table.deal != DEAL and p1.game.moves == 0
    assert next(r for r in p2.view["players"] if r["pid"] == 1)["score"] == 1.0


def test_draw_offers_between_players(race):
    p1, p2 = race.players
    p1.offer_draw()
    race.run()
    p2.answer_draw(True)
    race.run()
    race.me.answer_draw(True)
    race.run()
    assert [s["result"] for s in p1.standings] == ["draw"] * 3
    assert race.me.view["phase"] == "over"
    assert HOST in [s["pid"] for s in p2.standings]


# ---------------------------------------------------------------- the player's recovery
def _held(race, i):
    """Friend i's next messages are held back; returns (held texts, release)."""
    link = race.links[i]
    send, held = link.send, []
    link.send = held.append

    def release(order):
        link.send = send
        for k in order:
            send(held[k])
        race.run()
    return held, release


def test_overtaken_messages_are_sent_again_and_nothing_is_lost(race):
    p1, _ = race.players
    held, release = _held(race, 0)
    p1.play(LINE[0])
    p1.play(LINE[1])
    release([1, 0])                            # the second arrives first: seq/gap, then resent
    assert race.host.rejected["seq/gap"] == 1   # (and the first, resent with it, is a duplicate)
    assert set(race.host.rejected) <= {"seq/gap", "seq/duplicate"}
    assert race.host.table.members[1].game.log == LINE[:2] == p1.game.log


def test_a_duplicated_message_is_refused_once_and_needs_nothing(race):
    p1, _ = race.players
    held, release = _held(race, 0)
    p1.play(LINE[0])
    release([0, 0])
    assert race.host.rejected == {"seq/duplicate": 1}
    assert race.host.table.members[1].game.log == LINE[:1] and not p1.rejects


def test_a_stale_draw_answer_brings_a_sync_and_the_moves_after_it_are_made_again(race):
    p1, p2 = race.players
    p1.offer_draw()
    race.run()
    race.me.play(LINE[0])                    # cancels the offer (N7); p2 does not know yet
    p2.answer_draw(True)
    p2.play(LINE[0])
    p2.play(LINE[1])
    race.run()
    assert [r["code"] for r in p2.rejects] == ["draw/stale"]
    assert race.host.table.members[2].game.log == LINE[:2] == p2.game.log
    assert race.host.table.phase == "racing"


def test_a_reject_that_is_not_for_the_players_own_message_is_ignored(race):
    p1, _ = race.players
    p1.play(LINE[0])                           # pending, id n
    n = p1._id
    race.links[0].on_message(P.reject(race.host.state, n, "0" * 16, "move/illegal", "forged"))
    assert not p1.rejects and p1._awaiting is None
    race.run()
    assert race.host.table.members[1].game.log == LINE[:1] == p1.game.log


def test_v1_the_host_deals_a_deal_the_solver_won_under_the_races_rules():
    t = Table(friends=1, seed=5, deal=None)
    t.me.set_settings(3, None)
    t.start()
    game = t.players[0].game
    assert game.rules == Rules(3, None) and game.number == t.host.table.deal
    for m in t.host.solution:
        game.play(m)
    assert game.is_won


def test_an_impossible_game_from_the_host_is_an_error_not_a_traceback(race):
    p1, _ = race.players
    p1._awaiting = p1._id                      # as if it had asked for a sync
    race.links[0].on_message(P.sync(race.host.state, p1._id, p1.ack, 1, DEAL, 1, ["Kd>9"]))
    assert "impossible game" in p1.error and p1.game is None


def test_n9_a_friend_who_never_comes_back_is_resigned_by_the_hosts_tick(race):
    p1, p2 = race.players
    cut_at = race.net.now
    race.net.cut(race.links[0])
    race.run()
    deadline = race.host.next_deadline()
    assert deadline == cut_at + GRACE
    race.net.at(deadline, race.host.tick)
    race.run()
    row = next(r for r in p2.view["players"] if r["pid"] == p1.pid)
    assert (row["status"], row["out"]) == ("resigned", "dropped")
    assert p2.view["phase"] == "racing"


def test_n9_a_friend_back_after_the_race_they_were_counted_out_of_gets_its_result():
    """Counted out (N9), the race over, away however long: back while the table
    still shows that race, the friend gets its result as the host decided it."""
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    t.net.cut(t.links[0])
    t.run()
    t.net.at(t.host.next_deadline(), t.host.tick)     # counted out: the race ends
    t.run()
    t.net.run(until=t.net.now + 10 * GRACE)
    t.host.tick()
    assert t.me.view["phase"] == "over" and p1.pid in t.host.table.members
    t.connect(0)
    t.run()
    assert p1.standings == t.me.view["standings"] and p1.error_code is None
    assert next(s for s in p1.standings if s["pid"] == p1.pid)["result"] == "lost"


def test_n9_a_friend_back_after_the_table_let_them_go_is_told_so_not_seated_anew():
    """Counted out, the race over, then the host changes the settings and the friend
    stays away past another grace: the seat is let go. The friend's page coming back
    then hears ``table/left`` — not a new seat under another pid with a fresh score."""
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    pid = p1.pid
    t.net.cut(t.links[0])
    t.run()
    t.net.at(t.host.next_deadline(), t.host.tick)     # counted out (N9): the race ends
    t.run()
    t.me.change_settings()
    t.run()
    t.net.at(t.host.next_deadline(), t.host.tick)     # away past the grace: let go
    t.run()
    assert pid not in t.host.table.members and t.me.view["phase"] == "lobby"
    t.connect(0)
    t.run()
    assert p1.error_code == "table/left" and p1.pid == pid
    assert len(t.host.table.members) == 1 and t.host.rejected["table/left"] == 1
    with pytest.raises(RaceError):                  # let go: it sends nothing more
        p1.play(LINE[0])


def _losing_first(link):
    """``link`` loses the first message that reaches it (seen in Chromium: the
    first message on a fresh data channel never arrived, though both ends opened)."""
    handler, lost = link.on_message, []

    def receive(text):
        if lost:
            handler(text)
        else:
            lost.append(text)
    link.on_message = receive
    return lost


@pytest.mark.parametrize("side", ["join lost", "answer lost"])
def test_a_join_not_answered_is_sent_again_and_seats_the_friend_once(side):
    t = Table(friends=0)
    t.players.append(Player("Bohdan", t.net.clock))
    h, p = t.net.pair("seat1")
    t.host.attach(h)
    t.players[0].connect(p)
    t.links.append(p)
    lost = _losing_first(h if side == "join lost" else p)
    t.run()
    friend = t.players[0]
    assert len(lost) == 1 and friend.pid is None
    assert len(t.host.table.members) == (2 if side == "answer lost" else 1)  # seated, not told
    friend.tick()                                    # too soon: nothing is sent again
    t.run()
    assert friend.pid is None
    t.net.run(until=t.net.now + JOIN_AGAIN_S)
    friend.tick()
    t.run()
    assert friend.pid == 1 and friend.view["players"] == t.me.view["players"]
    assert len(t.host.table.members) == 2 and t.host.rejected == {}
    friend.tick()                                    # answered: never again
    t.run()
    assert t.net.idle


def test_a_join_refused_is_not_sent_again():
    t = Table(friends=0)
    t.players.append(Player("x" * 30, t.net.clock))
    t.connect(0)
    t.run()
    t.net.run(until=t.net.now + 2 * JOIN_AGAIN_S)
    sent = t.net.sent
    t.players[0].tick()
    assert t.net.sent == sent and t.host.rejected == {"name/bad": 1}


def test_another_join_on_a_seated_link_is_still_refused(race):
    (answer,) = race.raw(0, P.join(7, "P1"))      # not its join word for word
    assert answer["code"] == "join/again"


# ---------------------------------------------------------------- the host's own seat
def test_the_local_link_delivers_in_order_and_never_inside_another_handler():
    from kosynka.race.memory import local_pair
    a, b = local_pair()
    got, depth = [], [0]

    def on_b(text):
        depth[0] += 1
        got.append((text, depth[0]))
        if text == "ping":
            b.send("pong")
            b.send("pong2")
        depth[0] -= 1

    b.on_message = on_b
    a.on_message = lambda text: got.append((text, depth[0]))
    a.send("ping")
    assert got == [("ping", 1), ("pong", 0), ("pong2", 0)]   # all answered when send returns
    statuses = []
    a.on_status, b.on_status = statuses.append, statuses.append
    a.close()
    assert statuses == ["closed", "dropped"] and not b.connected
    a.send("lost")
    assert got[-1] == ("pong2", 0)


def test_the_hosts_own_seat_is_a_player_whose_messages_the_host_checks(race):
    me = race.me
    assert me.pid == HOST and race.host.acks[HOST] == me.ack and me.game.number == DEAL
    me.play(LINE[0])                         # answered before play() returns: same page
    assert race.host.table.members[HOST].game.log == LINE[:1] and not me._pending
    with pytest.raises(RaceError):
        me.play("U")                          # N10 for the host's seat too
    forged = P.move(me._id + 1, HOST, 1, LINE[1], {"foundation": 52, "face_up": 0, "moves": 2})
    me.link.send(forged)                      # the host's own page gets no trust for free
    assert race.host.rejected == {"claim/false": 1}
    assert race.host.table.members[HOST].game.log == LINE[:1]


# ---------------------------------------------------------------- issue 18: events through the host
def test_each_view_carries_the_events_its_member_has_not_had(race):
    p1, p2 = race.players
    p1.take_events(), p2.take_events(), race.me.take_events()
    p1.play(LINE[0])
    p1.offer_draw()
    race.run()
    assert [(e["kind"], e["pid"]) for e in p2.take_events()] == [("moved", 1), ("offered", 1)]
    assert p2.take_events() == []                         # taken once
    race.me.answer_draw(False)
    race.run()
    assert [(e["kind"], e["pid"]) for e in p1.take_events()] == [("moved", 1), ("offered", 1),
                                                                 ("refused", HOST)]


def test_a_comeback_hears_no_backlog_but_what_happens_after(race):
    p1, p2 = race.players
    race.net.cut(race.links[0])
    race.run()
    p2.play(LINE[0])
    race.run()
    p1.take_events()
    race.connect(0)
    race.run()
    assert [e["kind"] for e in p1.take_events()] == []    # the view says how things are
    assert [e["kind"] for e in p2.take_events()][-1] == "back"


# ---------------------------------------------------------------- issue 18 item 5: hardening
def test_the_hosts_log_keeps_every_count_and_only_the_latest_refusals(race):
    from kosynka.race.host import LOG_KEPT
    link = race.links[0]
    for i in range(LOG_KEPT * 3):
        link.send("garbage %d {{{" % i)
    race.run()
    assert race.host.rejected["msg/not_json"] == LOG_KEPT * 3
    assert len(race.host.log) == LOG_KEPT and race.host.log[-1]["code"] == "msg/not_json"


def _host_says(race, i, text):
    """``text`` reaches friend i as if the host had sent it."""
    race.links[i].on_message(text)


@pytest.mark.parametrize("bad", [{"race": 7, "draw": 2}, {"race": 7, "deal": 1 << 64},
                                 {"race": 7, "deal": -1}, {"tables": {"1": {"tableau": 5}}},
                                 {"events": [{"n": 99, "kind": "ended", "pid": None,
                                              "name": None, "reason": "won"}]},
                                 {"players": [{"pid": 1}]}, {"can": {"move": 1}}])
def test_a_player_never_raises_on_a_view_it_cannot_use_and_keeps_its_last(race, bad):
    p1, _ = race.players
    before = p1.view
    v = dict(before, **bad)
    _host_says(race, 0, P.view(race.host.state + 5, p1.ack, v))     # no exception
    assert p1.view == before and p1.game.number == DEAL
    p1.play(LINE[0])
    race.run()
    assert race.host.table.members[1].game.log == LINE[:1]


def test_a_sync_with_a_deal_out_of_range_is_refused_by_the_player(race):
    p1, _ = race.players
    p1._request_sync()
    _host_says(race, 0, P.sync(race.host.state + 1, p1._awaiting, p1.ack, 1, 1 << 64, 1, []))
    assert p1.game is not None and p1.game.number == DEAL    # the bad sync changed nothing


def test_play_between_a_comebacks_sync_and_its_first_view_raises_only_race_error(race):
    p1, _ = race.players
    race.net.cut(race.links[0])
    race.run()
    back = Player("P1", race.net.clock)             # a reload: it remembers pid and token only
    back.pid, back.token = p1.pid, p1.token
    race.players[0] = back
    race.connect(0)
    race.net.run(stop=lambda: back.game is not None)
    assert back.view is None
    with pytest.raises(RaceError) as e:
        back.play(LINE[0])
    assert e.value.code == "race/wait"
    race.run()
    back.play(LINE[0])
    race.run()
    assert race.host.table.members[1].game.log == LINE[:1]


def test_the_host_removes_a_stranger_seated_in_the_lobby():
    t = Table(friends=2)
    friend, stranger = t.players
    friend.set_ready(True)
    t.run()
    assert not t.me.view["can"]["start"]
    t.me.remove(stranger.pid)
    t.run()
    assert stranger.error_code == "table/left" and not t.links[1].connected
    assert [p["name"] for p in t.me.view["players"]] == ["Host", "P1"]
    assert t.me.view["can"]["start"] and stranger.pid not in t.host.tokens
    t.connect(1)               # the stranger's page comes back by itself (N9's reconnect):
    t.run()                    # let go is let go — no seat, no watching
    assert len(t.me.view["players"]) == 2 and len(t.host.table.members) == 2
    assert stranger.error_code == "table/left"
    t.me.start()
    t.run()
    assert friend.game is not None and t.host.rejected == {}


def test_the_host_refuses_a_join_past_the_spectator_cap():
    from kosynka.race.table import MAX_SEATS, MAX_WATCHERS
    t = Table(friends=MAX_SEATS - 1 + MAX_WATCHERS)
    assert all(p.pid is not None for p in t.players)
    t.players.append(Player("Late", t.net.clock))
    t.connect(len(t.players) - 1)
    t.run()
    assert t.players[-1].error_code == "table/full" and t.players[-1].pid is None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_player_never_raises_whatever_the_host_sends(data):
    """A fuzz of the host's messages: real ones with a field changed to any JSON."""
    t = Table(friends=1)
    t.start()
    p1 = t.players[0]
    p1.play(LINE[0])
    texts = []
    link = t.links[0]
    handler = link.on_message
    link.on_message = lambda x: (texts.append(x), handler(x))
    t.me.play(LINE[0])
    p1.offer_draw()
    t.run()
    link.on_message = handler
    junk = st.recursive(st.none() | st.booleans() | st.integers(-2, 2 ** 65) | st.floats()
                        | st.text(max_size=8), lambda c: st.lists(c, max_size=3)
                        | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=6)
    for _ in range(5):
        msg = json.loads(data.draw(st.sampled_from(texts)))
        target = msg                              # a field at any depth gets any JSON
        while True:
            keys = list(range(len(target))) if isinstance(target, list) else sorted(target)
            if not keys:
                break
            key = data.draw(st.sampled_from(keys))
            if isinstance(target[key], (dict, list)) and target[key] and data.draw(st.booleans()):
                target = target[key]
                continue
            target[key] = data.draw(junk)
            break
        link.on_message(json.dumps(msg))         # never raises
    p1.play("D") if p1.racing else None


# ---------------------------------------------------------------- issue 30: leaving is said (N12, N13)
def test_n12_a_friends_leave_during_a_race_is_a_resignation_everyone_hears_at_once(race):
    p1, p2 = race.players
    p2.take_events(), race.me.take_events()
    p1.play(LINE[0])
    p1.leave()                                   # after its move, on the same link
    race.run()
    assert race.host.table.members[1].game.log == LINE[:1]
    for side in (p2, race.me):
        assert [(e["kind"], e["pid"]) for e in side.take_events()][-2:] == [("resigned", 1),
                                                                             ("left", 1)]
        r = next(r for r in side.view["players"] if r["pid"] == 1)
        assert r["status"] == "resigned" and r["left"]
    assert race.host.table.phase == "racing" and not race.links[0].connected
    assert p1.ended == "left" and not p1.racing and race.host.rejected == {}
    race.connect(0)                              # this Player joins no more:
    race.run()
    assert race.host.rejected == {} and 1 not in race.host.conns
    again = Player("P1", race.net.clock)         # nor is a page that kept its seat let back
    again.pid, again.token = 1, p1.token
    race.players[0] = again
    race.connect(0)
    race.run()
    assert again.error_code == "table/left" and 1 not in race.host.conns


def test_n12_a_friends_leave_after_a_race_frees_the_seat_and_again_deals_without_them(race):
    p1, p2 = race.players
    race.me.resign()
    p1.resign()
    race.run()                                   # over: P2 won
    p1.leave()
    race.run()
    assert next(r for r in race.me.view["players"] if r["pid"] == 1)["left"]
    race.me.again()
    race.run()
    assert [r["pid"] for r in race.me.view["players"]] == [2, HOST]
    assert p2.game is not None and p2.race == 2 and p1.race == 1
    assert race.host.rejected == {}


def test_n13_the_hosts_leave_closes_the_table_every_friend_is_told_at_once(race):
    p1, p2 = race.players
    p1.take_events()
    race.me.leave()                              # the host's own seat: the table closes
    race.run()
    for p in (p1, p2):
        assert p.ended == "closed" and not p.racing and p.view["outcome"] is None   # no result
        assert p.take_events()[-1] == {"n": None, "kind": "closed", "pid": HOST, "name": "Host"}
        with pytest.raises(RaceError):
            p.play(LINE[0])
    assert race.host.closed and not any(link.connected for link in race.links)
    sent = race.net.sent
    race.host.tick()
    p1.tick()
    race.run()
    assert race.net.sent == sent                 # nothing more from either side


def test_n13_the_hosts_page_closing_tells_every_friend(race):
    p1, _ = race.players
    race.host.close()                            # pagehide
    race.run()
    assert p1.ended == "closed" and race.host.closed


def test_n9_a_friend_whose_link_goes_silent_is_dropped_and_comes_back():
    """A half-open link (the friend's page closed without a word, or froze: the link
    never says down) is dropped when it has answered none of SILENT_PINGS pings:
    told to the table, the grace run from the first unanswered ping, the link
    closed; the friend's page, there again, comes back to its seat (N9)."""
    t = Table(friends=2)
    t.start()
    p1, p2 = t.players
    p1.play(LINE[0])
    t.run()
    silent_at = t.net.now
    for end in (t.links[0], t.links[0].peer):          # nothing passes; neither end knows
        end._cut = True
    for k in range(SILENT_PINGS + 1):
        t.net.at(silent_at + (k + 1) * PING_S, t.host.tick)
    t.run()
    row = next(r for r in p2.view["players"] if r["pid"] == p1.pid)
    assert not row["connected"] and row["status"] == "racing"
    assert t.host.table.members[p1.pid].dropped_at == pytest.approx(silent_at + PING_S, abs=0.1)
    assert not t.links[0].peer.connected                 # closed at the host
    t.connect(0)                                         # the page, back: a new link
    t.run()
    row = next(r for r in p2.view["players"] if r["pid"] == p1.pid)
    assert row["connected"] and t.host.table.members[p1.pid].game.log == LINE[:1]
    assert [e["kind"] for e in t.host.table.events][-2:] == ["dropped", "back"]


def test_n9_a_friend_who_answers_the_pings_is_never_dropped_however_long():
    """Pings answered: however many the host sends, the friend stays connected."""
    t = Table(friends=1)
    t.start()
    for _k in range(4 * SILENT_PINGS):
        t.net.at(t.net.now + PING_S, t.host.tick)
        t.run()
    assert all(m.connected for m in t.host.table.members.values())
    assert "dropped" not in [e["kind"] for e in t.host.table.events]


def _at(t, clock):
    """The table's network clock moved on to ``clock`` before anything happens."""
    t.net.at(clock, lambda: None)
    t.run()


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 1e6, allow_nan=False))
@example(4.4)        # (4.4 + 60) - 4.4 > 60 in floating point: stop 34's red CI
def test_n9_a_drop_at_any_clock_reading_is_shown_at_once_with_the_whole_grace(clock):
    """Whatever the host's clock reads when a friend's link goes down, every other
    seat (the host's own too) sees them disconnected at once, with the whole grace
    left — the view is one a player takes (its ``away`` 0 to GRACE), never refused."""
    t = Table(friends=2)
    _at(t, clock)
    t.start()
    p1, p2 = t.players
    t.net.cut(t.links[0])
    t.run()
    for seat in (t.me, p2):
        row = next(r for r in seat.view["players"] if r["pid"] == p1.pid)
        assert (row["connected"], row["away"]) == (False, GRACE)


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 1000, allow_nan=False))
@example(124.3)      # started at 124.4: (124.4 + 900) - 124.4 > 900 in floating point
def test_n6_the_longest_timed_race_starts_with_its_whole_time_at_any_clock_reading(clock):
    """A 15-minute race started whenever: every seat is shown the race running with
    15 minutes to go (a view with ``ends_in`` past the longest race is refused)."""
    t = Table(friends=1)
    _at(t, clock)
    t.me.set_settings(1, 15)
    t.start()
    for seat in (t.me, t.players[0]):
        assert (seat.view["phase"], seat.view["ends_in"]) == ("racing", 15 * 60)
