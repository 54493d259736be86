"""The race's sheets before the race (issue 11), as HTML: the host's lobby
(seats, names, Ready marks, settings, the table link or the invites, the
Connection section), the friend's join screens, the link boxes (text, QR code,
Copy, Share), and the short sheets (a refused link, the hand-over tab, the way
back, another tab, removed).

Pure functions of the host's view and of what the page holds (no browser
import; tested in ``tests/test_race_web_lobby.py``), written with
``web.race.markup.el``: every peer text goes in escaped, as text.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from kosynka.race.table import GRACE, MINUTES, NAME_MAX
from web.race import ice
from web.race.markup import Html, buttons, el, tr
from web.race.signal import CodeError, Invite, Table

Json = dict[str, Any]
Draft = tuple[str, str, str]   # a TURN server as typed: URL, username, password


def table_label(table: int) -> str:
    """A short name for a table id, easy to read aloud (``K7Q3``)."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(alphabet[(table >> (5 * i)) & 31] for i in range(4))


def kind_label(lang: str, minutes: int | None) -> str:
    return tr(lang, "race_last") if minutes is None else tr(lang, "race_min", n=minutes)


def settings_label(lang: str, draw: int, minutes: int | None) -> str:
    return f"{tr(lang, 'draw1' if draw == 1 else 'draw3')} · {kind_label(lang, minutes)}"


def title(lang: str, text: str | None = None) -> Html:
    """The sheet's heading (it names the dialog: ``#race-title``)."""
    return el("h2", {"id": "race-title"}, tr(lang, "race_title") if text is None else text)


# ------------------------------------------------------------------ small sheets
def link_error(lang: str, err: CodeError, item_kind: str = "reply") -> Html:
    key = "race_" + err.code.replace("/", "_")
    if err.code == "link/kind":
        key = "race_link_kind_" + item_kind
    return el("p", {"class": "error", "data-linkerror": err.code, "role": "alert"},
              tr(lang, key, host=err.detail))


def error_sheet(lang: str, err: CodeError, item_kind: str) -> Html:
    """A link that cannot be used, in a tab at no table."""
    return Html(title(lang) + link_error(lang, err, item_kind) + buttons(lang, ("leave", "close")))


def handover_sheet(lang: str, result: str | None) -> Html:
    """The tab a reply link opened: connecting (None), then how the hand-over went."""
    if result is None:
        msg = el("p", None, tr(lang, "race_connecting"))
    elif result == "ok":
        msg = el("p", {"class": "big"}, tr(lang, "race_sent"))
    elif result == "none":
        msg = el("p", {"class": "error"}, tr(lang, "race_no_table"))
    else:
        msg = link_error(lang, CodeError(result, ""), "invite")
    return Html(title(lang) + msg)


def way_back_sheet(lang: str, host: str) -> Html:
    """After a reload, links-only: whose table it was, and how to come back (N9)."""
    return Html(title(lang) + el("p", {"class": "big", "data-way-back": True},
                                 tr(lang, "race_way_back", host=host, s=int(GRACE)))
                + buttons(lang, ("forget", "race_leave")))


def other_tab_sheet(lang: str) -> Html:
    """Another tab of this browser took our seat at this table."""
    return Html(title(lang) + el("p", {"class": "big", "data-other-tab": True},
                                 tr(lang, "race_other_tab"))
                + buttons(lang, ("leave", "close")))


def removed_sheet(lang: str) -> Html:
    """The host removed us from the table."""
    return Html(title(lang) + el("p", {"class": "error", "data-left": True},
                                 tr(lang, "race_you_removed"))
                + buttons(lang, ("forget", "race_leave")))


# ------------------------------------------------------------------ parts
def link_box(lang: str, attr: str, url: str, share: bool) -> Html:
    """A link as text, its QR code, Copy and (where the browser has it) Share."""
    qr_code = Html("")
    try:
        from web import qr
        code = qr.make(url)
        # segno's markup of our own link: no peer text in it
        qr_code = el("div", {"class": "qrbox", "data-qr-version": code.version}, Html(code.svg))
    except ImportError:  # segno not bundled: the link still works
        pass
    row = el("div", {"class": "row share"},
             el("button", {"type": "button", "data-action": "copy-link"}, tr(lang, "copy")),
             el("button", {"type": "button", "data-action": "share-link"}, tr(lang, "race_share"))
             if share else None)
    return el("div", {"class": "linkbox"}, el("p", {"class": "link", attr: True}, url), qr_code, row)


def name_field(lang: str, name: str) -> Html:
    return el("label", None, tr(lang, "race_you"),
              el("input", {"type": "text", "data-field": "name", "maxlength": NAME_MAX,
                           "value": name, "autocomplete": "nickname",
                           "placeholder": tr(lang, "race_player")}))


def settings_rows(lang: str, v: Json) -> Html:
    def seg(field: str, current: object, options: Sequence[tuple[object, str]]) -> Html:
        return el("span", {"class": "seg"}, *(
            el("button", {"type": "button", "data-set": field, "data-value": json.dumps(value),
                          "aria-pressed": "true" if current == value else "false"}, label)
            for value, label in options))

    return el("div", None,
              el("div", {"class": "row"}, el("span", None, tr(lang, "draw")),
                 seg("draw", v["draw"], [(1, tr(lang, "draw1")), (3, tr(lang, "draw3"))])),
              el("div", {"class": "row"}, el("span", None, tr(lang, "race_kind")),
                 seg("minutes", v["minutes"], [(m, kind_label(lang, m)) for m in MINUTES])))


def connection(lang: str, servers: Sequence[ice.Server], relays: Sequence[str], host: bool,
               draft: Draft | None, ice_error: str | None, ice_saved: str | None) -> Html:
    """The Connection section: which servers are asked (named), same Wi-Fi only (the
    host), a TURN server with its username and password; a refused one says why."""
    stun = [ice.server_text(s) for s in servers if "username" not in s]
    turn = next((s for s in servers if "username" in s), None)
    typed = draft or ((ice.server_text(turn), turn["username"], turn["credential"])
                      if turn else ("", "", ""))
    internet = bool(servers)
    words = (tr(lang, "race_net_note", servers=", ".join(stun)) if stun
             else tr(lang, "race_net_wifi_note"))
    choice = el("select", {"data-field": "net", "aria-label": tr(lang, "race_net")},
                el("option", {"value": "internet", "selected": internet}, tr(lang, "race_net_internet")),
                el("option", {"value": "wifi", "selected": not internet}, tr(lang, "race_net_wifi")))

    def field(name: str, label: str, value: str = "", kind: str = "text") -> Html:
        return el("input", {"type": kind, "data-field": name, "value": value, "aria-label": label,
                            "placeholder": label, "autocomplete": "off"})

    return el("details", {"class": "net", "open": bool(ice_error or ice_saved)},
              el("summary", None, tr(lang, "race_net")),
              el("p", {"class": "help"}, words),
              el("p", {"class": "help"}, tr(lang, "race_net_relays", relays=", ".join(
                  r.split("//", 1)[-1] for r in relays))) if relays else None,
              el("div", {"class": "row"}, choice) if host else None,
              el("p", {"class": "help"}, tr(lang, "race_turn")),
              el("div", {"class": "row turn"},
                 field("turn-url", "turn:turn.example.org:3478", typed[0]),
                 field("turn-user", tr(lang, "race_turn_user"), typed[1]),
                 field("turn-pass", tr(lang, "race_turn_pass"), typed[2], "password"),
                 el("button", {"type": "button", "data-action": "save-turn"},
                    tr(lang, "race_turn_save"))),
              el("p", {"class": "error", "data-ice-error": ice_error, "role": "alert"},
                 tr(lang, "race_" + ice_error.replace("/", "_"))) if ice_error else None,
              el("p", {"class": "help", "data-ice-saved": True, "role": "status"},
                 tr(lang, ice_saved)) if ice_saved else None)


def no_webrtc(lang: str) -> Html:
    """A browser without WebRTC: it races through the relays (issue 30 item 8)."""
    return el("p", {"class": "help", "data-no-webrtc": ""}, tr(lang, "race_no_webrtc"))


def invites(lang: str, urls: Sequence[str], no_addresses: bool, share: bool) -> Html:
    """The links-only way: Invite, the invites not yet answered, a reply pasted."""
    parts = [el("div", {"class": "row"},
                el("button", {"type": "button", "data-action": "invite"}, tr(lang, "race_invite")))]
    if urls and no_addresses:
        parts.append(el("p", {"class": "error", "data-no-addresses": True, "role": "alert"},
                        tr(lang, "race_no_addresses")))
    for url in urls:
        parts += [el("p", {"class": "help"}, tr(lang, "race_invite_help")),
                  link_box(lang, "data-invite-link", url, share)]
    parts += [
        el("div", {"class": "row share"},
           el("input", {"type": "text", "data-field": "reply", "placeholder": tr(lang, "race_paste"),
                        "autocomplete": "off"}),
           el("button", {"type": "button", "data-action": "paste-reply"}, tr(lang, "race_seat_them"))),
        el("div", {"class": "paste-error"})]
    return Html("".join(parts))


def invite_sheet(lang: str, urls: Sequence[str], no_addresses: bool, share: bool) -> Html:
    """The host invites during a race (a comeback, a spectator)."""
    return Html(title(lang, tr(lang, "race_invite")) + invites(lang, urls, no_addresses, share)
                + buttons(lang, ("close-links", "close")))


def ways(lang: str, way: str | None, url: str | None, share: bool, invite_urls: Sequence[str],
         no_addresses: bool, net: Html, webrtc: bool = True) -> Html:
    """The host's ways to bring friends: the table link over the relays (``url``,
    once the room is open), or the links-only invites when no relay answers
    (issue 19 items 1–2) — which a browser without WebRTC cannot make (issue 30
    item 8: it says it cannot race here); then the Connection section (``net``)."""
    words = {"relay": "race_way_relay", "links": "race_way_links" if webrtc else "race_way_none"}
    parts = [el("p", {"class": "way", "data-way-text": way or ""},
                tr(lang, words.get(way or "", "race_way_wait")))]
    if way == "relay" and url:
        parts += [el("p", {"class": "help"}, tr(lang, "race_table_help")),
                  link_box(lang, "data-table-link", url, share)]
    elif way == "links" and webrtc:
        parts.append(invites(lang, invite_urls, no_addresses, share))
    parts.append(net)
    return Html("".join(parts))


# ------------------------------------------------------------------ the lobby
def lobby_state(v: Json) -> str:
    """``body[data-race]`` in the lobby: lobby (seated) or watching."""
    me = next((p for p in v["players"] if p["pid"] == v["you"]), None)
    return "lobby" if me and me["seat"] is not None else "watching"


def lobby(lang: str, v: Json, table: int, name: str, note: tuple[str, str] | None,
          host_part: Html | None) -> Html:
    """The lobby from the view ``v``: seats with their marks, the settings (the
    host may change them), our own connection's ``note``, the host's ways to bring
    friends (``host_part``), Leave and Start or Ready."""
    can = v["can"]
    me = next((p for p in v["players"] if p["pid"] == v["you"]), None)
    rows = []
    for p in v["players"]:
        marks = []
        if p["host"]:
            marks.append(tr(lang, "race_host_mark"))
        elif p["seat"] is None:
            marks.append(tr(lang, "race_watching"))
        else:
            marks.append(tr(lang, "race_ready_mark" if p["ready"] else "race_not_ready"))
        if not p["connected"]:
            marks.append(tr(lang, "race_dropped"))
        score = f" · {p['score']:g}" if p["score"] else ""
        rows.append(el("li", {"data-pid": p["pid"], "data-seat": "" if p["seat"] is None else p["seat"],
                              "data-ready": "yes" if p["ready"] else "no",
                              "data-connected": "yes" if p["connected"] else "no",
                              "data-you": p["pid"] == v["you"]},
                       el("span", {"class": "no"}, "—" if p["seat"] is None
                          else tr(lang, "race_seat", n=p["seat"] + 1)),
                       el("span", {"class": "who"}, p["name"],
                          el("small", None, f" ({tr(lang, 'race_you_mark')})")
                          if p["pid"] == v["you"] else None),
                       el("span", {"class": "mark"}, ", ".join(marks) + score),
                       el("button", {"type": "button", "data-action": "remove", "data-pid": p["pid"],
                                     "aria-label": tr(lang, "race_remove_who", name=p["name"])},
                          "×") if can["remove"] and not p["host"] else None))
    parts = [title(lang, tr(lang, "race_title") + " · " + table_label(table))]
    if can["settings"]:
        parts += [name_field(lang, name), settings_rows(lang, v)]
    else:
        parts += [el("p", {"class": "settings"}, settings_label(lang, v["draw"], v["minutes"]))]
    parts.append(el("ul", {"class": "seats"}, *rows))
    if note:
        parts.append(el("p", {"class": "error", "data-race-note": note[0], "role": "status"}, note[1]))
    if host_part is not None:
        parts.append(host_part)
    if can["settings"]:
        parts.append(buttons(lang, ("leave", "race_leave"),
                             ("start", "race_start", {"disabled": not can["start"]})))
    else:
        ready = bool(me and me["ready"])
        parts.append(buttons(lang, ("leave", "race_leave"),
                             ("ready", "race_ready", {"aria-pressed": "true" if ready else "false"})
                             if can["ready"] else None))
    return Html("".join(parts))


# ------------------------------------------------------------------ the friend's join
def _invitation(lang: str, host: str, table: int, draw: int, minutes: int | None) -> list[Html]:
    return [title(lang, tr(lang, "race_invitation", host=host)),
            el("p", {"class": "table-name"},
               tr(lang, "race_table_name", host=host, id=table_label(table))),
            el("p", {"class": "settings"}, settings_label(lang, draw, minutes))]


def table_join(lang: str, t: Table, name: str, state: str, error: str | None, net: Html) -> Html:
    """A friend's screen for a table link: who, what, their name and Join (``state``
    ``name``); then how the connection goes (issue 19 item 4): ``joining``,
    ``refused`` (``error``: why) or ``unreachable`` (Try again, the Connection
    section)."""
    parts = _invitation(lang, t.host, t.table, t.draw, t.minutes)
    if state == "name":
        parts += [name_field(lang, name), net,
                  buttons(lang, ("leave", "race_leave"), ("join", "race_join"))]
    elif state == "refused":
        parts += [el("p", {"class": "error", "data-conn": "refused", "role": "alert"}, error),
                  buttons(lang, ("leave", "race_leave"))]
    elif state == "unreachable":
        parts += [el("p", {"class": "error", "data-conn": "unreachable", "role": "alert"},
                     tr(lang, "race_unreachable", host=t.host)),
                  net,
                  buttons(lang, ("leave", "race_leave"), ("retry", "race_try_again"))]
    else:
        parts += [el("p", {"class": "conn", "data-conn": "joining", "role": "status"},
                     tr(lang, "race_joining", host=t.host)),
                  buttons(lang, ("leave", "race_leave"))]
    return Html("".join(parts))


def invite_join(lang: str, inv: Invite, name: str, reply_url: str | None, share: bool,
                connected: bool, error: str | None, webrtc: bool = True) -> Html:
    """A friend's screen for an invite (links-only): their name and Join, then the
    reply link to send back and how the connection goes. A browser without WebRTC
    cannot answer an invite: it says so (issue 30 item 8)."""
    parts = _invitation(lang, inv.host, inv.table, inv.draw, inv.minutes)
    if not webrtc:
        parts += [el("p", {"class": "error", "data-no-webrtc": "", "role": "alert"},
                     tr(lang, "race_way_none")),
                  buttons(lang, ("leave", "race_leave"))]
    elif reply_url is None:
        parts += [name_field(lang, name), buttons(lang, ("leave", "race_leave"), ("join", "race_join"))]
    else:
        parts += [el("p", {"class": "help"}, tr(lang, "race_reply_help", host=inv.host)),
                  link_box(lang, "data-reply-link", reply_url, share),
                  el("p", {"class": "error" if error else "conn",
                           "data-conn": "open" if connected else "waiting"},
                     error or tr(lang, "race_connecting")),
                  buttons(lang, ("leave", "race_leave"))]
    return Html("".join(parts))
