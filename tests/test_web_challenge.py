"""The challenge's sheets (web.challenge_sheets), built on CPython: what the offer,
the results and a refused link say (issue 20 items 2, 3, 5; L1), that names
from links are escaped, and that every refusal has its own words in every
language."""

from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path

import pytest

from kosynka import challenge as C
from kosynka.challenge import Challenge, check, pack, rank
from kosynka.position import Rules
from kosynka.solver import verified_deal
from web import challenge_sheets as cs
from web.i18n import LANGS, STRINGS

ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def games():
    number, res = verified_deal(7, Rules(1))
    anna = check(pack(Challenge(number, Rules(1), "Anna <b>&'", 192, tuple(res.moves))))
    bohdan = check(pack(Challenge(number, Rules(1), "Bohdan", 40, tuple(res.moves[:3]), reply_to=anna.id)))
    return anna, bohdan


def test_every_refusal_has_its_own_words_in_every_language():
    """Item 5: each fault a code can have (kosynka.challenge raises them; the page
    adds challenge/mismatch) is said in uk, ru and en — and no two alike."""
    src = (ROOT / "kosynka/challenge.py").read_text() + (ROOT / "web/challenge.py").read_text()
    codes = set(re.findall(r'"(challenge/[a-z]+)"', src))
    assert codes >= {"challenge/foreign", "challenge/damaged", "challenge/truncated", "challenge/version",
                     "challenge/huge", "challenge/illegal", "challenge/deal", "challenge/forged",
                     "challenge/mismatch"}
    for lang in LANGS:
        said = [STRINGS[lang].get("ch_err_" + c.split("/")[1]) for c in sorted(codes)]
        assert all(said) and len(set(said)) == len(said), lang
        html = cs.refused_html(lang, "challenge/forged")
        assert "data-challenge-error='challenge/forged'" in html and said[sorted(codes).index(
            "challenge/forged")] in html.replace("&#x27;", "'")


def test_the_challenge_words_are_there_in_every_language_with_the_same_fields():
    fields = lambda s: {f for _, f, _, _ in string.Formatter().parse(s) if f}  # noqa: E731
    for key, text in STRINGS["en"].items():
        if key.startswith("ch_"):
            for lang in LANGS:
                assert fields(STRINGS[lang][key]) == fields(text), (lang, key)


def test_the_offer_says_what_the_replay_gave():
    anna, _ = games()
    html = cs.offer_html("en", anna, kept=True)
    assert f"data-moves='{anna.result.moves}'" in html and "data-won='yes'" in html
    assert "data-kept='yes'" in html and "data-action='play-challenge'" in html
    assert "Anna &lt;b&gt;&amp;&#x27; won deal 7 (Classic, draw 1) in 3:12," in html
    assert "<b>&'" not in html
    assert "data-time-reported" in html and "data-challenge-rule" in html
    for lang, said in (("en", "every move"), ("uk", "кожен хід"), ("ru", "каждый ход")):
        assert cs.offer_html(lang, anna, kept=False).count(said) == 1  # the replay said once, not twice


def test_the_results_side_by_side_and_who_won():
    anna, bohdan = games()
    rows = [cs.Row(anna), cs.Row(bohdan, you=True)]
    html = cs.results_html("uk", rows, answer_url="https://x/#challenge=" + bohdan.code, answer_to="Anna <b>")
    assert "data-outcome='lost'" in html
    assert re.findall(r"data-name='([^']*)' data-you='(yes|no)' data-won='(yes|no)' data-moves='(\d+)' "
                      r"data-place='(\d)'", html) == [
        ("Anna &lt;b&gt;&amp;&#x27;", "no", "yes", str(anna.result.moves), "1"),
        ("Bohdan", "yes", "no", "3", "2")]
    assert "data-challenge-answer-link" in html and "<b>&'" not in html
    assert rank([anna, bohdan], [True, False]).outcome == "won"   # the rule: kosynka.challenge
    assert rank([anna, bohdan], [False, False]).outcome == "none"
    assert rank([anna], [True]).outcome == "tie"  # alone: nobody to beat yet
    assert rank([bohdan, anna, anna]).places == (3, 1, 1)


def test_the_results_stand_best_place_first_whatever_order_the_answers_came_in():
    """A standings table reads 1, 2, 3 down (answers arrive in any order); each
    Watch button, in the same order, still names and opens its own game."""
    anna, bohdan = games()
    number, res = verified_deal(7, Rules(1))
    olena = check(pack(Challenge(number, Rules(1), "Olena", 50, tuple(res.moves[:12]), reply_to=anna.id)))
    rows = [cs.Row(anna, you=True), cs.Row(bohdan), cs.Row(olena)]
    html = cs.results_html("en", rows)
    assert re.findall(r"data-name='(\w+)[^']*'[^>]*data-place='(\d)'", html) == [
        ("Anna", "1"), ("Olena", "2"), ("Bohdan", "3")]
    assert re.findall(r"data-watch='(\d)'>([^<]*)<", html) == [
        ("0", "Watch my game"), ("2", "Watch: Olena"), ("1", "Watch: Bohdan")]


def test_summaries_in_every_language_plural_forms_and_groups():
    anna, bohdan = games()
    assert cs.deal_label(12345678) == "12\u202f345\u202f678"
    # the sign № never stands at a line's end apart from its number (a no-break space)
    assert cs.summary("uk", bohdan) == "Bohdan: 2 карти на базах, роздача №\u00a07 (Класика, по одній), 0:40, 3 ходи"
    assert "№\u00a07 " in cs.summary("ru", anna)
    assert cs.summary("ru", bohdan).endswith("0:40, 3 хода")
    assert cs.summary("en", bohdan).startswith("Bohdan put 2 cards up on deal 7 (Classic, draw 1) in 0:40")
    assert cs.result_text("en", anna).startswith("won in 3:12, ")


def test_the_list_of_challenges():
    anna, bohdan = games()
    html = cs.list_html("en", [(anna, 1)], [anna])
    assert "data-entry='made:0'" in html and "data-entry='taken:0'" in html and "1 answer" in html
    assert "No challenges yet" in cs.list_html("en", [], [])


@pytest.mark.parametrize("lang", LANGS)
def test_the_make_sheet_holds_the_link_and_its_qr_code(lang):
    anna, _ = games()
    url = C.link("https://x.example/", anna.code)
    html = cs.made_html(lang, anna, url, "Anna", share=True)
    assert f"data-challenge-link>{url}<" in html and "<svg" in html
    assert "data-action='challenge-share'" in html and "data-field='challenge-name'" in html
