"""Pointer and keyboard input on a table: taps, drags and keys become moves.

The input asks the engine what a touch picks up (``Game.pick_at``: R4, R8, R9),
which cards leave with it (``Game.run_with``) and the legal moves that take them
somewhere (``Game.card_moves``), and hands the chosen
:class:`~kosynka.position.Move` to its owner's ``play`` callback (which gives it
to ``Game.play``: checked there, once, never parsed); it decides no rule itself. Where a touch lands is resolved by
``TableView.hit`` against where the cards are *in the game*, so a tap means what
the player tapped at any pace, whatever is animating (issue 9 item 6).

Reuse (N10): ``TableInput(view, listeners, game=…, play=…, locked=…,
undo=None, hints=False)`` is a table without undo and hints, as in a race.

Input decisions (user-visible):
- Tap-tap (C1): a tap on a card that may be picked up lifts it with the cards on
  it (outlined in gold); a tap on a legal destination plays the move; a tap on the
  same card puts it down. A tap anywhere on the waste picks its top card (R9). A
  tap on an illegal destination puts the cards back with a small shake (no move
  counted); if that tap was on another card that may be picked up, it is picked up
  instead.
- Drag (C2) with mouse or finger: after 6 px of movement the cards follow the
  pointer; they land on the legal destination their lead card overlaps most, and
  go back if they overlap none. Handlers are bound once on the table (delegation).
- Double tap / double click (two taps on the same card within 350 ms) sends the
  card to its foundation when that is legal.
- Stock (C3): a tap draws or redeals; with no redeal left, ``no_redeal`` is called.
- Hints (C4), when the owner allows them, start off; while on, every legal
  destination of the picked card is outlined in red.
- Keyboard (issue 13), the same flow as tap-tap: the cursor is one pile of the
  table (its tab stop; Tab goes on to the panel). Arrows move it between piles as
  they stand (``layout.step``), Up/Down also between the face-up cards of a
  column (which card to pick, so part of a run can move); 1–7 jump to a column.
  Enter or Space is a tap on the cursor: it picks up (the engine says what), puts
  down on a legal pile, or puts back; the cursor stays where the cards went.
  Escape puts picked cards back. D draws, U/Backspace/Ctrl+Z undo; letters are
  read by their key position (``KeyD``), so they work in Ukrainian and Russian
  layouts too. The owner's ``commands`` take H (hints), F (Finish), N (new deal)
  and ? (the list of keys). Letters act anywhere outside a dialog; arrows, Enter
  and Space only while the table has the focus (elsewhere they keep their usual
  meaning). What is picked up, put back or refused is said in the live region.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from kosynka.game import Game
from kosynka.position import DRAW, FOUNDATION, PILE_IDS, Move
from web import layout, speech
from web.dom import JsObject, Listeners, document, window
from web.i18n import t
from web.view import TableView

DOUBLE_TAP_MS = 350
DRAG_SLOP = 6


class TableInput:
    def __init__(self, view: TableView, listeners: Listeners, *,
                 game: Callable[[], Game | None], play: Callable[[Move], bool],
                 locked: Callable[[], bool], undo: Callable[[], None] | None = None,
                 hints: bool = False, no_redeal: Callable[[], None] | None = None,
                 commands: dict[str, Callable[[], None]] | None = None) -> None:
        self.view = view
        self.game = game
        self.play_cb = play
        self.locked = locked
        self.undo_cb = undo
        self.hints_allowed = hints
        self.no_redeal = no_redeal
        self.commands = commands or {}
        self.hints = False
        self.selected: int | None = None
        self.drag: dict[str, Any] | None = None
        self.last_tap: tuple[int | None, float] = (None, 0.0)
        self._raf = None
        self._raf_proxy = listeners.proxy(self._on_frame)
        root = view.root
        listeners.on(root, "pointerdown", self.on_pointerdown)
        listeners.on(root, "pointermove", self.on_pointermove)
        listeners.on(root, "pointerup", self.on_pointerup)
        listeners.on(root, "pointercancel", self.on_pointercancel)
        listeners.on(root, "lostpointercapture", self.on_pointercancel)
        listeners.on(root, "contextmenu", lambda ev: ev.preventDefault())

    # ------------------------------------------------------------ picking
    def _play(self, move: Move) -> bool:
        self.deselect()
        return self.play_cb(move)

    def dests(self, card: int) -> dict[str, Move]:
        """pile id → the legal move there, for every legal destination of ``card``."""
        g = self.game()
        return {} if g is None else {PILE_IDS[m.dst]: m for m in g.card_moves(card)}

    def select(self, card: int) -> None:
        g = self.game()
        if g is None:
            return
        self.selected = card
        group = g.run_with(card)
        self.view.lift(group)
        self.view.say(speech.picked(self.view.lang, group))
        if self.hints:
            self.view.show_targets(self.dests(card))

    def deselect(self) -> None:
        if self.selected is not None:
            self.view.lift(())
        self.selected = None
        self.view.clear_targets()

    def set_hints(self, on: bool) -> None:
        """C4: hints on or off (only where the owner allows them)."""
        self.hints = on and self.hints_allowed
        if self.selected is not None and self.hints:
            self.view.show_targets(self.dests(self.selected))
        else:
            self.view.clear_targets()

    # ------------------------------------------------------------ taps (C1, C3)
    def refuse(self, group: tuple[int, ...]) -> None:
        """The cards go back with a small shake: the tap or key meant nothing legal."""
        self.view.shake(group)
        self.view.say(t(self.view.lang, "cant_go"))

    def tap(self, pile: str | None, index: int | None, double: bool = True) -> None:
        """A tap on ``pile`` at card ``index`` (None: the pile's ground, or no pile);
        ``double``: two quick taps on a card may send it home (not for keys)."""
        g = self.game()
        if g is None or g.is_won or self.locked():
            return
        if pile is None:  # the bare table: put the picked cards back
            if self.selected is not None:
                group = g.run_with(self.selected)
                self.deselect()
                self.refuse(group)
            return
        if pile == "stock":
            self.deselect()
            if g.is_legal(DRAW):
                self._play(DRAW)
            elif self.no_redeal is not None:
                self.no_redeal()
            return
        card = g.pick_at(layout.engine_pile(pile), index)
        now = time.monotonic() * 1000
        last_card, last_time = self.last_tap
        self.last_tap = (card, now)
        if double and card is not None and card == last_card and now - last_time < DOUBLE_TAP_MS:
            self.last_tap = (None, 0.0)
            home = next((m for m in g.card_moves(card) if m.dst >= FOUNDATION), None)
            if self.selected in (card, None) and home is not None:
                self._play(home)
                return
        if self.selected is not None:
            sel = self.selected
            if card == sel:
                self.deselect()
                self.view.say(t(self.view.lang, "put_back"))
                return
            dests = self.dests(sel)
            if pile in dests:
                self._play(dests[pile])
                return
            group = g.run_with(sel)
            self.deselect()
            if card is not None and card not in group:
                self.select(card)
            else:
                self.refuse(group)
            return
        if card is not None:
            self.select(card)

    # ------------------------------------------------------------ drag (C2)
    def on_pointerdown(self, ev: JsObject) -> None:
        if ev.button != 0 or self.drag is not None:
            return
        pile, index = self.view.hit(ev.clientX, ev.clientY)
        self.drag = {"id": ev.pointerId, "x0": float(ev.clientX), "y0": float(ev.clientY),
                     "pile": pile, "index": index, "cards": None, "dx": 0.0, "dy": 0.0}
        try:
            self.view.root.setPointerCapture(ev.pointerId)
        except Exception:
            pass
        ev.preventDefault()

    def on_pointermove(self, ev: JsObject) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        dx = float(ev.clientX) - d["x0"]
        dy = float(ev.clientY) - d["y0"]
        if d["cards"] is None:
            if abs(dx) + abs(dy) < DRAG_SLOP or d["pile"] in (None, "stock"):
                return
            g = self.game()
            if g is None or self.locked():
                return
            # dragging the waste moves its top card even if the touch was on a fanned one
            card = g.pick_at(layout.engine_pile(d["pile"]), d["index"])
            if card is None:
                return
            self.deselect()
            d["card"] = card
            d["cards"] = g.run_with(card)
            if self.hints:
                self.view.show_targets(self.dests(card))  # C4: a dragged card is picked up too
        d["dx"], d["dy"] = dx, dy
        if self._raf is None:
            self._raf = window.requestAnimationFrame(self._raf_proxy)

    def _on_frame(self, *args: object) -> None:
        self._raf = None
        d = self.drag
        if d is not None and d["cards"] is not None:
            self.view.drag(d["cards"], d["dx"], d["dy"])

    def on_pointerup(self, ev: JsObject) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        self.drag = None
        if d["cards"] is None:
            self.tap(d["pile"], d["index"])
            return
        self.view.drag(d["cards"], float(ev.clientX) - d["x0"], float(ev.clientY) - d["y0"])
        self.drop(d)

    def on_pointercancel(self, ev: JsObject) -> None:
        d = self.drag
        if d is None or ev.pointerId != d["id"]:
            return
        self.drag = None
        if d["cards"] is not None:
            self.view.clear_targets()
            self.view.end_drag(d["cards"], back=True)

    def drop(self, d: dict[str, Any]) -> None:
        card = d["card"]
        lead = self.view.card_rect(card)
        best, best_area = None, 0.0
        g = self.game()
        dests = self.dests(card) if g is not None and not self.locked() else {}
        for name, move in dests.items():
            r = self.view.pile_rect(name)
            w = min(lead.right, r.right) - max(lead.left, r.left)
            h = min(lead.bottom, r.bottom) - max(lead.top, r.top)
            if w > 0 and h > 0 and w * h > best_area:
                best, best_area = move, w * h
        self.view.clear_targets()
        # the cards leave the drag first, so the move glides from where they were let go
        self.view.end_drag(d["cards"], back=False)
        if best is None or not self._play(best):
            self.view.end_drag(d["cards"], back=True)

    # ------------------------------------------------------------ keys
    def on_key(self, ev: JsObject) -> None:
        key, code = str(ev.key), str(ev.code)
        mod = bool(ev.ctrlKey or ev.metaKey or ev.altKey)
        undo = (code == "KeyU" and not mod) or key == "Backspace" or (
            code == "KeyZ" and bool(ev.ctrlKey or ev.metaKey))
        on_table = self.view.root.contains(document.activeElement)
        if undo and self.undo_cb is not None:
            ev.preventDefault()
            self.deselect()
            self.undo_cb()
        elif key == "Escape":
            if self.selected is not None:
                self.deselect()
                self.view.say(t(self.view.lang, "put_back"))
        elif mod:
            return
        elif key == "?" or key == "F1":
            self._command(ev, "help")
        elif code in KEY_COMMANDS:
            self._command(ev, KEY_COMMANDS[code])
        elif code == "KeyD":
            ev.preventDefault()
            self.tap("stock", None)
        elif code.startswith("Digit") and code[-1] in "1234567":
            ev.preventDefault()
            self.view.show_cursor(f"t{code[-1]}", None, focus=True)
        elif not on_table:
            return
        elif key.startswith("Arrow"):
            ev.preventDefault()
            pile, index = self.view.cursor
            pos = self.view.position
            if pos is not None:
                to = layout.step(self.view.geom, pos, pile, index, key)
                self.view.show_cursor(*to, focus=True)
                at = to[1]
                if to[0] == pile and pile[0] == "t" and at is not None and at != index:  # another card
                    self.view.say(speech.card(self.view.lang, pos.columns[int(pile[1]) - 1][at]))
        elif key in ("Enter", " "):
            ev.preventDefault()
            pile, index = self.view.cursor
            g = self.game()
            before = g.moves if g is not None else None
            self.tap(pile, index, double=False)
            if g is not None and g.moves != before:  # a move: the cursor on the pile's new top
                self.view.show_cursor(pile, None, focus=False)

    def _command(self, ev: JsObject, name: str) -> None:
        fn = self.commands.get(name)
        if fn is not None:
            ev.preventDefault()
            if name != "hint":  # hints light up the picked cards' destinations
                self.deselect()
            fn()


# letter keys by position (KeyH is "р" in a Ukrainian layout): the owner's commands
KEY_COMMANDS = {"KeyH": "hint", "KeyF": "finish", "KeyN": "new"}
