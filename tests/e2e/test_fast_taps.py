"""Exact input at any pace (issue 9 item 6): a whole winning line of a verified
deal tapped with 30–60 ms between taps — a fast player, every player in a race —
with the animations on, and every tap means what was tapped: the game is won in
exactly the line's moves. Mouse at desktop size, touch at phone size (360×640).

The pauses between taps are the pace under test, not a synchronisation: nothing
waits for the page between taps."""
from __future__ import annotations

import random

import pytest
from gamekit import (
    NO_BOOT_EXTRAS,
    WIN_DEAL,
    counter,
    open_deal,
    solver_line,
    table_frame,
    tap_points,
)

from kosynka.game import Game


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_a_winning_line_tapped_fast_wins(new_context, base_url, wait_ready, kind):
    ctx = new_context(kind, boot=NO_BOOT_EXTRAS)  # motion on: cards fly while taps land
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    geom, origin = table_frame(page)
    line = solver_line(WIN_DEAL)
    g = Game.new(WIN_DEAL)
    taps = []
    for move in line:
        taps += tap_points(g, move, geom, origin)
        g.play(move)
    pace = random.Random(9)
    tap = page.touchscreen.tap if kind == "phone" else page.mouse.click
    for x, y in taps:
        tap(x, y)
        page.wait_for_timeout(pace.uniform(30, 60))
    page.wait_for_function("document.body.dataset.state === 'won'", timeout=60_000)
    assert counter(page, "moves") == str(len(line))  # no tap lost, none misread
    assert not errors
