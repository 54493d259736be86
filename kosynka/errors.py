"""The one error base class of the package.

Every error ``kosynka`` raises for bad input is a :class:`KosynkaError`, itself a
``ValueError`` (as python-chess's move errors are): ``except KosynkaError``
catches what the engine refuses, whatever the kind, and older code catching
``ValueError`` or a particular class keeps working. The classes, each in the
module whose input it refuses:

* :class:`~kosynka.cards.InvalidCardError` — not a card name;
* :class:`~kosynka.position.InvalidMoveError` — text that is not notation;
* :class:`~kosynka.position.IllegalMoveError` — a move the rules forbid here;
* :class:`~kosynka.position.InvalidPositionError` — piles no game can have;
* :class:`~kosynka.game.SaveError` — a saved game that cannot be loaded;
* :class:`~kosynka.messages.MessageError` — a peer's message that is refused;
* :class:`~kosynka.race.table.RaceError` — a race action the table's rules refuse.

The command line's own ``UsageError`` (exit status 2) is not one: it is how a
subcommand reports bad arguments, not an error of the engine.
"""

from __future__ import annotations

__all__ = ["KosynkaError"]


class KosynkaError(ValueError):
    """Input the engine refuses; the message says what and why."""
