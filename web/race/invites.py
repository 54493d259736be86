"""The links-only way (issue 11 item 2, the offline way: one Wi-Fi or hotspot, no
relay answers): invite and reply links carry the WebRTC offer and answer
(``web.race.signal``), no server at all.

- :class:`HostLinks` — the host's side: one pending peer connection per open
  invite (a *slot*, 1…``SLOTS``; the table seats whoever joins, the slot only
  pairs a reply with its offer); :meth:`HostLinks.reply` takes a friend's reply
  (pasted, or handed over by another tab of this browser) and hands the link to
  ``on_link`` once it opens. At most ``SLOTS`` invites are open; a new one past
  that replaces the oldest (whose link goes stale).
- :func:`join` — the friend's side: the answer to an invite, and its link.
- Hand-over: opening a reply link on the host's device starts a new tab of the
  app, whose ``handover.mjs`` posts the reply on its ``BroadcastChannel``
  (``CHANNEL``, exported by that module: the one place the name is written) at
  once; :meth:`HostLinks.listen` answers it in the hosting tab (``ok`` or the
  ``link/…`` code of its check).
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Callable

import js
from pyodide.ffi import create_proxy

from web.dom import JsObject
from web.race import rtc, signal
from web.race.signal import CodeError, Invite, Reply, minutes_now

__all__ = ["HostLinks", "join"]


class HostLinks:
    """The host's open invites, one pending peer connection each."""

    def __init__(self, on_link: Callable[[rtc.RtcLink], None], stun: str = "") -> None:
        self.table = random.getrandbits(32)
        self.stun = stun
        self.on_link = on_link
        self.pending: dict[int, tuple[JsObject, rtc.RtcLink, str]] = {}  # slot → peer, link, ufrag
        self._order: list[int] = []    # open slots, oldest first
        self._channel: JsObject = None
        self._proxy: JsObject = None
        self._closed = False

    def waiting(self) -> dict[int, str]:
        return {slot: ufrag for slot, (_, _, ufrag) in self.pending.items()}

    async def invite(self, host: str, draw: int, minutes: int | None) -> Invite:
        """A fresh invite in a free slot (or the oldest one's, which goes stale)."""
        free = [s for s in range(1, signal.SLOTS + 1) if s not in self.pending]
        slot = free[0] if free else self._order[0]
        self.cancel(slot)
        peer = await rtc.new_peer([{"urls": self.stun}] if self.stun else [])
        offer = await rtc.offer(peer)
        link = rtc.RtcLink(peer)
        self.pending[slot] = (peer, link, offer.ufrag)
        self._order.append(slot)

        def status(s: str, slot: int = slot, link: rtc.RtcLink = link) -> None:
            if s == "open" and slot in self.pending and self.pending[slot][1] is link:
                self.pending.pop(slot)
                self._order.remove(slot)
                self.on_link(link)

        link.on_status = status
        return Invite(offer, self.table, slot, draw, minutes, minutes_now(), host, self.stun)

    def cancel(self, slot: int) -> None:
        old = self.pending.pop(slot, None)
        if old is not None:
            self._order.remove(slot)
            old[1].close()

    async def reply(self, text: str) -> None:
        """Connect the friend whose reply (link or code) is ``text``. :class:`CodeError`
        (nothing changes) if it is not a reply this table waits for."""
        item = signal.parse_link(text, Reply)
        assert isinstance(item, Reply)   # parse_link refuses any other kind
        signal.check_reply(item, self.table, self.waiting())
        peer = self.pending[item.slot][0]
        try:
            await rtc.accept(peer, item.answer)
        except Exception as e:  # the browser refused the description
            raise CodeError("link/corrupt", f"the browser refused the reply: {e}") from None

    # ------------------------------------------------------------ hand-over
    async def listen(self) -> None:
        """Answer replies handed over by other tabs of this browser, on the
        channel ``handover.mjs`` names (that module is loaded already: the page's
        own, so this import takes no time)."""
        name = str((await rtc.module("handover.mjs")).CHANNEL)
        if self._channel is not None or self._closed:
            return
        self._channel = js.BroadcastChannel.new(name)
        self._proxy = create_proxy(self._on_handover)
        self._channel.addEventListener("message", self._proxy)

    def _on_handover(self, ev: JsObject) -> None:
        try:
            msg = json.loads(str(ev.data))
            code, ident = str(msg["reply"]), msg["id"]
        except (ValueError, KeyError, TypeError):
            return
        asyncio.ensure_future(self._answer_handover(code, ident))

    async def _answer_handover(self, code: str, ident: object) -> None:
        try:
            await self.reply(code)
            result = "ok"
        except CodeError as e:
            result = e.code
        self._channel.postMessage(json.dumps({"ack": ident, "result": result}))

    def close(self) -> None:
        self._closed = True
        for slot in list(self.pending):
            self.cancel(slot)
        if self._channel is not None:
            self._channel.removeEventListener("message", self._proxy)
            self._channel.close()
            self._proxy.destroy()
            self._channel = self._proxy = None


async def join(invite: Invite) -> tuple[rtc.RtcLink, Reply]:
    """The friend's side of an invite: the link (opens when the host takes the
    reply) and the reply to send back."""
    peer = await rtc.new_peer([{"urls": invite.stun}] if invite.stun else [])
    answer = await rtc.answer(peer, invite.offer)
    return rtc.RtcLink(peer), Reply(answer, invite.table, invite.slot, invite.offer.ufrag)

