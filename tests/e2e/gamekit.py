"""Helpers for the gameplay e2e tests: drive the table through its DOM contract."""

from __future__ import annotations

from functools import lru_cache

from kosynka.cards import SUIT, card_name, make_card, parse_card
from kosynka.game import Game
from kosynka.position import Rules
from kosynka.solver import verified_deal

NO_BOOT_EXTRAS = {"snapshot": False, "sw": False}
# the page's root dataset as a JS expression, null-safe: a page opened at goto's
# "commit" may have no root element yet (a CI run once read null.dataset)
HTML = "document.documentElement?.dataset"
WIN_DEAL = 7  # a verified draw-1 deal the solver wins at once (its line: ~200 actions)


@lru_cache(maxsize=None)
def solver_line(number: int, draw: int = 1) -> tuple[str, ...]:
    """The verified deal's winning line (``python3 -m kosynka deal N --verified``)."""
    n, res = verified_deal(number, Rules(draw))
    assert n == number and res.result == "won"
    return tuple(res.moves)


def at_f1(number: int) -> Game:
    """The verified deal's game on the solver's line, one step before F1 applies
    (Finish then plays the rest, card by card, and the win is the player's)."""
    g = Game.new(number)
    for move in solver_line(number):
        if g.auto_finish_available:
            break
        g.play(move)
    assert g.auto_finish_available
    return g


def open_deal(page, base_url, wait_ready, number: int, draw: int = 1, redeals=None):
    """Open a deal by its link (V2): a fresh page boots on it; a booted page (the
    shared ``table``) changes deal on the hash, with no reload."""
    h = f"#deal={number}&draw={draw}" + ("" if redeals is None else f"&redeals={redeals}")
    page.goto(base_url + h)
    wait_ready(page)
    page.wait_for_function(f"document.body.dataset.deal === '{number}' && document.body.dataset.mode === 'ready'")
    return page


def reset_table(page):
    """Make a booted page as if just opened: no sheet, no solver at work, a deal with
    no move, nothing kept on the device, hints off."""
    page.keyboard.press("Escape")  # closes a sheet (a confirmation as "no")
    if page.evaluate("document.body.dataset.mode") == "thinking":
        page.click("[data-action=finish]")  # stops the solver
    page.wait_for_function("['ready', 'won'].includes(document.body.dataset.mode)")
    neutral = "1" if page.evaluate("document.body.dataset.deal") == "0" else "0"
    page.evaluate(f"location.hash = '#deal={neutral}&draw=1'")
    page.wait_for_function(f"document.body.dataset.deal === '{neutral}' || "
                           "!!document.querySelector('#sheet [data-action=confirm]')")
    if page.locator("#sheet [data-action=confirm]").count():
        page.click("#sheet [data-action=confirm]")
        page.wait_for_function(f"document.body.dataset.deal === '{neutral}'")
    if page.get_attribute("[data-action=hint]", "aria-pressed") == "true":
        page.click("[data-action=hint]")
    # nothing kept on the device but the verified deals prepared ahead (the page
    # holds them in memory too)
    page.evaluate("(() => { const next = localStorage.getItem('kosynka.next'); localStorage.clear();"
                  " if (next) localStorage.setItem('kosynka.next', next); })()")


def table(page) -> dict:
    """Every pile's cards bottom → top as names ('?' for a face-down card)."""
    return page.evaluate("""() => {
        const out = {};
        for (const p of document.querySelectorAll('[data-pile]')) {
            out[p.dataset.pile] = [...p.querySelectorAll('.card')].map(
                c => c.dataset.face === 'up' ? c.dataset.card : '?');
        }
        return out;
    }""")


def expected_table(game: Game) -> dict:
    p = game.position
    out = {"stock": ["?"] * len(p.stock), "waste": [card_name(c) for c in p.waste]}
    for k, n in enumerate(p.foundations):
        out[f"f{k + 1}"] = [card_name(make_card(r, k)) for r in range(n)]
    for i, (col, d) in enumerate(zip(p.columns, p.down, strict=True)):
        out[f"t{i + 1}"] = ["?" if j < d else card_name(c) for j, c in enumerate(col)]
    return out


def counter(page, name: str) -> str:
    return page.text_content(f"#{name}")


def wait_moves(page, n: int):
    page.wait_for_function(f"document.getElementById('moves').textContent === '{n}'")


def pile_of(move: str) -> str:
    card, dest = move.split(">")
    return f"f{SUIT[parse_card(card)] + 1}" if dest == "F" else f"t{dest}"


def tap_card(page, name: str, touch: bool = False):
    loc = page.locator(f'[data-card="{name}"]')
    (loc.tap if touch else loc.click)(position={"x": 8, "y": 6})


def tap_pile(page, pile: str, touch: bool = False):
    loc = page.locator(f'[data-pile="{pile}"]')
    (loc.tap if touch else loc.click)(position={"x": 8, "y": 6})


def play_by_taps(page, move: str, touch: bool = False):
    """One move of the notation, made with taps (C1) or a stock tap (C3)."""
    if move == "D":
        tap_pile(page, "stock", touch)
    else:
        card = move.split(">")[0]
        tap_card(page, card, touch)
        tap_pile(page, pile_of(move), touch)


def first_move(number: int, rules: Rules = Rules(), kinds=("col",)) -> str | None:
    """A card move available at the start of a deal ('col': to a column, 'F')."""
    g = Game.new(number, rules)
    for m in g.legal_moves():
        if m == "D":
            continue
        if m.endswith(">F") and "F" in kinds:
            return m
        if not m.endswith(">F") and "col" in kinds:
            return m
    return None


def deal_with_move(kinds=("col",), rules: Rules = Rules(), start: int = 1) -> tuple[int, str]:
    n = start
    while True:
        m = first_move(n, rules, kinds)
        if m:
            return n, m
        n += 1


def table_frame(page):
    """``(geometry, (x0, y0))``: the table's layout as the page computed it, and the
    viewport point of the table's origin (from where the page put column 1)."""
    from web import layout
    w, h, x, y = page.evaluate("""() => {
        const t = document.getElementById('table'), r = t.querySelector('[data-pile=t1]').getBoundingClientRect();
        return [t.clientWidth, t.clientHeight, r.left, r.top]; }""")
    geom = layout.geometry(w, h)
    return geom, (x - geom.x[0], y - geom.col_top)


def tap_points(game: Game, move: str, geom, origin) -> list[tuple[float, float]]:
    """The viewport points a player taps for ``move`` — where the cards are in the
    game (web.layout), never where an animation shows them: the stock, or the card
    (its visible corner) and then the destination pile's top card or ground."""
    from web import layout
    placed = layout.places(game.position, geom)
    ox, oy = origin

    def at(pile, dx=0, dy=0):
        bx, by, _, _ = geom.pile_box(pile)
        return ox + bx + dx + 8, oy + by + dy + 6

    if move == "D":
        return [at("stock")]
    name, dest = move.split(">")
    p = placed[parse_card(name)]
    dest_pile = pile_of(move)
    top = [q for q in placed.values() if q.pile == dest_pile]
    last = max(top, key=lambda q: q.index) if top else None
    return [at(p.pile, p.x, p.y), at(dest_pile, last.x, last.y) if last else at(dest_pile)]


def quiet_page(new_context, kind: str = "phone", **opts):
    """A page without the boot extras and with reduced motion; ``page.errors``
    collects its uncaught errors."""
    ctx = new_context(kind, boot=NO_BOOT_EXTRAS, reduced_motion="reduce", **opts)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def saved_game_script(game: Game) -> str:
    """An init script that puts ``game`` in localStorage as the game in progress (P1)."""
    import json
    env = {"v": 1, "rev": 1, "tab": "test", "game": game.to_json(), "meta": {}}
    return "localStorage.setItem('kosynka.game', %s)" % json.dumps(json.dumps(env))
