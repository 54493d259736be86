"""How the race finds friends across networks (issue 19 items 1 and 3): the
Nostr relays that carry the (encrypted) connection set-up, and the STUN/TURN
servers that find a public address or relay the data — their defaults, the
settings a player may type, and their checks. Pure Python (no ``js``), tested
in ``tests/test_race_web_ice.py``.

- **Relays** (``localStorage["kosynka.race.relays"]``, a JSON list of
  ``wss://`` or ``ws://`` URLs, replaces :data:`DEFAULT_RELAYS`): public Nostr
  relays, several for redundancy (any one that answers is enough). What
  crosses them is Trystero's offer/answer, encrypted with the table's secret;
  they never see a move.
- **ICE servers** (``localStorage["kosynka.race.ice"]``, a JSON list of
  RTCIceServer objects, ``[]`` for none, replaces :data:`DEFAULT_ICE`): two
  public STUN servers of two operators by default (named in the lobby);
  "same Wi-Fi only" is ``[]``; a TURN server (``turn:``/``turns:`` with a
  username and a credential) may be typed in the lobby for networks where a
  direct path cannot be found (symmetric NAT). The host's list travels with the
  table link, so a friend uses the host's TURN server too.

:func:`check_server` turns what a player typed into an RTCIceServer dict or
raises :class:`IceError` with a stable ``code`` (``ice/…``, worded by
``web.i18n``): a typed server is never silently dropped.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Callable, TypeVar

from web.store import loads_stored

Server = dict[str, Any]   # an RTCIceServer: urls (text or list), username, credential
T = TypeVar("T")

__all__ = ["IceError", "DEFAULT_ICE", "DEFAULT_RELAYS", "check_server", "check_servers",
           "check_relay", "load_ice", "load_relays", "server_text", "MAX_SERVERS", "MAX_RELAYS"]

# Two operators, so that one being down or blocked still leaves one.
DEFAULT_ICE: tuple[Server, ...] = (
    {"urls": "stun:stun.l.google.com:19302"},
    {"urls": "stun:stun.cloudflare.com:3478"},
)
# Public Nostr relays from Trystero 0.25.4's own default list (its maintainers
# keep that list to relays that accept its short-lived events), five for
# redundancy as Trystero itself uses.
DEFAULT_RELAYS: tuple[str, ...] = (
    "wss://nos.lol",
    "wss://relay.mostr.pub",
    "wss://purplerelay.com",
    "wss://nostr.data.haus",
    "wss://relay.agorist.space",
)
MAX_SERVERS = 6
MAX_RELAYS = 8
FIELD_MAX = 200          # characters of a URL, a username or a credential

_HOST = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?")
_URL = re.compile(r"(?P<scheme>[a-z]+):(?P<rest>[^?]*)(?:\?(?P<query>.*))?", re.I)


class IceError(ValueError):
    """A server setting that cannot be used; ``code`` is stable (``ice/…``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def _host_port(text: str, default_port: int) -> tuple[str, int]:
    """``host[:port]`` (IPv6 in brackets) → host, port; :class:`IceError` if bad."""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise IceError("ice/host", f"unclosed IPv6 address in {text!r}")
        host, rest = text[1:end], text[end + 1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise IceError("ice/host", f"not an IPv6 address: {host!r}") from None
        host = f"[{host}]"
    else:
        host, _, port = text.partition(":")
        rest = ":" + port if _ else ""
        if not _HOST.fullmatch(host):
            raise IceError("ice/host", f"not a host name or address: {host!r}")
    if not rest:
        return host, default_port
    if not rest.startswith(":") or not rest[1:].isdigit() or not 0 < int(rest[1:]) < 65536:
        raise IceError("ice/port", f"a port is a number from 1 to 65535: {rest[1:]!r}")
    return host, int(rest[1:])


def check_url(url: object) -> str:
    """A STUN or TURN URL (RFC 7064, 7065) as the browser takes it, or IceError."""
    if not isinstance(url, str) or not url.strip():
        raise IceError("ice/scheme", "a server address starts with stun:, stuns:, turn: or turns:")
    url = url.strip()
    if len(url) > FIELD_MAX:
        raise IceError("ice/too_long", f"at most {FIELD_MAX} characters")
    m = _URL.fullmatch(url)
    scheme = m.group("scheme").lower() if m else ""
    if m is None or scheme not in ("stun", "stuns", "turn", "turns"):
        raise IceError("ice/scheme", "a server address starts with stun:, stuns:, turn: or turns:")
    rest, query = m.group("rest"), m.group("query")
    if rest.startswith("//"):
        raise IceError("ice/host", "no // after the scheme (stun:host:port)")
    _host_port(rest, 5349 if scheme.endswith("s") else 3478)
    if query is not None:
        if not scheme.startswith("turn") or query.lower() not in ("transport=udp", "transport=tcp"):
            raise IceError("ice/transport", "only turn: URLs take ?transport=udp or ?transport=tcp")
    return scheme + ":" + url.split(":", 1)[1]


def check_server(server: object) -> Server:
    """An RTCIceServer dict (``urls``, and for TURN ``username`` and ``credential``)
    from a dict or a bare URL string; :class:`IceError` if it cannot be used."""
    if isinstance(server, str):
        server = {"urls": server}
    if not isinstance(server, dict):
        raise IceError("ice/scheme", "a server is a URL, or {urls, username, credential}")
    urls = server.get("urls")
    url_list = urls if isinstance(urls, list) else [urls]
    if not url_list or len(url_list) > MAX_SERVERS:
        raise IceError("ice/scheme", "a server has one to six URLs")
    checked = [check_url(u) for u in url_list]
    out: Server = {"urls": checked if isinstance(urls, list) else checked[0]}
    turn = any(u.startswith("turn") for u in checked)
    user, cred = server.get("username"), server.get("credential")
    for name, value in (("username", user), ("credential", cred)):
        if value is None or value == "":
            continue
        if not isinstance(value, str) or len(value) > FIELD_MAX or any(ord(c) < 32 for c in value):
            raise IceError("ice/credential", f"the {name} is text of at most {FIELD_MAX} characters")
        out[name] = value
    if turn and not (out.get("username") and out.get("credential")):
        raise IceError("ice/credential", "a TURN server needs a username and a password")
    if not turn and len(out) > 1:
        raise IceError("ice/credential", "a STUN server takes no username or password")
    return out


def check_servers(servers: object) -> list[Server]:
    if not isinstance(servers, list):
        raise IceError("ice/scheme", "a JSON list of servers")
    if len(servers) > MAX_SERVERS:
        raise IceError("ice/too_many", f"at most {MAX_SERVERS} servers")
    return [check_server(s) for s in servers]


def check_relay(url: object) -> str:
    """A relay's WebSocket URL (``wss://host[:port][/path]``; ``ws://`` too, for a
    relay on this machine or a test network), or :class:`IceError` ``ice/relay``."""
    if not isinstance(url, str):
        raise IceError("ice/relay", "a relay is a wss:// URL")
    url = url.strip()
    m = re.fullmatch(r"(wss?)://([^/?#\s]+)(/[^\s#]*)?", url, re.I)
    if not m or len(url) > FIELD_MAX:
        raise IceError("ice/relay", "a relay is a wss:// URL")
    try:
        _host_port(m.group(2), 443)
    except IceError as e:
        raise IceError("ice/relay", e.detail) from None
    return url


def _load(text: str | None, default: tuple[T, ...],
          check: Callable[[Any], list[T]]) -> tuple[list[T], IceError | None]:
    """``(value, error)``: the stored JSON checked, or the default and the
    :class:`IceError` that made it unusable (None if nothing was stored)."""
    if text is None:
        return list(default), None
    try:
        return check(loads_stored(text)), None
    except ValueError as e:  # json.JSONDecodeError and IceError are ValueErrors
        err = e if isinstance(e, IceError) else IceError("ice/json", str(e))
        return list(default), err


def load_ice(text: str | None) -> tuple[list[Server], IceError | None]:
    """The ICE servers from ``localStorage["kosynka.race.ice"]`` (None: unset)."""
    return _load(text, DEFAULT_ICE, check_servers)


def load_relays(text: str | None) -> tuple[list[str], IceError | None]:
    """The relays from ``localStorage["kosynka.race.relays"]`` (None: unset)."""
    def check(v: object) -> list[str]:
        if not isinstance(v, list) or not 1 <= len(v) <= MAX_RELAYS:
            raise IceError("ice/relay", f"one to {MAX_RELAYS} relay URLs")
        return [check_relay(u) for u in v]
    return _load(text, DEFAULT_RELAYS, check)


def server_text(server: Server) -> str:
    """A server as the lobby names it (its URLs; never its credential)."""
    urls = server["urls"]
    return ", ".join(urls) if isinstance(urls, list) else str(urls)
