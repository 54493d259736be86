"""The transport under the race (issue 10 item 4): what the host and the players
need of a channel, and nothing of how it is made.

The race is a star around the host: the host holds one :class:`Link` per seat,
each player one :class:`Link` to the host. A link carries text messages (JSON
built by the race protocol), reliably and in order while it is up — as a WebRTC
data channel does (``web/``), or the in-memory links of the tests. It may drop;
a later reconnect is a *new* link handed to the host for the same seat.

The owner of a link sets ``on_message(text)`` and ``on_status(status)`` with
``status`` one of ``"open"``, ``"dropped"`` (the channel failed or the peer went
away) and ``"closed"`` (this side called :meth:`Link.close`). Nothing is queued
for a link that is down: :meth:`Link.send` on it is quietly dropped, because the
host resynchronises a player from its own copy when they come back (N9).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable

__all__ = ["Link", "OPEN", "DROPPED", "CLOSED"]

OPEN, DROPPED, CLOSED = "open", "dropped", "closed"


def _ignore(*_args: object) -> None:
    pass


class Link(ABC):
    """One end of a message channel between the host and one player."""

    def __init__(self) -> None:
        self.on_message: Callable[[str], None] = _ignore
        self.on_status: Callable[[str], None] = _ignore

    @property
    @abstractmethod
    def connected(self) -> bool:
        """True while messages can flow."""

    @property
    def steady(self) -> bool:
        """False while the path under an open link is lost (it may come back by
        itself: a WebRTC connection's ICE ``disconnected``); True by default."""
        return True

    @property
    def way(self) -> str:
        """How it goes, for the screens to say (issue 30 item 2): ``direct`` (a
        channel between the two pages, the default) or ``relay`` (through public
        relays, end-to-end encrypted)."""
        return "direct"

    @abstractmethod
    def send(self, text: str) -> None:
        """Send one message; a no-op when the link is down."""

    @abstractmethod
    def close(self) -> None:
        """Close this end; the other end sees ``dropped``."""
