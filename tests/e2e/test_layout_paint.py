"""The first paint before Python (web/boot/paint.js) keeps no geometry of its own
(issue 22 item 2): it draws web/layout.py's layout, shipped as data by the build
(tools/firstpaint.py), or the paint the page saved — so what Python then draws
does not jump. Python is kept from starting here: only paint.js runs."""
from __future__ import annotations

import math

import pytest
from conftest import DESKTOP, PHONE
from gamekit import saved_game_script

from kosynka import Game
from kosynka.position import Position
from web import layout

PAINTED = """() => {
    const t = document.getElementById('table');
    const out = {w: t.clientWidth, h: t.clientHeight, cw: t.style.getPropertyValue('--cw'),
                 how: document.documentElement.dataset.paint, piles: {}};
    for (const p of t.querySelectorAll('[data-pile]')) {
        out.piles[p.dataset.pile] = [parseFloat(p.style.left), parseFloat(p.style.top),
            [...p.querySelectorAll('.card')].map(c => [parseFloat(c.style.left), parseFloat(c.style.top),
                                                       c.dataset.face === 'up' ? c.dataset.card : null])];
    }
    return out;
}"""


def _open(browser, server, view: dict, left=False, script=""):
    ctx = browser.new_context(**view)
    ctx.route("**/web/vendor/pyscript/**", lambda route: route.abort())
    if left:
        ctx.add_init_script("localStorage.setItem('kosynka.settings', JSON.stringify({hand: 'left'}))")
    if script:
        ctx.add_init_script(script)
    page = ctx.new_page()
    page.goto(server.url, wait_until="domcontentloaded")
    page.wait_for_function("!!document.documentElement.dataset.paint")
    return ctx, page


def _layout_py(w, h, left) -> dict:
    """What Python draws for a new deal on a w × h table: pile → (left, top, cards' offsets)."""
    g = layout.geometry(w, h, left)
    placed = layout.places(Position.deal(0), g)
    out = {}
    for name in layout.PILES:
        x, y, _, _ = g.pile_box(name)
        cards = sorted((p.index, p.x, p.y) for p in placed.values() if p.pile == name)
        out[name] = [x, y, [[px, py] for _, px, py in cards]]
    return out


def _backs(painted: dict) -> dict:
    return {name: [x, y, [[cx, cy] for cx, cy, face in cards if face is None]]
            for name, (x, y, cards) in painted["piles"].items()}


@pytest.mark.parametrize("left", [False, True], ids=["right-handed", "left-handed"])
@pytest.mark.parametrize("view", [PHONE, {**PHONE, "viewport": {"width": 640, "height": 360}}, DESKTOP],
                         ids=["360x640", "640x360", "1280x800"])
def test_first_visit_paints_the_layout_python_draws(browser, server, view, left):
    """A first visit at a common size: the card backs stand exactly where
    web/layout.py puts the new deal's cards, so nothing moves when Python takes
    over (its table box is one of tools/firstpaint.py's REFERENCES — if the page's
    style changed the box, add the new one there)."""
    from tools.firstpaint import REFERENCES

    ctx, page = _open(browser, server, view, left)
    got = page.evaluate(PAINTED)
    ctx.close()
    assert got["how"] == "backs"
    assert (got["w"], got["h"]) in REFERENCES
    want = _layout_py(got["w"], got["h"], left)
    assert _backs(got) == want
    assert got["cw"] == f"{layout.geometry(got['w'], got['h'], left).cw}px"


def test_another_size_paints_the_nearest_reference_scaled(browser, server):
    """A table of no reference size (a 400×700 phone): the nearest reference's
    backs, scaled by one factor — card shapes kept, every card on the table, and
    no card more than a few px from where Python will put it."""
    ctx, page = _open(browser, server, {**PHONE, "viewport": {"width": 400, "height": 700}})
    got = page.evaluate(PAINTED)
    ctx.close()
    assert got["how"] == "backs"
    want = _layout_py(got["w"], got["h"], False)
    worst = 0.0
    for name, (x, y, cards) in _backs(got).items():
        wx, wy, wcards = want[name]
        assert len(cards) == len(wcards)
        for (cx, cy), (wcx, wcy) in zip(cards, wcards, strict=True):
            worst = max(worst, math.hypot(x + cx - wx - wcx, y + cy - wy - wcy))
            assert 0 <= x + cx and x + cx + float(got["cw"][:-2]) <= got["w"]
    assert worst <= 6, f"the first paint is {worst:.1f} px off the layout"


def test_a_saved_paint_is_used_if_its_layout_is_this_one_and_scaled_to_a_new_size(browser, server):
    """The exact paint the page saved: used as it is on a table of the same size
    (``saved``), scaled to another (``scaled``: same cards, one factor, inside the
    table); one saved by another layout or view (its ``v``) is not used — it could
    show an older layout, then jump (``backs``)."""
    game = Game.new(7)
    for move in ("D", "D"):
        game.play(move)
    seed = "if (!localStorage.getItem('kosynka.game')) {%s}" % saved_game_script(game)
    ctx, page = _open(browser, server, {**PHONE, "viewport": {"width": 640, "height": 360}}, script=seed)
    seen = {}
    for v in ("another", None):
        page.evaluate("""v => {
            const t = document.getElementById('table');
            const piles = {};
            for (const p of t.querySelectorAll('[data-pile]')) {
                piles[p.dataset.pile] = {style: 'left: 10px; top: 20px; height: 100px;', 'data-empty': null,
                    html: p.dataset.pile === 'waste' ?
                        '<div class="card" data-face="up" data-card="Kh" style="left: 0px; top: 8px;"></div>' : ''};
            }
            localStorage.setItem('kosynka.paint', JSON.stringify({v: v || self.kosynkaFirstPaint.v,
                w: t.clientWidth, h: t.clientHeight, cw: '40px', ch: '56px', piles,
                pos: JSON.stringify(JSON.parse(JSON.parse(localStorage.getItem('kosynka.game')).game).position)}));
        }""", v)
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("!!document.documentElement.dataset.paint")
        seen[v or "this"] = page.evaluate(PAINTED)
    assert seen["another"]["how"] == "backs"
    assert seen["this"]["how"] == "saved"
    assert seen["this"]["piles"]["waste"] == [10, 20, [[0, 8, "Kh"]]]
    page.set_viewport_size({"width": 360, "height": 640})
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function("!!document.documentElement.dataset.paint")
    small = page.evaluate(PAINTED)
    ctx.close()
    assert small["how"] == "scaled"
    s = min(small["w"] / seen["this"]["w"], small["h"] / seen["this"]["h"])
    x, y, cards = small["piles"]["waste"]
    assert (round(y, 3), round(cards[0][1], 3)) == (round(20 * s, 3), round(8 * s, 3))
    assert cards[0][2] == "Kh"     # the same card
    assert small["cw"] == f"{40 * s}px"
    assert 0 <= x and x + 40 * s <= small["w"]


@pytest.mark.parametrize("locale, saved, want", [
    ("en-US", None, "en"), ("ru-RU", None, "ru"), ("de-DE", None, "uk"), ("be-BY", None, "ru"),
    ("en-US", "ru", "ru"), ("uk-UA", "en", "en")])
def test_the_first_paint_speaks_the_language_the_page_will_L1_issue32(browser, server, locale, saved, want):
    """An English browser read "Час / Ходи / Нова" until Python was up; the first
    paint picks by web/i18n's rule (pick_language) on the build's copy of its data."""
    from web.i18n import pick_language, t
    assert pick_language([locale], saved) == want
    script = ("" if saved is None else
              "localStorage.setItem('kosynka.settings', JSON.stringify({v: 1, lang: '%s'}))" % saved)
    ctx, page = _open(browser, server, {**PHONE, "locale": locale}, script=script)
    got = page.evaluate("""() => [document.documentElement.lang, document.title,
        Object.fromEntries([...document.querySelectorAll('[data-t]')].map(e => [e.dataset.t, e.textContent]))]""")
    ctx.close()
    assert got[0] == want and got[1] == t(want, "title")
    assert got[2] == {k: t(want, k) for k in got[2]} and "new" in got[2] and "time" in got[2]
