"""The sheet over the table (``#dialog`` > ``#sheet``): open, close, confirm, and
routing of the taps inside it to the owner's callbacks. Its HTML comes from
``web.sheets``.

Decisions (user-visible):
- A tap that opened the sheet (e.g. the winning move) is followed by the browser's
  click at the same spot: only clicks whose press began inside the open sheet (or
  keyboard clicks) count.
- A tap outside the sheet closes it, except a confirmation, which waits for an
  answer. Escape closes any sheet (a confirmation as "no").
- A real dialog (issue 13): ``role=dialog``, ``aria-modal``, named by its heading;
  the page behind it is ``inert`` while it is open (Tab stays inside); the focus
  moves into it (the first button of a confirmation — "no" —, else the sheet
  itself, so a screen reader starts at the heading) and back where it was when it
  closes (the table's cursor pile if that element is gone).
- A message shown before the sheet opens (e.g. "Hints on") goes: it would cover
  the sheet's words; messages the sheet's own buttons bring ("Copied") show.
"""

from __future__ import annotations

from typing import Callable

from web import sheets
from web.dom import SOLO_PAGE, JsObject, Listeners, control_selector, document, nil


class Dialogs:
    def __init__(self, listeners: Listeners, *, on_action: Callable[[str], None],
                 on_set: Callable[[str, str], None], on_closed: Callable[[str | None], None]) -> None:
        self.el = document.getElementById("dialog")
        self.sheet = document.getElementById("sheet")
        self.on_action = on_action
        self.on_set = on_set
        self.on_closed = on_closed
        self.kind: str | None = None
        self._back: JsObject = None  # where the focus was before the sheet opened
        self._armed = False
        self._yes: Callable[[], None] | None = None
        self._no: Callable[[], None] | None = None
        self.button: JsObject = None  # the button whose action is being run (its data-* say more)
        listeners.on(self.el, "click", self._click)
        listeners.on(self.el, "pointerdown", self._arm)

    @property
    def is_open(self) -> bool:
        return self.kind is not None

    def open(self, kind: str, html: str) -> None:
        self._armed = False
        if self.kind is None:
            self._back = document.activeElement
            document.getElementById("toast").classList.remove("show")  # an old message over the sheet
        # the same sheet drawn again (a setting changed): the focus stays on its control
        active = document.activeElement
        same = (control_selector(active)
                if self.kind == kind and not nil(active) and self.sheet.contains(active) else None)
        self.kind = kind
        self.sheet.innerHTML = html
        title = self.sheet.querySelector("h2, .big")
        if not nil(title):
            title.id = "sheet-title"
            self.sheet.setAttribute("aria-labelledby", "sheet-title")
        self._inert(True)
        self.el.hidden = False
        first: JsObject = self.sheet.querySelector(same or "button") if (same or kind == "confirm") else None
        (self.sheet if nil(first) else first).focus()

    def close(self, cancelled: bool = False) -> None:
        kind = self.kind
        no = self._no
        self.kind = None
        self._yes = self._no = None
        self.el.hidden = True
        self.sheet.innerHTML = ""
        self._inert(False)
        back, self._back = self._back, None
        if cancelled and no is not None:
            no()
        self.on_closed(kind)
        if self.kind is None:  # no other sheet took its place: the focus goes back
            if nil(back) or not document.body.contains(back):
                back = document.querySelector("#table [tabindex='0']")
            if not nil(back):
                back.focus()  # (the body, after a tap: the focus simply leaves the sheet)

    BEHIND = (*SOLO_PAGE, "race", "race-screen")
    """What a sheet covers: the solo page and, during a race, the race screens
    (``web.race.page`` makes the solo page inert again when its sheet closes)."""

    def _inert(self, on: bool) -> None:
        for id_ in self.BEHIND:
            el = document.getElementById(id_)
            if not nil(el):
                el.inert = on

    def ask(self, lang: str, question: str, on_yes: Callable[[], None],
            on_no: Callable[[], None] | None = None) -> None:
        """A yes/no confirmation; ``on_no`` also runs if it is dismissed."""
        self.open("confirm", sheets.confirm_html(lang, question))
        self._yes = on_yes
        self._no = on_no

    def on_key(self, ev: JsObject) -> None:
        if str(ev.key) == "Escape":
            self.close(cancelled=True)

    def _arm(self, ev: JsObject) -> None:
        self._armed = True

    def _click(self, ev: JsObject) -> None:
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
            self.button = btn
            self.on_action(action)
