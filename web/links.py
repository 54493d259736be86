"""Shareable deal links (V2): ``#deal=<number>&draw=<1|3>[&redeals=<n>][&daily=<date>]``.

Decision: the deal lives in the URL *hash*, not the query, so a static host and the
service worker serve the same ``index.html`` for every deal. The hash is kept in step
with the deal on the table, so the address bar is always the link to share. A missing
``redeals`` means unlimited (Classic).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode


@dataclass(frozen=True)
class DealLink:
    number: int
    draw: int = 1
    redeals: int | None = None
    daily: str | None = None  # ISO date when this is that date's Deal of the day


MAX_DEAL = 2**31 - 1


def parse(hash_or_query: str) -> DealLink | None:
    """The deal a link names, or None if it names none (or names it badly).

    >>> parse("#deal=42&draw=3&redeals=2")
    DealLink(number=42, draw=3, redeals=2, daily=None)
    >>> parse("#deal=x") is None, parse("") is None
    (True, True)
    """
    text = hash_or_query.lstrip("#?")
    if not text:
        return None
    q = {k: v[-1] for k, v in parse_qs(text).items() if v}
    try:
        number = int(q["deal"])
        draw = int(q.get("draw", "1"))
        redeals = None if q.get("redeals") in (None, "", "u") else int(q["redeals"])
    except (KeyError, ValueError):
        return None
    if not 0 <= number <= MAX_DEAL or draw not in (1, 3) or redeals not in (None, 0, 1, 2, 3):
        return None
    daily = q.get("daily")
    if daily is not None and (len(daily) != 10 or daily[4] != "-" or daily[7] != "-"):
        daily = None
    return DealLink(number, draw, redeals, daily)


def format(link: DealLink) -> str:
    """The hash for a deal (leading ``#``).

    >>> format(DealLink(7, 1))
    '#deal=7&draw=1'
    """
    q: dict[str, str | int] = {"deal": link.number, "draw": link.draw}
    if link.redeals is not None:
        q["redeals"] = link.redeals
    if link.daily:
        q["daily"] = link.daily
    return "#" + urlencode(q)
