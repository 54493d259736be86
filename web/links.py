"""Shareable deal links (V2): ``#deal=<number>&draw=<1|3>[&redeals=<n>][&daily=<date>]``.

Decision: the deal lives in the URL *hash*, not the query, so a static host and the
service worker serve the same ``index.html`` for every deal. The hash is kept in step
with the deal on the table, so the address bar is always the link to share. A missing
``redeals`` means unlimited (Classic). The number and the variant are read by the
engine (``kosynka.variants``): any deal number 0 … 2⁶⁴−1, so a Deal of the day
link opens for a friend too.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from kosynka import variants
from kosynka.position import Rules


@dataclass(frozen=True)
class DealLink:
    number: int
    draw: int = 1
    redeals: int | None = None
    daily: str | None = None  # ISO date when this is that date's Deal of the day

    @property
    def rules(self) -> Rules:
        return Rules(self.draw, self.redeals)


def _date(text: str | None) -> str | None:
    try:
        return datetime.date.fromisoformat(text).isoformat() if text and len(text) == 10 else None
    except ValueError:
        return None


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
    q = {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True).items() if v}
    try:
        number = variants.parse_number(q.get("deal"))
        rules = variants.from_text(q.get("draw"), q.get("redeals"))
    except ValueError:
        return None
    return DealLink(number, rules.draw, rules.redeals, _date(q.get("daily")))


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
