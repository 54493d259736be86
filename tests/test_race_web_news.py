"""The race's words for a screen reader (``web.race.news``; issues 11 and 13):
the views of a real race on in-memory links, said in uk/ru/en."""
from __future__ import annotations

import pytest

from kosynka.race import Host, Player
from kosynka.race.memory import Network

from web.race.news import news, settings


class Seen:
    """The views a page would repaint, and what it says between them."""

    def __init__(self, lang, get):
        self.lang, self.get, self.last, self.said = lang, get, None, []

    def look(self):
        v = self.get()
        self.said += news(self.lang, self.last, v)
        self.last = v


def race(lang="en"):
    net = Network()
    host = Host("Anna", net.clock, seed=1)
    anna = host.own_player()
    a, b = net.pair("seat1")
    host.attach(a)
    bo = Player("Bohdan", net.clock)
    hs, bs = Seen(lang, lambda: anna.view), Seen(lang, lambda: bo.view)

    def step():
        net.run()
        hs.look()
        bs.look()

    hs.look()
    bo.connect(b)
    step()
    race.host_end = a
    return net, anna, bo, hs, bs, step


def test_a_race_is_told_in_english():
    net, host, bo, hs, bs, step = race()
    bo.set_ready(True)
    step()
    assert hs.said == ["Bohdan joined the table.", "Bohdan is ready."]
    host.set_settings(3, 5)
    step()
    assert bs.said[-1] == "Settings: three cards, 5 minutes."
    host.start()
    step()
    assert hs.said[-1] == bs.said[-1] == "Go! A new verified deal, three cards, 5 minutes."
    bo.play("D")
    step()  # an opponent's move is not said
    assert hs.said[-1].startswith("Go!")
    bo.offer_draw()
    step()
    assert hs.said[-1] == "Bohdan offers a draw." and bs.said[-1] == "Draw offered; waiting for the answers."
    host.answer_draw(False)
    step()
    assert hs.said[-1] == bs.said[-1] == "No draw: the offer is off."
    bo.resign()
    step()
    assert hs.said[-3:] == ["Bohdan resigned.", "You won!", "Your place: 1 of 2."]
    assert bs.said[-3:] == ["Anna won.", "You lost.", "Your place: 2 of 2."]


def test_ukrainian_and_russian_words_and_plurals():
    assert settings("uk", 1, None) == "по одній, до останньої карти"
    assert settings("uk", 3, 5) == "по три, 5 хвилин"
    assert settings("ru", 1, 15) == "по одной, 15 минут"
    net, host, bo, hs, bs, step = race("uk")
    assert hs.said == ["Bohdan за столом."]
    bo.set_ready(True)
    step()
    host.start()
    step()
    assert hs.said[1:] == ["Bohdan: готово.", "Старт! Нова перевірена роздача, по одній, до останньої карти."]
    before = dict(host.view, phase="lobby")
    assert news("ru", before, dict(before, phase="racing", deal=126515, race=2)) == [
        "Старт! Раздача №126515, по одной, до последней карты."]


@pytest.mark.parametrize("lang", ["uk", "ru", "en"])
def test_a_drop_and_a_comeback_are_said(lang):
    net, host, bo, hs, bs, step = race(lang)
    n = len(hs.said)
    net.cut(race.host_end)
    step()
    assert len(hs.said) == n + 1 and "Bohdan" in hs.said[-1]
    assert news(lang, None, host.view) == []  # the first view: nothing to compare
