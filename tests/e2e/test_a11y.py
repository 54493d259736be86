"""Play without a mouse and without sight (issue 13): a verified deal won with
the keyboard alone, the names a screen reader reads, the live region, real
dialogs, and axe-core (from the npm registry, injected here only — never part of
the app or its precache) finding no serious or critical violation on the table,
the settings and the win screen, in the light and the dark theme."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamekit import (
    WIN_DEAL,
    expected_table,
    open_deal,
    quiet_page,
    saved_game_script,
    solver_line,
    table,
    wait_moves,
)

from kosynka.cards import card_name, parse_card
from kosynka.game import Game
from web import layout, speech
from web.i18n import t

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def make_page(new_context, kind="desktop", **opts):
    return quiet_page(new_context, kind, **opts)


# ------------------------------------------------------------ keyboard only

def _keys_to(game: Game, geom, pile: str, index: int | None) -> list[str]:
    """Key presses that put the cursor on ``pile`` (card ``index`` in a column):
    a digit jumps to a column's top card; Up climbs its face-up cards and then
    leaves for the top-row pile above it (``layout.step``)."""
    pos = game.position
    if pile[0] == "t":
        i = int(pile[1]) - 1
        top = len(pos.columns[i]) - 1
        return [pile[1]] + ["ArrowUp"] * (top - index if index is not None else 0)
    col = geom.slot(pile)
    up = len(pos.columns[col]) - pos.down[col] if pos.columns[col] else 0
    keys = [str(col + 1)] + ["ArrowUp"] * max(1, up)
    # the top-row pile nearest the slot: the waste on a tie — step right if needed
    here = layout.step(geom, pos, f"t{col + 1}", pos.down[col] if pos.columns[col] else None, "ArrowUp")[0]
    assert here == pile, (here, pile)
    return keys


def _source(game: Game, card: int) -> tuple[str, int | None]:
    pos = game.position
    if pos.waste and pos.waste[-1] == card:
        return "waste", None
    for i, col in enumerate(pos.columns):
        if card in col:
            return f"t{i + 1}", col.index(card)
    return f"f{(card & 3) + 1}", None


def _table_geometry(page):
    return layout.geometry(*page.evaluate(
        "[document.getElementById('table').clientWidth, document.getElementById('table').clientHeight]"))


def _play_by_keys(page, game: Game, geom, move: str, put: str = "Enter") -> None:
    """One move of the notation made with keys: D draws; a card move puts the
    cursor on the card, Enter, on the destination, ``put`` (Enter or Space)."""
    if move == "D":
        keys = ["d"]
    else:
        name, dest = move.split(">")
        card = parse_card(name)
        keys = (_keys_to(game, geom, *_source(game, card)) + ["Enter"]
                + _keys_to(game, geom, layout.dest_pile(card, dest), None) + [put])
    press(page, *keys)


def press(page, *keys: str) -> None:
    for k in keys:
        page.keyboard.press(k)


def test_a_verified_deal_is_won_with_the_keyboard_alone(new_context, base_url, wait_ready):
    """Issue 13 item 1: the solver's line for a verified deal (``python3 -m kosynka
    deal N --verified``) played with key presses only — digits and arrows to move
    the cursor, Enter and Space to pick up and put down (C1), D to draw."""
    page = make_page(new_context)
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    geom = _table_geometry(page)
    page.keyboard.press("Tab")  # into the table: its one tab stop
    assert page.evaluate("document.activeElement.dataset.pile") == "t1"
    g = Game.new(WIN_DEAL)
    line = solver_line(WIN_DEAL)
    for n, move in enumerate(line):
        _play_by_keys(page, g, geom, move, put="Space" if n % 2 else "Enter")
        g.play(move)
        if n % 20 == 19:
            wait_moves(page, g.moves)
            assert table(page) == expected_table(g)
    page.wait_for_function("document.body.dataset.state === 'won'")
    assert page.text_content("#win-moves") == str(len(line))
    # the win is said, and the win sheet is a dialog that has the focus
    assert page.evaluate("document.getElementById('sheet').contains(document.activeElement)")
    assert t("en", "win") in page.text_content("#live")
    assert not page.errors


def test_escape_puts_back_and_a_part_of_a_run_is_chosen(new_context, base_url, wait_ready):
    page = make_page(new_context, locale="en-US")
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    press(page, "Tab", "7", "Enter")
    assert page.locator(".card.picked").count() == 1
    assert page.text_content("#live").startswith("Picked up: ")
    page.keyboard.press("Escape")
    assert page.locator(".card.picked").count() == 0
    assert page.text_content("#live").strip() == "Put back."
    # arrows walk the piles as they stand; Up from a column's top card leaves for the top row
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.pile") == "f4"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.pile") == "f3"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.pile") == "t6"
    assert not page.errors


# ------------------------------------------------------------ names

def test_piles_and_cards_have_names_and_face_down_cards_stay_hidden(new_context, base_url, wait_ready):
    """Issue 13 item 2, read through the accessibility tree (Playwright's role and
    name queries) in Ukrainian and English."""
    for locale, lang in (("uk-UA", "uk"), ("en-US", "en")):
        page = make_page(new_context, "phone", locale=locale)
        open_deal(page, base_url, wait_ready, WIN_DEAL)
        g = Game.new(WIN_DEAL)
        pos = g.position
        for pile in ("stock", "waste", "f1", "t1", "t3", "t7"):
            name = speech.pile_label(lang, pos, pile)
            assert page.get_by_role("button", name=name, exact=True).count() == 1, name
        if lang == "en":
            assert page.get_by_role("button", name="Stock: 24 cards", exact=True).count() == 1
            top = speech.card("en", pos.columns[2][-1])
            assert page.get_attribute("[data-pile=t3]", "aria-label") == f"Column 3: {top}, 2 cards face down"
            assert page.get_attribute(f"[data-card='{card_name(pos.columns[2][-1])}']", "aria-label") == top
        # face-down cards: never their identity, in names or anywhere in the DOM
        down = page.evaluate("[...document.querySelectorAll('.card[data-face=down]')].map(c => [c.getAttribute('aria-label'), c.dataset.card || null, c.textContent])")
        assert down and all(d == [speech.card_label(lang, 0, False), None, ""] for d in down)
        # a move is said in the live region
        move = next(m for m in g.legal_moves() if m != "D")
        page.keyboard.press("Tab")
        card = parse_card(move.split(">")[0])
        _play_by_keys(page, g, _table_geometry(page), move)
        wait_moves(page, 1)
        assert page.text_content("#live").startswith(speech.card(lang, card))
        assert not page.errors
        page.context.close()


def test_dialogs_take_the_focus_and_give_it_back(new_context, base_url, wait_ready):
    page = make_page(new_context, locale="en-US")
    open_deal(page, base_url, wait_ready, WIN_DEAL)
    press(page, "Tab", "3", "?")
    dlg = page.get_by_role("dialog", name="Keys")
    assert dlg.count() == 1 and dlg.get_attribute("aria-modal") == "true"
    assert page.evaluate("document.activeElement.id") == "sheet"
    assert page.evaluate("document.getElementById('table').inert && document.getElementById('panel').inert")
    assert page.locator("#sheet table.keys tr").count() == 11
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.dataset.pile") == "t3"
    # the settings from the panel: Tab leaves the table for the panel
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "new"
    page.focus("[data-action=settings]")
    page.keyboard.press("Enter")
    assert page.get_by_role("dialog", name="Settings").count() == 1
    # a setting changed from the keyboard keeps the focus on its button
    page.focus("[data-set=theme][data-value=dark]")
    page.keyboard.press("Enter")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("document.activeElement.dataset.value") == "dark"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.dataset.action") == "settings"
    assert json.loads(page.evaluate("localStorage.getItem('kosynka.settings')"))["theme"] == "dark"
    assert not page.errors


# ------------------------------------------------------------ axe-core

def _axe(page) -> list:
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci` (package-lock.json pins it)")
    if not page.evaluate("!!window.axe"):
        page.add_script_tag(path=str(AXE))
    res = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")
    return res


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(new_context, base_url, wait_ready, scheme):
    """Issue 13 item 3: the table, the settings and the win screen (the theme
    following prefers-color-scheme)."""
    page = make_page(new_context, "phone", color_scheme=scheme, locale="uk-UA")
    g = Game.new(WIN_DEAL)
    line = solver_line(WIN_DEAL)
    for m in line[:-1]:
        g.play(m)
    page.context.add_init_script(saved_game_script(g))
    page.goto(base_url)
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    found = {"table": _axe(page)}
    page.click("[data-action=settings]")
    page.wait_for_selector("#sheet [data-set=theme]")
    found["settings"] = _axe(page)
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    _play_by_keys(page, g, _table_geometry(page), line[-1])
    page.wait_for_function("document.body.dataset.state === 'won'")
    found["win"] = _axe(page)
    assert found == {"table": [], "settings": [], "win": []}
    assert not page.errors
