"""The solo game in the other engines players use (issue 32 item 10; P1, C1, C5,
O2): Firefox ESR (WebDriver BiDi) and WebKitGTK (WebKitWebDriver), Debian's
packages, driven as ``tests/e2e/enginekit.py`` says. Only what a second engine
can break, kept short for CI: the first paint, the game ready, ten moves of a
verified line by taps at a fast player's pace (every tap must mean what was
tapped: the table is then exactly the engine's), an undo, and a reload with
the static server stopped — the service worker must have installed and answer
everything, and the game comes back as it was (cards, moves).

One reload covers both P1 and O2: the page is the service worker's from its
first visit on, so a reload with the server up would fetch nothing that the
offline one does not. The memory snapshot is left on, as a player has it.
"""

from __future__ import annotations

import pytest
from conftest import ON_CI
from enginekit import Firefox, WebKit, available
from gamekit import expected_table, solver_line, table, table_frame, tap_points

from kosynka.game import Game

DEAL = 7          # a verified draw-1 deal (gamekit.WIN_DEAL)
MOVES = 10
READY = ("['ready', 'won'].includes(document.body.dataset.state)"
         f" && document.body.dataset.deal === '{DEAL}' && document.body.dataset.mode === 'ready'")
SW_ACTIVE = ("document.documentElement.dataset.sw === 'active'"
             " && !!navigator.serviceWorker.controller")
ENGINES = {"firefox": Firefox, "webkit": WebKit}
# Selenium 4.51's own WebKitGTK driver builds its connection the way it deprecates
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")


def moves_are(n: int) -> str:
    return f"document.getElementById('moves').textContent === '{n}'"


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_game_plays_undoes_and_comes_back_offline(engine, server_factory):
    why = available()[engine]
    if why:
        if ON_CI:
            pytest.fail(f"{engine}: {why} (run-tests installs it)")
        pytest.skip(f"{engine}: {why}")
    srv = server_factory("/")
    page = ENGINES[engine]()
    try:
        page.go(srv.url + f"#deal={DEAL}&draw=1")
        page.wait("!!document.documentElement.dataset.paint", 30)   # the first paint (polled:
        page.wait(READY, 90)                                          # once, it came late in CI)
        geom, origin = table_frame(page)
        g = Game.new(DEAL)
        taps = []
        for move in solver_line(DEAL)[:MOVES]:
            taps += tap_points(g, move, geom, origin)
            g.play(move)
        page.taps(taps)                              # at a fast player's pace, no wait between
        page.wait(moves_are(g.moves), 30)
        assert table(page) == expected_table(g)      # every tap meant what was tapped

        x, y = page.evaluate("() => { const r = document.querySelector('[data-action=undo]')"
                             ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")
        page.taps([(x, y)])
        g.undo()
        page.wait(moves_are(g.moves), 20)
        assert table(page) == expected_table(g)

        page.wait(SW_ACTIVE, 60)
        srv.stop()                                   # no network from here on
        page.go(srv.url)
        page.wait(READY, 90)
        assert page.evaluate("document.getElementById('moves').textContent") == str(g.moves)
        assert table(page) == expected_table(g)
    finally:
        page.close()
