"""What the solo game (``web.solo``, with its Finish in ``web.finish``) needs of
the page's root (``web.app.App``), as a narrow typed interface (issue 28 item 2):
``SoloPage``. The challenge's page needs the same and a little more
(``web.challenge_needs.Page``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from web.dialogs import Dialogs
    from web.input import TableInput
    from web.modes import Mode
    from web.solve import SolverClient
    from web.store import Settings, Store
    from web.view import TableView


class SoloPage(Protocol):
    """The page's parts the solo game plays through, its one mode, its words."""

    lang: str
    tab: str
    mode: Mode
    settings: Settings
    store: Store
    view: TableView
    input: TableInput
    dialogs: Dialogs
    solver: SolverClient

    def set_mode(self, mode: Mode) -> None: ...
    def update_status(self) -> None: ...
    def tr(self, key: str) -> str: ...
    def toast(self, text: str, ms: int = ...) -> None: ...
    def hide_toast(self) -> None: ...
