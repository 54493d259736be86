"""The race table (SPEC N1–N11): who sits where, the settings, the race and its
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

Decisions where SPEC is silent (docs/race.md):

- the race is Classic — draw 1 or 3, unlimited redeals — on a verified deal
  (V1) under those rules;
- a name is 1–24 characters (code points), any Unicode except control
  characters and lone surrogates, not only spaces; it is shown, never
  interpreted;
- the running score: a win is 1 point, a draw ½ to each who shares it;
- standings: winners (or those who share a draw) are placed 1; the others by
  cards on foundations, then face-up cards in columns, those still in the race
  before those out, and among those out the later one first; equal keys share
  a place;
- a member whose channel is down for ``GRACE`` s is out: resigned if racing
  (N9), else they leave the table (a spectator sits in the seat they free
  while the table is in its lobby) — but one who raced in the race just over
  stays until Again or Change settings (its result is theirs, told when they
  come back: issue 19), and their grace then starts anew;
- the time-up and a grace ending at the same instant: the time-up first (N6);
- a draw offer is cancelled when its maker resigns; when someone else leaves
  the race, the offer stands for those still racing;
- at Change settings a seat whose player is away (channel down) is freed: they
  watch while their grace runs and sit again, if a seat is free, when they are
  back; newcomers and spectators sit in order of arrival;
- the host may remove anyone seated (or watching) while the table is in its
  lobby (a stranger who took a free seat would block Start until they pressed
  Ready); a removed member leaves the table;
- at most ``MAX_WATCHERS`` spectators (so at most 8 members): every view lists
  every member, so each one more costs every member's every view; a join past
  that is refused (``table/full``).

What happened is kept as **events** (:meth:`Table.events_since`): each change
appends one or more, numbered (``n``), and a view carries those its member has
not had (the host keeps where each member is); the table keeps the last
:data:`EVENTS_KEPT`. Kinds (``kind``; ``pid`` and ``name`` of whom it is about):

=============== ==============================================================
``joined``      ``seat`` (``None``: watching)
``seated``      a spectator got a free seat (``seat``)
``left``        ``why``: ``away`` (the grace ran out outside a race) or ``removed``
``dropped``     the channel went down (the grace runs); ``back``: it is up again
``ready``       ``ready`` (true / false)
``settings``    ``draw``, ``minutes`` (changed in the lobby)
``lobby``       the host chose Change settings after a race
``started``     ``race``, ``deal``, ``draw``, ``minutes``
``moved``       by ``pid``: their ``moves``, ``foundation``, ``face_up`` (never the move)
``offered``     a draw, by ``pid`` (``offer``: its id)
``agreed``      ``pid`` agreed to ``offer``
``refused``     ``pid`` refused ``offer`` (it is off)
``cancelled``   ``offer`` is off: ``why`` ``moved`` (``pid`` moved before agreeing, N7)
                or ``out`` (its maker, ``pid``, left the race)
``resigned``    ``pid`` resigned (N8); ``counted_out``: away past the grace (N9)
``time_up``     the timed race's clock ran out (N6)
``ended``       ``reason`` (below), ``winners``, ``drawn`` (pids)
=============== ==============================================================

How a race ends (``end``, in every view once it is over): ``reason`` is
``all_up`` (someone put all 52 cards up, N4/N5), ``time_up`` (N4/N6, with
``decided_by``: ``foundation`` — most cards on foundations —, ``face_up`` —
foundations tied among the best, most face-up cards in columns — or ``tie``:
still tied, a draw between them), ``agreed`` (a draw everyone still racing
agreed to, N7) or ``last_left`` (everyone else resigned or was counted out,
N8/N9). Each row of the standings says ``why`` it has its place: ``all_up``,
``last_left``, ``agreed``; ``foundation`` (placed by cards on foundations),
``face_up`` (same foundations as another, placed by face-up cards), ``tie``
(the same counters as another: the place is shared); ``resigned`` or
``counted_out`` for those out of the race.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import KosynkaError
from ..game import Game
from ..position import IllegalMoveError, InvalidMoveError, Position, Rules

__all__ = ["Table", "Member", "RaceError", "HOST", "GRACE", "NAME_MAX", "MINUTES", "DRAWS",
           "MAX_SEATS", "MAX_WATCHERS", "EVENTS_KEPT", "LOBBY", "RACING", "OVER", "progress",
           "check_name"]

HOST = 0
MAX_SEATS = 4          # the host and up to three friends (N1)
MAX_WATCHERS = 4       # spectators at most (every view lists every member)
GRACE = 60.0           # seconds to come back after a drop (N9)
NAME_MAX = 24          # characters (code points) in a name
DRAWS = (1, 3)         # cards per stock tap (N4)
MINUTES = (None, 5, 10, 15)   # race kinds: None = to the last card, else timed (N4)
EVENTS_KEPT = 100      # the table's memory of what happened
LOBBY, RACING, OVER = "lobby", "racing", "over"


class RaceError(KosynkaError):
    """An action the race's rules refuse; ``code`` is stable (``race/…``, ``move/…``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def check_name(name: object) -> str:
    """``name`` if it is a valid player name, else :class:`RaceError` ``name/bad``."""
    if not isinstance(name, str) or not name.strip():
        raise RaceError("name/bad", "a name is some text")
    if len(name) > NAME_MAX:
        raise RaceError("name/bad", f"a name has at most {NAME_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
        raise RaceError("name/bad", "a name has no control characters")
    return name


def progress(position: Position, moves: int) -> dict[str, int]:
    """N2: what the others see of a player — cards on foundations, face-up
    cards in columns (the N4 tie-break), moves (T1)."""
    return {"foundation": sum(position.foundations),
            "face_up": sum(1 for _ in position.cards_face_up()), "moves": moves}


def _progress(game: Game) -> dict[str, int]:
    return progress(game.position, game.moves)


@dataclass
class Member:
    pid: int
    name: str
    seat: int | None                 # 0–3, None for a spectator
    ready: bool = False
    connected: bool = True
    dropped_at: float | None = None
    score: float = 0.0
    game: Game | None = None         # set for the racers of the current/last race
    status: str = "waiting"          # waiting, watching, racing, resigned, won, lost, draw
    out: str | None = None           # "resigned" or "dropped" once out of a race
    out_at: float | None = None


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
        (at most :data:`MAX_WATCHERS`; past that ``table/full``)."""
        self._advance(now)
        name = check_name(name)
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

    def drop(self, pid: int, now: float) -> None:
        """The member's channel went down: the grace starts (N9)."""
        self._advance(now)
        m = self.member(pid)
        if pid != HOST and m.connected:
            m.connected = False
            m.dropped_at = now
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
        shown = _progress(m.game)
        self._event("moved", pid, **shown)
        if self.offer and pid not in self.offer["agreed"]:
            self._event("cancelled", pid, offer=self.offer["id"], why="moved")
            self.offer = None
        if m.game.is_won:
            self._end(now, "all_up", winners=[m])
        return shown

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

    def _time_up(self, now: float) -> None:
        """N4: most cards on foundations, then most face-up cards in columns;
        still tied among the best → a draw between them."""
        self._event("time_up")
        racing = self.still_racing()
        key = {m.pid: _key(m) for m in racing}
        best = max(key.values())
        top = [m for m in racing if key[m.pid] == best]
        if len(top) > 1:
            self._end(now, "time_up", drawn=top, decided_by="tie")
            return
        rivals = [k for pid, k in key.items() if pid != top[0].pid]
        decided_by = ("foundation" if not rivals or all(k[0] < best[0] for k in rivals)
                      else "face_up")
        self._end(now, "time_up", winners=top, decided_by=decided_by)

    def _end(self, now: float, reason: str, winners: list[Member] | tuple[()] = (),
             drawn: list[Member] | tuple[()] = (), decided_by: str | None = None) -> None:
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
        self.standings = self._standings()
        self._event("ended", **self.end)

    def _standings(self) -> list[dict[str, Any]]:
        rows = []
        reason = self.end["reason"] if self.end else None
        for m in self.racers():
            assert m.game is not None
            pr = _progress(m.game)
            key: tuple[Any, ...]
            if m.status in ("won", "draw"):
                key = (0,)
            else:
                key = (1, m.out is not None, -pr["foundation"], -pr["face_up"], -(m.out_at or 0.0))
            rows.append((key, m, {"pid": m.pid, "name": m.name, "place": 0,
                                  "result": {"won": "won", "draw": "draw"}.get(m.status, "lost"),
                                  **pr, "out": m.out, "why": ""}))
        rows.sort(key=lambda r: r[0])
        for i, (key, _m, row) in enumerate(rows):
            row["place"] = rows[i - 1][2]["place"] if i and rows[i - 1][0] == key else i + 1
        placed = [(m, row) for _, m, row in rows if m.out is None]
        for m, row in placed:
            row["why"] = self._why(m, row, reason, placed)
        for _, m, row in rows:
            if m.out is not None:
                row["why"] = "resigned" if m.out == "resigned" else "counted_out"
        return [row for _, _, row in rows]

    def _why(self, m: Member, row: dict[str, Any], reason: str | None,
             placed: list[tuple[Member, dict[str, Any]]]) -> str:
        """Why a racer still in the race at its end has their place."""
        if row["result"] == "won" and reason in ("all_up", "last_left"):
            return reason
        if row["result"] == "draw" and reason == "agreed":
            return "agreed"
        others = [r for o, r in placed if o is not m]
        if any((r["foundation"], r["face_up"]) == (row["foundation"], row["face_up"])
               for r in others):
            return "tie"
        if any(r["foundation"] == row["foundation"] for r in others):
            return "face_up"
        return "foundation"

    # ----------------------------------------------------------- after a race
    def again(self, pid: int, deal: int | Callable[[], int], now: float) -> None:
        """N11: a new race, same settings, same players, each one seat along;
        the running score is kept."""
        self._advance(now)
        self._host_only(pid, "deal again")
        if self.phase != OVER:
            raise RaceError("race/not_over", "Again comes after a race")
        players = self.seated()
        if len(players) < 2:
            raise RaceError("start/no_friend", "at least one friend must be seated")
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
            at, _, m = min(due, key=lambda d: d[:2])
            self.now = max(self.now, at)
            if m is None:
                self._time_up(at)
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
            if not m.connected and m.dropped_at is None:   # (the host never drops)
                m.dropped_at = now

    # ----------------------------------------------------------- views
    def can(self, pid: int) -> dict[str, bool]:
        """What member ``pid`` may do now — the rules' own answer, for a
        screen's buttons: ``move``, ``offer`` (a draw), ``answer`` (an offer to
        them), ``resign``, ``ready`` (a seated friend in the lobby), and the
        host's ``settings``, ``start``, ``again``, ``change_settings`` and
        ``remove`` (someone, in the lobby)."""
        m = self.members.get(pid)
        racing = self.phase == RACING and m is not None and m.status == "racing"
        lobby, over, host = self.phase == LOBBY, self.phase == OVER, pid == HOST
        friends = [f for f in self.seated() if f.pid != HOST]
        return {
            "move": racing, "resign": racing,
            "offer": racing and self.offer is None,
            "answer": racing and self.offer is not None and pid not in self.offer["agreed"],
            "ready": lobby and not host and m is not None and m.seat is not None,
            "settings": lobby and host,
            "start": lobby and host and bool(friends) and all(f.ready for f in friends),
            "again": over and host and len(self.seated()) >= 2,
            "change_settings": over and host,
            "remove": lobby and host and len(self.members) > 1,
        }

    def outcome(self, pid: int) -> dict[str, Any] | None:
        """How the race went for ``pid``: None while they race (or never raced);
        else ``result`` — ``won``, ``lost``, ``draw``, ``resigned`` or
        ``counted_out`` —, ``why`` (as in the standings), ``place`` and ``of``
        (None until the race is over), and their ``foundation``, ``face_up``,
        ``moves``."""
        m = self.members.get(pid)
        if m is None or m.game is None or m.status in ("racing", "watching", "waiting"):
            return None
        row = next((r for r in self.standings or () if r["pid"] == pid), None)
        result = {"resigned": "resigned", "dropped": "counted_out"}.get(m.out or "", m.status)
        if result == "resigned" and m.status != "resigned" and row is None:
            result = m.status
        return {"result": result, "why": row["why"] if row else result,
                "place": row["place"] if row else None,
                "of": len(self.standings) if row and self.standings else None,
                **_progress(m.game)}

    def view(self, pid: int, since: int | None = None) -> dict[str, Any]:
        """What member ``pid`` is shown (N2): everyone's counters, no one's
        cards — until the race is over, when every table is shown; what they
        may do (``can``), how it went for them (``outcome``), how the race
        ended (``end``), and the ``events`` after number ``since`` (None: none)."""
        players = []
        for m in sorted(self.members.values(), key=lambda m: (m.seat is None, m.seat or 0, m.pid)):
            row: dict[str, Any] = {
                "pid": m.pid, "name": m.name, "seat": m.seat, "host": m.pid == HOST,
                "ready": m.ready, "connected": m.connected, "status": m.status,
                "out": m.out, "score": m.score,
                "away": None if m.dropped_at is None else max(0.0, m.dropped_at + GRACE - self.now)}
            row.update(_progress(m.game) if m.game else {"foundation": 0, "face_up": 0, "moves": 0})
            players.append(row)
        over = self.phase == OVER
        return {
            "you": pid, "phase": self.phase, "can": self.can(pid), "outcome": self.outcome(pid),
            "race": self.race, "deal": self.deal,
            "draw": self.draw, "minutes": self.minutes,
            "clock": (None if self.started_at is None
                      else (self.ended_at if over and self.ended_at is not None else self.now)
                      - self.started_at),
            "ends_in": None if self.ends_at is None else self.ends_at - self.now,
            "players": players,
            "offer": dict(self.offer, agreed=list(self.offer["agreed"])) if self.offer else None,
            "standings": self.standings if over else None,
            "end": dict(self.end) if over and self.end else None,
            "tables": ({str(m.pid): m.game.position.to_json() for m in self.racers()
                        if m.game is not None} if over else None),
            "events": [] if since is None else self.events_since(since),
            "event": self.event_n,
        }


def _key(m: Member) -> tuple[int, int]:
    assert m.game is not None
    pr = _progress(m.game)
    return pr["foundation"], pr["face_up"]
