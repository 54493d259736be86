"""STUN/TURN servers and relays (issue 19 items 1, 3, 7): the defaults, what a player
may type and the clear error for what cannot be used — never a silent empty value."""

from __future__ import annotations

import json

import pytest

from web.race import ice
from web.race.ice import IceError


@pytest.mark.parametrize("url", [
    "stun:stun.l.google.com:19302", "stun:10.0.0.1", "stuns:example.org:5349",
    "turn:turn.example.org:3478?transport=udp", "turns:[2001:db8::1]:443?transport=tcp",
    "STUN:Example.ORG", "turn:127.0.0.1",
])
def test_good_urls(url):
    assert ice.check_url(url).lower() == url.lower().strip()


@pytest.mark.parametrize("url, code", [
    ("", "ice/scheme"), ("stun.example.org", "ice/scheme"), ("http://x.org", "ice/scheme"),
    ("stun://x.org", "ice/host"), ("stun:", "ice/host"), ("stun:bad_host", "ice/host"),
    ("stun:x.org:0", "ice/port"), ("stun:x.org:70000", "ice/port"), ("stun:x.org:ab", "ice/port"),
    ("stun:x.org?transport=udp", "ice/transport"), ("turn:x.org?transport=sctp", "ice/transport"),
    ("turn:[::1", "ice/host"), ("turn:[zz]:3478", "ice/host"), ("stun:" + "a" * 300, "ice/too_long"),
    (None, "ice/scheme"), (42, "ice/scheme"),
])
def test_bad_urls_say_why(url, code):
    with pytest.raises(IceError) as e:
        ice.check_url(url)
    assert e.value.code == code


def test_turn_needs_a_username_and_a_credential():
    ok = ice.check_server({"urls": "turn:t.example.org", "username": "ann", "credential": "s3cret"})
    assert ok == {"urls": "turn:t.example.org", "username": "ann", "credential": "s3cret"}
    for bad in ({"urls": "turn:t.example.org"}, {"urls": "turn:t.example.org", "username": "ann"},
                {"urls": "stun:s.example.org", "username": "a", "credential": "b"},
                {"urls": "turn:t.example.org", "username": "a\n", "credential": "b"}):
        with pytest.raises(IceError) as e:
            ice.check_server(bad)
        assert e.value.code == "ice/credential"
    assert ice.check_server("stun:s.example.org") == {"urls": "stun:s.example.org"}
    assert ice.check_server({"urls": ["stun:a.org", "turn:b.org"], "username": "u",
                             "credential": "p"})["urls"] == ["stun:a.org", "turn:b.org"]


def test_settings_from_storage():
    # unset: the defaults, two STUN servers of two operators, several relays
    servers, err = ice.load_ice(None)
    assert err is None and servers == list(ice.DEFAULT_ICE) and len(servers) >= 2
    assert len({s["urls"].split(".")[-2] for s in servers}) >= 2
    relays, err = ice.load_relays(None)
    assert err is None and len(relays) >= 3 and all(r.startswith("wss://") for r in relays)
    # set: replaces the defaults; [] is "same Wi-Fi only"
    assert ice.load_ice("[]") == ([], None)
    turn = [{"urls": "turn:10.1.0.2:3478", "username": "k", "credential": "k"}]
    assert ice.load_ice(json.dumps(turn)) == (turn, None)
    assert ice.load_relays('["ws://127.0.0.1:4000"]') == (["ws://127.0.0.1:4000"], None)
    # unusable: the defaults, and the reason (the page says it)
    for text in ("{", '"stun:x"', '[{"urls": "turn:x.org"}]', json.dumps(["stun:x.org"] * 9)):
        servers, err = ice.load_ice(text)
        assert servers == list(ice.DEFAULT_ICE) and err.code.startswith("ice/")
    for text in ("[]", '["https://x.org"]', '["wss://"]', "null"):
        relays, err = ice.load_relays(text)
        assert relays == list(ice.DEFAULT_RELAYS) and err.code == "ice/relay" or err.code == "ice/json"


def test_server_text_never_shows_the_credential():
    s = {"urls": "turn:t.example.org", "username": "ann", "credential": "s3cret"}
    assert "s3cret" not in ice.server_text(s) and "turn:t.example.org" in ice.server_text(s)


def test_a_stored_value_too_deep_to_read_safely_gives_the_defaults():
    deep = "[" * 10_000 + "]" * 10_000          # Pyodide's runtime dies parsing this
    servers, err = ice.load_ice(deep)
    relays, err2 = ice.load_relays(deep)
    assert (servers, relays) == (list(ice.DEFAULT_ICE), list(ice.DEFAULT_RELAYS))
    assert err.code == err2.code == "ice/json"
