"""The race in the browser without a mouse or sight and in the hand (issues 11 and
13): axe-core finds no serious or critical violation on the lobby, the join
screen, the reply link, the race table and the results; the race's events are
said in the live region in the player's language; every race screen fits a
phone upright (360×640) and on its side (640×360) and a desktop (1280×800), in
the light and the dark theme, with tap targets of 44 px and no text cut off.
Screenshots go to ``KOSYNKA_SCREENS`` (default: the test's tmp dir) to be looked
at."""
from __future__ import annotations

import json

import pytest
from racekit import (
    hand_over,
    host_table,
    invite_link,
    join,
    open_page,
    play,
    ready,
    resign,
    start,
    wait_race,
)
from test_a11y import _axe
from test_a11y_screens import shots  # noqa: F401 (a fixture)

# long names and the longest words of the three languages: what a phone must fit
NAMES = ("Олександра-Марія", "Костянтин Вишневецький", "Ярослава", "Святослав")


def sized(new_context, kind: str, **options):
    """``new_context`` as ``racekit.open_page`` calls it, for a given screen."""
    return lambda _kind, **kw: new_context(kind, **kw, **options)


def _overflow(page, root: str) -> list:
    """Controls under ``root`` too small to tap (under 44 px high) or not inside
    the viewport, and text cut off (an element whose text is wider than it is,
    ellipsis aside)."""
    return page.evaluate("""root => {
        const out = [];
        for (const el of document.querySelectorAll(root + ' button, ' + root + ' input, ' + root + ' summary')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || el.closest('[hidden]')) continue;
            if (r.height < 43.5 || r.width < 43.5) out.push('small ' + (el.dataset.action || el.textContent) + ' ' + r.width + 'x' + r.height);
            if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push('outside ' + (el.dataset.action || el.textContent));
        }
        for (const el of document.querySelectorAll(root + ' *')) {
            if (el.closest('[hidden]') || !el.offsetParent) continue;
            const s = getComputedStyle(el);
            if (s.textOverflow === 'ellipsis' || el.closest('.link, .sr-only')) continue;
            if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== 'visible' && s.overflowX !== 'auto')
                out.push('cut ' + el.tagName + '.' + el.className + ' ' + el.textContent.slice(0, 30));
        }
        if (document.scrollingElement.scrollWidth > innerWidth + 0.5) out.push('page scrolls sideways');
        return out;
    }""", root)


# (context kind, viewport, colour scheme, locale, friends at the table)
SCREENS = [("phone", (360, 640), "dark", "uk-UA", 1), ("phone", (640, 360), "light", "ru-RU", 3),
           ("desktop", (1280, 800), "dark", "en-US", 1), ("phone", (360, 640), "light", "ru-RU", 3)]


def focus_in(seat, selector: str) -> None:
    """The keyboard's focus is inside ``selector`` (moved there by the page)."""
    seat.page.wait_for_function("s => document.querySelector(s).contains(document.activeElement)", arg=selector)


@pytest.mark.parametrize("kind,size,scheme,locale,friends", SCREENS,
                         ids=[f"{s[0]}x{s[1]}-{c}-{n + 1}p" for _, s, c, _, n in SCREENS])
def test_race_screens_fit_and_pass_axe(new_context, base_url, shots, kind, size, scheme, locale, friends):  # noqa: F811
    make = sized(new_context, kind, viewport={"width": size[0], "height": size[1]},
                 color_scheme=scheme, locale=locale)
    tag = f"{size[0]}x{size[1]}-{scheme}-{friends + 1}p"
    host = host_table(make, base_url, NAMES[0])
    friend = open_page(make, base_url, NAMES[1])
    others = [open_page(make, base_url, name) for name in NAMES[2:friends + 1]]
    found = {}
    # a race sheet is a dialog that takes the focus; the solo page behind is inert
    focus_in(host, "#race")
    assert host.page.evaluate("['bar', 'table', 'panel'].every(id => document.getElementById(id).inert)")

    def look(seat, name, root):
        seat.page.screenshot(path=str(shots / f"race-{name}-{tag}.png"))
        found[name] = {"axe": _axe(seat.page), "fit": _overflow(seat.page, root)}

    url = invite_link(host)
    look(host, "invite", "#race")
    friend.page.goto(url[:-12])  # a link cut short in a messenger: a clear message
    friend.page.wait_for_selector("#race [data-linkerror]")
    look(friend, "bad-link", "#race")
    friend.page.goto(url)
    friend.page.wait_for_selector("#race [data-action=join]")
    look(friend, "join", "#race")
    friend.page.click("#race [data-action=join]")
    reply = friend.page.locator("#race [data-reply-link]").text_content(timeout=20_000)
    look(friend, "reply", "#race")
    assert hand_over(host, reply) == "ok"
    host.page.wait_for_selector("#race li[data-pid='1']")
    ready(friend)
    for pid, other in enumerate(others, 2):
        join(host, other, pid=pid)
        ready(other)
    look(host, "lobby", "#race")
    look(friend, "lobby-friend", "#race")
    start(host, [friend, *others])
    focus_in(host, "#race-table")
    play(friend, ["D", "D"])
    host.page.wait_for_selector("[data-opponent][data-pid='1'][data-moves='2']")
    friend.page.click("#race-screen [data-action=offer-draw]")
    host.page.wait_for_selector("#race-screen [data-action=accept-draw]")
    look(host, "table", "#race-screen")
    host.page.click("#race-screen [data-action=decline-draw]")
    # a confirmation covers the race too, and closing it puts the solo page back under the race
    inert = "ids => ids.map(id => document.getElementById(id).inert)"
    behind = ["race-screen", "bar", "table", "panel"]
    host.page.click("#race-screen [data-action=resign]")
    host.page.wait_for_selector("#sheet [data-action=cancel]")
    assert host.page.evaluate(inert, behind) == [True] * 4
    host.page.click("#sheet [data-action=cancel]")
    assert host.page.evaluate(inert, behind) == [False, True, True, True]
    for seat in (friend, *others):
        resign(seat)
    wait_race(host, "won")
    wait_race(friend, "lost")
    host.page.wait_for_selector("#race-results [data-mini-pid]")
    look(host, "results", "#race-results")
    look(friend, "results-friend", "#race-results")
    focus_in(host, "#race-results")
    assert found == {k: {"axe": [], "fit": []} for k in found}, json.dumps(found, indent=1, ensure_ascii=False)
    assert all(s.page.errors == [] for s in (host, friend, *others))


# ------------------------------------------------------------ the live region

SAID = """addEventListener('DOMContentLoaded', () => {
    window.kosynkaSaid = [];
    const live = document.getElementById('live');
    new MutationObserver(() => { const t = live.textContent.trim(); if (t) window.kosynkaSaid.push(t); })
        .observe(live, {childList: true, characterData: true, subtree: true});
});"""


def listening(new_context):
    """``new_context`` whose pages keep everything said in ``#live`` (``kosynkaSaid``)."""
    def make(kind, **kw):
        ctx = new_context(kind, **kw, locale="en-US")
        ctx.add_init_script(SAID)
        return ctx
    return make


def hears(seat, text: str) -> None:
    try:
        seat.page.wait_for_function("t => window.kosynkaSaid.some(s => s.includes(t))", arg=text)
    except Exception:
        pytest.fail(f"{seat.name} did not hear {text!r}; heard {seat.page.evaluate('window.kosynkaSaid')}")


def test_race_events_are_said_in_the_live_region(new_context, base_url):
    """Issue 13 item 2 for the race (the words from the table's events, issue 18):
    joining, Ready, the settings, the Start with the deal, a draw offered and
    refused (by whom), a connection lost and back, a
    resignation and the end with the places; then a timed race's last minute and
    its end in a draw. An opponent's moves are not said."""
    make = listening(new_context)
    host = host_table(make, base_url, "Anna")
    friend = open_page(make, base_url, "Bohdan")
    join(host, friend, pid=1)
    hears(host, "Bohdan joined the table.")
    ready(friend)
    hears(host, "Bohdan is ready.")
    start(host, [friend])
    for s in (host, friend):
        hears(s, "Go! A new verified deal, one card, to the last card.")
    # the friend draws twice with the keyboard (the race table has the focus):
    # their own draws are said to them, an opponent's moves are not said to the host
    heard = len(host.page.evaluate("kosynkaSaid"))
    friend.page.wait_for_function("document.getElementById('race-table').contains(document.activeElement)")
    friend.page.keyboard.press("d")
    friend.page.keyboard.press("d")
    host.page.wait_for_selector("[data-opponent][data-pid='1'][data-moves='2']")
    hears(friend, "Drew: ")
    assert len(host.page.evaluate("kosynkaSaid")) == heard
    friend.page.click("#race-screen [data-action=offer-draw]")
    hears(friend, "Draw offered; waiting for the answers.")
    hears(host, "Bohdan offers a draw.")
    host.page.click("#race-screen [data-action=decline-draw]")
    hears(friend, "Anna declined the draw.")       # who declined (issue 18)
    hears(host, "You declined the draw.")
    # a reload and a way back (N9)
    friend.page.reload()
    friend.page.wait_for_selector("#race [data-way-back]")
    hears(host, "Bohdan: connection lost.")
    join(host, friend)
    hears(host, "Bohdan is back.")
    resign(friend)
    hears(host, "Bohdan resigned. Everyone else is out: Anna wins. You won! Your place: 1 of 2.")
    hears(friend, "Everyone else is out: Anna wins. You lost. Your place: 2 of 2.")
    # a timed race (sped up): its settings, its last minute, its end by the clock
    host.page.click("#race-results [data-action=change-settings]")
    host.page.click("#race [data-set=minutes][data-value='5']")
    hears(friend, "Settings: one card, 5 minutes.")
    ready(friend)
    host.page.evaluate("localStorage.setItem('kosynka.race.test_speed', '60')")
    start(host, [friend])
    hears(host, "One minute left.")  # (the friend's clock is not sped up: the test hook is the host's)
    for s in (host, friend):
        hears(s, "Time is up. A draw: ")           # how it ended (issue 18)
        hears(s, "A draw. Your place: 1 of 2.")
    assert host.page.errors == [] and friend.page.errors == []


def test_the_race_table_names_cards_and_piles_in_the_page_language(new_context, base_url):
    """The race table reads as the solo table does (issue 13 item 2), in the
    page's language: a Russian page names its piles in Russian."""
    make = sized(new_context, "phone", locale="ru-RU")
    host = host_table(make, base_url, "Анна")
    friend = open_page(make, base_url, "Богдан")
    join(host, friend, pid=1)
    ready(friend)
    start(host, [friend])
    for seat in (host, friend):
        assert seat.page.get_attribute("#race-table [data-pile=stock]", "aria-label") == "Колода: 24 карты"
        assert seat.page.get_attribute("#race-table", "aria-label").startswith("Стол: ")
        names = seat.page.evaluate("[...document.querySelectorAll('#race-table [data-pile]')].map(p => p.getAttribute('aria-label'))")
        assert any(n.startswith("Столбец 7: ") for n in names), names
