"""``python -m kosynka bench solver [--deals N] [--draw D] [--redeals R]
[--max-seconds S] [--max-states N] [--jobs J]`` — the solver's benchmark.

Over deals 0 … N−1 under the given rules it solves each starting position with
the budget (default 10 s) and prints: the share won / lost / unknown; seconds
per decision (won or lost) p50 / p95 / max; states per second; the share of
wins found within 5 s and the share of deals decided within 10 s; and the time
to produce a verified deal (V1) p50 / p95 — for every start number 0 … N−1, the
time :func:`kosynka.solver.verified_deal` takes from that start (the budgeted
solves of each deal are timed once; the time from start ``n`` is the sum over
deals ``n … m`` where ``m`` is the first one won within the state budget).
``--jobs 2`` spreads the deals over two processes. Every time here, budget
included, is CPU time of the solving process (``time.process_time``), so the
figures do not depend on what else the machine runs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeAlias

from .position import Position, Rules
from .solver import VERIFY_STATES, Solver, streamlined_search

Job: TypeAlias = tuple[int, int, "int | None", "float | None", "int | None", int]
"""One deal's work: number, draw, redeals, CPU-second and state budgets,
the verified-deal state budget."""
Row: TypeAlias = tuple[int, str, float, int, bool, float]
"""One deal's figures: number, result, CPU seconds, states, won within the
verified-deal budget, CPU seconds of that search."""


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _solve_one(job: Job) -> Row:
    number, draw, redeals, max_seconds, max_states, verify_states = job
    rules = Rules(draw, redeals)
    pos = Position.deal(number, rules)
    res = Solver(pos, max_states=max_states, max_seconds=max_seconds,
                 clock=time.process_time).run()
    if res.result == "won":
        q = pos.copy()
        for m in res.moves:
            q.play(m)
        assert q.is_won, number
    t0 = time.process_time()
    vres = streamlined_search(pos, max_states=verify_states).run()
    vt = time.process_time() - t0
    return number, res.result, res.seconds, res.states, vres.result == "won", vt


def run(deals: int, rules: Rules, max_seconds: float | None, max_states: int | None,
        jobs: int = 1, verify_states: int = VERIFY_STATES,
        progress: Callable[[Row], object] | None = None) -> dict[str, Any]:
    work = [(n, rules.draw, rules.redeals, max_seconds, max_states, verify_states)
            for n in range(deals)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            rows = []
            for row in pool.imap(_solve_one, work, chunksize=1):
                rows.append(row)
                if progress:
                    progress(row)
    else:
        rows = []
        for w in work:
            rows.append(_solve_one(w))
            if progress:
                progress(rows[-1])
    rows.sort()
    # verified deal from each start: extend past the end until a win
    vwon = [r[4] for r in rows]
    vtime = [r[5] for r in rows]
    n = deals
    while vwon and not vwon[-1]:
        t0 = time.process_time()
        res = streamlined_search(Position.deal(n, rules), max_states=verify_states).run()
        vtime.append(time.process_time() - t0)
        vwon.append(res.result == "won")
        n += 1
    verified = []
    acc = 0.0
    for i in range(len(vwon) - 1, -1, -1):
        acc = vtime[i] if vwon[i] else acc + vtime[i]
        if i < deals:
            verified.append(acc)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    for r in rows:
        counts[r[1]] += 1
    decided = [r[2] for r in rows if r[1] != "unknown"]
    won_t = [r[2] for r in rows if r[1] == "won"]
    total_states = sum(r[3] for r in rows)
    total_secs = sum(r[2] for r in rows)
    return {
        "rules": rules.name, "deals": deals, "max_seconds": max_seconds,
        "max_states": max_states, "verify_states": verify_states,
        "won": counts["won"], "lost": counts["lost"], "unknown": counts["unknown"],
        "won_share_of_decided": counts["won"] / max(1, counts["won"] + counts["lost"]),
        "decision_p50": _pct(decided, 0.5), "decision_p95": _pct(decided, 0.95),
        "decision_max": max(decided) if decided else float("nan"),
        "states_per_s": total_states / total_secs if total_secs else 0.0,
        "wins_within_5s": sum(t <= 5 for t in won_t) / max(1, len(won_t)),
        "decided_within_10s": sum(t <= 10 for t in decided) / max(1, deals),
        "verified_p50": _pct(verified, 0.5), "verified_p95": _pct(verified, 0.95),
        "verified_max": max(verified) if verified else float("nan"),
    }


def report(r: dict[str, Any]) -> str:
    d = r["deals"]
    lines = [
        f"solver on Python {sys.version.split()[0]}: {r['rules']}, deals 0…{d - 1}, "
        f"budget {r['max_seconds']} CPU s / {r['max_states']} states per deal",
        f"  won {r['won'] / d:.1%}  lost {r['lost'] / d:.1%}  unknown {r['unknown'] / d:.1%}"
        f"  (won of decided {r['won_share_of_decided']:.1%})",
        f"  seconds per decision: p50 {r['decision_p50']:.3f}  p95 {r['decision_p95']:.3f}"
        f"  max {r['decision_max']:.3f}",
        f"  states per second: {r['states_per_s']:,.0f}",
        f"  wins found within 5 s: {r['wins_within_5s']:.1%} of wins   deals decided within "
        f"{min(10, r['max_seconds'] or 10):g} s: {r['decided_within_10s']:.1%}",
        f"  verified deal ({r['verify_states']} states budget): p50 {r['verified_p50']:.3f} s"
        f"  p95 {r['verified_p95']:.3f} s  max {r['verified_max']:.3f} s",
    ]
    return "\n".join(lines)

