"""A player's name: the one rule for the names a race seats (N3) and a
challenge carries (O6), apart from both so that either uses it without the
other. A name is shown as text, never interpreted.

>>> check_name("Анна")
'Анна'
>>> check_name("  ")
Traceback (most recent call last):
...
kosynka.names.InvalidNameError: name/bad: a name is some text
"""

from __future__ import annotations

import unicodedata

from .errors import KosynkaError

__all__ = ["NAME_MAX", "InvalidNameError", "check_name"]

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
