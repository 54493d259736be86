"""Links say what they do (issue 12 item 1, V2): a link that names no deal says so
and deals a new one; the query form a person types works like the hash form."""

from __future__ import annotations

import pytest
from gamekit import NO_BOOT_EXTRAS

from kosynka.deals import daily_number
from kosynka.position import Rules
from kosynka.solver import VerifiedDealSearch

MESSAGE = {"en": "That link names no deal — here is a new one.",
           "uk": "Це посилання не називає роздачі — ось нова.",
           "ru": "Эта ссылка не называет расклада — вот новый."}
# one bad link per part of the address the page reads (the hash, the query): what the
# page does with it is the same for every bad link; each bad form is read in
# tests/test_web_store.py (abc, -5, draw=7, 2**64, garbage, an empty deal, ?deal=abc)
BAD = ["#deal=18446744073709551616", "?deal=abc"]


def open_page(new_context, lang="en"):
    ctx = new_context("phone", boot=NO_BOOT_EXTRAS, reduced_motion="reduce", locale=lang)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def toast(page) -> str:
    page.wait_for_selector("#toast.show")
    return page.text_content("#toast")


@pytest.mark.parametrize("bad", BAD)
def test_a_link_that_names_no_deal_says_so_and_deals_a_new_one(new_context, base_url, wait_ready, bad):
    page = open_page(new_context)
    page.goto(base_url + bad)
    wait_ready(page)
    assert toast(page) == MESSAGE["en"]
    deal = page.evaluate("document.body.dataset.deal")
    assert page.evaluate("location.hash") == f"#deal={deal}&draw=1"  # the address names the new deal
    assert page.evaluate("location.search") == ""
    assert page.evaluate("document.body.dataset.verified") == "verified"  # a new deal is verified (V1)
    assert not page.errors


def toast_lines(page) -> int:
    """The lines the message takes on screen."""
    return page.evaluate("""() => { const r = document.createRange();
        r.selectNodeContents(document.getElementById('toast'));
        return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size; }""")


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_the_message_in_every_language(new_context, base_url, wait_ready, lang):
    """On a 360-px phone the message uses the screen's width: two lines, not a
    narrow column of four (it was held to half the screen)."""
    page = open_page(new_context, lang)
    page.goto(base_url + "#deal=abc")
    wait_ready(page)
    assert toast(page) == MESSAGE[lang]
    assert toast_lines(page) <= 2


def test_the_query_form_works_like_the_hash_form(new_context, base_url, wait_ready):
    page = open_page(new_context)
    page.goto(base_url + "?deal=42&draw=3")
    wait_ready(page)
    assert page.evaluate("[document.body.dataset.deal, document.body.dataset.variant]") == ["42", "d3"]
    assert page.evaluate("location.search + location.hash") == "#deal=42&draw=3"
    assert page.locator("#toast.show").count() == 0
    assert not page.errors


def test_an_edited_address_during_play_keeps_the_game_and_says_so(new_context, base_url, wait_ready):
    page = open_page(new_context)
    page.goto(base_url + "#deal=42&draw=1")
    wait_ready(page)
    page.evaluate("location.hash = '#deal=zzz'")
    assert toast(page) == "That link names no deal — your game goes on."
    assert page.evaluate("[document.body.dataset.deal, location.hash]") == ["42", "#deal=42&draw=1"]
    assert not page.errors


DAY = "2026-12-05"


def day_deal(date: str = DAY) -> int:
    """The day's own deal: the first verified deal at or after its starting number."""
    search = VerifiedDealSearch(daily_number(date), Rules())
    while (found := search.step(10_000)) is None:
        pass
    return found[0]


def test_a_daily_field_counts_only_for_that_days_own_deal_issue32(new_context, base_url, wait_ready):
    page = open_page(new_context)
    page.goto(base_url + f"#deal=1&daily={DAY}")
    wait_ready(page)
    # deal 1 is not that day's deal: an ordinary deal, its address says so
    assert page.text_content("#deal-no") == "1"
    assert page.evaluate("location.hash") == "#deal=1&draw=1"
    number = day_deal()
    page.evaluate(f"location.hash = '#deal={number}&daily={DAY}'")
    page.wait_for_function(f"document.getElementById('deal-no').textContent === '{number} ★'")
    assert page.evaluate("location.hash") == f"#deal={number}&draw=1&daily={DAY}"
    page.reload()  # kept with the saved game
    wait_ready(page)
    assert page.text_content("#deal-no") == f"{number} ★"
    assert not page.errors
