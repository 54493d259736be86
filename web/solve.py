"""The solver for the page: verified deals (V1, issue 4 item 9) and Finish's line
(F2). It returns results — awaitables — and shows nothing; the page decides what
to say and to play (issue 9 item 4).

Where the solver runs:
- In a module Web Worker with its own Pyodide (``web/solver-worker.mjs``), started
  when a job needs it: the first Finish (F2) or check of a linked deal, not at
  start-up — a second Pyodide holds ~100 MB of the page's renderer (issue 23 item
  4: ``bench/firstvisit.py``). It speaks ``web.solver_protocol`` (versioned
  envelopes). The page's thread stays free for taps, and the search gets the
  machine's second core. Cancelling a Finish sends ``cancel``: the worker stops
  that search between two slices.
- On the main thread in cooperative slices (``Slicer``) while the worker is not
  started (the first deal on a first visit, the deal searched ahead), not up yet,
  busy, or if it failed: each ``step(n)`` is
  sized to about ``SLICE_S`` and the loop yields to the browser between slices.
  A Finish pressed while the worker is still starting searches on the page in
  slices meanwhile (issue 32 item 6: it waited for the worker, 7.5 s on a first
  visit at 4x CPU throttle, now about 1 s: ``bench/finish.py``); the check of a
  linked deal runs in the worker only.
  No cross-origin-isolation headers are needed either way.

Decisions (user-visible):
- New deal hands out a deal verified under the chosen rules (draw, redeal limit).
  One verified deal per variant is searched for in the background ahead of time and
  remembered on the device (``kosynka.next``), so New deal shows at once, even after
  a reload.
- Search for a new deal starts from a random number below one million, so deal
  numbers stay short enough to share.
- Deal of the day: the first verified deal at or after ``kosynka.deals.daily_number``
  of the date, under the chosen rules — the same for everyone on that date.
- Finish (F2) gives the solver ``FINISH_STATES`` states / ``FINISH_SECONDS`` seconds;
  so does the check of a deal that came from a link (``check``): won — verified,
  lost — proven to have no path to victory, else undecided.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Generator
from typing import Any, Protocol, TypeVar

from kosynka import deals, variants
from kosynka.messages import MessageError
from kosynka.position import Position, Rules
from kosynka.solver import Solver, SolveResult, VerifiedDealSearch
from web.solver_protocol import PROTOCOL
from web.store import NEXT_KEY, Backend, loads_stored

SLICE_S = 0.012          # aim for each solver slice on the page (it stays responsive)
FINISH_STATES = 400_000
FINISH_SECONDS = 20.0


T = TypeVar("T", covariant=True)


class Stepper(Protocol[T]):
    """A search run in steps: ``step(n)`` searches about ``n`` more states and
    gives its result, or None while it runs (the solver, the verified-deal search)."""

    def step(self, n: int = ...) -> T | None: ...


def random_start() -> int:
    """Where the search for the next verified deal starts: short shareable numbers."""
    return random.randrange(1, 1_000_000)


class Slicer:
    """Runs ``obj.step(n)`` in slices of about ``SLICE_S`` until it returns a result."""

    def __init__(self) -> None:
        self.n = 50  # states per slice; adapts to this machine's speed
        self.longest = 0.0  # longest slice seen (seconds)
        self.slices = 0
        self.busy_s = 0.0  # time spent inside step()

    async def run(self, obj: Stepper[T], cancelled: Callable[[], bool] = lambda: False) -> T | None:
        while True:
            if cancelled():
                return None
            t0 = time.perf_counter()
            res = obj.step(self.n)
            dt = time.perf_counter() - t0
            self.longest = max(self.longest, dt)
            self.slices += 1
            self.busy_s += dt
            if res is not None:
                return res
            # steer n towards SLICE_S per slice, changing by at most 2× at a time
            if dt > 0:
                self.n = max(10, min(20_000, int(self.n * min(2.0, max(0.5, SLICE_S / dt)))))
            await asyncio.sleep(0)

    def figures(self) -> dict[str, Any]:
        return {"longest_slice_ms": round(self.longest * 1000, 2), "slices": self.slices,
                "step_s": round(self.busy_s, 3), "n": self.n}


class WorkerClient:
    """The page's side of ``web/solver-worker.mjs``: requests become futures."""

    def __init__(self, stats: Callable[..., None], on_up: Callable[[bool], None]) -> None:
        import js
        from pyodide.ffi import create_proxy

        self.stats = stats
        self.on_up = on_up  # called with True once up, False if it failed
        self.stopped = 0  # searches the worker stopped on a cancel, mid-way
        self.t0 = time.perf_counter()
        self.ready = False
        self.failed = False
        self._next = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        url = js.URL.new("web/solver-worker.mjs", js.document.baseURI).href
        self.worker = js.Worker.new(url, js.Object.fromEntries([["type", "module"]]))
        self._on_msg = create_proxy(self._message)
        self._on_err = create_proxy(self._error)
        self.worker.addEventListener("message", self._on_msg)
        self.worker.addEventListener("error", self._on_err)

    @property
    def up(self) -> bool:
        """Up and answering."""
        return self.ready and not self.failed

    @property
    def idle(self) -> bool:
        """Up, with no request pending."""
        return self.up and not self._pending

    def _message(self, ev: Any) -> None:
        try:
            msg = PROTOCOL.parse(str(ev.data))
        except MessageError as e:
            self._fail(f"solver worker: {e}")
            return
        kind = msg["kind"]
        if kind in ("ready", "failed"):
            self.ready = kind == "ready"
            self.failed = not self.ready
            self.stats(worker_boot=msg.get("boot", "failed"),
                       worker_ready_s=round(time.perf_counter() - self.t0, 3))
            self.on_up(self.ready)
            if self.failed:
                self._fail(msg["error"])
            return
        if kind == "cancelled":
            self.stopped += 1
            self.stats(worker_stopped=self.stopped)
        fut = self._pending.pop(msg["id"], None)
        if fut is None or fut.done():
            return
        if kind == "error":
            fut.set_exception(RuntimeError(msg["error"]))
        else:
            fut.set_result(None if kind == "cancelled" else msg)

    def _error(self, ev: Any) -> None:
        self.failed = True
        self.on_up(False)
        self._fail(str(getattr(ev, "message", "worker error")))

    def _fail(self, why: str) -> None:
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(RuntimeError(why))
        self._pending.clear()

    def request(self, kind: str, **fields: Any) -> tuple[int, asyncio.Future[Any]]:
        """Send a request; ``(id, future of the answer)`` — None if cancelled."""
        self._next += 1
        fut = asyncio.get_event_loop().create_future()
        if self.failed:
            fut.set_exception(RuntimeError("solver worker unavailable"))
            return self._next, fut
        self._pending[self._next] = fut
        self.worker.postMessage(PROTOCOL.dumps(PROTOCOL.build(kind, self._next, **fields)))
        return self._next, fut

    def cancel(self, id: int) -> None:
        """Stop request ``id``: its future gives None now, and the worker drops the
        search at its next slice (before any later request)."""
        fut = self._pending.pop(id, None)
        if fut is None:
            return
        if not fut.done():
            fut.set_result(None)
        self._next += 1
        self.worker.postMessage(PROTOCOL.dumps(PROTOCOL.build("cancel", self._next, target=id)))


class Finish:
    """A solve in progress — F2's line, or (``what="check"``) the check of a linked
    deal: ``await finish`` gives the ``SolveResult`` (None if cancelled, or for a
    check when there is no worker: ``on_page`` False never searches on the page)."""

    def __init__(self, client: "SolverClient", position: Position, what: str = "finish",
                 on_page: bool = True) -> None:
        self.client = client
        self.what = what
        self.on_page = on_page
        self.position = position.copy()
        self.cancelled = False
        self._request: int | None = None
        self._task = asyncio.ensure_future(self._run())

    def __await__(self) -> Generator[Any, None, SolveResult | None]:
        return self._task.__await__()

    def cancel(self) -> None:
        """Stop the search (in the worker too); the awaitable gives None."""
        self.cancelled = True
        w = self.client.worker
        if self._request is not None and w is not None:
            w.cancel(self._request)

    async def _run(self) -> SolveResult | None:
        client = self.client
        t0 = time.perf_counter()
        slices = client.slicer.slices
        res = None
        where = "page"
        rules = self.position.rules
        client.start_worker()  # a job that needs it (issue 23 item 4)
        if not client._up.done() and not self.on_page:
            await client.worker_up()  # a check waits for it; Finish searches here meanwhile
        if self.cancelled:
            return None
        worker = client.worker
        if worker is not None and (worker.idle or (not self.on_page and worker.up)):
            where = "worker"
            self._request, fut = worker.request(
                "solve", position=self.position.to_json(), draw=rules.draw, redeals=rules.redeals,
                max_states=FINISH_STATES, max_seconds=FINISH_SECONDS)
            try:
                ans = await fut
                if ans is not None:
                    res = SolveResult(ans["result"], list(ans["moves"]), ans["states"], ans["seconds"])
            except RuntimeError:
                res = None
                where = "page"
        if res is None and not self.cancelled and self.on_page:
            solver = Solver(self.position, max_states=FINISH_STATES, max_seconds=FINISH_SECONDS)
            res = await client.slicer.run(solver, lambda: self.cancelled)
        w = self.what
        client.stats(**{f"{w}_s": round(time.perf_counter() - t0, 3), f"{w}_where": where,
                        f"{w}_states": None if res is None else res.states,
                        f"{w}_page_slices": client.slicer.slices - slices,
                        f"{w}_result": "cancelled" if self.cancelled else None if res is None else res.result})
        return None if self.cancelled else res


class SolverClient:
    """Verified deals and Finish lines for the page, in the worker or in slices.

    ``stats(**figures)`` receives timings for tests and benchmarks."""

    def __init__(self, backend: Backend, stats: Callable[..., None]) -> None:
        self.backend = backend
        self.slicer = Slicer()
        self._stats = stats
        self.ready: dict[str, int] = self._load_ready()
        self.preparing: str | None = None
        self._prep_gen = 0
        self._prep_request: int | None = None
        self.worker: WorkerClient | None = None
        self._up = asyncio.get_event_loop().create_future()  # True: the worker is up

    def start_worker(self) -> None:
        """Start the solver worker, once (the first Finish or check starts it)."""
        if self.worker is None:
            try:
                self.worker = WorkerClient(self.stats, self._set_up)
            except Exception:
                self.worker = None
                self._set_up(False)

    def _set_up(self, ok: bool) -> None:
        if not self._up.done():
            self._up.set_result(ok)

    async def worker_up(self) -> bool:
        """Wait until the worker is up (True) or could not start (False)."""
        return await asyncio.shield(self._up)

    def stats(self, **figures: object) -> None:
        """``figures`` with the slicer's, for tests and benchmarks."""
        self._stats(**figures, **self.slicer.figures())

    # -- verified deals ---------------------------------------------------
    def _load_ready(self) -> dict[str, int]:
        try:
            raw = self.backend.get(NEXT_KEY)
            d = loads_stored(raw) if raw else {}
            out = {}
            for k, v in d.items():
                variants.from_key(k)
                out[k] = deals.check_number(v)
            return out
        except Exception:  # anything unexpected: search afresh
            return {}

    def _save_ready(self) -> None:
        try:
            self.backend.set(NEXT_KEY, json.dumps(self.ready))
        except Exception:
            pass

    def take_next(self, rules: Rules) -> int | None:
        """A verified deal of ``rules`` prepared earlier, or None."""
        n = self.ready.pop(variants.key(rules), None)
        self._save_ready()
        return n

    async def verified_deal(self, start: int, rules: Rules,
                            cancelled: Callable[[], bool] = lambda: False) -> int | None:
        """The first verified deal at or after ``start`` (None if cancelled): in the
        worker when it is up and idle, else in slices on the page."""
        t0 = time.perf_counter()
        worker = self.worker
        if worker is not None and worker.idle:
            try:
                _, fut = worker.request("deal", start=start, draw=rules.draw, redeals=rules.redeals)
                ans = await fut
                self.stats(search_s=round(time.perf_counter() - t0, 3), search_where="worker")
                return None if cancelled() or ans is None else int(ans["number"])
            except RuntimeError:
                pass
        search = VerifiedDealSearch(start, rules)
        found = await self.slicer.run(search, cancelled)
        self.stats(search_s=round(time.perf_counter() - t0, 3), search_tried=search.tried)
        return None if found is None else int(found[0])

    def prepare_next(self, rules: Rules) -> None:
        """Search one verified deal of ``rules`` ahead, in the background."""
        key = variants.key(rules)
        if key in self.ready or self.preparing == key:
            return
        if self.preparing is not None:
            self.stop_preparing()
        self._prep_gen += 1
        gen = self._prep_gen
        self.preparing = key

        async def go() -> None:
            number: int | None = None
            if self.worker is not None and not self.worker.failed:
                try:
                    t0 = time.perf_counter()
                    self._prep_request, fut = self.worker.request(
                        "deal", start=random_start(), draw=rules.draw, redeals=rules.redeals)
                    ans = await fut
                    if gen == self._prep_gen:
                        self._prep_request = None
                    number = None if ans is None else ans["number"]
                    self.stats(worker_deal_s=round(time.perf_counter() - t0, 3))
                except RuntimeError:
                    number = None
            if number is None and gen == self._prep_gen:
                await asyncio.sleep(0.3)  # let the page paint and settle first
                number = await self.verified_deal(random_start(), rules, lambda: gen != self._prep_gen)
            if gen != self._prep_gen:
                return
            self.preparing = None
            if number is not None:
                self.ready[key] = number
                self._save_ready()

        asyncio.ensure_future(go())

    def stop_preparing(self) -> None:
        """Leave the search ahead (it would halve the speed of a search the player waits for)."""
        self._prep_gen += 1
        self.preparing = None
        if self._prep_request is not None and self.worker is not None:
            self.worker.cancel(self._prep_request)
            self._prep_request = None

    async def daily_number(self, date: str, rules: Rules) -> int | None:
        return await self.verified_deal(deals.daily_number(date), rules)

    def finish(self, position: Position) -> Finish:
        """F2: the solver's line from ``position``; ``await`` it, or ``cancel()`` it."""
        return Finish(self, position)

    def check(self, position: Position) -> Finish:
        """Decide a deal's start (a deal from a link, V1) in the worker, once it is
        up, behind its other jobs; never on the page. ``await`` it (None: cancelled
        or no worker), or ``cancel()`` it."""
        return Finish(self, position, what="check", on_page=False)
