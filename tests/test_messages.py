"""The shared message envelope (kosynka.messages): what a peer's bad text gets."""

import pytest

from kosynka.messages import MessageError, Protocol

P = Protocol("test", 3, {"move": {"move": str, "seq": int}, "hello": {"name": (str, None)}},
             max_bytes=200)


def code(text):
    with pytest.raises(MessageError) as e:
        P.parse(text)
    return e.value.code


def test_round_trip():
    msg = P.build("move", 5, move="Ah>F", seq=2)
    assert P.parse(P.dumps(msg)) == {"v": 3, "id": 5, "kind": "move", "move": "Ah>F", "seq": 2}


@pytest.mark.parametrize("text, expected", [
    (b"{}", "msg/not_text"),
    ("x" * 201, "msg/too_big"),
    ("[" * 60 + "]" * 60, "msg/not_json"),
    ("{not json", "msg/not_json"),
    ("[1, 2]", "msg/not_object"),
    ('{"id": 1, "kind": "hello", "name": "a"}', "msg/version"),
    ('{"v": true, "id": 1, "kind": "hello", "name": "a"}', "msg/version"),
    ('{"v": 2, "id": 1, "kind": "hello", "name": "a"}', "msg/version"),
    ('{"v": 3, "id": -1, "kind": "hello", "name": "a"}', "msg/id"),
    ('{"v": 3, "id": 1.5, "kind": "hello", "name": "a"}', "msg/id"),
    ('{"v": 3, "id": 1, "kind": "fly", "name": "a"}', "msg/kind"),
    ('{"v": 3, "id": 1, "kind": ["hello"], "name": "a"}', "msg/kind"),
    ('{"v": 3, "id": 1, "kind": "hello"}', "msg/field"),
    ('{"v": 3, "id": 1, "kind": "move", "move": "D", "seq": true}', "msg/field"),
    ('{"v": 3, "id": 1, "kind": "hello", "name": "a", "admin": 1}', "msg/field"),
])
def test_bad_text_is_refused_with_a_code(text, expected):
    assert code(text) == expected


def test_null_where_allowed():
    assert P.parse('{"v": 3, "id": 0, "kind": "hello", "name": null}')["name"] is None


def test_build_refuses_a_programming_error():
    with pytest.raises(ValueError):
        P.build("move", 1, move=3, seq=1)
