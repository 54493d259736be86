"""The race protocol (issue 10 item 3): builders round-trip; the validator
refuses a corpus of bad messages with a stable code and never raises anything else."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kosynka.messages import MessageError
from kosynka.race import protocol as P
from kosynka.race.table import Table

VIEW = Table("Host", 0.0).view(0)


def code(text):
    with pytest.raises(MessageError) as e:
        P.parse_to_host(text)
    return e.value.code


def msg(**fields):
    return json.dumps({"v": P.VERSION, "id": 3, **fields})


CLAIM = {"foundation": 4, "face_up": 9, "moves": 12}


@pytest.mark.parametrize("text", [
    P.join(0, "Аня"), P.join(5, "Bob", 2, "00ff00ff00ff00ff"), P.ready(1, 2, True),
    P.move(2, 1, 1, "Ah>F", CLAIM), P.move(2, 1, 1, "D", None), P.offer_draw(3, 1),
    P.answer_draw(4, 1, 7, False), P.resign(5, 1), P.sync_request(6, 1),
    P.settings(7, 0, 3, 5), P.settings(7, 0, 1, None), P.start(8, 0), P.again(9, 0),
    P.change_settings(10, 0), P.leave(11, 1), P.pong(11, 1),
])
def test_every_player_message_round_trips(text):
    assert P.dumps(P.parse_to_host(text)) == text


@pytest.mark.parametrize("text", [
    P.welcome(1, 2, "ab", 0), P.refuse(0, "msg/version", "update Kosynka"),
    P.view(9, 3, VIEW), P.sync(4, 3, 3, 1, 7, 3, ["D", "Ah>F"]),
    P.reject(5, None, None, "msg/not_json", "not JSON"), P.ping(6, 60.0), P.ping(6, 0), P.closed(7),
])
def test_every_host_message_round_trips(text):
    assert P.dumps(P.parse_to_player(text)) == text


BAD = [
    (None, "msg/not_text"),
    (b'{"v":1}', "msg/not_text"),
    ("x" * (P.TO_HOST_BYTES + 1), "msg/too_big"),
    (msg(kind="join", name="é" * 600, pid=None, token=None), "msg/too_big"),
    ("", "msg/not_json"),
    ("\x00\xff garbage", "msg/not_json"),
    ('{"v":1,"id":1,"kind":"move"', "msg/not_json"),
    ("[" * 50 + "]" * 50, "msg/not_json"),
    ("[1, 2, 3]", "msg/not_object"),
    ('"move"', "msg/not_object"),
    (msg(kind="resign", pid=1).replace(f'"v": {P.VERSION}', f'"v": {P.VERSION + 1}'), "msg/version"),
    ('{"id": 1, "kind": "resign", "pid": 1}', "msg/version"),
    ('{"v": "1", "id": 1, "kind": "resign", "pid": 1}', "msg/version"),
    (msg(kind="resign", pid=1).replace('"id": 3', '"id": -1'), "msg/id"),
    (msg(kind="resign", pid=1).replace('"id": 3', '"id": 1.5'), "msg/id"),
    (msg(kind="resign", pid=1).replace('"id": 3', '"id": true'), "msg/id"),
    (msg(kind="settings", draw=3), "msg/field"),
    (msg(kind="settings", pid=0, draw=3, minutes="5"), "msg/field"),
    (msg(kind="win", pid=1), "msg/kind"),
    (msg(kind="progress", foundation=52), "msg/kind"),
    (msg(kind="welcome", pid=1, token="x", ack=0), "msg/kind"),
    (msg(kind=None), "msg/kind"),
    (msg(kind="resign"), "msg/field"),
    (msg(kind="resign", pid="1"), "msg/field"),
    (msg(kind="resign", pid=-4), "msg/field"),
    (msg(kind="resign", pid=1, winner=1), "msg/field"),
    (msg(kind="ready", pid=1, ready=1), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F"), "msg/field"),
    (msg(kind="move", pid=1, race=1, move=["Ah>F"], claim=None), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F" * 3, claim=None), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F", claim={"foundation": 52}), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F", claim={**CLAIM, "won": True}), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F", claim={**CLAIM, "moves": -1}), "msg/field"),
    (msg(kind="move", pid=1, race=1, move="Ah>F", claim={**CLAIM, "moves": 1.0}), "msg/field"),
    (msg(kind="join", name="x" * 49, pid=None, token=None), "msg/field"),
    (msg(kind="join", name="x", pid=1, token=None), "msg/field"),
    (msg(kind="join", name="x", pid=1, token=""), "msg/field"),
    (msg(kind="join", name=5, pid=None, token=None), "msg/field"),
    (msg(kind="answer_draw", pid=1, offer=1, accept="yes"), "msg/field"),
]


@pytest.mark.parametrize("text, expected", BAD)
def test_bad_messages_are_refused_with_their_code(text, expected):
    assert code(text) == expected


def test_another_version_is_told_to_update():
    text = P.resign(1, 1).replace(f'"v":{P.VERSION}', f'"v":{P.VERSION + 1}')
    with pytest.raises(MessageError) as e:
        P.parse_to_host(text)
    assert "update Kosynka" in e.value.detail


@pytest.mark.parametrize("text", [
    P.view(9, 3, {"phase": "lobby", "players": []}),
    P.view(9, 3, {**VIEW, "race": "1"}),
    P.view(9, 3, {**VIEW, "players": [{"pid": 0}]}),
    P.view(9, 3, {**VIEW, "offer": {"by": 1}}),
    P.sync(4, 3, 3, 1, 7, 2, []),
    P.sync(4, 3, 3, 1, 7, 3, ["D", 5]),
])
def test_a_host_message_of_the_wrong_shape_is_refused(text):
    with pytest.raises(MessageError) as e:
        P.parse_to_player(text)
    assert e.value.code == "msg/field"


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=50),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                              lambda c: st.lists(c, max_size=4)
                              | st.dictionaries(st.sampled_from(["v", "id", "kind", "pid", "move",
                                                                 "claim", "name", "x"]), c, max_size=6),
                              max_leaves=12).map(json.dumps)))
def test_the_validator_never_raises_anything_but_message_error(text):
    try:
        P.parse_to_host(text)
        P.parse_to_player(text)
    except MessageError:
        pass
