"""The race's life on a page, with no DOM (issues 11, 19, 28): the ``Host`` (the
host's page only) and our own seat's ``Player``, their ticks, the race clock,
the host's settings, our own connection's state as the screens say it, and our
seat remembered (``web.race.stored``).

Every page at a table runs a ``kosynka.race.Player`` for its own seat: one path,
whoever the page is. The host's page also runs ``kosynka.race.Host`` (the truth
of the race), whose own seat is that page's ``Player`` over an in-memory link
(``Host.own_player``); a friend's ``Player`` talks to the host over a WebRTC link
(``web.race.net``), through the same protocol checks.

Plain Python, tested with pytest (``tests/test_race_web_control.py``) on
in-memory links: the page (``web.race.page``) routes, draws and connects; it
hands this the links, calls :meth:`RaceControl.tick` four times a second and
says what :meth:`tick` reports.

Decisions (user-visible):
- Nobody waits for ever: a join not seated within :data:`JOIN_WAIT_S` is
  reported ``unreachable`` (the page says why it may be and offers Try again); a
  friend whose way to the host is lost (link down, its path lost, or the host
  silent) sees the seconds left of the 60-s grace as the host counts them (N9,
  ``Player.grace_left``) while the page reconnects by itself; when the grace has
  run out the table is ``gone`` (N13: said then, in words that blame nobody; the
  page still tries, and the host's word, if it comes, is taken); after
  :data:`GIVE_UP_S` without an answer it stops trying.
- Leaving is said (N12, N13): Leave sends the seat's last message — a friend's
  resigns them if racing, else frees the seat; the host's closes the table — and
  the host's page closing (``pagehide``) closes it too: every friend is told at
  once (``closed``), and the race ends on their screens with no result.
- Links-only (no room to come back through): a friend whose link stayed down
  past the grace is told the host's table has gone.
- Test-only: ``localStorage["kosynka.race.test_speed"]`` (a number), read by the
  host at Start and Again, runs the race's clock that many times faster (a timed
  race ends in seconds, the grace too). No control of the page sets it.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

from kosynka.position import IllegalMoveError, InvalidMoveError, Move
from kosynka.race import Host, Player, RaceError
from kosynka.race.table import GRACE, HOST, NAME_MAX, RACING, check_name
from kosynka.race.transport import Link
from web.race.signal import Invite, Table
from web.race.stored import RaceStore

JOIN_WAIT_S = 15.0                  # a join not seated by then says why it may be
GIVE_UP_S = 300.0                   # a friend stops reconnecting after this long

Json = dict[str, Any]


def minutes_now() -> int:
    """Minutes since the epoch (when a link or a seat was made)."""
    return int(time.time() // 60)


class RaceControl:
    """The host and our own player on one page, without its DOM.

    ``now()`` is the page's monotonic time (s, never sped up: connection timers);
    ``on_change()`` asks for a repaint; ``claim(table, pid)`` tells this
    browser's other tabs that this one holds that seat now."""

    def __init__(self, store: RaceStore, now: Callable[[], float], on_change: Callable[[], None],
                 claim: Callable[[int, int], None]) -> None:
        self.store, self.now, self.on_change, self.claim = store, now, on_change, claim
        self.host: Host | None = None           # the table, on the host's page only
        self.player: Player | None = None       # our own seat, on every page at a table
        self.invite: Invite | None = None       # the friend's invite (links-only)
        self.table_link: Table | None = None    # the friend's table link
        self.settings = store.settings()
        self.lost_at: float | None = None       # the friend's link dropped (N9), page s
        self.join_at: float | None = None       # a friend pressed Join (page s)
        self.unreachable = False
        self._ended: str | None = None          # the player's end we have said
        self._claimed: tuple[int, int] | None = None
        self._speed, self._t0, self._p0 = 1.0, 0.0, 0.0

    # ------------------------------------------------------------ what the page reads
    def clock(self) -> float:
        """The race's clock (s): the page's monotonic time, sped up for tests."""
        return self._t0 + (self.now() - self._p0) * self._speed

    def view(self) -> Json | None:
        return self.player.view if self.player is not None else None

    def game(self) -> Any:
        """Our own ``Game`` (None while watching or at no table)."""
        return self.player.game if self.player is not None else None

    def my_name(self, default: str) -> str:
        """The name we race under: the one typed last, or ``default`` if it is not one."""
        try:
            return check_name(self.store.name().strip()[:NAME_MAX])
        except RaceError:
            return default

    def host_name(self) -> str:
        """The name of the host whose table we are at (a friend's page)."""
        if self.table_link is not None:
            return self.table_link.host
        return self.invite.host if self.invite is not None else ""

    def ways(self) -> dict[int, str]:
        """How this page reaches each player it talks to (issue 30 item 2): the
        host's page, every friend (``direct`` or ``relay``); a friend's, the host."""
        if self.host is not None:
            return {pid: conn.link.way for pid, conn in self.host.conns.items() if pid != HOST}
        p = self.player
        if p is None or p.link is None or not p.link.connected:
            return {}
        return {HOST: p.link.way}

    def racing(self) -> bool:
        """Leaving now would cost a race: ours, or the others' (the table is here)."""
        v = self.view()
        return v is not None and v["phase"] == RACING and bool(v["can"]["resign"] or self.holds_others())

    def holds_others(self) -> bool:
        """This page is the table of someone else: closing it ends their race."""
        return self.host is not None and len(self.host.table.members) > 1

    def alone(self) -> bool:
        """The host's table has nobody else yet (it may open anew)."""
        return self.host is not None and len(self.host.table.members) == 1

    # ------------------------------------------------------------ the host's page
    def open_host(self, name: str) -> None:
        """Our own table, with the remembered settings; the race clock from now."""
        self._speed, self._t0, self._p0 = 1.0, 0.0, self.now()
        self.new_table(name)

    def new_table(self, name: str) -> None:
        """The host's table and our own seat at it, with the remembered settings."""
        self.host = Host(name, self.clock)
        self.player = self.host.own_player()
        self.player.on_change = self.changed
        s = self.settings
        self.player.set_settings(s["draw"], s["minutes"])

    def attach(self, link: Link) -> None:
        """A friend's link opened: the host takes it (newcomer or comeback)."""
        if self.host is not None:
            self.host.attach(link)

    def set_setting(self, field: str, value: Any) -> str | None:
        """The host chose ``field`` (draw, minutes): kept, and sent to the table."""
        self.settings[field] = value
        self.store.save_settings(self.settings)
        assert self.player is not None
        return self.act(self.player.set_settings, self.settings["draw"], self.settings["minutes"])

    def start(self, again: bool = False) -> str | None:
        """Start (or Again): the race clock's test speed is read now."""
        assert self.player is not None
        self._t0, self._p0 = self.clock(), self.now()
        self._speed = self.store.test_speed()
        return self.act(self.player.again if again else self.player.start)

    # ------------------------------------------------------------ a friend's page
    def sit(self, name: str, seat: Json | None) -> Player:
        """Our seat as a friend: a new player (``seat``: pid and token to come back to)."""
        self.player = Player(name, self.clock)
        if seat is not None:
            self.player.pid, self.player.token = seat["pid"], seat["token"]
        self.player.on_change = self.changed
        return self.player

    def joining(self) -> None:
        """Join was pressed (or Try again): the wait for a seat starts now."""
        self.join_at, self.unreachable = self.now(), False

    def link_status(self, status: str) -> bool:
        """Our link to the host changed; True when it was just lost (say so)."""
        if status == "open":
            self.lost_at = None
            return False
        if self.lost_at is None:   # (it may be set already: the path went first)
            self.lost_at = self.now()
            return True
        return False

    def gave_up(self) -> bool:
        """Stop reconnecting: too long without an answer, or the host let us go."""
        return self.player is None or self.player.let_go or (
            self.lost_at is not None and self.now() - self.lost_at > GIVE_UP_S)

    def seated(self) -> bool:
        """The host answered our join (seated, or refused): no more joins."""
        return self.player is None or self.view() is not None or self.player.error_code is not None

    def conn_note(self) -> tuple[str, int] | None:
        """Our own way to the table: (state, figure) — ``lost`` with the seconds of
        grace left as the host counts them, ``gone`` (not heard for the whole
        grace: the figure), ``closed`` (the host closed it); None while it is up.
        (The host's own seat's local link never drops.) Counted out, it is the
        race's outcome: the screen says it."""
        p = self.player
        if p is None or p.ended == "left":
            return None
        if p.ended in ("closed", "gone"):
            return p.ended, int(GRACE)
        if not p.lost:
            return None
        left = p.grace_left
        return "lost", int(GRACE if left is None else math.ceil(left))

    # ------------------------------------------------------------ every page
    def act(self, fn: Callable[..., None], *args: Any) -> str | None:
        """Do an action of the race; one the rules refuse (here, or by the host:
        the host's own seat hears at once) gives its words, else None."""
        assert self.player is not None
        refused = self.player.refusals
        try:
            fn(*args)
        except RaceError as e:
            return e.detail
        if self.player.refusals > refused:
            return str(self.player.rejects[-1]["detail"])
        return None

    def play(self, move: Move | str) -> bool:
        """Our table's input made ``move``: our game, sent to the host. False
        (nothing changes) if it is refused."""
        if self.player is None:
            return False
        try:
            self.player.play(move)
        except (RaceError, IllegalMoveError, InvalidMoveError):
            return False
        return True

    def tick(self) -> set[str]:
        """The timers: the table's (N6, N9), the join's resend, our own link's.
        Reports ``lost`` (our path just went: say so), ``host_gone`` (the table
        closed by the host, or not heard for the whole grace: ``Player.ended``),
        ``unreachable`` (a join not seated in time)."""
        said: set[str] = set()
        if self.host is not None:
            self.host.tick()
        p = self.player
        if p is None:
            return said
        p.tick()
        if p.ended in ("closed", "gone") and self._ended != p.ended:
            said.add("host_gone")
            if p.ended == "gone" and self.table_link is None:
                self.lost_at = None   # links-only: no way back without a new link
        self._ended = p.ended
        link = p.link if self.host is None else None
        steady = getattr(link, "steady", None) if link is not None and link.connected else None
        if steady is False and self.lost_at is None:     # the path is gone: say so at once
            self.lost_at = self.now()
            said.add("lost")
        elif steady and self.lost_at is not None:        # back by itself (ICE recovered)
            self.lost_at = None
        if (self.table_link is not None and self.join_at is not None and not self.unreachable
                and self.view() is None and self.now() - self.join_at > JOIN_WAIT_S):
            self.unreachable = True
            said.add("unreachable")
        return said

    def changed(self) -> None:
        """The host or the player changed: remember our seat, repaint."""
        self.remember()
        self.on_change()

    # ------------------------------------------------------------ our seat remembered
    def remember(self) -> None:
        """Our seat, once we have one: per table in the device's storage (another
        tab is the same seat; this tab tells the others), or links-only in this
        tab's (N9)."""
        p = self.player
        if p is None or p.pid is None or p.token is None:
            return
        if self.table_link is not None:
            table = self.table_link.table
            if self._claimed != (table, p.pid):   # seated here: other tabs at this seat leave it
                self._claimed = (table, p.pid)
                self.claim(table, p.pid)
            self.store.keep_seat(table, p.pid, p.token, minutes_now())
        elif self.invite is not None:
            self.store.keep_tab_seat({"table": self.invite.table, "pid": p.pid, "token": p.token,
                                      "host": self.invite.host})

    @staticmethod
    def invite_key(invite: Invite) -> str:
        return f"{invite.table}:{invite.slot}:{invite.offer.ufrag}"

    def used(self, invite: Invite) -> bool:
        """This browser answered ``invite`` already: its offer is spent (the host's
        side of it was answered or has gone), so joining again could only wait."""
        return self.store.used(self.invite_key(invite))

    def took_over(self, table: int, pid: int) -> bool:
        """Another tab says it holds ``(table, pid)``: is that our seat?"""
        p, t = self.player, self.table_link
        return t is not None and p is not None and (table, pid) == (t.table, p.pid)

    def closing(self) -> None:
        """The page goes (``pagehide``): the host's table closes for everyone (N13);
        a friend's seat keeps its grace (its tab may come back, N9)."""
        if self.host is not None:
            self.host.close()

    def leave(self, say: bool = True) -> None:
        """Off the table: said (``say``; N12, N13: the seat's last message, the
        host's closes the table, and our seat forgotten) — not when another tab
        took the seat over —, every link closed (a channel sends what it holds
        first), nothing of it kept but the memory."""
        p = self.player
        if say and p is not None and p.pid is not None and not p.done:
            p.on_change = lambda: None        # leaving: nothing to remember or repaint
            p.leave()
            if self.table_link is not None:
                self.store.forget_seat(self.table_link.table)
        for conn in list(self.host.conns.values()) if self.host is not None else ():
            conn.link.close()
        if p is not None and p.link is not None:
            p.link.close()
        self.host = self.player = self.invite = self.table_link = None
        self.join_at = self.lost_at = self._claimed = self._ended = None
        self.unreachable = False
