"""The host's side of the race page (issues 11, 19, 28): the table opened, the
friends' links taken, the links-only invites and replies, the name and the
connection settings typed in the lobby. A part of ``web.race.page.RacePage``
(it holds one), over its controller and connection.

Decisions (user-visible):
- Invites (links-only): the host's Invite makes one link (one pending peer
  connection) for one friend; the table seats whoever joins first in the free
  seats, later arrivals watch (N3). The same button brings back a friend whose
  connection dropped: a fresh link exchange, within the 60 s of N9.
- A new name while nobody else is at the table opens it anew (so do new
  connection settings, ``web.race.net``).
"""

from __future__ import annotations

from typing import Any

from kosynka.race.transport import Link
from web.dom import JsObject, nil
from web.race import lobby, rtc
from web.race.markup import Html
from web.race.shell import PageShell
from web.race.signal import CodeError


class HostSide:
    """The host's table and ways to bring friends, for ``page``."""

    def __init__(self, page: PageShell) -> None:
        self.page = page
        self.control, self.net = page.control, page.net

    def open(self) -> None:
        """Our own table (once), with its room and invites; the lobby on top."""
        page = self.page
        if page.mode != "host":
            page.leave()
            page.mode = "host"
            self.control.open_host(page.my_name())
            self.net.host(self.attach)
            page.ticking()
        page.solo(pause=True)
        page.render()

    def attach(self, link: Link) -> None:
        """A friend's link opened: the host takes it (newcomer or comeback)."""
        self.control.attach(link)
        self.net.open_invites = []  # answered: the panel closes
        self.page.changed()

    async def invite(self) -> None:
        page = self.page
        v = self.control.view()
        assert v is not None
        await self.net.invite(page.base(), page.my_name(), v["draw"], v["minutes"])
        page.render()
        box = page.sheet.querySelector("[data-invite-link]")
        if not nil(box):  # the link and its QR code in sight (a phone scrolls the lobby)
            box.closest(".linkbox").scrollIntoView(True)

    async def take_reply(self, text: str) -> bool:
        page = self.page
        try:
            await self.net.reply(text)
        except CodeError as e:
            box = page.sheet.querySelector(".paste-error")
            if not nil(box):
                box.innerHTML = lobby.link_error(page.app.lang, e, "invite")
            else:
                page.show_error(e, "invite")
            return False
        page.render()
        return True

    def rename(self) -> None:
        """The host typed a new name: a table nobody has joined yet starts anew."""
        if self.control.alone():
            self.control.new_table(self.page.my_name())
            self.page.render()

    def ways(self, v: dict[str, Any]) -> Html:
        """The lobby's ways to bring friends: the table link or the invites, and the
        Connection section."""
        page, net = self.page, self.net
        url = net.table_url(page.base(), page.my_name(), v["draw"], v["minutes"])
        return lobby.ways(page.app.lang, net.way, url, page.share(), net.open_invites,
                          net.no_addresses, page.connection(), rtc.webrtc())

    def on_beforeunload(self, ev: JsObject) -> None:
        """The host's page holds the race: ask before it goes (the friends would lose it)."""
        if self.control.holds_others():
            ev.preventDefault()
            ev.returnValue = ""
            # Trystero leaves its rooms on beforeunload, even when the player then
            # stays: not this page's room while it holds a race (ours runs first)
            ev.stopImmediatePropagation()
