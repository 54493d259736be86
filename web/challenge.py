"""Challenge a friend on the same deal (issue 20, O6): the link, the offer, the
friend's game, the answer and the results — over any network or none, with no
server: the links carry the games, and ``kosynka.challenge`` checks each one by
replaying it. This module shows and asks; the sheets' HTML is
``web.challenge_sheets``, the viewer ``web.challenge_watch`` (over ``web.replay``).

Routes: a page opened on ``#challenge=<code>`` (or an address changed to one)
checks the code first; the hash is then put back to the deal on the table.

Decisions (user-visible) are written once, in ``docs/challenge.md``: the link,
the offer, playing it with the player's own game put aside, the results, a
refused link, Watch and Show me a way to win (``web.challenge_watch``). The
interfaces to the app and the solo game are ``web.challenge_needs``.

DOM contract: ``document.body.dataset.challenge`` is ``offered`` (the offer is
open), ``playing``, ``done`` (the results are shown) or ``refused``, and absent
otherwise; the strip is ``#challenge-bar`` with ``[data-action=challenge-end]``;
``data-action`` = challenge (make a link), challenges (the list), show-way;
the sheets' contract is in ``web.challenge_sheets``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

import js

from kosynka.challenge import (
    Challenge,
    ChallengeError,
    Checked,
    check,
    link,
    pack,
)
from kosynka.challenge_book import Book, Made, Taken
from kosynka.game import Game, SaveError
from kosynka.names import NAME_MAX, InvalidNameError, check_name
from web import challenge_sheets as cs
from web import store
from web.challenge_needs import Page
from web.challenge_watch import Watching
from web.dom import JsObject, document, fill, h, nil, window
from web.i18n import t
from web.store import BOOK_KEY, KEPT_KEY, RACE_NAME_KEY

SHEETS = ("challenge", "challenge-offer", "challenge-done", "challenge-list")
ACTIONS = ("challenge", "challenges", "play-challenge", "challenge-copy", "challenge-share", "watch",
           "challenge-open", "show-way")


@dataclass
class Results:
    """What the results sheet shows: the games, and after the player's own
    answer its code (``answer``, to send to ``to``); ``note``: a key said above."""

    rows: list[cs.Row]
    answer: str | None = None
    to: str | None = None
    note: str | None = None


class ChallengePage:
    def __init__(self, app: Page) -> None:
        self.app = app
        self.offered: Checked | None = None   # a challenge opened, not played yet
        self.playing: Checked | None = None   # the challenge on the table
        self.made: Checked | None = None      # the link shown in the "challenge" sheet
        self.results: Results | None = None   # what the results sheet shows
        self.watching = Watching(app)  # Watch and Show me a way to win (web.challenge_watch)
        self._quiet_close = False
        self._pending: Results | None = None  # a challenge won while the page was away
        self._listed: tuple[list[Made], list[Taken]] = ([], [])  # the list sheet's entries
        document.head.appendChild(h("link", {"rel": "stylesheet", "href": "web/challenge.css"}))
        self.bar = h("div", {"id": "challenge-bar", "hidden": True})
        document.getElementById("bar").after(self.bar)
        on = app.listeners.on
        on(self.bar, "click", self.on_bar_click)
        on(document.getElementById("sheet"), "change", self.on_change)
        on(window, "hashchange", lambda ev: self.on_hashchange())

    # ------------------------------------------------------------ small things
    def tr(self, key: str, **kw: object) -> str:
        text = t(self.app.lang, key)
        return text.format(**kw) if kw else text

    def state(self, value: str | None) -> None:
        """``body[data-challenge]``."""
        if value is None:
            document.body.removeAttribute("data-challenge")
        else:
            document.body.dataset.challenge = value

    def my_name(self) -> str:
        name = (self.app.store.backend.get(RACE_NAME_KEY) or "").strip()[:NAME_MAX]
        try:
            return check_name(name)
        except InvalidNameError:
            return self.tr("race_player")

    def book(self) -> Book:
        raw = self.app.store.backend.get(BOOK_KEY)
        if raw is None:
            return Book()
        try:
            return Book.from_json(store.loads_stored(raw))
        except (ValueError, TypeError, RecursionError):
            self.app.store.set_aside(BOOK_KEY)  # kept apart for a newer version; a new list starts
            return Book()

    def save_book(self, book: Book) -> None:
        try:
            self.app.store.backend.set(BOOK_KEY, json.dumps(book.to_json(), separators=(",", ":")))
        except Exception:
            pass  # storage full or off: the links still work

    def share(self) -> bool:
        return hasattr(js.navigator, "share")

    def url(self, code: str) -> str:
        return link(str(window.location.href), code)

    # ------------------------------------------------------------ routes
    @staticmethod
    def code_in(fragment: str) -> str | None:
        return fragment[len("#challenge="):] if fragment.startswith("#challenge=") else None

    def take_link(self, fragment: str) -> str | None:
        """At start-up: the code of a ``#challenge=`` address, taken out of it (the
        page then starts as it would with no hash); opened by :meth:`started`."""
        code = self.code_in(fragment)
        if code is not None:
            window.history.replaceState(js.undefined, "", str(window.location.pathname))
        return code

    def on_hashchange(self) -> None:
        code = self.code_in(str(window.location.hash))
        if code is None or self.app.solo.game is None:
            return
        self.app.solo.show_link()  # the address is the deal on the table again
        self.open(code)

    def open(self, code: str) -> None:
        """A challenge link opened: checked by replay first, then offered, kept
        (an answer), or refused with its reason."""
        try:
            c = check(code)
        except ChallengeError as e:
            self.refuse(e.code)
            return
        if c.challenge.reply_to is None:
            self.offer(c)
        else:
            self.answer_arrived(c)

    def refuse(self, code: str) -> None:
        self.app.input.deselect()
        self.app.dialogs.open("challenge", cs.refused_html(self.app.lang, code))
        self.state("refused")

    # ------------------------------------------------------------ start-up and reloads
    def on_start(self, env: dict[str, Any] | None) -> dict[str, Any] | None:
        """The saved game at start-up. A challenge in progress goes on; one that
        was won while the page was away ends now (its answer kept, the results
        shown once the page is up); otherwise a game put aside for a challenge
        comes back."""
        code = ((env or {}).get("meta") or {}).get("challenge")
        if env is not None and isinstance(code, str):
            try:
                game = Game.from_json(env["game"])
                c = check(code)
            except (SaveError, ChallengeError):
                game = None
            if game is not None and not game.is_won:
                return env
            if game is not None:
                self._pending = self._answer(c, game)
        kept = self.kept_game()
        if kept is None:
            return env
        self.app.store.save_game(kept[0].to_json(), self.app.tab, kept[1])
        self.app.store.backend.remove(KEPT_KEY)
        return self.app.store.load_game_envelope()

    def kept_game(self) -> tuple[Game, dict[str, Any]] | None:
        """The player's own game put aside for a challenge, and its meta (P1)."""
        raw = self.app.store.backend.get(KEPT_KEY)
        if raw is None:
            return None
        try:
            back = store.loads_stored(raw)
            return Game.from_json(back["game"]), dict(back.get("meta") or {})
        except (ValueError, TypeError, KeyError, AttributeError, SaveError):
            self.app.store.set_aside(KEPT_KEY)
            return None

    def started(self, meta: dict[str, Any], code: str | None) -> None:
        """The table is up: go on with a challenge in progress, show results that
        were waiting, then open a linked challenge."""
        playing = meta.get("challenge")
        if isinstance(playing, str):
            try:
                self.resume(check(playing))
            except ChallengeError:
                self.app.solo.challenge = None
        if self._pending is not None:
            self.show_results(self._pending)
            self._pending = None
        if code is not None:
            self.open(code)

    # ------------------------------------------------------------ making a link
    def make(self) -> None:
        """A link of the game on the table, as it stands, under the player's name."""
        g = self.app.solo.game
        if g is None or g.number is None:
            return
        try:
            code = pack(Challenge(g.number, g.rules, self.my_name(), int(g.elapsed()), tuple(g.log),
                                  g.assisted))
        except ChallengeError:
            self.app.toast(self.tr("ch_too_long"), 4000)
            return
        book = self.book()
        book.add_made(code, replaces=self.made.code if self.made is not None else None)
        self.save_book(book)
        self.made = made = check(code)
        self.app.input.deselect()
        self.app.dialogs.open("challenge", cs.made_html(self.app.lang, made, self.url(code),
                                                       made.challenge.name, self.share()))

    def on_change(self, ev: JsObject) -> None:
        """The name field of a link sheet: the link is made again under the new name."""
        if str(ev.target.getAttribute("data-field")) != "challenge-name":
            return
        name = str(ev.target.value).strip()[:NAME_MAX]
        try:
            check_name(name)
        except InvalidNameError:
            return
        try:
            self.app.store.backend.set(RACE_NAME_KEY, name)
        except Exception:
            pass
        kind = self.app.dialogs.kind
        if kind == "challenge" and self.made is not None:
            self.make()
        elif kind == "challenge-done" and self.results is not None and self.results.answer:
            self._rename_answer(self.results)

    # ------------------------------------------------------------ the friend's side
    def kept(self) -> bool:
        return self.app.store.backend.get(KEPT_KEY) is not None or self.app.solo.in_progress()

    def offer(self, c: Checked) -> None:
        self.offered = c
        self.app.input.deselect()
        self.app.dialogs.open("challenge-offer", cs.offer_html(self.app.lang, c, self.kept()))
        self.state("offered")

    def play(self) -> None:
        """Play it: the player's own game is put aside, the deal dealt from the start."""
        c, app = self.offered, self.app
        solo = app.solo
        if app.mode.value == "thinking":
            solo.cancel_finish()  # the solver was looking for Finish's line: it stops
            app.hide_toast()
        if c is None or app.mode.value not in ("ready", "won"):
            return
        if self.playing is not None:
            self.end(show=False)  # a challenge on the table ends first (its answer is kept)
        if solo.game is not None and solo.in_progress() and app.store.backend.get(KEPT_KEY) is None:
            try:
                app.store.backend.set(KEPT_KEY, json.dumps({"game": solo.game.to_json(), "meta": {
                    "daily": solo.daily, "mark": solo.mark, "recorded": solo.recorded}}))
            except Exception:
                app.toast(self.tr("no_storage"), 4000)
                return  # the player's game cannot be kept: it is not left
        self.offered = None
        self._close_quietly()
        ch = c.challenge
        solo.challenge = c.code
        solo.set_game(Game.new(ch.number, ch.rules))
        self.resume(c)

    def resume(self, c: Checked) -> None:
        self.playing = c
        self.app.solo.challenge = c.code
        fill(self.bar, h("span", {"class": "who"}, self.tr("ch_bar", name=c.challenge.name),
                         h("small", None, cs.result_text(self.app.lang, c))),
             h("button", {"type": "button", "data-action": "challenge-end"}, self.tr("ch_end")))
        self.bar.hidden = False
        self.app.view.measure()  # the strip took some of the table's height
        self.state("playing")

    def on_bar_click(self, ev: JsObject) -> None:
        if not nil(ev.target.closest("[data-action=challenge-end]")):
            self.ask_end()

    def ask_end(self, stay: Callable[[], None] | None = None) -> None:
        """End the challenge before the game on the table is left (Solo asks here)."""
        g = self.app.solo.game
        if g is None or g.is_won:
            self.end()
            return
        self.app.dialogs.ask(self.app.lang, self.tr("ch_end_q"), self.end, stay)

    def finished(self) -> None:
        """The challenge's game was won (after the cascade): the results."""
        self.end()

    def _answer(self, c: Checked, game: Game) -> Results:
        """The player's answer to ``c`` from ``game``, kept in the book; the results
        to show."""
        try:
            code: str | None = pack(Challenge(c.challenge.number, c.challenge.rules, self.my_name(),
                                              int(game.elapsed()), tuple(game.log), game.assisted,
                                              reply_to=c.id))
        except ChallengeError:
            code = None
        book = self.book()
        book.add_taken(c.code, code)
        self.save_book(book)
        rows = [cs.Row(c)] + ([cs.Row(check(code), you=True)] if code else [])
        return Results(rows, code, c.challenge.name, None if code else "ch_too_long")

    def end(self, show: bool = True) -> None:
        """The challenge ends: the answer is made and kept, the player's own game
        comes back at once, and the results are shown."""
        c, app = self.playing, self.app
        solo = app.solo
        if c is None or solo.game is None:
            return
        results = self._answer(c, solo.game)
        if solo.in_progress():
            solo.abandon_current()  # a game left unfinished counts as played (T2)
        self.playing = None
        solo.challenge = None
        self.bar.hidden = True
        fill(self.bar)
        app.view.measure()
        self.state(None)
        kept = self.kept_game()
        if kept is not None:
            game, meta = kept
            solo.set_game(game, daily=meta.get("daily"), mark=meta.get("mark"),
                          recorded=bool(meta.get("recorded")))
            app.store.backend.remove(KEPT_KEY)
            app.toast(self.tr("ch_back"), 3000)
        else:
            solo.show_link()  # the address names the table again (V2), whatever link ended it
            solo.save()
        if show:
            self.show_results(results)

    def _rename_answer(self, r: Results) -> None:
        """The answer made again under the name just typed."""
        assert r.answer is not None
        ch = check(r.answer).challenge
        code = pack(Challenge(ch.number, ch.rules, self.my_name(), ch.seconds, ch.actions, ch.assisted,
                              ch.reply_to))
        book = self.book()
        book.answered(r.answer, code)
        self.save_book(book)
        r.answer = code
        r.rows = [row if not row.you else cs.Row(check(code), you=True) for row in r.rows]
        self.show_results(r)

    # ------------------------------------------------------------ the challenger's side
    def answer_arrived(self, c: Checked) -> None:
        book = self.book()
        entry = book.entry(c.challenge.reply_to)
        mine = None
        if entry is not None:
            try:
                mine = check(entry.code)
            except ChallengeError:
                entry = None
        if mine is None:
            self.show_results(Results([cs.Row(c)], note="ch_unknown"))
            return
        if (mine.challenge.number, mine.challenge.rules) != (c.challenge.number, c.challenge.rules):
            self.refuse("challenge/mismatch")
            return
        made = book.add_answer(c)
        self.save_book(book)
        assert made is not None
        self.show_results(self.made_results(made, mine))

    def made_results(self, entry: Made, mine: Checked) -> Results:
        rows = [cs.Row(mine, you=True)]
        for code in entry.answers:
            try:
                rows.append(cs.Row(check(code)))
            except ChallengeError:
                continue  # an answer this version cannot read: not shown, kept
        return Results(rows, note=None if len(rows) > 1 else "ch_no_answers")

    # ------------------------------------------------------------ results and the list
    def show_results(self, results: Results) -> None:
        self.results = results
        app = self.app
        app.input.deselect()
        app.dialogs.open("challenge-done", cs.results_html(
            app.lang, results.rows, answer_url=self.url(results.answer) if results.answer else None,
            answer_to=results.to, name=self.my_name(), note=results.note, share=self.share(),
            score=app.settings.score))
        self.state("done")

    def show_list(self) -> None:
        book = self.book()
        made: list[tuple[Checked, int]] = []
        taken: list[Checked] = []
        self._listed = ([], [])
        for m in book.made:
            try:
                made.append((check(m.code), len(m.answers)))
                self._listed[0].append(m)
            except ChallengeError:
                continue
        for e in book.taken:
            try:
                taken.append(check(e.code))
                self._listed[1].append(e)
            except ChallengeError:
                continue
        self.app.input.deselect()
        self.app.dialogs.open("challenge-list", cs.list_html(self.app.lang, made, taken))

    def open_entry(self, which: str) -> None:
        kind, _, i = which.partition(":")
        made, taken = self._listed
        if not i.isdigit():
            return
        k = int(i)
        if kind == "made" and k < len(made):
            self.show_results(self.made_results(made[k], check(made[k].code)))
        elif kind == "taken" and k < len(taken):
            c, answer = check(taken[k].code), taken[k].answer
            rows = [cs.Row(c)] + ([cs.Row(check(answer), you=True)] if answer else [])
            self.show_results(Results(rows, answer, c.challenge.name))

    # ------------------------------------------------------------ the sheets' buttons
    def action(self, action: str) -> None:
        app = self.app
        btn = app.dialogs.button
        if action == "challenge":
            self.made = None
            self.make()
        elif action == "challenges":
            self.show_list()
        elif action == "play-challenge":
            self.play()
        elif action in ("challenge-copy", "challenge-share"):
            node = btn.closest(".challenge-linkbox").querySelector(".challenge-link")
            try:
                if action == "challenge-copy":
                    window.navigator.clipboard.writeText(str(node.textContent))
                    app.toast(self.tr("copied"), 1500)
                else:
                    js.navigator.share(js.Object.fromEntries([["url", str(node.textContent)]]))
            except Exception:  # no clipboard (an insecure context): select it for the player
                window.getSelection().selectAllChildren(node)
        elif action == "watch":
            self.watch(int(btn.dataset.watch))
        elif action == "challenge-open":
            self.open_entry(str(btn.dataset.entry))
        elif action == "show-way":
            self.watching.ask_way()

    def closed(self, kind: str | None) -> None:
        """A sheet closed (``web.dialogs``): an offer not taken, results seen."""
        if self._quiet_close or kind not in SHEETS:
            return
        if kind == "challenge-offer":
            self.offered = None
        if self.app.dialogs.kind is None:  # no other sheet took its place
            self.state("playing" if self.playing is not None else None)

    def _close_quietly(self) -> None:
        """Close the sheet for what comes next (the game, the viewer): not a "no"."""
        self._quiet_close = True
        self.app.dialogs.close()
        self._quiet_close = False

    def watch(self, i: int) -> None:
        results = self.results
        if results is None or not 0 <= i < len(results.rows):
            return
        self._close_quietly()
        self.watching.watch(results.rows[i].game.challenge, lambda: self.show_results(results))
