"""What the challenge's page (``web.challenge``) needs of the app and of the
solo game, as narrow typed interfaces (issue 28 item 2): ``Page`` (the page's
root, ``web.app.App``) and ``SoloTable`` (``web.solo.Solo``). Solo asks the
challenge back only through ``web.solo.ChallengeSide``."""

from __future__ import annotations

from typing import Protocol

from kosynka.game import Game
from kosynka.position import Rules
from web.dom import Listeners
from web.solo_needs import SoloPage


class SoloTable(Protocol):
    """What the challenge needs of the solo game (``web.solo.Solo``): the game on
    the table and its deal's facts, putting a game there, leaving one. The code
    of the challenge whose game is on the table, ``challenge``, is written here
    and saved with the game by Solo; Solo asks the challenge back only through
    ``web.solo.ChallengeSide``."""

    game: Game | None
    daily: str | None
    mark: str
    recorded: bool
    challenge: str | None

    def set_game(self, game: Game, daily: str | None = None, save: bool = True,
                 mark: str | None = None, recorded: bool = False) -> None: ...
    def in_progress(self) -> bool: ...
    def abandon_current(self) -> None: ...
    def cancel_finish(self) -> None: ...
    def show_link(self) -> None: ...
    def save(self) -> None: ...
    def rules_from_settings(self) -> Rules: ...


class Page(SoloPage, Protocol):
    """What the challenge needs of the page's root (``web.app.App``): what the
    solo game needs (``web.solo_needs.SoloPage``), its listeners and the solo game."""

    listeners: Listeners

    @property
    def solo(self) -> SoloTable: ...
