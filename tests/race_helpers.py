"""A race table for the race's unit tests: the host (its own seat ``me``) and
friends on one fake network (:mod:`kosynka.race.memory`), on a verified deal."""
import json

from kosynka.position import Rules
from kosynka.race.host import Host
from kosynka.race.memory import Network
from kosynka.race.player import Player
from kosynka.solver import verified_deal

DEAL, SOLVED = verified_deal(0, Rules(1, None))
LINE = SOLVED.moves


def dealer(first):
    """The test host's deals: ``first``, then the verified deals after it (V1)."""
    dealt = []

    def deal(rules):
        number = first if not dealt else verified_deal(dealt[-1] + 1, rules)[0]
        dealt.append(number)
        return number
    return deal


class Table:
    """A host (its own seat ``me``) and friends on one fake network."""

    def __init__(self, friends=2, faults=0.0, seed=0, deal=DEAL):
        self.net = Network(seed=seed, faults=faults)
        self.host = Host("Host", self.net.clock, seed=seed,
                         deals=None if deal is None else dealer(deal))
        self.me = self.host.own_player()              # the host's own seat
        self.players, self.links = [], []
        for i in range(friends):
            self.players.append(Player(f"P{i + 1}", self.net.clock))
            self.connect(i)
        self.run()

    def connect(self, i):
        h, p = self.net.pair(f"seat{i + 1}")
        self.host.attach(h)
        self.players[i].connect(p)
        if i < len(self.links):
            self.links[i] = p
        else:
            self.links.append(p)

    def run(self):
        self.net.run()

    def start(self):
        for p in self.players:
            p.set_ready(True)
        self.run()
        self.me.start()
        self.run()

    def raw(self, i, text):
        """Send ``text`` as it is on friend i's link; the host's answers."""
        got = []
        link = self.links[i]
        handler = link.on_message
        link.on_message = lambda t: (got.append(json.loads(t)), handler(t))
        link.send(text)
        self.run()
        link.on_message = handler
        return [m for m in got if m["kind"] in ("reject", "refuse")]
