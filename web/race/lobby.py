"""The race's sheets before the race (issue 11): the host's lobby (seats, names,
Ready marks, settings, invites), the friend's join screen, and the link boxes
(text, QR code, Copy, Share) — built as DOM from what the host's view holds.

``LobbySheets`` is a part of ``web.race.page.RacePage`` (its sheets; the page
keeps the routes, the links and the race's life). Every peer text goes in as
text (``web.dom.h``), never as HTML.
"""

from __future__ import annotations

import json

import js

from kosynka.race.table import MINUTES, NAME_MAX
from web.dom import control_selector, document, fill, h, nil, window
from web.race import ice
from web.race.signal import CodeError
from web.store import NAME_KEY


def _get(store: str, key: str) -> str | None:
    """``key`` of ``window[store]`` (localStorage, sessionStorage); None when
    missing or when the browser blocks storage (even reading the property throws)."""
    try:
        value = getattr(window, store).getItem(key)
    except Exception:
        return None
    return None if nil(value) else str(value)


def _set(store: str, key: str, value: str | None) -> None:
    try:
        if value is None:
            getattr(window, store).removeItem(key)
        else:
            getattr(window, store).setItem(key, value)
    except Exception:
        pass  # storage blocked: the page just does not remember


def table_label(table: int) -> str:
    """A short name for a table id, easy to read aloud (``K7Q3``)."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(alphabet[(table >> (5 * i)) & 31] for i in range(4))


class LobbySheets:
    """The lobby's and the join screen's sheets; mixed into ``RacePage``."""

    def fill_sheet(self, *parts) -> None:
        """The sheet's content; its heading names the dialog (``aria-labelledby``);
        a control that had the focus has it again when it is drawn anew."""
        active = document.activeElement
        again = control_selector(active) if not nil(active) and self.sheet.contains(active) else None
        fill(self.sheet, *parts)
        title = self.sheet.querySelector("h2")
        if not nil(title):
            title.id = "race-title"
        el = self.sheet.querySelector(again) if again else None
        if not nil(el):
            el.focus()

    def link_error(self, err: CodeError, item_kind: str = "reply") -> object:
        key = "race_" + err.code.replace("/", "_")
        if err.code == "link/kind":
            key = "race_link_kind_" + item_kind
        return h("p", {"class": "error", "data-linkerror": err.code, "role": "alert"},
                 self.tr(key, host=err.detail))

    def link_box(self, attr: str, url: str) -> object:
        """A link as text, its QR code, Copy and (where the browser has it) Share."""
        box = h("div", {"class": "linkbox"}, h("p", {"class": "link", attr: True}, url))
        try:
            from web import qr
            code = qr.make(url)
            holder = h("div", {"class": "qrbox", "data-qr-version": code.version})
            holder.innerHTML = code.svg  # segno's markup of our own link: no peer text in it
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

    def buttons(self, *specs) -> object:
        return h("div", {"class": "buttons"}, *(
            None if spec is None else
            h("button", {"type": "button", "data-action": spec[0], **(spec[2] if len(spec) > 2 else {})},
              self.tr(spec[1]))
            for spec in specs))

    def render_lobby(self, v: dict) -> None:
        can = v["can"]
        me = next((p for p in v["players"] if p["pid"] == v["you"]), None)
        document.body.dataset.race = "lobby" if me and me["seat"] is not None else "watching"
        rows = []
        for p in v["players"]:
            marks = []
            if p["host"]:
                marks.append(self.tr("race_host_mark"))
            elif p["seat"] is None:
                marks.append(self.tr("race_watching"))
            else:
                marks.append(self.tr("race_ready_mark" if p["ready"] else "race_not_ready"))
            if not p["connected"]:
                marks.append(self.tr("race_dropped"))
            score = f" · {p['score']:g}" if p["score"] else ""
            rows.append(h("li", {"data-pid": p["pid"], "data-seat": "" if p["seat"] is None else p["seat"],
                                 "data-ready": "yes" if p["ready"] else "no",
                                 "data-connected": "yes" if p["connected"] else "no",
                                 "data-you": p["pid"] == v["you"]},
                          h("span", {"class": "no"}, "—" if p["seat"] is None
                            else self.tr("race_seat", n=p["seat"] + 1)),
                          h("span", {"class": "who"}, p["name"],
                            h("small", None, f" ({self.tr('race_you_mark')})") if p["pid"] == v["you"] else None),
                          h("span", {"class": "mark"}, ", ".join(marks) + score),
                          h("button", {"type": "button", "data-action": "remove", "data-pid": p["pid"],
                                       "aria-label": self.tr("race_remove_who", name=p["name"])},
                            "×") if v["can"]["remove"] and not p["host"] else None))
        parts = [h("h2", None, self.tr("race_title") + " · " + self.table_name())]
        if can["settings"]:
            parts += [self.name_field(), self.settings_rows(v)]
        else:
            parts += [h("p", {"class": "settings"}, self.settings_label(v["draw"], v["minutes"]))]
        parts.append(h("ul", {"class": "seats"}, *rows))
        note = self.conn_note()
        if note:
            parts.append(h("p", {"class": "error", "data-race-note": note[0], "role": "status"}, note[1]))
        if self.links is not None:
            parts += self.table_parts()
        if can["settings"]:
            parts.append(self.buttons(("leave", "race_leave"),
                                      ("start", "race_start", {"disabled": not can["start"]})))
        else:
            ready = bool(me and me["ready"])
            parts.append(self.buttons(
                ("leave", "race_leave"),
                ("ready", "race_ready", {"aria-pressed": "true" if ready else "false"})
                if can["ready"] else None))
        self.fill_sheet(*parts)

    def table_name(self) -> str:
        if self.room is not None and self.host is not None:
            table = self.room.table
        elif self.table_link is not None:
            table = self.table_link.table
        else:
            table = self.links.table if self.links is not None else self.invite.table
        return table_label(table)

    def render_table_join(self) -> None:
        """A friend's screen for a table link: who, what, their name and Join; then
        how the connection goes (issue 19 item 4)."""
        t = self.table_link
        parts = [h("h2", None, self.tr("race_invitation", host=t.host)),
                 h("p", {"class": "table-name"},
                   self.tr("race_table_name", host=t.host, id=table_label(t.table))),
                 h("p", {"class": "settings"}, self.settings_label(t.draw, t.minutes))]
        p = self.player
        if p is None:
            parts += [self.name_field(), self.net_parts(),
                      self.buttons(("leave", "race_leave"), ("join", "race_join"))]
        elif p.error:
            parts += [h("p", {"class": "error", "data-conn": "refused", "role": "alert"}, p.error),
                      self.buttons(("leave", "race_leave"))]
        elif self.unreachable:
            parts += [h("p", {"class": "error", "data-conn": "unreachable", "role": "alert"},
                        self.tr("race_unreachable", host=t.host)),
                      self.net_parts(),
                      self.buttons(("leave", "race_leave"), ("retry", "race_try_again"))]
        else:
            parts += [h("p", {"class": "conn", "data-conn": "joining", "role": "status"},
                        self.tr("race_joining", host=t.host)),
                      self.buttons(("leave", "race_leave"))]
        self.fill_sheet(*parts)

    def name_field(self) -> object:
        return h("label", None, self.tr("race_you"),
                 h("input", {"type": "text", "data-field": "name", "maxlength": NAME_MAX,
                             "value": _get("localStorage", NAME_KEY) or "",
                             "autocomplete": "nickname", "placeholder": self.tr("race_player")}))

    def settings_rows(self, v: dict) -> object:
        def seg(field, current, options):
            return h("span", {"class": "seg"}, *(
                h("button", {"type": "button", "data-set": field, "data-value": json.dumps(value),
                             "aria-pressed": "true" if current == value else "false"}, label)
                for value, label in options))

        return h("div", None,
                 h("div", {"class": "row"}, h("span", None, self.tr("draw")),
                   seg("draw", v["draw"], [(1, self.tr("draw1")), (3, self.tr("draw3"))])),
                 h("div", {"class": "row"}, h("span", None, self.tr("race_kind")),
                   seg("minutes", v["minutes"], [(m, self.kind_label(m)) for m in MINUTES])))

    def table_parts(self) -> list:
        """The host's ways to bring friends: the table link over the relays, or the
        links-only invites when no relay answers (issue 19 items 1–2), and the
        Connection section."""
        way, url = self.way, self.table_url()
        parts = [h("p", {"class": "way", "data-way-text": way or ""},
                   self.tr({"relay": "race_way_relay", "links": "race_way_links"}.get(
                       way, "race_way_wait")))]
        if way == "relay" and url:
            parts += [h("p", {"class": "help"}, self.tr("race_table_help")),
                      self.link_box("data-table-link", url)]
        elif way == "links":
            parts += self.invite_parts()
        parts.append(self.net_parts())
        return parts

    def net_parts(self) -> object:
        """The Connection section: which servers are asked (named), same Wi-Fi only,
        a TURN server with its username and password; a refused one says why."""
        if self.room is not None:
            servers = self.room.servers
        else:
            servers = list(self.table_link.ice) if self.table_link is not None else []
        stun = [ice.server_text(s) for s in servers if "username" not in s]
        turn = next((s for s in servers if "username" in s), None)
        draft = self.turn_draft or ((ice.server_text(turn), turn["username"], turn["credential"])
                                    if turn else ("", "", ""))
        internet = bool(servers)
        words = (self.tr("race_net_note", servers=", ".join(stun)) if stun
                 else self.tr("race_net_wifi_note"))
        relays = self.room.relays if self.room is not None and self.host is not None else []
        choice = h("select", {"data-field": "net", "aria-label": self.tr("race_net")},
                   h("option", {"value": "internet", "selected": internet}, self.tr("race_net_internet")),
                   h("option", {"value": "wifi", "selected": not internet}, self.tr("race_net_wifi")))
        field = lambda name, label, value="", kind="text": h(
            "input", {"type": kind, "data-field": name, "value": value, "aria-label": label,
                      "placeholder": label, "autocomplete": "off"})
        return h("details", {"class": "net", "open": bool(self.ice_error or self.ice_saved)},
                 h("summary", None, self.tr("race_net")),
                 h("p", {"class": "help"}, words),
                 h("p", {"class": "help"}, self.tr("race_net_relays", relays=", ".join(
                     r.split("//", 1)[-1] for r in relays))) if relays else None,
                 h("div", {"class": "row"}, choice) if self.host is not None else None,
                 h("p", {"class": "help"}, self.tr("race_turn")),
                 h("div", {"class": "row turn"},
                   field("turn-url", "turn:turn.example.org:3478", draft[0]),
                   field("turn-user", self.tr("race_turn_user"), draft[1]),
                   field("turn-pass", self.tr("race_turn_pass"), draft[2], "password"),
                   h("button", {"type": "button", "data-action": "save-turn"}, self.tr("race_turn_save"))),
                 h("p", {"class": "error", "data-ice-error": self.ice_error, "role": "alert"},
                   self.tr("race_" + self.ice_error.replace("/", "_"))) if self.ice_error else None,
                 h("p", {"class": "help", "data-ice-saved": True, "role": "status"},
                   self.tr(self.ice_saved)) if self.ice_saved else None)

    def invite_parts(self) -> list:
        parts = [h("div", {"class": "row"},
                   h("button", {"type": "button", "data-action": "invite"}, self.tr("race_invite")))]
        if self.open_invites and self.no_addresses:
            parts.append(h("p", {"class": "error", "data-no-addresses": True, "role": "alert"},
                           self.tr("race_no_addresses")))
        for url in self.open_invites:
            parts += [h("p", {"class": "help"}, self.tr("race_invite_help")),
                      self.link_box("data-invite-link", url)]
        parts += [
            h("div", {"class": "row share"},
              h("input", {"type": "text", "data-field": "reply", "placeholder": self.tr("race_paste"),
                          "autocomplete": "off"}),
              h("button", {"type": "button", "data-action": "paste-reply"}, self.tr("race_seat_them"))),
            h("div", {"class": "paste-error"})]
        return parts

    def render_join(self) -> None:
        if self.table_link is not None:
            return self.render_table_join()
        inv = self.invite
        parts = [h("h2", None, self.tr("race_invitation", host=inv.host)),
                 h("p", {"class": "table-name"},
                   self.tr("race_table_name", host=inv.host, id=table_label(inv.table))),
                 h("p", {"class": "settings"}, self.settings_label(inv.draw, inv.minutes))]
        if self.reply_url is None:
            parts += [self.name_field(), self.buttons(("leave", "race_leave"), ("join", "race_join"))]
        else:
            p = self.player
            error = None if p is None or p.error is None else (
                self.tr("race_table_full") if p.error_code == "table/full" else p.error)
            parts += [h("p", {"class": "help"}, self.tr("race_reply_help", host=inv.host)),
                      self.link_box("data-reply-link", self.reply_url),
                      h("p", {"class": "error" if error else "conn",
                              "data-conn": "open" if p is not None and p.connected else "waiting"},
                        error or self.tr("race_connecting")),
                      self.buttons(("leave", "race_leave"))]
        self.fill_sheet(*parts)
