"""A player's name: the one rule for the names a race seats (N3) and a
challenge carries (O6), apart from both so that either uses it without the
other. A name is shown as text, never interpreted.

>>> check_name("Анна")
'Анна'
>>> check_name("  ")
Traceback (most recent call last):
...
kosynka.names.InvalidNameError: name/bad: a name is some text
>>> numbered("Player", ["Anna", "Player"]), numbered("Гравець", ["Гравець", "гравець 2"])
('Player 2', 'Гравець 3')

Decision (issue 32 item 5): names at one table are told apart by a number. A
player who skips the name gets the page's word for one ("Player", "Гравець",
"Игрок" — the page's language, chosen by the page that sends it), so a table
of friends who all skip it would be all "Player". The table numbers a name
already in use there (compared ignoring case and the spaces around it) with
the smallest free number from 2: "Player", "Player 2", "Player 3" (the first
keeps the bare word; a name typed twice, "Anna", "Anna 2", alike). The number
fits in the 24 characters: a long name is cut to make room for it. A name
freed by someone leaving may be given again.
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

from .errors import KosynkaError

__all__ = ["NAME_MAX", "InvalidNameError", "check_name", "numbered"]

NAME_MAX = 24
"""Characters (code points) in a name at most."""


class InvalidNameError(KosynkaError):
    """Text that is not a player's name. ``code`` is ``name/bad`` (a race
    refuses a join with it), ``detail`` says why."""

    code = "name/bad"

    def __init__(self, detail: str) -> None:
        super().__init__(f"{self.code}: {detail}")
        self.detail = detail


def check_name(name: object) -> str:
    """``name`` if it is a valid player name, else :class:`InvalidNameError`:
    1–24 characters (code points), any Unicode but control characters and lone
    surrogates, not only spaces."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidNameError("a name is some text")
    if len(name) > NAME_MAX:
        raise InvalidNameError(f"a name has at most {NAME_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
        raise InvalidNameError("a name has no control characters")
    return name


def numbered(name: str, taken: Iterable[str]) -> str:
    """``name`` told apart from the names ``taken`` at a table: as it is if no
    other is the same (ignoring case and surrounding spaces), else with the
    smallest free number from 2 (``"Player 2"``), cut to :data:`NAME_MAX`."""
    used = {_key(n) for n in taken}
    if _key(name) not in used:
        return name
    base = name.strip()
    n = 2
    while True:
        suffix = f" {n}"
        candidate = base[:NAME_MAX - len(suffix)].rstrip() + suffix
        if _key(candidate) not in used:
            return candidate
        n += 1


def _key(name: str) -> str:
    return name.strip().casefold()
