"""Seats by links (issue 11 item 2): the host's invites and the friends' replies
become open :class:`~web.race.rtc.RtcLink`\\ s, with no server of ours (O4).

- :class:`HostLinks` — the host's side: one pending peer connection per invited
  seat; :meth:`HostLinks.reply` takes a friend's reply (pasted, or handed over by
  another tab of this browser) and hands the seat's link to ``on_link`` once it
  opens. Inviting a seat again replaces its open invite (the older link goes
  stale).
- :func:`join` — the friend's side: the answer to an invite, and its link.
- Hand-over: opening a reply link on the host's device starts a new tab of the
  app; :func:`hand_over` posts the reply on the ``BroadcastChannel``
  ``kosynka-race`` (same browser profile) and the host's tab that waits for it
  answers. Every hosting tab answers (``ok`` or why not); no answer within
  ``HANDOVER_MS`` means no race table is open in this browser.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Callable

import js
from pyodide.ffi import create_proxy

from web.race import rtc, signal
from web.race.signal import CodeError, Invite, Reply

__all__ = ["HostLinks", "join", "hand_over", "CHANNEL", "HANDOVER_MS"]

CHANNEL = "kosynka-race"
HANDOVER_MS = 1500


def minutes_now() -> int:
    return int(time.time() // 60)


class HostLinks:
    """The host's pending invites, one peer connection per seat."""

    def __init__(self, on_link: Callable[[int, rtc.RtcLink], None], stun: str = "") -> None:
        self.table = random.getrandbits(32)
        self.stun = stun
        self.on_link = on_link
        self.pending: dict[int, tuple[object, rtc.RtcLink, str]] = {}  # seat → peer, link, ufrag
        self._channel = None
        self._proxy = None

    def waiting(self) -> dict[int, str]:
        return {seat: ufrag for seat, (_, _, ufrag) in self.pending.items()}

    async def invite(self, seat: int, host: str, draw: int, kind) -> Invite:
        """A fresh invite to ``seat`` (an older one for that seat stops working)."""
        self.cancel(seat)
        peer = await rtc.new_peer(self.stun)
        offer = await rtc.offer(peer)
        link = rtc.RtcLink(peer)
        self.pending[seat] = (peer, link, offer.ufrag)

        def status(s: str, seat=seat, link=link) -> None:
            if s == "open" and self.pending.get(seat, (None, None))[1] is link:
                del self.pending[seat]
                self.on_link(seat, link)

        link.on_status = status
        return Invite(offer, self.table, seat, draw, kind, minutes_now(), host, self.stun)

    def cancel(self, seat: int) -> None:
        old = self.pending.pop(seat, None)
        if old is not None:
            old[1].close()

    async def reply(self, text: str) -> int:
        """Seat the friend whose reply (link or code) is ``text``; the seat number.
        :class:`CodeError` (nothing changes) if it is not a reply this table waits for."""
        item = signal.parse_link(text, Reply)
        signal.check_reply(item, self.table, self.waiting())
        peer = self.pending[item.seat][0]
        try:
            await rtc.accept(peer, item.answer)
        except Exception as e:  # the browser refused the description
            raise CodeError("link/corrupt", f"the browser refused the reply: {e}") from None
        return item.seat

    # ------------------------------------------------------------ hand-over
    def listen(self) -> None:
        """Answer replies handed over by other tabs of this browser."""
        if self._channel is not None:
            return
        self._channel = js.BroadcastChannel.new(CHANNEL)
        self._proxy = create_proxy(self._on_handover)
        self._channel.addEventListener("message", self._proxy)

    def _on_handover(self, ev) -> None:
        try:
            msg = json.loads(str(ev.data))
            code, ident = str(msg["reply"]), msg["id"]
        except (ValueError, KeyError, TypeError):
            return
        asyncio.ensure_future(self._answer_handover(code, ident))

    async def _answer_handover(self, code: str, ident) -> None:
        try:
            await self.reply(code)
            result = "ok"
        except CodeError as e:
            result = e.code
        self._channel.postMessage(json.dumps({"ack": ident, "result": result}))

    def close(self) -> None:
        for seat in list(self.pending):
            self.cancel(seat)
        if self._channel is not None:
            self._channel.removeEventListener("message", self._proxy)
            self._channel.close()
            self._proxy.destroy()
            self._channel = self._proxy = None


async def join(invite: Invite) -> tuple[rtc.RtcLink, Reply]:
    """The friend's side of an invite: the link (opens when the host takes the
    reply) and the reply to send back."""
    peer = await rtc.new_peer(invite.stun)
    answer = await rtc.answer(peer, invite.offer)
    return rtc.RtcLink(peer), Reply(answer, invite.table, invite.seat, invite.offer.ufrag)


async def hand_over(code: str) -> str:
    """Give a reply to the hosting tab of this browser: ``"ok"``, a ``link/…`` code
    from the host's check, or ``"none"`` when no hosting tab answered."""
    channel = js.BroadcastChannel.new(CHANNEL)
    ident = random.getrandbits(31)
    results: list[str] = []
    done = asyncio.get_event_loop().create_future()

    def on_message(ev) -> None:
        try:
            msg = json.loads(str(ev.data))
        except ValueError:
            return
        if msg.get("ack") == ident:
            results.append(str(msg.get("result")))
            if results[-1] == "ok" and not done.done():
                done.set_result(None)

    proxy = create_proxy(on_message)
    channel.addEventListener("message", proxy)
    channel.postMessage(json.dumps({"reply": code, "id": ident}))
    try:
        await asyncio.wait_for(done, HANDOVER_MS / 1000)
    except asyncio.TimeoutError:
        pass
    channel.removeEventListener("message", proxy)
    channel.close()
    proxy.destroy()
    if "ok" in results:
        return "ok"
    return results[0] if results else "none"
