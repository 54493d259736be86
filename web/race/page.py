"""The race screens in the page (issue 11 items 2–3): the host's lobby with its
invites, the friend's join screen with the reply link, and the hand-over tab.

Routes (the URL fragment, read at start-up and on ``hashchange``; cleared once
read, so a reload does not reopen an old invite):

- ``#race=<code>`` — an invite: the friend sees the table's name, the host, the
  settings and their seat, types a name and presses Join; the page shows the
  reply link (text, QR code, Copy, Share) to send back.
- ``#reply=<code>`` — a reply opened on the host's device: handed to the hosting
  tab (``web.race.net.hand_over``); this tab says so and can be closed.

Every text a peer or a link brings is shown as text (``web.race.dom``).
DOM contract: ``data-action`` = race (menu), invite (``data-seat``), join, ready,
start; ``[data-invite-link]`` / ``[data-reply-link]`` hold the links as text;
``#race [data-linkerror]`` holds the code of a refused link (``link/…``);
``#race[data-handover]`` is ``ok`` / ``none`` / a ``link/…`` code.
"""

from __future__ import annotations

import asyncio
import json

import js
from js import document, window
from pyodide.ffi import create_proxy

from web.i18n import t
from web.race import net, signal
from web.race.dom import fill, h
from web.race.signal import CodeError, Invite

NAME_KEY = "kosynka.race.name"
STUN_KEY = "kosynka.race.stun"
SETTINGS_KEY = "kosynka.race.settings"
NAME_CHARS = 32
SEATS = (1, 2, 3)


def _storage_get(key: str) -> str | None:
    try:
        value = window.localStorage.getItem(key)
        return value if isinstance(value, str) else None  # JS null arrives as jsnull
    except Exception:
        return None


def _storage_set(key: str, value: str) -> None:
    try:
        window.localStorage.setItem(key, value)
    except Exception:
        pass  # private mode: the name is simply not remembered


def menu_enabled() -> bool:
    """Whether the menu offers "Race with friends": only with the test flag
    ``kosynka.race.preview`` = ``1`` until the race itself runs in the page."""
    return _storage_get("kosynka.race.preview") == "1"


def table_label(table: int) -> str:
    """A short name for a table id, easy to read aloud (``K7Q3``)."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(alphabet[(table >> (5 * i)) & 31] for i in range(4))


class RacePage:
    """The race overlay; ``app`` gives the language (``app.lang``) and ``toast``."""

    def __init__(self, app) -> None:
        self.app = app
        self.mode: str | None = None          # "host" | "friend" | "handover"
        self.host: net.HostLinks | None = None
        self.invites: dict[int, Invite] = {}
        self.links: dict[int, object] = {}    # seat → open link (host)
        self.status: dict[int, str] = {}      # seat → invited | connected | dropped
        self.invite: Invite | None = None     # the friend's invite
        self.link = None                      # the friend's link to the host
        self.shown_seat: int | None = None    # the seat whose invite panel is open
        self.settings = self._load_settings()
        css = h("link", {"rel": "stylesheet", "href": "web/race/race.css"})
        document.head.appendChild(css)
        self.sheet = h("div", {"class": "sheet", "role": "dialog", "aria-modal": "true"})
        self.root = h("div", {"id": "race", "class": "overlay race", "hidden": True}, self.sheet)
        document.body.appendChild(self.root)
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_change),
                         create_proxy(self.on_hashchange)]
        self.root.addEventListener("click", self._proxies[0])
        self.root.addEventListener("change", self._proxies[1])
        window.addEventListener("hashchange", self._proxies[2])

    # ------------------------------------------------------------ helpers
    def tr(self, key: str, **kw) -> str:
        text = t(self.app.lang, key)
        return text.format(**kw) if kw else text

    @property
    def name(self) -> str:
        return (_storage_get(NAME_KEY) or "").strip()[:NAME_CHARS] or self.tr("race_you")

    def _load_settings(self) -> dict:
        try:
            s = json.loads(_storage_get(SETTINGS_KEY) or "{}")
            if s.get("draw") in (1, 3) and s.get("kind") in signal.KINDS:
                return {"draw": s["draw"], "kind": s["kind"]}
        except (ValueError, AttributeError):
            pass
        return {"draw": 1, "kind": "last"}

    def kind_label(self, kind) -> str:
        return self.tr("race_last") if kind == "last" else self.tr("race_min", n=kind)

    def settings_label(self, draw: int, kind) -> str:
        return f"{self.tr('draw1' if draw == 1 else 'draw3')} · {self.kind_label(kind)}"

    def show(self) -> None:
        self.root.hidden = False

    def hide(self) -> None:
        self.root.hidden = True

    def link_error(self, err: CodeError, item_kind: str | None = None) -> object:
        key = "race_" + err.code.replace("/", "_")
        if err.code == "link/kind":
            key = "race_link_kind_" + (item_kind or "reply")
        return h("p", {"class": "error", "data-linkerror": err.code, "role": "alert"}, self.tr(key))

    def link_box(self, attr: str, url: str, with_qr: bool = True) -> object:
        """A link as text, a QR code, Copy and (where the browser has it) Share."""
        box = h("div", {"class": "linkbox"})
        box.appendChild(h("p", {"class": "link", attr: True}, url))
        if with_qr:
            try:
                from web.race import qr
                code = qr.make(url)
                holder = h("div", {"class": "qrbox", "data-qr-version": code.version})
                holder.innerHTML = code.svg  # our own markup from segno: no peer text in it
                box.appendChild(holder)
            except ImportError:  # segno not bundled: the link still works
                pass
        row = h("div", {"class": "row share"},
                h("button", {"type": "button", "data-action": "copy-link"}, self.tr("copy")))
        if hasattr(js.navigator, "share"):
            row.appendChild(h("button", {"type": "button", "data-action": "share-link"},
                              self.tr("race_share")))
        box.appendChild(row)
        return box

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
            self.mode = "error"
            fill(self.sheet, h("h2", None, self.tr("race_title")), self.link_error(e),
                 self.buttons(("leave", "close")))
            self.show()
            return True
        if isinstance(item, Invite):
            self.open_invite(item)
        else:
            asyncio.ensure_future(self.hand_over(fragment))
        return True

    def on_hashchange(self, ev) -> None:
        self.route(str(window.location.hash))

    def buttons(self, *specs) -> object:
        return h("div", {"class": "buttons"}, *(
            h("button", {"type": "button", "data-action": action}, self.tr(key))
            for action, key in specs))

    # ------------------------------------------------------------ hand-over tab
    async def hand_over(self, fragment: str) -> None:
        self.mode = "handover"
        fill(self.sheet, h("h2", None, self.tr("race_title")), h("p", None, self.tr("race_connecting")))
        self.show()
        code = fragment.split("=", 1)[1]
        result = await net.hand_over(code)
        self.root.dataset.handover = result
        if result == "ok":
            msg = h("p", {"class": "big"}, self.tr("race_sent"))
        elif result == "none":
            msg = h("p", {"class": "error"}, self.tr("race_no_table"))
        else:
            msg = self.link_error(CodeError(result, ""), "invite")
        fill(self.sheet, h("h2", None, self.tr("race_title")), msg, self.buttons(("leave", "close")))

    # ------------------------------------------------------------ host
    def open_host(self) -> None:
        if self.host is None:
            self.mode = "host"
            self.host = net.HostLinks(self.seated, _storage_get(STUN_KEY) or "")
            self.host.listen()
        self.render_host()
        self.show()

    def render_host(self) -> None:
        s = self.settings
        name = h("input", {"type": "text", "data-field": "name", "maxlength": NAME_CHARS,
                           "value": (_storage_get(NAME_KEY) or ""), "autocomplete": "nickname",
                           "placeholder": self.tr("race_you")})

        def seg(field, options):
            return h("span", {"class": "seg"}, *(
                h("button", {"type": "button", "data-set": field, "data-value": json.dumps(v),
                             "aria-pressed": "true" if s[field] == v else "false"}, label)
                for v, label in options))

        seats = h("ul", {"class": "seats"},
                  h("li", {"data-seat": 0, "data-status": "host"},
                    h("span", {"class": "no"}, self.tr("race_seat", n=1)),
                    h("span", {"class": "who"}, self.name),
                    h("span", {"class": "mark"}, self.tr("race_host_mark"))),
                  *(self.seat_row(k) for k in SEATS))
        panel = None
        if self.shown_seat in self.invites:
            k = self.shown_seat
            url = signal.link(str(window.location.href), self.invites[k])
            panel = h("div", {"class": "invite", "data-seat": k},
                      h("p", {"class": "help"}, self.tr("race_seat", n=k + 1) + ": "
                        + self.tr("race_invite_help")),
                      self.link_box("data-invite-link", url))
        paste = h("div", {"class": "row share"},
                  h("input", {"type": "text", "data-field": "reply", "placeholder": self.tr("race_paste"),
                              "autocomplete": "off"}),
                  h("button", {"type": "button", "data-action": "paste-reply"}, self.tr("race_seat_them")))
        stun = h("details", None, h("summary", None, self.tr("race_stun")),
                 h("input", {"type": "text", "data-field": "stun", "value": self.host.stun,
                             "placeholder": "stun:stun.example.org:3478", "autocomplete": "off"}),
                 h("p", {"class": "help"}, self.tr("race_stun_note")))
        start = h("button", {"type": "button", "data-action": "start", "disabled": True},
                  self.tr("race_start"))
        fill(self.sheet,
             h("h2", None, self.tr("race_title") + " · " + table_label(self.host.table)),
             h("label", None, self.tr("race_you"), name),
             h("div", {"class": "row"}, h("span", None, self.tr("draw")),
               seg("draw", [(1, self.tr("draw1")), (3, self.tr("draw3"))])),
             h("div", {"class": "row"}, h("span", None, self.tr("race_kind")),
               seg("kind", [(k, self.kind_label(k)) for k in signal.KINDS])),
             seats, panel, paste, h("div", {"class": "paste-error"}), stun,
             h("div", {"class": "buttons"},
               h("button", {"type": "button", "data-action": "leave"}, self.tr("race_leave")), start))

    def seat_row(self, k: int) -> object:
        status = self.status.get(k, "free")
        mark = {"free": "race_empty", "invited": "race_invited", "connected": "race_connected",
                "dropped": "race_dropped"}[status]
        action = None
        if status in ("free", "invited", "dropped"):
            label = self.tr("race_invite" if status == "free" else "race_invite_again")
            action = h("button", {"type": "button", "data-action": "invite", "data-seat": k}, label)
        return h("li", {"data-seat": k, "data-status": status},
                 h("span", {"class": "no"}, self.tr("race_seat", n=k + 1)),
                 h("span", {"class": "who"}, ""),
                 h("span", {"class": "mark"}, self.tr(mark)), action)

    async def make_invite(self, seat: int) -> None:
        s = self.settings
        self.invites[seat] = await self.host.invite(seat, self.name, s["draw"], s["kind"])
        self.status[seat] = "invited"
        self.shown_seat = seat
        self.render_host()

    def seated(self, seat: int, link) -> None:
        """A friend's link opened (``HostLinks.on_link``)."""
        self.invites.pop(seat, None)
        if self.shown_seat == seat:
            self.shown_seat = None
        self.links[seat] = link
        self.status[seat] = "connected"

        def status(s: str, seat=seat, link=link) -> None:
            if s != "open" and self.links.get(seat) is link:
                del self.links[seat]
                self.status[seat] = "dropped"
                self.render_host()

        link.on_status = status
        self.render_host()

    async def paste_reply(self) -> None:
        field = self.sheet.querySelector("[data-field=reply]")
        box = self.sheet.querySelector(".paste-error")
        try:
            await self.host.reply(str(field.value))
        except CodeError as e:
            fill(box, self.link_error(e, "invite"))
            return
        field.value = ""
        fill(box)

    # ------------------------------------------------------------ friend
    def open_invite(self, invite: Invite) -> None:
        self.mode = "friend"
        self.invite = invite
        name = h("input", {"type": "text", "data-field": "name", "maxlength": NAME_CHARS,
                           "value": (_storage_get(NAME_KEY) or ""), "autocomplete": "nickname",
                           "placeholder": self.tr("race_you")})
        fill(self.sheet,
             h("h2", None, self.tr("race_invitation", host=invite.host)),
             h("p", {"class": "table-name"},
               self.tr("race_table_name", host=invite.host, id=table_label(invite.table))),
             h("p", {"class": "settings"}, self.settings_label(invite.draw, invite.kind)),
             h("p", None, self.tr("race_your_seat", n=invite.seat + 1)),
             h("label", None, self.tr("race_you"), name),
             h("div", {"class": "join-box"}),
             h("div", {"class": "buttons"},
               h("button", {"type": "button", "data-action": "leave"}, self.tr("race_leave")),
               h("button", {"type": "button", "data-action": "join"}, self.tr("race_join"))))
        self.show()

    async def join(self) -> None:
        invite = self.invite
        btn = self.sheet.querySelector("[data-action=join]")
        btn.disabled = True
        link, reply = await net.join(invite)
        self.link = link
        link.on_status = self.friend_status
        url = signal.link(str(window.location.href), reply)
        fill(self.sheet.querySelector(".join-box"),
             h("p", {"class": "help"}, self.tr("race_reply_help", host=invite.host)),
             self.link_box("data-reply-link", url),
             h("p", {"class": "conn", "data-conn": "waiting"}, self.tr("race_connecting")))
        btn.remove()

    def friend_status(self, s: str) -> None:
        conn = self.sheet.querySelector("[data-conn]")
        if not conn:
            return
        conn.dataset.conn = "open" if s == "open" else "dropped"
        conn.textContent = self.tr("race_connected" if s == "open" else "race_dropped")

    # ------------------------------------------------------------ events
    def on_change(self, ev) -> None:
        field = ev.target.getAttribute("data-field")
        if field == "name":
            _storage_set(NAME_KEY, str(ev.target.value).strip()[:NAME_CHARS])
        elif field == "stun" and self.host is not None:
            value = str(ev.target.value).strip()
            self.host.stun = value if value.startswith(("stun:", "stuns:")) else ""
            _storage_set(STUN_KEY, self.host.stun)

    def on_click(self, ev) -> None:
        target = ev.target
        setter = target.closest("[data-set]")
        if setter:
            self.settings[str(setter.dataset.set)] = json.loads(str(setter.dataset.value))
            _storage_set(SETTINGS_KEY, json.dumps(self.settings))
            self.render_host()
            return
        btn = target.closest("[data-action]")
        if not btn:
            return
        action = str(btn.dataset.action)
        if action == "invite":
            btn.disabled = True
            asyncio.ensure_future(self.make_invite(int(btn.dataset.seat)))
        elif action == "paste-reply":
            asyncio.ensure_future(self.paste_reply())
        elif action == "join":
            asyncio.ensure_future(self.join())
        elif action == "copy-link":
            self.copy(btn)
        elif action == "share-link":
            url = str(btn.closest(".linkbox").querySelector(".link").textContent)
            try:
                js.navigator.share(js.Object.fromEntries([["url", url]]))
            except Exception:
                pass
        elif action == "leave":
            self.leave()

    def copy(self, btn) -> None:
        node = btn.closest(".linkbox").querySelector(".link")
        try:
            window.navigator.clipboard.writeText(str(node.textContent))
            self.app.toast(self.tr("copied"), 1500)
        except Exception:  # no clipboard (insecure context): select it for the player
            sel = window.getSelection()
            sel.selectAllChildren(node)

    def leave(self) -> None:
        if self.host is not None:
            for link in list(self.links.values()):
                link.close()
            self.host.close()
        if self.link is not None:
            self.link.close()
        self.host = self.link = self.invite = None
        self.invites, self.links, self.status = {}, {}, {}
        self.mode = self.shown_seat = None
        fill(self.sheet)
        self.hide()
