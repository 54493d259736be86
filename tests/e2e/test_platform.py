"""The runtime shell in Chromium: self-hosted PyScript + Pyodide, every module of
ours present in the browser, memory-snapshot boot, sub-path and plain static hosting
(O1, O3; issue 4 items 1-2, issue 5 items 4 and 7)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, wait_ready
from gamekit import HTML


def repo_modules() -> list[str]:
    """Every module the browser bundle holds, by its rule (tools.bundle.browser_modules:
    the page's modules and what they import, found on disk now — not a kept list)."""
    from tools.bundle import browser_modules

    # web.main starts the app: it is run, not imported.
    return [m for m in browser_modules(ROOT) if m.split(".")[-1] != "main"]


def run_py(page, code: str):
    """Run Python in the page's interpreter (exposed by web/boot/pyodide.mjs)."""
    return page.evaluate("code => globalThis.kosynkaPyodide.runPython(code)", code)


IMPORT_ALL = """
import importlib, json
failed = {}
for name in json.loads(%r):
    try:
        importlib.import_module(name)
    except BaseException as exc:
        failed[name] = repr(exc)
json.dumps(failed)
"""


def test_ready_and_every_module_imports_in_pyodide(page, base_url):
    """O3 + issue 4 item 1: the app reaches ready from local files only, and every
    module of the bundle imports inside Pyodide."""
    mods = repo_modules()
    assert "kosynka" in mods or any(m.startswith("kosynka.") for m in mods)
    page.goto(base_url)
    wait_ready(page)
    failed = json.loads(run_py(page, IMPORT_ALL % json.dumps(mods)))
    assert failed == {}, f"modules that do not import in the browser: {failed}"
    assert run_py(page, "import sys; sys.version_info[:2] >= (3, 14)")
    # the runtime really came from our folder (O3), with the app's standard library
    # (issue 31 item 1: tools/stdlib.py), not Pyodide's whole one
    urls = page.context.requests
    assert any(u.endswith("/web/vendor/pyodide/pyodide.asm.wasm") for u in urls), urls
    assert any(u.endswith("/web/vendor/pyscript/core.js") for u in urls), urls
    assert any(u.endswith("/web/vendor/stdlib.zip") for u in urls), urls
    assert not any(u.endswith("/python_stdlib.zip") for u in urls), urls
    # issue 31 item 5: the wasm and the library leave with the page's first requests,
    # not behind its scripts, and once (Pyodide takes the preloaded answers)
    starts = page.evaluate("""() => performance.getEntriesByType('resource')
        .map((e) => [new URL(e.name).pathname, e.startTime])""")
    first = {}
    for path, start in starts:
        first.setdefault(path, []).append(start)
    wasm, lib = first["/web/vendor/pyodide/pyodide.asm.wasm"], first["/web/vendor/stdlib.zip"]
    assert len(wasm) == len(lib) == 1, (wasm, lib)
    assert max(wasm[0], lib[0]) <= min(first["/web/boot/pyodide.mjs"][0],
                                       first["/web/vendor/pyscript/core.js"][0]), starts


def test_second_launch_boots_from_memory_snapshot(new_context, base_url):
    """Issue 5 item 4: without the shipped snapshot (issue 15), the first launch
    boots normally and makes a snapshot in the background; the next launches
    restore it, with `random` reseeded."""
    ctx = new_context("phone", boot={"sw": False, "shipped": False})
    first = ctx.new_page()
    first.goto(base_url)
    wait_ready(first)
    assert first.evaluate(f"{HTML}.boot") == "normal"
    first.wait_for_function(f"['saved', 'failed'].includes({HTML}.snapshot)", timeout=90_000)
    info = first.evaluate("JSON.stringify(globalThis.kosynkaBootTiming.snapshot)")
    assert first.evaluate(f"{HTML}.snapshot") == "saved", info
    first.close()

    draws = []
    for _ in range(2):
        page = ctx.new_page()
        said = []
        page.on("console", lambda m, said=said: said.append(f"{m.type}: {m.text[:300]}"))
        page.goto(base_url)
        wait_ready(page)
        boot = page.evaluate(f"[{HTML}.boot, JSON.stringify(globalThis.kosynkaBootTiming)]")
        assert boot[0] == "snapshot", f"{boot} {said}"
        # the app's pure modules came in the snapshot, the rest imports normally
        assert run_py(page, "import sys; 'kosynka.cards' in sys.modules")
        draws.append(run_py(page, "import random; random.random()"))
        page.close()
    assert draws[0] != draws[1], "random state frozen in the snapshot: not reseeded"


def test_broken_snapshot_falls_back_to_normal_boot(new_context, base_url):
    """A stored snapshot that cannot be restored never breaks the start: normal boot."""
    ctx = new_context("phone", boot={"sw": False})
    page = ctx.new_page()
    page.goto(base_url)
    wait_ready(page)
    # the page keeps its own snapshot once idle: let it finish first, or it
    # overwrites the broken one (seen on a loaded machine)
    page.wait_for_function(f"['saved', 'failed'].includes({HTML}.snapshot)", timeout=90_000)
    page.evaluate("""async () => {
        const build = (await import('./web/vendor/build.mjs')).default;
        const { snapshotKey } = await import('./web/boot/snapshot-store.mjs');
        const size = 1 << 20;
        await new Promise((resolve, reject) => {
            const req = indexedDB.open('kosynka-boot', 1);
            req.onupgradeneeded = () => req.result.createObjectStore('snapshot');
            req.onsuccess = () => {
                const t = req.result.transaction('snapshot', 'readwrite');
                t.objectStore('snapshot').put({key: snapshotKey(build), size, gzip: false,
                    data: new Blob([new Uint8Array(size).fill(7)])}, 'current');
                t.oncomplete = resolve; t.onerror = reject;
            };
            req.onerror = reject;
        });
    }""")
    page.close()
    page = ctx.new_page()
    page.goto(base_url)
    wait_ready(page)
    assert page.evaluate(f"{HTML}.boot") == "normal"


def test_served_from_a_sub_path(new_context, server_factory):
    """Issue 5 item 7: the app works under /kosynka/ (relative URLs throughout)."""
    srv = server_factory("/kosynka/")
    ctx = new_context("desktop", origins=[srv.origin], boot={"snapshot": False})
    page = ctx.new_page()
    page.goto(srv.url)
    wait_ready(page)
    bad = [u for u in ctx.requests if not u.startswith(srv.url)]
    assert bad == [], f"requests outside the sub-path: {bad}"


@pytest.fixture
def plain_http_server(vendored):
    """`python -m http.server` on a free port, serving the repo root (O1)."""
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    line = proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://...)"
    try:
        port = int(line.split(" port ")[1].split()[0])
    except (IndexError, ValueError):
        proc.kill()
        pytest.fail(f"http.server did not start: {line!r}")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


def test_plain_python_http_server(new_context, plain_http_server):
    """O1: any static server works once vendored: `python -m http.server`."""
    ctx = new_context("phone", origins=[plain_http_server], boot={"snapshot": False})
    page = ctx.new_page()
    page.goto(plain_http_server + "/")
    wait_ready(page)


WORKER_JS = """async ([base, opts]) => {
    const src = `import { loadAppPyodide } from "${base}web/boot/worker-pyodide.mjs";
        const { py, boot } = await loadAppPyodide(${JSON.stringify(opts)});
        postMessage([boot, py.runPython("import kosynka.solver, random; str(random.random())")]);`;
    const url = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
    return await new Promise((resolve, reject) => {
        const w = new Worker(url, {type: 'module'});
        w.onmessage = (e) => { w.terminate(); resolve(e.data); };
        w.onerror = (e) => reject(new Error(e.message));
    });
}"""


def test_worker_pyodide_restores_the_snapshot(new_context, base_url):
    """web/boot/worker-pyodide.mjs: a worker of ours gets Pyodide with the app, from
    the page's stored snapshot once there is one (reseeded), else from the shipped
    one (issue 15), else normally."""
    ctx = new_context("desktop", boot={"sw": False, "shipped": False})
    page = ctx.new_page()
    page.goto(base_url)
    wait_ready(page)
    before = page.evaluate(WORKER_JS, [base_url, {"shipped": False}])
    shipped = page.evaluate(WORKER_JS, [base_url, {}])
    page.wait_for_function(f"['saved', 'failed'].includes({HTML}.snapshot)", timeout=90_000)
    assert page.evaluate(f"{HTML}.snapshot") == "saved"
    first = page.evaluate(WORKER_JS, [base_url, {"shipped": False}])
    second = page.evaluate(WORKER_JS, [base_url, {"shipped": False}])
    assert before[0] == "normal"
    assert shipped[0] == first[0] == second[0] == "snapshot"
    assert first[1] != second[1]


def test_vendoring_again_keeps_the_compressed_runtime(vendored):
    """ensure_vendor on a vendored tree (each test worker's start, each `serve`) leaves
    the gzip and brotli copies of the runtime as they are: a CI run lost its browser
    tests when it deleted and rewrote them each time, and two workers crossed."""
    from tools.serve import ensure_vendor

    def packed():
        vendor = ROOT / "web" / "vendor"
        return {p: p.stat().st_mtime_ns for p in [*vendor.rglob("*.gz"), *vendor.rglob("*.br")]}

    before = packed()
    assert any("pyscript" in p.parts and p.suffix == ".br" for p in before), sorted(before)
    assert ensure_vendor(ROOT) == vendored
    assert packed() == before
