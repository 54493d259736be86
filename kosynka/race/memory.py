"""In-memory links on a fake clock, with faults (issue 10 item 4), for tests
and the simulator.

A :class:`Network` is an event queue and a clock (``net.now``, ``net.clock``):
nothing happens until :meth:`Network.run` takes the events in time order.
:meth:`Network.pair` makes two connected :class:`MemoryLink` ends; a message
sent on one reaches the other after ``latency`` seconds, in order.

Faults, at rate ``faults`` (0–1), each decided per message from the seed, the
link's name and the message's text (and how often that text was sent before),
so one message's fate never depends on other traffic:

- *duplicated*: delivered twice;
- *delayed*: up to ``max_delay`` s late — so later messages overtake it
  (*reordered*);
- *dropped connection*: :meth:`Network.cut` takes both ends of a pair down at
  once (each sees ``dropped``); messages still on the way are lost. A
  reconnect is a new :meth:`pair` (the simulator schedules both).

:func:`local_pair` is the other kind: two ends inside one program, with no
clock and no faults — the host's own seat on the host's page (a
:class:`~kosynka.race.player.Player` like any friend's, see
:meth:`Host.own_player <kosynka.race.host.Host.own_player>`). A message is
delivered at once, in order; one sent while another is being handled waits
until that handler returns, so no handler ever runs inside another, and when
the outermost ``send`` returns every answer has been delivered.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter, deque
from typing import Callable

from .transport import CLOSED, DROPPED, Link

__all__ = ["Network", "MemoryLink", "LocalLink", "local_pair"]


class MemoryLink(Link):
    """One end of an in-memory channel."""

    peer: "MemoryLink"         # set by Network.pair

    def __init__(self, net: "Network", name: str) -> None:
        super().__init__()
        self.net = net
        self.name = name
        self._up = True
        self._cut = False
        self._sent: Counter[str] = Counter()

    @property
    def connected(self) -> bool:
        return self._up

    def send(self, text: str) -> None:
        if not self._up:
            return
        net = self.net
        net.sent += 1
        self._sent[text] += 1
        delay = net.latency
        copies = 1
        if net.faults:
            rng = random.Random(f"{net.seed}|{self.name}|{self._sent[text]}|{text}")
            if rng.random() < net.faults / 2:
                copies = 2
            if rng.random() < net.faults:
                delay += rng.uniform(0, net.max_delay)
        for _ in range(copies):
            net.at(net.now + delay, lambda: self._deliver(text))

    def _deliver(self, text: str) -> None:
        if not self._cut and self.peer._up:
            self.peer.on_message(text)

    def close(self) -> None:
        if self._up:
            self._up = False
            self.on_status(CLOSED)
            peer = self.peer
            if peer._up:
                self.net.at(self.net.now + self.net.latency, peer._drop)

    def _drop(self) -> None:
        if self._up:
            self._up = False
            self.on_status(DROPPED)


class Network:
    """The fake clock, the event queue, and the fault settings."""

    def __init__(self, seed: int = 0, faults: float = 0.0, latency: float = 0.05,
                 max_delay: float = 1.0) -> None:
        self.seed = seed
        self.faults = faults
        self.latency = latency
        self.max_delay = max_delay
        self.now = 0.0
        self.sent = 0
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._n = 0

    def clock(self) -> float:
        return self.now

    def at(self, t: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` at clock time ``t`` (events at one time run in the order given)."""
        self._n += 1
        heapq.heappush(self._queue, (max(t, self.now), self._n, fn))

    def pair(self, name: str) -> tuple[MemoryLink, MemoryLink]:
        """Two connected ends: ``(host side, player side)``."""
        a, b = MemoryLink(self, name + ">p"), MemoryLink(self, name + ">h")
        a.peer, b.peer = b, a
        return a, b

    @staticmethod
    def cut(end: MemoryLink) -> None:
        """Drop the connection: both ends see ``dropped`` now."""
        for link in (end, end.peer):
            link._cut = True
            link._drop()

    def run(self, until: float | None = None, stop: Callable[[], bool] | None = None) -> None:
        """Take events in time order until none is left, the next is after
        ``until`` (the clock then stands at ``until``), or ``stop()`` is true."""
        while self._queue and not (stop and stop()):
            t, _, fn = self._queue[0]
            if until is not None and t > until:
                break
            heapq.heappop(self._queue)
            self.now = t
            fn()
        if until is not None and (not self._queue or self._queue[0][0] > until):
            self.now = max(self.now, until)

    @property
    def idle(self) -> bool:
        return not self._queue


class _Bus:
    """The deliveries of one :func:`local_pair`, in order."""

    __slots__ = ("queue", "busy")

    def __init__(self) -> None:
        self.queue: deque[Callable[[], object]] = deque()
        self.busy = False

    def post(self, deliver: Callable[[], object]) -> None:
        """Deliver now, unless a delivery is under way: then right after it.
        A handler that raises loses only its own message."""
        self.queue.append(deliver)
        if self.busy:
            return
        self.busy = True
        failed: Exception | None = None
        while self.queue:
            try:
                self.queue.popleft()()
            except Exception as e:        # the others are still delivered; then it is raised
                failed = failed or e
        self.busy = False
        if failed is not None:
            raise failed


class LocalLink(Link):
    """One end of a :func:`local_pair`."""

    peer: "LocalLink"          # set by local_pair

    def __init__(self, bus: _Bus) -> None:
        super().__init__()
        self._bus = bus
        self._up = True

    @property
    def connected(self) -> bool:
        return self._up

    def send(self, text: str) -> None:
        if self._up:
            peer = self.peer
            self._bus.post(lambda: peer._up and peer.on_message(text))

    def close(self) -> None:
        if self._up:
            self._up = False
            self.on_status(CLOSED)
            self._bus.post(self.peer._drop)

    def _drop(self) -> None:
        if self._up:
            self._up = False
            self.on_status(DROPPED)


def local_pair() -> tuple[LocalLink, LocalLink]:
    """Two connected ends in one program: ``(host side, player side)``."""
    bus = _Bus()
    a, b = LocalLink(bus), LocalLink(bus)
    a.peer, b.peer = b, a
    return a, b
