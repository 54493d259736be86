"""What a member of a race table is shown (SPEC N2): the view each one gets —
everyone's counters, no one's cards until the race is over — and what the rules
let them do now (``can``), for a screen's buttons.

A view's fields: the package docstring (:mod:`kosynka.race`); the schema a
player checks each against: :data:`kosynka.race.protocol.VIEW`.

What happened is kept as **events** (:meth:`Table.events_since`): each change
appends one or more, numbered (``n``), and a view carries those its member has
not had (the host keeps where each member is); the table keeps the last
:data:`EVENTS_KEPT`. Kinds (``kind``; ``pid`` and ``name`` of whom it is about):

=============== ==============================================================
``joined``      ``seat`` (``None``: watching)
``seated``      a spectator got a free seat (``seat``)
``left``        ``why``: ``away`` (the grace ran out outside a race), ``removed``, or
                ``left`` (they said Leave, N12; racing, ``resigned`` comes first)
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
"""

from __future__ import annotations

from typing import Any, Protocol

from .standings import shown
from .terms import GRACE, HOST, LOBBY, OVER, RACING, Member

__all__ = ["can", "view"]


class Table(Protocol):
    """What a view reads of a :class:`~kosynka.race.table.Table`."""

    members: dict[int, Member]
    phase: str
    race: int
    deal: int | None
    draw: int
    minutes: int | None
    started_at: float | None
    ended_at: float | None
    now: float
    offer: dict[str, Any] | None
    standings: list[dict[str, Any]] | None
    end: dict[str, Any] | None
    event_n: int

    @property
    def ends_at(self) -> float | None: ...
    def seated(self) -> list[Member]: ...
    def racers(self) -> list[Member]: ...
    def outcome(self, pid: int) -> dict[str, Any] | None: ...
    def events_since(self, n: int) -> list[dict[str, Any]]: ...


def can(table: Table, pid: int) -> dict[str, bool]:
    """What member ``pid`` may do now — the rules' own answer, for a
    screen's buttons: ``move``, ``offer`` (a draw), ``answer`` (an offer to
    them), ``resign``, ``ready`` (a seated friend in the lobby), and the
    host's ``settings``, ``start``, ``again``, ``change_settings`` and
    ``remove`` (someone, in the lobby)."""
    m = table.members.get(pid)
    racing = table.phase == RACING and m is not None and m.status == "racing"
    lobby, over, host = table.phase == LOBBY, table.phase == OVER, pid == HOST
    friends = [f for f in table.seated() if f.pid != HOST]
    return {
        "move": racing, "resign": racing,
        "offer": racing and table.offer is None,
        "answer": racing and table.offer is not None and pid not in table.offer["agreed"],
        "ready": lobby and not host and m is not None and m.seat is not None,
        "settings": lobby and host,
        "start": lobby and host and bool(friends) and all(f.ready for f in friends),
        "again": over and host and len([s for s in table.seated() if not s.left]) >= 2,
        "change_settings": over and host,
        "remove": lobby and host and len(table.members) > 1,
    }


def left_of(span: float, elapsed: float) -> float:
    """Seconds left of ``span`` after ``elapsed``: 0 to ``span``, both included.

    Written as ``span - elapsed``, never as ``start + span - now``: in floating
    point ``(t + 60.0) - t`` is 60.000000000000007 for one clock value in five
    (t = 4.4, say), which a player's view check (``protocol.VIEW``: ``away`` is
    0 to GRACE) refuses — the whole view was dropped, and a friend's drop at
    such a moment was never shown (the red CI of stop 34)."""
    return min(span, max(0.0, span - elapsed))


def view(table: Table, pid: int, since: int | None = None) -> dict[str, Any]:
    """What member ``pid`` is shown (N2): everyone's counters, no one's
    cards — until the race is over, when every table is shown; what they
    may do (``can``), how it went for them (``outcome``), how the race
    ended (``end``), and the ``events`` after number ``since`` (None: none)."""
    players = []
    for m in sorted(table.members.values(), key=lambda m: (m.seat is None, m.seat or 0, m.pid)):
        row: dict[str, Any] = {
            "pid": m.pid, "name": m.name, "seat": m.seat, "host": m.pid == HOST,
            "ready": m.ready, "connected": m.connected, "status": m.status,
            "out": m.out, "score": m.score, "left": m.left,
            "away": None if m.dropped_at is None else left_of(GRACE, table.now - m.dropped_at)}
        row.update(shown(m.game) if m.game else {"foundation": 0, "face_up": 0, "moves": 0})
        players.append(row)
    over = table.phase == OVER
    return {
        "you": pid, "phase": table.phase, "can": can(table, pid), "outcome": table.outcome(pid),
        "race": table.race, "deal": table.deal,
        "draw": table.draw, "minutes": table.minutes,
        "clock": (None if table.started_at is None
                  else (table.ended_at if over and table.ended_at is not None else table.now)
                  - table.started_at),
        "ends_in": (None if table.ends_at is None or table.minutes is None
                    or table.started_at is None
                    else left_of(table.minutes * 60, table.now - table.started_at)),
        "players": players,
        "offer": dict(table.offer, agreed=list(table.offer["agreed"])) if table.offer else None,
        "standings": table.standings if over else None,
        "end": dict(table.end) if over and table.end else None,
        "tables": ({str(m.pid): m.game.position.to_json() for m in table.racers()
                    if m.game is not None} if over else None),
        "events": [] if since is None else table.events_since(since),
        "event": table.event_n,
    }
