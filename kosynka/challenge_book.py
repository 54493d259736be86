"""The challenges on this device (issue 20): the player's own, each with every
answer received, and the friends' they played, with their answer. Codes only,
checked again when shown (:func:`kosynka.challenge.check`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .challenge import Checked, code_id
from .challenge_bytes import ChallengeError

__all__ = ["Book", "Made", "Taken", "MAX_BOOK"]

MAX_BOOK = 40               # challenges kept per list in a Book


@dataclass
class Made:
    """One of the player's own challenges, with every answer received (codes,
    oldest first)."""

    code: str
    answers: list[str] = field(default_factory=list)


@dataclass
class Taken:
    """A friend's challenge the player played, with their answer (None: the
    game was too long for a link)."""

    code: str
    answer: str | None = None


@dataclass
class Book:
    """The challenges on this device, newest first, at most ``MAX_BOOK`` of
    each kind. Codes only: they are checked again when shown, so a stored value
    proves nothing by itself."""

    made: list[Made] = field(default_factory=list)
    taken: list[Taken] = field(default_factory=list)

    SCHEMA = 1

    def to_json(self) -> dict[str, object]:
        return {"v": self.SCHEMA, "made": [{"code": m.code, "answers": m.answers} for m in self.made],
                "taken": [{"code": t.code, "answer": t.answer} for t in self.taken]}

    @classmethod
    def from_json(cls, data: object) -> Book:
        """A book from :meth:`to_json`'s value; entries that are not well formed
        are dropped; ValueError for a value that is no book at all."""
        if not isinstance(data, dict) or data.get("v") != cls.SCHEMA:
            raise ValueError("not a challenge book of this version")
        book = cls()
        for e in data.get("made") or []:
            if isinstance(e, dict) and isinstance(e.get("code"), str) and isinstance(e.get("answers"), list):
                book.made.append(Made(e["code"], [a for a in e["answers"] if isinstance(a, str)]))
        for e in data.get("taken") or []:
            if isinstance(e, dict) and isinstance(e.get("code"), str) and isinstance(e.get("answer"), (str, type(None))):
                book.taken.append(Taken(e["code"], e["answer"]))
        del book.made[MAX_BOOK:], book.taken[MAX_BOOK:]
        return book

    def entry(self, challenge_id: int | None) -> Made | None:
        """The own challenge with this id, if it was made on this device."""
        return next((m for m in self.made if _id(m.code) == challenge_id), None)

    def add_made(self, code: str, replaces: str | None = None) -> None:
        """An own challenge (again at the top if it was made before). ``replaces``:
        the code of a link it was made again from (a new name); that one goes
        unless an answer to it came."""
        old = self.entry(code_id(code))
        self.made = [old or Made(code)] + [m for m in self.made if m is not old and not (
            m.code == replaces and not m.answers)]
        del self.made[MAX_BOOK:]

    def add_answer(self, answer: Checked) -> Made | None:
        """A friend's answer to an own challenge, kept once: the challenge's entry,
        or None if the book does not hold that challenge."""
        e = self.entry(answer.challenge.reply_to)
        if e is not None and all(_id(a) != answer.id for a in e.answers):
            e.answers.append(answer.code)
        return e

    def add_taken(self, code: str, answer: str | None) -> None:
        """A friend's challenge the player played, with their answer."""
        cid = code_id(code)
        self.taken = [Taken(code, answer)] + [t for t in self.taken if _id(t.code) != cid]
        del self.taken[MAX_BOOK:]

    def answered(self, old: str, new: str) -> None:
        """The answer ``old`` was made again as ``new`` (a new name)."""
        for t in self.taken:
            if t.answer == old:
                t.answer = new


def _id(code: str) -> int | None:
    try:
        return code_id(code)
    except ChallengeError:
        return None
