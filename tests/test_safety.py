"""kosynka.safety: the one safe-to-foundation rule (issue 12 item 5) — the solver's
forced moves and the page's auto-move to foundations."""

import doctest
import itertools

import kosynka.safety
from kosynka import solver
from kosynka.cards import parse_card
from kosynka.game import Game
from kosynka.position import Position, Rules
from kosynka.safety import next_safe_move, safe


def test_doctests():
    assert doctest.testmod(kosynka.safety).failed == 0


def test_the_solver_uses_the_same_rule():
    """The solver imports the rule from here; ``safe`` is ``safe_back`` for the
    card its foundation takes next."""
    assert solver._safe_back is kosynka.safety.safe_back
    for found in itertools.product(range(14), repeat=4):
        for card in range(52):
            nxt = found[card & 3] == card >> 2
            assert safe(card, found) == (nxt and kosynka.safety.safe_back(card, found))


def test_aces_always_twos_once_the_other_colour_is_up():
    assert all(safe(parse_card("A" + s), (0, 0, 0, 0)) for s in "shdc")
    two = parse_card("2s")
    assert not safe(two, (1, 1, 0, 0))   # ♦ ace still down
    assert safe(two, (1, 1, 1, 0))       # both red aces up; the ♣ ace may still be down
    assert not safe(parse_card("3s"), (2, 2, 2, 0))  # ♣ below two ranks under it


def test_next_safe_move_is_legal_and_safe_on_many_deals():
    for number in range(300):
        for rules in (Rules(1), Rules(3, 2)):
            g = Game.new(number, rules)
            for _ in range(60):
                m = next_safe_move(g.position)
                if m is not None:
                    assert safe(parse_card(m.split(">")[0]), g.position.foundations)
                    g.play(m)  # legal, or this raises
                    continue
                moves = [x for x in g.legal_moves()]
                if not moves:
                    break
                g.play(moves[number % len(moves)])


def _waste_ace(rules: Rules) -> Position:
    """A deal after one draw whose waste top is an ace, with no ace on a column top."""
    for number in range(2000):
        p = Position.deal(number, rules)
        if next_safe_move(p) is None:
            p.play("D")
            if p.waste[-1] >> 2 == 0:
                return p
    raise AssertionError("no such deal")


def test_the_waste_top_with_draw_1_only():
    """With draw 3 a talon card never moves by the rule (see ``safe``)."""
    p = _waste_ace(Rules(1))
    assert next_safe_move(p) == p.format_move(p.parse_move(next_safe_move(p)))
    assert next_safe_move(p).endswith(">F")
    assert next_safe_move(_waste_ace(Rules(3))) is None
