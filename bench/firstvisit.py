"""A friend's first visit over a slow link (issue 23 item 1): the app beside the bare
PyScript + Pyodide page (bench/hello.html), same run, in headless Chromium inside a
network namespace whose loopback is shaped with ``tc … tbf`` (20 and 8 Mbit/s).

    sudo python3 bench/firstvisit.py [--rates 20,8] [--rtt 40] [--runs 1] [--incognito]
                                     [--json out.json]

Each visit starts from a fresh browser profile (no HTTP cache, no service worker, no
stored snapshot), as a friend's phone opening a link: a new profile on disk, or with
``--incognito`` a new browser context (its HTTP cache in memory only). Columns (ms from navigation
start, medians of ``--runs``):

* ``paint`` — ``first-contentful-paint``; ``ready`` — ``body[data-state]`` is
  ``ready``; ``installed`` — the service worker is active, i.e. its precache is
  complete and the app works offline (the bare page has no service worker);
* ``MB`` — bytes through the shaped loopback (``tc -s qdisc`` counters: every
  request and response of the page, its workers and the service worker) from the
  start until 10 s after ready, or until installed if that is later; ``files`` —
  per file, the bytes the server handed to its sockets (a download the page drops,
  such as a shipped snapshot that does not pay, counts there what the kernel had
  already taken: more than crossed the link, which ``MB`` counts);
* ``mem`` — resident memory (MB) of the largest renderer process of the browser,
  15 s after ready (or once installed, if later): the page and its dedicated
  workers (the solver's Pyodide) live there;
* ``2nd`` — a second visit in the same profile once installed: its bytes moved.

The link: a namespace ``k23-bench`` with only its loopback, ``tbf rate R burst 256kb
limit 4mb`` on it (the kernel has no ``netem``); the server and the browser both run
in it. Round-trip latency is emulated by the server, which waits ``--rtt`` ms before
answering each request (a request/response turn over a kept-alive connection; TCP's
own handshakes and slow start are not emulated). The namespace is deleted at the end.
Needs root (``ip netns``, ``tc``).
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.startup import ARGS, CHROMIUM, PHONE, PROBE  # noqa: E402
from tools.serve import ensure_vendor, make_server  # noqa: E402

NS = "k23-bench"
AFTER_READY_S = 10   # bytes are counted this long after ready (or until installed)
MEMORY_AT_S = 15     # memory is read this long after ready (or once installed)

# when the service worker became active (the app's DOM contract: html[data-sw])
SW_PROBE = """
new MutationObserver(() => {
  if (document.documentElement.dataset.sw === 'active' && !window.__installedAt)
    window.__installedAt = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-sw']});
"""


# the figures of one visit; the profile: when the wasm and the standard library
# (Pyodide's or the app's, tools/stdlib.py) were asked for (requestStart) and in
# (responseEnd), PyScript's progress (asked for / got the interpreter, done)
RESULT = """() => {
  const t = window.kosynkaBootTiming || {}, p = window.__progress || {};
  const at = (re, key) => {
    const e = performance.getEntriesByType('resource').find((r) => re.test(r.name));
    return e ? Math.round(e[key]) : null;
  };
  const end = (re) => at(re, 'responseEnd');
  const WASM = /pyodide[.]asm[.]wasm$/, LIB = /(python_)?stdlib[.]zip$/;
  return {
    paint: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
    ready: window.__readyAt, installed: window.__installedAt || null,
    source: t.source || null, miss: t.snapshot_miss || null,
    wasm_asked: at(WASM, 'requestStart'), stdlib_asked: at(LIB, 'requestStart'),
    wasm: end(WASM), stdlib: end(LIB),
    asked: p['Loading interpreter'], pyodide: p['Loaded interpreter'], pyscript: p['Loaded Pyodide'],
  };
}"""
PROFILE = ("wasm_asked", "stdlib_asked", "wasm", "stdlib", "asked", "pyodide", "pyscript",
           "ready")


def sh(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


# ------------------------------------------------------------------ the link
def shape(rate_mbit: int) -> None:
    sh("tc", "qdisc", "replace", "dev", "lo", "root", "tbf", "rate", f"{rate_mbit}mbit",
       "burst", "256kb", "limit", "4mb")


def link_bytes() -> int:
    m = re.search(r"Sent (\d+) bytes", sh("tc", "-s", "qdisc", "show", "dev", "lo"))
    return int(m.group(1)) if m else 0


# ------------------------------------------------------------------ the server
class Log:
    """Bytes the server sent, per request path, in order."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, int]] = []
        self.lock = threading.Lock()

    def add(self, path: str, n: int) -> None:
        with self.lock:
            self.rows.append((path, n))

    def mark(self) -> int:
        return len(self.rows)

    def per_file(self, start: int) -> dict[str, int]:
        out: collections.Counter[str] = collections.Counter()
        with self.lock:
            for path, n in self.rows[start:]:
                out[path] += n
        return dict(out)


def counting_server(rtt_ms: float, log: Log):
    """The dev server (gzip_static included), counting what it sends, answering
    each request ``rtt_ms`` late."""
    server = make_server(ROOT, 0, rebuild=False, sent=log.add)
    base = server.RequestHandlerClass

    class Handler(base.func):  # type: ignore[name-defined,misc]
        def do_GET(self):  # noqa: N802
            time.sleep(rtt_ms / 1000)
            super().do_GET()

    server.RequestHandlerClass = functools.partial(Handler, *base.args, **base.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ------------------------------------------------------------------ memory
def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = collections.defaultdict(list)
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids[ppid].append(int(d))
    return kids


def largest_renderer_mb() -> float:
    """RSS (MB) of the largest Chromium renderer among this process's descendants."""
    kids, todo, best = _children(), [os.getpid()], 0
    while todo:
        pid = todo.pop()
        todo.extend(kids.get(pid, []))
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            rss = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
        except OSError:
            continue
        if rss:
            best = max(best, int(rss.group(1)))
    return round(best / 1024, 1)


# ------------------------------------------------------------------ one visit
def visit(pw, url: str, log: Log, app: bool, incognito: bool) -> dict:
    """A first visit from a fresh profile (on disk, or ``incognito``: a new browser
    context, whose HTTP cache is in memory), then (the app) a second one."""
    with tempfile.TemporaryDirectory(prefix="k23-profile-") as profile:
        if incognito:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            ctx = browser.new_context(**PHONE)
        else:
            ctx = pw.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS, **PHONE)
        try:
            ctx.add_init_script(PROBE)
            ctx.add_init_script(SW_PROBE)
            page = ctx.new_page()
            mark, b0 = log.mark(), link_bytes()
            page.goto(url, wait_until="commit")
            page.wait_for_function("() => !!window.__readyAt", timeout=300_000, polling=50)
            done = "window.__installedAt" if app else "true"
            page.wait_for_function(
                f"() => performance.now() > window.__readyAt + {AFTER_READY_S * 1000} && {done}",
                timeout=300_000, polling=100)
            moved = link_bytes() - b0
            files = log.per_file(mark)
            page.wait_for_function(f"() => performance.now() > window.__readyAt + {MEMORY_AT_S * 1000}",
                                   timeout=300_000, polling=100)
            row = page.evaluate(RESULT)
            row.update(mem=largest_renderer_mb(), bytes=moved, files=files)
            if app:
                page.close()
                mark, b0 = log.mark(), link_bytes()
                page = ctx.new_page()
                page.goto(url, wait_until="commit")
                page.wait_for_function(
                    f"() => window.__readyAt && performance.now() > window.__readyAt + {AFTER_READY_S * 1000}",
                    timeout=300_000, polling=100)
                row.update(second=link_bytes() - b0, second_files=log.per_file(mark),
                           second_source=page.evaluate("(window.kosynkaBootTiming || {}).source"))
            return row
        finally:
            ctx.close()
            if incognito:
                browser.close()


def med(rows: list[dict], key: str):
    vals = [r[key] for r in rows if r.get(key) is not None]
    return round(statistics.median(vals)) if vals else None


def run_inside(args) -> dict:
    from playwright.sync_api import sync_playwright

    sh("ip", "link", "set", "lo", "up")
    log = Log()
    server = counting_server(args.rtt, log)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    out: dict = {}
    try:
        with sync_playwright() as pw:
            for rate in args.rates:
                shape(rate)
                for name, url in (("hello", base + "bench/hello.html"), ("app", base)):
                    out[f"{rate}/{name}"] = [visit(pw, url, log, name == "app", args.incognito)
                                             for _ in range(args.runs)]
    finally:
        server.shutdown()
    return out


def report(out: dict, rates: list[int], rtt: float, incognito: bool) -> None:
    fresh = "new browser context (incognito)" if incognito else "fresh profile"
    print(f"\n== first visit, {fresh}, tbf-shaped loopback, RTT {rtt:g} ms "
          "(ms from navigation start; MB moved; renderer MB) ==")
    print(f"{'link':>8} {'page':6}{'paint':>7}{'ready':>8}{'installed':>10}{'MB':>7}"
          f"{'mem':>7}{'2nd kB':>8}  boot")
    for rate in rates:
        for name in ("hello", "app"):
            rows = out[f"{rate}/{name}"]
            second = med(rows, "second")
            print(f"{rate:>5}Mb/s {name:6}{med(rows, 'paint'):>7}{med(rows, 'ready'):>8}"
                  f"{med(rows, 'installed') or '-':>10}{med(rows, 'bytes') / 1e6:>7.1f}"
                  f"{med(rows, 'mem'):>7}{'-' if second is None else f'{second / 1e3:.0f}':>8}"
                  f"  {','.join(sorted({str(r['source']) for r in rows})) if name == 'app' else '-'}")
        h, a = out[f"{rate}/hello"], out[f"{rate}/app"]
        print(f"{'':>8} app/hello: ready {med(a, 'ready') / med(h, 'ready'):.2f}, "
              f"memory {med(a, 'mem') / med(h, 'mem'):.2f}")
        for r in a:
            if r.get("miss"):
                print(f"{'':>8} no snapshot: {r['miss']}")
    print("\nprofile (ms from navigation start: the wasm, the standard library asked for, "
          "in; PyScript asks for / gets the interpreter, is done; ready)")
    print(f"{'link':>8} {'page':6}" + "".join(f"{k:>13}" for k in PROFILE))
    for rate in rates:
        for name in ("hello", "app"):
            rows = out[f"{rate}/{name}"]
            print(f"{rate:>5}Mb/s {name:6}" + "".join(f"{med(rows, k) or '-':>13}" for k in PROFILE))
    for rate in rates:
        row = out[f"{rate}/app"][0]
        print(f"\nbytes per file, app at {rate} Mbit/s (first run; kB sent by the server):")
        for path, n in sorted(row["files"].items(), key=lambda kv: -kv[1]):
            if n >= 20_000:
                print(f"{n / 1e3:>10.0f}  {path}")
        small = [n for n in row["files"].values() if n < 20_000]
        print(f"{sum(small) / 1e3:>10.0f}  ({len(small)} smaller responses)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rates", default="20,8", help="Mbit/s, comma-separated (default 20,8)")
    ap.add_argument("--rtt", type=float, default=40.0, help="ms the server waits per request")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--incognito", action="store_true",
                    help="a new browser context (HTTP cache in memory) instead of a fresh profile")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.rates = [int(r) for r in args.rates.split(",")]
    if args.inside:
        Path(args.json).write_text(json.dumps(run_inside(args)))
        return 0
    if os.geteuid() != 0:
        print("firstvisit: needs root (ip netns, tc)", file=sys.stderr)
        return 2
    ensure_vendor(ROOT)
    subprocess.run(["ip", "netns", "del", NS], capture_output=True)
    sh("ip", "netns", "add", NS)
    try:
        with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
            subprocess.run(["ip", "netns", "exec", NS, sys.executable, __file__, "--inside",
                            "--rates", ",".join(map(str, args.rates)), "--rtt", str(args.rtt),
                            "--runs", str(args.runs), "--json", tmp.name,
                            *(["--incognito"] if args.incognito else [])], check=True)
            out = json.loads(Path(tmp.name).read_text())
    finally:
        subprocess.run(["ip", "netns", "del", NS], capture_output=True)
    report(out, args.rates, args.rtt, args.incognito)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
