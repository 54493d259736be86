"""The table link's rooms (issue 19, the way with internet): WebRTC connections
found through a Trystero room (``room.mjs``) on public Nostr relays, each a
:class:`~web.race.rtc.RtcLink`.

- :class:`HostRoom` — the host's page joins a Trystero room named by a fresh
  secret on the Nostr relays and makes the one table link
  (:meth:`HostRoom.table_link`); every page that joins the room becomes a link
  handed to ``on_link`` (the host seats whoever says ``join``).
- :class:`FriendRoom` — a friend's page joins the room of a table link and keeps
  only the connection to the host's page (its peer id is in the link). When that
  link drops, :meth:`FriendRoom.reconnect` leaves the room, probes the relays
  and joins again the moment one answers, until a new link to the host opens —
  the friend comes back with no action from anyone (N9).

Through the relays (issue 30 item 1): a friend's page with no direct link to the
host :data:`RELAY_AFTER_S` after its join, or after its link dropped — or at once
when its direct link's path has been lost for :data:`LOST_RELAY_S` mid-race
(:meth:`FriendRoom.watch`) — opens a link through the table's relays
(``relay.mjs``: end-to-end encrypted with the table's secret) and races over it,
while it goes on joining the room for a direct path; when one opens, the seat
moves to it (a comeback on the new link, which the host answers by closing the
old one). A page without WebRTC (or with
``localStorage["kosynka.race.test_relay_only"]`` set, a test-only switch) makes
no direct connection and goes through the relays at once.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from typing import Callable

from pyodide.ffi import create_proxy

from kosynka.race.transport import OPEN
from web.dom import JsObject
from web.race import ice, rtc, signal
from web.race.signal import minutes_now

__all__ = ["HostRoom", "FriendRoom", "JOIN_AGAIN_S", "SETTLE_S", "RELAY_AFTER_S", "LOST_RELAY_S"]

# while a first join has no link to the host yet: join again after these pauses,
# the last one repeated. Trystero announces again by itself (at 0.2, 0.5, 1.3 s,
# then every 5.3 s), so a lost announcement needs no new join; a new join helps
# after a failed try, but one that cuts a try under way short (a busy phone
# booting its solver) keeps the host's Trystero deaf to this page for 23 s — so
# the first comes when a try has had its time, and the next ones past the 23 s
JOIN_AGAIN_S = (8.0, 25.0)
# after a comeback's join: the pause before the next, longer than Trystero's 23 s
# for an offer or answer under way
SETTLE_S = 25.0
# no direct link to the host this long after a join or a drop: through the relays
# (a direct link opens in 0.3–2.2 s where one can: docs/race.md's figures)
RELAY_AFTER_S = 4.0
# the direct link's path lost (its ICE "disconnected") this long: through the relays
# at once, not when the link drops (Trystero lets the peer go 5 s after its ICE says
# "disconnected", and the fall-back came RELAY_AFTER_S after that: 16 s in all).
# A path that comes back by itself does so within a second or two (a Wi-Fi's hiccup)
LOST_RELAY_S = 2.0


class _Room:
    """A Trystero room of a table (``room.mjs``): its peers become links."""

    def __init__(self, relays: list[str], servers: list[ice.Server]) -> None:
        self.relays, self.servers = list(relays), list(servers)
        self.room: JsObject = None      # room.mjs's Room, once open
        self._proxy: JsObject = None
        self.closed = False

    async def _open(self, room_id: str, password: str, secret: bytes, host: bool) -> None:
        self.room = await rtc.open_room(room_id, password, self.relays, self.servers, secret, host)
        self._proxy = create_proxy(self._peer)
        self.room.onpeer = self._proxy

    @property
    def direct(self) -> bool:
        """This page makes direct (WebRTC) connections: False in a browser without
        WebRTC (and under the test-only switch), which races through the relays."""
        return self.room is None or bool(self.room.direct)

    @property
    def self_id(self) -> str:
        return str(self.room.selfId)

    def relays_open(self) -> int:
        """How many of the relays have an open connection now."""
        return int(self.room.relaysOpen()) if self.room is not None else 0

    async def wait_relays(self, seconds: float) -> bool:
        """True as soon as a relay answers; False if none does within ``seconds`` (or
        all of them refused: no network at all)."""
        deadline = time.monotonic() + seconds
        while not self.closed and self.relays_open() == 0:
            if time.monotonic() >= deadline or bool(self.room.relaysDown()):
                return False       # none answered in time, or every one refused at once
            await asyncio.sleep(0.1)
        return not self.closed

    def _peer(self, channel: JsObject) -> None:
        raise NotImplementedError

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.room is not None:
            self.room.onpeer = None
            self.room.close()
        if self._proxy is not None:
            self._proxy.destroy()
            self._proxy = None


class HostRoom(_Room):
    """The host's room: a fresh table id and secret; every peer is handed over."""

    def __init__(self, on_link: Callable[[rtc.RtcLink], None], relays: list[str],
                 servers: list[ice.Server]) -> None:
        super().__init__(relays, servers)
        self.table = random.getrandbits(32)
        self.secret = secrets.token_bytes(signal.SECRET_BYTES)
        self.on_link = on_link
        self.knocks: dict[str, tuple[str, float]] = {}   # peer id → name, when (issue 30 item 3)
        self._knock_proxy: JsObject = None

    async def open(self) -> None:
        stub = signal.Table(self.table, self.secret, "0" * signal.PEER_ID_LEN, 1, None, 0, "",
                            tuple(self.relays), tuple(self.servers))
        await self._open(*signal.room_of(stub), self.secret, True)
        self._knock_proxy = create_proxy(self._knock)
        self.room.hub.onknock = self._knock_proxy

    def _knock(self, peer: JsObject, name: JsObject) -> None:
        if not self.closed and (str(peer) not in self.knocks or len(self.knocks) < 16):
            self.knocks[str(peer)] = (str(name), time.monotonic())

    def close(self) -> None:
        if self.room is not None and self._knock_proxy is not None:
            self.room.hub.onknock = None
            self._knock_proxy.destroy()
            self._knock_proxy = None
        super().close()

    def table_link(self, host: str, draw: int, minutes: int | None) -> signal.Table:
        return signal.Table(self.table, self.secret, self.self_id, draw, minutes, minutes_now(),
                            host, tuple(self.relays), tuple(self.servers))

    def _peer(self, channel: JsObject) -> None:
        if not self.closed:
            self.on_link(rtc.RtcLink(channel))


class FriendRoom(_Room):
    """A friend's room: only the link to the host's page counts, and it comes back
    by itself after a drop (:meth:`reconnect`)."""

    def __init__(self, table: signal.Table, on_link: Callable[[rtc.RtcLink], None],
                 servers: list[ice.Server]) -> None:
        super().__init__(list(table.relays), servers)
        self.table = table
        self.on_link = on_link
        self.link: rtc.RtcLink | None = None          # the direct link
        self.relay: rtc.RtcLink | None = None         # the link through the relays
        self._since = time.monotonic()                # the join, or the drop
        self._lost: float | None = None               # since when the direct path is lost
        self._cut = False                             # we closed the direct link: path lost
        self._task: asyncio.Future[None] | None = None

    async def open(self, name: str) -> None:
        """Join the table's room; tell the host's page we are joining, as ``name``."""
        await self._open(*signal.room_of(self.table), self.table.secret, False)
        self.room.knock(self.table.host_peer, name)

    def _peer(self, channel: JsObject) -> None:
        if self.closed or str(channel.way) != "direct" or str(channel.id) != self.table.host_peer:
            return  # another friend's page: Trystero connects everyone, we talk to the host
        self.link = rtc.RtcLink(channel)
        self.on_link(self.link)

    @property
    def linked(self) -> bool:
        """A direct link to the host is open."""
        return self.link is not None and self.link.connected

    @property
    def relayed(self) -> bool:
        """A link to the host through the relays is open."""
        return self.relay is not None and self.relay.connected

    def watch(self) -> None:
        """Called on every tick: a direct link whose path has been lost for
        :data:`LOST_RELAY_S` is closed here, which is a drop to our seat — the
        same way back as any (:meth:`reconnect`), but through the relays at once:
        the seat moves to a link through them as on any comeback (the host closes
        the old link, and nobody hears a drop), and the room is joined again for a
        new direct path (issue 30 item 1). (``room.mjs``'s ``RoomPeer._watch`` gives
        a connection whose path stays lost up after ``LOST_MS``, 20 s, on either
        page; this is the friend's earlier step, which no one else hears.)"""
        link = self.link
        if self.closed or link is None or not link.connected or link.steady:
            self._lost = None
            return
        now = time.monotonic()
        if self._lost is None:
            self._lost = now
        elif now - self._lost >= LOST_RELAY_S:
            self._lost, self._cut = None, True
            link.close()

    def _fall_back(self) -> None:
        """No direct link :data:`RELAY_AFTER_S` after the join or the drop (at once on
        a page that makes none): a link through the relays, handed over once the
        host's page answers it; another if it ends (and no direct one opened)."""
        if self.closed or self.room is None or self.linked:
            return
        if self.relay is not None and not self.relay.ended:
            return
        if self.direct and time.monotonic() - self._since < RELAY_AFTER_S:
            return
        link = self.relay = rtc.RtcLink(self.room.relayTo(self.table.host_peer))

        def status(s: str) -> None:
            if s == OPEN and not self.closed and self.relay is link:
                self.on_link(link)
        link.on_status = status

    async def rejoin(self, fresh: bool = False) -> None:
        """Join the room again now (Try again; each step of :meth:`reconnect`);
        ``fresh``: over new connections to the relays too (after a drop: the old ones
        may wait a minute for TCP's backed-off retransmission once the path is back)."""
        if self.room is not None and not self.closed:
            await self.room.rejoin(fresh)

    def reconnect(self, until: Callable[[], bool], pauses: tuple[float, ...] = JOIN_AGAIN_S,
                  drop: bool = True) -> None:
        """Join again until a link to the host is open, or ``until()`` says to stop
        (the page gave up, or left): a first join (not ``drop``) after each of
        ``pauses``, the last one repeated; after a drop, :meth:`_comeback`. A new
        call replaces the one under way."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        # (a direct link closed by watch(): its path is known lost, no wait for the relays)
        self._since = time.monotonic() - (RELAY_AFTER_S if self._cut else 0.0)
        self._cut = False
        self._task = asyncio.ensure_future(self._comeback(until) if drop
                                           else self._retry(until, pauses))

    def _done(self, until: Callable[[], bool]) -> bool:
        """Nothing left to do: a direct link is open, or ``until()``; meanwhile
        through the relays (:meth:`_fall_back`)."""
        if self.closed or self.linked or until():
            return True
        self._fall_back()
        return False

    async def _wait(self, seconds: float, until: Callable[[], bool]) -> bool:
        """Wait ``seconds``; True (at once) if there is nothing left to do."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(0.25)
            if self._done(until):
                return True
        return self._done(until)

    async def _retry(self, seated: Callable[[], bool], pauses: tuple[float, ...]) -> None:
        """A first join: again after each pause until the host answers — and, seated
        through the relays, on, for a direct path."""
        def until() -> bool:
            return seated() and not self.relayed
        for i in range(10_000):
            if await self._wait(pauses[min(i, len(pauses) - 1)], until):
                return
            if not self.room.connecting(self.table.host_peer):
                await self.rejoin()   # never while a peer is on its way in (room.mjs)

    async def _comeback(self, until: Callable[[], bool]) -> None:
        """After a drop: out of the room while the path is gone (a join then cannot
        connect, and one that offers then keeps the host's page deaf to this one for
        23 s once the path is back, see ``Room.suspend``); the relays probed until
        one answers, then the room joined at once over new connections to them (the
        old ones may wait a minute more for TCP's backed-off retries); again after
        :data:`SETTLE_S` while no link opens (never while one is on its way in)."""
        await self.room.suspend()
        while not self._done(until):
            fresh = not self.relayed      # through the relays: they answer, no probe
            if fresh and (not await self.room.probe() or self._done(until)):
                continue
            if not self.room.connecting(self.table.host_peer):
                await self.rejoin(fresh=fresh)
            if await self._wait(SETTLE_S, until):
                return

    def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        super().close()
