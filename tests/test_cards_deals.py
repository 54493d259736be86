"""R1, R2 and the pinned deal-number shuffle."""
import pytest

from kosynka import InvalidCardError, Position, card_name, parse_card
from kosynka.cards import PARENTS, RED
from kosynka.deals import daily_number, deal_cards, shuffled_deck


def test_R1_52_cards_two_colours_ace_low():
    assert sorted(card_name(c) for c in range(52)) == sorted(r + s for r in "A23456789TJQK" for s in "shdc")
    assert [RED[parse_card(n)] for n in ("As", "Ah", "Ad", "Ac")] == [False, True, True, False]
    assert {card_name(c) for c in PARENTS[parse_card("9h")]} == {"Ts", "Tc"}
    assert PARENTS[parse_card("Kd")] == ()
    assert {card_name(c) for c in PARENTS[parse_card("As")]} == {"2h", "2d"}


@pytest.mark.parametrize("bad", ["", "1s", "Tx", "10h", "th", None, 5])
def test_card_names_reject_garbage(bad):
    with pytest.raises(InvalidCardError):
        parse_card(bad)


def test_R2_layout_of_every_deal():
    for n in (0, 1, 2, 99, 2**32 - 1, 2**64 - 1):
        tableau, stock = deal_cards(n)
        assert [len(c) for c in tableau] == [1, 2, 3, 4, 5, 6, 7]
        assert len(stock) == 24
        assert sorted(sum(tableau, []) + stock) == list(range(52))
        p = Position.deal(n)
        assert p.down == [0, 1, 2, 3, 4, 5, 6]
        assert p.waste == () and p.foundations == [0, 0, 0, 0]


PINNED = {
    0: ("Qd/Ts 3h/3s 4c 2c/Js As Kd 8s/4d 3d Td 2s Jd/7s 2d 8d 7d 6d 9h/Qs 9d Ah 2h 5h 6s 4h",
        "Th Ks 3c 6c Jh 5s 7c 6h Ad 7h Tc Qh Qc 5c Kh 8c Kc Ac 9s Jc 5d 8h 4s 9c"),
    1: ("5c/3s 5d/5s Qc 4d/9h 3d Ts Ah/6s 5h 8d 4h Td/Jc 7h 9s Qs 9c Kh/6c Ad 8h 4s Ks 6d Qd",
        "3c Jd 2h 2d Tc 2s 7d Kc 8c Kd Th 7s 6h 4c Jh As Ac 7c 2c 3h 8s Js 9d Qh"),
    2**32 - 1: ("8c/4d 3c/9h Ad 7h/Jh 3d Qh 4c/3h 2c 9d 4h As/Jc 8d 5s 6c Jd 6s/8h Kh 5h Kc 2d 3s Ah",
                "6h 7c Js Ts Kd 2h 5d Qc Td Tc Ac Qs 9s Qd 2s 7s Ks 9c 5c 7d 6d Th 4s 8s"),
}


@pytest.mark.parametrize("number", PINNED)
def test_pinned_whole_layouts(number):
    """The shuffle is ours (kosynka.deals): these layouts never change."""
    tab, stock = PINNED[number]
    data = Position.deal(number).to_json()
    assert "/".join(" ".join(c) for c in data["tableau"]) == tab
    assert " ".join(data["stock"]) == stock


def test_deals_differ_and_repeat():
    assert shuffled_deck(5) == shuffled_deck(5)
    assert len({tuple(shuffled_deck(n)) for n in range(200)}) == 200


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "3", True])
def test_deal_number_range(bad):
    with pytest.raises(ValueError):
        shuffled_deck(bad)


def test_daily_number_is_pinned():
    """The Deal of the day starts its search from these numbers on every device,
    today and in every later version (a changed mix would split the players)."""
    assert daily_number("2026-11-29") == 3959840928
    assert daily_number("2026-11-30") == 994421061
    assert daily_number("2000-01-01") == 3424380697
