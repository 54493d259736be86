"""The table view: renders a ``Position`` into the DOM and animates the change.
It never decides anything; the input (``web.input``) and the controllers ask the
engine and tell the view what to show.

After every action ``render(position)`` computes where each card belongs
(``web.layout``), moves the card elements there and animates the difference
(FLIP, keyed on the card): measure, move, invert with a transform, and let the
transform glide to nothing on the next frame (180 ms); a card turning up flips
(``scale``). ``prefers-reduced-motion`` turns all of it off.

``hit(clientX, clientY)`` answers which pile and which card of it a point is on
*in the game* (layout geometry and the last rendered places), never where an
animation shows a card at that instant: a tap means what the player tapped,
whatever is flying (issue 9 item 6).

Reuse: a view takes the root element holding the 13 ``[data-pile]`` elements, so
a second table (the race's) is another ``TableView`` over its own root.

DOM contract (tests rely on it): cards carry ``data-card`` (face up only) and
``data-face`` (up/down); piles ``data-pile`` (stock, waste, f1–f4 in suit order
♠♥♦♣, t1–t7) hold their cards bottom → top; an empty pile has ``data-empty``; the
empty stock has ``data-redeal`` yes/no (a redeal left or not); a pile outlined as
a legal destination (C4) has ``data-hint``; a picked card has class ``picked``, a
dragged one ``dragging``. With a redeal limit, ``.redeals-left`` on the stock's
corner shows how many redeals are left (Turn Three: 2, 1, 0; hidden for
unlimited). During the win cascade the root has ``data-celebrate`` (``on``, then
``done``). Elements are told apart by a per-page random key (``data-k``), never
by the hidden card.

Accessibility (issue 13): each pile is a button (``role=button``, roving
``tabindex``: the keyboard cursor's pile is the table's one tab stop) named with
what it shows in the current language (``web.speech``: "Column 3: nine of hearts
on ten of spades, 3 cards face down"); its cards are images named by their face
("nine of hearts"), a face-down card only "1 card face down"; cards the player
cannot see (face down, under a foundation's top or the waste's shown cards) are
``aria-hidden`` — their pile's name counts them. The keyboard
cursor's card in a column has class ``cursor``. What a render changed (a move, a
draw, a redeal, a turned-up card, the win) is said in ``#live``
(``aria-live=polite``).

Look: cards are drawn by us, white faces with the rank (CSS-generated from
``data-r``: no text node, so a pile's name is all a screen reader or axe reads
of it) and a suit symbol in the top-left corner (the part a column leaves visible) and a big suit below; suits
are inline SVG symbols. Ranks read A 2–10 J Q K in every language; backs are a
blue lattice; red suits are red.
"""

from __future__ import annotations

import random
from math import cos, radians, sin
from typing import Callable, Iterable

from kosynka.cards import RANK, RANKS, RED, SUIT, SUITS, card_name, make_card
from kosynka.game import Played
from kosynka.position import Position
from web import layout, speech
from web.dom import JsObject, Listeners, document, reduced_motion, window
from web.store import format_time


def _display_rank(card: int) -> str:
    r = RANKS[RANK[card]]
    return "10" if r == "T" else r


class TableView:
    def __init__(self, root: JsObject, listeners: Listeners) -> None:
        self.root = root
        self.reduced = reduced_motion()
        self.piles = {str(p.dataset.pile): p for p in root.querySelectorAll("[data-pile]")}
        self.els: dict[int, JsObject] = {}
        self.placed: dict[int, layout.Place] = {}
        self.built: set[int] = set()
        self.geom: layout.Geometry  # set by measure(), below
        self.left_handed = False
        self.lang = "uk"
        self.cursor: tuple[str, int | None] = ("t1", None)  # the keyboard's pile and card
        self.live = document.getElementById("live")
        self._hidden: dict[int, bool] = {}
        self.position: Position | None = None  # the table shown (None before the first deal)
        self.flying: list[JsObject] = []
        self._to_play: list[JsObject] = []
        self._play_pending = False
        self._play_proxy = listeners.proxy(self._play_anim)
        self._cleanup_proxy = listeners.proxy(lambda *a: self._cleanup_anim())
        self._shake_proxy = listeners.proxy(lambda *a: self._cleanup_shake())
        self._celebrate_done_proxy = listeners.proxy(self._celebrate_done)
        self.left_el = document.createElement("span")  # redeals left (issue 12 item 4)
        self.left_el.className = "redeals-left"
        self.left_el.hidden = True
        self.left_el.setAttribute("aria-hidden", "true")  # the stock's name says it (issue 13)
        root.appendChild(self.left_el)
        self._celebrated: Callable[[], None] | None = None
        keys = random.sample(range(100, 1000), 52)
        for c in range(52):
            el = document.createElement("div")
            el.className = "card red" if RED[c] else "card"
            el.dataset.face = "down"
            el.dataset.k = str(keys[c])
            el.setAttribute("role", "img")
            self.els[c] = el
        for name, pile in self.piles.items():
            pile.setAttribute("role", "button")
            pile.tabIndex = 0 if name == self.cursor[0] else -1
        self.measure()

    # ------------------------------------------------------------ geometry
    def measure(self) -> None:
        """Size cards and piles for the root's box (and re-render if a position is shown)."""
        g = layout.geometry(float(self.root.clientWidth), float(self.root.clientHeight), self.left_handed)
        self.geom = g
        self.root.classList.toggle("left-handed", self.left_handed)
        self.root.style.setProperty("--cw", f"{g.cw}px")
        self.root.style.setProperty("--ch", f"{g.ch}px")
        for name, el in self.piles.items():
            x, y, pw, ph = g.pile_box(name)
            el.style.left = f"{x}px"
            el.style.top = f"{y}px"
            el.style.height = f"{ph}px"
            if name == "waste":
                el.style.width = f"{pw}px"
        x, y, _, _ = g.pile_box("stock")
        self.left_el.style.left = f"{x + g.cw}px"
        self.left_el.style.top = f"{y}px"
        if self.position is not None:
            self.placed = {}
            self.render(self.position, animate=False)

    def hit(self, client_x: float, client_y: float) -> tuple[str | None, int | None]:
        """``(pile, index)`` under a viewport point, by the game's places (see ``layout.hit``)."""
        r = self.root.getBoundingClientRect()
        x = float(client_x) - r.left - float(self.root.clientLeft)
        y = float(client_y) - r.top - float(self.root.clientTop)
        return layout.hit(self.geom, self.placed, x, y)

    def pile_rect(self, name: str) -> JsObject:
        return self.piles[name].getBoundingClientRect()

    # ------------------------------------------------------------ rendering
    def reset(self) -> None:
        """Forget what was shown (a new game): the next render places without animation."""
        self.placed = {}
        self.clear_targets()
        self.root.removeAttribute("data-celebrate")
        self._celebrated = None
        for el in self.els.values():
            el.classList.remove("picked", "dragging", "fly", "flip", "cascade")
            el.style.transform = ""

    def _build_face(self, c: int) -> None:
        s = SUITS[SUIT[c]]
        self.els[c].innerHTML = (
            f'<span class="ix" data-r="{_display_rank(c)}"><svg><use href="#suit-{s}"/></svg></span>'
            f'<svg class="pip" aria-hidden="true"><use href="#suit-{s}"/></svg>'
        )
        self.built.add(c)

    def render(self, pos: Position, animate: bool = True, played: Played | None = None) -> None:
        """Show ``pos``; animate the cards that changed place (FLIP); say what the
        action ``played`` (``Game.last``, None: nothing to say) did."""
        self.position = pos
        pl = layout.places(pos, self.geom)
        said = speech.said(self.lang, played, pos)
        if said:
            self.say(said)
        anim = animate and not self.reduced and bool(self.placed)
        changed = [c for c, p in pl.items() if self.placed.get(c) != p]
        before = {}
        if anim:
            for c in changed:
                if c in self.placed:
                    r = self.els[c].getBoundingClientRect()
                    before[c] = (r.left, r.top)
        # piles whose membership or order changed: put their cards in order
        dirty = {pl[c].pile for c in changed} | {self.placed[c].pile for c in changed if c in self.placed}
        by_pile: dict[str, list[int]] = {name: [] for name in dirty}
        for c, p in pl.items():
            if p.pile in by_pile:
                by_pile[p.pile].append(c)
        for name, cards in by_pile.items():
            cards.sort(key=lambda c: pl[c].index)
            self.piles[name].replaceChildren(*[self.els[c] for c in cards])
        flipped = []
        for c in changed:
            p = pl[c]
            el = self.els[c]
            old = self.placed.get(c)
            st = el.style
            if c in before:
                st.transition = "none"
            st.transform = ""  # a dropped card (C2) is placed from where it was let go
            st.left = f"{p.x}px"
            st.top = f"{p.y}px"
            st.zIndex = str(p.index + 1)
            if old is None or old.up != p.up:
                if p.up:
                    if c not in self.built:
                        self._build_face(c)
                    el.dataset.card = card_name(c)
                    el.dataset.face = "up"
                    el.setAttribute("aria-label", speech.card_label(self.lang, c, True))
                    if anim and old is not None:
                        flipped.append(el)
                else:
                    # a card turned back down (redeal) shows nothing, not even in the DOM
                    el.removeAttribute("data-card")
                    el.dataset.face = "down"
                    el.setAttribute("aria-label", speech.card_label(self.lang, c, False))
                    if c in self.built:
                        el.innerHTML = ""
                        self.built.discard(c)
        for name in layout.PILES:
            pile = self.piles[name]
            if pile.childElementCount:
                pile.removeAttribute("data-empty")
            else:
                pile.setAttribute("data-empty", "")
        self.piles["stock"].dataset.redeal = (
            "" if pos.stock else ("yes" if pos.can_redeal() else "no"))
        left_n = pos.redeals_left
        self.left_el.hidden = left_n is None
        left = "" if left_n is None else str(left_n)
        if self.left_el.textContent != left:
            self.left_el.textContent = left
        self.placed = pl
        self._hide_covered(pos)
        self.show_cursor(*self.cursor, focus=False)
        if anim and (before or flipped):
            moved = []
            for c, (bx, by) in before.items():
                el = self.els[c]
                r = el.getBoundingClientRect()
                dx, dy = bx - r.left, by - r.top
                if abs(dx) + abs(dy) > 0.5:
                    el.style.transform = f"translate({dx:.1f}px,{dy:.1f}px)"
                    el.classList.add("fly")
                    moved.append(el)
                else:
                    el.style.transition = ""
            for el in flipped:
                el.classList.add("flip")
            # play on the next frame: the inverted positions are painted first, and
            # no third forced layout is needed
            self._to_play += moved
            if not self._play_pending:
                self._play_pending = True
                window.requestAnimationFrame(self._play_proxy)
            self.flying += moved + flipped
            window.setTimeout(self._cleanup_proxy, 300)
        else:
            for c in before:
                self.els[c].style.transition = ""

    def _play_anim(self, *args: object) -> None:
        """FLIP's last step: let the moved cards glide from where they were."""
        self._play_pending = False
        for el in self._to_play:
            el.style.transition = ""
            el.style.transform = ""
        self._to_play = []

    def _cleanup_anim(self) -> None:
        for el in self.flying:
            el.classList.remove("fly", "flip")
        self.flying = []

    # ------------------------------------------------------------ the win (issue 12 item 5)
    CASCADE_STEP_MS = 28    # between two cards leaving the foundations
    CASCADE_FLY_MS = 700    # one card's flight

    def celebrate(self, then: Callable[[], None]) -> None:
        """The win: the cards fly off the foundations, kings first, and land fanned
        out in an arc across the table; then ``then()`` (the win sheet). With
        ``prefers-reduced-motion`` there is no flight: ``then()`` at once. The
        cards keep their last frame until the next deal (``reset``)."""
        if self.reduced:
            then()
            return
        g = self.geom
        w, h = float(self.root.clientWidth), float(self.root.clientHeight)
        radius = max(min(w * .42, h * .55), g.ch * 2)
        # the arc's centre below the table's middle, so the fan sits in the middle
        cx, cy = w / 2, min(h - g.ch * .4, h / 2 + radius * .67)
        order = [make_card(r, s) for r in range(12, -1, -1) for s in range(4)]  # K♠ K♥ K♦ K♣ Q♠ …
        for i, c in enumerate(order):
            el = self.els[c]
            p = self.placed[c]  # where the card is in the game, not where a glide shows it
            bx, by, _, _ = g.pile_box(p.pile)
            a = -70 + 140 * i / 51  # degrees: the fan from left to right
            ax, ay = cx + radius * sin(radians(a)), cy - radius * cos(radians(a))
            st = el.style
            st.transition = "none"
            st.transform = ""
            st.setProperty("--dx", f"{ax - g.cw / 2 - (bx + p.x):.1f}px")
            st.setProperty("--dy", f"{ay - g.ch / 2 - (by + p.y):.1f}px")
            st.setProperty("--rot", f"{a:.1f}deg")
            st.setProperty("--delay", f"{i * self.CASCADE_STEP_MS}ms")
            st.zIndex = str(100 + i)
            el.classList.remove("fly", "flip")
            el.classList.add("cascade")
        self.root.dataset.celebrate = "on"
        self._celebrated = then
        window.setTimeout(self._celebrate_done_proxy,
                          51 * self.CASCADE_STEP_MS + self.CASCADE_FLY_MS + 150)

    def _celebrate_done(self, *args: object) -> None:
        then, self._celebrated = self._celebrated, None
        if then is not None:
            self.root.dataset.celebrate = "done"
            then()

    # ------------------------------------------------------------ names and focus (issue 13)
    def set_lang(self, lang: str) -> None:
        """Name every card and pile in ``lang``."""
        self.lang = lang
        for c, p in self.placed.items():
            self.els[c].setAttribute("aria-label", speech.card_label(lang, c, p.up))
        self.label_piles()

    def label_piles(self) -> None:
        pos = self.position
        if pos is None:
            return
        name, index = self.cursor
        for pile, el in self.piles.items():
            label = speech.pile_label(self.lang, pos, pile, index if pile == name else None)
            if el.getAttribute("aria-label") != label:
                el.setAttribute("aria-label", label)

    def _hide_covered(self, pos: Position) -> None:
        """Cards a player cannot see are hidden from screen readers too: face-down
        cards and those under a foundation's or the waste's shown cards (the pile's
        name counts them)."""
        shown_waste = set(pos.waste[-max(1, pos.fan):]) if pos.waste else set()
        for c, p in self.placed.items():
            if not p.up:
                hide = True
            elif p.pile == "waste":
                hide = c not in shown_waste
            elif p.pile[0] == "f":
                hide = p.index != pos.foundations[int(p.pile[1]) - 1] - 1
            else:
                hide = False
            if self._hidden.get(c) != hide:
                self._hidden[c] = hide
                if hide:
                    self.els[c].setAttribute("aria-hidden", "true")
                else:
                    self.els[c].removeAttribute("aria-hidden")

    def say(self, text: str) -> None:
        """Words for a screen reader (the polite live region); the same words twice
        are still said (a trailing space toggles)."""
        if self.live is None:
            return
        if str(self.live.textContent).rstrip() == text:
            text = text + ("" if str(self.live.textContent).endswith(" ") else " ")
        self.live.textContent = text

    def clamp(self, pile: str, index: int | None) -> int | None:
        """The cursor's card in a column: a face-up card (the top one if ``index``
        is not one), None on an empty column and on the other piles."""
        if pile[0] != "t" or self.position is None:
            return None
        i = int(pile[1]) - 1
        cards, down = self.position.columns[i], self.position.down[i]
        if not cards:
            return None
        return index if index is not None and down <= index < len(cards) else len(cards) - 1

    def show_cursor(self, pile: str, index: int | None, focus: bool) -> None:
        """Put the keyboard cursor on ``pile`` (card ``index`` in a column): the pile
        becomes the table's tab stop and, with ``focus``, takes the focus."""
        old, _ = self.cursor
        index = self.clamp(pile, index)
        self.cursor = (pile, index)
        if old != pile:
            self.piles[old].tabIndex = -1
        el = self.piles[pile]
        el.tabIndex = 0
        for e in self.root.querySelectorAll(".card.cursor"):
            e.classList.remove("cursor")
        if pile[0] == "t" and index is not None and self.position is not None:
            cards = self.position.columns[int(pile[1]) - 1]
            if index < len(cards):
                el_c = self.els[cards[index]]
                el_c.classList.add("cursor")
                strip = (f"{self.placed[cards[index + 1]].y - self.placed[cards[index]].y}px"
                         if index + 1 < len(cards) and cards[index + 1] in self.placed else "100%")
                el_c.style.setProperty("--strip", strip)
        self.label_piles()
        if focus:
            el.focus()

    # ------------------------------------------------------------ marks
    def lift(self, cards: Iterable[int]) -> None:
        """Show ``cards`` picked up (C1), every other card put down."""
        for el in self.els.values():
            el.classList.remove("picked")
        for c in cards:
            self.els[c].classList.add("picked")

    def show_targets(self, piles: Iterable[str]) -> None:
        """Outline these piles as legal destinations (C4)."""
        self.clear_targets()
        for name in piles:
            self.piles[name].setAttribute("data-hint", "")

    def clear_targets(self) -> None:
        for el in self.piles.values():
            el.removeAttribute("data-hint")

    def shake(self, cards: Iterable[int]) -> None:
        """A small shake: the cards went back (an illegal drop or tap)."""
        if self.reduced:
            return
        for c in cards:
            self.els[c].classList.remove("shake")
        _ = self.root.offsetWidth  # reading it restarts the animation
        for c in cards:
            self.els[c].classList.add("shake")
        window.setTimeout(self._shake_proxy, 260)

    def _cleanup_shake(self) -> None:
        for el in self.els.values():
            el.classList.remove("shake")

    def drag(self, cards: Iterable[int], dx: float, dy: float) -> None:
        """Cards follow the pointer (C2) by ``dx``, ``dy`` px."""
        tr = f"translate({dx:.1f}px,{dy:.1f}px)"
        for c in cards:
            el = self.els[c]
            el.classList.add("dragging")
            el.style.transform = tr

    def end_drag(self, cards: Iterable[int], back: bool) -> None:
        """The drag is over; ``back``: the cards return to their place."""
        for c in cards:
            el = self.els[c]
            el.classList.remove("dragging")
            if back:
                el.style.transform = ""

    def card_rect(self, card: int) -> JsObject:
        return self.els[card].getBoundingClientRect()

    # ------------------------------------------------------------ counters (T1, S1)
    def counters(self, moves: int, score: int, seconds: float) -> None:
        """The time, move and score counters above the table."""
        for id_, text in (("moves", str(moves)), ("score", str(score)), ("time", format_time(seconds))):
            el = document.getElementById(id_)
            if el.textContent != text:
                el.textContent = text
