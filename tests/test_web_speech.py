"""What a screen reader hears (issue 13, web.speech): cards and piles named in
uk/ru/en, face-down cards never named, and what a move, a draw, a redeal, a
turned-up card and the win say (L1)."""
from kosynka import Game, Position, Rules
from kosynka.cards import parse_card
from web import speech


def test_cards_are_named_in_every_language():
    c = parse_card("9h")
    assert speech.card("en", c) == "nine of hearts"
    assert speech.card("uk", c) == "дев'ятка чирв"
    assert speech.card("ru", c) == "девятка червей"
    assert speech.card("en", parse_card("Ts")) == "ten of spades"
    assert speech.card_label("en", c, up=False) == "1 card face down"


def test_plurals():
    assert [speech.plural("uk", "cards_n", n) for n in (1, 3, 5, 11, 21, 24)] == [
        "1 карта", "3 карти", "5 карт", "11 карт", "21 карта", "24 карти"]
    assert [speech.plural("en", "cards_n", n) for n in (1, 2)] == ["1 card", "2 cards"]


def test_piles_say_what_they_show_and_hide_face_down_cards():
    g = Game.new(7, Rules(1, 2))
    pos = g.position
    assert speech.pile_label("en", pos, "stock") == "Stock: 24 cards, 2 redeals left"
    assert speech.pile_label("en", pos, "waste") == "Waste: empty"
    assert speech.pile_label("en", pos, "f2") == "Foundation of hearts: empty"
    col = speech.pile_label("en", pos, "t3")
    top = speech.card("en", pos.columns[2][-1])
    assert col == f"Column 3: {top}, 2 cards face down"
    for c in pos.columns[2][:2]:  # the face-down cards are not named
        assert speech.card("en", c) not in col
    assert speech.pile_label("uk", pos, "t7").startswith("Стовпчик 7: ")
    assert speech.pile_label("ru", pos, "stock") == "Колода: 24 карты, пересдач осталось: 2"


def test_a_column_reads_top_down_and_names_the_chosen_card():
    pos = Position.from_json(Game.new(7).position.to_json())
    pos.columns = [list(c) for c in pos.columns]
    pos.columns[2] = [parse_card("Kc"), parse_card("Ts"), parse_card("9h")]
    pos.down = list(pos.down)
    pos.down[2] = 1
    label = speech.pile_label("en", pos, "t3", chosen=1)
    assert label == "Column 3 (selected: ten of spades): nine of hearts on ten of spades, 1 card face down"
    assert "selected" not in speech.pile_label("en", pos, "t3", chosen=2)


def test_what_an_action_did_is_said_from_the_engine():
    g = Game.new(7)
    g.play("D")
    assert speech.said("en", g.last, g.position) == (
        f"Drew: {speech.card('en', g.position.waste[-1])}.")
    move = next(m for m in g.legal_moves() if m != "D" and not m.endswith("F"))
    g.play(move)
    card, dest = move.split(">")
    said = speech.said("en", g.last, g.position)
    assert said.startswith(f"{speech.card('en', parse_card(card))} to column {dest}.")
    src = g.last.src
    g.undo()
    assert speech.said("en", g.last, g.position) == (
        f"Undone. {speech.card('en', parse_card(card))} to column {src + 1}.")
    assert speech.said("en", None, g.position) == ""


def test_a_card_turned_up_and_the_win_are_said():
    from kosynka.position import Rules
    from kosynka.solver import verified_deal
    number, res = verified_deal(0, Rules(1, None))
    g = Game.new(number, Rules(1, None))
    turned = []
    for m in res.moves:
        g.play(m)
        if g.last.turned is not None:
            turned.append(speech.said("en", g.last, g.position))
    assert turned and all("Turned up: " in x for x in turned)
    assert speech.said("en", g.last, g.position).endswith("You won!")


def test_a_redeal_is_said_with_the_redeals_left():
    g = Game.new(7, Rules(1, 1))
    while g.position.stock:
        g.play("D")
    g.play("D")
    assert speech.said("en", g.last, g.position) == "Stock turned over. 0 redeals left"
