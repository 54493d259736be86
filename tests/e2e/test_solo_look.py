"""The solo table as a new player sees it on a phone (upright and on its side) and a
desktop, in uk/ru/en: nothing clipped, tap targets of at least 44 px, a sheet's
closing buttons in sight however long the sheet is (issue 13's comfort, issue 12's
look)."""

from __future__ import annotations

import json

import pytest
from gamekit import open_deal, quiet_page

LANGS = {"uk": "uk-UA", "ru": "ru-RU", "en": "en-US"}
TAP = 44  # px: the smallest comfortable tap target (WCAG 2.5.5, Apple's and Google's guides)


def _page(new_context, lang, size=(360, 640), touch=True):
    page = quiet_page(new_context, "phone" if touch else "desktop", locale=LANGS[lang],
                      viewport={"width": size[0], "height": size[1]})
    page.context.add_init_script("localStorage.setItem('kosynka.settings', %s)"
                                 % json.dumps(json.dumps({"v": 1, "lang": lang})))
    return page


def _small_or_clipped(page, selector) -> list:
    """Controls under ``selector`` smaller than TAP px either way, or whose words do
    not fit in them."""
    return page.evaluate("""([sel, tap]) => [...document.querySelectorAll(sel)].filter(b => {
        const r = b.getBoundingClientRect();
        return r.width > 0 && (r.width < tap - 0.5 || r.height < tap - 0.5 || b.scrollWidth > b.clientWidth + 1);
    }).map(b => [b.textContent, Math.round(b.getBoundingClientRect().width),
                 Math.round(b.getBoundingClientRect().height)])""", [selector, TAP])


@pytest.mark.parametrize("lang", LANGS)
def test_status_bar_fits_a_narrow_phone_with_the_longest_values(new_context, base_url, wait_ready, lang):
    """360 px wide: a six-digit deal of the day proven lost (its mark keeps its
    words), an hour's clock, 999 moves and a four-digit score — every figure whole
    on screen."""
    page = _page(new_context, lang)
    open_deal(page, base_url, wait_ready, 6)  # draw 1: proven lost in the background
    page.wait_for_function("document.body.dataset.verified === 'lost'", timeout=120_000)
    from web.i18n import variant_short
    longest = max((variant_short(lang, d, r) for d in (1, 3) for r in (None, 0, 1, 2, 3)), key=len)
    over = page.evaluate("""longest => {
        document.getElementById('deal-no').textContent = '987654 ★';
        document.getElementById('variant').textContent = longest;
        for (const [id, v] of [['time', '59:59'], ['moves', '999'], ['score', '9999']])
            document.getElementById(id).textContent = v;
        const bar = document.getElementById('bar');
        return [...bar.querySelectorAll('b, span')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5);
        }).map(e => e.id || e.textContent).concat(bar.scrollWidth > bar.clientWidth ? ['bar scrolls'] : []);
    }""", longest)
    assert over == []


@pytest.mark.parametrize("lang", LANGS)
def test_tap_targets_of_the_panel_and_settings(new_context, base_url, wait_ready, lang):
    page = _page(new_context, lang)
    page.goto(base_url + "#deal=7&draw=1")
    wait_ready(page)
    assert _small_or_clipped(page, "#panel button") == []
    page.click("[data-action=settings]")
    page.wait_for_selector("#sheet [data-set=draw]")
    page.click("#sheet summary")
    assert _small_or_clipped(page, "#sheet button, #sheet summary") == []


@pytest.mark.parametrize("size", [(640, 360), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_sheet_keeps_its_closing_buttons_in_sight(new_context, base_url, wait_ready, size):
    """Settings with records and statistics open, on a phone either way up: the
    sheet scrolls, and Close stays where a thumb finds it."""
    page = _page(new_context, "uk", size)
    page.goto(base_url + "#deal=7&draw=1")
    wait_ready(page)
    page.click("[data-action=settings]")
    page.wait_for_selector("#sheet [data-set=draw]")
    page.click("#sheet summary")
    page.evaluate("document.getElementById('sheet').scrollTop = 0")
    assert page.evaluate("(() => { const s = document.getElementById('sheet'); return s.scrollHeight > s.clientHeight; })()")
    seen = page.evaluate("""() => { const b = document.querySelector('#sheet > .buttons:last-child [data-action=close]');
        const r = b.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b && r.bottom <= innerHeight; }""")
    assert seen
    page.click("#sheet > .buttons:last-child [data-action=close]")  # no scrolling needed
    page.wait_for_selector("#dialog", state="hidden")


def test_a_phone_on_its_side_plays_a_whole_draw_3_line_by_touch(new_context, base_url, wait_ready):
    """640×360, touch: the side layout (stock and waste at the left, the waste's fan
    opening downwards, the foundations 2 × 2 at the right) — every tap of a
    verified draw-3 deal's winning line lands where web.layout says, and the game
    is won in exactly the line's moves."""
    from gamekit import NO_BOOT_EXTRAS, counter, solver_line, table_frame, tap_points

    from kosynka.game import Game
    from kosynka.position import Rules

    page = new_context("phone", boot=NO_BOOT_EXTRAS, viewport={"width": 640, "height": 360}).new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_deal(page, base_url, wait_ready, 12, draw=3)
    geom, origin = table_frame(page)
    assert geom.side
    line = solver_line(12, 3)
    g = Game.new(12, Rules(3))
    for move in line:
        for x, y in tap_points(g, move, geom, origin):
            page.touchscreen.tap(x, y)
        g.play(move)
        page.wait_for_function(f"document.getElementById('moves').textContent === '{g.moves}' "
                               "|| document.body.dataset.state === 'won'")
    page.wait_for_function("document.body.dataset.state === 'won'", timeout=60_000)
    assert counter(page, "moves") == str(len(line))
    assert not errors


@pytest.mark.parametrize("size", [(360, 640), (640, 360), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_status_bar_does_not_jump_as_figures_grow(new_context, base_url, wait_ready, size):
    """Moves 9 → 10 → 100, score 5 → 50 → 500, the clock 0:09 → 9:59, and the
    first paint's "№ …" (no mark yet) → deal 7 → a six-digit deal, ✓ verified:
    every figure and word of the bar stays where it was."""
    page = _page(new_context, "uk", size, touch=size[0] < 700)
    page.goto(base_url + "#deal=7&draw=1")
    wait_ready(page)
    page.wait_for_function("document.body.dataset.verified === 'verified'", timeout=60_000)
    where = []
    for deal, moves, score, clock in (("…", "9", "5", "0:09"), ("7", "10", "50", "1:00"),
                                      ("987654", "100", "500", "9:59")):
        where.append(page.evaluate("""([d, m, s, c]) => {
            document.getElementById('deal-no').textContent = d;
            document.getElementById('deal-mark').hidden = d === '…';  // web/boot/paint.js draws no mark
            document.getElementById('moves').textContent = m;
            document.getElementById('score').textContent = s;
            document.getElementById('time').textContent = c;
            return [...document.querySelectorAll('#bar .stat > span:not(#deal-mark)')].map(
                e => Math.round(e.getBoundingClientRect().left));
        }""", [deal, moves, score, clock]))
    assert where[0] == where[1] == where[2]


def test_a_message_from_before_does_not_cover_a_sheet(new_context, base_url, wait_ready):
    """Hints on (a message for 1.5 s), then Finish at once: the question is not
    covered by the old message; Copy in Settings still says "Copied"."""
    page = _page(new_context, "en", (640, 360))
    page.goto(base_url + "#deal=7&draw=1")
    wait_ready(page)
    page.click("[data-action=hint]")
    assert page.evaluate("document.getElementById('toast').classList.contains('show')")
    page.click("[data-action=finish]")
    page.wait_for_selector("#sheet [data-action=confirm]")
    assert not page.evaluate("document.getElementById('toast').classList.contains('show')")
    page.keyboard.press("Escape")
    page.click("[data-action=settings]")
    page.click("#sheet [data-action=copy]")
    page.wait_for_function("document.getElementById('toast').classList.contains('show')")


TOASTS = ("copied thinking race_host_gone no_storage bad_link_kept bad_link_new variant_next update "
          "other_tab no_redeal looking hints_on hints_off gave_up dead_end bad_save bad_data ch_too_long "
          "ch_no_way ch_back").split()


@pytest.mark.parametrize("size", [(360, 640), (1280, 800)])
@pytest.mark.parametrize("hand", ["right", "left"])
def test_toasts_never_cover_a_control_issue32(new_context, base_url, wait_ready, size, hand):
    """Every message the table shows, in uk, ru and en, on a phone and a desktop with
    either hand: over no button, pile or card, and its words fit where it shows
    ("Hints on." covered Restart and Undo on a phone)."""
    from web.i18n import STRINGS
    page = _page(new_context, "en", size, touch=size[0] < 700)
    page.context.add_init_script("localStorage.setItem('kosynka.settings', %s)"
                                 % json.dumps(json.dumps({"v": 1, "lang": "en", "hand": hand})))
    page.goto(base_url + "#deal=7&draw=1")
    wait_ready(page)
    page.click("[data-action=hint]")  # a real toast first
    page.wait_for_selector("#toast.show")
    texts = [STRINGS[lang][k] for lang in LANGS for k in TOASTS] + [STRINGS["uk"]["daily"] + " 2026-12-05"]
    bad = page.evaluate("""texts => {
        const toast = document.getElementById('toast');
        const controls = [...document.querySelectorAll('button, [data-pile], .card, input, a[href]')]
            .filter(e => !e.closest('#toast') && e.getBoundingClientRect().width > 0);
        const out = [];
        for (const text of [toast.textContent, ...texts]) {
            toast.textContent = text;
            const t = toast.getBoundingClientRect();
            for (const c of controls) {
                const r = c.getBoundingClientRect();
                if (r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom)
                    out.push([text.slice(0, 20), c.dataset.action || c.dataset.pile || c.className]);
            }
            if (toast.scrollHeight > toast.clientHeight + 1 || toast.scrollWidth > toast.clientWidth + 1)
                out.push([text.slice(0, 20), 'does not fit']);
        }
        return out; }""", texts)
    assert bad == []
    assert page.evaluate("getComputedStyle(document.getElementById('toast')).opacity") == "1"


@pytest.mark.parametrize("lang", LANGS)
def test_the_variant_is_named_on_the_table_and_a_check_is_a_named_spinner_issue32(
        new_context, base_url, wait_ready, lang):
    from web.i18n import t, variant_short
    page = _page(new_context, lang)
    page.goto(base_url + "#deal=7&draw=3&redeals=2")
    wait_ready(page)
    assert page.text_content("#variant") == variant_short(lang, 3, 2)
    mark = page.evaluate("""() => { const m = document.getElementById('deal-mark');
        m.dataset.probe = 1; return [m.dataset.mark, m.querySelector('b').textContent, m.getAttribute('aria-label')]; }""")
    if mark[0] == "checking":  # no bare "…": a spinner named by its sentence
        assert mark[1:] == ["", t(lang, "mark_checking_title")]
    page.evaluate("location.hash = '#deal=7&draw=1&redeals=1'")
    page.wait_for_function("document.body.dataset.variant === 'd1r1'")
    assert page.text_content("#variant") == variant_short(lang, 1, 1)
