"""A game as a player has it: position, undo (C5), moves (T1), time, score
(S1–S3), Finish (F1), and the saved-game document (P1).

:class:`Game` wraps a :class:`~kosynka.position.Position`. Everything a player
does is one *action* and counts as one move (T1): a card move, a stock tap (draw
or redeal), an undo, and each card the Finish button plays. The game keeps the
log of actions as notation (``U`` for an undo); the log replayed from the deal is
the truth, which is how a saved game is restored exactly.

Time: the clock starts at the first action, stops at the win, and can be paused
(``pause``/``resume``, e.g. while the page is hidden); any action on a paused
game resumes it (the player is obviously back). Elapsed time is kept in whole
milliseconds (a running stretch is floored when banked, never rounded up), so
a save → load → save round trip keeps it exactly. The clock is injectable:
``Game.new(7, clock=lambda: t[0])``.

Score (S1–S3), computed always; showing it is a setting of the UI:
+10 a card to a foundation, +5 a face-down card turned up, +5 waste → column,
−15 foundation → column; a move's amounts add up. The first redeal is free,
each later one −20. Draws and column → column moves score 0. The score never
goes below 0, and an undo restores the exact score before the move. A win adds
100 plus a time bonus: 1000 under 30 s, else ``min(1000, 30000 // seconds)``.

Decisions where SPEC is silent: a won game is over — no more moves and no undo;
a game finished with the solver's help (F2) is marked ``assisted`` and sets no
record (the UI asks :attr:`Game.sets_record`).

What the last action did is :attr:`Game.last` (a :class:`Played`: the cards
that moved, from where to where, the card it turned up, the win), so a screen
or a screen reader says what happened without comparing two tables.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import kosynka.picking as picking

from .cards import InvalidCardError, parse_card
from .deals import check_number
from .errors import KosynkaError
from .messages import too_deep
from .position import (
    FOUNDATION,
    STOCK,
    WASTE,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Position,
    Rules,
)

__all__ = ["Game", "Played", "SaveError", "SAVE_VERSION", "win_bonus"]

SAVE_VERSION = 1
SAVE_MAX_DEPTH = 1000  # refused before parsing (Pyodide dies at 10,000 levels, CPython raises past ~1,000)
UNDO = "U"


class SaveError(KosynkaError):
    """A saved-game document that cannot be loaded: not JSON, truncated, of an
    unknown version, or describing an impossible game. The message says which."""


@dataclass(frozen=True, slots=True)
class Played:
    """What one action did. ``kind``: ``draw`` (``cards`` the drawn cards, the
    last one on top), ``redeal`` (the waste turned back into the stock), ``move``
    (``cards`` the cards moved, the lead card first, from pile ``src`` to pile
    ``dst``: indices as in :mod:`kosynka.position`) or ``undo`` (the action taken
    back: ``cards`` went from ``src`` back to ``dst``; a card it had turned up
    stays up, C5). ``turned``: the card this action turned face up in a column
    (None if none); ``won``: it put the 52nd card up."""

    kind: str
    cards: tuple[int, ...] = ()
    src: int = STOCK
    dst: int = WASTE
    turned: int | None = None
    won: bool = False


def win_bonus(seconds: float) -> int:
    """S2: 100 + (1000 under 30 s, else min(1000, 30000 // whole seconds))."""
    whole = int(seconds)
    return 100 + (1000 if whole < 30 else min(1000, 30000 // whole))


class Game:
    """One game of Klondike. Make one with :meth:`new` (a numbered deal),
    :meth:`from_position` (any starting position) or :meth:`from_json`."""

    def __init__(self, start: Position, number: int | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.number = number
        self.start = start.copy()
        self.position = start.copy()
        self.clock = clock or time.monotonic
        self.log: list[str] = []
        self.score = 0
        self.assisted = False
        self.last: Played | None = None    # what the last action did
        self._scores: list[int] = []
        self._played: list[Played] = []    # what each action still on the undo stack did
        self._banked_ms = 0                # whole ms played before the running stretch
        self._since: float | None = None   # clock reading while running

    @classmethod
    def new(cls, number: int, rules: Rules = Rules(),
            clock: Callable[[], float] | None = None) -> "Game":
        return cls(Position.deal(number, rules), number, clock)

    @classmethod
    def from_position(cls, start: Position, clock: Callable[[], float] | None = None) -> "Game":
        return cls(start, None, clock)

    def restarted(self) -> "Game":
        """V2: the same deal from the beginning, counters at zero."""
        return Game(self.start, self.number, self.clock)

    # ----------------------------------------------------------- state
    @property
    def rules(self) -> Rules:
        return self.position.rules

    @property
    def moves(self) -> int:
        """T1: every action so far (card moves, stock taps, undos, Finish cards)."""
        return len(self.log)

    @property
    def is_won(self) -> bool:
        return self.position.is_won

    @property
    def can_undo(self) -> bool:
        return self.position.ply > 0 and not self.is_won

    @property
    def sets_record(self) -> bool:
        """T2/F2: a win that counts for records (not assisted)."""
        return self.is_won and not self.assisted

    @property
    def auto_finish_available(self) -> bool:
        """F1: not won yet, and foundation moves alone finish it."""
        return not self.is_won and picking.finish_moves(self.position) is not None

    def finish_moves(self) -> list[str] | None:
        """F1: the foundation moves that finish the game, or None."""
        return picking.finish_moves(self.position)

    def legal_moves(self) -> list[str]:
        """Every legal move now, in notation (none once won)."""
        if self.is_won:
            return []
        p = self.position
        return [p.format_move(m) for m in p.legal_moves]

    def is_legal(self, move: Move | str) -> bool:
        """May ``move`` (a :class:`Move`, e.g. ``DRAW``, or notation) be played
        now? Never once won."""
        if self.is_won:
            return False
        if isinstance(move, str):
            try:
                self.position.parse_move(move)
            except (InvalidMoveError, IllegalMoveError):
                return False
            return True
        return self.position.is_legal(move)

    def outcome(self) -> Outcome | None:
        """How the game has ended — won, no legal move left, a dead end — or None
        while it goes on (:meth:`Position.outcome`)."""
        return self.position.outcome()

    def targets(self, card: str) -> list[str]:
        """C4: the destinations (``F``, ``1``–``7``) where ``card`` and everything
        on it may legally go now; empty if it cannot move."""
        if self.is_won:
            return []
        try:
            return self.position.targets(parse_card(card))
        except InvalidCardError:
            return []

    def card_moves(self, card: int) -> list[Move]:
        """C4: the legal moves of ``card`` with everything on it (to its
        foundation first, then the columns left to right); none once won."""
        return [] if self.is_won else self.position.card_moves(card)

    def pick_at(self, pile: int, index: int | None = None) -> int | None:
        """C1/C2: the card a touch on ``pile`` (index ``index``) picks up, or None;
        nothing once the game is won (see :func:`kosynka.picking.pick_at`)."""
        return None if self.is_won else picking.pick_at(self.position, pile, index)

    def run_with(self, card: int) -> tuple[int, ...]:
        """The cards that leave with ``card`` if it is picked up (R4, R8, R9);
        empty if it cannot be, or once the game is won."""
        return () if self.is_won else picking.run_with(self.position, card)

    # ----------------------------------------------------------- time
    def elapsed_ms(self) -> int:
        """Whole milliseconds of play so far (frozen once won or paused)."""
        if self._since is None:
            return self._banked_ms
        return self._banked_ms + max(0, math.floor((self.clock() - self._since) * 1000))

    def elapsed(self) -> float:
        """Seconds of play so far (frozen once won or paused), to the millisecond."""
        return self.elapsed_ms() / 1000

    def pause(self) -> None:
        self._banked_ms = self.elapsed_ms()
        self._since = None

    def resume(self) -> None:
        """Restart a paused clock (only for a game under way and not won)."""
        if self._since is None and self.log and not self.is_won:
            self._since = self.clock()

    # ----------------------------------------------------------- actions
    def play(self, move: Move | str, assisted: bool = False) -> Move:
        """Make ``move``, a :class:`Move` or notation (``D``, ``Th>4``,
        ``Ah>F``); returns the :class:`Move`. Raises IllegalMoveError /
        InvalidMoveError with the reason; nothing changes then.

        ``assisted``: the move comes from the solver's Finish (F2). Played before
        F1 applies, it makes the game :attr:`assisted` (no record); once F1
        applies the rest is the Finish every player gets, and counts as theirs."""
        if self.is_won:
            raise IllegalMoveError(f"{move}: the game is won")
        p = self.position
        if isinstance(move, str):
            m, text = p.parse_move(move), move
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"a move must be a Move or notation, not {move!r}")
        elif p.is_legal(move):
            m, text = move, p.format_move(move)
        else:
            raise IllegalMoveError(f"illegal move {move!r}")
        if assisted and not self.auto_finish_available:
            self.assisted = True
        self._run_clock()
        self._apply(m, text)
        return m

    def undo(self) -> None:
        """C5: take back the last move; a card it turned up stays up. Counts as
        a move (T1)."""
        if not self.can_undo:
            raise IllegalMoveError("nothing to undo" if not self.is_won else "the game is won")
        self._run_clock()
        self._undo()

    def _run_clock(self) -> None:
        """An action starts the clock, or resumes it if paused."""
        if self._since is None:
            self._since = self.clock()

    def _apply(self, m: Move, text: str) -> None:
        p = self.position
        src, dst = m.src, m.dst
        delta = 0
        if src == STOCK:
            if not p.stock and p.redeals_used >= 1:
                delta = -20
        else:
            if p.revealed_by(m) is not None:
                delta += 5
            if dst >= FOUNDATION:
                delta += 10
            elif src == WASTE:
                delta += 5
            elif src >= FOUNDATION:
                delta -= 15
        self._scores.append(self.score)
        turns = p.revealed_by(m)
        cards = _moving(p, m)
        p.push(m)
        self.score = max(0, self.score + delta)
        self.log.append(text)
        if src == STOCK:
            played = Played("draw", cards) if cards else Played("redeal")
        else:
            played = Played("move", cards, src, dst,
                            None if turns is None else p.columns[turns][-1], p.is_won)
        self.last = played
        self._played.append(played)
        if p.is_won:
            self.pause()
            self.score += win_bonus(self.elapsed())

    def _undo(self) -> None:
        self.position.pop(keep_revealed=True)  # C5
        self.score = self._scores.pop()
        self.log.append(UNDO)
        was = self._played.pop()
        self.last = Played("undo", was.cards, was.dst, was.src)

    # ----------------------------------------------------------- save / load
    def to_json(self) -> str:
        """The whole game as a compact JSON document (schema ``SAVE_VERSION``).
        ``log`` is the actions joined by spaces; ``elapsed_ms`` the time played in
        whole milliseconds (older saves have ``elapsed``, seconds with three
        decimals: still read); ``position``, ``score`` and ``moves`` are
        redundant copies for quick painting and consistency."""
        return json.dumps({
            "kosynka": "game",
            "v": SAVE_VERSION,
            "number": self.number,
            "rules": self.rules.to_json(),
            "deal": self.start.to_json(),
            "log": " ".join(self.log),
            "elapsed_ms": self.elapsed_ms(),
            "assisted": self.assisted,
            "score": self.score,
            "moves": self.moves,
            "position": self.position.to_json(),
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, clock: Callable[[], float] | None = None) -> "Game":
        """Load a document made by :meth:`to_json`; raises :class:`SaveError`
        (never anything else) if it cannot be loaded exactly."""
        probe = text.decode("latin-1") if isinstance(text, (bytes, bytearray)) else text
        if isinstance(probe, str) and too_deep(probe, SAVE_MAX_DEPTH):  # before parsing: Pyodide
            raise SaveError("saved game is not a saved game: JSON nested too deep")  # dies on deep JSON
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as e:
            raise SaveError(f"saved game is not valid JSON (corrupt or truncated): {e}") from None
        except RecursionError:
            raise SaveError("saved game is not a saved game: JSON nested too deep") from None
        if not isinstance(data, dict) or data.get("kosynka") != "game":
            raise SaveError("not a Kosynka saved game")
        v = data.get("v")
        if isinstance(v, bool) or v != SAVE_VERSION:   # true == 1 in Python: not a version
            if isinstance(v, int) and not isinstance(v, bool) and v > SAVE_VERSION:
                raise SaveError(f"saved game has schema version {v}, newer than this "
                                f"Kosynka reads ({SAVE_VERSION})")
            raise SaveError(f"saved game has unknown schema version {v!r}")
        try:
            return cls._load(data, clock)
        except SaveError:
            raise
        except (InvalidPositionError, IllegalMoveError, InvalidMoveError) as e:
            raise SaveError(f"saved game is inconsistent: {e}") from None
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
            raise SaveError(f"saved game is malformed: {e!r}") from None

    @classmethod
    def _load(cls, data: dict[str, Any], clock: Callable[[], float] | None) -> "Game":
        rules = Rules.from_json(data["rules"])
        start = Position.from_json(data["deal"], rules)
        number = data.get("number")
        if number is not None:
            check_number(number)
            if start != Position.deal(number, rules):
                raise SaveError(f"saved game's deal does not match deal number {number}")
        if "elapsed_ms" in data:
            elapsed_ms = data["elapsed_ms"]
            if isinstance(elapsed_ms, bool) or not isinstance(elapsed_ms, int) or elapsed_ms < 0:
                raise SaveError(f"saved game has a bad elapsed time {elapsed_ms!r}")
        else:   # saves before elapsed_ms: seconds with 3 decimals
            elapsed = data.get("elapsed", 0)
            if (isinstance(elapsed, bool) or not isinstance(elapsed, (int, float))
                    or not math.isfinite(elapsed) or elapsed < 0):
                raise SaveError(f"saved game has a bad elapsed time {elapsed!r}")
            elapsed_ms = round(elapsed * 1000)
        log = data.get("log", "")
        if not isinstance(log, str):
            raise SaveError("saved game's log must be a string")
        game = cls(start, number, clock)
        game._banked_ms = elapsed_ms
        for i, action in enumerate(log.split()):
            if game.is_won:
                raise SaveError(f"saved game goes on after the win (action {i + 1})")
            try:
                if action == UNDO:
                    if not game.can_undo:
                        raise IllegalMoveError("nothing to undo")
                    game._undo()
                else:
                    game._apply(game.position.parse_move(action), action)
            except (IllegalMoveError, InvalidMoveError, InvalidCardError) as e:
                raise SaveError(f"saved game's action {i + 1} ({action}) is impossible: {e}") from None
        game.assisted = bool(data.get("assisted", False))
        if "position" in data and Position.from_json(data["position"], rules) != game.position:
            raise SaveError("saved game's position does not match its moves")
        for field, value in (("score", game.score), ("moves", game.moves)):
            if field in data and data[field] != value:
                raise SaveError(f"saved game's {field} {data[field]!r} does not match its moves ({value})")
        if game.log and not game.is_won:
            game._since = game.clock()
        return game

    def __repr__(self) -> str:
        return (f"<Game number={self.number} {self.rules.name} moves={self.moves} "
                f"score={self.score} won={self.is_won}>")


def _moving(p: Position, m: Move) -> tuple[int, ...]:
    """The cards move ``m`` takes (before it is made), the lead card first; a
    draw's cards as they will lie on the waste (the top one last)."""
    src, n = m.src, m.count
    if src == STOCK:
        return p.stock[:-min(p.rules.draw, len(p.stock)) - 1:-1] if p.stock else ()
    if src < 7:
        return tuple(p.columns[src][-n:])
    if src == WASTE:
        return p.waste[-1:]
    return ((p.foundations[src - FOUNDATION] - 1) * 4 + src - FOUNDATION,)
