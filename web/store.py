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
  lose moves silently: the last move made in either tab is the game.
- Records and statistics (T2) are one value (``kosynka.records.Records``: what
  counts and how lives there); they are read afresh from storage before each
  change (``Store.change_records``), so a win or an abandoned game in another tab
  is never overwritten.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, asdict
from typing import Any, Callable, Protocol, TypeVar

from kosynka import variants
from kosynka.position import Rules
from kosynka.records import Records

T = TypeVar("T")

SETTINGS_KEY = "kosynka.settings"
THEMES = ("auto", "light", "dark")  # issue 13 (web/boot/paint.js reads theme and hand too)
HANDS = ("right", "left")
GAME_KEY = "kosynka.game"
RECORDS_KEY = "kosynka.records"
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


def variant_key(draw: int, redeals: int | None) -> str:
    """Records key of a variant (T2), as the engine writes it (``kosynka.variants.key``)."""
    return variants.key(Rules(draw, redeals))


@dataclass
class Settings:
    """Player's choices. ``lang`` None = follow the browser. ``auto``: safe cards go
    to the foundations by themselves after each move (off by default, issue 12)."""

    draw: int = 1
    redeals: int | None = None
    score: bool = True
    lang: str | None = None
    auto: bool = False
    theme: str = "auto"  # issue 13: auto (follow the system) | light | dark
    hand: str = "right"  # issue 13: where the stock and the waste stand

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
        for name in ("score", "auto"):
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
            value = json.loads(raw)
            if not isinstance(value, dict) or value.get("v") != SCHEMA:
                raise ValueError(f"unknown schema {value.get('v') if isinstance(value, dict) else '?'}")
            return value
        except (ValueError, TypeError):
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
        d = self._read(GAME_KEY)
        if d is None:
            return None
        if not isinstance(d.get("game"), str) or not isinstance(d.get("rev"), int):
            self.set_aside(GAME_KEY)
            return None
        self.rev = max(self.rev, d["rev"])
        game: dict[str, Any] = d
        return game

    def stored_rev(self) -> int:
        raw = self.backend.get(GAME_KEY)
        if raw is None:
            return 0
        try:
            d = json.loads(raw)
            return int(d.get("rev", 0)) if isinstance(d, dict) else 0
        except (ValueError, TypeError):
            return 0

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
