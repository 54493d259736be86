"""Page responsiveness benchmark (issue 4 item 9; moved out of the e2e tests by
issue 9 item 7, which keep only what a user sees): in headless Chromium, phone size,

* long tasks — the longest main-thread task (Long Tasks API) while the solver
  prepares the next verified deal and while Finish (F2) searches on deal 340;
* New deal — from the tap to the next deal on the table, with a deal prepared;
* the solver's own figures (``window.kosynkaSolverStats``: where it ran, the
  longest slice on the page, worker start-up).

    python3 bench/page.py [--runs 3] [--json out.json]

Aims: no task over 50 ms; New deal under 100 ms. Wall-clock figures of a shared,
noisy machine: read them over several runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from startup import PHONE, served_browser  # bench/startup.py

LONGTASKS = """
window.__longtasks = [];
new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({type: 'longtask', buffered: true});
globalThis.KOSYNKA_BOOT = {snapshot: false, sw: false};
"""


def run_once(browser, url: str) -> dict:
    ctx = browser.new_context(**PHONE, reduced_motion="reduce")
    ctx.add_init_script(LONGTASKS)
    page = ctx.new_page()
    page.goto(url + "#deal=340&draw=1")
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
    t0 = page.evaluate("performance.now()") + 500
    page.wait_for_function("(localStorage.getItem('kosynka.next') || '').includes('d1')", timeout=120_000)
    page.click("[data-action=finish]")
    page.click("#sheet [data-action=confirm]")  # "Let the solver finish?" (issue 12)
    page.wait_for_function("(window.kosynkaSolverStats || {}).finish_result", timeout=120_000)
    t1 = page.evaluate("performance.now()")
    longest = max((d for s, d in page.evaluate("window.__longtasks") if t0 <= s <= t1), default=0.0)
    page.wait_for_function("(localStorage.getItem('kosynka.next') || '').includes('d1')", timeout=120_000)
    new_ms = page.evaluate("""() => {
        const t0 = performance.now(), before = document.body.dataset.deal;
        document.querySelector('[data-action=new]').click();
        return document.body.dataset.deal !== before ? performance.now() - t0 : null;
    }""")
    stats = page.evaluate("window.kosynkaSolverStats")
    ctx.close()
    return {"longest_task_ms": round(longest, 1), "new_deal_ms": None if new_ms is None else round(new_ms, 1),
            "finish_where": stats.get("finish_where"), "longest_slice_ms": stats.get("longest_slice_ms"),
            "worker_ready_s": stats.get("worker_ready_s")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)

    runs = []
    with served_browser() as (browser, base):
        for i in range(args.runs):
            runs.append(run_once(browser, base))
            print(f"run {i + 1}: {runs[-1]}")
    worst = {"longest_task_ms": max(r["longest_task_ms"] for r in runs),
             "new_deal_ms": statistics.median(r["new_deal_ms"] for r in runs if r["new_deal_ms"] is not None)}
    print(f"worst long task {worst['longest_task_ms']} ms (aim < 50); "
          f"New deal median {worst['new_deal_ms']} ms (aim < 100)")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "summary": worst}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
