"""The race simulator (issue 10 item 5): a whole race of seeded bots through the
in-memory links on a fake clock, with faults and a hostile seat if asked.

``simulate(players, kind, draw, seed, faults, hostile)`` returns one JSON-able
dict: the deal, every peer's view of the final standings, and the host's count
of rejected messages by reason. Same arguments, same result.

Bots: the host is seat 0, friends are seats 1…N-1. Each bot is *line* (plays
the solver's line of the verified deal, so that someone wins) or *random*
(random legal moves, foundation moves first more often than not); at least
one is a line bot; each thinks a seeded time per action. A random bot may
offer a draw now and then and accepts offers; a line bot refuses them (N7).

Faults (``faults`` = rate r): each message is duplicated with probability r/2
and delayed up to 1 s with probability r (so later ones overtake it); each
friend's connection drops with probability 2r, once or twice, and comes back
2–40 s later (within the 60 s grace, N9).

``hostile`` = seat k (a friend): besides its honest messages, that seat sends,
at about every other action, one forgery — an illegal move, an undo, a move
as another seat, invented progress, an oversized or garbage payload, another
version, an unknown kind, a second join, a replayed old message, a move of
another race. All are refused by the host, so the standings equal those of
the same seed without them.
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any, Callable

import kosynka.race.protocol as P

from ..cards import card_name
from ..game import Game
from .host import Host
from .memory import MemoryLink, Network
from .player import Player
from .table import HOST, RACING

__all__ = ["simulate", "KINDS"]

KINDS = {"last": None, "5": 5, "10": 10, "15": 15}
TIME_LIMIT = 6 * 3600.0   # fake seconds: a safety stop, never reached by these bots


class _Bot:
    """One seat's bot, playing through its :class:`Player` (the host's own seat
    too: :meth:`Host.own_player`)."""

    def __init__(self, net: Network, side: Player, line: list[str], rng: random.Random,
                 style: str, pace: float, forge: Callable[[], None] | None = None) -> None:
        self.net, self.side, self.pid, self.line = net, side, side.pid, line
        self.rng, self.style, self.pace, self.forge = rng, style, pace, forge

    def schedule(self) -> None:
        low, high = (0.5, 1.5) if self.style == "line" else (1.0, 3.0)
        self.net.at(self.net.now + self.rng.uniform(low, high) * self.pace, self.act)

    def act(self) -> None:
        v = self.side.view
        if v is None or v["phase"] != RACING:
            if v is None or v["phase"] == "lobby" or v["race"] == 0:
                self.schedule()
            return
        me = next((p for p in v["players"] if p["pid"] == self.pid), None)
        if me is None or me["status"] != "racing":
            return
        if self.forge:
            self.forge()
        game = self.side.game
        offer = v["offer"]
        try:
            if game is None:
                pass                                   # waiting for the host's sync
            elif offer and self.pid not in offer["agreed"]:
                self.side.answer_draw(self.style == "random")
            elif self.style == "random" and not offer and self.rng.random() < 0.01:
                self.side.offer_draw()
            else:
                move = self.choose(game)
                if move is None:
                    return
                self.side.play(move)
        except ValueError:      # RaceError: the race ended meanwhile; the next act sees it
            pass
        self.schedule()

    def choose(self, game: Game) -> str | None:
        log = game.log
        if self.style == "line" and log == self.line[:len(log)] and len(log) < len(self.line):
            return self.line[len(log)]
        legal = game.legal_moves()
        if not legal:
            return None
        up = [m for m in legal if m.endswith(">F")]
        if up and self.rng.random() < 0.7:
            return self.rng.choice(up)
        return self.rng.choice(legal)


def _forger(player: Player, links: dict[int, MemoryLink], seat: int, players: int,
            rng: random.Random) -> Callable[[], None]:
    """The hostile seat's forgeries: one text, sometimes, per action."""

    def forge() -> None:
        if rng.random() < 0.5 or player.pid is None or player.game is None:
            return
        n, pid, race, game = player._id + 1, player.pid, player.race, player.game
        legal = game.legal_moves() or ["D"]
        pos = game.position
        down = [card_name(pos.columns[c][0]) for c in range(7) if pos.down[c]]
        other = (pid + 1) % players
        forgeries = [
            lambda: P.move(n, pid, race, (down[0] + ">F") if down else "Kd>9", None),
            lambda: P.move(n, pid, race, "U", None),
            lambda: P.move(n, other, race, rng.choice(legal), None),
            lambda: P.resign(n, other),
            lambda: P.move(n, pid, race, rng.choice(legal),
                           {"foundation": 52, "face_up": 0, "moves": game.moves + 7}),
            lambda: P.move(n, pid, race + 1, rng.choice(legal), None),
            lambda: P.join(n, "x" * 20, pid, "f" * 16) + " " * P.TO_HOST_BYTES,
            lambda: "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 60))),
            lambda: P.resign(n, pid).replace(f'"v":{P.VERSION}', f'"v":{P.VERSION + 1}'),
            lambda: json.dumps({"v": P.VERSION, "id": n, "kind": "win", "pid": pid}),
            lambda: P.join(n, "Again", pid, "0" * 16),     # a second join, or a wrong token
            lambda: P.resign(player.ack, pid),            # a replay: id already taken
        ]
        links[seat].send(rng.choice(forgeries)())

    return forge


def simulate(players: int = 2, kind: str = "last", draw: int = 1, seed: int = 0,
             faults: float = 0.0, hostile: int | None = None,
             drops: list[tuple[int, float, float]] | None = None) -> dict[str, Any]:
    """Run one race of bots; see the module docstring. ``kind`` is a key of
    :data:`KINDS`. ``drops`` — ``(seat, at, for)``: friend ``seat``'s
    connection drops ``at`` s after the start and comes back ``for`` s later
    — replaces the drops drawn from the seed."""
    net = Network(seed=seed, faults=faults)
    host = Host("Host", net.clock, seed=seed)
    own = host.own_player()
    friends = [Player(f"Bot {i}", net.clock) for i in range(1, players)]
    links: dict[int, MemoryLink] = {}

    def connect(seat: int) -> None:
        h, p = net.pair(f"seat{seat}")
        host.attach(h)
        friends[seat - 1].connect(p)
        links[seat] = p

    ticks: set[float] = set()

    def pump() -> None:                      # the host's timers, at their exact moments
        d = host.next_deadline()
        if d is not None and d not in ticks:
            ticks.add(d)
            net.at(d, host.tick)

    host.on_change = pump
    for seat in range(1, players):
        connect(seat)
    net.run(stop=lambda: all(f.pid is not None for f in friends))
    own.set_settings(draw, KINDS[kind])
    for f in friends:
        f.set_ready(True)
    net.run(stop=lambda: all(m.ready for m in host.table.seated() if m.pid != HOST))
    own.start()
    line = host.solution or []

    rng = random.Random(f"{seed}/bots")
    styles = ["line" if rng.random() < 0.5 else "random" for _ in range(players)]
    if "line" not in styles:
        styles[rng.randrange(players)] = "line"
    sides = [own, *friends]
    for seat, side in enumerate(sides):
        forge = None
        if seat == hostile:
            forge = _forger(side, links, seat, players, random.Random(f"{seed}/hostile"))
        bot = _Bot(net, side, line, random.Random(f"{seed}/bot{seat}"), styles[seat],
                   rng.uniform(0.8, 1.6), forge)
        bot.schedule()

    if drops is None:
        drops = []
        rng = random.Random(f"{seed}/drops")
        for seat in range(1, players):
            at = 0.0
            for _ in range(2):
                if rng.random() < 2 * faults:
                    at += rng.uniform(5, 150)
                    drops.append((seat, at, rng.uniform(2, 40)))
                    at += drops[-1][2]
    start = net.now
    def cut(seat: int) -> None:
        if links[seat].connected:
            net.cut(links[seat])

    def back(seat: int) -> None:
        if not links[seat].connected:
            connect(seat)

    for seat, at, down_for in drops:
        net.at(start + at, partial(cut, seat))
        net.at(start + at + down_for, partial(back, seat))

    net.run(until=TIME_LIMIT)
    views = {"host": own.standings}
    views.update({str(f.pid): f.standings for f in friends})
    host_view = views["host"]
    return {
        "deal": host.table.deal,
        "players": players, "kind": kind, "draw": draw, "seed": seed,
        "faults": faults, "hostile": hostile,
        "bots": styles,
        "seconds": (round(host.table.ended_at - host.table.started_at, 3)
                    if host.table.ended_at is not None and host.table.started_at is not None
                    else None),
        "peers": {peer: [{k: row[k] for k in ("pid", "name", "place", "foundation", "moves",
                                              "result")} for row in (st or [])]
                  for peer, st in views.items()},
        "agree": all(st == host_view for st in views.values()),
        "rejected": dict(sorted(host.rejected.items())),
        "messages": net.sent,
    }

