"""Kosynka: Klondike solitaire ("Косинка") engine — pure Python, stdlib only.

Modules: :mod:`~kosynka.cards` (cards as ints, names), :mod:`~kosynka.deals`
(deal numbers → layouts), :mod:`~kosynka.position` (rules, legal moves,
push/pop, notation), :mod:`~kosynka.game` (undo, counters, score, save).
Runs on CPython 3.11+ and on Pyodide; never imports ``js``/``pyodide``.
"""
from .cards import Card, InvalidCardError, card_name, parse_card
from .errors import KosynkaError
from .game import Game, SaveError
from .position import (
                       DRAW,
                       IllegalMoveError,
                       InvalidMoveError,
                       InvalidPositionError,
                       Move,
                       Outcome,
                       Position,
                       Rules,
                       Termination,
)

__all__ = ["Card", "card_name", "parse_card", "InvalidCardError", "Rules", "Position",
           "Move", "DRAW", "Outcome", "Termination", "KosynkaError", "IllegalMoveError",
           "InvalidMoveError", "InvalidPositionError", "Game", "SaveError"]
