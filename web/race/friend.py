"""A friend's side of the race page (issues 11, 19, 28): the join screen for a
table link or an invite, Join and Try again, the link to the host's page and
what its drops mean, this browser's other tabs, the way back after a reload.
A part of ``web.race.page.RacePage`` (it holds one), over its controller and
connection.

Decisions (user-visible):
- The seat (N9): a friend's pid and token per table are kept in localStorage
  (``kosynka.race.seats``), so another tab of the same browser is the same seat
  and goes back to it at once, with no Join; the tab that takes it over tells
  the others (``BroadcastChannel`` :data:`TABS`), which leave the table and say so.
- Coming back (N9): a friend's link that drops comes back by itself through the
  table link's room (``web.race.rooms``), the grace counted down on their table
  meanwhile. Links-only, a friend's tab remembers its seat (``sessionStorage``:
  table, pid, token); after a reload it says whose table it was at and asks for
  a new link from the host, which puts it back at its table exactly as the host
  holds it. With a table link the tab reopens that link itself after a reload.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Callable

import js

from kosynka.race.transport import Link
from web.dom import JsObject
from web.race import lobby, rtc, signal
from web.race.markup import Html
from web.race.shell import PageShell
from web.race.signal import Invite, Table

TABS = "kosynka-race-seat"          # BroadcastChannel: a seat taken over by another tab


def _ignore(_text: str) -> None:
    pass


class FriendSide:
    """The friend's ways to a table, for ``page``."""

    def __init__(self, page: PageShell) -> None:
        self.page = page
        self.control, self.net, self.store = page.control, page.net, page.store
        self._tab = f"{random.getrandbits(48):012x}"
        self._tabs = js.BroadcastChannel.new(TABS)
        page.app.listeners.on(self._tabs, "message", self.on_tabs)

    def open(self, item: Invite | Table) -> None:
        """The friend's join screen for an invite (links-only) or a table link."""
        page = self.page
        page.leave()
        page.mode = "friend"
        if isinstance(item, Table):
            self.control.table_link = item
        else:
            self.control.invite = item
        page.solo(pause=True)
        page.render()
        if isinstance(item, Table) and self.store.seat_of(item.table) is not None:
            asyncio.ensure_future(self.join_table())   # our seat, from another tab: back at once

    async def join(self) -> None:
        """Join pressed: by the table link, or (links-only) the reply to the invite."""
        c, page = self.control, self.page
        if c.table_link is not None:
            return await self.join_table()
        invite = c.invite
        assert invite is not None
        name = page.my_name()
        link = await self.net.join_invite(page.base(), invite)
        seat = self.store.tab_seat()
        c.sit(name, seat if seat and seat.get("table") == invite.table else None)
        page.ticking()
        self.host_link(link)
        self.store.mark_used(c.invite_key(invite))
        page.render()

    async def join_table(self) -> None:
        c = self.control
        t = c.table_link
        assert t is not None
        c.sit(self.page.my_name(), self.store.seat_of(t.table))
        self.page.ticking()
        c.joining()
        self.store.keep_tab_seat({"code": signal.encode(t)})
        self.page.render()
        # on and on, quietly, also once the page said it cannot reach the table;
        # not once the host has answered (seated, or refused)
        await self.net.join_room(t, self.host_link, c.seated)

    def host_link(self, link: Link) -> None:
        """A (new) link to the host's page opened: our seat talks over it. One it
        replaces (through the relays, then direct: issue 30) is heard no more; the
        host closes its end when our seat comes back on the new one."""
        p = self.control.player
        if p is None:
            return link.close()
        if p.link is not None and p.link is not link:
            p.link.on_message = _ignore
        p.connect(link)
        link.on_status = self._status(link, link.on_status)

    def _status(self, link: Link, inner: Callable[[str], None]) -> Callable[[str], None]:
        def status(s: str) -> None:
            p = self.control.player
            if p is None or p.link is not link:
                return                     # a link our seat has moved off
            if self.control.link_status(s):
                self.page.say(self.page.tr("race_me_lost"))
            if s != "open":
                self.net.reconnect(until=self.control.gave_up)   # back by itself (N9)
            inner(s)
            self.page.changed()
        return status

    def retry(self) -> None:
        """Try again: join the room anew (fresh announcements on every relay)."""
        t = self.control.table_link
        if t is None or self.net.room is None:
            return
        if self.net.new_servers(t):  # a TURN server typed
            self.net.room.close()
            asyncio.ensure_future(self.join_table())
            return
        self.control.joining()
        self.page.render()
        self.net.rejoin()

    def conn_note(self) -> tuple[str, str] | None:
        """Our own connection to the table, in words: (state, words)."""
        note = self.control.conn_note()
        if note is None:
            return None
        state, n = note
        host, tr = self.control.host_name(), self.page.tr
        if state == "closed":
            return state, tr("race_host_closed", name=host)
        if state == "gone":                  # it may be our network: it blames nobody
            return state, tr("race_host_gone", name=host, s=n)
        return state, tr("race_reconnecting", s=n)

    # ------------------------------------------------------------ other tabs, a reload
    def claim(self, table: int, pid: int) -> None:
        """Seated here: other tabs of this browser at this seat leave it."""
        self._tabs.postMessage(json.dumps({"table": table, "pid": pid, "tab": self._tab}))

    def on_tabs(self, ev: JsObject) -> None:
        """Another tab of this browser took our seat at this table: we leave it."""
        try:
            msg = json.loads(str(ev.data))
            table, pid, tab = msg["table"], msg["pid"], msg["tab"]
        except (ValueError, KeyError, TypeError):
            return
        if tab != self._tab and self.control.took_over(table, pid):
            self.page.leave()
            self.page.mode = "error"
            self.page.show(lobby.other_tab_sheet(self.page.app.lang))

    def way_back(self) -> bool:
        """After a reload: the friend's tab remembers a table; its table link is
        opened again (back to the same seat), or, links-only, say how to return (N9)."""
        page = self.page
        code = self.store.tab_table_code()
        if code and page.mode is None:
            try:
                page.route("#table=" + code)
            except Exception:   # noqa: BLE001 - a tab's memory is no reason to fail start-up
                self.store.keep_tab_seat(None)
            return True
        data = self.store.tab_seat()
        if data is None or page.mode is not None:
            return False
        page.mode = "error"
        page.show(lobby.way_back_sheet(page.app.lang, str(data["host"])))
        return True

    # ------------------------------------------------------------ the join screen
    def sheet(self) -> Html:
        """The join screen: a table link's (name and Join, then joining, refused or
        unreachable with Try again) or an invite's (then the reply link to send)."""
        c, page, lang = self.control, self.page, self.page.app.lang
        p = c.player
        if c.table_link is not None:
            state = ("name" if p is None else "refused" if p.error else
                     "unreachable" if c.unreachable else "joining")
            net = page.connection() if state in ("name", "unreachable") else Html("")
            return lobby.table_join(lang, c.table_link, self.store.name(), state,
                                    p.error if p is not None else None, net)
        assert c.invite is not None
        error = None if p is None or p.error is None else (
            page.tr("race_table_full") if p.error_code == "table/full" else p.error)
        return lobby.invite_join(lang, c.invite, self.store.name(), self.net.reply_url,
                                 page.share(), p is not None and p.connected, error, rtc.webrtc())
