"""Shareable deal links (V2): ``#deal=<number>&draw=<1|3>[&redeals=<n>][&daily=<date>]``.

The query form ``?deal=42`` (what a person types) names a deal too; the page then
moves it into the hash. A link that names no deal (``#deal=abc``, ``draw=7``, a
number out of range, garbage) is said so ("That link names no deal"): what is
read and why it is refused is the engine's (``kosynka.variants.read_link``).
A link carries no "verified" mark: anyone can edit a link, so a mark would
prove nothing; the page checks every linked deal itself (``web.solo``).

Decision: the deal lives in the URL *hash*, not the query, so a static host and the
service worker serve the same ``index.html`` for every deal. The hash is kept in step
with the deal on the table, so the address bar is always the link to share. A missing
``redeals`` means unlimited (Classic). The number and the variant are read by the
engine (``kosynka.variants``): any deal number 0 … 2⁶⁴−1, so a Deal of the day
link opens for a friend too.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

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


def parse(hash_or_query: str, query: bool = False) -> DealLink | None:
    """The deal a link names (read by ``kosynka.variants.read_link``); None if the
    text names nothing. ValueError, saying why, if it names no deal.

    >>> parse("#deal=42&draw=3&redeals=2")
    DealLink(number=42, draw=3, redeals=2, daily=None)
    >>> parse("") is None, parse("?utm=x", query=True) is None
    (True, True)
    """
    read = variants.read_link(hash_or_query, query)
    if read is None:
        return None
    number, rules, daily = read
    return DealLink(number, rules.draw, rules.redeals, daily)


def from_address(hash_: str, search: str) -> tuple[DealLink | None, bool]:
    """The deal the address names, and whether it names one badly (the page then
    says "That link names no deal"). The hash is Kosynka's own form and wins; the
    query form (``?deal=42``, typed by a person) is read like it.

    >>> from_address("", "?deal=42&draw=3")
    (DealLink(number=42, draw=3, redeals=None, daily=None), False)
    >>> from_address("#deal=abc", "")
    (None, True)
    """
    try:
        link = parse(hash_, query=False)
        if link is None:
            link = parse(search, query=True)
        return link, False
    except ValueError:
        return None, True


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
