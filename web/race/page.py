"""Race with friends in the page (issues 11, 19, 28): a thin router over its
parts — the race's life without DOM (``web.race.control.RaceControl``: the
``Host``, our ``Player``, their ticks, our seat remembered), the connection
(``web.race.net.Net``: rooms, links, ICE, relays), the host's and a friend's
ways to a table (``web.race.hosting``, ``web.race.friend``), and the screens as
HTML from the view (``web.race.lobby`` before the race; ``web.race.screen`` with
``web.race.strip`` and ``web.race.results`` during and after it). This module
reads the URL, takes the clicks and keys, puts the sheets in the page and wires
the parts together.

Routes (the URL fragment, read at start-up and on ``hashchange``, then cleared so
a reload does not reopen an old invite):

- ``#table=<code>`` — the table link (issue 19): the friend's join screen; Join
  finds the host's page through the link's Nostr relays (``web.race.rooms``). A
  page that remembers a seat at this table goes back to it at once.
- ``#race=<code>`` — an invite (links-only): Join shows the reply link to send
  back; the page connects as soon as the host opens the reply.
- ``#reply=<code>`` — a reply opened on the host's device: ``handover.mjs``
  hands it to the hosting tab of this browser before Python starts; this tab
  says how that went, starts no game, and can be closed.

Decisions (user-visible) are where they are made: the connection's in
``web.race.net``, the timers' in ``web.race.control``, the seats' and the way
back's in ``web.race.friend``, the invites' in ``web.race.hosting``. The host's
page is the table: if it reloads or closes, the race cannot go on (the truth
lived there); it asks before it is closed during a race.

DOM contract (tests rely on it): ``data-action`` = race (menu), invite, join,
ready, start, retry (lobby, join) and those of ``web.race.screen``;
``[data-table-link]`` holds the table link as text; ``#race[data-way]`` is
``wait``, ``relay`` or ``links`` on the host's page; ``[data-conn]`` on a friend's
join screen is ``joining``, ``unreachable`` or ``open``; ``[data-ice-error]``
names a refused server setting (``ice/…``); ``[data-race-note]`` is the friend's
own connection state on the race screen (``lost``, ``late``, ``out``, ``gone``);
``[data-invite-link]`` / ``[data-reply-link]`` hold the links as text; a refused link shows
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
from typing import Any, Callable

import js

from kosynka.position import Move
from kosynka.race.table import LOBBY, NAME_MAX
from web.dom import SOLO_PAGE, JsObject, control_selector, document, nil, window
from web.race import ice, lobby, news, rtc, signal
from web.race.control import RaceControl
from web.race.friend import FriendSide
from web.race.hosting import HostSide
from web.race.markup import Html, el, tr
from web.race.net import Net
from web.race.screen import RaceApp, RaceScreen, node
from web.race.signal import CodeError, Invite, Table
from web.race.stored import BrowserStorage, RaceStore


def real_s() -> float:
    """The page's monotonic time (s), never sped up: connection timers."""
    return float(js.performance.now()) / 1000


class RacePage:
    """The race screens; ``app`` gives the language, toasts, sheets and listeners."""

    def __init__(self, app: RaceApp) -> None:
        self.app = app
        self.mode: str | None = None          # host | friend | handover | error
        self.store = RaceStore(BrowserStorage(lambda: window.localStorage),
                               BrowserStorage(lambda: window.sessionStorage))
        self.control = RaceControl(self.store, real_s, self._repaint,
                                   lambda table, pid: self.friend.claim(table, pid))
        self.net = Net(self.store, self.changed)
        self._dirty = False
        document.head.appendChild(node(el("link", {"rel": "stylesheet", "href": "web/race/race.css"})))
        self.root = node(el("div", {"id": "race", "class": "overlay race", "hidden": True},
                            el("div", {"class": "sheet", "role": "dialog", "aria-modal": "true",
                                       "aria-labelledby": "race-title", "tabindex": "-1"})))
        self.sheet = self.root.firstElementChild
        document.body.appendChild(self.root)
        self._screen: RaceScreen | None = None  # made at the first Start: no second table before
        on = app.listeners.on
        on(self.root, "click", self.on_click)
        on(self.root, "change", self.on_change)
        on(window, "hashchange", lambda ev: self.route(str(window.location.hash)))
        self._frame = app.listeners.proxy(lambda *a: self.render())
        self._tick = app.listeners.proxy(lambda *a: self.tick())
        self._interval: JsObject = None
        self.hosting = HostSide(self)
        self.friend = FriendSide(self)
        on(window, "beforeunload", self.hosting.on_beforeunload)
        on(window, "pagehide", lambda ev: self.control.closing())   # N13: the host's table closes

    # ------------------------------------------------------------ small things
    def tr(self, key: str, **kw: object) -> str:
        return tr(self.app.lang, key, **kw)

    def say(self, text: str) -> None:
        """Words for a screen reader: the page's polite live region (``#live``)."""
        self.app.view.say(text)

    def fill_sheet(self, html: Html | str = "") -> None:
        """The sheet's content; its heading names the dialog (``#race-title``); a
        control that had the focus has it again when it is drawn anew."""
        active = document.activeElement
        again = control_selector(active) if not nil(active) and self.sheet.contains(active) else None
        self.sheet.innerHTML = html
        el: JsObject = self.sheet.querySelector(again) if again else None
        if not nil(el):
            el.focus()

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
        if not self.root.hidden or screen is None:
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
        return self.control.my_name(self.tr("race_player"))

    def solo(self, pause: bool) -> None:
        """The solo game's clock waits while a race screen is open."""
        game = self.app.solo.game
        if game is not None:
            game.pause() if pause else game.resume()

    @property
    def screen(self) -> RaceScreen:
        """The race screen, made when a race is first shown (the solo table is then
        the only ``[data-pile]`` table on the page until someone races)."""
        if self._screen is None:
            self._screen = RaceScreen(self.app, self.control, self.action, self.play)
        return self._screen

    def ticking(self) -> None:
        if self._interval is None:
            self._interval = window.setInterval(self._tick, 250)

    def base(self) -> str:
        return str(window.location.href)

    def show(self, html: Html) -> None:
        """A sheet of its own (an error, the way back …): on top, nothing else."""
        self.fill_sheet(html)
        self.root.hidden = False

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
                signal.check_invite_age(item, signal.minutes_now())
        except CodeError as e:
            self.show_error(e)
            return True
        c = self.control
        if isinstance(item, Table):
            if self.mode == "host":
                self.show_error(CodeError("link/kind", ""), "invite")
            elif not (c.table_link == item and c.player is not None):
                self.friend.open(item)   # the same link again at the same table changes nothing
        elif isinstance(item, Invite):
            if c.used(item):
                self.show_error(CodeError("link/used", item.host), "invite")
            elif self.mode == "host":
                self.show_error(CodeError("link/kind", ""), "invite")
            elif c.player is not None and c.player.connected and c.player.view is not None:
                # already at a table: an invite opened twice changes nothing (a link that
                # opened but was never answered by the table does not count: a new
                # invite replaces it, as a player would try again)
                return True
            else:
                self.friend.open(item)
        elif self.mode == "host":
            asyncio.ensure_future(self.hosting.take_reply(fragment))
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
        self.show(lobby.error_sheet(self.app.lang, err, item_kind))

    # ------------------------------------------------------------ hand-over tab
    def handover_tab(self) -> bool:
        """This tab was opened by a reply link: ``handover.mjs`` hands the reply to
        the hosting tab; this tab only says how that went (and starts no game)."""
        if nil(document.documentElement.getAttribute("data-race-handover")):
            return False
        self.mode = "handover"
        self.show(lobby.handover_sheet(self.app.lang, None))
        asyncio.ensure_future(self._handover_result())
        return True

    async def _handover_result(self) -> None:
        html = document.documentElement
        while str(html.getAttribute("data-race-handover")) == "pending":
            await asyncio.sleep(0.05)
        result = str(html.getAttribute("data-race-handover"))
        self.root.dataset.handover = result
        self.fill_sheet(lobby.handover_sheet(self.app.lang, result))

    # ------------------------------------------------------------ host
    def act(self, fn: Callable[..., None], *args: Any) -> None:
        """Do an action of the race; one the rules refuse is said in a toast."""
        refused = self.control.act(fn, *args)
        if refused is not None:
            self.app.toast(refused, 3000)

    def open_host(self) -> None:
        """Race a friend (the menu, the settings): our own table."""
        self.hosting.open()

    def way_back(self) -> bool:
        """After a reload: back to the table this tab was at (``FriendSide.way_back``)."""
        return self.friend.way_back()

    # ------------------------------------------------------------ moves from the table
    def play(self, move: Move) -> bool:
        """The own table's input made ``move``: our game, sent to the host."""
        if not self.control.play(move):
            return False
        if self._screen is not None:
            self._screen.show_own(animate=True)
        return True

    # ------------------------------------------------------------ time and repaint
    def tick(self) -> None:
        said = self.control.tick()
        if "host_gone" in said and (self._screen is None or self._screen.root.hidden):
            why, words = self.friend.conn_note() or ("gone", "")   # (a race screen says it)
            self.app.toast(words, 8000)
            if why == "closed":        # N13: a lobby closed by its host is left
                self.leave()
        if self.net.tick():
            self.changed()
        if "lost" in said:
            self.say(self.tr("race_me_lost"))
        if "unreachable" in said:
            self.changed()       # say why it may be, offer Try again
        if self._screen is not None:
            self._screen.show_conn(self.friend.conn_note())
            self._screen.tick()
        self.cover()

    def changed(self) -> None:
        """The host, the player or the connection changed: our seat remembered, a
        repaint (``RaceControl.changed``)."""
        self.control.changed()

    def _repaint(self) -> None:
        """Repaint once, at the next frame."""
        if not self._dirty:
            self._dirty = True
            window.requestAnimationFrame(self._frame)

    def render(self) -> None:
        self._dirty = False
        p = self.control.player
        v = self.control.view()
        events = p.take_events() if p else []
        if any(e["kind"] == "started" for e in events):
            self.net.open_invites = []   # the race's own table on top (the menu has Invite)
        said = news.told(self.app.lang, events, v)
        if said:
            self.say(" ".join(said))
        self._render(v)
        if said and self._screen is not None:
            self._screen.tell(said)
        self.cover()

    def _render(self, v: dict[str, Any] | None) -> None:
        net, lang = self.net, self.app.lang
        if net.way is not None:
            self.root.dataset.way = net.way
        else:
            self.root.removeAttribute("data-way")
        p = self.control.player
        if p is not None and p.let_go:
            if self._screen is not None:     # removed by the host
                self._screen.hide()
            document.body.removeAttribute("data-race")
            self.fill_sheet(lobby.removed_sheet(lang))
        elif v is not None:
            if v["phase"] != LOBBY:
                self.screen.show(v)
                if net.open_invites:  # the host invites during a race: a comeback, a spectator
                    self.fill_sheet(lobby.invite_sheet(lang, net.open_invites, net.no_addresses,
                                                       self.share()))
                self.root.hidden = not net.open_invites
                return
            if self._screen is not None:
                self._screen.hide()
            self.render_lobby(v)
        elif self.mode == "friend":
            self.fill_sheet(self.friend.sheet())
        self.root.hidden = self.mode is None

    def share(self) -> bool:
        """The browser can share a link (the link boxes' Share)."""
        return hasattr(js.navigator, "share")

    def connection(self) -> Html:
        """The Connection section of the lobby or a join screen."""
        net = self.net
        section = lobby.connection(self.app.lang, net.servers(self.control.table_link), net.relays(),
                                   self.control.host is not None, net.turn_draft, net.ice_error,
                                   net.ice_saved)
        return section if rtc.webrtc() else Html(lobby.no_webrtc(self.app.lang) + section)

    def render_lobby(self, v: dict[str, Any]) -> None:
        c = self.control
        document.body.dataset.race = lobby.lobby_state(v)
        item = c.table_link or c.invite
        table = self.net.host_table() if c.host is not None else item.table if item else None
        assert table is not None
        host_part = self.hosting.ways(v) if self.net.links is not None else None
        self.fill_sheet(lobby.lobby(self.app.lang, v, table, self.store.name(),
                                    self.friend.conn_note(), host_part))

    # ------------------------------------------------------------ events
    def on_change(self, ev: JsObject) -> None:
        field = ev.target.getAttribute("data-field")
        if field == "name":
            self.store.set_name(str(ev.target.value).strip()[:NAME_MAX])
            self.hosting.rename()
        elif field == "net":
            self.save_net(list(ice.DEFAULT_ICE) if str(ev.target.value) == "internet" else [])

    def on_click(self, ev: JsObject) -> None:
        target = ev.target
        setter = target.closest("[data-set]")
        if not nil(setter) and self.control.player is not None:
            refused = self.control.set_setting(str(setter.dataset.set),
                                               json.loads(str(setter.dataset.value)))
            if refused is not None:
                self.app.toast(refused, 3000)
            return
        btn = target.closest("[data-action]")
        if nil(btn) or btn.disabled:
            return
        self.action(str(btn.dataset.action), btn)

    def action(self, action: str, btn: JsObject = None) -> None:
        """A button of the race screens (lobby, join, race table, results)."""
        c = self.control
        player = c.player
        if action == "invite" and self.net.links is not None:
            if btn is not None:
                btn.disabled = True
            asyncio.ensure_future(self.hosting.invite())
        elif action == "paste-reply":
            field = self.sheet.querySelector("[data-field=reply]")
            asyncio.ensure_future(self.hosting.take_reply(str(field.value)))
        elif action == "join" and (c.invite is not None or c.table_link is not None):
            btn.disabled = True
            asyncio.ensure_future(self.friend.join())
        elif action == "retry":
            self.friend.retry()
        elif action == "save-turn":
            self.save_turn()
        elif action == "ready" and player is not None and player.view is not None:
            me = next((p for p in player.view["players"] if p["pid"] == player.pid), None)
            self.act(player.set_ready, not (me and me["ready"]))
        elif action in ("start", "again") and player is not None:
            refused = c.start(again=action == "again")
            if refused is not None:
                self.app.toast(refused, 3000)
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
            self.net.open_invites = []
            self.render()
        elif action == "leave" and c.racing():
            self.app.dialogs.ask(self.app.lang, self.tr("race_leave_q"), self._forget_and_leave)
        elif action in ("leave", "forget"):
            self._forget_and_leave()

    def _forget_and_leave(self) -> None:
        self.store.keep_tab_seat(None)
        self.leave(say=True)

    # ------------------------------------------------------------ connection settings
    def save_net(self, servers: list[ice.Server]) -> None:
        """Store the ICE servers; a table nobody joined yet opens anew with them."""
        if self.net.save_ice(servers, self.control.alone(), self.control.host is not None):
            self.net.open_room(self.hosting.attach)
        self.render()

    def save_turn(self) -> None:
        """The TURN server typed in the Connection section: checked, then kept next
        to the STUN servers in use (an empty URL removes it)."""
        def field(name: str) -> str:
            return str(self.sheet.querySelector(f"[data-field={name}]").value).strip()

        servers = self.net.typed_turn(field("turn-url"), field("turn-user"), field("turn-pass"))
        if servers is None:
            self.render()
        else:
            self.save_net(servers)

    def copy(self, btn: JsObject) -> None:
        node = btn.closest(".linkbox").querySelector(".link")
        try:
            window.navigator.clipboard.writeText(str(node.textContent))
            self.app.toast(self.tr("copied"), 1500)
        except Exception:  # no clipboard (an insecure context): select it for the player
            window.getSelection().selectAllChildren(node)

    def on_key(self, ev: JsObject) -> None:
        if str(ev.key) == "Escape" and self.mode == "error":
            self.leave()
        elif self._screen is not None:
            self._screen.on_key(ev)

    def leave(self, say: bool = False) -> None:
        """Off the table; ``say``: the player's own Leave, said first (N12, N13)."""
        self.control.leave(say)        # over the links still open: they close after it
        self.net.close()
        if self._interval is not None:
            window.clearInterval(self._interval)
        self.mode = self._interval = None
        if self._screen is not None:
            self._screen.hide()
        self.fill_sheet()
        self.root.hidden = True
        document.body.removeAttribute("data-race")
        self.solo(pause=False)
        self.cover()
        back = document.querySelector("#table [tabindex='0']")
        if not nil(back):
            back.focus()
