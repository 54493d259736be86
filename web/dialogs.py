"""The sheet over the table (``#dialog`` > ``#sheet``): open, close, confirm, and
routing of the taps inside it to the owner's callbacks. Its HTML comes from
``web.sheets``.

Decisions (user-visible):
- A tap that opened the sheet (e.g. the winning move) is followed by the browser's
  click at the same spot: only clicks whose press began inside the open sheet (or
  keyboard clicks) count.
- A tap outside the sheet closes it, except a confirmation, which waits for an
  answer. Escape closes any sheet (a confirmation as "no").
"""

from __future__ import annotations

from typing import Callable

from web import sheets
from web.dom import Listeners, document, nil


class Dialogs:
    def __init__(self, listeners: Listeners, *, on_action: Callable[[str], None],
                 on_set: Callable[[str, str], None], on_closed: Callable[[str | None], None]) -> None:
        self.el = document.getElementById("dialog")
        self.sheet = document.getElementById("sheet")
        self.on_action = on_action
        self.on_set = on_set
        self.on_closed = on_closed
        self.kind: str | None = None
        self._armed = False
        self._yes = self._no = None
        listeners.on(self.el, "click", self._click)
        listeners.on(self.el, "pointerdown", self._arm)

    @property
    def is_open(self) -> bool:
        return self.kind is not None

    def open(self, kind: str, html: str) -> None:
        self._armed = False
        self.kind = kind
        self.sheet.innerHTML = html
        self.el.hidden = False

    def close(self, cancelled: bool = False) -> None:
        kind = self.kind
        no = self._no
        self.kind = None
        self._yes = self._no = None
        self.el.hidden = True
        self.sheet.innerHTML = ""
        if cancelled and no is not None:
            no()
        self.on_closed(kind)

    def ask(self, lang: str, question: str, on_yes, on_no=None) -> None:
        """A yes/no confirmation; ``on_no`` also runs if it is dismissed."""
        self.open("confirm", sheets.confirm_html(lang, question))
        self._yes = on_yes
        self._no = on_no

    def on_key(self, ev) -> None:
        if str(ev.key) == "Escape":
            self.close(cancelled=True)

    def _arm(self, ev) -> None:
        self._armed = True

    def _click(self, ev) -> None:
        if not self._armed and int(ev.detail or 0) != 0:
            return
        target = ev.target
        if str(target.id) == "dialog":
            if self.kind != "confirm":
                self.close(cancelled=True)
            return
        setter = target.closest("[data-set]")
        if not nil(setter):
            self.on_set(str(setter.dataset.set), str(setter.dataset.value))
            return
        btn = target.closest("[data-action]")
        if nil(btn):
            return
        action = str(btn.dataset.action)
        if action == "confirm":
            yes = self._yes
            self._no = None
            self.close()
            if yes is not None:
                yes()
        elif action in ("cancel", "close"):
            self.close(cancelled=True)
        else:
            self.on_action(action)
