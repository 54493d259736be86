"""A friend's side of the race (kosynka.race.player): what it accepts from a host
and what it tells its screen (issue 30)."""
import copy
import json

import pytest
from race_helpers import LINE, Table

from kosynka.messages import MessageError
from kosynka.race import protocol as P
from kosynka.race.player import SILENT_S
from kosynka.race.table import GRACE, HOST, RaceError
from kosynka.race.transport import Link

INF, NAN = float("inf"), float("nan")


# ---------------------------------------------------------------- issue 30 item 7: numbers
def _racing():
    """A timed race with an open offer, moves made and a friend away: a view of
    the race (with every event since the table opened) for friend 1."""
    t = Table(friends=2)
    t.me.set_settings(1, 5)
    t.start()
    p1, p2 = t.players
    p1.play(LINE[0])
    p2.offer_draw()
    t.run()
    t.net.cut(t.links[1])
    t.run()
    t.net.run(until=t.net.now + 7)
    t.host.tick()
    return t, t.host.table.view(p1.pid, since=0)


def _over():
    t = Table(friends=1)
    t.start()
    t.players[0].resign()
    t.run()
    return t, t.host.table.view(t.players[0].pid, since=0)


# (which view, path): every number a view carries; a str in a path after "events"
# is an event's kind
FIELDS = [
    ("racing", ("you",)), ("racing", ("race",)), ("racing", ("deal",)),
    ("racing", ("clock",)), ("racing", ("ends_in",)), ("racing", ("event",)),
    ("racing", ("players", 1, "pid")), ("racing", ("players", 1, "seat")),
    ("racing", ("players", 1, "score")), ("racing", ("players", 2, "away")),
    ("racing", ("players", 1, "foundation")), ("racing", ("players", 1, "face_up")),
    ("racing", ("players", 1, "moves")),
    ("racing", ("offer", "id")), ("racing", ("offer", "by")), ("racing", ("offer", "agreed", 0)),
    ("racing", ("events", "joined", "n")), ("racing", ("events", "joined", "pid")),
    ("racing", ("events", "joined", "seat")), ("racing", ("events", "started", "race")),
    ("racing", ("events", "started", "deal")), ("racing", ("events", "moved", "moves")),
    ("racing", ("events", "moved", "foundation")), ("racing", ("events", "moved", "face_up")),
    ("racing", ("events", "offered", "offer")),
    ("over", ("standings", 0, "pid")), ("over", ("standings", 0, "place")),
    ("over", ("standings", 0, "foundation")), ("over", ("standings", 0, "face_up")),
    ("over", ("standings", 0, "moves")),
    ("over", ("outcome", "place")), ("over", ("outcome", "of")),
    ("over", ("outcome", "foundation")), ("over", ("outcome", "face_up")),
    ("over", ("outcome", "moves")),
    ("over", ("end", "winners", 0)), ("over", ("events", "ended", "winners", 0)),
]


def _bad(path):
    """Non-finite, negative, too big (a deal number goes up to 2⁶⁴ − 1)."""
    return [INF, -INF, NAN, -1, 1e300, 1 << 64 if path[-1] == "deal" else 2 ** 53]


def _set(view, path, value):
    node = view
    for i, key in enumerate(path[:-1]):
        node = (next(e for e in node if e["kind"] == key) if path[i - 1:i] == ("events",)
                else node[key])
    node[path[-1]] = value


@pytest.fixture(scope="module")
def views():
    return {"racing": _racing(), "over": _over()}


@pytest.mark.parametrize("which, path", FIELDS, ids=lambda f: ".".join(map(str, f))
                         if isinstance(f, tuple) else f)
def test_issue30_7_a_view_with_a_number_out_of_range_is_refused(views, which, path):
    """JSON Infinity, NaN, 1e400 (a float infinity in Python), negative or
    too big: the player refuses the view and keeps its last good one, as for
    any other malformed view; it never raises."""
    t, good = views[which]
    p1 = t.players[0]
    P.parse_to_player(P.view(t.host.state + 1, p1.ack, good))       # the view itself passes
    before = p1.view
    for bad in _bad(path):
        v = copy.deepcopy(good)
        _set(v, path, bad)
        text = P.view(t.host.state + 1, p1.ack, v)
        with pytest.raises(MessageError) as e:
            P.parse_to_player(text)
        assert e.value.code == "msg/field"
        t.links[0].on_message(text)                                  # never raises
        assert p1.view is before


@pytest.mark.parametrize("field, value", [("away", 61.0), ("ends_in", 5 * 60 + 1),
                                          ("score", -0.5), ("seat", 4)])
def test_issue30_7_a_number_past_its_own_range_is_refused(views, field, value):
    t, good = views["racing"]
    v = copy.deepcopy(good)
    if field in ("ends_in",):
        v[field] = value * 3              # past the longest race (15 minutes)
    else:
        v["players"][2 if field == "away" else 1][field] = value
    with pytest.raises(MessageError):
        P.parse_to_player(P.view(1, 0, v))


@pytest.mark.parametrize("text", [
    P.welcome(1, 2, "ab", 0).replace('"pid":2', '"pid":9007199254740992'),
    P.welcome(1, 2, "ab", 0).replace('"ack":0', '"ack":1e400'),
    P.view(9, 3, Table(friends=0).me.view).replace('"ack":3', '"ack":-Infinity'),
    P.sync(4, 3, 3, 1, 7, 3, []).replace('"race":1', '"race":NaN'),
    P.sync(4, 3, 3, 1, 7, 3, []).replace('"ref":3', '"ref":9007199254740992'),
    P.reject(5, 2, None, "x/y", "z").replace('"ref":2', '"ref":Infinity'),
    P.reject(5, 2, None, "x/y", "z").replace('"id":5', '"id":9007199254740992'),
])
def test_issue30_7_a_host_message_with_a_number_out_of_range_is_refused(text):
    with pytest.raises(MessageError):
        P.parse_to_player(text)
    assert json.loads(text.replace("Infinity", "1").replace("NaN", "1"))   # only the number is bad


@pytest.mark.parametrize("grace", [INF, NAN, -1, 60.5, None, "60"])
def test_issue30_7_a_ping_with_a_grace_out_of_range_is_refused(grace):
    text = P.ping(3, 60.0).replace('"grace":60.0', f'"grace":{json.dumps(grace)}')
    with pytest.raises(MessageError):
        P.parse_to_player(text)


# ---------------------------------------------------------------- issue 30 items 5, 6: the host's end
TICK = 0.25            # the pages' interval (web/race: host.tick and player.tick)


def _ticking(t, until, host=True, each=None):
    """The pages' interval on the fake clock until ``until`` (the host's page
    ticks too unless it is frozen); ``each()`` after every beat."""
    def beat():
        if host:
            t.host.tick()
        for p in t.players:
            p.tick()
        if each is not None:
            each()
        if t.net.now + TICK <= until:
            t.net.at(t.net.now + TICK, beat)
    t.net.at(t.net.now, beat)
    t.net.run(until=until)


def _cut_unnoticed(t, i, friend_sees, host_sees):
    """Friend i's path goes now; each page notices seconds later (as in Chromium:
    the friend's 6–8 s into a cut, the host's 10–13 s)."""
    link = t.links[i]
    link._cut = link.peer._cut = True
    t.net.at(t.net.now + friend_sees, link._drop)
    t.net.at(t.net.now + host_sees, link.peer._drop)


@pytest.mark.parametrize("phase", [0.05, 0.4, 0.8])
def test_issue30_6_one_clock_the_friends_grace_agrees_with_the_hosts_within_a_second(phase):
    """The host's figure is the truth: the friend shows it as of the host's last
    ping, corrected for the time since; the host counts from its first ping
    that went unanswered — so however late each page notices the cut, both
    count down the same grace (it was 6 s apart in a 45-s cut)."""
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    cut_at = t.net.now + 20.0 + phase
    t.net.at(cut_at, lambda: _cut_unnoticed(t, 0, friend_sees=7.0, host_sees=12.0))
    pairs = []

    def look():
        host_row = next(r for r in t.host.table.view(HOST)["players"] if r["pid"] == p1.pid)
        if host_row["away"] is not None and p1.grace_left is not None:
            pairs.append((t.net.now, host_row["away"], p1.grace_left))

    _ticking(t, cut_at + 40, each=look)      # the pages tick all along
    assert pairs and pairs[0][0] <= cut_at + 12.5          # from the host's noticing on
    assert all(abs(host - mine) <= 1.0 for _, host, mine in pairs), pairs[:3]
    assert all(GRACE - 1.5 <= mine + now - cut_at <= GRACE + 1 for now, _, mine in pairs)


def test_issue30_6_the_grace_runs_out_on_both_screens_within_a_second():
    t = Table(friends=2)
    t.start()
    p1, _ = t.players
    t.net.at(10.3, lambda: _cut_unnoticed(t, 0, friend_sees=6.0, host_sees=11.0))
    seen = {}

    def look():
        r = next(r for r in t.host.table.view(HOST)["players"] if r["pid"] == p1.pid)
        if r["out"] == "dropped":
            seen.setdefault("host", t.net.now)
        if p1.ended == "gone":
            seen.setdefault("friend", t.net.now)

    _ticking(t, 10.3 + GRACE + 5, each=look)
    assert abs(seen["host"] - seen["friend"]) <= 1.0 and seen["host"] <= 10.3 + GRACE + 1


def test_issue30_5_a_host_gone_silent_is_a_lost_connection_the_table_gone_at_the_graces_end():
    """The host's page freezes with its link up (no Leave, no pagehide): the
    friend's screen shows the connection lost once the host's pings stop, the
    grace counting down, and when it has run out the table is gone — an event
    for the screen — not five minutes later."""
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    _ticking(t, 30.0)
    assert not p1.lost and p1.grace_left is None and p1.racing
    frozen_at = t.net.now
    p1.take_events()
    _ticking(t, frozen_at + SILENT_S + 0.5, host=False)
    assert p1.connected and p1.lost and GRACE - SILENT_S - 2 < p1.grace_left < GRACE - SILENT_S
    assert p1.ended is None and p1.take_events() == []
    _ticking(t, frozen_at + GRACE - 1, host=False)
    assert p1.ended is None and 0 < p1.grace_left <= 1
    _ticking(t, frozen_at + GRACE + 1, host=False)
    assert p1.ended == "gone" and not p1.racing and p1.view["outcome"] is None   # no result
    assert p1.take_events() == [{"n": None, "kind": "gone", "pid": HOST, "name": "Host"}]
    with pytest.raises(RaceError):
        p1.play(LINE[0])


def test_issue30_5_the_hosts_word_after_the_table_seemed_gone_is_taken_again():
    """The friend's network came back after the grace (a 75-s cut): the host,
    alive, answers — counted out, the result as it decided it."""
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    _ticking(t, 5.0)
    t.net.cut(t.links[0])
    _ticking(t, 5.0 + GRACE + 2)
    assert p1.ended == "gone" and t.host.table.phase == "over"
    t.connect(0)
    _ticking(t, t.net.now + 2)
    assert p1.ended is None and not p1.lost and p1.view["outcome"]["result"] == "counted_out"
    assert p1.standings == t.me.view["standings"]


def test_issue30_5_the_friend_answers_pings_and_the_host_does_not_count_them_out():
    t = Table(friends=1)
    t.start()
    _ticking(t, 3 * GRACE)
    (p1,) = t.players
    assert p1.racing and not p1.lost and t.host.rejected == {}
    assert next(r for r in t.me.view["players"] if r["pid"] == p1.pid)["connected"]


class _Shaky(Link):
    """A link whose path can be lost under the open channel (ICE ``disconnected``)."""

    def __init__(self, inner):
        super().__init__()
        self.inner, self.path = inner, True
        inner.on_message = lambda text: self.on_message(text)
        inner.on_status = lambda status: self.on_status(status)

    connected = property(lambda self: self.inner.connected)
    steady = property(lambda self: self.path)

    def send(self, text):
        self.inner.send(text)

    def close(self):
        self.inner.close()


def test_issue30_6_a_link_whose_path_is_lost_is_lost_at_once_with_the_hosts_figure():
    t = Table(friends=1)
    t.start()
    (p1,) = t.players
    link = _Shaky(t.links[0])
    p1.connect(link)                      # (a join on the same link: answered again)
    _ticking(t, 4.0)
    link.path = False                     # ICE disconnected: the channel still open
    assert p1.connected and p1.lost and GRACE - 1 <= p1.grace_left <= GRACE
    link.path = True
    assert not p1.lost and t.host.rejected == {}
