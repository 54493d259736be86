"""The race's :class:`~kosynka.race.transport.Link` over WebRTC (issue 11 item 1,
issue 19).

``rtc.mjs`` does the browser's part (one ``RTCPeerConnection`` and one reliable,
ordered data channel per link; messages handed over in slices so a flooding peer
cannot freeze the page); ``room.mjs`` makes the same channels over a Trystero
room's connections (the table link). This module wraps either for the race host
and players (:class:`RtcLink`) and turns SDP into link codes (``web.race.signal``).

Star topology: the host holds one :class:`RtcLink` per seat (one peer connection
each), a player one to the host. A link is made by one exchange of codes::

    host:   peer = await new_peer(stun); invite_offer = await offer(peer)   → invite link
    friend: peer = await new_peer(invite.stun); answer = await answer(peer, invite.offer)
                                                                            → reply link
    host:   await accept(peer, reply.answer)    → both links report "open"

Each :class:`RtcLink` makes its two callbacks' proxies once and destroys them when
the link ends (PLATFORM-NOTES: a proxy per call would leak).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import js
from pyodide.ffi import create_proxy

from kosynka.race.transport import CLOSED, DROPPED, Link
from web.dom import JsObject
from web.race import ice, sdp

_modules: dict[str, JsObject] = {}


async def module(name: str) -> JsObject:
    """The ES module ``web/race/<name>``, imported once (relative to the page, so a sub-path host works)."""
    if name not in _modules:
        url = js.URL.new(f"web/race/{name}", js.document.baseURI).href
        _modules[name] = await js.Function.new("u", "return import(u)")(url)
    return _modules[name]


async def open_room(room_id: str, password: str, relays: list[str],
                    servers: list[ice.Server], secret: bytes, host: bool) -> JsObject:
    """A Trystero room (``room.mjs``) on these Nostr relays, its peers' connections
    made with these RTCIceServers, and the table's way through the relays
    (``relay.mjs``, its key and inboxes from ``secret``; the ``host``'s page takes
    the links friends open there); set its ``onpeer`` to take their channels."""
    mod = await module("room.mjs")
    return mod.room(to_js({"roomId": room_id, "password": password, "relays": list(relays),
                           "ice": list(servers), "secret": secret.hex(), "host": host}))


def to_js(value: Any) -> JsObject:
    """Plain JSON data (lists, dicts, text) as JavaScript objects."""
    return js.JSON.parse(json.dumps(value))


def webrtc() -> bool:
    """This browser has WebRTC (a privacy setting, such as Firefox's
    ``media.peerconnection.enabled``, or a build may leave it out: issue 30 item 8)."""
    return hasattr(js, "RTCPeerConnection")


async def new_peer(servers: list[ice.Server] | None = None) -> JsObject:
    """A fresh peer connection with these RTCIceServers (``web.race.ice``; none =
    host candidates only)."""
    mod = await module("rtc.mjs")
    return mod.peer(to_js(list(servers or [])))


async def offer(peer: JsObject) -> sdp.Description:
    """The host's side: the offer of ``peer``, ICE gathered."""
    return sdp.parse_sdp(str(await peer.offer()))


async def answer(peer: JsObject, remote: sdp.Description) -> sdp.Description:
    """The friend's side: the answer to ``remote`` (an invite's offer), ICE gathered."""
    return sdp.parse_sdp(str(await peer.answer(sdp.build_sdp(remote))))


async def accept(peer: JsObject, remote: sdp.Description) -> None:
    """The host's side: apply a friend's answer; the link opens shortly after."""
    await peer.accept(sdp.build_sdp(remote))


class RtcLink(Link):
    """A :class:`Link` over one ``rtc.mjs`` channel: a links-only peer (made by
    :func:`new_peer`) or a room's peer (``room.mjs``)."""

    def __init__(self, peer: JsObject) -> None:
        super().__init__()
        self._peer = peer
        self._on_msg = create_proxy(self._message)
        self._on_status = create_proxy(self._status)
        peer.onmessage = self._on_msg
        peer.onstatus = self._on_status
        self._ended = False

    @property
    def connected(self) -> bool:
        return not self._ended and bool(self._peer.connected)

    @property
    def steady(self) -> bool:
        """False while the path under the open link is lost (it may come back)."""
        return not self._ended and bool(self._peer.steady)

    @property
    def ended(self) -> bool:
        """The link has dropped or was closed (it will not open again)."""
        return self._ended

    @property
    def way(self) -> str:
        """``direct`` (a WebRTC data channel) or ``relay`` (through the relays)."""
        return str(self._peer.way)

    def send(self, text: str) -> None:
        if not self._ended:
            self._peer.send(text)

    def close(self) -> None:
        if not self._ended:
            self._peer.close()  # reports "closed" through _status

    def _message(self, text: JsObject) -> None:
        self.on_message(str(text))

    def _status(self, value: JsObject) -> None:
        status = str(value)
        if status in (DROPPED, CLOSED):
            if self._ended:
                return
            self._ended = True
            # never destroy a proxy while JS is calling it: after this call returns
            asyncio.get_event_loop().call_soon(self._release)
        self.on_status(status)

    def _release(self) -> None:
        self._peer.onmessage = None
        self._peer.onstatus = None
        self._on_msg.destroy()
        self._on_status.destroy()
