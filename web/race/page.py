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

- ``#race=<code>`` — an invite: the friend sees the table's name, the host and the
  settings, types a name, presses Join and sends back the reply link shown (text,
  QR code, Copy, Share). The page connects as soon as the host opens the reply.
- ``#reply=<code>`` — a reply opened on the host's device: ``handover.mjs``
  hands it to the hosting tab of this browser before Python starts; this tab
  says how that went, starts no game, and can be closed.

Decisions (user-visible):

- Invites: the host's Invite makes one link (one pending peer connection) for one
  friend; the table seats whoever joins first in the free seats, later arrivals
  watch (N3). The same button brings back a friend whose connection dropped: a
  fresh link exchange, within the 60 s of N9.
- Names are remembered on the device (``kosynka.race.name``); the host's settings
  too (``kosynka.race.settings``); a STUN server only if the host types one
  (``kosynka.race.stun``; none by default, so nothing leaves the device).
- Coming back (N9): a friend's tab remembers its seat (``sessionStorage``:
  table, pid, token). After a reload or a drop it says whose table it was at and
  asks for a new link from the host; opening that link puts it back at its table
  exactly as the host holds it.
- The host's page is the table: if it reloads or closes, the race cannot go on
  (the truth lived there). The host's page asks before it is closed during a race;
  the friends see "connection lost" at once and, when no new link came within the
  60 s, that the host's table has closed and the race ended without a result.
- Test-only: ``localStorage["kosynka.race.test_speed"]`` (a number), read by the
  host at Start and Again, runs the race's clock that many times faster (a timed
  race ends in seconds, the grace too). No control of the page sets it.

DOM contract (tests rely on it): ``data-action`` = race (menu), invite, join,
ready, start (lobby) and those of ``web.race.screen``; ``[data-invite-link]`` /
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

import js

from kosynka.position import IllegalMoveError, InvalidMoveError
from kosynka.race import Host, Player, RaceError
from kosynka.race.table import DRAWS, LOBBY, MINUTES, NAME_MAX, RACING, check_name

from web.dom import SOLO_PAGE, document, nil, window
from web.i18n import t
from web.race import net, news, signal
from web.race.dom import fill, h
from web.race.screen import RaceScreen
from web.race.lobby import NAME_KEY, LobbySheets, _get, _set
from web.race.signal import CodeError, Invite

STUN_KEY = "kosynka.race.stun"
SETTINGS_KEY = "kosynka.race.settings"
SPEED_KEY = "kosynka.race.test_speed"
SEAT_KEY = "kosynka.race.seat"      # sessionStorage: the friend's way back (N9)
USED_KEY = "kosynka.race.used"      # localStorage: the invites this browser answered
USED_KEPT = 20


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
        self.gone_said = False                # the host's table went away: said once (N9)
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
        """Open the screen a ``#race=`` / ``#reply=`` fragment names; False if none."""
        if not fragment.startswith(("#race=", "#reply=")):
            return False
        window.history.replaceState(js.undefined, "", str(window.location.pathname)
                                    + str(window.location.search))
        try:
            item = signal.parse_link(fragment)
            if isinstance(item, Invite):
                signal.check_invite_age(item, net.minutes_now())
        except CodeError as e:
            self.show_error(e)
            return True
        if isinstance(item, Invite):
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
            self.links = net.HostLinks(self.attach, _get("localStorage", STUN_KEY) or "")
            self.links.listen()
            self.new_table()
            self._ticking()
        self._solo(pause=True)
        self.render()

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
        refused = len(self.player.rejects)
        try:
            fn(*args)
        except RaceError as e:
            self.app.toast(e.detail, 3000)
            return
        if len(self.player.rejects) > refused:
            self.app.toast(self.player.rejects[-1]["detail"], 3000)

    # ------------------------------------------------------------ friend
    def open_invite(self, invite: Invite) -> None:
        self.leave()
        self.mode = "friend"
        self.invite = invite
        self._solo(pause=True)
        self.render()

    async def join(self) -> None:
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
            if s != "open" and self.player is not None and self.player.lost_at is None:
                self.say(self.tr("race_me_lost"))
            inner(s)
        return status

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
        if p is None or p.pid is None or p.token is None or self.invite is None:
            return
        _set("sessionStorage", SEAT_KEY, json.dumps({
            "table": self.invite.table, "pid": p.pid, "token": p.token,
            "host": self.invite.host}))

    def way_back(self) -> bool:
        """After a reload: the friend's tab remembers a table; say how to return (N9)."""
        data = self.remembered()
        if data is None or self.mode is not None:
            return False
        self.mode = "error"
        self.fill_sheet(h("h2", None, self.tr("race_title")),
             h("p", {"class": "big", "data-way-back": True}, self.tr("race_way_back", host=str(data["host"]))),
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
            if self.player.host_gone and not self.gone_said:
                self.gone_said = True
                if self._screen is not None:
                    self._screen.host_gone()
                else:
                    self.app.toast(self.tr("race_host_gone"), 8000)
        if self._screen is not None:
            self._screen.tick()
        self.cover()

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
            self._screen.tell(" ".join(said))
        self.cover()

    def _render(self, v: dict | None) -> None:
        if self.player is not None and self.player.error_code == "table/left":
            if self._screen is not None:     # removed by the host, or away past the grace
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
        elif field == "stun" and self.links is not None:
            value = str(ev.target.value).strip()
            self.links.stun = value if value.startswith(("stun:", "stuns:")) else ""
            _set("localStorage", STUN_KEY, self.links.stun)

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
        elif action == "join" and self.invite is not None:
            btn.disabled = True
            asyncio.ensure_future(self.join())
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

    def leave(self) -> None:
        if self.links is not None:
            self.links.close()
        for conn in list(self.host.conns.values()) if self.host is not None else ():
            conn.link.close()
        if self.player is not None and self.player.link is not None:
            self.player.link.close()
        if self._interval is not None:
            window.clearInterval(self._interval)
        self.links = self.host = self.player = self.invite = self.reply_url = None
        self.gone_said = False
        self.open_invites = []
        self.mode = self._interval = None
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

