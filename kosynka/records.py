"""The player's records and statistics (T2): what counts, and how — pure, no
storage (``web.store`` saves and loads them).

:class:`Records` holds the best time and fewest moves per variant key
(:func:`kosynka.variants.key`: ``d1``, ``d3``, ``d3r2`` …), the Deal of the day's
best per date and variant, and the global statistics (:data:`STAT_KEYS`).

Rules (user-visible):

- Records are of wins only: the best time and the fewest moves, each kept on its
  own (a win may set one and not the other).
- A game counts as played once a move was made in it (:func:`in_progress`) and
  it was won or abandoned (a new deal, Restart, Deal of the day or a link while
  it was in progress); abandoning ends the current streak, a win lengthens it.
- A win the solver finished (F2, ``assisted``) is counted apart — "finished by
  the solver" (``assisted``) — and nowhere else: not played, not won, the streak
  neither grows nor ends, no record; so the win rate, the streaks and the records
  are the player's own (issue 12 item 3).
- The Deal of the day keeps the last :data:`DAILY_KEPT` dates.
- Reading what was saved (:meth:`Records.from_json`) keeps what it can: a part
  or a counter of the wrong shape reads as empty or 0, a best whose time or
  move count is not a whole number from 0 to :data:`MAX_COUNT` (a string,
  null, a list, ``1e400``) is left out, and the reader says that
  something was dropped (issue 32) (records saved before the assisted count existed read it
  as 0, silently).

>>> r = Records()
>>> r.record_win("d1", 95, 120, assisted=False).new_time
True
>>> r.record_win("d1", 80, 130, assisted=False).new_moves
False
>>> r.record_abandon()
>>> r.best("d1"), r.stats["played"], r.stats["streak"], win_percent(r.stats)
({'time': 80, 'moves': 120}, 3, 0, 67)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import Game
from .variants import read_date

__all__ = ["Records", "WinResult", "STAT_KEYS", "DAILY_KEPT", "in_progress", "win_percent"]

STAT_KEYS = ("played", "won", "streak", "best_streak", "assisted")
DAILY_KEPT = 60


def in_progress(game: Game | None) -> bool:
    """A game in progress: a move made and not won — leaving it counts as played."""
    return game is not None and game.moves > 0 and not game.is_won


def win_percent(stats: dict[str, int]) -> int:
    """Wins of the games played, in whole percent (0 before the first)."""
    return round(100 * stats["won"] / stats["played"]) if stats.get("played") else 0


@dataclass
class WinResult:
    """What a win changed: which records fell."""

    new_time: bool
    new_moves: bool
    daily_new_time: bool = False
    daily_new_moves: bool = False

    @property
    def any(self) -> bool:
        return self.new_time or self.new_moves or self.daily_new_time or self.daily_new_moves


Best = dict[str, int]

MAX_COUNT = 2**31 - 1  # a time (s), a move count or a statistic above it is damage
MAX_KEY = 16  # characters of a variant key (``d3r2``; a newer version's may be longer)


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT


def _bests(value: Any) -> tuple[dict[str, Best], bool]:
    """The bests of ``{variant key: best}`` that can be used, and whether all could."""
    if not isinstance(value, dict):
        return {}, False
    out: dict[str, Best] = {}
    ok = True
    for k, b in value.items():
        fields = {f: n for f, n in b.items() if _count(n)} if isinstance(b, dict) else {}
        if len(k) > MAX_KEY or not isinstance(b, dict) or len(fields) < len(b) or not fields:
            ok = False
        if len(k) <= MAX_KEY and fields:
            out[k] = fields
    return out, ok


def _better(best: Best, seconds: int, moves: int) -> tuple[Best, bool, bool]:
    """``best`` after a win in ``seconds`` and ``moves``, and which of the two fell."""
    out = dict(best)
    new_time = "time" not in best or seconds < best["time"]
    new_moves = "moves" not in best or moves < best["moves"]
    if new_time:
        out["time"] = seconds
    if new_moves:
        out["moves"] = moves
    return out, new_time, new_moves


class Records:
    """Best results and statistics; ``Records()`` is a first visit's."""

    def __init__(self) -> None:
        self.best_of: dict[str, Best] = {}                 # variant key → best
        self.daily: dict[str, dict[str, Best]] = {}        # date → variant key → best
        self.stats: dict[str, int] = dict.fromkeys(STAT_KEYS, 0)

    # ----------------------------------------------------------- reading
    @classmethod
    def from_json(cls, data: Any) -> tuple["Records", bool]:
        """The records in ``data`` (as :meth:`to_json` wrote them) and whether all
        of it could be used; what cannot is left out (see the module's rules):
        every best is a time and a move count, each a whole number from 0 to
        :data:`MAX_COUNT`, under a variant key of at most :data:`MAX_KEY` characters
        (keys of a newer version kept) or, in the Deal of the day's part, under an
        ISO date; a best's other fields (a newer version's) are kept when they are
        such numbers too."""
        r = cls()
        if not isinstance(data, dict):
            return r, False
        best, ok_best = _bests(data.get("best"))
        r.best_of.update(best)
        daily = data.get("daily")
        ok = ok_best and isinstance(daily, dict)
        for date, day in (daily.items() if isinstance(daily, dict) else ()):
            bests, ok_day = _bests(day)
            ok = ok and ok_day and read_date(date) == date
            if bests and read_date(date) == date:
                r.daily[date] = bests
        for old in sorted(r.daily)[:-DAILY_KEPT]:
            del r.daily[old]
        stats = data.get("stats")
        if not isinstance(stats, dict):
            return r, False
        for k in STAT_KEYS:
            v = stats.get(k, 0)
            if _count(v):
                r.stats[k] = v
            else:
                ok = False
        return r, ok

    def to_json(self) -> dict[str, Any]:
        return {"best": self.best_of, "daily": self.daily, "stats": dict(self.stats)}

    def best(self, vkey: str) -> Best:
        """The best time and fewest moves of variant ``vkey`` (``{}`` before a win)."""
        b = self.best_of.get(vkey)
        return b if isinstance(b, dict) else {}

    def daily_best(self, date: str, vkey: str) -> Best:
        day = self.daily.get(date)
        b = day.get(vkey) if isinstance(day, dict) else None
        return b if isinstance(b, dict) else {}

    # ----------------------------------------------------------- counting
    def record_abandon(self) -> None:
        """A game in progress was left: played +1, the streak ends."""
        self.stats["played"] += 1
        self.stats["streak"] = 0

    def record_win(self, vkey: str, seconds: int, moves: int, assisted: bool,
                   daily: str | None = None) -> WinResult:
        """Count a win: the player's own sets records; one the solver finished
        (``assisted``, F2) only counts apart. ``daily``: the date of the Deal of the day."""
        st = self.stats
        res = WinResult(False, False)
        if assisted:
            st["assisted"] += 1
            return res
        st["played"] += 1
        st["won"] += 1
        st["streak"] += 1
        st["best_streak"] = max(st["best_streak"], st["streak"])
        self.best_of[vkey], res.new_time, res.new_moves = _better(self.best(vkey), seconds, moves)
        if daily:
            day = self.daily.get(daily)
            day = dict(day) if isinstance(day, dict) else {}
            day[vkey], res.daily_new_time, res.daily_new_moves = _better(
                self.daily_best(daily, vkey), seconds, moves)
            self.daily[daily] = day
            for old in sorted(self.daily)[:-DAILY_KEPT]:
                del self.daily[old]
        return res
