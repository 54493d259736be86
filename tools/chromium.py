"""How the tests, the browser benchmarks and the screenshot tool launch Debian's
Chromium: one binary, one set of switches.

``chromium_args(mdns=False)`` is the headless set (no sandbox, no background
networking, component updates or sync, no GPU, no first-run) with these
Chromium features off:

- ``WebRtcHideLocalIpsWithMdns`` unless ``mdns``: two contexts on one machine
  then meet over plain host candidates. The race's relay and network-namespace
  tests pass ``mdns=True``, as a player's browser is.
- ``HeapProfilerReporting``, always. Chromium switches its sampling heap
  profiler on at random for a whole browser session (measured: 1 launch in 150,
  Chromium 156 on Debian 12; its child processes then carry
  ``--subproc-heap-profiling``), and in such a browser Pyodide's pages crash
  ("Target crashed"). Forced on with
  ``--enable-features=HeapProfilerReporting:stable-probability/1.0/nonstable-probability/1.0``,
  11 of 27 browser tests of two modules failed or errored on crashed pages. A
  clean-clone CI run had lost 35 tests to crashed pages, all on one worker, whose
  browser was such a session.
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("KOSYNKA_CHROMIUM", "/usr/bin/chromium")


def chromium_args(mdns: bool = False) -> list[str]:
    off = ["HeapProfilerReporting"] + ([] if mdns else ["WebRtcHideLocalIpsWithMdns"])
    return ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-gpu", "--no-first-run",
            "--disable-features=" + ",".join(off)]
