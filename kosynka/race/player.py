"""A player's side of a race: a local game, moves sent with sequence numbers,
the host's views applied — the host's word is final.

The player plays on its own :class:`~kosynka.game.Game` at once (no waiting
for the host) and sends each action as the next message; every message stays
*pending* until a ``view``'s ``ack`` covers it. Recovery, all driven by the
host's answers:

- ``reject`` of one of its own pending messages (same ``ref`` and ``digest``;
  anything else — e.g. the answer to someone's forgery — is ignored):
  ``seq/duplicate`` → nothing (the ack will come); ``seq/gap`` (an earlier
  message got overtaken) → send the pending ones again up to it; any other
  reason (e.g. ``draw/stale``: the offer was gone when our answer came) →
  ask for a ``sync``: the host forgets what we sent after its ack and sends
  our game as it holds it; the actions we sent after the refused one are
  then made again on that copy, as new messages, those still legal;
- ``sync`` (after a join or a sync request): the local game becomes the host's
  copy, then the still pending moves are played again on it and sent again;
- a view whose ack covers everything sent but whose move count differs from
  the local game → ``sync`` (a safety net; it does not happen between honest
  peers);
- a dropped link: give the player a new one with :meth:`Player.connect`; it
  joins again with its pid and token (N9);
- a join not answered within :data:`JOIN_AGAIN_S` is sent again, word for
  word, at each :meth:`Player.tick` (the host answers a repeated join of its
  link again): the first message on a fresh WebRTC data channel was seen lost
  in Chromium under load, though the channel is reliable — both ends open,
  nothing received, both tables waiting for ever.

Leaving and the host's end (issue 30, N12, N13, N9): :meth:`Player.leave` says
Leave to the host (the last message; the host's own seat's Leave closes the
table). :attr:`Player.ended` says why this seat's race is over with no result
of its own: ``left`` (we left), ``closed`` (the host closed the table: its
``closed`` came) or ``gone`` (the host has not been heard for the whole N9
grace — a lost connection or a host page gone silent; the host's word, if it
comes after all, is taken again). ``closed`` and ``gone`` are also told as an
event (``kind`` ``closed`` / ``gone``, ``pid`` 0 and the host's name) in
:meth:`Player.take_events`. While the way to the host is :attr:`Player.lost`,
:attr:`Player.grace_left` counts down our N9 grace as the host counts it: from
the host's last ``ping`` and the figure it carried, less the time since — one
clock for both screens (the host's grace runs from its first unanswered ping).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import kosynka.race.protocol as protocol

from ..game import Game
from ..messages import MessageError
from ..position import IllegalMoveError, InvalidMoveError, Move, Position, Rules
from .table import EVENTS_KEPT, GRACE, HOST, RACING, RaceError, progress
from .transport import OPEN, Link

__all__ = ["Player", "JOIN_AGAIN_S", "REJECTS_KEPT", "SILENT_S"]

JOIN_AGAIN_S = 2.0
SILENT_S = 8.0    # a host that pings every PING_S, said nothing this long: lost (as ICE would say)
REJECTS_KEPT = 20       # our own refused messages kept in Player.rejects (all are counted)


def _ignore(*_args: object) -> None:
    pass


View = dict[str, Any]
"""The host's view for us, as :meth:`Table.view` makes it (checked by the protocol)."""


@dataclass
class _Sent:
    """One of our messages the host has not acknowledged yet."""

    id: int
    text: str
    digest: str | None
    build: Callable[..., str]     # the protocol builder that made it, and its arguments
    args: tuple[Any, ...]
    move: str | None              # a move's notation (None for any other action)
    race: int
    via: Link | None = None       # the link it last went out on


class Player:
    """``Player(name, clock)``; then :meth:`connect` a link to the host."""

    def __init__(self, name: str, clock: Callable[[], float]) -> None:
        self.name = name
        self.clock = clock
        self.link: Link | None = None
        self.pid: int | None = None
        self.token: str | None = None
        self.view: View | None = None       # the host's latest view for us
        self.game: Game | None = None       # our game in race number self.race
        self.race = 0
        self.ack = 0                        # our last message the host accepted
        self.error: str | None = None       # why the host refused us ("update Kosynka")
        self.error_code: str | None = None  # its code: msg/version, name/bad, table/full,
                                            # table/left (removed, or away too long), host/broken
        self.rejects: deque[dict[str, Any]] = deque(maxlen=REJECTS_KEPT)  # our refused messages
        self.refusals = 0                   # how many of our messages the host refused
        self.events: deque[dict[str, Any]] = deque(maxlen=EVENTS_KEPT)   # news not yet taken
        self.on_change: Callable[[], None] = _ignore
        self._id = 0                        # our last message id
        self._pending: list[_Sent] = []     # not yet acknowledged
        self._state = -1                    # the newest view's state number
        self._awaiting: int | None = None   # id of the join/sync whose answer we wait for
        self._join_at: float | None = None  # when our unanswered join was sent
        self._reissue: list[_Sent] = []     # actions to make again once the sync is in
        self._event_n = 0                   # the newest event we have had
        self.ended: str | None = None       # left, closed or gone (module docs)
        self._heard: float | None = None    # when the host last said anything
        self._until: float | None = None    # when our grace ends by the host's count if it
                                            # hears nothing more from us (its last ping)
        self._pinged = False                # the host pings us: its silence says something

    # ----------------------------------------------------------- link
    def connect(self, link: Link) -> None:
        """Use ``link`` to the host (the first, or a new one after a drop)."""
        self.link = link
        link.on_message = self._receive
        link.on_status = self._status
        if link.connected:
            self._join()

    def _status(self, status: str) -> None:
        if status == OPEN:
            self._join()
        self.on_change()

    def take_events(self) -> list[dict[str, Any]]:
        """The table's events we have not shown yet (``Table`` docs), oldest first."""
        out = list(self.events)
        self.events.clear()
        return out

    @property
    def connected(self) -> bool:
        return self.link is not None and self.link.connected

    @property
    def let_go(self) -> bool:
        """The host let us go (removed, or away too long): this Player joins no more
        (a new one may join anew)."""
        return self.error_code == protocol.LEFT

    @property
    def done(self) -> bool:
        """We left, or the host closed the table: this Player sends nothing more."""
        return self.ended in ("left", "closed")

    @property
    def lost(self) -> bool:
        """Seated, and the way to the host is gone: the link is down or its path
        lost (:attr:`Link.steady`), or the host, which pings us every
        :data:`~protocol.PING_S` s, has been silent for :data:`SILENT_S` (its
        page froze or died without a word, N13)."""
        if self.pid is None or self.done or self.let_go:
            return False
        if self.link is None or not self.link.connected or not self.link.steady:
            return True
        return self._pinged and self._heard is not None and self.clock() - self._heard > SILENT_S

    @property
    def grace_left(self) -> float | None:
        """While :attr:`lost`: the seconds of our N9 grace left as the host counts
        them (the figure of its last ping, less the time since); else None."""
        if not self.lost or self._until is None:
            return None
        return max(0.0, self._until - self.clock())

    def leave(self) -> None:
        """N12: we leave the table — said to the host, if our link is up (racing, we
        resign; the host's own seat's Leave closes the table, N13). Then this
        Player is done: it sends nothing more and ignores the host."""
        if not self.done and self.pid is not None and self.connected:
            self._send(protocol.leave)
        self.ended, self._join_at = "left", None
        self.on_change()

    def _tell(self, kind: str) -> None:
        """An event of our own for the page (``closed``, ``gone``): about the host."""
        host = next((p["name"] for p in (self.view or {}).get("players", ()) if p["host"]), None)
        self.events.append({"n": None, "kind": kind, "pid": HOST, "name": host})

    def _join(self) -> None:
        if self.let_go or self.done:
            return
        self._awaiting = self._id
        self._join_at = self.clock()
        self._raw(protocol.join(self._id, self.name, self.pid, self.token))

    def tick(self) -> None:
        """Send our join again if the host has not answered it (a seat and our
        game) for :data:`JOIN_AGAIN_S`; once the host has been lost for the
        whole grace, the table is ``gone`` (N13, N9: told at the grace's end)."""
        if self.ended is None and self.grace_left == 0:
            self.ended = "gone"
            self._tell("gone")
            self.on_change()
        if self._join_at is None:
            return
        if self.pid is not None and self._awaiting is None:
            self._join_at = None                    # answered
        elif self.connected and self.clock() - self._join_at >= JOIN_AGAIN_S:
            self._join()

    def _raw(self, text: str) -> None:
        if self.link is not None and self.link.connected:
            self.link.send(text)

    def _resend(self, p: _Sent) -> None:
        self._raw(p.text)
        p.via = self.link if self.connected else None

    def _send(self, build: Callable[..., str], *args: Any, move: str | None = None) -> None:
        if self.pid is None:
            raise RaceError("join/first", "not at the table yet")
        if self.done:
            raise RaceError("table/closed", "no longer at the table")
        self._id += 1
        text = build(self._id, self.pid, *args)
        self._pending.append(_Sent(self._id, text, protocol.digest(text), build, args, move,
                                   self.race))
        self._resend(self._pending[-1])

    def _request_sync(self, reissue: Sequence[_Sent] = ()) -> None:
        """Ask for our game as the host holds it; the host forgets what we sent
        before. ``reissue``: pending actions to make again on the host's copy
        after the sync, as new messages (those still legal)."""
        self._reissue = [p for p in reissue if p.build is not protocol.sync_request]
        self._pending = []
        self._join_at = None              # seated: the answer to this sync is what we wait for
        self._send(protocol.sync_request)
        self._awaiting = self._id

    # ----------------------------------------------------------- actions
    def _me(self) -> dict[str, Any] | None:
        if self.view is None:
            return None
        return next((p for p in self.view["players"] if p["pid"] == self.pid), None)

    @property
    def racing(self) -> bool:
        me = self._me()
        return (self.game is not None and self.view is not None and self.view["phase"] == RACING
                and me is not None and me["status"] == "racing" and not self.let_go
                and self.ended is None)

    def play(self, move: Move | str) -> None:
        """Make a move (a :class:`~kosynka.position.Move` or notation) on our
        game and send it in notation. Raises RaceError (``race/wait``:
        the table's view has not come yet; ``race/out``: not racing by it;
        ``move/undo``) or IllegalMoveError/InvalidMoveError; then nothing is sent."""
        if move == "U":
            raise RaceError("move/undo", "no undo in a race (N10)")
        if self.view is None:
            raise RaceError("race/wait", "the table's view has not come yet")
        if not self.racing:
            raise RaceError("race/out", "not racing now")
        self._move(move)
        self.on_change()

    def _move(self, move: Move | str) -> None:
        game = self.game
        assert game is not None            # racing, or a pending move made again after a sync
        game.play(move)
        text = game.log[-1]                # the move in notation, as the host reads it
        claim = progress(game.position, game.moves)
        self._send(protocol.move, self.race, text, claim, move=text)

    def set_ready(self, ready: bool = True) -> None:
        self._send(protocol.ready, ready)

    def offer_draw(self) -> None:
        self._send(protocol.offer_draw)

    def answer_draw(self, accept: bool) -> None:
        offer = (self.view or {}).get("offer")
        if not offer:
            raise RaceError("draw/stale", "no draw offer is open")
        self._send(protocol.answer_draw, offer["id"], accept)

    def resign(self) -> None:
        self._send(protocol.resign)

    # the host's seat only (the table refuses them from anyone else: role/not_host)
    def set_settings(self, draw: int, minutes: int | None) -> None:
        """N4, in the lobby: draw 1 or 3; ``minutes`` None (to the last card) or 5, 10, 15."""
        self._send(protocol.settings, draw, minutes)

    def start(self) -> None:
        """N3: deal a verified deal to everyone seated."""
        self._send(protocol.start)

    def again(self) -> None:
        """N11: a new race, same players, one seat along."""
        self._send(protocol.again)

    def change_settings(self) -> None:
        """N11: back to the lobby."""
        self._send(protocol.change_settings)

    def remove(self, who: int) -> None:
        """In the lobby: ``who`` leaves the table."""
        self._send(protocol.remove, who)

    @property
    def standings(self) -> list[dict[str, Any]] | None:
        """The host's standings once the race is over (N4–N8), else None."""
        return None if self.view is None else self.view["standings"]

    # ----------------------------------------------------------- from the host
    def _receive(self, text: object) -> None:
        if self.done:
            return
        try:
            msg = protocol.parse_to_player(text)
        except MessageError as e:
            if e.code == "msg/version":
                self.error, self.error_code = e.detail, e.code
                self.on_change()
            return
        self._heard = self.clock()
        if self.ended == "gone":              # the host after all: its word is final
            self.ended = None
        getattr(self, "_on_" + msg["kind"])(msg)
        self.on_change()

    def _on_ping(self, msg: protocol.Msg) -> None:
        self._pinged = True
        self._until = self.clock() + msg["grace"]
        if self.pid is not None:
            self._raw(protocol.pong(self._id, self.pid))

    def _on_closed(self, msg: protocol.Msg) -> None:
        self.ended, self._join_at, self._pending = "closed", None, []
        self._tell("closed")

    def _on_refuse(self, msg: protocol.Msg) -> None:
        self.error, self.error_code = msg["detail"], msg["code"]
        self._join_at = None              # answered: not seated (asking again changes nothing)

    def _on_welcome(self, msg: protocol.Msg) -> None:
        if msg["pid"] != self.pid:        # a seat of our own (new, or the old one expired)
            self.pid, self._pending, self._reissue = msg["pid"], [], []
            self.game, self.race, self._event_n = None, 0, 0
        self.token, self.error, self.error_code = msg["token"], None, None
        self._until = self.clock() + GRACE    # the host heard us just now
        self._acked(msg["ack"])
        # a comeback after a reload remembers only pid and token: our ids go on
        # after the host's last ack, or the host would take them for duplicates
        self._id = max(self._id, self.ack)

    def _acked(self, ack: int) -> None:
        self.ack = max(self.ack, ack)
        self._pending = [p for p in self._pending if p.id > self.ack]

    def _on_sync(self, msg: protocol.Msg) -> None:
        if msg["ref"] != self._awaiting:
            return
        self._awaiting = None
        self._state = max(self._state, msg["id"])   # views older than this sync are stale
        self._acked(msg["ack"])
        self.race = msg["race"]
        try:
            self.game = (None if msg["deal"] is None
                         else self._replay(msg["deal"], msg["draw"], msg["log"]))
        except (IllegalMoveError, InvalidMoveError, ValueError) as e:
            self.game, self.error = None, f"the host sent an impossible game: {e}"
            self.error_code = "host/broken"
            return
        for i, p in enumerate(self._pending):      # what the host has not had yet
            if p.move is not None:
                try:
                    if self.game is None or p.race != self.race:
                        raise IllegalMoveError("not in this race")
                    self.game.play(p.move)
                except (IllegalMoveError, InvalidMoveError):
                    self._request_sync(self._pending[i + 1:])
                    return
        for p in self._pending:
            if p.via is not self.link:          # sent before this link, or not at all
                self._resend(p)
        reissue, self._reissue = self._reissue, []
        for p in reissue:
            try:
                if p.move is None:
                    self._send(p.build, *p.args)
                elif self.game is not None and p.race == self.race:
                    self._move(p.move)
            except (IllegalMoveError, InvalidMoveError):
                pass                                 # no longer legal here: dropped
        self._follow_race()

    def _replay(self, deal: int, draw: int, log: list[str]) -> Game:
        game = Game(Position.deal(deal, Rules(draw, None)), deal, clock=self.clock)
        for move in log:
            game.play(move)
        return game

    def _on_view(self, msg: protocol.Msg) -> None:
        for e in msg["view"]["events"]:           # news even in a view a sync overtook
            if e["n"] > self._event_n:
                self.events.append(e)
                self._event_n = e["n"]
        if msg["id"] < self._state:
            return
        self._state = msg["id"]
        v = self.view = msg["view"]
        self._acked(msg["ack"])
        if self._follow_race():
            return
        me = self._me()
        if (self.game is not None and me is not None and v["race"] == self.race
                and self._awaiting is None and me["moves"] != self.game.moves
                and not any(p.move for p in self._pending)):
            self._request_sync()

    def _follow_race(self) -> bool:
        """A new race has been dealt (N3, N11): a fresh game of its deal, if we race."""
        v = self.view
        if v is None or v["race"] == self.race or v["phase"] == "lobby" or self._awaiting is not None:
            return False
        me = self._me()
        self.race = v["race"]
        self.game = (self._replay(v["deal"], v["draw"], [])
                     if me is not None and me["status"] != "watching" and v["deal"] is not None
                     else None)
        return True

    def _on_reject(self, msg: protocol.Msg) -> None:
        mine = next((p for p in self._pending
                     if p.id == msg["ref"] and p.digest == msg["digest"]), None)
        if mine is None:
            return
        code = msg["code"]
        if code == "seq/duplicate":
            return
        if code == "join/first":   # this link has no seat at the host: a sync would be
            self._join()           # refused too — join again (nothing, if let go)
            return
        if code == "seq/gap":
            for p in self._pending:
                if p.id <= mine.id:
                    self._resend(p)
            return
        self.rejects.append({"id": mine.id, "code": code, "detail": msg["detail"]})
        self.refusals += 1
        self._request_sync([p for p in self._pending if p.id > mine.id])
