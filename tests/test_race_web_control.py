"""The race page's controller without a browser (``web.race.control``; issue 28
item 1): the host's page and friends' pages as ``RaceControl``\\ s on in-memory
links and a fake clock — seats, Start, the race clock, refusals, our own
connection's state (N9), the seat remembered (O5), Leave."""

from __future__ import annotations

import pytest

from kosynka.position import Move
from kosynka.race.memory import Network
from kosynka.race.table import GRACE, LOBBY, RACING
from web.race.control import GIVE_UP_S, JOIN_WAIT_S, RaceControl
from web.race.signal import Table
from web.race.stored import RaceStore
from web.store import RACE_SEATS_KEY, RACE_SPEED_KEY, MemoryBackend


class Page:
    """One browser page: its storage, its controller, what it asked for."""

    def __init__(self, net: Network, local: MemoryBackend | None = None) -> None:
        self.local = local or MemoryBackend()
        self.store = RaceStore(self.local, MemoryBackend())
        self.repaints = 0
        self.claims: list[tuple[int, int]] = []
        self.c = RaceControl(self.store, lambda: net.now, self.repaint,
                             lambda table, pid: self.claims.append((table, pid)))

    def repaint(self) -> None:
        self.repaints += 1


def table_link(host: str = "Anna") -> Table:
    return Table(0xC0FFEE01, bytes(16), "A" * 20, 1, None, 0, host, ("ws://127.0.0.1:9",), ())


@pytest.fixture
def net() -> Network:
    return Network(seed=1)


def seat(net: Network, host: Page, name: str, link_name: str, t: Table | None = None) -> Page:
    """A friend's page at ``host``'s table, by a table link (or links-only)."""
    friend = Page(net)
    friend.c.table_link = t
    host_end, friend_end = net.pair(link_name)
    host.c.attach(host_end)
    friend.c.sit(name, friend.store.seat_of(t.table) if t else None)
    friend.c.player.connect(friend_end)
    net.run()
    return friend


def test_the_host_and_a_friend_are_seated_and_race(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    v = friend.c.view()
    assert v["phase"] == LOBBY and [p["name"] for p in v["players"]] == ["Anna", "Boris"]
    assert host.c.alone() is False and host.c.holds_others()
    assert friend.repaints and host.repaints           # both pages were asked to repaint
    assert friend.c.act(friend.c.player.set_ready, True) is None
    net.run()
    assert host.c.start() is None
    net.run()
    assert friend.c.view()["phase"] == RACING and friend.c.game() is not None
    assert friend.c.play("D") and not friend.c.play("Ks>F")    # an illegal move changes nothing
    assert friend.c.play(Move.parse("D"))                      # the table's input hands a Move
    net.run()
    assert [p["moves"] for p in host.c.view()["players"]] == [0, 2]
    assert friend.c.racing() and host.c.racing()


def test_a_refused_action_gives_its_words(net):
    host = Page(net)
    host.c.open_host("Anna")
    assert host.c.start() is not None                 # nobody else seated (N3): refused, said
    friend = seat(net, host, "Boris", "b")
    assert friend.c.act(friend.c.player.play, "D") is not None   # no race yet: refused here
    assert friend.c.act(friend.c.player.start) is None     # sent; the host refuses it …
    net.run()
    assert friend.c.player.rejects[-1]["code"] == "role/not_host"   # … and the page hears it


def test_the_settings_are_kept_and_sent(net):
    host = Page(net)
    host.c.open_host("Anna")
    assert host.c.set_setting("draw", 3) is None
    assert host.c.set_setting("minutes", 5) is None
    assert (host.c.view()["draw"], host.c.view()["minutes"]) == (3, 5)
    again = Page(net, host.local)                       # the next table remembers them
    again.c.open_host("Anna")
    assert (again.c.view()["draw"], again.c.view()["minutes"]) == (3, 5)


def test_the_race_clock_runs_at_the_tests_speed(net):
    host = Page(net)
    host.local.set(RACE_SPEED_KEY, "10")
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b")
    friend.c.act(friend.c.player.set_ready, True)
    net.run()
    before = host.c.clock()
    host.c.start()
    net.run(until=net.now + 2)
    assert host.c.clock() - before == pytest.approx(10 * 2, abs=0.5)


def test_a_name_that_is_not_one_races_under_the_default(net):
    page = Page(net)
    page.store.set_name("   ")
    assert page.c.my_name("Player") == "Player"
    page.store.set_name("  Vira  ")
    assert page.c.my_name("Player") == "Vira"


def test_the_seat_is_remembered_and_claimed_once(net):
    host = Page(net)
    host.c.open_host("Anna")
    t = table_link()
    friend = seat(net, host, "Boris", "b", t)
    assert friend.store.seat_of(t.table)["pid"] == friend.c.player.pid == 1
    assert friend.claims == [(t.table, 1)]              # the other tabs told once
    friend.c.changed()
    assert friend.claims == [(t.table, 1)]
    # another tab of the same browser is the same seat, with no Join
    tab = Page(net, friend.local)
    assert tab.store.seat_of(t.table)["token"] == friend.c.player.token
    assert tab.local.get(RACE_SEATS_KEY)


def test_a_seat_taken_by_another_tab_is_ours(net):
    host = Page(net)
    host.c.open_host("Anna")
    t = table_link()
    friend = seat(net, host, "Boris", "b", t)
    assert friend.c.took_over(t.table, 1) and not friend.c.took_over(t.table, 2)
    assert not host.c.took_over(t.table, 0)             # the host holds no table link


def test_links_only_the_seat_is_this_tabs(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b")
    assert friend.store.tab_seat() is None             # no invite: nothing to come back to
    assert friend.c.host_name() == ""


def _tick_until(net, pages, until):
    """The pages' 250-ms interval on the fake clock until ``until``."""
    while net.now < until:
        net.run(until=min(until, net.now + 0.25))
        for page in pages:
            page.c.tick()


def test_a_lost_link_counts_the_grace_down_as_the_host_does_then_the_table_is_gone(net):
    """Issue 30 items 5, 6: the friend's countdown is the host's figure (its last
    ping, less the time since); at the grace's end the table is gone — said, not
    after five minutes — and the page tries on until GIVE_UP_S."""
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    _tick_until(net, (host, friend), 5.0)
    assert friend.c.conn_note() is None
    cut_at = net.now
    net.cut(friend.c.player.link)
    net.run()
    assert friend.c.link_status("dropped") is True      # say it once
    assert friend.c.link_status("dropped") is False
    assert friend.c.conn_note() == ("lost", int(GRACE))
    _tick_until(net, (host, friend), cut_at + 20)
    note = friend.c.conn_note()
    host_row = next(r for r in host.c.host.table.view(0)["players"] if r["pid"] == 1)
    assert note[0] == "lost" and abs(note[1] - host_row["away"]) <= 1   # one clock
    _tick_until(net, (host, friend), cut_at + GRACE - 0.5)
    assert friend.c.conn_note()[0] == "lost"
    said = set()
    while net.now < cut_at + GRACE + 1:
        net.run(until=net.now + 0.25)
        said |= friend.c.tick()
    assert said == {"host_gone"} and friend.c.conn_note() == ("gone", int(GRACE))
    assert not friend.c.gave_up() and not friend.c.racing()
    net.now += GIVE_UP_S
    assert friend.c.gave_up()


def test_links_only_the_host_is_gone_after_the_grace(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b")              # no table link: no way back
    net.cut(friend.c.player.link)
    net.run()
    friend.c.link_status("dropped")
    net.now += GRACE - 1
    assert "host_gone" not in friend.c.tick()
    net.now += 2
    assert "host_gone" in friend.c.tick()
    assert "host_gone" not in friend.c.tick()           # said once
    assert friend.c.lost_at is None and friend.c.conn_note() == ("gone", int(GRACE))


class PathLink:
    """A link whose path may go while it is open (``RtcLink.steady``)."""

    def __init__(self, inner) -> None:
        self.inner, self.steady = inner, True

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_path_gone_under_an_open_link_is_said_at_once(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    path = PathLink(friend.c.player.link)
    friend.c.player.link = path
    assert friend.c.tick() == set()
    path.steady = False
    assert friend.c.tick() == {"lost"}
    assert friend.c.conn_note()[0] == "lost"
    assert friend.c.tick() == set()                     # said once
    path.steady = True
    friend.c.tick()
    assert friend.c.conn_note() is None                 # back by itself


def test_a_join_not_seated_in_time_is_unreachable(net):
    friend = Page(net)
    friend.c.table_link = table_link()
    friend.c.sit("Boris", None)
    friend.c.joining()
    net.now += JOIN_WAIT_S - 1
    assert friend.c.tick() == set() and not friend.c.seated()
    net.now += 2
    assert friend.c.tick() == {"unreachable"} and friend.c.unreachable
    assert friend.c.tick() == set()
    friend.c.joining()                                  # Try again
    assert not friend.c.unreachable


def test_n12_a_friends_leave_is_said_and_its_seat_forgotten(net):
    host = Page(net)
    host.c.open_host("Anna")
    t = table_link()
    friend = seat(net, host, "Boris", "b", t)
    assert friend.store.seat_of(t.table) is not None
    friend.c.act(friend.c.player.set_ready, True)
    net.run()
    host.c.start()
    net.run()
    friend.c.leave()                                    # mid-race: a resignation (N12)
    net.run()
    row = next(r for r in host.c.view()["players"] if r["pid"] == 1)
    assert (row["out"], row["left"]) == ("resigned", True) and host.c.view()["phase"] == "over"
    assert friend.store.seat_of(t.table) is None       # the link again: a newcomer's


def test_n13_the_hosts_leave_and_its_page_closing_close_the_table_for_everyone(net):
    for how in ("leave", "pagehide"):
        host = Page(net)
        host.c.open_host("Anna")
        friend = seat(net, host, "Boris", "b", table_link())
        host.c.leave() if how == "leave" else host.c.closing()
        net.run()
        assert friend.c.player.ended == "closed", how
        assert friend.c.tick() == {"host_gone"} and friend.c.conn_note() == ("closed", int(GRACE))
        assert not friend.c.racing()


def test_a_page_that_leaves_without_a_word_says_nothing(net):
    """Another tab took our seat over: leaving it must not resign it."""
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    friend.c.leave(say=False)
    net.run()
    row = next(r for r in host.c.view()["players"] if r["pid"] == 1)
    assert not row["left"] and not row["connected"]    # N9: its grace runs


def test_leave_closes_every_link(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    link = friend.c.player.link
    host.c.leave()
    net.run()
    assert host.c.host is None and host.c.player is None and host.c.view() is None
    assert not link.connected                           # the friend's end heard it
    friend.c.leave()
    assert friend.c.player is None and friend.c.table_link is None and not friend.c.racing()


def test_the_host_heard_after_the_table_seemed_gone_is_back(net):
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    net.cut(friend.c.player.link)
    net.run()
    said = set()
    while net.now < GRACE + 2:
        net.run(until=net.now + 0.25)
        said |= friend.c.tick()
    assert "host_gone" in said
    host_end, friend_end = net.pair("b2")                # the network back: a new link
    host.c.attach(host_end)
    friend.c.player.connect(friend_end)
    net.run()
    assert friend.c.tick() == set() and friend.c.conn_note() is None   # its word stands


def test_the_way_to_each_player(net):
    """Issue 30 item 2: the host's page knows how it reaches each friend; a friend's
    page, how it reaches the host (a link's ``way``: direct by default)."""
    host = Page(net)
    host.c.open_host("Anna")
    friend = seat(net, host, "Boris", "b", table_link())
    assert host.c.ways() == {1: "direct"} and friend.c.ways() == {0: "direct"}
    relay = PathLink(friend.c.player.link)
    relay.way = "relay"
    friend.c.player.link = relay
    assert friend.c.ways() == {0: "relay"}
    friend.c.leave()
    assert friend.c.ways() == {}
