"""Installable and offline for real (O2, issue 5 items 1-3): one visit, then the
static server is stopped (Playwright's offline switch would not stop the service
worker's own fetches) and a new page must start with zero network; a new deploy
is picked up at the next launch and announced without losing the saved game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import ROOT, StaticServer, wait_ready
from gamekit import HTML

SW_ACTIVE = f"{HTML}.sw === 'active' && !!navigator.serviceWorker.controller"


def manifest_of(page, url):
    return page.evaluate("""async (url) => {
        const link = document.querySelector('link[rel=manifest]');
        const r = await fetch(link.href);
        return {href: link.href, type: r.headers.get('content-type'), body: await r.json()};
    }""", url)


def test_manifest_is_installable(page, base_url):
    """Issue 5 item 1: name, icons 192/512/maskable drawn by us, colours, standalone,
    relative start_url/scope, lang."""
    page.goto(base_url)
    m = manifest_of(page, base_url)
    body = m["body"]
    assert "Косинка" in body["name"] and "Kosynka" in body["name"]
    assert body["short_name"] and body["lang"] == "uk"
    assert body["display"] == "standalone"
    assert body["start_url"] == "./" and body["scope"] == "./"
    assert body["theme_color"].startswith("#") and body["background_color"].startswith("#")
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in body["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in body["icons"]:
        path = ROOT / icon["src"]
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            data = path.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert f"{w}x{h}" == icon["sizes"]
    assert "manifest" in (m["type"] or "") or "json" in (m["type"] or "")


def _load_and_install(ctx, url):
    page = ctx.new_page()
    page.goto(url)
    wait_ready(page)
    page.wait_for_function(SW_ACTIVE, timeout=60_000)
    return page


def test_offline_after_one_visit(new_context, server_factory):
    """Issue 5 item 3: load once; stop the server; a new page starts, with the
    saved game, and every request is answered by the service worker."""
    srv = server_factory("/")
    ctx = new_context("phone", origins=[srv.origin], boot={"snapshot": False})
    first = _load_and_install(ctx, srv.url)
    # play one move if the table offers a stock tap, so there is a saved game
    saved_before = first.evaluate("localStorage.getItem('kosynka.game')")
    stock = first.locator("[data-pile=stock]")
    if stock.count():
        stock.click()
        first.wait_for_function(
            "before => localStorage.getItem('kosynka.game') !== before", arg=saved_before)
    saved = first.evaluate("localStorage.getItem('kosynka.game')")
    first.close()

    srv.stop()  # no network from here on

    page = ctx.new_page()
    network = []
    page.on("response", lambda r: None if r.from_service_worker else network.append(r.url))
    failed = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(srv.url)
    wait_ready(page)
    assert failed == [], f"requests that failed offline: {failed}"
    assert [u for u in network if u.startswith("http")] == [], network
    if saved:
        before = json.loads(json.loads(saved)["game"])
        now = json.loads(json.loads(page.evaluate("localStorage.getItem('kosynka.game')"))["game"])
        for key in ("number", "log", "position"):
            assert now[key] == before[key], f"the saved game did not continue ({key})"
        assert before["log"], "no move was made before going offline"

    # New deal works offline and deals a verified deal (V1, O2)
    from kosynka.position import Position, Rules
    from kosynka.solver import VERIFY_STATES, streamlined_search

    old_deal = page.evaluate("document.body.dataset.deal")
    page.locator("#panel [data-action=new]").click()
    confirm = page.locator("[data-action=confirm]")
    page.wait_for_function(
        "d => document.body.dataset.deal !== d || !!document.querySelector('[data-action=confirm]')",
        arg=old_deal)
    if confirm.count():
        confirm.click()
    page.wait_for_function("d => document.body.dataset.deal !== d", arg=old_deal, timeout=60_000)
    deal = int(page.evaluate("document.body.dataset.deal"))
    verified = streamlined_search(Position.deal(deal, Rules()), max_states=VERIFY_STATES)
    assert verified.run().result == "won", f"deal {deal} is not verified (V1)"
    # settings open offline
    page.locator("#panel [data-action=settings]").click()
    page.wait_for_function("!document.getElementById('dialog').hidden")
    assert failed == [], f"requests that failed offline: {failed}"

    # the deal link form (query string) also opens offline
    page2 = ctx.new_page()
    page2.goto(srv.url + "index.html?from=offline")
    wait_ready(page2)


WASM_BY = """() => performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('/pyodide.asm.wasm')).map((e) => e.initiatorType)"""


def test_a_first_visit_moves_each_file_once_and_a_second_almost_nothing(new_context, vendored):
    """Issue 23 item 2 (O2): from a fresh context to installed for offline, every
    file crosses the network once (the service worker's precache and the app's
    workers take what the page downloaded: a revalidation is a few hundred bytes);
    a second visit moves under 100 kB. Issue 31: the first visit's head preloads the
    wasm; the page the service worker serves does not (Pyodide's own fetch gets
    V8's cached code: sw.js laterVisits)."""
    from collections import Counter

    sent: list[tuple[str, int]] = []
    srv = StaticServer(ROOT, "/", sent=lambda path, n: sent.append((path, n)))
    try:
        ctx = new_context("phone", origins=[srv.origin])
        first = _load_and_install(ctx, srv.url)
        first.wait_for_function(f"['saved', 'failed'].includes({HTML}.snapshot)", timeout=90_000)
        bodies = Counter(path for path, n in list(sent) if n > 10_000)
        assert bodies and [p for p, times in bodies.items() if times > 1] == [], bodies
        assert first.evaluate(WASM_BY) == ["link"]
        first.close()
        mark = len(sent)
        page = ctx.new_page()
        page.goto(srv.url)
        wait_ready(page)
        second = list(sent)[mark:]
        assert sum(n for _, n in second) < 100_000, second
        assert page.locator("link[data-first-visit]").count() == 0
        assert page.evaluate(WASM_BY) == ["fetch"]
    finally:
        srv.stop()


ASK_VERSION = """() => new Promise(resolve => {
    const c = navigator.serviceWorker.controller;
    if (!c) return resolve(null);
    const ch = new MessageChannel();
    ch.port1.onmessage = e => resolve(e.data.version);
    c.postMessage({type: 'version'}, [ch.port2]);
})"""

def _copy_app(dst: Path) -> Path:
    """A deployable copy of the app (vendored runtime linked, not copied)."""
    for name in ("index.html", "pyscript.toml", "manifest.webmanifest", "sw.js",
                 "package.json", "package-lock.json"):
        shutil.copy2(ROOT / name, dst / name)
    shutil.copytree(ROOT / "kosynka", dst / "kosynka",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "web", dst / "web",
                    ignore=shutil.ignore_patterns("__pycache__", "vendor"))
    (dst / "web" / "vendor").mkdir()
    for sub in ("pyodide", "pyscript"):
        (dst / "web" / "vendor" / sub).symlink_to(ROOT / "web" / "vendor" / sub)
    return dst


def test_new_version_is_picked_up_and_announced(new_context, tmp_path, vendored):
    """Issue 5 item 2: a new deploy installs in the background, is announced
    (html[data-update=ready] + 'kosynka:update' event), takes over at the next
    launch, deletes the old cache and keeps the saved game."""
    from tools.bundle import ensure_bundle

    app = _copy_app(tmp_path)
    v1 = ensure_bundle(app, force=True)["version"]
    srv = StaticServer(app, "/")
    try:
        ctx = new_context("phone", origins=[srv.origin], boot={"snapshot": False})
        page = _load_and_install(ctx, srv.url)
        page.evaluate("localStorage.setItem('kosynka.test-keep', 'still here')")
        page.close()

        # deploy v2: any content change gives a new version
        (app / "web" / "boot" / "deploy-marker.txt").write_text("v2\n")
        v2 = ensure_bundle(app)["version"]
        assert v2 != v1

        page = ctx.new_page()
        page.goto(srv.url)
        wait_ready(page)
        page.wait_for_function(f"{HTML}.update === 'ready'", timeout=60_000)
        # the player is told, in words (the toast of web/app.py)
        page.wait_for_function("""() => {
            const t = document.getElementById('toast');
            return t.classList.contains('show') && /Kosynka|Косинк|Косынк/.test(t.textContent);
        }""", timeout=10_000)
        page.close()

        # the old worker's last tab is gone, so the new one activates; a launch
        # racing with that activation may still get the old one: launch again
        seen = []
        for _ in range(10):
            page = ctx.new_page()
            page.goto(srv.url, wait_until="domcontentloaded")
            version = page.evaluate(ASK_VERSION)
            seen.append(version)
            if version == v2:
                break
            page.close()
        assert version == v2, f"v1={v1} v2={v2} launches saw {seen}"
        wait_ready(page)
        caches = page.evaluate("caches.keys()")
        assert [c for c in caches if c.endswith(v1)] == [], caches
        assert page.evaluate("localStorage.getItem('kosynka.test-keep')") == "still here"
    finally:
        srv.stop()
