"""Signaling by links (O4, issue 11 item 2): the WebRTC offer and answer travel in
the invite and reply links friends send each other; no server of ours sees them.

A link carries only what the other side's page needs of a data channel's SDP
(``web.race.sdp``: ICE credentials, DTLS fingerprint and role, candidates), packed
in bytes; the page rebuilds a valid SDP from it. The candidates are complete: the
page gathers ICE before it makes a link (no trickle).

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
import re
import struct
import time
import zlib
from dataclasses import dataclass
from typing import TypeVar

from kosynka.race.table import (
    MINUTES,  # race kinds (N4): to the last card, timed minutes
)
from web.race import ice as ice_servers
from web.race.packing import (
    CodeError,
    Reader,
    Writer,
    read_description,
    write_description,
)
from web.race.sdp import Description

T = TypeVar("T")

__all__ = [
    "CodeError", "Invite", "Reply", "encode", "decode", "parse_link", "link",
    "check_reply", "check_invite_age", "NAME_BYTES", "STALE_MINUTES",
    "Table", "room_of", "PEER_ID_CHARS", "minutes_now",
]

VERSION = 1
INVITE, REPLY, TABLE = 1, 2, 3
SLOTS = 15                          # invites a table may have open at once
NAME_BYTES = 48                     # a host name's UTF-8 bytes in a link (cut on a char)
STUN_BYTES = 120
STALE_MINUTES = 24 * 60             # an invite older than a day is refused as stale

_CODE_RE = re.compile(r"(?:^|[#&?\s])(race|reply|table)=([A-Za-z0-9_-]+)")
SECRET_BYTES = 16
# Trystero's peer ids: 20 characters of this alphabet (its utils.mjs ``charSet``)
PEER_ID_CHARS = "0123456789AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUuVvWwXxYyZz"
PEER_ID_LEN = 20
_PEER_ID_BYTES = 15


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


# ------------------------------------------------------------------ codes

def _write_table(w: Writer, t: Table) -> None:
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


def _read_table(r: Reader) -> Table:
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
    w = Writer()
    if isinstance(item, Table):
        _write_table(w, item)
    elif isinstance(item, Invite):
        w.byte(VERSION << 4 | INVITE)
        write_description(w, item.offer)
        w.raw(struct.pack(">IBBI", item.table, item.slot, _settings_byte(item.draw, item.minutes),
                          item.issued))
        w.text(item.host, NAME_BYTES)
        w.text(item.stun, STUN_BYTES)
    else:
        w.byte(VERSION << 4 | REPLY)
        write_description(w, item.answer)
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
    r = Reader(body)
    r.byte()
    if kind == TABLE:
        item: Invite | Reply | Table = _read_table(r)
        if r.pos != len(body):
            raise CodeError("link/corrupt", "the code has extra bytes")
        return item
    if kind == INVITE:
        offer = read_description(r)
        table, slot, settings, issued = struct.unpack(">IBBI", r.raw(10))
        draw, minutes = _settings_of(settings)
        item = Invite(offer, table, slot, draw, minutes, issued,
                                      r.text(), r.text())
        if offer.setup != "actpass":
            raise CodeError("link/corrupt", "an invite carries an offer")
    elif kind == REPLY:
        answer = read_description(r)
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


def minutes_now() -> int:
    """Minutes since the Unix epoch: when a link was issued, a seat kept."""
    return int(time.time() // 60)


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

