"""Property tests over random legal play in every variant (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from kosynka import Game, Move, Position, Rules, card_name

VARIANTS = [Rules(1), Rules(3), Rules(3, 2), Rules(1, 0), Rules(1, 1), Rules(3, 3), Rules(1, 3)]


class Clock:
    t = 0.0

    def __call__(self):
        return self.t


def all_cards(p: Position) -> list[int]:
    cards = [c for col in p.columns for c in col] + list(p.stock) + list(p.waste)
    cards += [r * 4 + s for s in range(4) for r in range(p.foundations[s])]
    return sorted(cards)


@settings(max_examples=150, deadline=None)
@given(number=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS),
       choices=st.lists(st.integers(0, 10**6), min_size=30, max_size=300))
def test_random_play_keeps_every_invariant(number, variant, choices):
    clock = Clock()
    g = Game.new(number, variant, clock=clock)
    history = []                      # (position, score) before each move still undoable
    for k in choices:
        clock.t += 0.7
        legal = g.legal_moves()
        if g.is_won or (not legal and not g.can_undo):
            break
        if g.can_undo and (not legal or k % 9 == 0):
            revealed = list(g.position.down)
            g.undo()
            # undo restores the exact previous state and score, except that the
            # cards the move turned up stay up (C5)
            expected, score = history.pop()
            expected.down = [min(a, b) for a, b in zip(expected.down, revealed, strict=True)]
            assert g.position == expected and g.position.fan == expected.fan
            assert g.score == score
        else:
            history.append((g.position.copy(), g.score))
            g.play(legal[k % len(legal)])
            # pop is the exact inverse of push
            probe = g.position.copy(stack=True)
            probe.pop()
            assert probe == history[-1][0] and probe.fan == history[-1][0].fan
        assert all_cards(g.position) == list(range(52))
        assert g.score >= 0
    # save/load round-trips exactly, and replaying the log reproduces the position
    h = Game.from_json(g.to_json(), clock=Clock())
    assert h.position == g.position and h.position.fan == g.position.fan
    assert (h.score, h.moves, h.log) == (g.score, g.moves, g.log)
    replay = Game.new(number, variant)
    for action in g.log:
        replay.undo() if action == "U" else replay.play(action)
    assert replay.position == g.position and replay.score == g.score


@settings(max_examples=40, deadline=None)
@given(number=st.integers(0, 2**64 - 1), variant=st.sampled_from(VARIANTS),
       depth=st.integers(0, 60))
def test_legal_moves_are_exactly_the_moves_parse_accepts(number, variant, depth):
    p = Position.deal(number, variant)
    for i in range(depth):
        moves = list(p.legal_moves)
        if not moves:
            break
        p.push(moves[(number >> (i % 60)) % len(moves)])
    legal = {p.format_move(m) for m in p.legal_moves}
    accepted = set()
    for c in range(52):
        for dest in "F1234567":
            text = f"{card_name(c)}>{dest}"
            try:
                p.parse_move(text)
            except ValueError:
                continue
            accepted.add(text)
    if p.stock or p.can_redeal():
        accepted.add("D")
    assert legal == accepted


@settings(max_examples=40, deadline=None)
@given(number=st.integers(0, 2**64 - 1), variant=st.sampled_from(VARIANTS),
       choices=st.lists(st.integers(0, 10**6), min_size=0, max_size=80))
def test_is_legal_and_targets_say_what_legal_moves_says(number, variant, choices):
    """Position.is_legal answers ``move in legal_moves`` for every Move(src, dst,
    count), and targets lists every legal destination of a card, in positions
    reached by play with undos (C5: a column's face-up cards need not be one run)."""
    g = Game.new(number, variant)
    for k in choices:
        legal = g.legal_moves()
        if g.is_won or not legal:
            break
        if g.can_undo and k % 5 == 0:
            g.undo()
        else:
            g.play(legal[k % len(legal)])
    p = g.position
    legal = set(p.legal_moves)
    judged = {Move(s, d, n) for s in range(13) for d in range(13) for n in range(15)
              if p.is_legal(Move(s, d, n))}
    assert judged == legal
    for c in range(52):
        dests = sorted({p.format_move(m).split(">")[1] for m in legal
                        if m.src != 12 and p.format_move(m).startswith(card_name(c) + ">")},
                       key="F1234567".index)
        assert p.targets(c) == dests
