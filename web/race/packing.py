"""The bytes of a link's code (``web.race.signal``): a writer and a reader of
bytes, ICE characters (6 bits each) and names (UTF-8, cut on a character), and a
WebRTC description (``web.race.sdp``) in bytes — ICE ufrag and password, the
fingerprint's hash and the DTLS role in one byte, the digest, the candidates
(type | address kind, the address as 4 or 16 bytes, a Chromium mDNS name as its
16-byte UUID, else its text; the port).

A code that does not read raises :class:`CodeError` (``link/corrupt``), never
anything else.
"""

from __future__ import annotations

import ipaddress
import re
import struct
import uuid
from functools import partial

from kosynka.bytereader import ByteReader
from web.race.sdp import (
    HASHES,
    ICE_CHARS,
    ICE_INDEX,
    SETUPS,
    TYPES,
    Candidate,
    Description,
    check_description,
)

__all__ = ["CodeError", "Writer", "Reader", "cut_utf8", "write_description", "read_description"]

_IPV4, _IPV6, _MDNS, _NAME = range(4)
_HASH_IDS = {name: i for i, name in enumerate(HASHES, 1)}


class CodeError(ValueError):
    """A link or code that cannot be used; ``code`` is stable (``link/…``) and
    names the message the page shows (see ``web.i18n``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class Writer:
    def __init__(self) -> None:
        self.buf = bytearray()

    def byte(self, n: int) -> None:
        self.buf.append(n)

    def raw(self, data: bytes) -> None:
        self.buf += data

    def text(self, s: str, limit: int) -> None:
        data = cut_utf8(s, limit)
        self.byte(len(data))
        self.raw(data)

    def ice(self, s: str) -> None:
        self.byte(len(s))
        bits = 0
        for ch in s:
            bits = bits << 6 | ICE_INDEX[ch]
        nbytes = (6 * len(s) + 7) // 8
        self.raw((bits << (8 * nbytes - 6 * len(s))).to_bytes(nbytes, "big"))


class Reader(ByteReader):
    """A code's fields; a refusal is a ``link/corrupt`` :class:`CodeError`."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data, partial(CodeError, "link/corrupt"))

    def text(self) -> str:
        try:
            return self.raw(self.byte()).decode("utf-8")
        except UnicodeDecodeError:
            raise self.error("a name is not UTF-8") from None

    def ice(self) -> str:
        n = self.byte()
        nbytes = (6 * n + 7) // 8
        bits = int.from_bytes(self.raw(nbytes), "big") >> (8 * nbytes - 6 * n)
        return "".join(ICE_CHARS[(bits >> 6 * (n - 1 - i)) & 63] for i in range(n))


def cut_utf8(s: str, limit: int) -> bytes:
    data = s.encode("utf-8", "replace")
    while len(data) > limit:  # cut on a character boundary
        s = s[:-1]
        data = s.encode("utf-8", "replace")
    return data


def write_description(w: Writer, d: Description) -> None:
    check_description(d)
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


def read_description(r: Reader) -> Description:
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
        check_description(d)
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
