"""The sheets' HTML (web.sheets), built on CPython: what the win, settings and
records sheets say (T2, F2, S1, L1) and that outside text is escaped."""
import re
from html import escape

import pytest

from kosynka import Rules
from kosynka.records import WinResult
from web import sheets
from web.store import MemoryBackend, Settings, Store


def store_with_wins():
    st = Store(MemoryBackend())
    st.records.record_win("d1", 95, 120, assisted=False)
    st.records.record_win("d3r2", 300, 150, assisted=False, daily="2026-12-01")
    st.records.record_abandon()
    return st


def cell(html, stat):
    return re.search(rf"data-stat='{stat}'>([^<]*)<", html).group(1)


def test_T2_records_list_every_variant_with_a_record_and_the_tables_own():
    html = sheets.records_html("en", store_with_wins(), Rules(3), None)
    assert re.findall(r"data-variant='([^']+)'", html) == ["d1", "d3", "d3r2"]
    row = re.search(r"<tr data-variant='d1'>(.*?)</tr>", html).group(1)
    assert "1:35" in row and ">120<" in row
    assert (cell(html, "played"), cell(html, "won"), cell(html, "win_pct"), cell(html, "streak"),
            cell(html, "best_streak")) == ("3", "2", "67%", "0", "2")
    assert "daily-best" not in html


def test_T2_records_of_the_deal_of_the_day_and_an_unknown_key_skipped():
    st = store_with_wins()
    st.records.best_of["d9x"] = {"time": 1}  # written by some other version
    html = sheets.records_html("en", st, Rules(3, 2), "2026-12-01")
    assert "d9x" not in html
    assert re.search(r"class='daily-best'>[^<]*\(2026-12-01\): 5:00, 150", html)


def test_F2_an_assisted_win_says_so_and_sets_no_record():
    html = sheets.win_html("en", seconds=61, moves=99, score=500, assisted=True,
                           result=WinResult(True, True), records="")
    assert "data-record='no'" in html and "id='win-score'>500<" in html
    assert "id='win-time'>1:01<" in html and "id='win-moves'>99<" in html


def test_S1_a_record_win_with_the_score_off():
    html = sheets.win_html("uk", seconds=30, moves=80, score=None, assisted=False,
                           result=WinResult(False, True), records="<p id='r'></p>")
    assert "data-record='yes'" in html and "win-score" not in html and "<p id='r'></p>" in html
    assert "data-action='again'" in html and "data-action='close'" in html


def test_settings_show_the_choices_and_the_next_deal_note():
    s = Settings(draw=3, redeals=2, score=False, lang="ru")
    html = sheets.settings_html("ru", s, Rules(1), "http://x/#deal=5&draw=1", "")
    pressed = re.findall(r"data-set='(\w+)' data-value='(\w+)' aria-pressed='true'", html)
    assert pressed == [("draw", "3"), ("redeals", "2"), ("score", "off"), ("auto", "off"), ("lang", "ru"),
                       ("theme", "auto"), ("hand", "right")]
    assert "id='variant-note' data-when='next'" in html


def test_issue12_a_variant_dealt_at_once_is_said_so():
    s = Settings(draw=3)
    html = sheets.settings_html("en", s, Rules(3), "http://x/#deal=5&draw=3", "", dealt_now=True)
    assert "data-when='now'>The new variant is dealt now.<" in html
    assert "variant-note" not in sheets.settings_html("en", s, Rules(3), "u", "")


def test_issue12_auto_move_setting_off_by_default():
    html = sheets.settings_html("en", Settings(), Rules(1), "u", "")
    assert "data-set='auto' data-value='off' aria-pressed='true'" in html
    html = sheets.settings_html("en", Settings(auto=True), Rules(1), "u", "")
    assert "data-set='auto' data-value='on' aria-pressed='true'" in html


def test_issue12_assisted_wins_counted_apart_in_the_statistics():
    st = store_with_wins()
    st.records.record_win("d1", 10, 10, assisted=True)
    html = sheets.records_html("en", st, Rules(1), None)
    assert (cell(html, "played"), cell(html, "won"), cell(html, "win_pct"), cell(html, "assisted")) == \
        ("3", "2", "67%", "1")
    assert "Finished by the solver" in html


def test_issue12_verdicts_say_what_to_do_next():
    for lang in ("uk", "ru", "en"):
        for result in ("lost", "unknown"):
            html = sheets.verdict_html(lang, result)
            assert f"data-result='{result}'" in html
            assert "data-action='close'" in html and "data-action='again'" in html
    assert "Undo back" in sheets.verdict_html("en", "lost")
    assert "No path found within the limit" in sheets.verdict_html("en", "unknown")
    # before the first move (Undo is greyed out) the deal itself is judged: no undo advised
    for lang, undo_word in (("en", "undo"), ("uk", "скасуйте"), ("ru", "отмените")):
        for result in ("lost", "unknown"):
            assert undo_word in sheets.verdict_html(lang, result).lower()
            assert undo_word not in sheets.verdict_html(lang, result, undo=False).lower()
    assert "from its first move" in sheets.verdict_html("en", "lost", undo=False)
    same = sheets.settings_html("ru", Settings(draw=1), Rules(1), "http://x/", "")
    assert "variant-note" not in same


def test_outside_text_is_escaped():
    html = sheets.settings_html("en", Settings(), Rules(1), "http://x/#'><script>", "")
    assert "<script>" not in html and "&#x27;&gt;&lt;script&gt;" in html
    assert "<b>" not in sheets.confirm_html("en", "<b>sure?</b>")


def test_issue13_theme_hand_and_the_keys_sheet():
    s = Settings(theme="dark", hand="left")
    html = sheets.settings_html("en", s, Rules(1), "http://x/", "")
    pressed = re.findall(r"data-set='(\w+)' data-value='(\w+)' aria-pressed='true'", html)
    assert ("theme", "dark") in pressed and ("hand", "left") in pressed
    assert "data-action='help'" in html
    for lang in ("uk", "ru", "en"):
        keys = sheets.help_html(lang)
        assert keys.count("<tr>") == 11 and "data-action='close'" in keys and "<h2>" in keys
    assert "<kbd>Enter</kbd>, <kbd>Space</kbd>" in sheets.help_html("en")
    assert "<kbd>Enter</kbd>, <kbd>Пробіл</kbd>" in sheets.help_html("uk")
    assert sheets.help_html("en").count("<kbd>") == 14  # 11 rows; Enter, Space: two; U, Backspace, Ctrl+Z: three


@pytest.mark.parametrize("lang", ["uk", "ru", "en"])
def test_issue32_the_assisted_wins_heading_says_what_happened_F2(lang):
    from web.i18n import t
    html = sheets.win_html(lang, seconds=61, moves=99, score=500, assisted=True,
                           result=WinResult(False, False), records="")
    assert f"<h2>{escape(t(lang, 'win_assisted'))}</h2>" in html and t(lang, "win") not in html
    own = sheets.win_html(lang, seconds=61, moves=99, score=500, assisted=False,
                          result=WinResult(False, False), records="")
    assert f"<h2>{escape(t(lang, 'win'))}</h2>" in own


@pytest.mark.parametrize("lang, moves, want", [
    ("en", 1, "1 move"), ("en", 2, "2 moves"), ("uk", 1, "1 хід"), ("uk", 3, "3 ходи"),
    ("uk", 11, "11 ходів"), ("ru", 21, "21 ход"), ("ru", 22, "22 хода"), ("ru", 25, "25 ходов")])
def test_issue32_the_days_best_counts_moves_by_the_languages_rules(lang, moves, want):
    st = Store(MemoryBackend())
    st.records.record_win("d1", 95, moves, assisted=False, daily="2026-12-01")
    html = sheets.records_html(lang, st, Rules(1), "2026-12-01")
    assert re.search(rf"1:35, {want}</p>", html), html[-200:]


def test_issue32_variant_names_on_the_table_in_every_language_V2():
    from web.i18n import LANGS, variant_short
    variants = [(1, None), (3, None), (3, 2), (1, 0), (1, 1), (1, 3), (3, 0), (3, 1), (3, 3)]
    for lang in LANGS:
        names = [variant_short(lang, d, r) for d, r in variants]
        assert len(set(names)) == len(names) and all(n and "{" not in n for n in names), names
    assert [variant_short("en", d, r) for d, r in variants[:5]] == [
        "Classic · draw 1", "Classic · draw 3", "Turn Three", "Draw 1 · 0 redeals", "Draw 1 · 1 redeal"]
    assert variant_short("ru", 3, 1) == "По 3 · 1 пересдача" and variant_short("uk", 1, 0) == "По 1 · 0 перездач"


def test_issue32_no_english_count_reads_one_moves():
    """The race's screen reader said "Anna: 3 on foundations, 1 face up, 1 moves"."""
    from web.i18n import STRINGS
    assert [k for k, v in STRINGS["en"].items() if re.search(r"\{\w+\} (moves|cards|redeals)\b", v)
            and "|" not in v] == []
