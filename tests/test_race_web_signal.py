"""The race links' codec on CPython (issue 11 item 2, O4): SDP cut to what a data
channel needs and rebuilt, invite and reply codes, and a clear ``link/…`` error for
every stale, malformed or foreign link."""

import base64
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web.race import signal as S
from web.race.sdp import Candidate, Description, build_sdp, parse_sdp
from web.race.signal import CodeError, Invite, Reply

# Chromium 156 offers and answers after complete gathering (as rtc.mjs makes them):
# host candidates as mDNS names (the default) and as addresses (the e2e flag).
OFFER_MDNS = """v=0\r
o=- 1838098933000007184 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=extmap-allow-mixed\r
a=msid-semantic: WMS\r
m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 0.0.0.0\r
a=candidate:4116488599 1 udp 2113937151 055324c2-54b8-4f3a-93a8-5dff41b0a31a.local 44771 typ host generation 0 network-cost 999\r
a=candidate:3941861523 1 udp 2113942271 9233c11d-50ec-44c0-872e-3e397ca193ae.local 42806 typ host generation 0 network-cost 999\r
a=candidate:1 1 tcp 1518280447 192.0.2.2 9 typ host tcptype active generation 0\r
a=ice-ufrag:7c10\r
a=ice-pwd:TZyHishCsRycQRq145GY9NpU\r
a=ice-options:trickle\r
a=fingerprint:sha-256 D0:5F:93:87:04:C0:5D:28:D7:C2:94:F4:0D:44:DE:64:B5:99:D1:47:F0:7B:BE:81:94:01:72:4F:43:7A:B0:D5\r
a=setup:actpass\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""
ANSWER_IP = """v=0\r
o=- 7954316544822219172 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
m=application 56857 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 192.0.2.2\r
a=candidate:2091989220 1 udp 2113937151 192.0.2.2 56857 typ host generation 0 network-cost 999\r
a=candidate:3084384516 1 udp 2113942271 fd00::2 54380 typ host generation 0 network-cost 999\r
a=candidate:842163049 1 udp 1677729535 203.0.113.5 40000 typ srflx raddr 192.0.2.2 rport 56857 generation 0\r
a=candidate:842163049 2 udp 1677729534 203.0.113.5 40001 typ srflx raddr 192.0.2.2 rport 56858 generation 0\r
a=ice-ufrag:zDYj\r
a=ice-pwd:1I2GMO1d+FX7rPQAjZNxKsZ0\r
a=ice-options:trickle\r
a=fingerprint:sha-256 52:5F:28:1E:A4:49:B5:C2:E0:0E:86:94:F3:B9:79:3F:CA:52:33:7D:7D:38:E4:33:8E:4F:97:CD:BC:AE:A1:07\r
a=setup:active\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""
NOW = 29_400_000  # minutes since the epoch (late 2025)
BASE = "https://friends.example/kosynka/"


def invite(**kw) -> Invite:
    fields = dict(offer=parse_sdp(OFFER_MDNS), table=0xC0FFEE01, slot=2, draw=3, minutes=10,
                  issued=NOW, host="Олена", stun="")
    fields.update(kw)
    return Invite(**fields)


def reply(**kw) -> Reply:
    fields = dict(answer=parse_sdp(ANSWER_IP), table=0xC0FFEE01, slot=2, offer_ufrag="7c10")
    fields.update(kw)
    return Reply(**fields)


def reseal(body: bytes) -> str:
    """A code for ``body`` with a valid checksum (to reach the checks behind it)."""
    data = body + struct.pack(">I", zlib.crc32(body))
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def body_of(code: str) -> bytes:
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))[:-4]


# ------------------------------------------------------------------ SDP

def test_sdp_essentials_of_a_browser_offer():
    d = parse_sdp(OFFER_MDNS)
    assert (d.ufrag, d.pwd, d.hash, d.setup) == ("7c10", "TZyHishCsRycQRq145GY9NpU", "sha-256",
                                                 "actpass")
    assert d.fingerprint.hex().upper().startswith("D05F9387")
    # UDP candidates of component 1 only; TCP (port 9) and component 2 are left out
    assert d.candidates == (
        Candidate("055324c2-54b8-4f3a-93a8-5dff41b0a31a.local", 44771),
        Candidate("9233c11d-50ec-44c0-872e-3e397ca193ae.local", 42806),
    )
    a = parse_sdp(ANSWER_IP)
    assert a.setup == "active"
    assert [c.type for c in a.candidates] == ["host", "host", "srflx"]


def test_rebuilt_sdp_says_the_same():
    for sdp in (OFFER_MDNS, ANSWER_IP):
        d = parse_sdp(sdp)
        rebuilt = build_sdp(d)
        assert parse_sdp(rebuilt) == d
        assert "m=application 9 UDP/DTLS/SCTP webrtc-datachannel" in rebuilt
        assert "a=sctp-port:5000" in rebuilt and rebuilt.endswith("\r\n")
    # candidate priorities keep the browser's order
    prios = [int(line.split()[3]) for line in build_sdp(parse_sdp(ANSWER_IP)).split("\r\n")
             if line.startswith("a=candidate")]
    assert prios == sorted(prios, reverse=True)


def test_incomplete_sdp_is_refused():
    with pytest.raises(ValueError):
        parse_sdp(OFFER_MDNS.replace("a=ice-pwd:", "a=ice-pw:"))
    with pytest.raises(ValueError):
        parse_sdp(OFFER_MDNS.replace("sha-256 D0:5F", "sha-256 D0"))


# ------------------------------------------------------------------ codes

def test_O4_invite_and_reply_round_trip_and_are_short():
    for item in (invite(), invite(minutes=None, draw=1, stun="stun:stun.example.org:3478"),
                 reply(), reply(slot=15)):
        code = S.encode(item)
        assert S.decode(code) == item
        assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    # figures (issue 11 item 8): an invite with two mDNS candidates and a Cyrillic name
    assert len(S.encode(invite())) <= 170
    assert len(S.encode(reply())) <= 150
    # the packing is the compression: deflate does not shorten it
    raw = body_of(S.encode(invite()))
    assert len(zlib.compress(raw, 9)) >= len(raw)


def test_links_name_their_kind():
    assert S.link(BASE + "#deal=4", invite()).startswith(BASE + "#race=")
    assert S.link(BASE, reply()).startswith(BASE + "#reply=")


def test_host_name_is_cut_on_a_character_boundary():
    long = "Ї" * 40  # 80 bytes of UTF-8
    got = S.decode(S.encode(invite(host=long)))
    assert got.host == "Ї" * (S.NAME_BYTES // 2)
    # a name is carried as text, whatever it looks like (shown with textContent)
    html = '<img src=x onerror=alert(1)>'
    assert S.decode(S.encode(invite(host=html))).host == html


def test_pasted_links_with_messenger_noise():
    item = invite()
    url = S.link(BASE, item)
    code = S.encode(item)
    wrapped = url[:60] + "\n" + url[60:120] + " " + url[120:]
    for text in (url, "#race=" + code, code, f"  {url}  ", wrapped, f"Join me: {url} !"):
        assert S.parse_link(text) == item, text
    assert S.parse_link(S.link(BASE, reply()), S.Reply) == reply()


@pytest.mark.parametrize("text", [
    "", "hello", "https://example.org/", BASE + "#deal=42&draw=1", "#race=", "AAAAAAAAAAAA",
    "#race=" + "A" * 2000, "\u00a0юнікод", None, 42,
])
def test_foreign_links_get_a_clear_error(text):
    with pytest.raises(CodeError) as e:
        S.parse_link(text)
    assert e.value.code in ("link/foreign", "link/corrupt")


def test_damaged_codes_are_corrupt():
    code = S.encode(invite())
    flipped = code[:40] + ("A" if code[40] != "A" else "B") + code[41:]
    for bad in (code[:-3], code[:50], flipped, code + "AA"):
        with pytest.raises(CodeError) as e:
            S.decode(bad)
        assert e.value.code == "link/corrupt", bad
    # a reply code under an invite's name
    with pytest.raises(CodeError) as e:
        S.parse_link("#race=" + S.encode(reply()))
    assert e.value.code == "link/corrupt"


def test_checked_fields_behind_a_valid_checksum():
    body = bytearray(body_of(S.encode(invite())))
    # slot 0 and 16 do not exist
    seat_at = len(body) - (4 + 1 + 1 + 4 + 1 + len("Олена".encode()) + 1) + 4
    for slot in (0, 16):
        b = bytearray(body)
        b[seat_at] = slot
        with pytest.raises(CodeError, match="no such invite slot"):
            S.decode(reseal(bytes(b)))
    b = bytearray(body)
    b[seat_at + 1] = 0xF0  # unknown settings
    with pytest.raises(CodeError, match="settings"):
        S.decode(reseal(bytes(b)))
    # an invite whose description is an answer
    with pytest.raises(CodeError, match="offer"):
        S.decode(S.encode(invite(offer=parse_sdp(ANSWER_IP))))


def test_other_version_says_update():
    body = bytearray(body_of(S.encode(invite())))
    body[0] = (S.VERSION + 1) << 4 | 1
    with pytest.raises(CodeError) as e:
        S.decode(reseal(bytes(body)))
    assert e.value.code == "link/version" and "update" in e.value.detail


def test_wrong_kind_is_named():
    with pytest.raises(CodeError) as e:
        S.parse_link(S.link(BASE, invite()), S.Reply)
    assert e.value.code == "link/kind"
    with pytest.raises(CodeError) as e:
        S.parse_link(S.encode(reply()), S.Invite)
    assert e.value.code == "link/kind"


def test_stale_reply_and_old_invite():
    r = reply()
    S.check_reply(r, 0xC0FFEE01, {2: "7c10", 3: "abcd"})
    for table, waiting in ((0xC0FFEE02, {2: "7c10"}),   # another table
                           (0xC0FFEE01, {2: "Zz99"}),   # the slot was invited again since
                           (0xC0FFEE01, {3: "7c10"})):  # the slot was answered (no open invite)
        with pytest.raises(CodeError) as e:
            S.check_reply(r, table, waiting)
        assert e.value.code == "link/stale"
    S.check_invite_age(invite(), NOW + S.STALE_MINUTES)
    with pytest.raises(CodeError) as e:
        S.check_invite_age(invite(), NOW + S.STALE_MINUTES + 1)
    assert e.value.code == "link/stale"


def test_bad_values_are_refused_when_encoding():
    with pytest.raises(ValueError):
        S.encode(invite(minutes=7))
    with pytest.raises(ValueError):
        S.encode(invite(draw=2))
    with pytest.raises(ValueError):
        S.encode(invite(offer=Description("ab", "x" * 22, "sha-256", bytes(32), "actpass")))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_an_item_or_a_code_error(text):
    try:
        S.parse_link(text)
    except CodeError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.binary(min_size=1, max_size=4))
def test_mutated_codes_never_raise_anything_else(pos, junk):
    body = bytearray(body_of(S.encode(invite(stun="stun:example.org"))))
    pos %= len(body)
    body[pos:pos + len(junk)] = junk
    try:
        S.decode(reseal(bytes(body)))  # valid checksum: the parser itself must hold
    except CodeError:
        pass


def test_plain_words_are_foreign_and_named_codes_damaged():
    for text in ("hello there", "Kosynka", "https://example.org/#deal=42"):
        with pytest.raises(CodeError) as e:
            S.parse_link(text)
        assert e.value.code == "link/foreign", text
    with pytest.raises(CodeError) as e:
        S.parse_link("#reply=AAAAAAAAAAAAAAAAAAAAAA")
    assert e.value.code == "link/corrupt"
