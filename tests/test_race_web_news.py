"""The race's words (``web.race.news``; issues 11, 13, 18): the events of a
real race on in-memory links, said in uk/ru/en — what happened, as the table
knew it, never a comparison of two views."""
from __future__ import annotations

import pytest

from kosynka.race import Host, Player
from kosynka.race.memory import Network
from web.race.news import ending, settings, told, why


class Seen:
    """What one page says: the events its player has had, in words."""

    def __init__(self, lang, player):
        self.lang, self.player, self.said = lang, player, []

    def look(self):
        self.said += told(self.lang, self.player.take_events(), self.player.view)


def race(lang="en", friends=("Bohdan",)):
    net = Network()
    host = Host("Anna", net.clock, seed=1)
    anna = host.own_player()
    players = [anna]
    ends = []
    for i, name in enumerate(friends):
        a, b = net.pair(f"seat{i + 1}")
        host.attach(a)
        p = Player(name, net.clock)
        p.connect(b)
        players.append(p)
        ends.append(a)
    seen = [Seen(lang, p) for p in players]

    def step():
        net.run()
        for s in seen:
            s.look()

    step()
    return net, host, players, seen, step, ends


def test_a_race_is_told_in_english():
    net, host, (anna, bo), (hs, bs), step, _ = race()
    bo.set_ready(True)
    step()
    assert hs.said == ["Bohdan joined the table.", "Bohdan is ready."]
    anna.set_settings(3, 5)
    step()
    assert bs.said[-1] == "Settings: three cards, 5 minutes."
    anna.start()
    step()
    assert hs.said[-1] == bs.said[-1] == "Go! A new verified deal, three cards, 5 minutes."
    bo.play("D")
    step()  # an opponent's move is not said
    assert hs.said[-1].startswith("Go!")
    bo.offer_draw()
    step()
    assert hs.said[-1] == "Bohdan offers a draw." and bs.said[-1] == "Draw offered; waiting for the answers."
    anna.answer_draw(False)
    step()
    assert bs.said[-1] == "Anna declined the draw." and hs.said[-1] == "You declined the draw."
    bo.resign()
    step()
    assert hs.said[-4:] == ["Bohdan resigned.", "Everyone else is out: Anna wins.", "You won!",
                            "Your place: 1 of 2."]
    assert bs.said[-3:] == ["Everyone else is out: Anna wins.", "You lost.", "Your place: 2 of 2."]


def test_resigning_while_the_others_race_on_is_said_to_you():
    net, host, (anna, bo, vi), (hs, bs, vs), step, _ = race(friends=("Bohdan", "Vira"))
    for p in (bo, vi):
        p.set_ready(True)
    step()
    anna.start()
    step()
    bo.resign()
    step()
    assert bs.said[-1] == "You resigned — the race goes on without you."
    assert hs.said[-1] == vs.said[-1] == "Bohdan resigned."
    vi.offer_draw()
    step()
    anna.play("D")              # a move before agreeing cancels the offer (N7)
    step()
    assert vs.said[-1] == "Anna moved: the draw offer is off."


def test_ukrainian_and_russian_words_and_plurals():
    assert settings("uk", 1, None) == "по одній, до останньої карти"
    assert settings("uk", 3, 5) == "по три, 5 хвилин"
    assert settings("ru", 1, 15) == "по одной, 15 минут"
    net, host, (anna, bo), (hs, bs), step, _ = race("uk")
    assert hs.said == ["Bohdan за столом."]
    bo.set_ready(True)
    step()
    anna.start()
    step()
    assert hs.said[1:] == ["Bohdan: готово.", "Старт! Нова перевірена роздача, по одній, до останньої карти."]
    short = {"n": 9, "kind": "started", "pid": None, "name": None, "race": 2, "deal": 126515,
             "draw": 1, "minutes": None}
    assert told("ru", [short], anna.view) == ["Старт! Раздача №126515, по одной, до последней карты."]
    bo.offer_draw()
    step()
    anna.answer_draw(False)
    step()
    assert bs.said[-1] == "Anna відхиляє нічию."


@pytest.mark.parametrize("lang", ["uk", "ru", "en"])
def test_a_drop_and_a_comeback_are_said(lang):
    net, host, (anna, bo), (hs, bs), step, ends = race(lang)
    n = len(hs.said)
    net.cut(ends[0])
    step()
    assert len(hs.said) == n + 1 and "Bohdan" in hs.said[-1]
    assert told(lang, [], anna.view) == []


@pytest.mark.parametrize("lang", ["uk", "ru", "en"])
def test_every_ending_and_every_place_has_its_words(lang):
    from web.i18n import t
    view = {"you": 0, "players": [{"pid": 0, "name": "Anna"}, {"pid": 1, "name": "Bo"}],
            "standings": []}
    for reason, by in (("all_up", None), ("last_left", None), ("agreed", None),
                       ("time_up", "foundation"), ("time_up", "face_up"), ("time_up", "tie")):
        end = {"reason": reason, "winners": [1] if by != "tie" and reason != "agreed" else [],
               "drawn": [0, 1] if by == "tie" or reason == "agreed" else [], "decided_by": by}
        words = ending(lang, dict(view, end=end))
        assert words and "{" not in words and (reason == "agreed" or "Bo" in words)
        assert words.startswith(t(lang, "race_time_up")) == (reason == "time_up")
    for w in ("all_up", "last_left", "agreed", "foundation", "face_up", "tie", "resigned",
              "counted_out"):
        words = why(lang, {"why": w, "foundation": 12, "face_up": 30})
        assert words and "{" not in words
        assert ("12" in words) == (w in ("foundation", "face_up", "tie"))


@pytest.mark.parametrize("lang, left, closed", [
    ("en", "Bohdan resigned. Bohdan left the table.", "Anna closed the table: the race has ended, with no result."),
    ("uk", "Bohdan визнає поразку. Bohdan більше не за столом.", "Стіл Anna закрито — гонку закінчено без результату."),
    ("ru", None, "Стол Anna закрыт — гонка окончена без результата."),
])
def test_issue30_leave_and_a_closed_table_are_told(lang, left, closed):
    """N12: a friend's Leave mid-race is told to everyone at once; N13: the host's
    Leave closes the table, told to every friend."""
    net, host, (anna, bo, vi), (hs, bs, vs), step, _ = race(lang, ("Bohdan", "Vira"))
    bo.set_ready(True)
    vi.set_ready(True)
    step()
    anna.start()
    step()
    bo.leave()
    step()
    if left is not None:
        assert " ".join(hs.said[-2:]) == " ".join(vs.said[-2:]) == left
    anna.leave()
    step()
    assert vs.said[-1] == closed


def test_issue30_a_table_not_heard_for_the_grace_is_gone_in_words_that_blame_nobody():
    net, host, (anna, bo), (hs, bs), step, ends = race()
    net.cut(ends[0])
    step()
    net.run(until=net.now + 61)
    bo.tick()
    bs.look()
    assert bs.said[-1] == "Anna's table has not answered for 60 s: the race has ended here, with no result."
