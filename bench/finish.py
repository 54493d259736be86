"""Finish (F2) on a first visit (issue 32 item 6): in headless Chromium at 360×640,
the CPU throttled 4× (DevTools ``Emulation.setCPUThrottlingRate``), the time from
tapping Finish (its "Let the solver finish?" answered at once) to the first card
moving (the move counter leaving 0), on a Turn Three deal:

* first visit — a fresh browser profile: the table comes up, Finish at once;
* warm — the same page, the solver's worker up and idle: New deal, Finish.

Also the page's JS heap after each (``performance.memory``, Chromium only).

    python3 bench/finish.py [--runs 1] [--throttle 4] [--deal 7]

Aim: the first visit's figure within 2 s. Wall-clock of a shared machine: read
several runs.
"""

from __future__ import annotations

import argparse
import statistics

from startup import PHONE, served_browser  # bench/startup.py

TAP_TO_FIRST_CARD = """() => new Promise(resolve => {
    const moves = document.getElementById('moves');
    const t0 = performance.now();
    new MutationObserver((_, obs) => {
        if (moves.textContent !== '0') { obs.disconnect(); resolve(performance.now() - t0); }
    }).observe(moves, {childList: true, characterData: true, subtree: true});
    document.querySelector('[data-action=finish]').click();
    document.querySelector('#sheet [data-action=confirm]').click();
})"""


def finish_ms(page) -> float:
    return round(page.evaluate(TAP_TO_FIRST_CARD), 1)


def heap_mb(page) -> float | None:
    used = page.evaluate("performance.memory ? performance.memory.usedJSHeapSize : null")
    return None if used is None else round(used / 2**20, 1)


def run_once(browser, url: str, throttle: float, deal: int) -> dict:
    ctx = browser.new_context(**PHONE, reduced_motion="reduce")
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url + f"#deal={deal}&draw=3&redeals=2")
    page.wait_for_function("document.body.dataset.mode === 'ready'", timeout=300_000)
    first = finish_ms(page)
    page.wait_for_selector("#sheet [data-action=again]", timeout=300_000)
    first_heap = heap_mb(page)
    page.click("#sheet [data-action=again]")  # New deal from the win sheet
    page.wait_for_function("document.body.dataset.mode === 'ready' && document.getElementById('moves')"
                           ".textContent === '0'", timeout=300_000)
    page.wait_for_function("(window.kosynkaSolverStats || {}).worker_ready_s !== undefined",
                           timeout=300_000)
    page.wait_for_function("document.body.dataset.verified !== 'checking'", timeout=300_000)
    warm = finish_ms(page)
    stats = page.evaluate("window.kosynkaSolverStats")
    out = {"first_visit_ms": first, "warm_ms": warm, "heap_mb_first": first_heap, "heap_mb_warm": heap_mb(page),
           "worker_ready_s": stats.get("worker_ready_s"), "finish_where": stats.get("finish_where")}
    ctx.close()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--throttle", type=float, default=4.0)
    ap.add_argument("--deal", type=int, default=7, help="a Turn Three deal (default 7)")
    args = ap.parse_args(argv)
    runs = []
    with served_browser() as (browser, base):
        for i in range(args.runs):
            runs.append(run_once(browser, base, args.throttle, args.deal))
            print(f"run {i + 1}: {runs[-1]}", flush=True)
    print(f"tap Finish -> first card moving at {args.throttle:g}x CPU throttle, 360x640: "
          f"first visit median {statistics.median(r['first_visit_ms'] for r in runs)} ms (aim <= 2000), "
          f"warm median {statistics.median(r['warm_ms'] for r in runs)} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
