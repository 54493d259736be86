"""Signaling by links (O4, issue 11 item 2): the WebRTC offer and answer travel in
the invite and reply links friends send each other; no server of ours sees them.

A browser's data-channel offer is about 700 characters of SDP, nearly all of it
fixed text. What the other side really needs is small — the ICE user fragment and
password, the DTLS certificate fingerprint, the DTLS role and the candidates
(address, port) — so a link carries only that, packed in bytes, and the page
rebuilds a valid SDP from it (:func:`build_sdp`). The candidates are complete: the
page gathers ICE before it makes a link (no trickle; host candidates take
milliseconds).

Code layout (bytes, then base64url without padding — safe in a URL fragment)::

    0        format version (high nibble) | kind (low nibble: 1 invite, 2 reply)
    …        ICE ufrag and password: length byte + 6 bits per ice-char
    …        fingerprint hash (low nibble) | DTLS setup role (high nibble), digest
    …        candidate count; per candidate: type | address kind, address, port
    …        invite: table id (4), slot, settings, issued (minutes, 4), host name,
             STUN server ("" = none) — reply: table id (4), slot, the offer's ufrag
    last 4   CRC-32 of all of the above

Deflate was measured and left out: the packed bytes are mostly random (keys,
fingerprint, addresses), and deflate made a typical invite longer, not shorter.

The table link (issue 19): ``<app address>#table=<code>``, one link for the whole
table, friends found through Nostr relays (``web/race/room.mjs``) — no SDP in it,
only what a friend's page needs to find the host's page and to trust it::

    0        format version | kind 3
    …        table id (4), secret (16: the Trystero room and the key that encrypts
             the SDP on the relays — it lives only in the link's fragment), the
             host page's peer id (20 base-62 characters in 15 bytes), settings,
             issued (minutes, 4), host name, the relays (each a byte: 0x80 | the
             index of a default, or the length of its URL, then the URL), the
             ICE servers (0x80 | the index of a default, or 0x40 if it has a
             username and credential | its URL count, the URLs, then those two)
    last 4   CRC-32

Links-only (the offline way): ``<app address>#race=<code>`` (an invite for one
friend) and ``<app address>#reply=<code>`` (a friend's answer for the host). :func:`parse_link`
takes a whole link, the part after ``#`` or the bare code, with stray spaces or line
breaks a messenger may add, and raises :class:`CodeError` — never anything else —
for what is not one of ours (``link/foreign``), damaged (``link/corrupt``), from
another version of Kosynka (``link/version``) or the wrong kind (``link/kind``).
Whether a reply still fits a waiting invite (``link/stale``) is the host's check
(:func:`check_reply`).
"""

from __future__ import annotations

import base64
import ipaddress
import re
import struct
import uuid
import zlib
from dataclasses import dataclass
from typing import TypeVar

from kosynka.race.table import (
    MINUTES,  # race kinds (N4): to the last card, timed minutes
)
from web.race import ice as ice_servers

T = TypeVar("T")

__all__ = [
    "CodeError", "Candidate", "Description", "Invite", "Reply",
    "parse_sdp", "build_sdp", "encode", "decode", "parse_link", "link",
    "check_reply", "check_invite_age", "NAME_BYTES", "STALE_MINUTES",
    "Table", "room_of", "PEER_ID_CHARS",
]

VERSION = 1
INVITE, REPLY, TABLE = 1, 2, 3
SLOTS = 15                          # invites a table may have open at once
NAME_BYTES = 48                     # a host name's UTF-8 bytes in a link (cut on a char)
STUN_BYTES = 120
MAX_CANDIDATES = 8
STALE_MINUTES = 24 * 60             # an invite older than a day is refused as stale

HASHES = {"sha-256": 32, "sha-384": 48, "sha-512": 64, "sha-1": 20}
_HASH_IDS = {name: i for i, name in enumerate(HASHES, 1)}
SETUPS = ("actpass", "active", "passive")
TYPES = ("host", "srflx", "relay", "prflx")
_IPV4, _IPV6, _MDNS, _NAME = range(4)
_ICE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_ICE_INDEX = {c: i for i, c in enumerate(_ICE)}
_CODE_RE = re.compile(r"(?:^|[#&?\s])(race|reply|table)=([A-Za-z0-9_-]+)")
SECRET_BYTES = 16
# Trystero's peer ids: 20 characters of this alphabet (its utils.mjs ``charSet``)
PEER_ID_CHARS = "0123456789AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUuVvWwXxYyZz"
PEER_ID_LEN = 20
_PEER_ID_BYTES = 15


class CodeError(ValueError):
    """A link or code that cannot be used; ``code`` is stable (``link/…``) and
    names the message the page shows (see ``web.i18n``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Candidate:
    """One ICE candidate of the UDP component: where the peer can be reached."""

    address: str
    port: int
    type: str = "host"


@dataclass(frozen=True)
class Description:
    """What a data channel's SDP says that the other side needs."""

    ufrag: str
    pwd: str
    hash: str                       # "sha-256", …
    fingerprint: bytes
    setup: str                      # "actpass" (offer), "active" / "passive" (answer)
    candidates: tuple[Candidate, ...] = ()


@dataclass(frozen=True)
class Invite:
    """The host's invite for one friend: the offer plus what the friend's page shows."""

    offer: Description
    table: int                      # the table's id (32 bits, random per table)
    slot: int                       # which of the host's open invites (1..SLOTS)
    draw: int                       # 1 or 3
    minutes: int | None             # None: to the last card; 5 / 10 / 15: timed
    issued: int                     # minutes since the Unix epoch
    host: str                       # the host's name
    stun: str = ""                  # the ICE server the host asked for ("" = none)


@dataclass(frozen=True)
class Reply:
    """A friend's answer to one invite."""

    answer: Description
    table: int
    slot: int
    offer_ufrag: str                # which offer of that slot it answers


@dataclass(frozen=True)
class Table:
    """The host's one link for the whole table (issue 19 item 1)."""

    table: int                      # the table's id (32 bits, random per table)
    secret: bytes                   # SECRET_BYTES: the room and the SDP's key
    host_peer: str                  # the host page's Trystero peer id
    draw: int
    minutes: int | None
    issued: int                     # minutes since the Unix epoch
    host: str
    relays: tuple[str, ...]
    ice: tuple[ice_servers.Server, ...]   # the host's RTCIceServers (() = same Wi-Fi only)


def room_of(t: Table) -> tuple[str, str]:
    """The Trystero room id and password of a table: both from its secret, so
    that nobody without the link can even see the room's presence on a relay."""
    return "kosynka-" + t.secret[:8].hex(), t.secret[8:].hex()


# ------------------------------------------------------------------ SDP

def parse_sdp(sdp: str) -> Description:
    """The essentials of a data-channel SDP (an offer or an answer) after complete
    ICE gathering. UDP candidates of component 1 only, at most ``MAX_CANDIDATES``."""
    values: dict[str, str] = {}
    cands: list[Candidate] = []
    for raw in sdp.splitlines():
        line = raw.strip()
        if not line.startswith("a="):
            continue
        name, _, value = line[2:].partition(":")
        if name == "candidate":
            c = _parse_candidate(value)
            if c is not None and c not in cands and len(cands) < MAX_CANDIDATES:
                cands.append(c)
        elif name in ("ice-ufrag", "ice-pwd", "fingerprint", "setup"):
            values.setdefault(name, value.strip())
    try:
        hash_name, _, hexes = values["fingerprint"].partition(" ")
        digest = bytes.fromhex(hexes.replace(":", ""))
        desc = Description(values["ice-ufrag"], values["ice-pwd"], hash_name.lower(), digest,
                           values["setup"], tuple(cands))
    except (KeyError, ValueError):
        raise ValueError("not a complete data-channel SDP") from None
    _check_description(desc)
    return desc


def _parse_candidate(value: str) -> Candidate | None:
    f = value.split()
    if len(f) < 8 or f[1] != "1" or f[2].lower() != "udp" or f[6] != "typ":
        return None
    try:
        port = int(f[5])
    except ValueError:
        return None
    if f[7] not in TYPES or not 0 < port < 65536:
        return None
    return Candidate(f[4], port, f[7])


def build_sdp(desc: Description) -> str:
    """A valid SDP for the data channel described by ``desc``."""
    lines = [
        "v=0",
        f"o=- {zlib.crc32(desc.ufrag.encode() + desc.fingerprint)} 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
    ]
    n = len(desc.candidates)
    for i, c in enumerate(desc.candidates):
        # RFC 8445 priority: type preference, then the order the browser gave them.
        type_pref = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}[c.type]
        priority = (type_pref << 24) | ((65535 - i) << 8) | 255
        extra = "" if c.type == "host" else " raddr 0.0.0.0 rport 0"
        lines.append(f"a=candidate:{i + 1} 1 udp {priority} {c.address} {c.port} "
                     f"typ {c.type}{extra} generation 0")
    fp = ":".join(f"{b:02X}" for b in desc.fingerprint)
    lines += [
        f"a=ice-ufrag:{desc.ufrag}",
        f"a=ice-pwd:{desc.pwd}",
        f"a=fingerprint:{desc.hash} {fp}",
        f"a=setup:{desc.setup}",
        "a=mid:0",
        "a=sctp-port:5000",
        "a=max-message-size:262144",
    ]
    if n:
        lines.append("a=end-of-candidates")
    return "\r\n".join(lines) + "\r\n"


def _check_description(d: Description) -> None:
    for name, text, lo in (("ufrag", d.ufrag, 4), ("pwd", d.pwd, 22)):
        if not lo <= len(text) <= 255 or any(ch not in _ICE_INDEX for ch in text):
            raise ValueError(f"bad ICE {name}")
    if HASHES.get(d.hash) != len(d.fingerprint):
        raise ValueError("bad fingerprint")
    if d.setup not in SETUPS:
        raise ValueError("bad DTLS setup role")


# ------------------------------------------------------------------ bytes

class _Writer:
    def __init__(self) -> None:
        self.buf = bytearray()

    def byte(self, n: int) -> None:
        self.buf.append(n)

    def raw(self, data: bytes) -> None:
        self.buf += data

    def text(self, s: str, limit: int) -> None:
        data = _cut_utf8(s, limit)
        self.byte(len(data))
        self.raw(data)

    def ice(self, s: str) -> None:
        self.byte(len(s))
        bits = 0
        for ch in s:
            bits = bits << 6 | _ICE_INDEX[ch]
        nbytes = (6 * len(s) + 7) // 8
        self.raw((bits << (8 * nbytes - 6 * len(s))).to_bytes(nbytes, "big"))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise CodeError("link/corrupt", "the code is cut short")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.raw(1)[0]

    def text(self) -> str:
        try:
            return self.raw(self.byte()).decode("utf-8")
        except UnicodeDecodeError:
            raise CodeError("link/corrupt", "a name is not UTF-8") from None

    def ice(self) -> str:
        n = self.byte()
        nbytes = (6 * n + 7) // 8
        bits = int.from_bytes(self.raw(nbytes), "big") >> (8 * nbytes - 6 * n)
        return "".join(_ICE[(bits >> 6 * (n - 1 - i)) & 63] for i in range(n))


def _cut_utf8(s: str, limit: int) -> bytes:
    data = s.encode("utf-8", "replace")
    while len(data) > limit:  # cut on a character boundary
        s = s[:-1]
        data = s.encode("utf-8", "replace")
    return data


def _write_description(w: _Writer, d: Description) -> None:
    _check_description(d)
    w.ice(d.ufrag)
    w.ice(d.pwd)
    w.byte(_HASH_IDS[d.hash] | SETUPS.index(d.setup) << 4)
    w.raw(d.fingerprint)
    w.byte(len(d.candidates))
    for c in d.candidates:
        kind, addr = _address_bytes(c.address)
        w.byte(TYPES.index(c.type) << 4 | kind)
        if kind == _NAME:
            w.byte(len(addr))
        w.raw(addr)
        w.raw(struct.pack(">H", c.port))


def _read_description(r: _Reader) -> Description:
    ufrag, pwd = r.ice(), r.ice()
    b = r.byte()
    hash_id, setup = b & 15, b >> 4
    names = list(HASHES)
    if not 1 <= hash_id <= len(names) or setup >= len(SETUPS):
        raise CodeError("link/corrupt", "unknown fingerprint or role")
    hash_name = names[hash_id - 1]
    digest = r.raw(HASHES[hash_name])
    cands = []
    for _ in range(r.byte()):
        b = r.byte()
        typ, kind = b >> 4, b & 15
        if typ >= len(TYPES) or kind > _NAME:
            raise CodeError("link/corrupt", "unknown candidate")
        size = {_IPV4: 4, _IPV6: 16, _MDNS: 16}.get(kind)
        addr = r.raw(r.byte() if size is None else size)
        (port,) = struct.unpack(">H", r.raw(2))
        cands.append(Candidate(_address_text(kind, addr), port, TYPES[typ]))
    d = Description(ufrag, pwd, hash_name, digest, SETUPS[setup], tuple(cands))
    try:
        _check_description(d)
    except ValueError as e:
        raise CodeError("link/corrupt", str(e)) from None
    return d


def _address_bytes(address: str) -> tuple[int, bytes]:
    try:
        ip = ipaddress.ip_address(address)
        return (_IPV4 if ip.version == 4 else _IPV6), ip.packed
    except ValueError:
        pass
    if address.endswith(".local"):
        try:
            u = uuid.UUID(address[:-6])
            if str(u) == address[:-6]:
                return _MDNS, u.bytes
        except ValueError:
            pass
    data = address.encode("utf-8")
    if not 0 < len(data) < 256:
        raise ValueError("bad candidate address")
    return _NAME, data


def _address_text(kind: int, data: bytes) -> str:
    if kind in (_IPV4, _IPV6):
        return str(ipaddress.ip_address(data))
    if kind == _MDNS:
        return f"{uuid.UUID(bytes=data)}.local"
    try:
        name = data.decode("ascii")
    except UnicodeDecodeError:
        raise CodeError("link/corrupt", "bad candidate address") from None
    if not re.fullmatch(r"[A-Za-z0-9.-]+", name):
        raise CodeError("link/corrupt", "bad candidate address")
    return name


# ------------------------------------------------------------------ codes

def _write_table(w: _Writer, t: Table) -> None:
    w.byte(VERSION << 4 | TABLE)
    if len(t.secret) != SECRET_BYTES:
        raise ValueError("bad table secret")
    w.raw(struct.pack(">I", t.table) + t.secret + _peer_bytes(t.host_peer))
    w.raw(struct.pack(">BI", _settings_byte(t.draw, t.minutes), t.issued))
    w.text(t.host, NAME_BYTES)
    w.byte(len(t.relays))
    for url in t.relays:
        if url in ice_servers.DEFAULT_RELAYS:
            w.byte(0x80 | ice_servers.DEFAULT_RELAYS.index(url))
        else:
            data = ice_servers.check_relay(url).encode("utf-8")
            if len(data) > 127:
                raise ValueError("a relay URL of more than 127 bytes")
            w.byte(len(data))
            w.raw(data)
    w.byte(len(t.ice))
    for server in t.ice:
        server = ice_servers.check_server(server)
        if server in ice_servers.DEFAULT_ICE:
            w.byte(0x80 | ice_servers.DEFAULT_ICE.index(server))
            continue
        urls = server["urls"] if isinstance(server["urls"], list) else [server["urls"]]
        creds = "username" in server
        w.byte(0x40 * creds | len(urls))
        for u in urls:
            w.text(u, 255)
        if creds:
            w.text(server["username"], 255)
            w.text(server["credential"], 255)


def _read_table(r: _Reader) -> Table:
    table = struct.unpack(">I", r.raw(4))[0]
    secret = r.raw(SECRET_BYTES)
    peer = _peer_text(r.raw(_PEER_ID_BYTES))
    settings, issued = struct.unpack(">BI", r.raw(5))
    draw, minutes = _settings_of(settings)
    host = r.text()
    def default(b: int, defaults: tuple[T, ...]) -> T:
        if b & 0x7F >= len(defaults):
            raise CodeError("link/corrupt", "unknown default server")
        return defaults[b & 0x7F]

    relays = []
    for _ in range(r.byte()):
        b = r.byte()
        relays.append(default(b, ice_servers.DEFAULT_RELAYS) if b & 0x80
                      else r.raw(b).decode("utf-8", "replace"))
    servers = []
    for _ in range(r.byte()):
        b = r.byte()
        if b & 0x80:
            servers.append(dict(default(b, ice_servers.DEFAULT_ICE)))
            continue
        urls = [r.text() for _ in range(b & 0x0F)]
        server: ice_servers.Server = {"urls": urls[0] if len(urls) == 1 else urls}
        if b & 0x40:
            server["username"], server["credential"] = r.text(), r.text()
        servers.append(server)
    try:
        relays = [ice_servers.check_relay(u) for u in relays]
        servers = ice_servers.check_servers(servers)
    except ice_servers.IceError as e:
        raise CodeError("link/corrupt", f"a server in the link: {e.detail}") from None
    if not relays:
        raise CodeError("link/corrupt", "a table link names its relays")
    return Table(table, secret, peer, draw, minutes, issued, host, tuple(relays), tuple(servers))


def _peer_bytes(peer: str) -> bytes:
    if len(peer) != PEER_ID_LEN or any(c not in PEER_ID_CHARS for c in peer):
        raise ValueError(f"not a Trystero peer id: {peer!r}")
    n = 0
    for c in peer:
        n = n * 62 + PEER_ID_CHARS.index(c)
    return n.to_bytes(_PEER_ID_BYTES, "big")


def _peer_text(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = []
    for _ in range(PEER_ID_LEN):
        n, d = divmod(n, 62)
        out.append(PEER_ID_CHARS[d])
    if n:
        raise CodeError("link/corrupt", "bad host id")
    return "".join(reversed(out))


def encode(item: Invite | Reply | Table) -> str:
    """The URL-fragment-safe code of an invite, a reply or a table link."""
    w = _Writer()
    if isinstance(item, Table):
        _write_table(w, item)
    elif isinstance(item, Invite):
        w.byte(VERSION << 4 | INVITE)
        _write_description(w, item.offer)
        w.raw(struct.pack(">IBBI", item.table, item.slot, _settings_byte(item.draw, item.minutes),
                          item.issued))
        w.text(item.host, NAME_BYTES)
        w.text(item.stun, STUN_BYTES)
    else:
        w.byte(VERSION << 4 | REPLY)
        _write_description(w, item.answer)
        w.raw(struct.pack(">IB", item.table, item.slot))
        w.ice(item.offer_ufrag)
    w.raw(struct.pack(">I", zlib.crc32(w.buf)))
    return base64.urlsafe_b64encode(bytes(w.buf)).rstrip(b"=").decode("ascii")


def decode(code: str) -> Invite | Reply | Table:
    """The invite, reply or table link in ``code``, or :class:`CodeError`."""
    if not isinstance(code, str) or not re.fullmatch(r"[A-Za-z0-9_-]{8,1400}", code):
        raise CodeError("link/foreign", "not a Kosynka race code")
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except ValueError:
        raise CodeError("link/corrupt", "the code is damaged") from None
    if len(data) < 6:
        raise CodeError("link/foreign", "not a Kosynka race code")
    body, (crc,) = data[:-4], struct.unpack(">I", data[-4:])
    version, kind = body[0] >> 4, body[0] & 15
    if zlib.crc32(body) != crc:
        if kind not in (INVITE, REPLY, TABLE) or version == 0:
            raise CodeError("link/foreign", "not a Kosynka race code")
        if version > VERSION:
            raise CodeError("link/version", "made by a newer Kosynka")
        raise CodeError("link/corrupt", "the code is damaged (cut or mistyped)")
    if version != VERSION:
        raise CodeError("link/version", f"race link version {version}, this Kosynka reads "
                        f"{VERSION} (update Kosynka)")
    r = _Reader(body)
    r.byte()
    if kind == TABLE:
        item: Invite | Reply | Table = _read_table(r)
        if r.pos != len(body):
            raise CodeError("link/corrupt", "the code has extra bytes")
        return item
    if kind == INVITE:
        offer = _read_description(r)
        table, slot, settings, issued = struct.unpack(">IBBI", r.raw(10))
        draw, minutes = _settings_of(settings)
        item = Invite(offer, table, slot, draw, minutes, issued,
                                      r.text(), r.text())
        if offer.setup != "actpass":
            raise CodeError("link/corrupt", "an invite carries an offer")
    elif kind == REPLY:
        answer = _read_description(r)
        table, slot = struct.unpack(">IB", r.raw(5))
        item = Reply(answer, table, slot, r.ice())
        if answer.setup == "actpass":
            raise CodeError("link/corrupt", "a reply carries an answer")
    else:
        raise CodeError("link/foreign", "not a Kosynka race code")
    if r.pos != len(body):
        raise CodeError("link/corrupt", "the code has extra bytes")
    if not 1 <= item.slot <= SLOTS:
        raise CodeError("link/corrupt", "no such invite slot")
    return item


def _settings_byte(draw: int, minutes: int | None) -> int:
    if draw not in (1, 3) or minutes not in MINUTES:
        raise ValueError(f"bad race settings: draw {draw!r}, minutes {minutes!r}")
    return (draw == 3) | MINUTES.index(minutes) << 1


def _settings_of(b: int) -> tuple[int, int | None]:
    if b >> 3:
        raise CodeError("link/corrupt", "unknown race settings")
    return (3 if b & 1 else 1), MINUTES[b >> 1 & 3]


_NAMES = {Invite: "race", Reply: "reply", Table: "table"}
_WHAT = {Invite: "an invite", Reply: "a reply", Table: "a table link"}


def link(base: str, item: Invite | Reply | Table) -> str:
    """The whole link: ``base`` (the app's address; any ``#…`` dropped) + the code."""
    return f"{base.split('#')[0]}#{_NAMES[type(item)]}={encode(item)}"


def parse_link(text: str, want: type | None = None) -> Invite | Reply | Table:
    """The invite, reply or table link in a pasted link, fragment or bare code.

    ``want`` (``Invite``, ``Reply`` or ``Table``) refuses another kind with ``link/kind``."""
    if not isinstance(text, str):
        raise CodeError("link/foreign", "not a Kosynka race link")
    squeezed = re.sub(r"\s+", "", text)
    m = _CODE_RE.search(squeezed) or _CODE_RE.search(text)
    if m:
        name, code = m.groups()
    elif re.fullmatch(r"[A-Za-z0-9_-]+", squeezed):
        name, code = "", squeezed
    else:
        raise CodeError("link/foreign", "not a Kosynka race link")
    try:
        item = decode(code)
    except CodeError as e:
        if name and e.code == "link/foreign":  # named as ours: damaged, not foreign
            raise CodeError("link/corrupt", e.detail) from None
        raise
    if name and name != _NAMES[type(item)]:
        raise CodeError("link/corrupt", "the link's name and code disagree")
    if want is not None and not isinstance(item, want):
        raise CodeError("link/kind", f"this is {_WHAT[type(item)]}, not {_WHAT[want]}")
    return item


def check_invite_age(invite: Invite | Table, now_minutes: int) -> None:
    """``link/stale`` for an invite issued more than ``STALE_MINUTES`` ago (the
    host's page that made it is most likely gone)."""
    if now_minutes - invite.issued > STALE_MINUTES:
        raise CodeError("link/stale", "this invite is more than a day old")


def check_reply(reply: Reply, table: int, waiting: dict[int, str]) -> None:
    """``link/stale`` unless ``reply`` answers an invite this table still waits for:
    ``waiting`` maps each slot with an open invite to its offer's ufrag."""
    if reply.table != table:
        raise CodeError("link/stale", "this reply is for another race table")
    if waiting.get(reply.slot) != reply.offer_ufrag:
        raise CodeError("link/stale", "this reply answers an invite that is no longer open")

