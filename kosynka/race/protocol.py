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
==============  ==================================================================

The host's own seat is a player like the others (over an in-memory link on the
host's page, :meth:`Host.own_player <kosynka.race.host.Host.own_player>`): it
sends the same messages, and the table's rules (``role/not_host``) keep the
host's actions to it.

Host → player (:data:`TO_PLAYER`). ``id`` is the table's state number (it grows
with every change the host accepts), so a player keeps the newest ``view``.

==============  ==================================================================
``welcome``     ``pid``, ``token`` (secret to come back with), ``ack``
``refuse``      ``code``, ``detail`` — not seated (another version, a bad name)
``view``        ``ack`` (the recipient's last accepted id), ``view`` (the
                table as that recipient may see it: :meth:`Table.view`)
``sync``        ``ref`` (the join or sync it answers), ``ack``, ``race``,
                ``deal``, ``draw``, ``log`` (the recipient's own moves as the
                host holds them)
``reject``      ``ref`` (id of the refused message, if readable), ``digest``
                (of its text, so a player knows its own from a forgery),
                ``code``, ``detail``
==============  ==================================================================
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..messages import MessageError, Protocol
from .table import NAME_MAX

__all__ = ["VERSION", "TO_HOST", "TO_PLAYER", "TO_HOST_BYTES", "TO_PLAYER_BYTES",
           "parse_to_host", "parse_to_player", "digest", "dumps",
           "join", "ready", "move", "offer_draw", "answer_draw", "resign", "sync_request",
           "settings", "start", "again", "change_settings",
           "welcome", "refuse", "view", "sync", "reject"]

VERSION = 2
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
}, max_bytes=TO_HOST_BYTES)

TO_PLAYER = Protocol("race", VERSION, {
    "welcome": {"pid": int, "token": str, "ack": int},
    "refuse": {"code": str, "detail": str},
    "view": {"ack": int, "view": dict},
    "sync": {"ref": int, "ack": int, "race": int, "deal": (int, None), "draw": int, "log": list},
    "reject": {"ref": (int, None), "digest": (str, None), "code": str, "detail": str},
}, max_bytes=TO_PLAYER_BYTES)

CLAIM_FIELDS = ("foundation", "face_up", "moves")


def dumps(msg: dict) -> str:
    return Protocol.dumps(msg)


def digest(text: Any) -> str | None:
    """A short fingerprint of a message's text (``None`` if it is not text)."""
    if not isinstance(text, str):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _bad(kind: str, what: str) -> MessageError:
    return MessageError("msg/field", f"{kind}: {what}")


# ------------------------------------------------------------ player → host
def join(id: int, name: str, pid: int | None = None, token: str | None = None) -> str:
    return dumps(TO_HOST.build("join", id, name=name, pid=pid, token=token))


def ready(id: int, pid: int, is_ready: bool) -> str:
    return dumps(TO_HOST.build("ready", id, pid=pid, ready=is_ready))


def move(id: int, pid: int, race: int, notation: str, claim: dict | None) -> str:
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


def _check_join(m: dict) -> None:
    if len(m["name"]) > NAME_MAX * 2:
        raise _bad("join", f"name over {NAME_MAX} characters")
    if (m["pid"] is None) != (m["token"] is None):
        raise _bad("join", "pid and token come together")
    if m["token"] is not None and not 0 < len(m["token"]) <= 64:
        raise _bad("join", "token of 1–64 characters")


def _check_move(m: dict) -> None:
    if len(m["move"]) > 8:
        raise _bad("move", "a move is short notation")
    c = m["claim"]
    if c is not None and (set(c) != set(CLAIM_FIELDS) or not all(
            isinstance(c[k], int) and not isinstance(c[k], bool) and c[k] >= 0 for k in c)):
        raise _bad("move", "claim is {foundation, face_up, moves} of integers ≥ 0")


def _check_pid(m: dict) -> None:
    if m["pid"] < 0:
        raise _bad(m["kind"], "pid ≥ 0")


_HOST_CHECKS = {"join": _check_join, "move": _check_move}


def parse_to_host(text: Any) -> dict:
    """A player's message, checked; :class:`MessageError` (``msg/…``) if refused."""
    msg = TO_HOST.parse(text)
    if "pid" in msg and msg["pid"] is not None:
        _check_pid(msg)
    _HOST_CHECKS.get(msg["kind"], lambda m: None)(msg)
    return msg


# ------------------------------------------------------------ host → player
def welcome(id: int, pid: int, token: str, ack: int) -> str:
    return dumps(TO_PLAYER.build("welcome", id, pid=pid, token=token, ack=ack))


def refuse(id: int, code: str, detail: str) -> str:
    return dumps(TO_PLAYER.build("refuse", id, code=code, detail=detail))


def view(id: int, ack: int, table_view: dict) -> str:
    return dumps(TO_PLAYER.build("view", id, ack=ack, view=table_view))


def sync(id: int, ref: int, ack: int, race: int, deal: int | None, draw: int,
         log: list[str]) -> str:
    return dumps(TO_PLAYER.build("sync", id, ref=ref, ack=ack, race=race, deal=deal,
                                 draw=draw, log=log))


def reject(id: int, ref: int | None, text_digest: str | None, code: str, detail: str) -> str:
    return dumps(TO_PLAYER.build("reject", id, ref=ref, digest=text_digest, code=code,
                                 detail=detail[:200]))


def _check_sync(m: dict) -> None:
    if m["draw"] not in (1, 3) or not all(isinstance(x, str) for x in m["log"]):
        raise _bad("sync", "draw 1 or 3 and a log of moves")


VIEW_FIELDS = {"you": int, "phase": str, "race": int, "deal": (int, type(None)), "draw": int,
               "players": list, "offer": (dict, type(None)), "standings": (list, type(None)),
               "can": dict}
CAN = ("move", "resign", "offer", "answer", "ready", "settings", "start", "again",
       "change_settings")
ROW_FIELDS = {"pid": int, "seat": (int, type(None)), "status": str, "moves": int}


def _fits(obj, fields: dict) -> bool:
    return isinstance(obj, dict) and all(
        k in obj and isinstance(obj[k], t) and not isinstance(obj[k], bool)
        for k, t in fields.items())


def _check_view(m: dict) -> None:
    v = m["view"]
    if not _fits(v, VIEW_FIELDS) or not all(_fits(r, ROW_FIELDS) for r in v["players"]):
        raise _bad("view", "a table view as Table.view makes it")
    if set(v["can"]) != set(CAN) or not all(isinstance(x, bool) for x in v["can"].values()):
        raise _bad("view", f"can is {{{', '.join(CAN)}}} of true/false")
    offer = v["offer"]
    if offer is not None and not (_fits(offer, {"id": int, "agreed": list})):
        raise _bad("view", "an offer has an id and who agreed")


_PLAYER_CHECKS = {"sync": _check_sync, "view": _check_view}


def parse_to_player(text: Any) -> dict:
    """The host's message, checked; :class:`MessageError` if refused."""
    msg = TO_PLAYER.parse(text)
    _PLAYER_CHECKS.get(msg["kind"], lambda m: None)(msg)
    return msg
