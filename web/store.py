"""What Kosynka keeps in the browser: settings, the game in progress, records, stats.

Everything lives in ``localStorage`` on this device only (P1, P2), one JSON value per
key, each with its own schema version ``v`` so one broken value never costs the
others. ``Store`` takes any mapping-like backend (``get(key) -> str | None``,
``set(key, value)``, ``remove(key)``), so the rules here are tested on CPython.

Decisions (user-visible):
- A value that can't be read — corrupt JSON, an older or a newer schema, a game the
  engine refuses (``SaveError``) — is set aside under ``<key>.bad`` (so a newer
  version of the app can still find it) and replaced by defaults; the app says so
  once (``Store.problems``).
- The saved game is an envelope ``{"v", "rev", "tab", "game"}``: ``rev`` grows by one
  at every save, whichever tab made it. A tab that sees (``storage`` event) a save
  with a higher ``rev`` from another tab adopts it and says so, so two tabs never
  lose moves silently: the last move made in either tab is the game. An envelope
  whose ``rev`` is not a whole number 0 … 2⁵³ (``Infinity``, a string) is set aside
  like any damaged value, so the next save starts again from 1 (issue 32).
- Every stored value is read through :func:`loads_stored`: one over 1 MB or nested
  over 16 levels is set aside before it is parsed (Pyodide's runtime dies on
  10,000 levels, the page would never start); non-finite numbers read as null; then
  each reader checks the type and range of every field it uses (``Settings``,
  :func:`envelope`, ``kosynka.records``) and drops what it cannot use (issue 32).
- Records and statistics (T2) are one value (``kosynka.records.Records``: what
  counts and how lives there); they are read afresh from storage before each
  change (``Store.change_records``), so a win or an abandoned game in another tab
  is never overwritten.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Callable, Protocol, TypeVar

from kosynka import variants
from kosynka.messages import loads_bounded
from kosynka.position import Rules
from kosynka.records import Records

T = TypeVar("T")

# Every key the page keeps in the browser's storage, and the look's values, are
# written here and nowhere else (issue 28 item 4): web/boot/paint.js gets those it
# reads through the build's data (tools/firstpaint.py), tests check that none is
# written twice (tests/test_web_store.py, tests/test_first_paint.py).
SETTINGS_KEY = "kosynka.settings"
AUTO_THEME = "auto"  # follows the system; the others go to html[data-theme] as they are
THEMES = (AUTO_THEME, "light", "dark")  # issue 13
RIGHT_HAND, LEFT_HAND = "right", "left"  # issue 13: where the stock and the waste stand
HANDS = (RIGHT_HAND, LEFT_HAND)
GAME_KEY = "kosynka.game"
RECORDS_KEY = "kosynka.records"
PAINT_KEY = "kosynka.paint"          # the table as last shown (written by web/boot/paint.js)
PROBE_KEY = "kosynka.probe"          # set and removed at once: may this page store? (web.dom, paint.js)
NEXT_KEY = "kosynka.next"            # a verified deal searched ahead per variant (web.solve)
BOOK_KEY = "kosynka.challenges"      # the device's list of challenges (web.challenge)
KEPT_KEY = "kosynka.challenge.kept"  # the solo game kept aside while a challenge's is played
# the race's (read and written by ``web.race.stored.RaceStore``, their own formats:
# bare JSON or text, no schema envelope; issues 11 and 19)
RACE_NAME_KEY = "kosynka.race.name"          # the player's name at a table
RACE_SETTINGS_KEY = "kosynka.race.settings"  # the host's draw and race kind
RACE_ICE_KEY = "kosynka.race.ice"            # the ICE servers (web.race.ice)
RACE_RELAYS_KEY = "kosynka.race.relays"      # the Nostr relays (web.race.ice)
RACE_SPEED_KEY = "kosynka.race.test_speed"   # tests only: the race clock sped up
RACE_SEATS_KEY = "kosynka.race.seats"        # a friend's seat per table (N9)
RACE_USED_KEY = "kosynka.race.used"          # the invites this browser answered
RACE_SEAT_KEY = "kosynka.race.seat"          # sessionStorage: this tab's way back (N9)
SCHEMA = 1

REDEAL_CHOICES = (None, 3, 2, 1)
MAX_CHARS = 1_000_000   # a stored value longer than this is damage (a long game's save: ~60 kB)
MAX_DEPTH = 16          # nor one nested deeper (records nest 4 deep, a saved game 4)
MAX_REV = 2**53         # a save's rev above it (or Infinity) is damage, set aside


class Backend(Protocol):
    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def remove(self, key: str) -> None: ...


class MemoryBackend:
    """A dict standing in for localStorage (tests, and the page when storage is off)."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)


def loads_stored(raw: str) -> Any:
    """The JSON value of a stored string; ``ValueError`` — before parsing — when it is
    over :data:`MAX_CHARS` or nested over :data:`MAX_DEPTH` (issue 32: such a value
    once stopped the page), non-finite numbers read as null (``kosynka.messages``)."""
    return loads_bounded(raw, MAX_CHARS, MAX_DEPTH)


def envelope(d: Any) -> dict[str, Any] | None:
    """The saved game's envelope in ``d`` if this version can use it: the game a
    string, ``rev`` a whole number 0 … :data:`MAX_REV`, ``meta`` an object (or
    none); of ``meta``, ``daily`` is kept only when it is a date (it names a
    records key), the others are checked where they are used."""
    if not isinstance(d, dict) or not isinstance(d.get("game"), str):
        return None
    rev, meta = d.get("rev"), d.get("meta") or {}
    if isinstance(rev, bool) or not isinstance(rev, int) or not 0 <= rev <= MAX_REV:
        return None
    if not isinstance(meta, dict):
        return None
    return dict(d, meta=dict(meta, daily=variants.read_date(meta.get("daily"))))


def variant_key(draw: int, redeals: int | None) -> str:
    """Records key of a variant (T2), as the engine writes it (``kosynka.variants.key``)."""
    return variants.key(Rules(draw, redeals))


@dataclass
class Settings:
    """Player's choices. ``lang`` None = follow the browser. ``auto``: safe cards go
    to the foundations by themselves after each move (off by default, issue 12).
    ``hints`` (C4): off at first, then as the player left them (issue 32)."""

    draw: int = 1
    redeals: int | None = None
    score: bool = True
    lang: str | None = None
    auto: bool = False
    theme: str = AUTO_THEME  # issue 13: one of THEMES
    hand: str = RIGHT_HAND  # issue 13: one of HANDS
    hints: bool = False

    @classmethod
    def from_dict(cls, d: Any) -> "Settings":
        if not isinstance(d, dict):
            raise ValueError("settings are not an object")
        s = cls()
        try:  # the variant as a whole, read by the engine; a bad one keeps the default
            rules = variants.from_fields(d.get("draw"), d.get("redeals"))
            if rules.redeals in REDEAL_CHOICES:
                s.draw, s.redeals = rules.draw, rules.redeals
        except ValueError:
            pass
        for name in ("score", "auto", "hints"):
            if isinstance(d.get(name), bool):
                setattr(s, name, d[name])
        if d.get("lang") in ("uk", "ru", "en", None):
            s.lang = d.get("lang")
        if d.get("theme") in THEMES:
            s.theme = d["theme"]
        if d.get("hand") in HANDS:
            s.hand = d["hand"]
        return s


class Store:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.problems: list[str] = []  # keys whose stored value could not be used
        self.rev = 0  # rev of the last game save this tab wrote or adopted
        self.records = self._load_records()

    # -- helpers ---------------------------------------------------------
    def _read(self, key: str) -> Any:
        raw = self.backend.get(key)
        if raw is None:
            return None
        try:
            value = loads_stored(raw)
            if not isinstance(value, dict) or value.get("v") != SCHEMA:
                raise ValueError(f"unknown schema {value.get('v') if isinstance(value, dict) else '?'}")
            return value
        except ValueError:
            self.set_aside(key)
            return None

    def set_aside(self, key: str) -> None:
        """Keep an unreadable value under ``<key>.bad`` and note the problem once."""
        raw = self.backend.get(key)
        if raw is not None:
            try:
                self.backend.set(key + ".bad", raw)
            except Exception:  # quota: losing the copy is better than breaking
                pass
            self.backend.remove(key)
        if key not in self.problems:
            self.problems.append(key)

    def _write(self, key: str, value: dict[str, Any]) -> None:
        value = dict(value, v=SCHEMA)
        try:
            self.backend.set(key, json.dumps(value, separators=(",", ":")))
        except Exception:
            pass  # storage full or disabled: the game goes on unsaved

    # -- settings ----------------------------------------------------------
    def load_settings(self) -> Settings:
        d = self._read(SETTINGS_KEY)
        if d is None:
            return Settings()
        try:
            return Settings.from_dict(d)
        except ValueError:
            self.set_aside(SETTINGS_KEY)
            return Settings()

    def save_settings(self, s: Settings) -> None:
        self._write(SETTINGS_KEY, asdict(s))

    # -- game in progress (P1) ---------------------------------------------
    def load_game_envelope(self) -> dict[str, Any] | None:
        """The saved envelope ``{"rev", "tab", "game": str, "meta": {...}}`` or None."""
        env = envelope(self._read(GAME_KEY))
        if env is None:
            if self.backend.get(GAME_KEY) is not None:
                self.set_aside(GAME_KEY)
            return None
        self.rev = max(self.rev, env["rev"])
        return env

    def stored_rev(self) -> int:
        """The rev of the game stored now (0: none, or one that cannot be read)."""
        raw = self.backend.get(GAME_KEY)
        try:
            env = envelope(loads_stored(raw)) if raw is not None else None
        except ValueError:
            env = None
        return 0 if env is None else int(env["rev"])

    def save_game(self, game_json: str, tab: str, meta: dict[str, Any] | None = None) -> int:
        """Write the game; returns the new rev (one above anything stored)."""
        self.rev = max(self.rev, self.stored_rev()) + 1
        self._write(GAME_KEY, {"rev": self.rev, "tab": tab, "game": game_json, "meta": meta or {}})
        return self.rev

    def clear_game(self) -> None:
        self.backend.remove(GAME_KEY)

    # -- records and stats (T2) --------------------------------------------
    def _load_records(self) -> Records:
        records, ok = Records.from_json(self._read(RECORDS_KEY) or {"best": {}, "daily": {},
                                                                     "stats": {}})
        if not ok and RECORDS_KEY not in self.problems:
            self.problems.append(RECORDS_KEY)
        return records

    def reload_records(self) -> None:
        self.records = self._load_records()

    def change_records(self, change: Callable[[Records], T]) -> T:
        """``change`` the records as they are stored now (another tab's win kept), save them."""
        self.reload_records()
        result = change(self.records)
        self._write(RECORDS_KEY, self.records.to_json())
        return result


def format_time(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of whole seconds.

    >>> format_time(65.9), format_time(3600)
    ('1:05', '1:00:00')
    """
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
