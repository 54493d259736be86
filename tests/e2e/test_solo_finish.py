"""Finish that asks, statistics that mean something, and deals marked for what the
solver knows of them (issue 12 items 2–4; F2, V1, T2)."""

from __future__ import annotations

import pytest
from gamekit import (
    NO_BOOT_EXTRAS,
    WIN_DEAL,
    counter,
    open_deal,
    play_by_taps,
    solver_line,
    wait_moves,
)

LOST = 340  # draw 1: the solver proves it lost within a few hundred states


def make_page(new_context, kind="phone"):
    ctx = new_context(kind, boot=NO_BOOT_EXTRAS, reduced_motion="reduce")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def stat(page, name) -> str:
    return page.text_content(f"#sheet [data-stat={name}]")


def test_finish_asks_first_and_an_assisted_win_is_kept_apart(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    page.click("[data-action=finish]")
    assert page.text_content("#sheet .big") == "Let the solver finish? This game will not count."
    page.click("#sheet [data-action=cancel]")  # no: nothing happens
    assert page.locator("#sheet").inner_html() == ""
    assert counter(page, "moves") == "0"
    assert page.evaluate("document.body.dataset.mode") == "ready"
    line = solver_line(WIN_DEAL)
    for move in line[:4]:
        play_by_taps(page, move)
    wait_moves(page, 4)
    page.click("[data-action=finish]")
    page.click("#sheet [data-action=confirm]")
    page.wait_for_function("document.body.dataset.state === 'won'", timeout=120_000)
    page.wait_for_selector("#win-record")
    assert page.get_attribute("#win-record", "data-record") == "no"
    # the statistics: played, won, rate and streaks untouched; the assisted win apart
    assert [stat(page, k) for k in ("played", "won", "win_pct", "streak", "best_streak", "assisted")] == \
        ["0", "0", "0%", "0", "0", "1"]
    rec = page.evaluate("JSON.parse(localStorage.getItem('kosynka.records'))")
    assert rec["best"] == {} and rec["stats"]["assisted"] == 1
    assert not page.errors


def test_no_path_verdict_stays_until_dismissed_and_says_what_next(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, LOST)
    page.click("[data-action=finish]")
    page.click("#sheet [data-action=confirm]")
    page.wait_for_selector("#verdict[data-result=lost]", timeout=90_000)
    text = page.text_content("#verdict")
    # no move made yet: the deal itself can't be won — no undo to advise (it is greyed out)
    assert "No path to victory" in text and "from its first move" in text and "new deal" in text
    assert "ndo" not in text
    page.wait_for_function("document.body.dataset.mode === 'ready'")
    assert page.locator("#verdict").count() == 1  # still there: no timer takes it away
    page.click("#sheet [data-action=close]")  # Play on
    assert page.locator("#verdict").count() == 0
    assert page.evaluate("document.body.dataset.deal") == str(LOST)
    # proven lost from the deal itself: the table's mark says so
    assert page.evaluate("document.body.dataset.verified") == "lost"
    assert not page.errors


# draw 3, no redeal: after these three actions nothing can help any more (the engine's Outcome)
DEAD_END = (8, 3, 0, ("D", "D", "5h>1"))


def test_finish_on_a_dead_end_says_so_at_once(table_page, base_url, wait_ready):
    """F2: a game the engine has proven can no longer be won gets the solver's
    "no path" sheet at once — not "Let the solver finish? This game will not
    count", then a search that can only say the same."""
    number, draw, redeals, line = DEAD_END
    page = table_page
    open_deal(page, base_url, wait_ready, number, draw=draw, redeals=redeals)
    for move in line:
        play_by_taps(page, move)
    wait_moves(page, len(line))
    page.wait_for_function("document.body.dataset.outcome === 'dead_end'")
    page.click("[data-action=finish]")
    page.wait_for_selector("#verdict[data-result=lost]")
    assert page.locator("#sheet [data-action=confirm]").count() == 0
    assert page.evaluate("document.body.dataset.mode") == "ready"  # no search: nothing to stop
    page.click("#sheet [data-action=close]")  # Play on: undo is the way out
    page.click("[data-action=undo]")
    wait_moves(page, len(line) + 1)
    assert page.evaluate("document.body.hasAttribute('data-outcome')") is False
    assert not page.errors


@pytest.mark.parametrize("kind,size", [("phone", "360x640"), ("desktop", "1280x800")])
def test_a_linked_deal_is_checked_and_marked(new_context, base_url, wait_ready, kind, size):
    """A hand-typed number that is not verified is dealt, checked by the solver in
    the background and marked; a verified one is marked verified. Screenshot:
    /tmp/kosynka-<size>-marked-lost.png."""
    page = make_page(new_context, kind)
    open_deal(page, base_url, wait_ready, LOST)
    assert page.evaluate("document.body.dataset.verified") == "checking"
    page.wait_for_function("document.body.dataset.verified === 'lost'", timeout=90_000)
    assert page.text_content("#deal-mark") == "✗ no path"
    assert page.get_attribute("#deal-mark", "title").startswith("No path to victory")
    assert page.evaluate("window.kosynkaSolverStats.check_where") == "worker"
    page.screenshot(path=f"/tmp/kosynka-{size}-marked-lost.png")
    # kept with the saved game: a reload shows it at once
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.body.dataset.verified") == "lost"
    # a verified deal, by a link
    page.evaluate(f"location.hash = '#deal={WIN_DEAL}&draw=1'")
    page.wait_for_function("document.body.dataset.verified === 'verified'", timeout=90_000)
    assert page.text_content("#deal-mark") == "✓ verified"  # (the word hidden on a phone)
    assert not page.errors
