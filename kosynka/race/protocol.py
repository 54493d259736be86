"""The race protocol (issue 10 item 3): every message between the host and a
player, in one place — one builder and one check per kind.

Messages use the shared envelope of :mod:`kosynka.messages`
(``{"v", "id", "kind", …}``), protocol ``"race"`` version :data:`VERSION`.
A peer of another version gets ``msg/version`` with "update Kosynka" and is
not seated.

Player → host (:data:`TO_HOST`, at most :data:`TO_HOST_BYTES` bytes). ``id``
is the player's sequence number: the host takes each message only as the next
one (``id == ack + 1``), ``sync`` may skip ahead. ``pid`` is who the player
says they are; it must be the seat of the link it came on.

==============  ==================================================================
kind            fields
==============  ==================================================================
``join``        ``name``; ``pid``/``token`` (``null`` for a newcomer) to come back
                to a seat. ``id`` is the last id the player used; not sequenced.
``ready``       ``pid``, ``ready`` (bool) — N3
``move``        ``pid``, ``race`` (number of the race), ``move`` (pinned notation),
                ``claim`` — ``null`` or the mover's progress after the move
                ``{foundation, face_up, moves}``; the host refuses a claim its
                replay does not show
``offer_draw``  ``pid`` — N7
``answer_draw`` ``pid``, ``offer`` (its id), ``accept`` (bool) — N7
``resign``      ``pid`` — N8
``sync``        ``pid``: "forget what I sent after your ack; send me my game"
``settings``    ``pid``, ``draw``, ``minutes`` (``null``: to the last card) — N4,
                the host's seat only, in the lobby
``start``       ``pid`` — N3, the host's seat only (the host picks the deal, V1)
``again``       ``pid`` — N11, the host's seat only
``change_settings`` ``pid`` — N11, the host's seat only
``remove``      ``pid``, ``who`` — the host's seat only, in the lobby: ``who`` leaves
``leave``       ``pid`` — N12, the last message of a seat whose player taps Leave:
                racing, they resign (N8); else the seat is freed. From the host's
                own seat it closes the table (N13: ``closed`` to everyone)
``pong``        ``pid`` — the answer to a ``ping``, at once; ``id`` is the last id
                the player used (not sequenced, as ``join``)
==============  ==================================================================

The host's own seat is a player like the others (over an in-memory link on the
host's page, :meth:`Host.own_player <kosynka.race.host.Host.own_player>`): it
sends the same messages, and the table's rules (``role/not_host``) keep the
host's actions to it.

Host → player (:data:`TO_PLAYER`). ``id`` is the table's state number (it grows
with every change the host accepts), so a player keeps the newest ``view``.

==============  ==================================================================
``welcome``     ``pid``, ``token`` (secret to come back with), ``ack``
``refuse``      ``code``, ``detail`` — not seated (another version, a bad name, a
                full table), or no longer (``table/left``: removed, or away too long)
``view``        ``ack`` (the recipient's last accepted id), ``view`` (the
                table as that recipient may see it: :meth:`Table.view`, with
                the events they have not had yet)
``sync``        ``ref`` (the join or sync it answers), ``ack``, ``race``,
                ``deal``, ``draw``, ``log`` (the recipient's own moves as the
                host holds them)
``reject``      ``ref`` (id of the refused message, if readable), ``digest``
                (of its text, so a player knows its own from a forgery),
                ``code``, ``detail``
``ping``        ``grace`` — "are you there?", every :data:`PING_S` s; ``grace``
                is the host's figure: the seconds of N9 grace this seat has from
                now if it does not answer (the one clock of issue 30 item 6)
``closed``      the host closed the table (N13: its Leave, or its page closing):
                the last message; the race ends with no result
==============  ==================================================================

Version 3 (issue 30) added ``leave``, ``pong``, ``ping`` and ``closed``.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from ..deals import MAX_DEAL
from ..messages import MessageError, Protocol
from ..position import Position, Rules
from .table import (
    DRAWS,
    EVENTS_KEPT,
    GRACE,
    LOBBY,
    MAX_SEATS,
    MAX_WATCHERS,
    MINUTES,
    NAME_MAX,
    OVER,
    RACING,
)

__all__ = ["VERSION", "TO_HOST", "TO_PLAYER", "TO_HOST_BYTES", "TO_PLAYER_BYTES",
           "parse_to_host", "parse_to_player", "digest", "dumps", "Msg",
           "join", "ready", "move", "offer_draw", "answer_draw", "resign", "sync_request",
           "settings", "start", "again", "change_settings", "remove", "leave", "pong",
           "welcome", "refuse", "view", "sync", "reject", "ping", "closed", "LEFT", "PING_S"]

VERSION = 3
LEFT = "table/left"            # refuse code: no longer at the table (removed, or away too long)
PING_S = 0.5                   # the host asks each friend's link "are you there?" this often
TO_HOST_BYTES = 1024           # a player's message is small: a name or a move
TO_PLAYER_BYTES = 1 << 20      # a sync carries a whole move log

TO_HOST = Protocol("race", VERSION, {
    "join": {"name": str, "pid": (int, None), "token": (str, None)},
    "ready": {"pid": int, "ready": bool},
    "move": {"pid": int, "race": int, "move": str, "claim": (dict, None)},
    "offer_draw": {"pid": int},
    "answer_draw": {"pid": int, "offer": int, "accept": bool},
    "resign": {"pid": int},
    "sync": {"pid": int},
    "settings": {"pid": int, "draw": int, "minutes": (int, None)},
    "start": {"pid": int},
    "again": {"pid": int},
    "change_settings": {"pid": int},
    "remove": {"pid": int, "who": int},
    "leave": {"pid": int},
    "pong": {"pid": int},
}, max_bytes=TO_HOST_BYTES)

TO_PLAYER = Protocol("race", VERSION, {
    "welcome": {"pid": int, "token": str, "ack": int},
    "refuse": {"code": str, "detail": str},
    "view": {"ack": int, "view": dict},
    "sync": {"ref": int, "ack": int, "race": int, "deal": (int, None), "draw": int, "log": list},
    "reject": {"ref": (int, None), "digest": (str, None), "code": str, "detail": str},
    "ping": {"grace": float},
    "closed": {},
}, max_bytes=TO_PLAYER_BYTES)

CLAIM_FIELDS = ("foundation", "face_up", "moves")


def dumps(msg: Msg) -> str:
    return Protocol.dumps(msg)


def digest(text: Any) -> str | None:
    """A short fingerprint of a message's text (``None`` if it is not text)."""
    if not isinstance(text, str):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


Msg = dict[str, Any]
"""A message as an object (the envelope's ``v``, ``id``, ``kind`` and its fields)."""


def _no_check(m: Msg) -> None:
    """A kind whose fields' types say everything."""


def _bad(kind: str, what: str) -> MessageError:
    return MessageError("msg/field", f"{kind}: {what}")


# ------------------------------------------------------------ player → host
def join(id: int, name: str, pid: int | None = None, token: str | None = None) -> str:
    return dumps(TO_HOST.build("join", id, name=name, pid=pid, token=token))


def ready(id: int, pid: int, is_ready: bool) -> str:
    return dumps(TO_HOST.build("ready", id, pid=pid, ready=is_ready))


def move(id: int, pid: int, race: int, notation: str, claim: dict[str, int] | None) -> str:
    return dumps(TO_HOST.build("move", id, pid=pid, race=race, move=notation, claim=claim))


def offer_draw(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("offer_draw", id, pid=pid))


def answer_draw(id: int, pid: int, offer: int, accept: bool) -> str:
    return dumps(TO_HOST.build("answer_draw", id, pid=pid, offer=offer, accept=accept))


def resign(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("resign", id, pid=pid))


def sync_request(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("sync", id, pid=pid))


def settings(id: int, pid: int, draw: int, minutes: int | None) -> str:
    return dumps(TO_HOST.build("settings", id, pid=pid, draw=draw, minutes=minutes))


def start(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("start", id, pid=pid))


def again(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("again", id, pid=pid))


def change_settings(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("change_settings", id, pid=pid))


def remove(id: int, pid: int, who: int) -> str:
    return dumps(TO_HOST.build("remove", id, pid=pid, who=who))


def leave(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("leave", id, pid=pid))


def pong(id: int, pid: int) -> str:
    return dumps(TO_HOST.build("pong", id, pid=pid))


def _check_join(m: Msg) -> None:
    if len(m["name"]) > NAME_MAX * 2:
        raise _bad("join", f"name over {NAME_MAX} characters")
    if (m["pid"] is None) != (m["token"] is None):
        raise _bad("join", "pid and token come together")
    if m["token"] is not None and not 0 < len(m["token"]) <= 64:
        raise _bad("join", "token of 1–64 characters")


def _check_move(m: Msg) -> None:
    if len(m["move"]) > 8:
        raise _bad("move", "a move is short notation")
    c = m["claim"]
    if c is not None and (set(c) != set(CLAIM_FIELDS) or not all(
            isinstance(c[k], int) and not isinstance(c[k], bool) and c[k] >= 0 for k in c)):
        raise _bad("move", "claim is {foundation, face_up, moves} of integers ≥ 0")


def _check_pid(m: Msg) -> None:
    if m["pid"] < 0:
        raise _bad(m["kind"], "pid ≥ 0")


_HOST_CHECKS = {"join": _check_join, "move": _check_move}


def parse_to_host(text: Any) -> Msg:
    """A player's message, checked; :class:`MessageError` (``msg/…``) if refused."""
    msg = TO_HOST.parse(text)
    if "pid" in msg and msg["pid"] is not None:
        _check_pid(msg)
    _HOST_CHECKS.get(msg["kind"], _no_check)(msg)
    return msg


# ------------------------------------------------------------ host → player
def welcome(id: int, pid: int, token: str, ack: int) -> str:
    return dumps(TO_PLAYER.build("welcome", id, pid=pid, token=token, ack=ack))


def refuse(id: int, code: str, detail: str) -> str:
    return dumps(TO_PLAYER.build("refuse", id, code=code, detail=detail))


def view(id: int, ack: int, table_view: Msg) -> str:
    return dumps(TO_PLAYER.build("view", id, ack=ack, view=table_view))


def sync(id: int, ref: int, ack: int, race: int, deal: int | None, draw: int,
         log: list[str]) -> str:
    return dumps(TO_PLAYER.build("sync", id, ref=ref, ack=ack, race=race, deal=deal,
                                 draw=draw, log=log))


def reject(id: int, ref: int | None, text_digest: str | None, code: str, detail: str) -> str:
    return dumps(TO_PLAYER.build("reject", id, ref=ref, digest=text_digest, code=code,
                                 detail=detail[:200]))


def ping(id: int, grace: float) -> str:
    return dumps(TO_PLAYER.build("ping", id, grace=grace))


def closed(id: int) -> str:
    return dumps(TO_PLAYER.build("closed", id))


def _check_ping(m: Msg) -> None:
    if not _ok(m["grace"], ("num", 0, GRACE)):
        raise _bad("ping", f"grace is 0 to {GRACE:g} seconds")


def _check_sync(m: Msg) -> None:
    if m["draw"] not in DRAWS or not all(isinstance(x, str) for x in m["log"]):
        raise _bad("sync", "draw 1 or 3 and a log of moves")
    if m["deal"] is not None and not 0 <= m["deal"] < MAX_DEAL:
        raise _bad("sync", "a deal number is 0 to 2⁶⁴ − 1")


# ------------------------------------------------------------ what a view may hold
# A player checks every view against this before it keeps it, so neither the
# player nor a screen drawing it meets a field it cannot use (a hostile or broken
# host is refused with msg/field; the player keeps its last good view).
# Schema: a type (int excludes bool; None is JSON null), a tuple of
# alternatives, a dict of required keys (extra keys are allowed: a newer host may
# add some), ("list", schema, most), ("map", schema, most), ("enum", values),
# ("int", low, high) and ("num", low, high): every number has its range, and a
# number is finite — JSON text may say Infinity, NaN or 1e400, a screen that
# formats or counts down such a number raises (issue 30 item 7).
BIG = 2 ** 53 - 1      # no count, id or second of a table comes near it (a JS number's exact ints)


def _ok(value: Any, schema: Any) -> bool:
    if schema is None:
        return value is None
    if isinstance(schema, type):
        return isinstance(value, schema) and (schema is bool or not isinstance(value, bool))
    if isinstance(schema, dict):
        return isinstance(value, dict) and all(k in value and _ok(value[k], t)
                                               for k, t in schema.items())
    tag = schema[0]
    if tag == "enum":
        return any(value == x and type(value) is type(x) for x in schema[1])
    if tag == "int":
        return _ok(value, int) and schema[1] <= value <= schema[2]
    if tag == "num":
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isfinite(value) and schema[1] <= value <= schema[2])
    if tag == "list":
        return isinstance(value, list) and len(value) <= schema[2] and all(
            _ok(x, schema[1]) for x in value)
    if tag == "map":
        return isinstance(value, dict) and len(value) <= schema[2] and all(
            isinstance(k, str) and _ok(x, schema[1]) for k, x in value.items())
    return any(_ok(value, alt) for alt in schema)


PID = ("int", 0, BIG)
PIDS = ("list", PID, MAX_SEATS + MAX_WATCHERS)
SEAT = ("int", 0, MAX_SEATS - 1)
COUNT = ("int", 0, 52)
MOVES = ("int", 0, BIG)
NUMBER = ("int", 0, BIG)              # a race's, an event's, an offer's number
OFFER = ("int", 1, BIG)
DEAL = ("int", 0, MAX_DEAL - 1)
NAME = str
STATUS = ("enum", ("waiting", "watching", "racing", "resigned", "won", "lost", "draw"))
RESULT = ("enum", ("won", "lost", "draw"))
WHY = ("enum", ("all_up", "last_left", "agreed", "foundation", "face_up", "tie", "resigned",
                "counted_out"))
REASON = ("enum", ("all_up", "time_up", "agreed", "last_left"))
CAN = ("move", "resign", "offer", "answer", "ready", "settings", "start", "again",
       "change_settings", "remove")
DRAW = ("enum", DRAWS)
KIND = ("enum", MINUTES)
ROW = {"pid": PID, "name": NAME, "seat": (SEAT, None), "host": bool,
       "ready": bool, "connected": bool, "status": STATUS,
       "out": ("enum", (None, "resigned", "dropped")), "score": ("num", 0, BIG),
       "away": (("num", 0, GRACE), None), "left": bool,
       "foundation": COUNT, "face_up": COUNT, "moves": MOVES}
STANDING = {"pid": PID, "name": NAME, "place": ("int", 1, MAX_SEATS), "result": RESULT,
            "foundation": COUNT, "face_up": COUNT, "moves": MOVES,
            "out": ("enum", (None, "resigned", "dropped")), "why": WHY}
OUTCOME = {"result": ("enum", ("won", "lost", "draw", "resigned", "counted_out")),
           "why": (WHY, ("enum", ("won", "lost", "draw"))),
           "place": (("int", 1, MAX_SEATS), None), "of": (("int", 1, MAX_SEATS), None),
           "foundation": COUNT, "face_up": COUNT, "moves": MOVES}
END = {"reason": REASON, "winners": PIDS, "drawn": PIDS,
       "decided_by": ("enum", (None, "foundation", "face_up", "tie"))}
EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "joined": {"seat": (SEAT, None)}, "seated": {"seat": SEAT},
    "left": {"why": ("enum", ("away", "removed", "left"))},
    "dropped": {}, "back": {}, "ready": {"ready": bool},
    "settings": {"draw": DRAW, "minutes": KIND}, "lobby": {},
    "started": {"race": NUMBER, "deal": DEAL, "draw": DRAW, "minutes": KIND},
    "moved": {"moves": MOVES, "foundation": COUNT, "face_up": COUNT},
    "offered": {"offer": OFFER}, "agreed": {"offer": OFFER}, "refused": {"offer": OFFER},
    "cancelled": {"offer": OFFER, "why": ("enum", ("moved", "out"))},
    "resigned": {}, "counted_out": {}, "time_up": {},
    "ended": {"reason": REASON, "winners": PIDS, "drawn": PIDS},
}
EVENT = {"n": ("int", 1, BIG), "kind": ("enum", tuple(EVENT_FIELDS)), "pid": (PID, None),
         "name": (NAME, None)}
VIEW = {"you": PID, "phase": ("enum", (LOBBY, RACING, OVER)), "race": NUMBER,
        "deal": (DEAL, None), "draw": DRAW, "minutes": KIND,
        "clock": (("num", 0, BIG), None), "ends_in": (("num", 0, max(MINUTES[1:]) * 60), None),
        "can": {k: bool for k in CAN},
        "outcome": (OUTCOME, None), "end": (END, None),
        "players": ("list", ROW, MAX_SEATS + MAX_WATCHERS),
        "offer": ({"id": OFFER, "by": PID, "agreed": PIDS}, None),
        "standings": (("list", STANDING, MAX_SEATS), None),
        "tables": (("map", dict, MAX_SEATS), None),
        "events": ("list", EVENT, EVENTS_KEPT), "event": NUMBER}


def _check_view(m: Msg) -> None:
    v = m["view"]
    if not _ok(v, VIEW):
        raise _bad("view", "a table view as Table.view makes it")
    for e in v["events"]:
        if not _ok(e, EVENT_FIELDS[e["kind"]]):
            raise _bad("view", f"a {e['kind']} event as the table makes it")
    for table in (v["tables"] or {}).values():
        try:                      # the final tables are drawn: the engine reads them first
            Position.from_json(table, Rules(v["draw"], None))
        except ValueError:
            raise _bad("view", "a final table that is no Klondike position") from None


_PLAYER_CHECKS = {"sync": _check_sync, "view": _check_view, "ping": _check_ping}


def parse_to_player(text: Any) -> Msg:
    """The host's message, checked; :class:`MessageError` if refused."""
    msg = TO_PLAYER.parse(text)
    for key, value in msg.items():      # ids, acks, pids, race numbers (a deal: _check_sync)
        if key != "deal" and _ok(value, int) and not 0 <= value <= BIG:
            raise _bad(msg["kind"], f"{key} out of range")
    _PLAYER_CHECKS.get(msg["kind"], _no_check)(msg)
    return msg
