"""Helpers for the race e2e tests (issue 11): players as Chromium contexts over real
WebRTC, driven through the race screens' DOM contract (``web/race/page.py``,
``web/race/screen.py``)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from conftest import wait_ready
from gamekit import HTML, NO_BOOT_EXTRAS

from kosynka.position import Rules
from kosynka.solver import VERIFY_STATES, verified_deal


@dataclass
class Seat:
    """One player: their browser context and the page racing in it."""

    name: str
    ctx: object
    page: object


def open_page(new_context, base_url, name: str) -> Seat:
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.console_errors = []    # handler failures rtc.mjs catches (for a failure's message)
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.goto(base_url)
    wait_ready(page)
    page.evaluate("n => localStorage.setItem('kosynka.race.name', n)", name)
    # the links-only way, nothing asked off this machine (issue 19): a relay that
    # refuses at once (nothing listens on the discard port) and no STUN server
    page.evaluate("""() => { localStorage.setItem('kosynka.race.relays', '["ws://127.0.0.1:9"]');
                             localStorage.setItem('kosynka.race.ice', '[]'); }""")
    return Seat(name, ctx, page)


def host_table(new_context, base_url, name: str = "Anna") -> Seat:
    host = open_page(new_context, base_url, name)
    host.page.click("[data-action=settings]")
    host.page.click("#sheet [data-action=race]")
    host.page.wait_for_selector("#race li[data-pid='0']")
    return host


def invite_link(host: Seat) -> str:
    links = host.page.locator("#race [data-invite-link]")
    before = links.text_content() if links.count() else None
    host.page.click("[data-action=invite]:visible")
    host.page.wait_for_function(
        "b => { const l = document.querySelector('#race [data-invite-link]');"
        " return l && l.textContent !== b; }", arg=before)
    return links.text_content()


def hand_over(host: Seat, reply: str) -> str:
    """The reply link opened on the host's device: a new tab of its browser."""
    return open_reply(host.ctx, reply)


def open_reply(ctx, reply: str) -> str:
    """The hand-over's verdict (``data-race-handover``) for a reply link opened in a
    new tab of ``ctx`` (read through the null-safe ``HTML``: at "commit" the new
    document may not have its root element yet)."""
    tab = ctx.new_page()
    tab.goto(reply, wait_until="commit")
    verdict = f"{HTML}.raceHandover"
    tab.wait_for_function(f"!['pending', undefined].includes({verdict})")
    result = tab.evaluate(verdict)
    tab.close()
    return result


def join(host: Seat, seat: Seat, pid: int | None = None) -> None:
    """``seat`` takes an invite from ``host`` and is connected (as ``pid`` if given).

    A link opens within ~30 ms of the hand-over here. Under load, Chromium lost
    the first message on a fresh channel now and then (both ends open, nothing
    received), so the friend's join was never answered; the player now sends an
    unanswered join again (``Player.tick``). Should a join still not reach the
    table within 30 s, it is tried once more with a fresh invite — as a player
    would press Invite and Join again — with a warning that carries both sides'
    link states."""
    for attempt in (1, 2):
        url = invite_link(host)
        p = seat.page
        p.goto(url)
        p.wait_for_selector("#race [data-action=join]")
        p.click("#race [data-action=join]")
        reply = p.locator("#race [data-reply-link]").text_content(timeout=20_000)
        assert hand_over(host, reply) == "ok"
        try:
            p.wait_for_function("document.body.dataset.race !== undefined")
            break
        except Exception as e:
            state = links_state(host, seat)
            if attempt == 2:
                raise AssertionError(f"the friend did not reach the table: {state}") from e
            warnings.warn(f"a race link did not open in 30 s; joining again: {state}", stacklevel=2)
    if pid is not None and race_state(seat) == "lobby":
        p.wait_for_selector(f"#race li[data-you][data-pid='{pid}']", state="attached")


def ready(seat: Seat) -> None:
    seat.page.click("#race [data-action=ready]")
    seat.page.wait_for_selector("#race li[data-you][data-ready=yes]", state="attached")


def start(host: Seat, players: list[Seat]) -> int:
    host.page.wait_for_selector("#race [data-action=start]:not([disabled])")
    host.page.click("#race [data-action=start]")
    for s in [host, *players]:
        s.page.wait_for_function("document.body.dataset.race === 'running'")
    deal = int(host.page.get_attribute("#race-screen", "data-deal"))
    for s in players:
        assert int(s.page.get_attribute("#race-screen", "data-deal")) == deal
    return deal


def line(deal: int, draw: int = 1) -> list[str]:
    """The solver's winning line of a verified deal (as the host verified it)."""
    number, res = verified_deal(deal, Rules(draw, None), VERIFY_STATES)
    assert number == deal and res.result == "won"
    return res.moves


def play(seat: Seat, moves: list[str]) -> None:
    """Moves made on ``seat``'s own race table, as its input makes them."""
    seat.page.evaluate(
        """ms => { const race = globalThis.kosynkaPyodide.globals.get('app').race;
                   for (const m of ms) if (!race.play(m)) throw new Error('refused: ' + m); }""",
        moves)


def link_way(seat: Seat) -> str:
    """The way ``seat``'s link to the host goes: ``direct`` or ``relay`` (issue 30)."""
    return seat.page.evaluate("globalThis.kosynkaPyodide.globals.get('app').race.control.player.link.way")


def relay_events(seat: Seat) -> int:
    """Events the page has sent through the relays (each to every relay)."""
    return seat.page.evaluate("(() => { const r = globalThis.kosynkaPyodide.globals.get('app')"
                              ".race.net.room; return r && r.room ? r.room.hub.sent : 0; })()")


def race_state(seat: Seat) -> str:
    return seat.page.evaluate("document.body.dataset.race")


def wait_race(seat: Seat, state: str, timeout: float = 30_000) -> None:
    seat.page.wait_for_function(f"document.body.dataset.race === '{state}'", timeout=timeout)


def opponent(seat: Seat, pid: int) -> dict:
    loc = seat.page.locator(f"#race-screen [data-opponent][data-pid='{pid}']")
    return {k: loc.get_attribute(f"data-{k}") for k in ("foundation", "faceup", "moves", "status")}


_PEERS = """() => {
  const race = globalThis.kosynkaPyodide.globals.get('app').race;
  const peers = [];
  const add = (who, peer) => peer && peers.push({who, state: peer.state, received: peer.received,
    connection: peer.pc.connectionState, ice: peer.pc.iceConnectionState,
    gathering: peer.pc.iceGatheringState, signaling: peer.pc.signalingState,
    channel: peer.dc ? peer.dc.readyState : null,
    local: peer.pc.localDescription && peer.pc.localDescription.sdp,
    remote: peer.pc.remoteDescription && peer.pc.remoteDescription.sdp});
  if (race.player && race.player.link) add('player', race.player.link._peer);
  if (race.links) for (const item of race.links.pending.values()) add('invite', item.get(0));
  return {mode: race.mode, race: document.body.dataset.race || null, peers,
          log: race.host ? race.host.log.toJs({dict_converter: Object.fromEntries}) : null};
}"""


def links_state(host: Seat, friend: Seat) -> dict:
    """Where the links of ``host`` and ``friend`` stand (for a failure's message)."""
    out = {}
    for who, seat in (("host", host), ("friend", friend)):
        try:
            out[who] = {**seat.page.evaluate(_PEERS), "console_errors": seat.page.console_errors}
        except Exception as e:  # the page itself is broken: say so
            out[who] = f"unreadable: {e}"
    return out


def resign(seat: Seat) -> None:
    """``seat`` resigns from its race table, answering the confirmation (N8)."""
    seat.page.click("#race-screen [data-action=resign]")
    seat.page.click("#sheet [data-action=confirm]")


# ------------------------------------------------------------------ the table link (issue 19)

def table_link(host: Seat, timeout: float = 30_000) -> str:
    """The host's one table link, once a relay answered (``#race[data-way=relay]``)."""
    host.page.wait_for_selector("#race[data-way=relay] [data-table-link]", timeout=timeout)
    return host.page.text_content("#race [data-table-link]")


def join_table(seat: Seat, url: str, pid: int | None = None, timeout: float = 30_000) -> float:
    """``seat`` opens the table link and taps Join; returns the seconds from the tap
    to being seated (``#race li[data-you]``, with ``pid`` if given)."""
    import time

    p = seat.page
    p.goto(url)
    p.click("#race [data-action=join]")
    t0 = time.perf_counter()
    sel = "#race li[data-you]" + (f"[data-pid='{pid}']" if pid is not None else "")
    try:
        p.wait_for_selector(sel, state="attached", timeout=timeout)
    except Exception as e:
        raise AssertionError(f"{seat.name} not seated: {room_state(seat)}") from e
    return time.perf_counter() - t0


# the race's Python side, as JSON (the player's messages; on the host's page, the
# table's members, links, refusals and events)
_RACE_PY = r"""
import json
r = app.race.control
p, h = r.player, r.host
json.dumps({"t": r.clock(), "player": p and {"id": p._id, "ack": p.ack, "awaiting": p._awaiting,
                                "pending": [x.id for x in p._pending]},
            "host": h and {"acks": h.acks, "conns": list(h.conns), "log": list(h.log),
                           "members": {m.pid: [m.connected, m.dropped_at, m.status, m.out]
                                       for m in h.table.members.values()},
                           "phase": h.table.phase, "events": list(h.table.events)[-12:]}},
           default=str)
"""

_ROOM = """(py) => { const page = globalThis.kosynkaPyodide.globals.get('app').race;
  const r = page.control, net = page.net;
  const room = net.room && net.room.room;
  return {mode: page.mode, way: net.way, sheet: document.querySelector('#race').innerText.slice(0, 200),
          pid: r.player ? r.player.pid : null, error: r.player ? r.player.error : null,
          peers: room ? [...room.peers.keys()] : null, errors: room ? room.errors : null,
          relays: room ? room.relaysOpen() : null, joins: room ? room.joins : null,
          self: room ? room.selfId : null, lost_at: r.lost_at,
          pcs: room && room.trystero ? Object.entries(room.trystero.getPeers()).map(
            ([id, pc]) => [id, pc.connectionState, pc.iceConnectionState]) : null,
          link: r.player && r.player.link ? [r.player.link.connected, r.player.link.steady,
                                             r.player.link.way] : null,
          hub: room ? {sent: room.hub.sent, links: [...room.hub.links.keys()],
                       open: room.hub.openCount()} : null,
          note: (document.querySelector('[data-race-note]') || {}).textContent || null,
          race: JSON.parse(globalThis.kosynkaPyodide.runPython(py))}; }"""


def room_state(seat: Seat) -> dict | str:
    """Where a player's room stands (for a failure's message)."""
    try:
        return seat.page.evaluate(_ROOM, _RACE_PY)
    except Exception as e:  # the page itself is broken: say so
        return f"unreadable: {e}"
