"""Start-up benchmark (issue 4 item 12, issue 5 item 6, issue 15): the app beside a
bare PyScript + Pyodide hello page (bench/hello.html), measured in the same run, in
headless Chromium, cold and warm, at full speed and under 4× CPU throttling
(DevTools ``Emulation.setCPUThrottlingRate``) as a phone stand-in.

    python3 bench/startup.py [--runs 3] [--no-throttle] [--json out.json]

* first paint — ``first-contentful-paint`` of the page (the app paints its table
  from saved state before Python is up: ``web/boot/paint.js``);
* ready — ``body[data-state]`` becoming ``ready`` (the app's DOM contract; the
  hello page sets it from Python), from navigation start.
* cold — a fresh browser profile (no HTTP cache, no service worker, no stored
  snapshot): the app starts from the snapshot shipped with the build;
* warm — the same profile after a first visit whose service worker is active and
  whose memory snapshot is stored: the app starts from the service worker's cache
  and the stored snapshot. The hello page's warm start has the HTTP cache only.

The breakdown (app, median ms from navigation start; marks of web/boot/pyodide.mjs
and PyScript's ``py:progress`` events): ``module`` the boot module runs, ``snap``
the snapshot's bytes are in memory (read from IndexedDB, or fetched and gunzipped),
``asked`` PyScript asks for Pyodide, ``pyodide`` Pyodide is up (wasm compiled and
instantiated, heap restored or Python initialised), ``files`` PyScript has unpacked
the app bundle, ``pyscript`` PyScript is done with the interpreter (what follows
until ``ready``: PyScript's own Python set-up, then the app's ``main.py``: import
``web.app``, deal, render);
``wasm`` when its download ended, ``getsnap`` the ms the worker took to get the
snapshot's bytes (IndexedDB read, or download + gunzip); ``long`` the long tasks
(over 50 ms) in the 3 s after ready and the longest of them.

Figures are medians of ``--runs`` launches; the machine is noisy, read ratios.
Aims (issue 15): cold ready ≤ 0.5 × hello; warm ready ≤ 1.5 s at 4× throttle and
≤ 0.3 × hello at full speed; first paint ≤ 300 ms at 4× throttle; no long task
over 50 ms after ready.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.chromium import CHROMIUM, chromium_args  # noqa: E402
from tools.serve import ensure_vendor, make_server  # noqa: E402

ARGS = chromium_args()
PHONE = dict(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
             device_scale_factor=2)


@contextlib.contextmanager
def served_browser():
    """``(browser, base_url)``: the app's folder (vendored first) served on a free
    port, and a headless Chromium; both stop when the block ends."""
    from playwright.sync_api import sync_playwright

    ensure_vendor(ROOT)
    server = make_server(ROOT, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                yield browser, f"http://127.0.0.1:{server.server_address[1]}/"
            finally:
                browser.close()
    finally:
        server.shutdown()

# Installed before any page script: when body[data-state] becomes ready, note the
# time; PyScript's progress events; long tasks.
PROBE = """
(() => {
  window.__progress = {};
  window.__long = [];
  addEventListener('py:progress', (e) => {
    window.__progress[e.detail] ??= Math.round(performance.now());
  });
  const note = () => {
    const s = document.body && document.body.dataset.state;
    if ((s === 'ready' || s === 'won') && !window.__readyAt) window.__readyAt = performance.now();
  };
  new MutationObserver(note).observe(document, {subtree: true, attributes: true,
                                                attributeFilter: ['data-state']});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
  }).observe({type: 'longtask', buffered: true});
})();
"""

RESULT = """() => {
  const t = window.kosynkaBootTiming || {}, p = window.__progress || {};
  const res = (re) => {
    const e = performance.getEntriesByType('resource').find((r) => re.test(r.name));
    return e ? Math.round(e.responseEnd) : null;
  };
  const after = window.__long.filter(([s]) => s >= window.__readyAt).map(([, d]) => d);
  return {
    ready: window.__readyAt,
    fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
    painted: t.painted,
    boot: document.documentElement.dataset.boot || null,
    source: t.source || null,
    sw: !!navigator.serviceWorker && !!navigator.serviceWorker.controller,
    module: t.module_loaded, snap: t.snapshot_ready,
    asked: p['Loading interpreter'], pyodide: p['Loaded interpreter'],
    files: p['Loaded files'], pyscript: p['Loaded Pyodide'],
    wasm: res(/pyodide[.]asm[.]wasm$/), getsnap: (t.snapshot_bytes || {}).ms,
    long: after.filter((d) => d > 50).length,
    longest: after.length ? Math.max(...after) : 0,
  };
}"""

SETTLE_MS = 3000  # long tasks are counted this long after ready


def load(ctx, url, throttle: float):
    page = ctx.new_page()
    if throttle > 1:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    # not the load event: it waits for the runtime's preloads too (the head's,
    # issue 31), which a loaded machine takes past goto's 30 s
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => !!window.__readyAt", timeout=180_000, polling=50)
    page.wait_for_function(f"() => performance.now() > window.__readyAt + {SETTLE_MS}",
                           timeout=180_000, polling=100)
    out = page.evaluate(RESULT)
    return page, out


def settle_app(page):
    """After the app's first visit: wait for its service worker and snapshot."""
    page.wait_for_function(
        "() => document.documentElement.dataset.sw === 'active' && "
        "['saved', 'failed', 'off'].includes(document.documentElement.dataset.snapshot)",
        timeout=300_000, polling=100)
    return page.evaluate("document.documentElement.dataset.snapshot")


def measure(browser, base: str, runs: int, throttle: float) -> dict:
    urls = {"hello": base + "bench/hello.html", "app": base}
    res: dict[str, dict[str, list]] = {}
    for name, url in urls.items():
        cold, warm = [], []
        for _ in range(runs):
            ctx = browser.new_context(**PHONE)
            ctx.add_init_script(PROBE)
            page, out = load(ctx, url, throttle)
            cold.append(out)
            page.close()
            ctx.close()
        ctx = browser.new_context(**PHONE)
        ctx.add_init_script(PROBE)
        page, _ = load(ctx, url, 1)  # the first visit, unthrottled
        if name == "app":
            snap = settle_app(page)
            if snap != "saved":
                print(f"warning: snapshot {snap}", file=sys.stderr)
        page.close()
        for _ in range(runs):
            page, out = load(ctx, url, throttle)
            warm.append(out)
            page.close()
        ctx.close()
        res[name] = {"cold": cold, "warm": warm}
    return res


def med(rows, key):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return round(statistics.median(vals)) if vals else None


BREAKDOWN = ("module", "snap", "asked", "pyodide", "files", "pyscript", "ready",
             "wasm", "getsnap", "long", "longest")


def report(res: dict, throttle: float) -> dict:
    label = f"CPU throttling {throttle:g}x" if throttle > 1 else "full speed"
    print(f"\n== start-up, {label} (median ms from navigation start) ==")
    print(f"{'page':8}{'start':7}{'first paint':>13}{'painted':>9}{'ready':>8}  boot")
    fig = {}
    for name in ("hello", "app"):
        for kind in ("cold", "warm"):
            rows = res[name][kind]
            fcp, painted, ready = med(rows, "fcp"), med(rows, "painted"), med(rows, "ready")
            boots = ",".join(sorted({str(r["source"] or r["boot"]) for r in rows})) \
                if name == "app" else "-"
            print(f"{name:8}{kind:7}{fcp or '-':>13}{painted or '-':>9}{ready:>8}  {boots}")
            fig[f"{name}_{kind}"] = {k: med(rows, k) for k in ("fcp", "painted") + BREAKDOWN}
    for kind in ("cold", "warm"):
        a, h = fig[f"app_{kind}"]["ready"], fig[f"hello_{kind}"]["ready"]
        print(f"ratio app/hello ready, {kind}: {a / h:.2f}")
        fig[f"ratio_{kind}"] = round(a / h, 3)
    print(f"\nbreakdown ({label}, median ms from navigation start)")
    print(f"{'page':14}" + "".join(f"{k:>9}" for k in BREAKDOWN))
    for name in ("hello", "app"):
        for kind in ("cold", "warm"):
            row = fig[f"{name}_{kind}"]
            print(f"{name + ' ' + kind:14}" + "".join(
                f"{'-' if row[k] is None else row[k]:>9}" for k in BREAKDOWN))
    return fig


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--throttle", type=float, default=4.0)
    ap.add_argument("--no-throttle", action="store_true")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)

    out = {}
    with served_browser() as (browser, base):
        out["full"] = report(measure(browser, base, args.runs, 1), 1)
        if not args.no_throttle:
            out["throttled"] = report(measure(browser, base, args.runs, args.throttle),
                                      args.throttle)
    full = out["full"]
    print("\n== aims (issue 15) ==")
    print(f"warm ready app/hello at full speed {full['ratio_warm']:.2f}  (aim <= 0.3)")
    if "throttled" in out:
        thr = out["throttled"]
        print(f"cold ready app/hello at {args.throttle:g}x {thr['ratio_cold']:.2f}  (aim <= 0.5)")
        print(f"warm ready at {args.throttle:g}x: {thr['app_warm']['ready']} ms  (aim <= 1500)")
        print(f"first paint at {args.throttle:g}x: cold {thr['app_cold']['fcp']}, warm "
              f"{thr['app_warm']['fcp']} ms  (aim <= 300)")
        print(f"long tasks > 50 ms after ready at {args.throttle:g}x: cold "
              f"{thr['app_cold']['long']} (longest {thr['app_cold']['longest']} ms), warm "
              f"{thr['app_warm']['long']} (longest {thr['app_warm']['longest']} ms)  (aim 0)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
