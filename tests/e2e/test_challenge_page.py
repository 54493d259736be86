"""Challenge a friend (issue 20, O6) through the page, at 360×640: Anna wins a
verified deal and makes the link; Bohdan, in another browser with no network,
opens it (his own game is kept), plays, ends and sends his answer; Anna's page
checks the answer and shows both games; a forged link is refused there and
changes nothing; the viewer steps through Anna's whole game to the win.

One story in one test: every step needs the one before, and each booted page
is used by every step it takes part in (the suite's time, issue 20's brief).
The rules of codes are unit tests (tests/test_challenge.py)."""

from __future__ import annotations

import json

from conftest import _watch
from gamekit import (
    NO_BOOT_EXTRAS,
    WIN_DEAL,
    at_f1,
    play_by_taps,
    quiet_page,
    solver_line,
    wait_moves,
)
from test_a11y import _axe

from kosynka import challenge as C
from kosynka.game import Game

SW_ACTIVE = "document.documentElement.dataset.sw === 'active' && !!navigator.serviceWorker.controller"
NAME = "localStorage.setItem('kosynka.race.name', %s)"


def _state(page, value: str):
    page.wait_for_function(f"document.body.dataset.challenge === '{value}'")


def _rows(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#challenge-results tr[data-result]')].map(
        r => ({name: r.dataset.name, you: r.dataset.you, won: r.dataset.won, moves: +r.dataset.moves,
               place: +r.dataset.place}))""")


def test_a_challenge_and_its_answer_between_two_offline_friends(new_context, base_url, wait_ready):
    # --- Anna wins a verified deal (Finish F1 plays the end of the solver's line) and makes the link
    saved = at_f1(WIN_DEAL)  # Anna's game on the solver's line, one step before F1 (V1)
    env = {"v": 1, "rev": 1, "tab": "t", "game": saved.to_json(), "meta": {"mark": "verified"}}
    ctx_a = new_context("phone", boot=NO_BOOT_EXTRAS, reduced_motion="reduce")
    ctx_a.add_init_script("if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', 1);"
                          f"localStorage.setItem('kosynka.game', {json.dumps(json.dumps(env))});"
                          f"{NAME % json.dumps('Anna')}; }}")
    anna = _watch(ctx_a.new_page())
    anna.goto(base_url)
    wait_ready(anna)
    anna.click("[data-action=finish]")
    anna.wait_for_selector("#sheet [data-action=challenge]")
    anna.click("#sheet [data-action=challenge]")
    url = anna.text_content("[data-challenge-link]")
    total = saved.moves + len(saved.finish_moves())
    assert url.startswith(base_url + "#challenge=") and len(url) < 600  # item 1
    assert anna.locator("#sheet .qrbox svg").count() == 1

    # --- Bohdan: one visit (the service worker installs), a game of his own, then no network
    ctx_b = new_context("phone", boot={"snapshot": False}, reduced_motion="reduce")
    ctx_b.add_init_script(NAME % json.dumps("Bohdan"))
    first = ctx_b.new_page()
    first.goto(base_url)
    wait_ready(first)
    first.wait_for_function(SW_ACTIVE, timeout=60_000)
    play_by_taps(first, "D")
    wait_moves(first, 1)
    own_deal = first.evaluate("document.body.dataset.deal")
    first.close()
    ctx_b.set_offline(True)
    bohdan = _watch(ctx_b.new_page())
    network = []  # what did not come from the service worker's cache
    bohdan.on("response", lambda r: None if r.from_service_worker or r.url.startswith(("data:", "blob:"))
              else network.append(r.url))
    bohdan.goto(url)
    wait_ready(bohdan)
    _state(bohdan, "offered")
    offer = bohdan.locator("#sheet [data-challenge]")
    # what the offer says is the replay's (item 2)
    assert (offer.get_attribute("data-won"), offer.get_attribute("data-moves")) == ("yes", str(total))
    assert "Anna" in offer.text_content() and offer.get_attribute("data-kept") == "yes"
    bohdan.click("[data-action=play-challenge]")
    _state(bohdan, "playing")
    assert bohdan.evaluate("document.body.dataset.deal") == str(WIN_DEAL)
    assert bohdan.text_content("#moves") == "0" and "Anna" in bohdan.text_content("#challenge-bar")
    for move in solver_line(WIN_DEAL)[:3]:
        play_by_taps(bohdan, move)
    wait_moves(bohdan, 3)
    bohdan.click("[data-action=challenge-end]")
    bohdan.click("#sheet [data-action=confirm]")
    _state(bohdan, "done")
    assert bohdan.get_attribute("#challenge-results", "data-outcome") == "lost"
    # his own game is back on the table at once, as he left it
    assert bohdan.evaluate("document.body.dataset.deal") == own_deal
    assert bohdan.text_content("#moves") == "1"
    answer = bohdan.text_content("[data-challenge-answer-link]")
    assert _axe(bohdan) == []  # the results with the answer's link box (issue 13's bar)
    assert C.check(answer).challenge.reply_to == C.check(url).id

    # --- Anna: a forged link changes nothing; the answer shows both games
    forged = _forged_win()
    anna.evaluate("h => location.hash = h", "#challenge=" + forged)
    _state(anna, "refused")
    assert anna.get_attribute("[data-challenge-error]", "data-challenge-error") == "challenge/forged"
    assert anna.evaluate("document.body.dataset.deal") == str(WIN_DEAL)
    anna.keyboard.press("Escape")
    anna.evaluate("h => location.hash = h", answer[answer.index("#"):])
    _state(anna, "done")
    rows = _rows(anna)
    assert rows == [{"name": "Anna", "you": "yes", "won": "yes", "moves": total, "place": 1},
                    {"name": "Bohdan", "you": "no", "won": "no", "moves": 3, "place": 2}]
    assert anna.get_attribute("#challenge-results", "data-outcome") == "won"

    # --- the viewer steps through Anna's game to the win (item 4)
    anna.click("#sheet [data-action=watch][data-watch='0']")
    anna.wait_for_selector("#replay:not([hidden])")
    viewer = anna.locator("#replay")
    assert viewer.get_attribute("data-steps") == str(total) and total >= 150
    anna.click("[data-action=replay-forward]")
    anna.keyboard.press("ArrowRight")
    assert anna.text_content("[data-replay-step]") == f"2 / {total}"
    assert anna.text_content("#live").startswith(f"Move 2 of {total}: ")  # said as a move in play
    anna.click("[data-action=replay-back]")
    assert anna.text_content("[data-replay-step]") == f"1 / {total}"
    assert anna.text_content("#live").startswith(f"Back to move 1 of {total}: ")
    for _ in range(3):  # 1× → 2× → 4× → 8×
        anna.click("[data-action=replay-speed]")
    anna.click("[data-action=replay-play]")
    anna.wait_for_function(f"document.getElementById('replay').dataset.step === '{total}'", timeout=60_000)
    assert anna.locator("#replay-table [data-pile^=f] .card").count() == 52
    assert _axe(anna) == []
    assert "52" in anna.text_content("#live")
    anna.keyboard.press("Escape")
    _state(anna, "done")  # the results are back
    for page in (anna, bohdan):
        assert not page.errors, page.errors
    assert not network, network[:5]


def test_the_strip_and_a_deal_link_that_ends_a_challenge(new_context, base_url, wait_ready):
    """The strip says whole what there is to beat, on a narrow phone too. V2: with
    no game of the friend's own put aside, the challenge's game stays on the table
    when another deal's link ends the challenge — and the address names that game
    again, not the link that was answered "end the challenge" (a reload would
    otherwise ask to abandon the game for it)."""
    ch = C.Challenge(WIN_DEAL, Game.new(WIN_DEAL).rules, "Oleksandra-Mariia", 754, solver_line(WIN_DEAL)[:10])
    page = quiet_page(new_context)
    page.goto(base_url + "#challenge=" + C.pack(ch))
    wait_ready(page)
    _state(page, "offered")
    page.click("[data-action=play-challenge]")
    _state(page, "playing")
    # the strip on a 360-px phone: whose challenge and what to beat, whole (two lines)
    assert page.evaluate("(() => { const w = document.querySelector('#challenge-bar .who');"
                         " return w.scrollWidth <= w.clientWidth; })()")
    play_by_taps(page, "D")
    wait_moves(page, 1)
    page.evaluate("location.hash = '#deal=5&draw=1'")
    page.click("#sheet [data-action=confirm]")  # End the challenge now? Yes
    _state(page, "done")
    page.click("#sheet [data-action=close]")
    assert page.evaluate("[document.body.dataset.deal, location.hash]") == [
        str(WIN_DEAL), f"#deal={WIN_DEAL}&draw=1"]
    assert not page.errors


def _forged_win() -> str:
    """A code with a correct checksum claiming a win its 20 moves do not give."""
    line = solver_line(WIN_DEAL)[:20]
    ch = C.Challenge(WIN_DEAL, Game.new(WIN_DEAL).rules, "Mallory", 30, tuple(line))
    _, claim, final, packed = C.unpack(C.pack(ch))
    return C._assemble(ch, "Mallory", C.Result(claim.moves, 52, True, claim.score), final, packed)
