"""The host (issue 10 item 2): owns the :class:`~kosynka.race.table.Table`,
holds one :class:`~kosynka.race.transport.Link` per member, and decides.

Every message from a link is checked in this order; the first failure is
refused with an explicit ``reject`` to that link (``ref``, ``digest``, ``code``,
``detail``), counted in :attr:`Host.rejected` and logged in :attr:`Host.log`;
nothing else changes and the table runs on for everyone:

1. the envelope and fields (:func:`protocol.parse_to_host`): ``msg/not_text``,
   ``msg/too_big``, ``msg/not_json``, ``msg/not_object``, ``msg/version``,
   ``msg/id``, ``msg/kind``, ``msg/field``. On a link that has not joined, a
   version mismatch is answered by ``refuse`` ("update Kosynka"): that peer
   is not seated (the link stays open — closing it would let anyone's garbage
   cut a friend's fresh link before their join arrives);
2. the link has joined (``join/first``), and only once (``join/again``; the
   same join word for word is answered again — welcome, sync, view — as its
   player did not hear the answer, see :meth:`Player.tick`; so is a comeback
   of the link's own seat with its token: the player's page took the link for
   a new one, which a WebRTC library may do when it keeps a connection across
   a leave and a join); a comeback names its seat with the secret token it
   was given (``join/token``);
3. the sender: ``pid`` is the seat of this link (``sender/wrong``);
4. the sequence: ``id`` is the next after the last accepted (``seq/duplicate``
   if not above it, ``seq/gap`` if it skips; a ``sync`` may skip);
5. the rules, on the host's own copy (:class:`RaceError` codes: ``race/…``,
   ``move/illegal``, ``move/undo``, ``draw/…``, ``ready/…``), and a move's
   ``claim`` against the replay (``claim/false``).

An accepted message moves the member's ``ack`` on, and every member gets a
fresh ``view``. A (re)join gets ``welcome``, then ``sync`` (their own game,
exactly the host's copy), then views.

The host's own seat is no special case: :meth:`Host.own_player` gives the
host's page a :class:`~kosynka.race.player.Player` for pid 0 over an in-memory
link, whose messages go through the same checks (as boardgame.io runs the
host's seat as a client over its local transport). ``Host`` itself only holds
the links, checks, keeps the racers' games (the replay) and ticks the timers.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from typing import Any, Callable

import kosynka.race.protocol as protocol

from ..deals import MAX_DEAL
from ..messages import MessageError
from ..position import Rules
from ..solver import VERIFY_STATES, verified_deal
from .memory import local_pair
from .player import SILENT_S, Player
from .protocol import PING_S
from .table import GRACE, HOST, RaceError, Table
from .transport import CLOSED, DROPPED, Link

__all__ = ["Host", "LOG_KEPT", "SILENT_PINGS"]

LOG_KEPT = 200      # refusals kept in Host.log (all are counted in Host.rejected)
LEFT_DETAIL = "you are no longer at this table"   # with protocol.LEFT
# a friend's link that answered none of this many pings in a row (SILENT_S at the
# normal pace; counted in pings, so a busy or sped-up host page does not count a
# friend out for its own slowness) is dropped: its page froze or went without a word
SILENT_PINGS = round(SILENT_S / PING_S)


class _Conn:
    """A link and the member it belongs to once they joined."""

    __slots__ = ("link", "pid", "joined", "pinged", "asked", "unanswered")

    def __init__(self, link: Link) -> None:
        self.link = link
        self.pid: int | None = None
        self.joined: object = None        # the join that seated them, word for word
        self.pinged = -PING_S             # when we last asked "are you there?"
        self.asked: float | None = None   # our first ping since we last heard them
        self.unanswered = 0               # pings sent since we last heard them


def _ignore(*_args: object) -> None:
    pass


class Host:
    """The host's side of a race. ``clock()`` gives seconds (monotonic);
    ``seed`` makes deals and tokens reproducible (tests, the simulator); with
    None, tokens come from the system's randomness (``os.urandom``)."""

    def __init__(self, name: str, clock: Callable[[], float], seed: int | None = None,
                 verify_states: int = VERIFY_STATES,
                 deals: Callable[[Rules], int] | None = None) -> None:
        self.clock = clock
        self.table = Table(name, clock())
        self._choose = deals
        self._deals = random.Random(None if seed is None else f"{seed}/deals")
        self._tokens = random.SystemRandom() if seed is None else random.Random(f"{seed}/tokens")
        self.verify_states = verify_states
        self.solution: list[str] | None = None   # the solver's line of the current deal
        self.conns: dict[int, _Conn] = {}         # pid → its live link
        self.tokens: dict[int, str] = {HOST: self._token()}   # the host's own seat's too
        self.acks: dict[int, int] = {HOST: 0}
        self.state = 0                            # grows with every accepted change
        self.rejected: Counter[str] = Counter()   # every refusal, by code
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_KEPT)   # the latest refusals
        self.told: dict[int, int] = {}            # pid → the last event its views carried
        self.closed = False                       # the host closed the table (N13)
        self.on_change: Callable[[], None] = _ignore

    # ----------------------------------------------------------- links
    def attach(self, link: Link) -> None:
        """A new channel from someone (newcomer or comeback); they speak first (``join``)."""
        conn = _Conn(link)
        link.on_message = lambda text: self._receive(conn, text)
        link.on_status = lambda status: self._status(conn, status)

    def _status(self, conn: _Conn, status: str) -> None:
        if (status in (DROPPED, CLOSED) and conn.pid is not None and not self.closed
                and self.conns.get(conn.pid) is conn):
            del self.conns[conn.pid]
            self.table.drop(conn.pid, self.clock(), since=conn.asked)
            self._changed()

    def _send(self, conn: _Conn, text: str) -> None:
        conn.link.send(text)

    def _refused(self, conn: _Conn, code: str, detail: str) -> None:
        self.rejected[code] += 1
        self.log.append({"t": self.clock(), "pid": conn.pid, "code": code, "detail": detail})

    def _reject(self, conn: _Conn, ref: int | None, text: object, code: str, detail: str) -> None:
        self._refused(conn, code, detail)
        self._send(conn, protocol.reject(self.state, ref, protocol.digest(text), code, detail))

    def _refuse(self, conn: _Conn, code: str, detail: str) -> None:
        """Not seated: told why (the link stays open for another try)."""
        self._refused(conn, code, detail)
        self._send(conn, protocol.refuse(self.state, code, detail))

    # ----------------------------------------------------------- messages
    def _receive(self, conn: _Conn, text: object) -> None:
        if self.closed:
            return
        conn.asked, conn.unanswered = None, 0      # heard: the link is alive now
        self.tick()
        try:
            msg = protocol.parse_to_host(text)
        except MessageError as e:
            if conn.pid is None and e.code == "msg/version":
                self._refuse(conn, e.code, e.detail)
            else:
                self._reject(conn, None, text, e.code, e.detail)
            return
        kind, mid = msg["kind"], msg["id"]
        if kind == "join":
            if conn.pid is None:
                self._join(conn, msg, text)
            elif text == conn.joined or (msg["pid"] == conn.pid
                                         and msg["token"] == self.tokens[conn.pid]):
                # they did not hear the answer, or their page took this link for a
                # new one (its seat's own comeback): answered again, as a join
                conn.joined = text
                self._welcome(conn, mid)
                self._send(conn, protocol.view(self.state, self.acks[conn.pid],
                                               self.table.view(conn.pid)))
            else:
                self._reject(conn, mid, text, "join/again", "this link has joined already")
            return
        if conn.pid is None:
            self._reject(conn, mid, text, "join/first", "join the table first")
            return
        pid = conn.pid
        if msg["pid"] != pid:
            self._reject(conn, mid, text, "sender/wrong", f"this link is pid {pid}, not {msg['pid']}")
            return
        if kind == "pong":                # heard (above): nothing else to do
            return
        if kind == "leave" and pid == HOST:
            self.close()                  # N13: the host's own Leave closes the table
            return
        last = self.acks[pid]
        if mid <= last:
            self._reject(conn, mid, text, "seq/duplicate", f"id {mid} is not after {last}")
            return
        if mid > last + 1 and kind != "sync":
            self._reject(conn, mid, text, "seq/gap", f"id {mid} skips; expected {last + 1}")
            return
        now = self.clock()
        t = self.table
        try:
            if kind == "move":
                if msg["claim"] is not None:
                    shown = t.check_move(pid, msg["race"], msg["move"], now)
                    if shown != msg["claim"]:
                        raise RaceError("claim/false", f"claimed {msg['claim']}, the replay shows {shown}")
                t.move(pid, msg["move"], now, race=msg["race"])
            elif kind == "ready":
                t.set_ready(pid, msg["ready"], now)
            elif kind == "offer_draw":
                t.offer_draw(pid, now)
            elif kind == "answer_draw":
                t.answer_draw(pid, msg["offer"], msg["accept"], now)
            elif kind == "resign":
                t.resign(pid, now)
            elif kind == "settings":
                t.set_settings(pid, msg["draw"], msg["minutes"], now)
            elif kind == "start":
                t.start(pid, self.choose_deal, now)
            elif kind == "again":
                t.again(pid, self.choose_deal, now)
            elif kind == "change_settings":
                t.change_settings(pid, now)
            elif kind == "remove":
                t.remove(pid, msg["who"], now)
            elif kind == "leave":
                t.leave(pid, now)
        except RaceError as e:
            self._reject(conn, mid, text, e.code, e.detail)
            return
        self.acks[pid] = mid
        if kind == "sync":
            self._sync(conn, mid)
        if kind == "leave":               # N12: said, not guessed — no grace, no comeback
            del self.conns[pid], self.tokens[pid]
            conn.pid = None
            conn.link.close()
        self._changed()

    def _join(self, conn: _Conn, msg: protocol.Msg, text: object) -> None:
        now = self.clock()
        pid = msg["pid"]
        if pid is not None and pid in self.tokens and pid in self.table.members:
            if msg["token"] != self.tokens[pid]:
                self._reject(conn, msg["id"], text, "join/token", f"wrong token for pid {pid}")
                return
            old = self.conns.get(pid)
            if old is not None:
                old.pid = None
                old.link.close()
            self.table.back(pid, now)
        elif pid is not None:
            # a comeback to a seat the table has let go (removed, or away past the
            # grace): told so, not seated anew under another pid with a fresh score
            self._refuse(conn, protocol.LEFT, LEFT_DETAIL)
            return
        else:
            try:
                pid = self.table.join(msg["name"], now)
            except RaceError as e:
                self._refuse(conn, e.code, e.detail)
                return
            self.tokens[pid] = self._token()
            self.acks[pid] = msg["id"]
        conn.pid, conn.joined = pid, text
        self.conns[pid] = conn
        self.told[pid] = self.table.event_n   # from now on: a comeback hears no backlog
        self._welcome(conn, msg["id"])
        self._changed()

    def _token(self) -> str:
        return "%016x" % self._tokens.getrandbits(64)

    def _welcome(self, conn: _Conn, ref: int) -> None:
        """The answer to a join: the seat and its token, then the member's game."""
        pid = conn.pid
        assert pid is not None                 # answered only once seated
        self._send(conn, protocol.welcome(self.state, pid, self.tokens[pid], self.acks[pid]))
        self._sync(conn, ref)

    def _sync(self, conn: _Conn, ref: int) -> None:
        t, pid = self.table, conn.pid
        assert pid is not None
        m = t.members[pid]
        self._send(conn, protocol.sync(self.state, ref, self.acks[pid], t.race,
                                       t.deal if m.game else None, t.draw,
                                       list(m.game.log) if m.game else []))

    def _changed(self) -> None:
        """Every member gets a fresh view with the events they have not had; one
        who left the table (removed, or away past the grace) is told so and let go."""
        self.state += 1
        t = self.table
        for pid in [p for p in self.acks if p not in t.members]:
            self.tokens.pop(pid, None)
            del self.acks[pid]
            self.told.pop(pid, None)
            conn = self.conns.pop(pid, None)
            if conn is not None:
                self._send(conn, protocol.refuse(self.state, protocol.LEFT, LEFT_DETAIL))
                conn.pid = None
                conn.link.close()
        for pid, conn in self.conns.items():
            self._send(conn, protocol.view(self.state, self.acks[pid],
                                           t.view(pid, self.told.get(pid, t.event_n))))
            self.told[pid] = t.event_n
        self.on_change()

    def close(self) -> None:
        """N13: the host closes the table (its Leave, or its page closing): every
        friend is told at once (``closed``, the last message), every link closes,
        and this host answers nothing more."""
        if self.closed:
            return
        self.closed = True
        self.state += 1
        for conn in list(self.conns.values()):
            self._send(conn, protocol.closed(self.state))
        for conn in list(self.conns.values()):
            conn.link.close()
        self.conns.clear()
        self.on_change()

    # ----------------------------------------------------------- time
    def tick(self) -> None:
        """Fire the timers due now (timed end N6, reconnect grace N9), and ask
        each friend's link "are you there?" every :data:`~protocol.PING_S` s; a
        link that answered none of :data:`SILENT_PINGS` pings is dropped (N9).

        The grace of a friend whose link goes down runs from the first ping they
        did not answer (else from the moment the link went down): the friend's
        page counts from the last ping it had, with the figure the ping carries,
        so both screens count down the same grace within a second (issue 30
        item 6) — not from the moments each page noticed the cut, seconds apart."""
        if self.closed:
            return
        now = self.clock()
        before = self.table.event_n
        self.table.tick(now)
        for pid, conn in list(self.conns.items()):
            if pid == HOST or now - conn.pinged < PING_S:
                continue
            if conn.unanswered >= SILENT_PINGS:
                # silent (a page closed without a word, a half-open link): dropped as
                # if its link went down — the grace from the first unanswered ping —
                # and closed, so that its page, if it is there, comes back (N9)
                del self.conns[pid]
                self.table.drop(pid, now, since=conn.asked)
                conn.link.close()
                continue
            conn.pinged = now
            conn.unanswered += 1
            if conn.asked is None:
                conn.asked = now
            self._send(conn, protocol.ping(self.state, GRACE))
        if self.table.event_n != before:
            self._changed()

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (clock seconds), or None."""
        return self.table.next_deadline()

    # ----------------------------------------------------------- the host's own seat
    def own_player(self) -> Player:
        """The host's own seat (pid 0) as a :class:`Player` like every friend's,
        over an in-memory link (:func:`~kosynka.race.memory.local_pair`): the
        page plays, offers, resigns, starts and deals again through it, and
        this host checks its messages as anyone's."""
        mine, theirs = local_pair()
        self.attach(mine)
        player = Player(self.table.members[HOST].name, self.clock)
        player.pid, player.token = HOST, self.tokens[HOST]
        player.connect(theirs)
        return player

    def choose_deal(self) -> int:
        """V1: a verified deal under the race's rules (``deals``, else from a random start)."""
        if self._choose is not None:
            self.solution = None
            return self._choose(self.table.rules)
        number, res = verified_deal(self._deals.randrange(MAX_DEAL), self.table.rules,
                                    self.verify_states)
        self.solution = list(res.moves)
        return int(number)
