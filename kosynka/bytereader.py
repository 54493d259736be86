"""Bytes read front to back, for the codes in links (issue 28): a challenge's
(:mod:`kosynka.challenge_bytes`) and a race table's (``web.race.packing``).

A read past the end raises the user's own error: each passes how to make it from
a detail (``functools.partial(ChallengeError, "challenge/damaged")``), so a bad
code is refused with that code's error and stable code, never an ``IndexError``.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ByteReader"]


class ByteReader:
    """``data`` read from ``pos`` on; ``error(detail)`` is what a refusal raises."""

    def __init__(self, data: bytes, error: Callable[[str], Exception]) -> None:
        self.data = data
        self.pos = 0
        self.error = error

    def raw(self, n: int) -> bytes:
        """The next ``n`` bytes; the error if fewer are left."""
        if self.pos + n > len(self.data):
            raise self.error("a field runs past the end")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.raw(1)[0]
