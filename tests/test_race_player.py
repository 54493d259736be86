"""A friend's side of the race (kosynka.race.player): what it accepts from a host
and what it tells its screen (issue 30)."""
import copy
import json

import pytest
from race_helpers import LINE, Table

from kosynka.messages import MessageError
from kosynka.race import protocol as P

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
