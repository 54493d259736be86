"""Race friends anywhere, through a real Nostr relay on loopback (issue 19 items 1, 2,
5–8; SPEC N1, N3, N9, O4): the host's page shows one table link; four players —
Chromium contexts with mDNS left on, as a player's browser has it — join by that
link and finish a race; a friend who reopens the link in a new tab is the same
seat; with no relay answering, the lobby picks the links-only way by itself.

The relay is ``python3 -m tools.relay`` (the PyPI ``nostr-relay``); every page is
pointed at it through ``localStorage["kosynka.race.relays"]`` and asks no STUN
server (``kosynka.race.ice`` = ``[]``): nothing leaves the machine."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from conftest import BOOT_SCRIPT, CHROMIUM, DESKTOP, PHONE, _same_origin, wait_ready
from gamekit import NO_BOOT_EXTRAS
from racekit import (
    Seat,
    hand_over,
    invite_link,
    join_table,
    line,
    link_way,
    play,
    ready,
    relay_events,
    room_state,
    start,
    table_link,
    wait_race,
)

from tools import relay as relay_tool
from tools.chromium import chromium_args
from web.race import signal

SHOTS = Path(__file__).resolve().parent / "shots"
SHOTS.mkdir(exist_ok=True)
# a player's browser: Chromium's mDNS host names left on (the shared browser hides them)
MDNS_ON = chromium_args(mdns=True)


@pytest.fixture(scope="module")
def relay():
    r = relay_tool.start()
    yield r.url
    r.stop()


@pytest.fixture(scope="module")
def mdns_browser(playwright_instance):
    b = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True, args=MDNS_ON)
    yield b
    b.close()


@pytest.fixture
def players(mdns_browser, server, relay):
    """``make(name, relays=None)``: a booted phone page of a player whose race
    settings point at the test relay (or ``relays``) with no ICE server."""
    made = []

    def make(name: str, relays: list[str] | None = None, relay_only: bool = False,
             webrtc: bool = True) -> Seat:
        ctx = mdns_browser.new_context(**PHONE)
        ctx.foreign = []
        ctx.on("request", lambda req: ctx.foreign.append(req.url)
               if not _same_origin(req.url, {server.origin}) else None)
        ctx.add_init_script(BOOT_SCRIPT % json.dumps(NO_BOOT_EXTRAS))
        ctx.add_init_script(
            "localStorage.setItem('kosynka.race.relays', %s);"
            "localStorage.setItem('kosynka.race.ice', '[]');"
            "localStorage.setItem('kosynka.race.name', %s);"
            % (json.dumps(json.dumps(relays or [relay])), json.dumps(name))
            # a page that makes no direct connection: it races through the relays
            + ("localStorage.setItem('kosynka.race.test_relay_only', '1');" if relay_only else ""))
        if not webrtc:     # a browser without WebRTC (a privacy setting, a build without it)
            ctx.add_init_script("delete window.RTCPeerConnection; delete window.webkitRTCPeerConnection;")
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(server.url)
        wait_ready(page)
        made.append(ctx)
        return Seat(name, ctx, page)

    yield make
    foreign = [u for ctx in made for u in ctx.foreign]
    for ctx in made:
        ctx.close()
    assert not foreign, f"requests to other origins (O3): {foreign[:10]}"


def open_lobby(seat: Seat) -> None:
    seat.page.click("[data-action=settings]")
    seat.page.click("#sheet [data-action=race]")
    seat.page.wait_for_selector("#race li[data-pid='0']")


def shots(seat: Seat, name: str) -> None:
    """The screen at 360×640 and at 1280×800 (looked at by the helper, issue 19)."""
    seat.page.screenshot(path=str(SHOTS / f"race-net-{name}-360x640.png"))
    seat.page.set_viewport_size(DESKTOP["viewport"])
    seat.page.screenshot(path=str(SHOTS / f"race-net-{name}-1280x800.png"))
    seat.page.set_viewport_size(PHONE["viewport"])


def test_four_players_one_link_a_new_tab_and_a_race(players):
    """Items 1, 5–8: one table link (no SDP, no reply link), three friends seated by
    Join alone; a friend reopening the link in a new tab is the same seat and the old
    tab steps aside; the four race to the last card and every page agrees."""
    host = players("Anna")
    open_lobby(host)
    url = table_link(host)
    qr = int(host.page.get_attribute("#race .qrbox", "data-qr-version"))
    assert isinstance(signal.parse_link(url), signal.Table)
    assert host.page.locator("#race [data-action=invite]").count() == 0   # not the links-only way
    print(f"\nFIGURE table link {len(url)} chars ({len(url) - len(host.page.url.split('#')[0])}"
          f" after the app address), QR version {qr}")
    shots(host, "lobby")
    host.page.click("#race details.net summary")     # what is asked of whom, in words
    host.page.locator("#race details.net").scroll_into_view_if_needed()
    said = host.page.text_content("#race details.net")
    assert "127.0.0.1" in said                     # the relay in use is named (ice = [] here:
    assert host.page.get_attribute("#race [data-field=net]", "aria-label")  # same Wi-Fi only)
    shots(host, "connection")
    host.page.click("#race details.net summary")
    # Vira's page makes no direct connection (as behind a symmetric NAT with no TURN):
    # her game goes through the relay, end-to-end encrypted (issue 30 item 1)
    friends = [players(n, relay_only=n == "Vira") for n in ("Bohdan", "Vira", "Hanna")]
    times = []
    for pid, f in enumerate(friends, 1):
        if pid == 1:
            f.page.goto(url)
            f.page.wait_for_selector("#race [data-action=join]")
            assert "Anna" in f.page.text_content("#race h2")
            shots(f, "join")
        times.append(join_table(f, url, pid))
        host.page.wait_for_selector(f"#race li[data-pid='{pid}'][data-connected=yes]"
                                    f"[data-way={'relay' if f.name == 'Vira' else 'direct'}]")
    # each friend's page told the host's it was joining, through the relay (issue 30 item 3)
    # (a friend seated directly may be seated before its word arrives)
    host.page.wait_for_function(
        "() => globalThis.kosynkaPyodide.runPython('import json; json.dumps(sorted(n for n, _ in"
        " app.race.net.room.knocks.values()), separators=(\",\", \":\"))')"
        " === JSON.stringify(['Bohdan', 'Hanna', 'Vira'])")
    print(f"FIGURE Join → seated over the relay path: {', '.join(f'{t:.2f}' for t in times)} s"
          f" (Vira's through the relay)")

    # the first friend's messenger opens the link again, in a new tab: the same seat
    old = friends[0]
    tab = old.ctx.new_page()
    tab.errors = []
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.goto(url)
    try:
        tab.wait_for_selector("#race li[data-you][data-pid='1']", state="attached", timeout=90_000)
    except Exception as e:
        raise AssertionError(f"the new tab is not back at its seat: new tab {room_state(Seat(old.name, old.ctx, tab))},"
                             f" old tab {room_state(old)}, host {room_state(host)}") from e
    old.page.wait_for_selector("#race [data-other-tab]")
    assert host.page.locator("#race li[data-pid]").count() == 4
    old.page.close()
    friends[0] = Seat(old.name, old.ctx, tab)
    host.page.wait_for_selector("#race li[data-pid='1'][data-connected=yes]")

    for f in friends:
        ready(f)
    deal = start(host, friends)
    sent0, t0 = relay_events(host), time.perf_counter()
    play(friends[1], ["D", "D"])          # through the relay
    host.page.wait_for_selector("[data-opponent][data-pid='2'][data-moves='2']")
    assert link_way(friends[1]) == "relay" and link_way(friends[0]) == "direct"
    # each screen says which way is in use (issue 30 item 2)
    host.page.wait_for_selector("[data-opponent][data-pid='2'][data-way=relay]")
    host.page.wait_for_selector("[data-opponent][data-pid='1'][data-way=direct]")
    friends[1].page.wait_for_selector("[data-opponent][data-pid='0'][data-way=relay]")
    friends[1].page.screenshot(path=str(SHOTS / "race-net-through-relays-360x640.png"))
    play(host, line(deal))
    wait_race(host, "won")
    for f in friends:
        wait_race(f, "lost")
    rate = (relay_events(host) - sent0) / (time.perf_counter() - t0)
    print(f"FIGURE a four-player race, the host's relay events to the one friend through the relay:"
          f" {rate:.1f}/s (the host playing its whole line)")
    assert rate <= 4.5, rate
    for s in (host, *friends):
        s.page.wait_for_selector("#race-results tr[data-pid='0'][data-result=won][data-place='1']")
        assert s.page.locator("#race-results tr[data-pid]").count() == 4
        assert s.page.errors == [], s.page.errors


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_relay_answers_the_links_only_way(players):
    """Item 2: with no relay answering (here: nothing listens where the setting
    points), the lobby says so and offers the invite/reply links by itself; a friend
    is seated that way (Join → seated includes the hand-over of the reply)."""
    dead = [f"ws://127.0.0.1:{_closed_port()}"]
    host = players("Anna", relays=dead)
    t0 = time.perf_counter()
    open_lobby(host)
    host.page.wait_for_selector("#race[data-way=links] [data-action=invite]")
    print(f"\nFIGURE no relay → links-only way offered in {time.perf_counter() - t0:.1f} s")
    assert host.page.locator("#race [data-table-link]").count() == 0
    friend = players("Bohdan", relays=dead)
    url = invite_link(host)
    friend.page.goto(url)
    friend.page.click("#race [data-action=join]")
    t0 = time.perf_counter()
    reply = friend.page.locator("#race [data-reply-link]").text_content(timeout=20_000)
    assert hand_over(host, reply) == "ok"
    friend.page.wait_for_selector("#race li[data-you][data-pid='1']", state="attached")
    print(f"FIGURE Join → seated over the links-only path (reply handed over in a new tab): "
          f"{time.perf_counter() - t0:.2f} s")


SELF_ID = "import('@trystero-p2p/core').then((m) => m.selfId)"   # the page's Trystero peer id


def test_a_friend_who_opens_the_link_a_minute_later_is_seated(players):
    """Item 1 and N3: a friend opens the table link a minute after the host made it
    (a messenger read later) and is seated. Trystero's peer ids decide which page
    offers (the lesser id); here the host's page does (pages are opened anew until
    its id is the lesser), and its ready offers are then over a minute old — which it
    restarted with no address in them, so the friend was never seated."""
    host, friend = players("Anna"), players("Bohdan")
    for _ in range(12):                # each reload draws a new id: the high one goes
        h, f = host.page.evaluate(SELF_ID), friend.page.evaluate(SELF_ID)
        if h < f:
            break
        seat = host if h > "V" else friend         # ids are [0-9A-Za-z]: V is mid-way
        seat.page.reload()
        wait_ready(seat.page)
    assert host.page.evaluate(SELF_ID) < friend.page.evaluate(SELF_ID)  # the host offers
    open_lobby(host)
    url = table_link(host)
    _without_webrtc(players, host, url)       # (meanwhile: it makes no direct connection)
    # a minute later for the host's page: Trystero ages its ready offers by Date.now()
    # (an offer older than 57 s is restarted), so the page's clock moves on a minute
    # rather than the test sleeping one
    host.page.evaluate("ms => { const now = Date.now; Date.now = () => now() + ms; }", 62_000)
    took = join_table(friend, url, 2, timeout=45_000)
    print(f"\nFIGURE Join a minute after the table opened, the host offering: seated in {took:.2f} s")
    assert link_way(friend) == "direct"     # (not by the relays' fall-back, 4 s on)


def _without_webrtc(players, host: Seat, url: str) -> None:
    """Issue 30 item 8: a browser without ``RTCPeerConnection`` opens the table link:
    nothing throws, it says it cannot connect directly, it is seated through the
    relay; Leave returns it to a whole solo table, where a move is made."""
    oleh = players("Oleh", webrtc=False)
    p = oleh.page
    p.goto(url)
    p.wait_for_selector("#race [data-no-webrtc]")
    p.screenshot(path=str(SHOTS / "race-net-no-webrtc-360x640.png"))
    p.click("#race [data-action=join]")
    t0 = time.perf_counter()
    p.wait_for_selector("#race li[data-you][data-pid='1']", state="attached")
    print(f"\nFIGURE without WebRTC: Join → seated through the relay {time.perf_counter() - t0:.2f} s")
    host.page.wait_for_selector("#race li[data-pid='1'][data-connected=yes]")
    p.click("#race [data-action=leave]")
    host.page.wait_for_selector("#race li[data-pid='1']", state="detached")   # said (N12)
    p.wait_for_selector("#race", state="hidden")
    box = p.locator("#table").bounding_box()
    assert box and box["height"] > 300, box              # the solo table is whole
    p.locator('[data-pile="stock"]').click(position={"x": 8, "y": 6})
    p.wait_for_function("document.getElementById('moves').textContent === '1'")
    assert p.errors == [], p.errors
