"""What the race keeps in the browser (issues 11, 19): the player's name, the
host's settings, the connection settings, a friend's seat per table and this
tab's way back, the invites this browser answered.

Read and written through ``web.store``'s ``Backend`` (``get``/``set``/``remove``)
under the keys of its registry (``RACE_*_KEY``), like the rest of the app; pure
Python, tested on CPython (``tests/test_race_web_stored.py``). ``local`` is the
device's storage (localStorage), ``session`` this tab's (sessionStorage).

Decisions: each value keeps the format it always had (bare JSON or text, no
schema envelope: tests and older pages read them so); a value that cannot be
read (or is too long or too deep to read safely) counts as unset; storage that throws (blocked, full) just does not
remember — the race goes on.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from kosynka.race.table import DRAWS, MINUTES
from web.store import (
    RACE_ICE_KEY,
    RACE_NAME_KEY,
    RACE_RELAYS_KEY,
    RACE_SEAT_KEY,
    RACE_SEATS_KEY,
    RACE_SETTINGS_KEY,
    RACE_SPEED_KEY,
    RACE_USED_KEY,
    Backend,
    loads_stored,
)

USED_KEPT = 20      # invites remembered as answered
SEATS_KEPT = 8      # tables whose seat is remembered


class BrowserStorage:
    """A browser's ``Storage`` (``storage()`` gives it: localStorage,
    sessionStorage) as a ``web.store.Backend``; what it throws when the browser
    blocks storage reaches :class:`RaceStore`, which takes it."""

    def __init__(self, storage: Callable[[], Any]) -> None:
        self.storage = storage

    def get(self, key: str) -> str | None:
        value = self.storage().getItem(key)
        return value if isinstance(value, str) else None   # JS null: not a string

    def set(self, key: str, value: str) -> None:
        self.storage().setItem(key, value)

    def remove(self, key: str) -> None:
        self.storage().removeItem(key)


class RaceStore:
    """The race's values in ``local`` (the device) and ``session`` (this tab)."""

    def __init__(self, local: Backend, session: Backend) -> None:
        self.local, self.session = local, session

    # ------------------------------------------------------------ raw access
    @staticmethod
    def _get(backend: Backend, key: str) -> str | None:
        try:
            return backend.get(key)
        except Exception:   # storage blocked: even reading throws
            return None

    @staticmethod
    def _set(backend: Backend, key: str, value: str | None) -> None:
        try:
            if value is None:
                backend.remove(key)
            else:
                backend.set(key, value)
        except Exception:
            pass  # storage blocked or full: the page just does not remember

    def _json(self, backend: Backend, key: str, default: Any) -> Any:
        """The stored JSON, read as every stored value is (``web.store.loads_stored``:
        none too long or too deep for Pyodide); ``default`` if it does not read."""
        try:
            return loads_stored(self._get(backend, key) or "null")
        except ValueError:
            return default

    # ------------------------------------------------------------ the player
    def name(self) -> str:
        """The name as typed last (may be empty or too long: the table checks it)."""
        return self._get(self.local, RACE_NAME_KEY) or ""

    def set_name(self, name: str) -> None:
        self._set(self.local, RACE_NAME_KEY, name)

    def settings(self) -> dict[str, Any]:
        """The host's draw and race kind (N4) as chosen last; Classic draw 1, to the
        last card, when none or not one of the table's."""
        s = self._json(self.local, RACE_SETTINGS_KEY, None)
        if isinstance(s, dict) and s.get("draw") in DRAWS and s.get("minutes") in MINUTES:
            return {"draw": s["draw"], "minutes": s["minutes"]}
        return {"draw": 1, "minutes": None}

    def save_settings(self, settings: dict[str, Any]) -> None:
        self._set(self.local, RACE_SETTINGS_KEY, json.dumps(settings))

    # ------------------------------------------------------------ the connection
    def ice(self) -> str | None:
        """The stored ICE servers, as text (``web.race.ice.load_ice`` reads it)."""
        return self._get(self.local, RACE_ICE_KEY)

    def relays(self) -> str | None:
        """The stored relays, as text (``web.race.ice.load_relays`` reads it)."""
        return self._get(self.local, RACE_RELAYS_KEY)

    def save_ice(self, servers: list[dict[str, Any]]) -> None:
        self._set(self.local, RACE_ICE_KEY, json.dumps(list(servers)))

    def test_speed(self) -> float:
        """The race clock's speed-up set by a test (1 for any other value)."""
        try:
            speed = float(self._get(self.local, RACE_SPEED_KEY) or 1)
        except ValueError:
            speed = 1.0
        return speed if 1 <= speed <= 1000 else 1.0

    # ------------------------------------------------------------ this tab's way back
    def tab_seat(self) -> dict[str, Any] | None:
        """This tab's links-only seat (table, pid, token, host), or None."""
        data = self._json(self.session, RACE_SEAT_KEY, None)
        return data if isinstance(data, dict) and isinstance(data.get("pid"), int) else None

    def tab_table_code(self) -> str | None:
        """The code of the table link this tab was at (reopened after a reload)."""
        data = self._json(self.session, RACE_SEAT_KEY, None)
        code = data.get("code") if isinstance(data, dict) else None
        return str(code) if code else None

    def keep_tab_seat(self, value: dict[str, Any] | None) -> None:
        self._set(self.session, RACE_SEAT_KEY, None if value is None else json.dumps(value))

    # ------------------------------------------------------------ seats per table
    def seat_of(self, table: int) -> dict[str, Any] | None:
        """Our seat at ``table`` (pid, token), or None."""
        seats = self._json(self.local, RACE_SEATS_KEY, None)
        seat = seats.get(str(table)) if isinstance(seats, dict) else None
        if isinstance(seat, dict) and isinstance(seat.get("pid"), int) and isinstance(
                seat.get("token"), str):
            return seat
        return None

    def keep_seat(self, table: int, pid: int, token: str, minutes: int) -> None:
        """Remember our seat at ``table`` (the newest last; ``SEATS_KEPT`` tables)."""
        seats = self._json(self.local, RACE_SEATS_KEY, {})
        seats = seats if isinstance(seats, dict) else {}
        if (seats.get(str(table)) or {}).get("token") == token:
            return
        seats.pop(str(table), None)
        seats[str(table)] = {"pid": pid, "token": token, "at": minutes}
        for old in list(seats)[:-SEATS_KEPT]:
            seats.pop(old)
        self._set(self.local, RACE_SEATS_KEY, json.dumps(seats))

    def forget_seat(self, table: int) -> None:
        """We left ``table`` (N12): its link opened again is a newcomer's."""
        seats = self._json(self.local, RACE_SEATS_KEY, {})
        if isinstance(seats, dict) and seats.pop(str(table), None) is not None:
            self._set(self.local, RACE_SEATS_KEY, json.dumps(seats))

    # ------------------------------------------------------------ invites answered
    def used(self, key: str) -> bool:
        """This browser answered the invite ``key`` already."""
        used = self._json(self.local, RACE_USED_KEY, [])
        try:
            return key in used
        except TypeError:
            return False

    def mark_used(self, key: str) -> None:
        used = self._json(self.local, RACE_USED_KEY, [])
        used = [k for k in used if isinstance(k, str)] if isinstance(used, list) else []
        self._set(self.local, RACE_USED_KEY, json.dumps((used + [key])[-USED_KEPT:]))
