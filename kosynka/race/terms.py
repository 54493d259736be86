"""The race's terms (SPEC N1, N3, N4, N9): its numbers (seats, the grace, the
race kinds), the table's phases, a member of the table, a name, a refusal —
imported by the table, its standings and views and the protocol (screens and
tests import them through :mod:`kosynka.race.table`)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import names
from ..errors import KosynkaError
from ..game import Game

__all__ = ["HOST", "MAX_SEATS", "MAX_WATCHERS", "GRACE", "NAME_MAX", "DRAWS", "MINUTES",
           "EVENTS_KEPT", "LOBBY", "RACING", "OVER", "RaceError", "check_name", "Member"]

HOST = 0
MAX_SEATS = 4          # the host and up to three friends (N1)
MAX_WATCHERS = 4       # spectators at most (every view lists every member)
GRACE = 60.0           # seconds to come back after a drop (N9)
NAME_MAX = names.NAME_MAX   # characters (code points) in a name
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
    """``name`` if it is a valid player name (:func:`kosynka.names.check_name`),
    else :class:`RaceError` ``name/bad``, the race's word for it."""
    try:
        return names.check_name(name)
    except names.InvalidNameError as e:
        raise RaceError(e.code, e.detail) from None


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
    left: bool = False               # said Leave (N12) in or after a race they raced:
                                     # their row stays until the table moves on
