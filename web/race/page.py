"""Race with friends in the page (issue 11): the host's lobby and invites, the
friend's join screen (their sheets: ``web.race.lobby``), the hand-over tab, and the
race itself (``web.race.screen``).

Every page at a table runs a ``kosynka.race.Player`` for its own seat and shows
what it holds: one path, whoever the page is. The host's page also runs
``kosynka.race.Host`` (the truth of the race), whose own seat is that page's
``Player`` over an in-memory link (``Host.own_player``); a friend's ``Player``
talks to the host over a WebRTC link (``web.race.rtc``), through the same
protocol checks. What only the host's page does is the table's life: its links and
invites, its timers (``Host.tick``), and asking before it closes.

Routes (the URL fragment, read at start-up and on ``hashchange``, then cleared so
a reload does not reopen an old invite):

- ``#table=<code>`` — the table link (issue 19): the friend sees the table's name,
  the host and the settings, types a name and presses Join; the page finds the
  host's page through the Nostr relays the link names (``web.race.net.FriendRoom``)
  and is seated. A page that remembers a seat at this table (another tab, a tab the
  browser closed) goes back to it at once, no Join needed.
- ``#race=<code>`` — an invite: the friend sees the table's name, the host and the
  settings, types a name, presses Join and sends back the reply link shown (text,
  QR code, Copy, Share). The page connects as soon as the host opens the reply.
- ``#reply=<code>`` — a reply opened on the host's device: ``handover.mjs``
  hands it to the hosting tab of this browser before Python starts; this tab
  says how that went, starts no game, and can be closed.

Decisions (user-visible):

- Two ways (issue 19): with internet, one table link for everyone (the lobby says
  "over the internet"); when no relay answers within ``RELAY_WAIT_S`` the lobby
  says so and offers the links-only way below (two phones on one hotspot), and
  goes back to the table link by itself once a relay answers.
- Connection settings (the lobby's Connection section): the STUN servers asked
  for a public address are named there; "same Wi-Fi only" asks none; a TURN
  server (URL, username, password) may be typed — a typed server that cannot be
  used is said at once and kept out. They are stored in
  ``localStorage["kosynka.race.ice"]`` (the relays in ``…relays``; both read when
  a table opens) and travel with the table link; a friend's own TURN server is
  used next to the host's. A change while friends are at the table applies to the
  next table (their connections were made with the old one).
- Nobody waits for ever: a join not seated within ``JOIN_WAIT_S`` says why it may
  be and offers Try again; a friend whose link drops sees the seconds left of the
  60-s grace on their own table while the page reconnects by itself
  (``FriendRoom.reconnect``), and, back after the grace, that the host counted
  them out, with the result as the host holds it; after ``GIVE_UP_S`` without an
  answer the page stops trying and says so.
- The seat (N9): a friend's pid and token per table are kept in localStorage
  (``kosynka.race.seats``), so another tab of the same browser is the same seat;
  the tab that takes it over tells the others (``BroadcastChannel``
  ``kosynka-race-seat``), which leave the table and say so.
- Invites (links-only): the host's Invite makes one link (one pending peer connection) for one
  friend; the table seats whoever joins first in the free seats, later arrivals
  watch (N3). The same button brings back a friend whose connection dropped: a
  fresh link exchange, within the 60 s of N9.
- Names are remembered on the device (``kosynka.race.name``); the host's settings
  too (``kosynka.race.settings``). The links-only way uses no ICE server (it is the
  way for one Wi-Fi with no internet).
- Coming back (N9), links-only: a friend's tab remembers its seat (``sessionStorage``:
  table, pid, token). After a reload or a drop it says whose table it was at and
  asks for a new link from the host; opening that link puts it back at its table
  exactly as the host holds it. With a table link the tab reopens that link itself
  after a reload.
- The host's page is the table: if it reloads or closes, the race cannot go on
  (the truth lived there). The host's page asks before it is closed during a race;
  the friends see "connection lost" at once and, when no new link came within the
  60 s, that the host's table has closed and the race ended without a result.
- Test-only: ``localStorage["kosynka.race.test_speed"]`` (a number), read by the
  host at Start and Again, runs the race's clock that many times faster (a timed
  race ends in seconds, the grace too). No control of the page sets it.

DOM contract (tests rely on it): ``data-action`` = race (menu), invite, join,
ready, start, retry (lobby, join) and those of ``web.race.screen``;
``[data-table-link]`` holds the table link as text; ``#race[data-way]`` is
``wait``, ``relay`` or ``links`` on the host's page; ``[data-conn]`` on a friend's
join screen is ``joining``, ``unreachable`` or ``open``; ``[data-ice-error]``
names a refused server setting (``ice/…``); ``[data-race-note]`` is the friend's
own connection state on the race screen (``lost``, ``late``, ``out``, ``gone``);
``[data-invite-link]`` /
``[data-reply-link]`` hold the links as text; a refused link shows
``[data-linkerror=link/…]``; ``html[data-race-handover]`` (and, once worded,
``#race[data-handover]``) is ``ok`` / ``none`` / a ``link/…`` code; lobby seats
are ``#race li[data-pid]`` with ``data-seat``, ``data-ready`` (yes/no) and
``data-connected`` (yes/no); ``[data-way-back]`` says how to return (N9);
``document.body.dataset.race`` is lobby, running, won, lost, draw or watching
while a race screen is open.
"""

from __future__ import annotations

import asyncio
import json
import random

import js

from kosynka.position import IllegalMoveError, InvalidMoveError
from kosynka.race import Host, Player, RaceError
from kosynka.race.table import (
    DRAWS,
    GRACE,
    LOBBY,
    MINUTES,
    NAME_MAX,
    RACING,
    check_name,
)
from web.dom import SOLO_PAGE, document, fill, h, nil, window
from web.i18n import t
from web.race import ice, net, news, signal
from web.race.lobby import NAME_KEY, LobbySheets, _get, _set
from web.race.screen import RaceScreen
from web.race.signal import CodeError, Invite, Table

ICE_KEY = "kosynka.race.ice"
RELAYS_KEY = "kosynka.race.relays"
SETTINGS_KEY = "kosynka.race.settings"
SPEED_KEY = "kosynka.race.test_speed"
SEAT_KEY = "kosynka.race.seat"      # sessionStorage: the friend's way back (N9)
USED_KEY = "kosynka.race.used"      # localStorage: the invites this browser answered
USED_KEPT = 20
SEATS_KEY = "kosynka.race.seats"    # localStorage: the friend's seat per table (N9)
SEATS_KEPT = 8
TABS = "kosynka-race-seat"          # BroadcastChannel: a seat taken over by another tab
RELAY_WAIT_S = 5.0                  # no relay answers: the links-only way
JOIN_WAIT_S = 15.0                  # a join not seated by then says why it may be
GIVE_UP_S = 300.0                   # a friend stops reconnecting after this long


def real_s() -> float:
    """The page's monotonic time (s), never sped up: connection timers."""
    return float(js.performance.now()) / 1000


class RacePage(LobbySheets):
    """The race screens; ``app`` gives the language, toasts, sheets and listeners."""

    def __init__(self, app) -> None:
        self.app = app
        self.mode: str | None = None          # host | friend | handover | error
        self.links: net.HostLinks | None = None
        self.host: Host | None = None         # the table, on the host's page only
        self.player: Player | None = None     # our own seat, on every page at a table
        self.invite: Invite | None = None     # the friend's invite
        self.reply_url: str | None = None
        self.open_invites: list[str] = []     # the host's invite links not yet answered
        self.settings = self._load_settings()
        self.lost_at: float | None = None     # the friend's link dropped (N9), real s
        self.room: net.HostRoom | net.FriendRoom | None = None   # the table link's room
        self.table_link: Table | None = None  # the friend's table link
        self.way: str | None = None           # the host's: wait, relay, links
        self.ice_error: str | None = None     # ice/… of a setting that was refused
        self.ice_saved: str | None = None     # the words said after a setting was saved
        self.turn_draft: tuple | None = None  # a TURN server typed but refused: shown again
        self.join_at: float | None = None     # a friend pressed Join (real s)
        self.unreachable = False
        self.no_addresses = False             # the last invite had no address at all
        self._tab = f"{random.getrandbits(48):012x}"
        self._claimed: tuple | None = None    # (table, pid) this tab told the others it holds
        self._tabs = js.BroadcastChannel.new(TABS)
        self._speed = 1.0
        self._t0 = self._p0 = 0.0
        self._dirty = False
        document.head.appendChild(h("link", {"rel": "stylesheet", "href": "web/race/race.css"}))
        self.sheet = h("div", {"class": "sheet", "role": "dialog", "aria-modal": "true",
                               "aria-labelledby": "race-title", "tabindex": "-1"})
        self.root = h("div", {"id": "race", "class": "overlay race", "hidden": True}, self.sheet)
        document.body.appendChild(self.root)
        self._screen: RaceScreen | None = None  # made at the first Start: no second table before
        on = app.listeners.on
        on(self.root, "click", self.on_click)
        on(self.root, "change", self.on_change)
        on(window, "hashchange", lambda ev: self.route(str(window.location.hash)))
        on(window, "beforeunload", self.on_beforeunload)
        on(self._tabs, "message", self.on_tabs)
        self._frame = app.listeners.proxy(lambda *a: self.render())
        self._tick = app.listeners.proxy(lambda *a: self.tick())
        self._interval = None

    # ------------------------------------------------------------ small things
    def tr(self, key: str, **kw) -> str:
        text = t(self.app.lang, key)
        return text.format(**kw) if kw else text

    def say(self, text: str) -> None:
        """Words for a screen reader: the page's polite live region (``#live``)."""
        self.app.view.say(text)

    def cover(self) -> None:
        """While a race screen is open, the solo page behind it is inert (Tab and a
        screen reader stay on the race), and a focus that is nowhere (a sheet just
        appeared or was redrawn, the lobby gave way to the table) goes to the sheet
        on top, else to the race table's cursor. Called at every repaint and tick:
        a confirmation closing (``web.dialogs``) gives the solo page back its
        controls."""
        if self.app.dialogs.is_open:
            return
        screen = self._screen if self._screen is not None and not self._screen.root.hidden else None
        on = not self.root.hidden or screen is not None
        for id_ in SOLO_PAGE:
            el = document.getElementById(id_)
            if not nil(el) and bool(el.inert) != on:
                el.inert = on
        if not on:
            return
        if not self.root.hidden:
            top = target = self.sheet
        elif not screen.results_root.hidden:
            top = target = screen.results
        else:
            top, target = screen.root, screen.table.querySelector("[tabindex='0']")
        active = document.activeElement
        if (nil(active) or not top.contains(active)) and not nil(target):
            target.focus()

    @property
    def active(self) -> bool:
        """A race screen (lobby, join, race) is open: it takes the keys."""
        return self.mode in ("host", "friend", "error") or not self.root.hidden

    def my_name(self) -> str:
        name = (_get("localStorage", NAME_KEY) or "").strip()[:NAME_MAX]
        try:
            return check_name(name)
        except RaceError:
            return self.tr("race_player")

    def _load_settings(self) -> dict:
        try:
            s = json.loads(_get("localStorage", SETTINGS_KEY) or "{}")
            if s.get("draw") in DRAWS and s.get("minutes") in MINUTES:
                return {"draw": s["draw"], "minutes": s["minutes"]}
        except (ValueError, AttributeError):
            pass
        return {"draw": 1, "minutes": None}

    def kind_label(self, minutes) -> str:
        return self.tr("race_last") if minutes is None else self.tr("race_min", n=minutes)

    def settings_label(self, draw: int, minutes) -> str:
        return f"{self.tr('draw1' if draw == 1 else 'draw3')} · {self.kind_label(minutes)}"

    def clock(self) -> float:
        """The race's clock (s): the page's monotonic time, sped up for tests."""
        p = float(js.performance.now()) / 1000
        return self._t0 + (p - self._p0) * self._speed

    def _test_speed(self) -> None:
        try:
            speed = float(_get("localStorage", SPEED_KEY) or 1)
        except ValueError:
            speed = 1.0
        self._t0, self._p0 = self.clock(), float(js.performance.now()) / 1000
        self._speed = speed if 1 <= speed <= 1000 else 1.0

    def _ticking(self) -> None:
        if self._interval is None:
            self._interval = window.setInterval(self._tick, 250)

    def _solo(self, pause: bool) -> None:
        """The solo game's clock waits while a race screen is open."""
        game = self.app.solo.game
        if game is not None:
            game.pause() if pause else game.resume()

    @property
    def screen(self) -> RaceScreen:
        """The race screen, made when a race is first shown (the solo table is then
        the only ``[data-pile]`` table on the page until someone races)."""
        if self._screen is None:
            self._screen = RaceScreen(self)
        return self._screen

    def view(self) -> dict | None:
        return self.player.view if self.player is not None else None

    # ------------------------------------------------------------ routes
    def route(self, fragment: str) -> bool:
        """Open the screen a ``#table=`` / ``#race=`` / ``#reply=`` fragment names;
        False if none."""
        if not fragment.startswith(("#table=", "#race=", "#reply=")):
            return False
        window.history.replaceState(js.undefined, "", str(window.location.pathname)
                                    + str(window.location.search))
        try:
            item = signal.parse_link(fragment)
            if isinstance(item, (Invite, Table)):
                signal.check_invite_age(item, net.minutes_now())
        except CodeError as e:
            self.show_error(e)
            return True
        if isinstance(item, Table):
            if self.mode == "host":
                self.show_error(CodeError("link/kind", ""), "invite")
            elif not (self.table_link == item and self.player is not None):
                self.open_invite(item)   # the same link again at the same table changes nothing
        elif isinstance(item, Invite):
            if self.used(item):
                self.show_error(CodeError("link/used", item.host), "invite")
            elif self.mode == "host":
                self.show_error(CodeError("link/kind", ""), "invite")
            elif self.player is not None and self.player.connected and self.player.view is not None:
                # already at a table: an invite opened twice changes nothing (a link that
                # opened but was never answered by the table does not count: a new
                # invite replaces it, as a player would try again)
                return True
            else:
                self.open_invite(item)
        elif self.mode == "host":
            asyncio.ensure_future(self.take_reply(fragment))
        else:  # a reply in a tab that hosts nothing (handover.mjs takes those it sees first)
            self.show_error(CodeError("link/kind", ""), "reply")
        return True

    def show_error(self, err: CodeError, item_kind: str = "reply") -> None:
        if self.mode in ("host", "friend"):
            self.app.toast(self.tr("race_" + err.code.replace("/", "_")
                                   if err.code != "link/kind" else "race_link_kind_" + item_kind,
                                   host=err.detail), 5000)
            return
        self.mode = "error"
        self.fill_sheet(h("h2", None, self.tr("race_title")), self.link_error(err, item_kind),
             self.buttons(("leave", "close")))
        self.root.hidden = False

    # ------------------------------------------------------------ hand-over tab
    def handover_tab(self) -> bool:
        """This tab was opened by a reply link: ``handover.mjs`` hands the reply to
        the hosting tab; this tab only says how that went (and starts no game)."""
        if nil(document.documentElement.getAttribute("data-race-handover")):
            return False
        self.mode = "handover"
        self.fill_sheet(h("h2", None, self.tr("race_title")), h("p", None, self.tr("race_connecting")))
        self.root.hidden = False
        asyncio.ensure_future(self._handover_result())
        return True

    async def _handover_result(self) -> None:
        html = document.documentElement
        while str(html.getAttribute("data-race-handover")) == "pending":
            await asyncio.sleep(0.05)
        result = str(html.getAttribute("data-race-handover"))
        self.root.dataset.handover = result
        if result == "ok":
            msg = h("p", {"class": "big"}, self.tr("race_sent"))
        elif result == "none":
            msg = h("p", {"class": "error"}, self.tr("race_no_table"))
        else:
            msg = self.link_error(CodeError(result, ""), "invite")
        self.fill_sheet(h("h2", None, self.tr("race_title")), msg)

    # ------------------------------------------------------------ host
    def open_host(self) -> None:
        if self.mode != "host":
            self.leave()
            self.mode = "host"
            self._speed, self._t0, self._p0 = 1.0, 0.0, float(js.performance.now()) / 1000
            self.links = net.HostLinks(self.attach)   # the links-only way: no ICE server
            self.links.listen()
            self.new_table()
            self._ticking()
            self.open_room()
        self._solo(pause=True)
        self.render()

    def net_settings(self) -> tuple[list[dict], list[str]]:
        """The ICE servers and relays to use now (``web.race.ice``); a stored value
        that cannot be used gives the defaults, and is said in the lobby."""
        servers, err1 = ice.load_ice(_get("localStorage", ICE_KEY))
        relays, err2 = ice.load_relays(_get("localStorage", RELAYS_KEY))
        err = err1 or err2
        self.ice_error = err.code if err else None
        return servers, relays

    def open_room(self) -> None:
        """The host's table on the relays (the table link), and which way is in use."""
        if self.room is not None:
            self.room.close()
        servers, relays = self.net_settings()
        self.room = room = net.HostRoom(self.attach, relays, servers)
        self.way = "wait"

        async def opened() -> None:
            await room.open()
            ok = await room.wait_relays(RELAY_WAIT_S)
            if self.room is room:
                self.way = "relay" if ok else "links"
                self.changed()

        asyncio.ensure_future(opened())

    def table_url(self) -> str | None:
        """The table link of the host's page, once its room is open."""
        room, v = self.room, self.view()
        if not isinstance(room, net.HostRoom) or room.room is None or v is None:
            return None
        return signal.link(str(window.location.href),
                           room.table_link(self.my_name(), v["draw"], v["minutes"]))

    def new_table(self) -> None:
        """The host's table and our own seat at it, with the remembered settings."""
        self.host = Host(self.my_name(), self.clock)
        self.player = self.host.own_player()
        self.player.on_change = self.changed
        s = self.settings
        self.player.set_settings(s["draw"], s["minutes"])

    def attach(self, link) -> None:
        """A friend's link opened: the host takes it (newcomer or comeback)."""
        if self.host is not None:
            self.host.attach(link)
        self.open_invites = []  # answered: the panel closes
        self.changed()

    async def make_invite(self) -> None:
        s = self.view()
        inv = await self.links.invite(self.my_name(), s["draw"], s["minutes"])
        url = signal.link(str(window.location.href), inv)
        self.open_invites = [url]  # the panel shows the newest invite
        self.no_addresses = not inv.offer.candidates   # offline: it reaches nobody; say so
        self.render()
        box = self.sheet.querySelector("[data-invite-link]")
        if not nil(box):  # the link and its QR code in sight (a phone scrolls the lobby)
            box.closest(".linkbox").scrollIntoView(True)

    async def take_reply(self, text: str) -> bool:
        try:
            await self.links.reply(text)
        except CodeError as e:
            box = self.sheet.querySelector(".paste-error")
            if not nil(box):
                fill(box, self.link_error(e, "invite"))
            else:
                self.show_error(e, "invite")
            return False
        self.open_invites = []
        self.render()
        return True

    def rename_host(self) -> None:
        """The host typed a new name: a table nobody has joined yet starts anew."""
        if self.host is not None and len(self.host.table.members) == 1:
            self.new_table()
            self.render()

    def act(self, fn, *args) -> None:
        """Do an action of the race; one the rules refuse (here, or by the host:
        the host's own seat hears at once) is said in a toast."""
        refused = self.player.refusals
        try:
            fn(*args)
        except RaceError as e:
            self.app.toast(e.detail, 3000)
            return
        if self.player.refusals > refused:
            self.app.toast(self.player.rejects[-1]["detail"], 3000)

    # ------------------------------------------------------------ friend
    def open_invite(self, item: Invite | Table) -> None:
        """The friend's join screen for an invite (links-only) or a table link."""
        self.leave()
        self.mode = "friend"
        if isinstance(item, Table):
            self.table_link = item
        else:
            self.invite = item
        self._solo(pause=True)
        self.render()
        if isinstance(item, Table) and self.seat_of(item.table) is not None:
            asyncio.ensure_future(self.join_table())   # our seat, from another tab: back at once

    def friend_servers(self, t: Table) -> list[dict]:
        """The host's ICE servers, and a TURN server of the friend's own if they set one."""
        own, _ = ice.load_ice(_get("localStorage", ICE_KEY))
        extra = [s for s in own if s not in t.ice and "username" in s]
        return list(t.ice) + extra

    async def join_table(self) -> None:
        t = self.table_link
        self.player = Player(self.my_name(), self.clock)
        seat = self.seat_of(t.table)
        if seat is not None:
            self.player.pid, self.player.token = seat["pid"], seat["token"]
        self.player.on_change = self.changed
        self._ticking()
        self.join_at, self.unreachable = real_s(), False
        self.room = net.FriendRoom(t, self._host_link, self.friend_servers(t))
        _set("sessionStorage", SEAT_KEY, json.dumps({"code": signal.encode(t)}))
        self.render()
        await self.room.open()
        # on and on, quietly, also once the page said it cannot reach the table;
        # not once the host has answered (seated, or refused)
        self.room.reconnect(until=lambda: self.player is None or self.view() is not None
                            or self.player.error_code is not None,
                            pauses=net.JOIN_AGAIN_S, drop=False)

    def _host_link(self, link) -> None:
        """A (new) link to the host's page opened: our seat talks over it."""
        if self.player is None:
            return link.close()
        self.player.connect(link)
        link.on_status = self._friend_status(link.on_status)

    def retry(self) -> None:
        """Try again: join the room anew (fresh announcements on every relay)."""
        if not isinstance(self.room, net.FriendRoom):
            return
        if self.friend_servers(self.table_link) != self.room.servers:  # a TURN server typed
            self.room.close()
            asyncio.ensure_future(self.join_table())
            return
        self.join_at, self.unreachable = real_s(), False
        self.render()
        asyncio.ensure_future(self.room.rejoin())

    def seat_of(self, table: int) -> dict | None:
        """Our seat at ``table`` as kept in localStorage (pid, token), or None."""
        try:
            seats = json.loads(_get("localStorage", SEATS_KEY) or "{}")
            seat = seats.get(str(table)) if isinstance(seats, dict) else None
            if isinstance(seat, dict) and isinstance(seat.get("pid"), int) and isinstance(
                    seat.get("token"), str):
                return seat
        except ValueError:
            pass
        return None

    def keep_seat(self, table: int, pid: int, token: str) -> None:
        try:
            seats = json.loads(_get("localStorage", SEATS_KEY) or "{}")
            seats = seats if isinstance(seats, dict) else {}
        except ValueError:
            seats = {}
        if self._claimed != (table, pid):   # seated here: other tabs at this seat leave it
            self._claimed = (table, pid)
            self._tabs.postMessage(json.dumps({"table": table, "pid": pid, "tab": self._tab}))
        if (seats.get(str(table)) or {}).get("token") == token:
            return
        seats.pop(str(table), None)
        seats[str(table)] = {"pid": pid, "token": token, "at": net.minutes_now()}
        for old in list(seats)[:-SEATS_KEPT]:
            seats.pop(old)
        _set("localStorage", SEATS_KEY, json.dumps(seats))

    def on_tabs(self, ev) -> None:
        """Another tab of this browser took our seat at this table: we leave it."""
        try:
            msg = json.loads(str(ev.data))
            table, pid, tab = msg["table"], msg["pid"], msg["tab"]
        except (ValueError, KeyError, TypeError):
            return
        p, t = self.player, self.table_link
        if t is not None and p is not None and tab != self._tab and (table, pid) == (t.table, p.pid):
            self.leave()
            self.mode = "error"
            self.fill_sheet(h("h2", None, self.tr("race_title")),
                            h("p", {"class": "big", "data-other-tab": True}, self.tr("race_other_tab")),
                            self.buttons(("leave", "close")))
            self.root.hidden = False

    async def join(self) -> None:
        if self.table_link is not None:
            return await self.join_table()
        invite = self.invite
        name = self.my_name()
        link, reply = await net.join(invite)
        remembered = self.remembered()
        self.player = Player(name, self.clock)
        if remembered and remembered.get("table") == invite.table:
            self.player.pid, self.player.token = remembered["pid"], remembered["token"]
        self.player.on_change = self.changed
        self._ticking()
        self.player.connect(link)
        link.on_status = self._friend_status(link.on_status)
        self.reply_url = signal.link(str(window.location.href), reply)
        self.mark_used(invite)
        self.render()

    @staticmethod
    def _invite_key(invite: Invite) -> str:
        return f"{invite.table}:{invite.slot}:{invite.offer.ufrag}"

    def used(self, invite: Invite) -> bool:
        """This browser answered ``invite`` already: its offer is spent (the host's
        side of it was answered or has gone), so joining again could only wait."""
        try:
            return self._invite_key(invite) in json.loads(_get("localStorage", USED_KEY) or "[]")
        except (ValueError, TypeError):
            return False

    def mark_used(self, invite: Invite) -> None:
        try:
            used = [k for k in json.loads(_get("localStorage", USED_KEY) or "[]") if isinstance(k, str)]
        except (ValueError, TypeError):
            used = []
        _set("localStorage", USED_KEY, json.dumps((used + [self._invite_key(invite)])[-USED_KEPT:]))

    def _friend_status(self, inner):
        def status(s: str) -> None:
            if s == "open":
                self.lost_at = None
            else:
                if self.lost_at is None:   # (it may be set already: the path went first)
                    self.lost_at = real_s()
                    self.say(self.tr("race_me_lost"))
                if isinstance(self.room, net.FriendRoom):   # back by itself (N9)
                    self.room.reconnect(until=self._gave_up)
            inner(s)
            self.changed()
        return status

    def _gave_up(self) -> bool:
        """Stop reconnecting: too long without an answer, or the host let us go."""
        return self.player is None or self.player.let_go or (self.lost_at is not None and real_s() - self.lost_at > GIVE_UP_S)

    def conn_note(self) -> tuple[str, str] | None:
        """Our own connection to the table, as our table says it: (state, words).
        (The host's own seat's local link never drops: its page has none.)"""
        if self.player is None:
            return None
        host = self.table_link.host if self.table_link is not None else (
            self.invite.host if self.invite is not None else "")
        if self.lost_at is not None:
            away = real_s() - self.lost_at
            if away > GIVE_UP_S:
                return "gone", self.tr("race_gave_up", host=host, n=int(GIVE_UP_S // 60))
            if away > GRACE:
                return "late", self.tr("race_reconnecting_late", s=int(GRACE))
            return "lost", self.tr("race_reconnecting", s=max(0, int(GRACE - away)))
        return None       # counted out, it is the race's outcome: the screen says it

    def remembered(self) -> dict | None:
        try:
            data = json.loads(_get("sessionStorage", SEAT_KEY) or "null")
            if isinstance(data, dict) and isinstance(data.get("pid"), int):
                return data
        except ValueError:
            pass
        return None

    def remember(self) -> None:
        p = self.player
        if p is not None and p.pid is not None and p.token is not None and self.table_link is not None:
            self.keep_seat(self.table_link.table, p.pid, p.token)
            return
        if p is None or p.pid is None or p.token is None or self.invite is None:
            return
        _set("sessionStorage", SEAT_KEY, json.dumps({
            "table": self.invite.table, "pid": p.pid, "token": p.token,
            "host": self.invite.host}))

    def way_back(self) -> bool:
        """After a reload: the friend's tab remembers a table; its table link is
        opened again (back to the same seat), or, links-only, say how to return (N9)."""
        try:
            code = json.loads(_get("sessionStorage", SEAT_KEY) or "null")
            code = code.get("code") if isinstance(code, dict) else None
        except ValueError:
            code = None
        if code and self.mode is None:
            try:
                self.route("#table=" + str(code))
            except Exception:   # noqa: BLE001 - a tab's memory is no reason to fail start-up
                _set("sessionStorage", SEAT_KEY, None)
            return True
        data = self.remembered()
        if data is None or self.mode is not None:
            return False
        self.mode = "error"
        self.fill_sheet(h("h2", None, self.tr("race_title")),
             h("p", {"class": "big", "data-way-back": True}, self.tr("race_way_back", host=str(data["host"]), s=int(GRACE))),
             self.buttons(("forget", "race_leave")))
        self.root.hidden = False
        return True

    # ------------------------------------------------------------ moves from the table
    def play(self, move: str) -> bool:
        """The own table's input made ``move``: our game, sent to the host. False
        (nothing changes) if it is refused."""
        if self.player is None:
            return False
        try:
            self.player.play(move)
        except (RaceError, IllegalMoveError, InvalidMoveError):
            return False
        if self._screen is not None:
            self._screen.show_own(animate=True)
        return True

    def game(self):
        return self.player.game if self.player is not None else None

    # ------------------------------------------------------------ time and repaint
    def tick(self) -> None:
        if self.host is not None:       # the table's timers (N6, N9)
            self.host.tick()
        if self.player is not None:
            self.player.tick()
            if self.lost_at is not None and self.room is None and real_s() - self.lost_at > GRACE:
                self.lost_at = None       # links-only: no way back without a new link
                if self._screen is not None:
                    self._screen.host_gone()
                else:
                    self.app.toast(self.tr("race_host_gone"), 8000)
        if isinstance(self.room, net.HostRoom) and self.way in ("relay", "links"):
            way = "relay" if self.room.relays_open() else "links"
            if way != self.way:          # a relay answered, or the last one went
                self.way = way
                self.changed()
        link = self.player.link if self.player is not None and self.host is None else None
        if link is not None and link.connected and hasattr(link, "steady"):
            if not link.steady and self.lost_at is None:   # the path is gone: say so at once
                self.lost_at = real_s()
                self.say(self.tr("race_me_lost"))
            elif link.steady and self.lost_at is not None:  # back by itself (ICE recovered)
                self.lost_at = None
        if (isinstance(self.room, net.FriendRoom) and self.join_at is not None and not self.unreachable
                and self.view() is None and real_s() - self.join_at > JOIN_WAIT_S):
            self.unreachable = True       # say why it may be, offer Try again
            self.changed()
        self.show_note()
        if self._screen is not None:
            self._screen.tick()
        self.cover()

    def show_note(self) -> None:
        """The friend's own connection state on the race screen, kept up to date."""
        screen = self._screen
        if screen is None or screen.root.hidden or screen.gone:
            return
        note = self.conn_note()
        state = note[0] if note else ""
        conn = screen.conn
        if conn.getAttribute("data-race-note") != state or (note and conn.textContent != note[1]):
            if note:
                fill(conn, note[1])
                conn.setAttribute("data-race-note", state)
            else:
                conn.removeAttribute("data-race-note")
            conn.hidden = note is None

    def changed(self) -> None:
        """The host or the player changed: repaint once, at the next frame."""
        self.remember()
        if not self._dirty:
            self._dirty = True
            window.requestAnimationFrame(self._frame)

    def render(self) -> None:
        self._dirty = False
        v = self.view()
        events = self.player.take_events() if self.player else []
        if any(e["kind"] == "started" for e in events):
            self.open_invites = []       # the race's own table on top (the menu has Invite)
        said = news.told(self.app.lang, events, v)
        if said:
            self.say(" ".join(said))
        self._render(v)
        if said and self._screen is not None:
            self._screen.tell(said)
        self.cover()

    def _render(self, v: dict | None) -> None:
        if self.way is not None:
            self.root.dataset.way = self.way
        else:
            self.root.removeAttribute("data-way")
        if self.player is not None and self.player.let_go:
            if self._screen is not None:     # removed by the host
                self._screen.hide()
            document.body.removeAttribute("data-race")
            self.fill_sheet(h("h2", None, self.tr("race_title")),
                            h("p", {"class": "error", "data-left": True}, self.tr("race_you_removed")),
                            self.buttons(("forget", "race_leave")))
        elif v is not None:
            if v["phase"] != LOBBY:
                self.screen.show(v)
                if self.open_invites:  # the host invites during a race: a comeback, a spectator
                    self.fill_sheet(h("h2", None, self.tr("race_invite")), *self.invite_parts(),
                                    self.buttons(("close-links", "close")))
                self.root.hidden = not self.open_invites
                return
            if self._screen is not None:
                self._screen.hide()
            self.render_lobby(v)
        elif self.mode == "friend":
            self.render_join()
        self.root.hidden = self.mode is None

    # ------------------------------------------------------------ events
    def on_change(self, ev) -> None:
        field = ev.target.getAttribute("data-field")
        if field == "name":
            _set("localStorage", NAME_KEY, str(ev.target.value).strip()[:NAME_MAX])
            self.rename_host()
        elif field == "net":
            self.save_net(ice.DEFAULT_ICE if str(ev.target.value) == "internet" else [])

    def on_click(self, ev) -> None:
        target = ev.target
        setter = target.closest("[data-set]")
        if not nil(setter) and self.player is not None:
            self.settings[str(setter.dataset.set)] = json.loads(str(setter.dataset.value))
            _set("localStorage", SETTINGS_KEY, json.dumps(self.settings))
            self.act(self.player.set_settings, self.settings["draw"], self.settings["minutes"])
            return
        btn = target.closest("[data-action]")
        if nil(btn) or btn.disabled:
            return
        self.action(str(btn.dataset.action), btn)

    def action(self, action: str, btn=None) -> None:
        """A button of the race screens (lobby, join, race table, results)."""
        player = self.player
        if action == "invite" and self.links is not None:
            if btn is not None:
                btn.disabled = True
            asyncio.ensure_future(self.make_invite())
        elif action == "paste-reply":
            field = self.sheet.querySelector("[data-field=reply]")
            asyncio.ensure_future(self.take_reply(str(field.value)))
        elif action == "join" and (self.invite is not None or self.table_link is not None):
            btn.disabled = True
            asyncio.ensure_future(self.join())
        elif action == "retry":
            self.retry()
        elif action == "save-turn":
            self.save_turn()
        elif action == "ready" and player is not None:
            me = next((p for p in player.view["players"] if p["pid"] == player.pid), None)
            self.act(player.set_ready, not (me and me["ready"]))
        elif action in ("start", "again") and player is not None:
            self._test_speed()
            self.act(player.start if action == "start" else player.again)
        elif action == "copy-link":
            self.copy(btn)
        elif action == "share-link":
            url = str(btn.closest(".linkbox").querySelector(".link").textContent)
            try:
                js.navigator.share(js.Object.fromEntries([["url", url]]))
            except Exception:
                pass
        elif action == "resign" and player is not None:
            self.app.dialogs.ask(self.app.lang, self.tr("race_resign_q"),
                                 lambda: self.act(player.resign))
        elif action == "offer-draw" and player is not None:
            self.act(player.offer_draw)
        elif action in ("accept-draw", "decline-draw") and player is not None:
            self.act(player.answer_draw, action == "accept-draw")
        elif action == "change-settings" and player is not None:
            self.act(player.change_settings)
        elif action == "remove" and player is not None:
            self.act(player.remove, int(btn.dataset.pid))
        elif action == "close-links":
            self.open_invites = []
            self.render()
        elif action == "leave" and self._racing():
            self.app.dialogs.ask(self.app.lang, self.tr("race_leave_q"), self._forget_and_leave)
        elif action in ("leave", "forget"):
            self._forget_and_leave()

    def _racing(self) -> bool:
        """Leaving now would cost a race: ours, or the others' (the table is here)."""
        v = self.view()
        return v is not None and v["phase"] == RACING and (v["can"]["resign"] or self.holds_others())

    def holds_others(self) -> bool:
        """This page is the table of someone else: closing it ends their race."""
        return self.host is not None and len(self.host.table.members) > 1

    def _forget_and_leave(self) -> None:
        _set("sessionStorage", SEAT_KEY, None)
        self.leave()

    # ------------------------------------------------------------ connection settings
    def save_net(self, servers) -> None:
        """Store the ICE servers; a table nobody joined yet opens anew with them."""
        _set("localStorage", ICE_KEY, json.dumps(list(servers)))
        self.ice_error = None
        alone = self.host is not None and len(self.host.table.members) == 1
        self.ice_saved = "race_turn_saved" if alone or self.host is None else "race_net_next"
        if alone:
            self.open_room()
        self.render()

    def save_turn(self) -> None:
        """The TURN server typed in the Connection section: checked, then kept next
        to the STUN servers in use (an empty URL removes it)."""
        field = lambda name: str(self.sheet.querySelector(f"[data-field={name}]").value).strip()
        url, user, cred = field("turn-url"), field("turn-user"), field("turn-pass")
        servers, _ = ice.load_ice(_get("localStorage", ICE_KEY))
        servers = [s for s in servers if "username" not in s]
        if url:
            try:
                servers.append(ice.check_server({"urls": url, "username": user, "credential": cred}))
            except ice.IceError as e:
                self.ice_error, self.ice_saved = e.code, None
                self.turn_draft = (url, user, cred)    # what was typed stays to be mended
                self.render()
                return
        self.turn_draft = None
        self.save_net(servers)

    def copy(self, btn) -> None:
        node = btn.closest(".linkbox").querySelector(".link")
        try:
            window.navigator.clipboard.writeText(str(node.textContent))
            self.app.toast(self.tr("copied"), 1500)
        except Exception:  # no clipboard (an insecure context): select it for the player
            window.getSelection().selectAllChildren(node)

    def on_key(self, ev) -> None:
        if str(ev.key) == "Escape" and self.mode == "error":
            self.leave()
        else:
            if self._screen is not None:
                self._screen.on_key(ev)

    def on_beforeunload(self, ev) -> None:
        """The host's page holds the race: ask before it goes (the friends would lose it)."""
        if self.holds_others():
            ev.preventDefault()
            ev.returnValue = ""
            # Trystero leaves its rooms on beforeunload, even when the player then
            # stays: not this page's room while it holds a race (ours runs first)
            ev.stopImmediatePropagation()

    def leave(self) -> None:
        if self.room is not None:
            self.room.close()
        if self.links is not None:
            self.links.close()
        for conn in list(self.host.conns.values()) if self.host is not None else ():
            conn.link.close()
        if self.player is not None and self.player.link is not None:
            self.player.link.close()
        if self._interval is not None:
            window.clearInterval(self._interval)
        self.links = self.host = self.player = self.invite = self.reply_url = None
        self.room = self.table_link = self.way = self.join_at = None
        self._claimed = None
        self.unreachable, self.no_addresses, self.ice_saved, self.turn_draft = False, False, None, None
        self.open_invites = []
        self.mode = self._interval = self.lost_at = None
        if self._screen is not None:
            self._screen.hide()
        self.fill_sheet()
        self.root.hidden = True
        document.body.removeAttribute("data-race")
        self._solo(pause=False)
        self.cover()
        back = document.querySelector("#table [tabindex='0']")
        if not nil(back):
            back.focus()

