"""The replay viewer (issue 20 item 4): any checked action list played back on a
table of its own, move by move — a friend's challenge, your own game, or the
solver's way to win a deal ("Show me a way to win", which counts as nothing).

The frames are the engine's (``kosynka.challenge.replay``: the deal, then the
position after each action); the table is the solo table's view
(``web.view.TableView``) over its own piles, read-only (no input is attached),
so every card glides as in a game (FLIP) and every step is said as a move in
play is (``#live``, prefixed with "Move 12 of 142").

Decisions (user-visible):
- Controls at the bottom, by the thumb: to the start, step back, play/pause,
  step forward, speed (½×, 1×, 2×, 4×, 8× — one step every 700 ms at 1×), close.
  The header says whose game it is and the move counter.
- Keys: Space or K plays/pauses, ← → step, Home/End go to the start/end, S (or
  + and −) changes the speed, Escape closes. Play at the end starts over.
- The viewer covers the page (the solo page is inert behind it and its clock
  waits); closing it gives the page back as it was, and calls ``on_close``
  (the sheet it was opened from comes back).

DOM contract (tests rely on it): ``#replay`` (``data-step``, ``data-steps``,
``data-playing`` yes/no, ``data-speed``) holds ``#replay-table`` (piles
``[data-pile]`` as the solo table); ``[data-replay-step]`` shows "12 / 142";
buttons ``data-action`` = replay-start, replay-back, replay-play
(``aria-pressed``), replay-forward, replay-speed, replay-close.
"""

from __future__ import annotations

import asyncio
from typing import Callable

import js

from kosynka.cards import SUITS
from kosynka.game import Game
from kosynka.position import Position
from web import layout
from web.dom import SOLO_PAGE, JsObject, Listeners, document, fill, h, nil
from web.i18n import t
from web.view import TableView

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
STEP_S = 0.7  # seconds between two steps at 1×


class ReplayViewer:
    def __init__(self, listeners: Listeners, page_view: TableView,
                 game: Callable[[], Game | None]) -> None:
        """``page_view``: the page's own table (its hand setting is followed);
        ``game``: the game on it (its clock waits while the viewer is open)."""
        self.page_view = page_view
        self.game = game
        self.lang = "uk"
        self.table = h("main", {"id": "replay-table", "class": "replay-table"}, *(
            h("div", {"class": "pile" + (" found" if p[0] == "f" else " col" if p[0] == "t" else ""),
                      "data-pile": p, "data-suit": SUITS[int(p[1]) - 1] if p[0] == "f" else None})
            for p in layout.PILES))
        self.title = h("h2", {"id": "replay-title"})
        self.counter = h("b", {"data-replay-step": True})
        self.panel = h("nav", {"class": "replay-panel"})
        self.root = h("div", {"id": "replay", "class": "replay-screen", "hidden": True, "role": "dialog",
                              "aria-modal": "true", "aria-labelledby": "replay-title"},
                      h("header", {"class": "replay-head"}, self.title, self.counter),
                      self.table, self.panel)
        document.body.appendChild(self.root)
        listeners.on(self.panel, "click", self.on_click)
        self._resized = js.ResizeObserver.new(listeners.proxy(lambda *a: self.measure()))
        self._resized.observe(self.table)
        self.view = TableView(self.table, listeners)
        for pile in self.view.piles.values():
            pile.setAttribute("role", "group")  # read, not played: no pile is a button here
        self.frames: list[Position] = []
        self.actions: list[str] = []
        self.who = ""
        self.step = 0
        self.speed = 1.0
        self._task: asyncio.Task[None] | None = None
        self._on_close: Callable[[], None] | None = None
        self._back: JsObject = None

    # ------------------------------------------------------------ life
    @property
    def active(self) -> bool:
        return not self.root.hidden

    def tr(self, key: str, **kw: object) -> str:
        text = t(self.lang, key)
        return text.format(**kw) if kw else text

    def open(self, lang: str, title: str, frames: list[Position], actions: list[str], who: str,
             on_close: Callable[[], None] | None = None) -> None:
        """Show ``frames`` (the deal, then one position per action of ``actions``)
        under ``title``, in ``lang``; ``who`` names the player for the last step's words."""
        self.stop()
        self.frames, self.actions, self.who = frames, actions, who
        self._on_close = on_close
        self._back = document.activeElement
        self.step = 0
        self.lang = lang
        self.table.setAttribute("lang", lang)
        self.table.setAttribute("aria-label", self.tr("table_label"))
        self.view.set_lang(lang)
        self.view.left_handed = self.page_view.left_handed
        fill(self.title, title)
        self.root.hidden = False
        self._cover(True)
        self.view.reset()
        self.measure()
        self.show(animate=False, said=self.tr("ch_v_start_said"))
        play: JsObject = self.panel.querySelector("[data-action=replay-play]")
        if not nil(play):
            play.focus()

    def close(self) -> None:
        self.stop()
        self.root.hidden = True
        self._cover(False)
        back, self._back = self._back, None
        if not nil(back) and document.body.contains(back):
            back.focus()
        done, self._on_close = self._on_close, None
        if done is not None:
            done()

    def _cover(self, on: bool) -> None:
        """The solo page behind is inert, and its clock waits."""
        for id_ in SOLO_PAGE:
            el = document.getElementById(id_)
            if not nil(el):
                el.inert = on
        game = self.game()
        if game is not None:
            game.pause() if on else game.resume()

    def measure(self) -> None:
        if self.active and self.table.clientHeight:
            self.view.measure()

    # ------------------------------------------------------------ stepping
    def show(self, animate: bool, said: str | None = None, back: bool = False) -> None:
        """Render the current step; say it (``said``, or what the render said,
        after the move counter; ``back``: a step back was taken)."""
        n = len(self.actions)
        if self.view.live is not None:
            self.view.live.textContent = ""  # what this render says, and nothing older
        self.view.render(self.frames[self.step], animate=animate)
        self.root.dataset.step = str(self.step)
        self.root.dataset.steps = str(n)
        self.counter.textContent = f"{self.step} / {n}"
        if said is None:
            moved = str(self.view.live.textContent).strip() if self.view.live is not None else ""
            action = self.actions[self.step - 1] if self.step else ""
            if self.step == n and self.frames[-1].is_won:
                moved = self.tr("ch_v_won", name=self.who)
            elif action == "U" and not back:
                moved = f"{self.tr('undo')}: {moved}"
            said = f"{self.tr('ch_v_back_to' if back else 'ch_v_step', i=self.step, n=n)}: {moved}"
        self.view.say(said)
        self.show_panel()

    def go(self, step: int) -> None:
        """Go to ``step``: one step either way glides, a jump is placed at once."""
        step = max(0, min(len(self.actions), step))
        if step == self.step:
            return
        back, single = step < self.step, abs(step - self.step) == 1
        self.step = step
        if step == 0:
            self.show(animate=single, said=self.tr("ch_v_start_said"))
        else:
            self.show(animate=single, back=back)

    def show_panel(self) -> None:
        playing = self._task is not None and not self._task.done()
        self.root.dataset.playing = "yes" if playing else "no"
        self.root.dataset.speed = f"{self.speed:g}"
        speed = "½" if self.speed == 0.5 else f"{self.speed:g}"
        at_start, at_end = self.step == 0, self.step == len(self.actions)
        buttons = [("replay-start", "⇤", self.tr("ch_v_start"), at_start),
                   ("replay-back", "←", self.tr("ch_v_back"), at_start),
                   ("replay-play", "❚❚" if playing else "▶", self.tr("ch_v_pause" if playing else "ch_v_play"), False),
                   ("replay-forward", "→", self.tr("ch_v_forward"), at_end),
                   ("replay-speed", f"{speed}×", self.tr("ch_v_speed", x=f"{speed}×"), False),
                   ("replay-close", "✕", self.tr("close"), False)]
        have = {str(b.dataset.action): b for b in self.panel.querySelectorAll("button")}
        if not have:
            fill(self.panel, *(h("button", {"type": "button", "data-action": a}) for a, *_ in buttons))
            have = {str(b.dataset.action): b for b in self.panel.querySelectorAll("button")}
        for action, icon, label, disabled in buttons:
            b = have[action]
            if b.textContent != icon:
                b.textContent = icon
            b.setAttribute("aria-label", label)
            b.title = label
            b.disabled = disabled
            if action == "replay-play":
                b.setAttribute("aria-pressed", "true" if playing else "false")

    # ------------------------------------------------------------ play
    def play(self) -> None:
        if self.step == len(self.actions):
            self.step = 0
            self.show(animate=False, said=self.tr("ch_v_start_said"))
        self._task = asyncio.ensure_future(self._run())
        self.show_panel()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self.active:
            self.show_panel()

    async def _run(self) -> None:
        while self.step < len(self.actions):
            await asyncio.sleep(STEP_S / self.speed)
            if not self.active:
                return
            self.go(self.step + 1)
        self._task = None
        self.show_panel()

    def faster(self, by: int) -> None:
        i = SPEEDS.index(self.speed)
        self.speed = SPEEDS[(i + by) % len(SPEEDS)] if by > 0 else SPEEDS[max(0, i + by)]
        self.show_panel()
        self.view.say(self.tr("ch_v_speed", x=f"{self.speed:g}×"))

    # ------------------------------------------------------------ input
    def on_click(self, ev: JsObject) -> None:
        btn = ev.target.closest("[data-action]")
        if nil(btn) or btn.disabled:
            return
        self.action(str(btn.dataset.action))

    def action(self, action: str) -> None:
        if action == "replay-play":
            self.stop() if self._task is not None else self.play()
        elif action == "replay-close":
            self.close()
        elif action == "replay-speed":
            self.faster(1)
        else:
            self.stop()
            target = {"replay-start": 0, "replay-back": self.step - 1,
                      "replay-forward": self.step + 1}[action]
            self.go(target)

    def on_key(self, ev: JsObject) -> None:
        key, code = str(ev.key), str(ev.code)
        if bool(ev.ctrlKey or ev.metaKey or ev.altKey):
            return
        action = {"ArrowLeft": "replay-back", "ArrowRight": "replay-forward", "Home": "replay-start",
                  "Escape": "replay-close"}.get(key)
        if key == " " or code == "KeyK":
            if document.activeElement.tagName == "BUTTON" and key == " ":
                return  # a focused button takes its own Space
            action = "replay-play"
        elif key == "End":
            self.stop()
            ev.preventDefault()
            self.go(len(self.actions))
            return
        elif code == "KeyS" or key == "+":
            ev.preventDefault()
            self.faster(1)
            return
        elif key == "-":
            ev.preventDefault()
            self.faster(-1)
            return
        if action is not None:
            ev.preventDefault()
            self.action(action)
