"""The page ↔ solver worker protocol (issue 9 item 4), both sides in one module.

Messages are ``kosynka.messages`` envelopes ``{"v", "id", "kind", …}`` of
``PROTOCOL`` (version 1), sent as JSON *text* (deal numbers reach 2⁶⁴, past what a
JS number holds exactly). The page numbers its requests; every answer carries the
id of its request.

page → worker:
- ``deal {start, draw, redeals}``: V1, the first verified deal at or after
  ``start`` (``kosynka.solver.VerifiedDealSearch``) → ``dealt {number, states}``;
- ``solve {position, draw, redeals, max_states, max_seconds}``: F2, decide a
  position (deal JSON of ``Position.to_json``) → ``solved {result, moves, states,
  seconds}``;
- ``cancel {target}``: stop request ``target``; it answers ``cancelled`` (unless
  it was already answered).

worker → page: ``ready {boot}`` (id 0) once its Python is up, or ``failed {error}``
(id 0; built by ``web/solver-worker.mjs`` itself when Python could not start);
``error {error}`` answers a request that could not be run.

The worker side is :class:`Jobs`: ``receive(text)`` takes a request, ``step()``
runs the oldest job for about ``SLICE_S`` and returns the answers it finished.
The worker's script calls ``step()`` from its event loop between slices, so a
``cancel`` is seen between slices and the search stops there.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from kosynka import variants
from kosynka.deals import check_number
from kosynka.messages import MessageError, Protocol
from kosynka.position import InvalidPositionError, Position
from kosynka.solver import Solver, VerifiedDealSearch

__all__ = ["PROTOCOL", "Jobs", "SLICE_S", "ready"]

_RULES = {"draw": int, "redeals": (int, None)}
PROTOCOL = Protocol("solver", 1, {
    "deal": {"start": int, **_RULES},
    "solve": {"position": dict, **_RULES, "max_states": int, "max_seconds": float},
    "cancel": {"target": int},
    "ready": {"boot": str},
    "failed": {"error": str},
    "dealt": {"number": int, "states": int},
    "solved": {"result": str, "moves": list, "states": int, "seconds": float},
    "cancelled": {},
    "error": {"error": str},
}, max_bytes=65_536)

SLICE_S = 0.04  # the worker runs a job this long, then reads its messages


def _answer(kind: str, id: int, **fields: Any) -> str:
    return PROTOCOL.dumps(PROTOCOL.build(kind, id, **fields))


def ready(boot: str) -> str:
    """The worker's first message: its Python is up (``boot``: how it started)."""
    return _answer("ready", 0, boot=boot)


class Jobs:
    """The worker's side: requests in, answers out (JSON text both ways)."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.jobs: dict[int, VerifiedDealSearch | Solver] = {}  # request id → job, oldest first
        self.n = 200  # states per step() call of a job (several calls per slice)

    @property
    def busy(self) -> bool:
        return bool(self.jobs)

    def receive(self, text: str) -> str | None:
        """Take a request; an immediate answer (error, cancelled) or None (started)."""
        try:
            msg = PROTOCOL.parse(text)
        except MessageError as e:
            return _answer("error", 0, error=e.code + ": " + e.detail)
        kind, id = msg["kind"], msg["id"]
        try:
            if kind == "cancel":
                if self.jobs.pop(msg["target"], None) is None:
                    return None  # answered already
                return _answer("cancelled", msg["target"])
            if kind not in ("deal", "solve"):
                return _answer("error", id, error=f"a worker does not take {kind!r}")
            rules = variants.from_fields(msg["draw"], msg["redeals"])
            if kind == "deal":
                self.jobs[id] = VerifiedDealSearch(check_number(msg["start"]), rules)
            else:
                self.jobs[id] = Solver(Position.from_json(msg["position"], rules),
                                       max_states=msg["max_states"], max_seconds=msg["max_seconds"])
        except (ValueError, InvalidPositionError) as e:
            return _answer("error", id, error=str(e))
        return None

    def step(self) -> list[str]:
        """Run the oldest job for about ``SLICE_S``; the answers of jobs that ended."""
        if not self.jobs:
            return []
        id, job = next(iter(self.jobs.items()))
        t0 = self.clock()
        res = None
        try:
            while res is None and self.clock() - t0 < SLICE_S:
                res = job.step(self.n)
        except ValueError as e:  # e.g. no verified deal up to the last deal number
            del self.jobs[id]
            return [_answer("error", id, error=str(e))]
        if res is None:
            return []
        del self.jobs[id]
        if isinstance(res, tuple):           # a VerifiedDealSearch's (number, result)
            number, solved = res
            return [_answer("dealt", id, number=number, states=solved.states)]
        return [_answer("solved", id, result=res.result, moves=list(res.moves), states=res.states,
                        seconds=float(res.seconds))]
