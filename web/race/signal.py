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

Links: ``<app address>#race=<code>`` (an invite for one friend) and
``<app address>#reply=<code>`` (a friend's answer for the host). :func:`parse_link`
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

from kosynka.race.table import MINUTES      # race kinds (N4): to the last card, timed minutes

__all__ = [
    "CodeError", "Candidate", "Description", "Invite", "Reply",
    "parse_sdp", "build_sdp", "encode", "decode", "parse_link", "link",
    "check_reply", "check_invite_age", "NAME_BYTES", "STALE_MINUTES",
]

VERSION = 1
INVITE, REPLY = 1, 2
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
_CODE_RE = re.compile(r"(?:^|[#&?\s])(race|reply)=([A-Za-z0-9_-]+)")


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

def encode(item: Invite | Reply) -> str:
    """The URL-fragment-safe code of an invite or a reply."""
    w = _Writer()
    if isinstance(item, Invite):
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


def decode(code: str) -> Invite | Reply:
    """The invite or reply in ``code``, or :class:`CodeError`."""
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
        if kind not in (INVITE, REPLY) or version == 0:
            raise CodeError("link/foreign", "not a Kosynka race code")
        if version > VERSION:
            raise CodeError("link/version", "made by a newer Kosynka")
        raise CodeError("link/corrupt", "the code is damaged (cut or mistyped)")
    if version != VERSION:
        raise CodeError("link/version", f"race link version {version}, this Kosynka reads "
                        f"{VERSION} (update Kosynka)")
    r = _Reader(body)
    r.byte()
    if kind == INVITE:
        offer = _read_description(r)
        table, slot, settings, issued = struct.unpack(">IBBI", r.raw(10))
        draw, minutes = _settings_of(settings)
        item: Invite | Reply = Invite(offer, table, slot, draw, minutes, issued,
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


def link(base: str, item: Invite | Reply) -> str:
    """The whole link: ``base`` (the app's address; any ``#…`` dropped) + the code."""
    name = "race" if isinstance(item, Invite) else "reply"
    return f"{base.split('#')[0]}#{name}={encode(item)}"


def parse_link(text: str, want: type | None = None) -> Invite | Reply:
    """The invite or reply in a pasted link, fragment or bare code.

    ``want`` (``Invite`` or ``Reply``) refuses the other kind with ``link/kind``."""
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
    if name and (name == "race") != isinstance(item, Invite):
        raise CodeError("link/corrupt", "the link's name and code disagree")
    if want is not None and not isinstance(item, want):
        raise CodeError("link/kind", f"this is {'an invite' if isinstance(item, Invite) else 'a reply'}"
                        f", not {'an invite' if want is Invite else 'a reply'}")
    return item


def check_invite_age(invite: Invite, now_minutes: int) -> None:
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

