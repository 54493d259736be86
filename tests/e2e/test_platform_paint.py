"""Instant first paint and blocked storage (issue 5 items 5 and 7): the table is
painted from saved state before Python is up, taps while loading are ignored
visibly, anything unexpected in storage paints card backs, and a browser that
blocks storage still plays."""

from __future__ import annotations

import time

from conftest import wait_ready
from gamekit import HTML, NO_BOOT_EXTRAS

PILES_JS = """() => {
    const out = {};
    for (const p of document.querySelectorAll('[data-pile]')) {
        out[p.dataset.pile] = [...p.querySelectorAll('.card')].map(
            c => c.dataset.face === 'up' ? c.dataset.card : '#');
    }
    return out;
}"""


def open_loading(ctx, url, page=None):
    """A new page, stopped at the painter's first paint (Python not up yet)."""
    page = page or ctx.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_function(f"!!{HTML}.paint")
    return page


def hold_python(ctx) -> list:
    """Keep Python from starting (Pyodide's WebAssembly is held back) until every
    route in the returned list is continued: the page stays loading, whatever the
    machine's speed."""
    held = []
    ctx.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    return held


def let_python_start(page, held):
    # the runtime's request comes a little after the first paint; Playwright hands
    # it to the route handler while it talks to the page, so talk until it is held
    deadline = time.monotonic() + 90
    while not held and time.monotonic() < deadline:
        page.evaluate("0")
    assert held, "Pyodide's WebAssembly was never requested"
    for route in held:
        route.continue_()


def play_a_little(page):
    """A stock tap, so that a game is saved and the table shows face-up cards."""
    before = page.evaluate("localStorage.getItem('kosynka.game')")
    page.locator("[data-pile=stock]").click()
    page.wait_for_function("b => localStorage.getItem('kosynka.game') !== b", arg=before)
    page.wait_for_function("!!localStorage.getItem('kosynka.paint')")


def test_first_launch_paints_card_backs_before_python(new_context, base_url):
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS)
    held = hold_python(ctx)
    page = open_loading(ctx, base_url)
    assert page.evaluate(f"{HTML}.paint") == "backs"
    assert page.evaluate("document.body.dataset.state") == "loading"
    piles = page.evaluate(PILES_JS)
    assert [len(piles[f"t{i}"]) for i in range(1, 8)] == [1, 2, 3, 4, 5, 6, 7]
    assert len(piles["stock"]) == 24 and set(sum(piles.values(), [])) == {"#"}
    let_python_start(page, held)
    wait_ready(page)
    # the app took over: no leftovers of the paint, the DOM contract holds
    assert page.evaluate("document.querySelectorAll('[data-painted]').length") == 0
    assert page.evaluate("document.querySelectorAll('.card').length") == 52


def test_relaunch_paints_the_saved_game_exactly(new_context, base_url):
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS)
    page = ctx.new_page()
    page.goto(base_url)
    wait_ready(page)
    play_a_little(page)
    page.close()

    page = open_loading(ctx, base_url)
    assert page.evaluate(f"{HTML}.paint") == "saved"
    painted = page.evaluate(PILES_JS)
    painted_at = page.evaluate("globalThis.kosynkaBootTiming.painted")
    wait_ready(page)
    assert page.evaluate(PILES_JS) == painted
    assert painted_at is not None

    # the table's size changed: the same paint, scaled to the new table
    page.close()
    page = ctx.new_page()
    page.set_viewport_size({"width": 360, "height": 600})
    open_loading(ctx, base_url, page)
    assert page.evaluate(f"{HTML}.paint") == "scaled"
    painted = page.evaluate(PILES_JS)
    wait_ready(page)
    assert page.evaluate(PILES_JS) == painted


def test_unexpected_saved_data_paints_backs_and_starts(new_context, base_url):
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS)
    ctx.add_init_script("""
        if (!sessionStorage.getItem('seeded')) {
            sessionStorage.setItem('seeded', '1');
            localStorage.setItem('kosynka.game', '{"rev": 3, "game": "{\\\\"position\\\\": {\\\\"tableau\\\\": 5}}"}');
            localStorage.setItem('kosynka.paint', '[1, 2, 3]');
        }
    """)
    page = open_loading(ctx, base_url)
    assert page.evaluate(f"{HTML}.paint") == "backs"
    wait_ready(page)


def test_taps_while_loading_are_ignored_visibly(new_context, base_url):
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS)
    held = hold_python(ctx)
    page = open_loading(ctx, base_url)
    assert page.evaluate("document.body.dataset.state") == "loading"
    page.locator("[data-pile=t7]").tap(position={"x": 8, "y": 6})
    page.locator("[data-pile=stock]").tap(position={"x": 8, "y": 6})
    assert page.evaluate("globalThis.kosynkaBootTiming.ignoredTaps") >= 2
    assert page.locator("#loading[data-nudge]").count() == 1  # the loading line pulses
    let_python_start(page, held)
    wait_ready(page)
    assert page.locator("#moves").inner_text().strip() == "0"  # no tap became a move
    assert page.locator("[data-pile=waste] .card").count() == 0


# What Chromium does when the site may not keep data: the storage getters throw,
# and IDBFactory.open throws SecurityError.
BLOCK_STORAGE = """
(() => {
    const deny = () => { throw new DOMException('Access is denied for this document.', 'SecurityError'); };
    Object.defineProperty(window, 'localStorage', {get: deny, configurable: true});
    Object.defineProperty(window, 'sessionStorage', {get: deny, configurable: true});
    IDBFactory.prototype.open = deny;
})();
"""


def test_blocked_storage_still_plays(new_context, base_url):
    """Private mode / storage blocked: starts, says so (html[data-storage=blocked]),
    and a move can be made."""
    ctx = new_context("phone", boot={"sw": False})
    ctx.add_init_script(BLOCK_STORAGE)
    page = ctx.new_page()
    page.goto(base_url)
    wait_ready(page)
    assert page.evaluate(f"{HTML}.storage") == "blocked"
    # the snapshot shipped with the build still restores; none is kept (issue 15)
    assert page.evaluate(f"[{HTML}.boot, {HTML}.snapshot]") == ["snapshot", "off"]
    waste = page.locator("[data-pile=waste] .card")
    n = waste.count()
    page.locator("[data-pile=stock]").click()
    page.wait_for_function(
        "n => document.querySelectorAll('[data-pile=waste] .card').length > n", arg=n)
