"""The race's screens as HTML from real views (``web.race.lobby``,
``web.race.strip``, ``web.race.results``; issue 28 item 1): what each shows,
the DOM contract the e2e tests rely on, and every peer text as text."""

from __future__ import annotations

import re
from html import unescape

import pytest

from kosynka.race import Host, Player
from kosynka.race.memory import Network
from web.race import lobby, news, results, strip
from web.race.markup import Html, el
from web.race.signal import CodeError, Table

EVIL = "<b>Bo&ris</b>"


@pytest.fixture
def table():
    """Anna hosts; a friend with a name that is markup sits; the views."""
    net = Network(seed=3)
    host = Host("Anna", net.clock, seed=3)
    anna = host.own_player()
    a, b = net.pair("b")
    host.attach(a)
    boris = Player(EVIL, net.clock)
    boris.connect(b)
    net.run()
    return net, host, anna, boris


def attrs(html: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}\b[^>]*>", html)


def test_el_writes_text_as_text_and_attributes_as_setattribute_would():
    assert el("p", {"a": True, "b": False, "c": None, "d": 3}, "x<y") == '<p a="" d="3">x&lt;y</p>'
    assert el("input", {"value": '"q"'}) == '<input value="&quot;q&quot;">'
    assert el("div", None, Html("<i>ok</i>"), None, "&") == "<div><i>ok</i>&amp;</div>"


def test_the_hosts_lobby(table):
    net, host, anna, boris = table
    html = lobby.lobby("en", anna.view, 0xC0FFEE01, "Anna", None,
                       lobby.ways("en", "relay", "http://x/#table=abc", True, [], False, Html("<net>")))
    seats = attrs(html, "li")
    assert 'data-pid="0"' in seats[0] and 'data-you=""' in seats[0] and 'data-ready="no"' in seats[0]
    assert 'data-pid="1"' in seats[1] and 'data-seat="1"' in seats[1] and "data-you" not in seats[1]
    assert EVIL not in html and "&lt;b&gt;Bo&amp;ris&lt;/b&gt;" in html
    assert 'data-table-link=""' in html and 'data-action="share-link"' in html
    assert '<h2 id="race-title">' in html and lobby.table_label(0xC0FFEE01) in html
    start = next(b for b in attrs(html, "button") if 'data-action="start"' in b)
    assert "disabled" in start                         # nobody Ready yet (N3)
    assert 'data-action="remove"' in html and 'data-set="draw"' in html
    assert lobby.lobby_state(anna.view) == "lobby"


def test_a_friends_lobby_and_ready(table):
    net, host, anna, boris = table
    html = lobby.lobby("en", boris.view, 1, "", ("lost", "Connection lost"), None)
    ready = next(b for b in attrs(html, "button") if 'data-action="ready"' in b)
    assert 'aria-pressed="false"' in ready and 'data-set="draw"' not in html
    assert 'data-race-note="lost"' in html and 'data-action="remove"' not in html
    boris.set_ready(True)
    net.run()
    html = lobby.lobby("en", boris.view, 1, "", None, None)
    assert 'aria-pressed="true"' in next(b for b in attrs(html, "button") if 'data-action="ready"' in b)


def test_the_hosts_ways(table):
    assert 'data-way-text="wait"' in lobby.ways("en", "wait", None, False, [], False, Html(""))
    links = lobby.ways("en", "links", None, False, ["http://x/#race=abc"], True, Html(""))
    assert 'data-invite-link=""' in links and "data-no-addresses" in links
    assert 'data-action="paste-reply"' in links and "share-link" not in links


def test_the_connection_section():
    servers = [{"urls": "stun:stun.example.org:3478"},
               {"urls": "turn:t.example.org:3478", "username": "u", "credential": "p"}]
    html = lobby.connection("en", servers, ["wss://relay.example.org"], True, None, "ice/url", None)
    assert "stun.example.org" in html and "relay.example.org" in html
    assert 'data-ice-error="ice/url"' in html and "<details" in html and " open=" in html
    assert 'value="turn:t.example.org:3478"' in html and 'data-field="net"' in html
    friend = lobby.connection("en", [], [], False, ("turn:x", "me", "pw"), None, None)
    assert 'value="turn:x"' in friend and 'data-field="net"' not in friend and " open=" not in friend


def test_a_friends_join_by_table_link():
    t = Table(1, bytes(16), "A" * 20, 3, 5, 0, EVIL, (), ())
    name = lobby.table_join("en", t, "Vira", "name", None, Html("<net>"))
    assert 'data-action="join"' in name and 'value="Vira"' in name and EVIL not in name
    assert 'data-conn="joining"' in lobby.table_join("en", t, "", "joining", None, Html(""))
    assert 'data-action="retry"' in lobby.table_join("en", t, "", "unreachable", None, Html(""))
    refused = lobby.table_join("en", t, "", "refused", "update Kosynka", Html(""))
    assert 'data-conn="refused"' in refused and "update Kosynka" in refused


def test_the_short_sheets():
    err = lobby.error_sheet("en", CodeError("link/corrupt", ""), "invite")
    assert 'data-linkerror="link/corrupt"' in err and 'data-action="leave"' in err
    assert 'data-way-back=""' in lobby.way_back_sheet("en", EVIL)
    assert 'data-other-tab=""' in lobby.other_tab_sheet("en")
    assert 'data-left=""' in lobby.removed_sheet("en")
    assert 'data-linkerror="link/stale"' in lobby.handover_sheet("en", "link/stale")


def race(table):
    net, host, anna, boris = table
    boris.set_ready(True)
    net.run()
    anna.set_settings(1, 5)
    anna.start()
    net.run()
    boris.play("D")
    net.run()
    return net, host, anna, boris


def test_the_strip_offer_and_panel(table):
    net, host, anna, boris = race(table)
    v = anna.view
    html = strip.strip("en", v, strip.outcome(v), 0.0, "5:00", anna.game.moves)
    chip = attrs(html, "li")
    assert len(chip) == 1 and 'data-pid="1"' in chip[0] and 'data-moves="1"' in chip[0]
    assert 'data-race-clock=""' in html and "5:00" in html and EVIL not in html
    assert strip.outcome(v) == "running" and strip.time_left(v, 10.0) == pytest.approx(
        v["ends_in"] - 10)
    assert strip.offer("en", v) is None
    boris.offer_draw()
    net.run()
    ask, offer = strip.offer("en", anna.view)
    assert ask and 'data-action="accept-draw"' in offer
    panel = strip.panel("en", anna.view["can"], True)
    assert 'data-action="invite"' in panel and 'data-action="invite"' not in strip.panel(
        "en", boris.view["can"], False)


def test_a_draw_offer_is_said_once_on_the_race_screen(table):
    """Issue 32 item 5: the offer under the table and the news line over it do
    not both say it (N7); the live region still hears every sentence."""
    net, host, anna, boris = race(table)
    anna.take_events(), boris.take_events()
    boris.offer_draw()
    net.run()
    for p, words in ((anna, f"{EVIL} offers a draw."), (boris, "Draw offered; waiting for the answers.")):
        said = news.told("en", p.take_events(), p.view)
        assert words in said                                  # the live region's
        bar = strip.offer("en", p.view)
        assert bar is not None and strip.offer_words("en", p.view) == words
        screen = news.line(said, [strip.offer_words("en", p.view)]) + " " + html_text(bar[1])
        assert screen.count(words) == 1, screen


def html_text(html: str) -> str:
    """The text a browser shows of ``html``."""
    return unescape(re.sub(r"<[^>]*>", " ", html))


def test_the_results(table):
    net, host, anna, boris = race(table)
    boris.resign()
    net.run()
    assert strip.outcome(anna.view) == "won" and strip.outcome(boris.view) == "lost"
    html = results.results("en", anna.view, gone="")
    rows = attrs(html, "tr")[1:]
    assert 'data-pid="0"' in rows[0] and 'data-place="1"' in rows[0] and 'data-result="won"' in rows[0]
    assert 'data-why="resigned"' in rows[1]
    assert 'data-outcome="won"' in html and 'data-mini-pid="1"' in html and EVIL not in html
    assert 'data-action="again"' in html and 'data-action="change-settings"' in html
    theirs = results.results("en", boris.view, gone="Anna closed the table")
    assert 'data-action="again"' not in theirs and '<p class="error">Anna closed the table' in theirs
    text, out = strip.note("en", boris.view, watching=False, gone="")
    assert out == "resigned" and text


def test_each_player_says_which_way_is_in_use(table):
    """Issue 30 item 2: the lobby and the strip say per player whether this page
    reaches them directly or through the relays (``data-way``, and in words)."""
    net, host, anna, boris = table
    html = lobby.lobby("en", anna.view, 1, "Anna", None, None, {1: "relay"})
    seats = attrs(html, "li")
    assert 'data-way="relay"' in seats[1] and "data-way" not in seats[0]
    assert "through relays" in html
    assert "direct" in lobby.lobby("en", anna.view, 1, "Anna", None, None, {1: "direct"})
    net, host, anna, boris = race(table)
    v = anna.view
    html = strip.strip("en", v, strip.outcome(v), 0.0, "5:00", anna.game.moves, {1: "relay"})
    assert 'data-way="relay"' in attrs(html, "li")[0] and "through relays" in html
    html = strip.strip("en", v, strip.outcome(v), 0.0, "5:00", anna.game.moves)
    assert "data-way" not in html and "relays" not in html


def test_the_host_sees_who_is_joining_and_who_could_not():
    """Issue 30 item 3: a friend trying to join shows on the host's lobby at once,
    and, when not seated in time, that it failed (their name as text)."""
    html = lobby.ways("en", "relay", "http://x/#table=abc", True, [], False, Html(""), True,
                      [("Vira", False), (EVIL, True)])
    assert 'data-joining="Vira"' in html and "Vira is joining…" in html
    assert "data-join-failed" in html and "could not join" in html and EVIL not in html
