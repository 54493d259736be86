"""The table link (issue 19 item 1): one link for the whole table; what it carries
(the room's secret, the host page's id, the settings, the relays, the host's ICE
servers), round trips, and every damaged or foreign link refused with its code."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from web.race import ice, signal
from web.race.packing import cut_utf8
from web.race.signal import CodeError, Table

APP = "https://friends.example.org/kosynka/"


def table(**kw) -> Table:
    base = dict(table=0x1234ABCD, secret=bytes(range(16)), host_peer="Ab3dEfGh1jKlMnOpQrSt",
                draw=1, minutes=None, issued=29_000_000, host="Anna",
                relays=ice.DEFAULT_RELAYS, ice=ice.DEFAULT_ICE)
    base.update(kw)
    return Table(**base)


def test_default_table_link_is_short():
    url = signal.link(APP, table())
    assert url.startswith(APP + "#table=")
    assert len(url) - len(APP) < 100           # defaults travel as indices
    assert signal.parse_link(url) == table()
    assert signal.parse_link(url, Table) == table()


def test_typed_servers_travel_with_the_table():
    turn = {"urls": "turn:turn.example.org:3478?transport=udp", "username": "anna",
            "credential": "pässwörd"}
    t = table(relays=("wss://relay.example.org/nostr", ice.DEFAULT_RELAYS[0]),
              ice=(turn, {"urls": ["stun:a.example.org", "stun:b.example.org"]}), host="Борис",
              draw=3, minutes=15)
    assert signal.parse_link(signal.link(APP, t)) == t
    same_wifi = table(ice=())
    assert signal.parse_link(signal.link(APP, same_wifi)).ice == ()


def test_room_comes_from_the_secret_only():
    a, b = table(), table(secret=bytes(16))
    assert signal.room_of(a) != signal.room_of(b)
    assert signal.room_of(a) == signal.room_of(table(table=1, host="Other"))
    room, password = signal.room_of(a)
    assert bytes(range(16)).hex() not in room  # the password half is not in the room id


def test_kinds_are_kept_apart():
    url = signal.link(APP, table())
    with pytest.raises(CodeError) as e:
        signal.parse_link(url, signal.Invite)
    assert e.value.code == "link/kind"
    # a name that disagrees with the code
    with pytest.raises(CodeError) as e:
        signal.parse_link(url.replace("#table=", "#race="))
    assert e.value.code == "link/corrupt"


def _recode(body: bytes) -> str:
    return base64.urlsafe_b64encode(body + struct.pack(">I", zlib.crc32(body))).rstrip(b"=").decode()


def test_damaged_links_are_refused_with_their_code():
    code = signal.encode(table())
    with pytest.raises(CodeError) as e:
        signal.parse_link(APP + "#table=" + code[:-6])
    assert e.value.code == "link/corrupt"
    body = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))[:-4]
    for bad in (body + b"\0",                       # extra bytes
                body[:-3],                          # cut, CRC right
                body[:21] + b"\xff" * 15 + body[36:]):          # host id out of range
        with pytest.raises(CodeError) as e:
            signal.decode(_recode(bad))
        assert e.value.code == "link/corrupt"
    newer = bytes([(signal.VERSION + 1) << 4 | 3]) + body[1:]
    with pytest.raises(CodeError) as e:
        signal.decode(_recode(newer))
    assert e.value.code == "link/version"


def test_encode_refuses_what_it_cannot_carry():
    for bad in (table(host_peer="short"), table(host_peer="!" * 20), table(secret=b"x"),
                table(relays=("https://x.org",)), table(ice=({"urls": "turn:x.org"},))):
        with pytest.raises(ValueError):
            signal.encode(bad)


peer_ids = st.text(alphabet=signal.PEER_ID_CHARS, min_size=20, max_size=20)


@given(tid=st.integers(0, 2**32 - 1), secret=st.binary(min_size=16, max_size=16), peer=peer_ids,
       draw=st.sampled_from([1, 3]), minutes=st.sampled_from(signal.MINUTES),
       name=st.text(min_size=1, max_size=24).filter(lambda s: s.strip()))
def test_round_trip(tid, secret, peer, draw, minutes, name):
    t = table(table=tid, secret=secret, host_peer=peer, draw=draw, minutes=minutes, host=name)
    back = signal.parse_link(signal.link(APP, t))
    assert back.host == cut_utf8(name, signal.NAME_BYTES).decode("utf-8", "replace")
    assert back == table(table=tid, secret=secret, host_peer=peer, draw=draw, minutes=minutes,
                         host=back.host)


@given(st.binary(max_size=200))
def test_garbage_never_raises_anything_else(data):
    code = base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    try:
        signal.parse_link(APP + "#table=" + code)
    except CodeError:
        pass
