"""A data channel's SDP, cut to what the other side needs (O4, issue 11 item 2).

A browser's data-channel offer is about 700 characters of SDP, nearly all of it
fixed text. What the other side really needs is small — the ICE user fragment and
password, the DTLS certificate fingerprint, the DTLS role and the candidates
(address, port): :func:`parse_sdp` reads that into a :class:`Description`, and
:func:`build_sdp` makes a valid SDP from one again. ``web.race.signal`` packs a
description into the links-only invite and reply codes.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

__all__ = ["Candidate", "Description", "parse_sdp", "build_sdp", "check_description",
           "MAX_CANDIDATES", "HASHES", "SETUPS", "TYPES", "ICE_CHARS", "ICE_INDEX"]

MAX_CANDIDATES = 8
HASHES = {"sha-256": 32, "sha-384": 48, "sha-512": 64, "sha-1": 20}
SETUPS = ("actpass", "active", "passive")
TYPES = ("host", "srflx", "relay", "prflx")
ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"   # ufrag, pwd
ICE_INDEX = {c: i for i, c in enumerate(ICE_CHARS)}


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
    check_description(desc)
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


def check_description(d: Description) -> None:
    for name, text, lo in (("ufrag", d.ufrag, 4), ("pwd", d.pwd, 22)):
        if not lo <= len(text) <= 255 or any(ch not in ICE_INDEX for ch in text):
            raise ValueError(f"bad ICE {name}")
    if HASHES.get(d.hash) != len(d.fingerprint):
        raise ValueError("bad fingerprint")
    if d.setup not in SETUPS:
        raise ValueError("bad DTLS setup role")
