"""Solver benchmark: the same deals solved by ``kosynka.solver`` on CPython (this
process) and on Pyodide inside headless Chromium (bench/pyodide.html, the
vendored runtime and the app bundle), in the same run (issue 4 item 12).

    python3 bench/solver_browser.py [--deals 100] [--states 20000] [--start 1]

For draw 1 and draw 3, deals ``start`` … ``start + deals - 1`` are solved with
the verification budget (``max_states``, deterministic): both runtimes must
reach the same result and state count on every deal (the search is the same
everywhere); the figures are total seconds, states per second, and the ratio
Pyodide / CPython.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

from startup import served_browser  # bench/startup.py

RUN = """
import json, time
from kosynka.position import Position, Rules
from kosynka.solver import solve

def run(start, count, draw, states):
    out = []
    t0 = time.perf_counter()
    for n in range(start, start + count):
        t = time.perf_counter()
        r = solve(Position.deal(n, Rules(draw)), max_states=states)
        out.append([n, r.result, r.states, time.perf_counter() - t])
    return json.dumps({"total": time.perf_counter() - t0, "deals": out})
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--states", type=int, default=20000)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)

    ns: dict = {}
    exec(RUN, ns)
    figures = {}
    with served_browser() as (browser, base):
        page = browser.new_page()
        page.goto(base + "bench/pyodide.html")
        page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
        pyver = page.evaluate("py.runPython('import sys; sys.version.split()[0]')")
        page.evaluate("code => py.runPython(code)", RUN)
        print(f"CPython {platform.python_version()} vs Pyodide (Python {pyver}) in Chromium; "
              f"{args.deals} deals from {args.start}, max_states={args.states}")
        print(f"{'draw':>4} {'won':>4} {'lost':>5} {'unk':>4} {'states':>9}"
              f" {'CPython s':>10} {'Pyodide s':>10} {'ratio':>6}")
        for draw in (1, 3):
            cp = json.loads(ns["run"](args.start, args.deals, draw, args.states))
            js = json.loads(page.evaluate(
                "a => py.globals.get('run')(a[0], a[1], a[2], a[3])",
                [args.start, args.deals, draw, args.states]))
            same = [a[:3] == b[:3] for a, b in zip(cp["deals"], js["deals"], strict=True)]
            if not all(same):
                bad = [a[0] for a, ok in zip(cp["deals"], same, strict=True) if not ok]
                print(f"  draw {draw}: results differ on deals {bad[:10]}")
            results = [d[1] for d in cp["deals"]]
            states = sum(d[2] for d in cp["deals"])
            ratio = js["total"] / cp["total"]
            print(f"{draw:>4} {results.count('won'):>4} {results.count('lost'):>5}"
                  f" {results.count('unknown'):>4} {states:>9}"
                  f" {cp['total']:>10.2f} {js['total']:>10.2f} {ratio:>6.2f}")
            figures[f"draw{draw}"] = {
                "cpython_s": round(cp["total"], 3), "pyodide_s": round(js["total"], 3),
                "ratio": round(ratio, 3), "states": states, "same_results": all(same),
                "won": results.count("won"), "lost": results.count("lost"),
                "unknown": results.count("unknown"),
            }
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
