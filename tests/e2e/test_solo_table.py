"""The solo table as a player expects it (issue 12 items 4–6): the stock counts the
redeals left (Turn Three 2 → 1 → 0), auto-move to foundations (a setting, off by
default, the solver's safety rule, T1), the win cascade then the sheet (none with
reduced motion), and Settings saying what a variant change does."""

from __future__ import annotations

import json

import pytest
from gamekit import (
    NO_BOOT_EXTRAS,
    WIN_DEAL,
    at_f1,
    counter,
    expected_table,
    open_deal,
    play_by_taps,
    table,
    tap_pile,
    wait_moves,
)

from kosynka.game import Game
from kosynka.position import Rules
from kosynka.safety import next_safe_move


def make_page(new_context, kind="phone", motion="reduce", init=None):
    ctx = new_context(kind, boot=NO_BOOT_EXTRAS, reduced_motion=motion)
    if init:
        ctx.add_init_script(init)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def left(page) -> str | None:
    return page.evaluate("""() => { const e = document.querySelector('#table .redeals-left');
        return e.hidden || getComputedStyle(e).display === 'none' ? null : e.textContent; }""")


def test_turn_three_stock_shows_redeals_left_2_1_0(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, 123, draw=3, redeals=2)
    g = Game.new(123, Rules(3, 2))
    assert left(page) == "2"
    page.screenshot(path="/tmp/kosynka-360x640-turn-three.png")  # for a person to look at
    for expect in ("1", "0"):
        while g.position.stock:
            tap_pile(page, "stock")
            g.play("D")
        tap_pile(page, "stock")  # the redeal
        g.play("D")
        wait_moves(page, g.moves)
        assert left(page) == expect
    assert table(page) == expected_table(g)
    while g.position.stock:
        tap_pile(page, "stock")
        g.play("D")
    wait_moves(page, g.moves)
    assert page.get_attribute("[data-pile=stock]", "data-redeal") == "no"
    assert left(page) == "0"
    assert not page.errors


def test_classic_stock_shows_no_count(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, 123, draw=1)
    assert left(page) is None


def _turn_on_auto(page):
    page.click("[data-action=settings]")
    assert page.get_attribute("[data-set=auto][data-value=off]", "aria-pressed") == "true"  # off by default
    page.click("[data-set=auto][data-value=on]")
    page.click(".sheet [data-action=close]")


def test_auto_move_puts_safe_cards_up_after_each_move_as_undoable_moves(new_context, base_url, wait_ready):
    """Deal 1: A♥ lies on a column top. Nothing moves by itself before the first
    move; after it, A♥ goes up (a move of its own, T1); Undo takes it back and it
    stays back until the next move."""
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, 1)
    _turn_on_auto(page)
    g = Game.new(1)
    assert next_safe_move(g.position) == "Ah>F"
    assert counter(page, "moves") == "0" and table(page) == expected_table(g)
    play_by_taps(page, "4d>1")
    g.play("4d>1")
    while (m := next_safe_move(g.position)) is not None:
        g.play(m)
    assert g.moves == 2
    wait_moves(page, 2)
    assert table(page) == expected_table(g) and table(page)["f2"] == ["Ah"]
    page.click("[data-action=undo]")
    g.undo()
    wait_moves(page, 3)
    assert table(page) == expected_table(g) and table(page)["f2"] == []
    assert json.loads(page.evaluate("localStorage.getItem('kosynka.settings')"))["auto"] is True
    assert not page.errors


def test_auto_move_is_off_by_default(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, 1)
    play_by_taps(page, "4d>1")
    wait_moves(page, 1)
    tap_pile(page, "stock")
    wait_moves(page, 2)
    assert table(page)["f2"] == []


def _saved_at_f1(number: int) -> str:
    g = at_f1(number)
    return json.dumps({"v": 1, "rev": 1, "tab": "test", "game": g.to_json(), "meta": {"mark": "verified"}})


@pytest.mark.parametrize("kind,size", [("phone", "360x640"), ("desktop", "1280x800")])
def test_win_cascade_then_the_sheet(new_context, base_url, wait_ready, kind, size):
    """The win: the cards fly off the foundations and land fanned out; the sheet
    follows. Screenshot of the last frame: /tmp/kosynka-<size>-win-cascade.png."""
    page = make_page(new_context, kind, motion="no-preference",
                     init="localStorage.setItem('kosynka.game', %s)" % json.dumps(_saved_at_f1(WIN_DEAL)))
    page.goto(base_url)
    wait_ready(page)
    page.click("[data-action=finish]")  # F1: no question
    page.wait_for_selector("#table[data-celebrate=on]", timeout=60_000)
    assert page.locator(".card.cascade").count() == 52
    assert page.locator("#win-moves").count() == 0  # the sheet waits for the cascade
    # animations="disabled" fast-forwards the flights: their last frame
    page.screenshot(path=f"/tmp/kosynka-{size}-win-cascade.png", animations="disabled")
    page.wait_for_selector("#win-moves")
    assert page.evaluate("document.getElementById('table').dataset.celebrate") == "done"
    page.screenshot(path=f"/tmp/kosynka-{size}-win-sheet.png")
    page.click("#sheet [data-action=again]")  # the next deal puts the cards back in order
    page.wait_for_function(f"document.body.dataset.deal !== '{WIN_DEAL}'", timeout=60_000)
    assert page.locator(".card.cascade").count() == 0
    assert page.evaluate("document.getElementById('table').dataset.celebrate") is None
    assert not page.errors


def test_no_cascade_with_reduced_motion(new_context, base_url, wait_ready):
    page = make_page(new_context, init="localStorage.setItem('kosynka.game', %s)" % json.dumps(
        _saved_at_f1(WIN_DEAL)))
    page.goto(base_url)
    wait_ready(page)
    page.click("[data-action=finish]")
    page.wait_for_selector("#win-moves")
    assert page.locator(".card.cascade").count() == 0
    assert page.evaluate("document.getElementById('table').dataset.celebrate") is None


def test_a_variant_chosen_with_no_move_is_dealt_now_and_said_so(new_context, base_url, wait_ready):
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    page.click("[data-action=settings]")
    page.click("[data-set=draw][data-value='3']")
    assert page.get_attribute("#variant-note", "data-when") == "now"
    assert page.text_content("#variant-note") == "The new variant is dealt now."
    page.wait_for_function("document.body.dataset.variant === 'd3'", timeout=60_000)  # behind the sheet
    deal3 = page.evaluate("document.body.dataset.deal")
    page.click(".sheet [data-action=close]")
    assert page.evaluate("[document.body.dataset.variant, document.body.dataset.deal]") == ["d3", deal3]
    assert page.locator("#toast.show").count() == 0
    # with a move made the variant waits for the next deal, and says so
    tap_pile(page, "stock")
    wait_moves(page, 1)
    page.click("[data-action=settings]")
    page.click("[data-set=draw][data-value='1']")
    assert page.get_attribute("#variant-note", "data-when") == "next"
    assert page.evaluate("document.body.dataset.variant") == "d3"
    assert not page.errors
