"""Variants and deal numbers as they come from outside: keys, links, settings.

One place answers "which variant is this text?" and "is this a deal number?"
for everything that reads them from a person or a device (links V2, saved
settings, records T2, the solver worker's requests):

* a variant's *key* is ``d<draw>`` for Classic (unlimited redeals) and
  ``d<draw>r<redeals>`` with a redeal limit: ``d1``, ``d3``, ``d3r2`` (Turn
  Three). Records are kept per key (T2), and :func:`from_key` reads it back;
* :func:`parse_number` reads a deal number written in decimal, the engine's
  whole range 0 … 2⁶⁴−1 (a Deal of the day is above 2³¹);
* :func:`from_text` reads a variant from the text fields of a link
  (``draw=3&redeals=2``; a missing, empty or ``u`` redeals is unlimited);
* :func:`from_fields` reads one from JSON values (saved settings, messages);
* :func:`read_link` reads a whole deal link (the hash ``#deal=42&draw=3`` or
  the query ``?deal=42`` a person types) and says when it names no deal.

Every reader raises ``ValueError`` with a message saying what is wrong, and
nothing else, whatever the input.

>>> key(Rules(3, 2)), from_key("d3r2")
('d3r2', Rules(draw=3, redeals=2))
>>> parse_number("18446744073709551615")
18446744073709551615
"""

from __future__ import annotations

import datetime
import re
from urllib.parse import parse_qsl

from .deals import MAX_DEAL
from .position import Rules

__all__ = ["key", "from_key", "parse_number", "from_text", "from_fields", "read_link", "read_date", "LINK_FIELDS"]

_KEY_RE = re.compile(r"d([13])(?:r([0-3]))?")
_NUMBER_RE = re.compile(r"[0-9]{1,20}")


def key(rules: Rules) -> str:
    """The variant's key: ``d1``/``d3`` for Classic, ``d3r2`` with a redeal limit."""
    return f"d{rules.draw}" if rules.redeals is None else f"d{rules.draw}r{rules.redeals}"


def from_key(text: object) -> Rules:
    """The variant of a key made by :func:`key`; ValueError if it is none."""
    m = _KEY_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(f"not a variant key: {str(text)[:20]!r} (expected d1, d3, d3r2, …)")
    return Rules(int(m.group(1)), None if m.group(2) is None else int(m.group(2)))


def parse_number(text: object) -> int:
    """A deal number written in decimal digits, 0 ≤ n < 2⁶⁴; ValueError if not."""
    if not isinstance(text, str) or not _NUMBER_RE.fullmatch(text) or int(text) >= MAX_DEAL:
        raise ValueError(f"a deal number is a whole number from 0 to {MAX_DEAL - 1}, "
                         f"not {str(text)[:24]!r}")
    return int(text)


def from_text(draw: str | None, redeals: str | None) -> Rules:
    """The variant in a link's fields: ``draw`` ``1``/``3`` (missing: 1),
    ``redeals`` ``0``–``3`` (missing, empty, ``u`` or ``unlimited``: unlimited)."""
    if draw is None:
        draw = "1"
    if draw not in ("1", "3"):
        raise ValueError(f"draw must be 1 or 3, not {str(draw)[:8]!r}")
    return Rules(int(draw), Rules.parse_redeals("unlimited" if redeals in (None, "", "u") else redeals))


def from_fields(draw: object, redeals: object) -> Rules:
    """The variant of JSON values (``draw`` 1 or 3, ``redeals`` null or 0–3)."""
    for name, value in (("draw", draw), ("redeals", redeals)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{name} must be a whole number, not {str(value)[:8]!r}")
    if not isinstance(draw, int):
        raise ValueError("draw must be 1 or 3, not None")
    return Rules(draw, redeals if isinstance(redeals, int) else None)


LINK_FIELDS = ("deal", "draw", "redeals", "daily")
"""The fields of a deal link; any other field is not Kosynka's and is ignored."""


def read_link(text: str, query: bool = False) -> tuple[int, Rules, str | None] | None:
    """The deal a link names: ``(number, rules, daily)``, where ``daily`` is the
    ISO date when the link is that date's Deal of the day.

    ``text`` is the hash (``#deal=42&draw=3&redeals=2``) or, with ``query``,
    the query (``?deal=42``). None: the text names nothing at all — an empty
    hash, or a query without any of :data:`LINK_FIELDS` (a messenger's
    ``?fbclid=…`` is not ours). ValueError, saying why, when it names no deal:
    no ``deal`` field, a number that is not one (``abc``, ``-5``, out of
    range), a variant that is none (``draw=7``), or garbage. Fields that are
    not Kosynka's are ignored; a ``daily`` that is not a date is dropped (the
    deal is still the one named).

    >>> read_link("#deal=42&draw=3&redeals=2")
    (42, Rules(draw=3, redeals=2), None)
    >>> read_link("?deal=42", query=True), read_link("?fbclid=x", query=True), read_link("#")
    ((42, Rules(draw=1, redeals=None), None), None, None)
    >>> read_link("#deal=-5")
    Traceback (most recent call last):
    ...
    ValueError: a deal number is a whole number from 0 to 18446744073709551615, not '-5'
    """
    body = text[1:] if text[:1] in ("#", "?") else text
    if not body:
        return None
    fields = dict(parse_qsl(body, keep_blank_values=True))
    if query and not any(f in fields for f in LINK_FIELDS):
        return None
    if "deal" not in fields:
        raise ValueError(f"the link names no deal: {body[:24]!r}")
    number = parse_number(fields["deal"])
    rules = from_text(fields.get("draw"), fields.get("redeals"))
    return number, rules, read_date(fields.get("daily"))


def read_date(text: object) -> str | None:
    """An ISO date (``2026-12-01``) as written, else None (anything else, of any type)."""
    try:
        return (datetime.date.fromisoformat(text).isoformat()
                if isinstance(text, str) and len(text) == 10 else None)
    except ValueError:
        return None
