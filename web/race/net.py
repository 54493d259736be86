"""A page's connection to its table, as one object (issues 11, 19, 28):
:class:`Net` holds the table link's room (``web.race.rooms``), the links-only
invites (``web.race.invites``), the ICE servers and relays in use
(``web.race.ice``, stored by ``web.race.stored``), and which way is in use.
It opens :class:`~web.race.rtc.RtcLink`\\ s with no server of ours (O4) and hands
each to ``on_link``; the race itself (``web.race.control``) never sees how.

Two ways (issue 19): with internet, one table link for everyone (the host's
lobby says "over the internet"); when no relay answers within
:data:`RELAY_WAIT_S` the lobby says so and offers the links-only way (two phones
on one hotspot: invite out, reply back, no ICE server), and goes back to the
table link by itself once a relay answers.

Connection settings (the lobby's Connection section): the STUN servers asked for
a public address are named there; "same Wi-Fi only" asks none; a TURN server
(URL, username, password) may be typed — a typed server that cannot be used is
said at once and kept out. They are stored in ``localStorage["kosynka.race.ice"]``
(the relays in ``…relays``; both read when a table opens) and travel with the
table link; a friend's own TURN server is used next to the host's. A change while
friends are at the table applies to the next table (their connections were made
with the old one).
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Callable, Sequence

from web.race import ice, rtc, signal
from web.race.invites import HostLinks, join
from web.race.rooms import JOIN_AGAIN_S, FriendRoom, HostRoom
from web.race.signal import Invite, Table
from web.race.stored import RaceStore

__all__ = ["Net", "RELAY_WAIT_S"]

RELAY_WAIT_S = 5.0                  # no relay answers: the links-only way
KNOCK_FAILED_S = 15.0               # a friend joining not seated by then: said to have failed
KNOCK_SHOWN_S = 75.0                # ... and said so until then

OnLink = Callable[[rtc.RtcLink], None]
Draft = tuple[str, str, str]


class Net:
    """The connection of the page at a table: ``changed()`` asks for a repaint."""

    def __init__(self, store: RaceStore, changed: Callable[[], None]) -> None:
        self.store, self.changed = store, changed
        self.links: HostLinks | None = None     # the host's links-only invites
        self.room: HostRoom | FriendRoom | None = None   # the table link's room
        self.way: str | None = None             # the host's: wait, relay, links
        self.ice_error: str | None = None       # ice/… of a setting that was refused
        self.ice_saved: str | None = None       # the words said after a setting was saved
        self.turn_draft: Draft | None = None    # a TURN server typed but refused: shown again
        self.no_addresses = False               # the last invite had no address at all
        self.open_invites: list[str] = []       # the host's invite links not yet answered
        self.reply_url: str | None = None       # the friend's reply link (links-only)
        self._phases: dict[str, int] = {}       # friends trying to join: their phase (tick)

    # ------------------------------------------------------------ settings
    def settings(self) -> tuple[list[ice.Server], list[str]]:
        """The ICE servers and relays to use now; a stored value that cannot be
        used gives the defaults, and is said in the lobby (``ice_error``)."""
        servers, err1 = ice.load_ice(self.store.ice())
        relays, err2 = ice.load_relays(self.store.relays())
        err = err1 or err2
        self.ice_error = err.code if err else None
        return servers, relays

    def servers(self, t: Table | None) -> list[ice.Server]:
        """The ICE servers shown in the Connection section: the room's, else the
        table link's (a friend before Join)."""
        if self.room is not None:
            return list(self.room.servers)
        return list(t.ice) if t is not None else []

    def relays(self) -> list[str]:
        """The relays named in the host's Connection section."""
        return list(self.room.relays) if isinstance(self.room, HostRoom) else []

    def save_ice(self, servers: list[ice.Server], alone: bool, host: bool) -> bool:
        """Store the ICE servers; True if the host's table, nobody at it yet, should
        open anew with them (else they apply from the next table)."""
        self.store.save_ice(servers)
        self.ice_error = None
        self.ice_saved = "race_turn_saved" if alone or not host else "race_net_next"
        return alone

    def typed_turn(self, url: str, user: str, cred: str) -> list[ice.Server] | None:
        """The TURN server typed in the Connection section, checked: the servers to
        keep (the STUN servers in use and it; an empty URL removes it), or None
        (refused: ``ice_error`` says why, what was typed stays to be mended)."""
        servers, _ = ice.load_ice(self.store.ice())
        servers = [s for s in servers if "username" not in s]
        if url:
            try:
                servers.append(ice.check_server({"urls": url, "username": user, "credential": cred}))
            except ice.IceError as e:
                self.ice_error, self.ice_saved = e.code, None
                self.turn_draft = (url, user, cred)
                return None
        self.turn_draft = None
        return servers

    # ------------------------------------------------------------ the host's page
    def host(self, on_link: OnLink) -> None:
        """The host's ways in: links-only invites (no ICE server) and the room."""
        self.links = HostLinks(on_link)
        asyncio.ensure_future(self.links.listen())
        self.open_room(on_link)

    def open_room(self, on_link: OnLink) -> None:
        """The host's table on the relays (the table link), and which way is in use."""
        if self.room is not None:
            self.room.close()
        servers, relays = self.settings()
        self.room = room = HostRoom(on_link, relays, servers)
        self.way = "wait"

        async def opened() -> None:
            await room.open()
            ok = await room.wait_relays(RELAY_WAIT_S)
            if self.room is room:
                self.way = "relay" if ok else "links"
                self.changed()

        asyncio.ensure_future(opened())

    def host_table(self) -> int | None:
        """The host's table id (its room's; links-only, the invites')."""
        if isinstance(self.room, HostRoom):
            return self.room.table
        return self.links.table if self.links is not None else None

    def table_url(self, base: str, name: str, draw: int, minutes: int | None) -> str | None:
        """The table link of the host's page, once its room is open."""
        room = self.room
        if not isinstance(room, HostRoom) or room.room is None:
            return None
        return signal.link(base, room.table_link(name, draw, minutes))

    async def invite(self, base: str, name: str, draw: int, minutes: int | None) -> None:
        """A new links-only invite: the panel shows the newest."""
        assert self.links is not None
        inv = await self.links.invite(name, draw, minutes)
        self.open_invites = [signal.link(base, inv)]
        self.no_addresses = not inv.offer.candidates   # offline: it reaches nobody; say so

    async def reply(self, text: str) -> None:
        """A friend's reply (pasted, or opened as a link here): ``CodeError`` if it
        is not one this table waits for."""
        assert self.links is not None
        await self.links.reply(text)
        self.open_invites = []

    def tick(self) -> bool:
        """True when the way in use changed (a relay answered, or the last one went),
        or a friend's try to join did (:meth:`knocks`). A friend's direct path
        lost for a while: through the relays (``FriendRoom.watch``)."""
        changed = False
        if isinstance(self.room, FriendRoom):
            self.room.watch()
        if isinstance(self.room, HostRoom):
            phases = {peer: self._phase(at) for peer, (_, at) in self.room.knocks.items()}
            changed = phases != self._phases
            self._phases = phases
            for peer in [p for p, phase in phases.items() if phase == 2]:
                del self.room.knocks[peer]
        if isinstance(self.room, HostRoom) and self.way in ("relay", "links"):
            way = "relay" if self.room.relays_open() else "links"
            if way != self.way:
                self.way = way
                return True
        return changed

    @staticmethod
    def _phase(at: float) -> int:
        age = time.monotonic() - at
        return 0 if age < KNOCK_FAILED_S else 1 if age < KNOCK_SHOWN_S else 2

    def knocks(self, seated: Sequence[str]) -> list[tuple[str, bool]]:
        """Friends trying to join the host's table, as the lobby says it (issue 30
        item 3): (name, failed) — joining, or not seated within
        :data:`KNOCK_FAILED_S` (shown until :data:`KNOCK_SHOWN_S`); one whose name
        sits at the table is not trying any more."""
        if not isinstance(self.room, HostRoom):
            return []
        out = []
        for name, at in self.room.knocks.values():
            if not any(s == name or re.fullmatch(re.escape(name) + r" \d+", s) for s in seated):
                out.append((name, self._phase(at) > 0))
        return out

    # ------------------------------------------------------------ a friend's page
    def friend_servers(self, t: Table) -> list[ice.Server]:
        """The host's ICE servers, and a TURN server of the friend's own if they set one."""
        own, _ = ice.load_ice(self.store.ice())
        extra = [s for s in own if s not in t.ice and "username" in s]
        return list(t.ice) + extra

    async def join_room(self, t: Table, on_link: OnLink, until: Callable[[], bool],
                        name: str) -> None:
        """Join the table link's room (the host's page told: ``name`` is joining); on
        and on, quietly, also once the page said it cannot reach the table, until
        ``until()`` (the host answered)."""
        self.room = room = FriendRoom(t, on_link, self.friend_servers(t))
        await room.open(name)
        room.reconnect(until=until, pauses=JOIN_AGAIN_S, drop=False)

    def new_servers(self, t: Table) -> bool:
        """A TURN server was typed since the room opened: Try again needs a new room."""
        return self.room is None or self.friend_servers(t) != self.room.servers

    def rejoin(self) -> None:
        """Try again: join the room anew (fresh announcements on every relay)."""
        if isinstance(self.room, FriendRoom):
            asyncio.ensure_future(self.room.rejoin())

    def reconnect(self, until: Callable[[], bool]) -> None:
        """Our link to the host dropped: back by itself through the room (N9)."""
        if isinstance(self.room, FriendRoom):
            self.room.reconnect(until=until)

    async def join_invite(self, base: str, invite: Invite) -> rtc.RtcLink:
        """The friend's side of an invite: its link, and the reply link to send back."""
        link, reply = await join(invite)
        self.reply_url = signal.link(base, reply)
        return link

    # ------------------------------------------------------------ the end
    def close(self) -> None:
        if self.room is not None:
            self.room.close()
        if self.links is not None:
            self.links.close()
        self.links = self.room = self.way = self.reply_url = None
        self.no_addresses, self.ice_saved, self.turn_draft = False, None, None
        self.open_invites = []
