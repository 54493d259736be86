"""The race's screens explain themselves (issue 18 item 3; SPEC N2–N11), on a
phone upright in Ukrainian (360×640) and on a desktop in English (1280×800), with
four players and a late spectator.

One table per screen size, shared by the tests of this module, which run in
order as one evening at the table (each test goes on from where the previous
one left it): the Race control on the table's panel opens a table; the reply
link shows whole; an invite used before, or out of date, says so at once and
changes nothing; the host removes a stranger who blocks the Start; an invite
left open never covers the race at Start or at Again; the counters have words a
phone shows; "Vira declined the draw" to everyone; "you resigned — the race
goes on without you" with the others' counters live; a spectator comes in by
the race menu's Invite; the results say how the race ended and why each place;
Change settings frees the seat of a player who dropped. Screenshots go to
``KOSYNKA_SCREENS`` (default: tests/e2e/shots) to be looked at."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from conftest import BOOT_SCRIPT, DESKTOP, PHONE, _same_origin
from gamekit import NO_BOOT_EXTRAS
from racekit import (
    Seat,
    hand_over,
    invite_link,
    join,
    open_page,
    play,
    ready,
    resign,
    start,
    wait_race,
)

from web.race import signal

SHOTS = Path(os.environ.get("KOSYNKA_SCREENS") or Path(__file__).parent / "shots")
SHOTS.mkdir(parents=True, exist_ok=True)

SIZES = {
    "360x640-uk": ("phone", (360, 640), "uk-UA", ("Анна", "Богдан", "Віра", "Ганна", "Дмитро")),
    "1280x800-en": ("desktop", (1280, 800), "en-US", ("Anna", "Bohdan", "Vira", "Hanna", "Dmytro")),
}
SPEED = 15   # the first race's clock runs 15×: 5 minutes in 20 s (its tests take ~5 s)


@dataclasses.dataclass
class Evening:
    tag: str
    host: Seat
    bohdan: Seat
    vira: Seat
    hanna: Seat
    dmytro: Seat
    invite: str = ""     # an invite Bohdan answered
    deal: int = 0


@pytest.fixture(scope="module", params=list(SIZES))
def evening(request, browser, server, vendored):
    kind, (w, h), locale, names = SIZES[request.param]
    contexts, foreign = [], []

    def make(_kind="phone", *, boot=None, **options):
        opts = dict(PHONE if kind == "phone" else DESKTOP, viewport={"width": w, "height": h},
                    locale=locale)
        ctx = browser.new_context(**opts, **options)
        ctx.on("request", lambda req: foreign.append(req.url)
               if not _same_origin(req.url, {server.origin}) else None)
        ctx.add_init_script(BOOT_SCRIPT % json.dumps(boot or NO_BOOT_EXTRAS))
        contexts.append(ctx)
        return ctx

    seats = [open_page(make, server.url, name) for name in names]
    yield Evening(request.param, *seats)
    errors = {s.name: s.page.errors for s in seats if not s.page.is_closed() and s.page.errors}
    for ctx in contexts:
        ctx.close()
    assert not foreign, f"requests to other origins (O3): {foreign[:10]}"
    assert not errors, errors


def shot(seat: Seat, name: str, tag: str) -> None:
    seat.page.screenshot(path=str(SHOTS / f"race-{name}-{tag}.png"))


def in_sight(seat: Seat, selector: str) -> dict:
    """Where ``selector`` is: shown, inside the viewport, its text not cut."""
    return seat.page.evaluate("""s => {
        const el = document.querySelector(s);
        if (!el) return {found: false};
        const r = el.getBoundingClientRect();
        return {found: true, shown: r.width > 0 && r.height > 0 && !el.closest('[hidden]'),
                inside: r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
                        && r.bottom <= innerHeight + 0.5,
                cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
                text: el.textContent};
    }""", selector)


def cut(seat: Seat, root: str) -> list[str]:
    """Words cut off under ``root``: a button's label wider than the button, a
    name squeezed to a column of letters."""
    return seat.page.evaluate("""root => {
        const out = [];
        for (const b of document.querySelectorAll(root + ' button')) {
            if (b.closest('[hidden]') || !b.offsetParent) continue;
            if (b.scrollWidth > b.clientWidth + 1) out.push('button ' + b.textContent);
        }
        for (const w of document.querySelectorAll(root + ' .seats .who'))
            if (w.getBoundingClientRect().width < 48) out.push('name ' + w.textContent);
        return out;
    }""", root)


def up_from(deal: int, done: list[str]) -> list[str]:
    """Moves after ``done`` that put a card on a foundation (the solver's line)."""
    from kosynka.game import Game
    from kosynka.position import Rules
    from kosynka.solver import solve
    g = Game.new(deal, Rules(1, None))
    for m in done:
        g.play(m)
    out = []
    for m in solve(g.position).moves:
        out.append(m)
        if m.endswith(">F"):
            return out
    raise AssertionError("no card goes up")


def tap_stock(seat: Seat) -> None:
    seat.page.click("#race-table [data-pile=stock]", position={"x": 8, "y": 6})


def moves(seat: Seat) -> str:
    return seat.page.text_content("[data-my-moves]")


def news(seat: Seat, words: str) -> None:
    """``words`` are on ``seat``'s news line, in sight."""
    seat.page.wait_for_function(
        "w => { const n = document.querySelector('#race-screen [data-race-news]');"
        " return n && !n.hidden && n.textContent.includes(w); }", arg=words)
    assert in_sight(seat, "#race-screen [data-race-news]")["inside"]


# ---------------------------------------------------------------- the lobby
def test_the_race_control_on_the_tables_panel_opens_a_table(evening):
    host = evening.host
    shot(host, "panel", evening.tag)
    race = host.page.locator("#panel [data-action=race]")
    box = race.bounding_box()
    size = host.page.viewport_size
    assert box["width"] >= 44 and box["height"] >= 44
    assert 0 <= box["x"] and box["x"] + box["width"] <= size["width"] + 0.5
    race.click()
    host.page.wait_for_selector("#race li[data-pid='0']")
    assert host.page.evaluate("document.getElementById('dialog').hidden")   # no Settings sheet on the way


def whole_link(seat: Seat, attr: str) -> str:
    """The link in ``[attr]`` shows whole: no line of it cut off or under its QR code."""
    link = in_sight(seat, f"#race [{attr}]")
    under = seat.page.evaluate("""a => {
        const l = document.querySelector('#race [' + a + ']').getBoundingClientRect();
        const q = document.querySelector('#race [' + a + ']').closest('.linkbox').querySelector('.qrbox');
        if (!q) return false;
        const b = q.getBoundingClientRect();
        return l.left < b.right && b.left < l.right && l.top < b.bottom && b.top < l.bottom;
    }""", attr)
    assert link["shown"] and not link["cut"] and not under, link
    return link["text"]


def test_the_invite_and_the_reply_link_show_whole_above_their_qr_codes(evening):
    host, bohdan = evening.host, evening.bohdan
    evening.invite = url = invite_link(host)
    whole_link(host, "data-invite-link")
    bohdan.page.goto(url)
    bohdan.page.click("#race [data-action=join]")
    bohdan.page.wait_for_selector("#race [data-reply-link]", timeout=20_000)
    shot(bohdan, "reply", evening.tag)
    assert hand_over(host, whole_link(bohdan, "data-reply-link")) == "ok"
    bohdan.page.wait_for_selector("#race li[data-you][data-pid='1']", state="attached")


def test_a_used_or_stale_invite_says_so_at_once_and_changes_nothing(evening):
    host, bohdan, dmytro = evening.host, evening.bohdan, evening.dmytro
    bohdan.page.goto(evening.invite)            # his own invite again (a messenger's old message)
    bohdan.page.wait_for_selector("#toast.show")
    assert evening.bohdan.name in host.page.text_content("#race li[data-pid='1']")
    assert bohdan.page.locator("#race li[data-you][data-pid='1']").count() == 1
    used = json.loads(bohdan.page.evaluate("localStorage.getItem('kosynka.race.used')"))
    assert len(used) == 1
    # the same link in a fresh tab of his browser: said at once, no Join
    tab = bohdan.ctx.new_page()
    tab.goto(evening.invite)
    tab.wait_for_selector("#race [data-linkerror='link/used']", timeout=90_000)
    assert tab.locator("#race [data-action=join]").count() == 0
    assert evening.host.name in tab.text_content("#race [data-linkerror]")
    tab.close()
    # an invite a day old on a friend's phone: out of date, said at once
    old = dataclasses.replace(signal.parse_link(evening.invite),
                              issued=signal.parse_link(evening.invite).issued - signal.STALE_MINUTES - 1)
    dmytro.page.goto(signal.link(evening.invite.split("#")[0], old))
    dmytro.page.wait_for_selector("#race [data-linkerror='link/stale']")
    assert dmytro.page.locator("#race [data-action=join]").count() == 0
    dmytro.page.click("#race [data-action=leave]")


def test_the_host_removes_a_stranger_who_took_a_seat_and_blocks_the_start(evening):
    host, dmytro = evening.host, evening.dmytro
    join(host, evening.vira, pid=2)
    ready(evening.bohdan)
    ready(evening.vira)
    join(host, dmytro, pid=3)                   # never presses Ready
    assert host.page.locator("#race [data-action=start][disabled]").count() == 1
    remove = host.page.locator("#race li[data-pid='3'] [data-action=remove]")
    assert remove.get_attribute("aria-label").endswith(
        {"uk-UA": "з-за столу", "en-US": "from the table"}[host.page.evaluate("navigator.language")])
    remove.click()
    dmytro.page.wait_for_selector("#race [data-left]")
    host.page.wait_for_selector("#race [data-action=start]:not([disabled])")
    assert host.page.locator("#race li[data-pid='3']").count() == 0
    dmytro.page.click("#race [data-action=forget]")


# ---------------------------------------------------------------- the race
def test_an_invite_left_open_never_covers_the_race_at_start(evening):
    host = evening.host
    join(host, evening.hanna, pid=4)
    ready(evening.hanna)
    host.page.click("#race [data-set=minutes][data-value='5']")
    invite_link(host)                           # a link for someone else, left open
    host.page.evaluate(f"localStorage.setItem('kosynka.race.test_speed', '{SPEED}')")
    shot(host, "lobby", evening.tag)
    assert cut(host, "#race") == []
    host.page.click("#race [data-action=start]")
    wait_race(host, "running")
    assert host.page.evaluate("document.getElementById('race').hidden")
    tap_stock(host)                             # the host's tap reaches its own table
    host.page.wait_for_function("document.querySelector('[data-my-moves]').textContent === '1'")
    for s in (evening.bohdan, evening.vira, evening.hanna):
        wait_race(s, "running")
    evening.deal = int(host.page.get_attribute("#race-screen", "data-deal"))


def test_the_counters_have_words_a_phone_shows(evening):
    bohdan = evening.bohdan
    play(bohdan, up_from(evening.deal, []))      # the most cards on foundations, early
    bohdan.page.wait_for_selector("[data-opponent][data-pid='0'][data-moves='1']")
    legend = in_sight(bohdan, "#race-screen .legend")
    assert legend["shown"] and legend["inside"] and not legend["cut"], legend
    words = {"uk-UA": ("на базах", "відкритих", "ходів"), "en-US": ("foundations", "face up", "moves")}
    assert all(w in legend["text"] for w in words[bohdan.page.evaluate("navigator.language")])
    assert bohdan.page.locator("[data-opponent][title]").count() == 0      # no hover-only words


def test_a_declined_draw_is_told_to_everyone_with_who_declined(evening):
    bohdan, vira = evening.bohdan, evening.vira
    bohdan.page.click("#race-screen [data-action=offer-draw]")
    vira.page.wait_for_selector("#race-screen .race-offer:not([hidden])")
    offer, screen = vira.page.eval_on_selector(    # said once on the screen (issue 32 item 5)
        "#race-screen", "s => [s.querySelector('.race-offer span').textContent, s.innerText]")
    assert bohdan.name in offer and screen.count(offer) == 1, screen
    vira.page.click("#race-screen [data-action=decline-draw]")
    for s in (bohdan, evening.host, evening.hanna):
        news(s, vira.name)
    shot(bohdan, "declined", evening.tag)
    assert bohdan.page.locator("#race-screen .race-offer:not([hidden])").count() == 0


def test_one_who_resigned_is_told_the_race_goes_on_and_sees_the_counters_live(evening):
    hanna, vira = evening.hanna, evening.vira
    resign(hanna)
    wait_race(hanna, "out")
    out = in_sight(hanna, "#race-screen [data-out=resigned]")
    assert out["shown"] and out["inside"], out
    assert hanna.page.locator("#race-screen [data-action=resign][disabled]").count() == 1
    for s in (evening.host, evening.bohdan):
        news(s, hanna.name)
    play(vira, ["D", "D"])
    hanna.page.wait_for_selector("[data-opponent][data-pid='2'][data-moves='2']")
    shot(hanna, "out", evening.tag)


def test_a_spectator_comes_in_by_the_race_menus_invite(evening):
    host, dmytro = evening.host, evening.dmytro
    host.page.click("#race-screen [data-action=invite]")
    host.page.wait_for_selector("#race [data-invite-link]")
    url = host.page.text_content("#race [data-invite-link]")
    dmytro.page.goto(url)
    dmytro.page.click("#race [data-action=join]")
    reply = dmytro.page.locator("#race [data-reply-link]").text_content(timeout=20_000)
    assert hand_over(host, reply) == "ok"
    wait_race(dmytro, "watching")
    host.page.wait_for_function("document.getElementById('race').hidden")   # answered: the race on top
    assert dmytro.page.locator("[data-opponent]").count() == 4
    invite_link(host)         # another invite, left open over the race until it ends


def test_the_results_say_how_the_race_ended_and_why_each_place(evening):
    host, bohdan = evening.host, evening.bohdan
    wait_race(bohdan, "won", timeout=150_000)   # the clock ends the race (N6): foundations (N4)
    wait_race(host, "lost")
    ending = in_sight(host, "#race-results [data-end=time_up]")
    assert ending["shown"] and bohdan.name in ending["text"], ending
    why = {int(r.get_attribute("data-pid")): r.get_attribute("data-why")
           for r in host.page.locator("#race-results tr[data-pid]").all()}
    assert why == {1: "foundation", 0: "tie", 2: "tie", 4: "resigned"}, why   # draws turn no card
    said = host.page.text_content("#race-results tr[data-pid='4'] small")
    assert {"uk-UA": "здача партії", "en-US": "resigned"}[host.page.evaluate("navigator.language")] in said
    shot(host, "results", evening.tag)
    shot(bohdan, "results-winner", evening.tag)
    assert cut(host, "#race-results") == []


def test_again_with_an_invite_left_open_puts_the_race_on_top(evening):
    host = evening.host
    host.page.evaluate("localStorage.setItem('kosynka.race.test_speed', '1')")
    host.page.click("#race-results [data-action=again]")
    wait_race(host, "running")
    assert host.page.evaluate("document.getElementById('race').hidden")
    tap_stock(host)
    host.page.wait_for_function("document.querySelector('[data-my-moves]').textContent === '1'")


def test_change_settings_frees_the_seat_of_one_who_dropped(evening):
    host, vira = evening.host, evening.vira
    vira.page.close()                           # Vira's phone goes away (the grace runs, N9)
    host.page.wait_for_selector("[data-opponent][data-pid='2'][data-connected=no]")
    for s in (evening.bohdan, evening.hanna, host):
        resign(s)
    wait_race(host, "lost")                     # Vira, away, is the last one left
    host.page.click("#race-results [data-action=change-settings]")
    wait_race(host, "lobby")
    host.page.wait_for_selector("#race li[data-pid='2'][data-seat='']")     # away: no seat now
    host.page.wait_for_selector("#race li[data-pid='5']:not([data-seat=''])")   # Dmytro sits
    evening.dmytro.page.wait_for_selector("#race [data-action=ready]")
    shot(host, "lobby-after", evening.tag)
    assert cut(host, "#race") == []


# ---------------------------------------------------------------- leaving is said (issue 30, N12, N13)
def test_a_friends_leave_during_a_race_is_told_to_everyone_at_once(evening):
    """N12: Hanna taps Leave mid-race — she has resigned, and the host and Bohdan
    hear it at once (not 60 s later), her chip says she left; she is back at her
    solo table."""
    host, bohdan, hanna, dmytro = evening.host, evening.bohdan, evening.hanna, evening.dmytro
    for s in (bohdan, hanna, dmytro):
        ready(s)
    start(host, [bohdan, hanna, dmytro])
    pid = hanna.page.evaluate("globalThis.kosynkaPyodide.globals.get('app').race.control.player.pid")
    hanna.page.click("#race-screen [data-action=leave]")
    hanna.page.click("#sheet [data-action=confirm]")
    hanna.page.wait_for_selector("#race-screen", state="hidden")
    for s in (host, bohdan):
        s.page.wait_for_selector(f"[data-opponent][data-pid='{pid}'][data-left=yes][data-status=resigned]",
                                 timeout=10_000)
    news(bohdan, hanna.name)
    wait_race(bohdan, "running")                # the rest race on (N8)
    shot(bohdan, "a-friend-left", evening.tag)


def test_a_friends_leave_after_a_race_frees_the_seat_and_again_deals_without_them(evening):
    """N12: after the race Dmytro taps Leave on the results; Again deals the host
    and Bohdan only."""
    host, bohdan, dmytro = evening.host, evening.bohdan, evening.dmytro
    resign(bohdan)
    resign(host)
    wait_race(dmytro, "won")                    # the last one left (N8)
    dmytro.page.click("#race-results [data-action=leave]")
    dmytro.page.wait_for_selector("#race-results", state="hidden")
    host.page.wait_for_selector("#race-results [data-action=again]")
    host.page.click("#race-results [data-action=again]")
    for s in (host, bohdan):
        wait_race(s, "running")
    assert [int(x) for x in host.page.eval_on_selector_all(
        "[data-opponent]", "els => els.map(e => e.dataset.pid)")] == [1]
    assert dmytro.page.evaluate("document.body.dataset.race") in (None, "")


def test_the_hosts_tab_closed_mid_race_ends_the_race_for_every_friend_at_once(evening):
    """N13: the host's page closes (pagehide) mid-race: Bohdan is told at once that
    the table is closed, and the race ends on his screen with no result."""
    host, bohdan = evening.host, evening.bohdan
    tap_stock(bohdan)
    host.page.wait_for_selector("[data-opponent][data-pid='1'][data-moves='1']")
    host.page.on("dialog", lambda d: d.accept())   # "leave the page?" — yes
    host.page.close(run_before_unload=True)
    bohdan.page.wait_for_selector("#race-screen .race-note[data-race-ended=closed]:not([hidden])",
                                  timeout=10_000)
    assert host.name in bohdan.page.text_content("#race-screen .race-note[data-race-ended]")
    assert bohdan.page.is_disabled("#race-screen [data-action=resign]")
    tap_stock(bohdan)                            # the race is over here: nothing moves
    assert moves(bohdan) == "1"
    shot(bohdan, "host-closed", evening.tag)
