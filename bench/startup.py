"""Start-up benchmark (issue 4 item 12, issue 5 item 6): the app beside a bare
PyScript + Pyodide hello page (bench/hello.html), measured in the same run, in
headless Chromium, cold and warm, at full speed and under 4× CPU throttling
(DevTools ``Emulation.setCPUThrottlingRate``) as a phone stand-in.

    python3 bench/startup.py [--runs 3] [--no-throttle] [--json out.json]

* first paint — ``first-contentful-paint`` of the page (the app paints its table
  from saved state before Python is up: ``web/boot/paint.js``);
* ready — ``body[data-state]`` becoming ``ready`` (the app's DOM contract; the
  hello page sets it from Python), from navigation start.
* cold — a fresh browser profile (no HTTP cache, no service worker, no snapshot);
* warm — the same profile after a first visit whose service worker is active and
  whose memory snapshot is stored: the app starts from the service worker's cache
  and the snapshot. The hello page's warm start has the HTTP cache only.

Figures are medians of ``--runs`` launches; the machine is noisy, read ratios.
Aims: app warm ready ≤ 1.1 × hello (issue 4), ≤ 0.35 × hello (issue 5);
first paint ≤ 300 ms; warm ready ≤ 2.5 s under 4× throttling.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.serve import ensure_vendor, make_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-gpu", "--no-first-run"]
PHONE = dict(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
             device_scale_factor=2)

# Installed before any page script: when body[data-state] becomes ready, note the time.
PROBE = """
(() => {
  const note = () => {
    const s = document.body && document.body.dataset.state;
    if ((s === 'ready' || s === 'won') && !window.__readyAt) window.__readyAt = performance.now();
  };
  new MutationObserver(note).observe(document, {subtree: true, attributes: true,
                                                attributeFilter: ['data-state']});
})();
"""

RESULT = """() => ({
  ready: window.__readyAt,
  fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  painted: (window.kosynkaBootTiming || {}).painted,
  boot: document.documentElement.dataset.boot || null,
  sw: !!navigator.serviceWorker && !!navigator.serviceWorker.controller,
})"""


def load(ctx, url, throttle: float):
    page = ctx.new_page()
    if throttle > 1:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url)
    page.wait_for_function("() => !!window.__readyAt", timeout=180_000, polling=50)
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


def report(res: dict, throttle: float) -> dict:
    label = f"CPU throttling {throttle:g}x" if throttle > 1 else "full speed"
    print(f"\n== start-up, {label} (median ms from navigation start) ==")
    print(f"{'page':8}{'start':7}{'first paint':>13}{'painted':>9}{'ready':>8}  boot")
    fig = {}
    for name in ("hello", "app"):
        for kind in ("cold", "warm"):
            rows = res[name][kind]
            fcp, painted, ready = med(rows, "fcp"), med(rows, "painted"), med(rows, "ready")
            boots = ",".join(sorted({str(r["boot"]) for r in rows})) if name == "app" else "-"
            print(f"{name:8}{kind:7}{fcp or '-':>13}{painted or '-':>9}{ready:>8}  {boots}")
            fig[f"{name}_{kind}"] = {"fcp": fcp, "painted": painted, "ready": ready}
    for kind in ("cold", "warm"):
        a, h = fig[f"app_{kind}"]["ready"], fig[f"hello_{kind}"]["ready"]
        print(f"ratio app/hello ready, {kind}: {a / h:.2f}")
        fig[f"ratio_{kind}"] = round(a / h, 3)
    return fig


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--throttle", type=float, default=4.0)
    ap.add_argument("--no-throttle", action="store_true")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright
    import threading

    ensure_vendor(ROOT)
    server = make_server(ROOT, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    out = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            out["full"] = report(measure(browser, base, args.runs, 1), 1)
            if not args.no_throttle:
                out["throttled"] = report(measure(browser, base, args.runs, args.throttle),
                                          args.throttle)
            browser.close()
    finally:
        server.shutdown()
    full = out["full"]
    print("\n== aims ==")
    print(f"first paint (app, warm FCP) {full['app_warm']['fcp']} ms  (aim <= 300)")
    print(f"warm ready app/hello {full['ratio_warm']:.2f}  (aims <= 1.1, <= 0.35)")
    if "throttled" in out:
        print(f"warm ready at {args.throttle:g}x throttle: {out['throttled']['app_warm']['ready']} ms"
              "  (aim <= 2500)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
