"""A player's name (issue 28 item 2): one rule in kosynka/names.py with its own
error code, read by the race (as RaceError name/bad) and the challenge alike."""
import pytest

from kosynka import KosynkaError
from kosynka.names import NAME_MAX, InvalidNameError, check_name, numbered
from kosynka.race.table import RaceError
from kosynka.race.table import check_name as race_check_name


@pytest.mark.parametrize("name", ["Анна", "a", "x" * NAME_MAX, "名前 😀", " Olena "])
def test_a_name_is_1_to_24_characters_of_text(name):
    assert check_name(name) == name == race_check_name(name)


@pytest.mark.parametrize("name, why", [("", "some text"), ("   ", "some text"), (None, "some text"),
                                       (7, "some text"), ("x" * (NAME_MAX + 1), "at most 24"),
                                       ("a\nb", "control"), ("a\x00", "control"), ("\ud800", "control")])
def test_a_bad_name_is_refused_with_its_own_code(name, why):
    with pytest.raises(InvalidNameError) as e:
        check_name(name)
    assert isinstance(e.value, KosynkaError) and e.value.code == "name/bad" and why in e.value.detail
    with pytest.raises(RaceError) as r:               # the race says it in its own words
        race_check_name(name)
    assert (r.value.code, r.value.detail) == ("name/bad", e.value.detail)


@pytest.mark.parametrize("name, taken, out", [
    ("Player", [], "Player"),
    ("Player", ["Anna"], "Player"),
    ("Player", ["Player"], "Player 2"),
    ("Player", ["Player", "Player 2"], "Player 3"),
    ("Player", ["Player", "Player 3"], "Player 2"),          # the smallest free number
    (" player ", ["Player"], "player 2"),                     # case and spaces do not tell apart
    ("Игрок", ["ИГРОК", "игрок 2"], "Игрок 3"),
    ("x" * NAME_MAX, ["x" * NAME_MAX], "x" * (NAME_MAX - 2) + " 2"),   # fits in 24
    ("x" * 21 + " yz", ["x" * 21 + " yz"], "x" * 21 + " 2"),          # no space before the cut
])
def test_a_name_in_use_at_a_table_is_numbered(name, taken, out):
    """Issue 32 item 5: unnamed players ("Player" in the page's language) and
    any name typed twice get "Name 2", "Name 3"…, still a valid name."""
    assert numbered(name, taken) == out == check_name(out)
