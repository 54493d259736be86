"""A challenge code's bytes (issue 20): LEB128 numbers, a reader that refuses
what runs past the end, the actions' bit packing, the rules' byte and base64url
— the layout's primitives; :mod:`kosynka.challenge` puts the fields in order
(its docstring has the layout). Every refusal is a :class:`ChallengeError`."""

from __future__ import annotations

import base64
from functools import partial

from .bytereader import ByteReader
from .errors import KosynkaError
from .rules import Rules

__all__ = ["ChallengeError", "Reader", "Bits", "to_varint", "rules_byte", "rules_of", "b64"]


class ChallengeError(KosynkaError):
    """A code that cannot be used; ``code`` is stable (``challenge/…``) and names
    the message the page shows; ``detail`` says more, in English."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def to_varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


class Reader(ByteReader):
    """A code's fields; a refusal is a ``challenge/damaged`` :class:`ChallengeError`."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data, partial(ChallengeError, "challenge/damaged"))

    def varint(self, limit: int) -> int:
        """A LEB128 number below ``limit`` in its shortest form."""
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
            if shift > 70:
                raise self.error("a number is too long")
        if n >= limit or (b == 0 and shift > 7):
            raise self.error("a number is out of range")
        return n


class Bits:
    """Bits from the high bit of the first byte down."""

    def __init__(self, data: bytes) -> None:
        self.value = int.from_bytes(data, "big")
        self.left = 8 * len(data)

    def read(self, width: int) -> int:
        if width > self.left:
            raise ChallengeError("challenge/damaged", "the moves run past the end")
        self.left -= width
        return (self.value >> self.left) & ((1 << width) - 1)


def rules_byte(rules: Rules, assisted: bool) -> int:
    limit = 0 if rules.redeals is None else rules.redeals + 1
    return (rules.draw == 3) | limit << 1 | assisted << 4


def rules_of(b: int) -> tuple[Rules, bool]:
    if b >> 5 or (b >> 1 & 7) > 4:
        raise ChallengeError("challenge/damaged", "unknown rules")
    limit = b >> 1 & 7
    return Rules(3 if b & 1 else 1, None if limit == 0 else limit - 1), bool(b & 16)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")
