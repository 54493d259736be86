"""How a race ends and who places where (SPEC N4–N9): pure functions over the
table's racers (:class:`~kosynka.race.table.Member`), used by the table.

How a race ends (``end``, in every view once it is over): ``reason`` is
``all_up`` (someone put all 52 cards up, N4/N5), ``time_up`` (N4/N6, with
``decided_by``: ``foundation`` — most cards on foundations —, ``face_up`` —
foundations tied among the best, most face-up cards in columns — or ``tie``:
still tied, a draw between them), ``agreed`` (a draw everyone still racing
agreed to, N7) or ``last_left`` (everyone else resigned or was counted out,
N8/N9). Each row of the standings says ``why`` it has its place: ``all_up``,
``last_left``, ``agreed``; ``foundation`` (placed by cards on foundations),
``face_up`` (same foundations as another, placed by face-up cards), ``tie``
(the same counters as another: the place is shared); ``resigned`` or
``counted_out`` for those out of the race.

Decisions where SPEC is silent (docs/race.md): winners (or those who share a
draw) are placed 1; the others by cards on foundations, then face-up cards in
columns, those still in the race before those out, and among those out the
later one first; equal keys share a place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..game import Game
from ..position import Position

if TYPE_CHECKING:
    from .terms import Member

__all__ = ["progress", "shown", "time_up", "rank", "outcome"]


def progress(position: Position, moves: int) -> dict[str, int]:
    """N2: what the others see of a player — cards on foundations, face-up
    cards in columns (the N4 tie-break), moves (T1)."""
    return {"foundation": sum(position.foundations),
            "face_up": sum(1 for _ in position.cards_face_up()), "moves": moves}


def shown(game: Game) -> dict[str, int]:
    """:func:`progress` of a racer's game."""
    return progress(game.position, game.moves)


def _key(m: Member) -> tuple[int, int]:
    assert m.game is not None
    pr = shown(m.game)
    return pr["foundation"], pr["face_up"]


def time_up(racing: list[Member]) -> tuple[list[Member], str]:
    """N4 at time-up, among those ``racing``: most cards on foundations, then
    most face-up cards in columns; still tied among the best → a draw between
    them. The best and how it was decided: ``foundation``, ``face_up`` or
    ``tie`` (the best share a draw)."""
    key = {m.pid: _key(m) for m in racing}
    best = max(key.values())
    top = [m for m in racing if key[m.pid] == best]
    if len(top) > 1:
        return top, "tie"
    rivals = [k for pid, k in key.items() if pid != top[0].pid]
    return top, ("foundation" if not rivals or all(k[0] < best[0] for k in rivals)
                 else "face_up")


def rank(racers: list[Member], reason: str | None) -> list[dict[str, Any]]:
    """The standings of a race over (``reason``: how it ended): each racer's
    ``place``, ``result`` (won, lost, draw), counters, ``out`` and ``why``."""
    rows = []
    for m in racers:
        assert m.game is not None
        pr = shown(m.game)
        key: tuple[Any, ...]
        if m.status in ("won", "draw"):
            key = (0,)
        else:
            key = (1, m.out is not None, -pr["foundation"], -pr["face_up"], -(m.out_at or 0.0))
        rows.append((key, m, {"pid": m.pid, "name": m.name, "place": 0,
                              "result": {"won": "won", "draw": "draw"}.get(m.status, "lost"),
                              **pr, "out": m.out, "why": ""}))
    rows.sort(key=lambda r: r[0])
    for i, (key, _m, row) in enumerate(rows):
        row["place"] = rows[i - 1][2]["place"] if i and rows[i - 1][0] == key else i + 1
    placed = [(m, row) for _, m, row in rows if m.out is None]
    for m, row in placed:
        row["why"] = _why(m, row, reason, placed)
    for _, m, row in rows:
        if m.out is not None:
            row["why"] = "resigned" if m.out == "resigned" else "counted_out"
    return [row for _, _, row in rows]


def _why(m: Member, row: dict[str, Any], reason: str | None,
         placed: list[tuple[Member, dict[str, Any]]]) -> str:
    """Why a racer still in the race at its end has their place."""
    if row["result"] == "won" and reason in ("all_up", "last_left"):
        return reason
    if row["result"] == "draw" and reason == "agreed":
        return "agreed"
    others = [r for o, r in placed if o is not m]
    if any((r["foundation"], r["face_up"]) == (row["foundation"], row["face_up"])
           for r in others):
        return "tie"
    if any(r["foundation"] == row["foundation"] for r in others):
        return "face_up"
    return "foundation"


def outcome(m: Member, standings: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    """How the race went for member ``m``: None while they race (or never raced);
    else ``result`` — ``won``, ``lost``, ``draw``, ``resigned`` or
    ``counted_out`` —, ``why`` (as in the standings), ``place`` and ``of``
    (None until the race is over), and their ``foundation``, ``face_up``,
    ``moves``."""
    if m.game is None or m.status in ("racing", "watching", "waiting"):
        return None
    row = next((r for r in standings or () if r["pid"] == m.pid), None)
    result = {"resigned": "resigned", "dropped": "counted_out"}.get(m.out or "", m.status)
    if result == "resigned" and m.status != "resigned" and row is None:
        result = m.status
    return {"result": result, "why": row["why"] if row else result,
            "place": row["place"] if row else None,
            "of": len(standings) if row and standings else None,
            **shown(m.game)}
