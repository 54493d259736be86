"""One layout (issue 9 item 5): the first paint before Python (web/boot/paint.js)
and the Python renderer (web/layout.py) put every pile and card in the same place,
compared at three table sizes (a phone, a tablet, a desktop) for positions with
every kind of pile."""
from __future__ import annotations

import pytest

from kosynka import Game, Rules
from kosynka.cards import card_name

from web import layout

from gamekit import WIN_DEAL, solver_line

# the table box of 360×640, 768×1024, 1280×800, 640×360 (the side layout), 1280×600
SIZES = [(360, 531.5), (768, 900), (1280, 691), (640, 279), (1000, 519)]


def _positions():
    g1 = Game.new(7)
    for m in ("D", "D", "D", "D"):
        g1.play(m)
    g3 = Game.new(12, Rules(3))
    for m in ("D", "D"):
        g3.play(m)
    late = Game.new(WIN_DEAL)  # long columns, foundations, a waste
    line = solver_line(WIN_DEAL)
    for m in line[: len(line) * 2 // 3]:
        late.play(m)
    return [g1.position, g3.position, late.position]


@pytest.fixture(scope="module")
def paint_page(browser, server):
    ctx = browser.new_context(viewport={"width": 800, "height": 600})
    # only paint.js is needed: keep Python from starting
    ctx.route("**/web/vendor/pyscript/**", lambda route: route.abort())
    page = ctx.new_page()
    page.goto(server.url, wait_until="domcontentloaded")
    page.wait_for_function("!!window.kosynkaPaintLayout")
    yield page
    ctx.close()


def _python_places(pos, geom) -> dict:
    out = {name: [] for name in layout.PILES}
    placed = layout.places(pos, geom, lambda r, s: r * 4 + s)
    for c, p in sorted(placed.items(), key=lambda kv: kv[1].index):
        out[p.pile].append([card_name(c) if p.up else None, p.x, p.y])
    return out


@pytest.mark.parametrize("left", [False, True], ids=["right-handed", "left-handed"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_paint_js_and_layout_py_agree(paint_page, size, left):
    w, h = size
    g = layout.geometry(w, h, left)
    js = paint_page.evaluate("([w, h, l]) => { const L = window.kosynkaPaintLayout, g = L.geometry(w, h, l);"
                             " return [g, Object.fromEntries(" + repr(list(layout.PILES)) +
                             ".map(n => [n, L.pileBox(g, n)]))]; }", [w, h, left])
    jg, boxes = js
    assert (jg["cw"], jg["ch"], jg["gap"], jg["top"], jg["colTop"], jg["fd"], jg["fu"], jg["fan"], jg["xs"],
            jg["side"], jg["sx"]) == (g.cw, g.ch, g.gap, g.top, g.col_top, g.fd, g.fu, g.fan, g.x, g.side, g.sx)
    assert {n: list(g.pile_box(n)) for n in layout.PILES} == boxes
    for pos in _positions():
        want = _python_places(pos, g)
        got = paint_page.evaluate("([w, h, l, pos]) => { const L = window.kosynkaPaintLayout;"
                                  " return L.places(pos, L.geometry(w, h, l)); }", [w, h, left, pos.to_json()])
        assert got == want


def test_a_paint_saved_by_another_layout_version_is_not_used(browser, server):
    """A device that saved its table's paint before the side layout (v1) would
    show the old layout for a moment and then jump: such a paint is not used,
    the saved game is laid out afresh (``html[data-paint] = game``); the same
    paint of this version is (``saved``)."""
    from gamekit import saved_game_script

    ctx = browser.new_context(viewport={"width": 640, "height": 360})
    ctx.route("**/web/vendor/pyscript/**", lambda route: route.abort())
    ctx.add_init_script("if (!localStorage.getItem('kosynka.game')) {%s}" % saved_game_script(Game.new(7)))
    page = ctx.new_page()
    seen = {}
    for v in (1, 2):
        page.goto(server.url, wait_until="domcontentloaded")
        page.wait_for_function("!!document.documentElement.dataset.paint")
        page.evaluate("""([v, names]) => {
            const env = JSON.parse(localStorage.getItem('kosynka.game'));
            const pos = JSON.stringify(JSON.parse(env.game).position);
            const t = document.getElementById('table');
            const piles = Object.fromEntries(names.map(n => [n, {style: 'left: 0px', html: ''}]));
            localStorage.setItem('kosynka.paint', JSON.stringify(
                {v, w: t.clientWidth, h: t.clientHeight, pos, cw: '40px', ch: '56px', piles}));
        }""", [v, list(layout.PILES)])
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("!!document.documentElement.dataset.paint")
        seen[v] = page.evaluate("document.documentElement.dataset.paint")
    assert seen == {1: "game", 2: "saved"}
    ctx.close()
