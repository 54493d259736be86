"""The race table (SPEC N1–N12): who sits where, the settings, the race and its
end — a pure state machine, no I/O, no clock of its own.

Every method that time matters to takes ``now`` (seconds on any monotonic
clock, the same for every call); timers (the timed race's end, N6, and the
reconnect grace, N9) fire inside whichever call first passes their moment, or
in :meth:`Table.tick`. A call that breaks a rule raises :class:`RaceError`
with a stable ``code`` and changes nothing.

Members have a stable ``pid`` (0 is the host) and a ``seat`` (0–3 around the
table, ``None`` for a spectator). The host keeps a :class:`~kosynka.game.Game`
per racer: the truth of the race. Only moves in the pinned notation change a
game; ``U`` (undo) is refused (N10), and nothing here gives hints.

Decisions where SPEC is silent: docs/race.md ("Decisions where SPEC is
silent"), each stated again at the method that makes it; the standings:
:mod:`.standings`. What happened is kept as events (:meth:`Table.events_since`,
their kinds: :mod:`.views`), what each member is shown: :mod:`.views`.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

import kosynka.race.views as views

from ..game import Game
from ..names import numbered
from ..position import IllegalMoveError, InvalidMoveError, Position, Rules
from .standings import outcome, progress, rank, shown, time_up
from .terms import (
    DRAWS,
    EVENTS_KEPT,
    GRACE,
    HOST,
    LOBBY,
    MAX_SEATS,
    MAX_WATCHERS,
    MINUTES,
    NAME_MAX,
    OVER,
    RACING,
    Member,
    RaceError,
    check_name,
)

__all__ = ["Table", "Member", "RaceError", "HOST", "GRACE", "NAME_MAX", "MINUTES", "DRAWS",
           "MAX_SEATS", "MAX_WATCHERS", "EVENTS_KEPT", "LOBBY", "RACING", "OVER", "progress",
           "check_name"]


class Table:
    """One race table. ``Table(host_name, now)`` seats the host (pid 0)."""

    def __init__(self, host_name: str, now: float = 0.0) -> None:
        self.members: dict[int, Member] = {}
        self.phase = LOBBY
        self.draw = 1
        self.minutes: int | None = None
        self.race = 0                       # races dealt so far at this table
        self.deal: int | None = None
        self.started_at: float | None = None
        self.ended_at: float | None = None
        self.offer: dict[str, Any] | None = None      # {"id", "by", "agreed": [pids]}
        self.standings: list[dict[str, Any]] | None = None
        self.end: dict[str, Any] | None = None        # how the last race ended
        self.events: deque[dict[str, Any]] = deque(maxlen=EVENTS_KEPT)
        self.event_n = 0                    # the number of the last event
        self.now = now
        self._offers = 0
        self._next_pid = 0
        self.join(host_name, now)

    # ----------------------------------------------------------- events
    def _event(self, kind: str, pid: int | None = None, **fields: Any) -> None:
        self.event_n += 1
        m = self.members.get(pid) if pid is not None else None
        self.events.append({"n": self.event_n, "kind": kind, "pid": pid,
                            "name": m.name if m is not None else fields.pop("name", None),
                            **fields})

    def events_since(self, n: int) -> list[dict[str, Any]]:
        """The events after number ``n`` that the table still keeps, oldest first."""
        return [dict(e) for e in self.events if e["n"] > n]

    # ----------------------------------------------------------- members
    def join(self, name: object, now: float) -> int:
        """A newcomer: seated while the lobby has room (N1), else a spectator
        (at most :data:`MAX_WATCHERS`; past that ``table/full``). A name in use
        at the table is numbered ("Player 2", :func:`kosynka.names.numbered`)."""
        self._advance(now)
        name = numbered(check_name(name), (m.name for m in self.members.values()))
        seat = self._free_seat() if self.phase == LOBBY and len(self.seated()) < MAX_SEATS else None
        if seat is None and len(self.members) - len(self.seated()) >= MAX_WATCHERS:
            raise RaceError("table/full", f"the table is full ({MAX_SEATS} seated, "
                                          f"{MAX_WATCHERS} watching)")
        pid = self._next_pid
        self._next_pid += 1
        m = Member(pid, name, seat)
        self.members[pid] = m
        if seat is None:
            m.status = "watching"
        if pid != HOST:
            self._event("joined", pid, seat=seat)
        return pid

    def seated(self) -> list[Member]:
        return sorted((m for m in self.members.values() if m.seat is not None),
                      key=lambda m: m.seat or 0)

    def racers(self) -> list[Member]:
        """The players of the current (or last) race, by seat."""
        return [m for m in self.seated() if m.game is not None]

    def still_racing(self) -> list[Member]:
        """The racers not out (N7: those whose agreement a draw needs)."""
        return [m for m in self.racers() if m.status == "racing"]

    def member(self, pid: int) -> Member:
        m = self.members.get(pid)
        if m is None:
            raise RaceError("table/no_member", f"no one with pid {pid} at this table")
        return m

    def _free_seat(self) -> int:
        taken = {m.seat for m in self.members.values()}
        return min(s for s in range(MAX_SEATS) if s not in taken)

    def drop(self, pid: int, now: float, since: float | None = None) -> None:
        """The member's channel went down: the grace starts (N9) — ``since``, when
        the connection was last known lost (the host's first unanswered ping), if
        that is earlier than ``now``."""
        self._advance(now)
        m = self.member(pid)
        if pid != HOST and m.connected:
            m.connected = False
            m.dropped_at = now if since is None else min(since, now)
            self._event("dropped", pid)

    def back(self, pid: int, now: float) -> None:
        """The member is back within the grace, at their table as it was (N9)."""
        self._advance(now)
        m = self.member(pid)
        was = m.connected
        m.connected = True
        m.dropped_at = None
        if not was:
            self._event("back", pid)
        if self.phase == LOBBY:
            self._fill_seats()

    def remove(self, pid: int, who: int, now: float) -> None:
        """The host removes ``who`` from the table, in the lobby only."""
        self._advance(now)
        self._host_only(pid, "remove someone")
        self._in_lobby()
        m = self.member(who)
        if who == HOST:
            raise RaceError("remove/host", "the host stays at their own table")
        self._leave(m, "removed")

    def leave(self, pid: int, now: float) -> None:
        """N12: a friend said Leave. Racing, they resign (N8) at once; one who
        raced the race on the table stays in its results, their seat freed when
        the table moves on (Again deals without them); anyone else leaves now.
        (The host's Leave closes the table: that is the host's, not the table's.)"""
        self._advance(now)
        m = self.member(pid)
        if pid == HOST:
            raise RaceError("leave/host", "the host's Leave closes the table")
        if self.phase == RACING and m.status == "racing":
            self._out(m, "resigned", now)
        if m.game is None or self.phase == LOBBY:
            self._leave(m, "left")
            return
        m.left, m.connected, m.dropped_at = True, False, None
        self._event("left", pid, why="left")

    def _part(self) -> None:
        """The table moves on (Again, Change settings): those who left go."""
        for m in [m for m in self.members.values() if m.left]:
            del self.members[m.pid]

    def _leave(self, m: Member, why: str) -> None:
        del self.members[m.pid]
        self._event("left", m.pid, name=m.name, why=why)
        if self.phase == LOBBY:
            self._fill_seats()

    # ----------------------------------------------------------- lobby
    def _host_only(self, pid: int, what: str) -> None:
        if pid != HOST:
            raise RaceError("role/not_host", f"only the host may {what}")

    def _in_lobby(self) -> None:
        if self.phase != LOBBY:
            raise RaceError("race/started", "the race has started; this is for the lobby")

    def set_settings(self, pid: int, draw: int, minutes: int | None, now: float) -> None:
        """N4: draw 1 or 3; ``minutes`` None (to the last card) or 5, 10, 15. Host only, lobby only."""
        self._advance(now)
        self._host_only(pid, "change the settings")
        self._in_lobby()
        if draw not in DRAWS or isinstance(draw, bool):
            raise RaceError("settings/bad", f"draw is 1 or 3, not {draw!r}")
        if minutes not in MINUTES or isinstance(minutes, bool):
            raise RaceError("settings/bad", f"a timed race lasts 5, 10 or 15 minutes, not {minutes!r}")
        if (draw, minutes) != (self.draw, self.minutes):
            self.draw, self.minutes = draw, minutes
            self._event("settings", draw=draw, minutes=minutes)

    def set_ready(self, pid: int, ready: bool, now: float) -> None:
        """N3: a seated friend says they are ready (or no longer)."""
        self._advance(now)
        self._in_lobby()
        m = self.member(pid)
        if m.seat is None or pid == HOST:
            raise RaceError("ready/not_friend", "only a seated friend presses Ready")
        if m.ready != bool(ready):
            m.ready = bool(ready)
            self._event("ready", pid, ready=m.ready)

    @property
    def rules(self) -> Rules:
        return Rules(self.draw, None)

    def start(self, pid: int, deal: int | Callable[[], int], now: float) -> None:
        """N3: the host starts once a friend sits and every seated friend is ready;
        ``deal`` (verified under :attr:`rules`, V1; or a function giving it,
        called once the start is allowed) goes to everyone seated."""
        self._advance(now)
        self._host_only(pid, "start the race")
        self._in_lobby()
        friends = [m for m in self.seated() if m.pid != HOST]
        if not friends:
            raise RaceError("start/no_friend", "at least one friend must be seated")
        waiting = [m.name for m in friends if not m.ready]
        if waiting:
            raise RaceError("start/not_ready", f"not ready yet: {', '.join(waiting)}")
        self._begin(deal, now)

    def _begin(self, deal: int | Callable[[], int], now: float) -> None:
        deal = deal() if callable(deal) else deal
        self.race += 1
        self.deal = deal
        self.phase = RACING
        self.started_at, self.ended_at = now, None
        self.offer = None
        self.standings = self.end = None
        start = Position.deal(deal, self.rules)
        for m in self.members.values():
            m.ready = False
            m.out = m.out_at = None
            if m.seat is None:
                m.game, m.status = None, "watching"
            else:
                m.game, m.status = Game(start, deal, clock=self._clock), "racing"
        self._event("started", race=self.race, deal=deal, draw=self.draw, minutes=self.minutes)

    def _clock(self) -> float:
        return self.now

    # ----------------------------------------------------------- racing
    def _racing(self, pid: int, race: int | None = None) -> Member:
        if self.phase == LOBBY:
            raise RaceError("race/not_started", "the race has not started")
        if self.phase == OVER:
            raise RaceError("race/over", "the race is over")
        if race is not None and race != self.race:
            raise RaceError("race/stale", f"race {race} is not the current race {self.race}")
        m = self.member(pid)
        if m.status != "racing" or m.game is None:
            raise RaceError("race/out", f"{m.name} is not racing")
        return m

    def check_move(self, pid: int, race: int | None, move: object, now: float) -> dict[str, int]:
        """The progress ``move`` would give ``pid``; RaceError if it is refused."""
        self._advance(now)
        m = self._racing(pid, race)
        assert m.game is not None
        if move == "U":
            raise RaceError("move/undo", "no undo in a race (N10)")
        if not isinstance(move, str):
            raise RaceError("move/illegal", "a move is notation text")
        try:
            mv = m.game.position.parse_move(move)
        except (IllegalMoveError, InvalidMoveError) as e:
            raise RaceError("move/illegal", str(e)) from None
        after = m.game.position.copy()
        after.push(mv)
        return progress(after, m.game.moves + 1)

    def move(self, pid: int, move: str, now: float, race: int | None = None) -> dict[str, int]:
        """A racer's move (pinned notation) on the host's copy of their game.
        A move by someone who has not agreed to a pending draw cancels it (N7);
        all 52 up wins at once (N4, N5). Returns the mover's progress."""
        self.check_move(pid, race, move, now)
        m = self.members[pid]
        assert m.game is not None
        m.game.play(move)
        now_shown = shown(m.game)
        self._event("moved", pid, **now_shown)
        if self.offer and pid not in self.offer["agreed"]:
            self._event("cancelled", pid, offer=self.offer["id"], why="moved")
            self.offer = None
        if m.game.is_won:
            self._end(now, "all_up", winners=[m])
        return now_shown

    def offer_draw(self, pid: int, now: float) -> None:
        """N7: offer a draw to everyone still racing."""
        self._advance(now)
        self._racing(pid)
        if self.offer:
            raise RaceError("draw/pending", "a draw offer is already open")
        self._offers += 1
        self.offer = {"id": self._offers, "by": pid, "agreed": [pid]}
        self._event("offered", pid, offer=self._offers)

    def answer_draw(self, pid: int, offer: int, accept: bool, now: float) -> None:
        """N7: agree to (or refuse) open offer ``offer``; a refusal cancels it,
        the agreement of everyone still racing makes the race a draw."""
        self._advance(now)
        self._racing(pid)
        if not self.offer or self.offer["id"] != offer:
            raise RaceError("draw/stale", f"draw offer {offer} is not open")
        if pid in self.offer["agreed"]:
            raise RaceError("draw/answered", "already agreed")
        if not accept:
            self.offer = None
            self._event("refused", pid, offer=offer)
            return
        self.offer["agreed"].append(pid)
        self._event("agreed", pid, offer=offer)
        self._check_offer(now)

    def _check_offer(self, now: float) -> None:
        racing = self.still_racing()
        if self.offer and all(m.pid in self.offer["agreed"] for m in racing):
            self._end(now, "agreed", drawn=racing)

    def resign(self, pid: int, now: float) -> None:
        """N8: out and lost; the last one left in the race wins."""
        self._advance(now)
        self._out(self._racing(pid), "resigned", now)

    def _out(self, m: Member, why: str, now: float) -> None:
        m.status, m.out, m.out_at = "resigned", why, now
        self._event("resigned" if why == "resigned" else "counted_out", m.pid)
        racing = self.still_racing()
        if len(racing) == 1:
            self._end(now, "last_left", winners=racing)
        elif self.offer and self.offer["by"] == m.pid:
            self._event("cancelled", m.pid, offer=self.offer["id"], why="out")
            self.offer = None
        else:
            self._check_offer(now)

    # ----------------------------------------------------------- the end
    @property
    def ends_at(self) -> float | None:
        """When a timed race ends by itself (N6)."""
        if self.phase != RACING or self.minutes is None or self.started_at is None:
            return None
        return self.started_at + self.minutes * 60

    def _end(self, now: float, reason: str, winners: list[Member] | tuple[()] = (),
             drawn: list[Member] | tuple[()] = (), decided_by: str | None = None) -> None:
        """The race is over: the running score — a win 1 point, a draw ½ to each in it."""
        self.phase, self.ended_at, self.offer = OVER, now, None
        for m in self.racers():
            if m in winners:
                m.status, m.score = "won", m.score + 1
            elif m in drawn:
                m.status, m.score = "draw", m.score + 0.5
            else:
                m.status = "lost"
        self._grace_anew(now)   # still away: a spectator leaves at the grace's end
        self.end = {"reason": reason, "winners": [m.pid for m in winners],
                    "drawn": [m.pid for m in drawn], "decided_by": decided_by}
        self.standings = rank(self.racers(), reason)
        self._event("ended", **self.end)

    # ----------------------------------------------------------- after a race
    def again(self, pid: int, deal: int | Callable[[], int], now: float) -> None:
        """N11: a new race, same settings, same players, each one seat along;
        the running score is kept."""
        self._advance(now)
        self._host_only(pid, "deal again")
        if self.phase != OVER:
            raise RaceError("race/not_over", "Again comes after a race")
        players = [m for m in self.seated() if not m.left]
        if len(players) < 2:
            raise RaceError("start/no_friend", "at least one friend must be seated")
        self._part()
        for i, m in enumerate(players):
            m.seat = (i + 1) % len(players)
        self._begin(deal, now)
        self._grace_anew(now)

    def change_settings(self, pid: int, now: float) -> None:
        """N11: back to the lobby; a seat whose player is away is freed;
        newcomers may sit; the score is kept."""
        self._advance(now)
        self._host_only(pid, "change the settings")
        if self.phase != OVER:
            raise RaceError("race/not_over", "settings change after a race")
        self.phase = LOBBY
        self._event("lobby")
        self._part()
        self._grace_anew(now)
        for m in self.members.values():
            m.game, m.out = None, None
            m.status = "waiting" if m.seat is not None else "watching"
            if m.seat is not None and not m.connected:
                m.seat, m.status = None, "watching"
        for i, m in enumerate(self.seated()):
            m.seat = i
        self._fill_seats()

    def _fill_seats(self) -> None:
        for m in sorted(self.members.values(), key=lambda m: m.pid):   # order of arrival
            if m.seat is None and m.connected and len(self.seated()) < MAX_SEATS:
                m.seat, m.status, m.game = self._free_seat(), "waiting", None
                self._event("seated", m.pid, seat=m.seat)

    # ----------------------------------------------------------- views (.views)
    def can(self, pid: int) -> dict[str, bool]:
        """What member ``pid`` may do now (:func:`.views.can`)."""
        return views.can(self, pid)

    def outcome(self, pid: int) -> dict[str, Any] | None:
        """How the race went for ``pid`` (:func:`.standings.outcome`)."""
        m = self.members.get(pid)
        return None if m is None else outcome(m, self.standings)

    def view(self, pid: int, since: int | None = None) -> dict[str, Any]:
        """What member ``pid`` is shown (:func:`.views.view`)."""
        return views.view(self, pid, since)

    # ----------------------------------------------------------- time
    def next_deadline(self) -> float | None:
        """The next moment a timer fires (for the caller's setTimeout), or None."""
        times = [m.dropped_at + GRACE for m in self.members.values() if m.dropped_at is not None]
        if self.ends_at is not None:
            times.append(self.ends_at)
        return min(times, default=None)

    def tick(self, now: float) -> None:
        """Fire the timers due by ``now``."""
        self._advance(now)

    def _advance(self, now: float) -> None:
        now = max(now, self.now)
        while True:
            due: list[tuple[float, int, Member | None]] = []
            ends_at = self.ends_at
            if ends_at is not None and ends_at <= now:
                due.append((ends_at, 0, None))
            due += [(m.dropped_at + GRACE, 1, m) for m in self.members.values()
                    if m.dropped_at is not None and m.dropped_at + GRACE <= now]
            if not due:
                break
            at, _, m = min(due, key=lambda d: d[:2])   # at one instant the time-up first (N6)
            self.now = max(self.now, at)
            if m is None:
                self._event("time_up")
                top, decided_by = time_up(self.still_racing())
                if decided_by == "tie":
                    self._end(at, "time_up", drawn=top, decided_by=decided_by)
                else:
                    self._end(at, "time_up", winners=top, decided_by=decided_by)
            else:
                self._expire(m, at)
        self.now = now

    def _expire(self, m: Member, at: float) -> None:
        m.dropped_at = None
        if self.phase == RACING and m.status == "racing":
            self._out(m, "dropped", at)
        elif self.phase == LOBBY or m.game is None:
            self._leave(m, "away")
        # after a race they raced in (OVER) they stay, away: its result is theirs, told
        # when they come back; their grace starts anew when the table moves on

    def _grace_anew(self, now: float) -> None:
        """The race's end, Again or Change settings: the grace of those still away
        (none running) starts now."""
        for m in self.members.values():
            if not m.connected and m.dropped_at is None and not m.left:   # (the host never drops)
                m.dropped_at = now
