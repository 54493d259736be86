"""Challenges (O6, issue 20): one player's whole game in a link, checked by replay.

A challenge link ``…#challenge=<code>`` carries a numbered deal and its
variant, the player's name, the time they report, and their **whole action
list** (the game's log: card moves, stock taps, undos — T1), packed small. The
friend's page does not believe the link: :func:`check` replays every action on
the engine, and the moves, the cards on the foundations, the win and the score
it shows are what the replay gives. A friend answers on the same deal with an
*answer* — the same kind of code, naming the challenge it answers — which the
challenger's page checks the same way.

Time can only be *as reported*: with no server of ours, nothing can witness
how long a game took on somebody's phone (a clock in the link is just a number
its maker wrote). Everything else is checked. The "with the solver's help"
flag (F2, :attr:`Challenge.assisted`) is as reported too: the replay cannot
tell a player's move from the solver's.

Who wins a challenge (:func:`standing`, :func:`compare`; the page shows it):

1. a game won beats a game won with the solver's help (F2), which beats a
   game not won;
2. between two wins (of the same kind): fewer moves (T1 counts every action,
   undos included) — the moves are checked by the replay, the time is not;
   then less time, as reported;
3. between two games not won: more cards on the foundations;
4. otherwise it is a tie.

Code layout (bytes, then base64url without padding — safe in a URL fragment)::

    0        format version (high nibble) | kind (low nibble: 1 challenge, 2 answer)
    varint   the code's length in bytes (a cut link is told from a damaged one)
    varint   deal number (0 … 2⁶⁴−1)
    1        rules: bit 0 draw 3; bits 1–3 redeal limit + 1 (0 = unlimited);
             bit 4 assisted (as reported); the rest 0
    varint   seconds, as reported (whole seconds)
    1 + n    name: length, UTF-8 (a player name as a race has it)
    varint   actions (T1 moves), at most MAX_MOVES
    1        claimed cards on the foundations (0–52; 52 is a win)
    varint   claimed score (S1–S3, the win bonus from the reported seconds)
    4        CRC-32 of the final position (:func:`fingerprint`)
    4        answer only: the id of the challenge it answers
    …        the actions, bit-packed from the high bit down (see below),
             zero bits to the byte's end
    4        CRC-32 of all of the above (its value is the code's :attr:`~Checked.id`)

Every version of the layout keeps its first byte and its last four (pinned), so
a code of another version is told apart from a damaged one.

Actions use the position: at each step the *choices* are the legal moves in
canonical order — the move tuples ``(src, dst, count)`` of
:mod:`kosynka.position` sorted ascending (pile numbers are pinned, so the
order does not depend on how the engine generates them) — followed by ``U``
(undo, C5) when an undo is possible (:func:`choices`). An action is written as
its index among the ``n`` choices in ``(n − 1).bit_length()`` bits: a forced
move costs nothing, a typical one 3 bits. A 150-action win is about 95 bytes,
a link of some 170 characters with the app's address (``bench/challenge.py``
prints the figures).

Reading a code (:func:`unpack`, :func:`check`) raises :class:`ChallengeError`,
never anything else, with a stable ``code`` naming the page's message:

* ``challenge/foreign`` — not a challenge link at all;
* ``challenge/huge`` — longer than any game a link may carry (``MAX_CODE``
  characters, ``MAX_MOVES`` actions): refused before any work;
* ``challenge/truncated`` — cut short (shorter than its own length says);
* ``challenge/damaged`` — a character changed, added or lost (the checksum);
* ``challenge/version`` — made by another version of Kosynka;
* ``challenge/illegal`` — an action that is no legal move where it is played;
* ``challenge/deal`` — the actions do not lead where their maker's game went
  (they were not played on this deal);
* ``challenge/forged`` — the result the link claims is not what its moves give
  (e.g. a win claimed for a game that is not won).

>>> ch = Challenge(7, Rules(1), "Anna", 95, ("D", "D", "U"))
>>> c = check(pack(ch))
>>> (c.challenge == ch, c.result.moves, c.result.won)
(True, 3, False)
"""

from __future__ import annotations

import base64
import re
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .challenge_bytes import (
    Bits,
    ChallengeError,
    Reader,
    b64,
    rules_byte,
    rules_of,
    to_varint,
)
from .deals import MAX_DEAL, check_number
from .game import UNDO, Game
from .names import NAME_MAX, InvalidNameError, check_name
from .position import IllegalMoveError, InvalidMoveError, Position, Rules

__all__ = [
    "VERSION", "CHALLENGE", "ANSWER", "MAX_MOVES", "MAX_CODE", "ChallengeError",
    "Challenge", "Result", "Checked", "Ranking", "rank", "choices", "fingerprint", "replay",
    "pack", "unpack", "check", "code_of", "link", "code_id", "standing", "compare",
]

VERSION = 1
CHALLENGE, ANSWER = 1, 2
MAX_MOVES = 5000            # actions in one link (a long game has ~400; this is ~3 kB)
MAX_CODE = 4000             # characters of a code: more is refused unread
_NAME_BYTES = 4 * NAME_MAX  # UTF-8 bytes of the longest name
_CODE_RE = re.compile(r"(?:^|[#&?\s])challenge=([A-Za-z0-9_-]*)")
_B64_RE = re.compile(r"[A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Challenge:
    """One player's game on a numbered deal, as a link carries it. ``actions``
    is the game's log (notation, ``U`` for an undo); ``reply_to`` is None for a
    challenge, the challenge's :attr:`Checked.id` for an answer."""

    number: int
    rules: Rules
    name: str
    seconds: int
    actions: tuple[str, ...]
    assisted: bool = False
    reply_to: int | None = None

    @property
    def kind(self) -> str:
        return "challenge" if self.reply_to is None else "answer"


@dataclass(frozen=True)
class Result:
    """What the replay gives: T1 moves, cards on the foundations, the win (R12),
    the score (S1–S3; the win bonus from the reported time)."""

    moves: int
    foundation: int
    won: bool
    score: int


@dataclass(frozen=True)
class Checked:
    """A code that passed :func:`check`: what it says, what its replay gave, and
    its id (the CRC-32 at its end: an answer names its challenge by it)."""

    challenge: Challenge
    result: Result
    id: int
    code: str = field(repr=False)


# ------------------------------------------------------------------ the replay

def choices(game: Game) -> list[str]:
    """The actions open in ``game`` in the canonical order: the legal moves by
    ascending ``(src, dst, count)``, then ``U`` if an undo is possible; none
    once the game is won."""
    if game.is_won:
        return []
    p = game.position
    out = [p.format_move(m) for m in sorted(p.legal_moves)]
    if game.can_undo:
        out.append(UNDO)
    return out


def fingerprint(position: Position) -> int:
    """CRC-32 of everything the rules see in ``position`` (its :meth:`key`)."""
    return zlib.crc32(repr(position.key()).encode("ascii"))


def _act(game: Game, action: str) -> None:
    if action == UNDO:
        game.undo()
    else:
        game.play(action)


def _game(number: int, rules: Rules, seconds: int) -> tuple[Game, list[float]]:
    """A game whose clock reads 0 until the test sets it (``clock[0]``): the
    last action is played at the reported time, so the win bonus (S2) is the
    reported time's."""
    clock = [0.0]
    return Game.new(number, rules, clock=lambda: clock[0]), clock


def _result(game: Game) -> Result:
    f = sum(game.position.foundations)
    return Result(game.moves, f, game.is_won, game.score)


def replay(number: int, rules: Rules, actions: Iterable[str]) -> list[Position]:
    """The positions of a game: the deal, then after each action (the viewer's
    frames). Raises :class:`ChallengeError` ``challenge/illegal`` at an action
    the rules refuse."""
    game = Game.new(number, rules, clock=lambda: 0.0)
    frames = [game.position.copy()]
    for i, action in enumerate(actions, 1):
        try:
            _act(game, action)
        except (IllegalMoveError, InvalidMoveError) as e:
            raise ChallengeError("challenge/illegal", f"action {i} ({action}) is illegal: {e}") from None
        frames.append(game.position.copy())
    return frames


# ------------------------------------------------------------------ pack

def pack(ch: Challenge) -> str:
    """The code of ``ch``; its actions are played on the engine first, so a code
    holds only a game that can be played. ValueError (a :class:`ChallengeError`
    ``challenge/illegal`` for an illegal action, ``challenge/huge`` for a game
    longer than ``MAX_MOVES``) for a challenge no code can carry."""
    check_number(ch.number)
    try:
        name = check_name(ch.name)
    except InvalidNameError as e:
        raise ValueError(e.detail) from None
    if isinstance(ch.seconds, bool) or not isinstance(ch.seconds, int) or ch.seconds < 0:
        raise ValueError(f"seconds must be a whole number ≥ 0, not {ch.seconds!r}")
    if len(ch.actions) > MAX_MOVES:
        raise ChallengeError("challenge/huge", f"{len(ch.actions)} actions: a link carries "
                             f"at most {MAX_MOVES}")
    if ch.reply_to is not None and not 0 <= ch.reply_to < 1 << 32:
        raise ValueError(f"reply_to must be a 32-bit id, not {ch.reply_to!r}")
    game, clock = _game(ch.number, ch.rules, ch.seconds)
    bits = 0
    nbits = 0
    for i, action in enumerate(ch.actions):
        options = choices(game)
        if action not in options:
            raise ChallengeError("challenge/illegal", f"action {i + 1} ({action}) is not a legal "
                                 f"move here" + (" (the game is won)" if game.is_won else ""))
        width = (len(options) - 1).bit_length()
        bits = bits << width | options.index(action)
        nbits += width
        if i == len(ch.actions) - 1:
            clock[0] = float(ch.seconds)
        _act(game, action)
    pad = -nbits % 8
    moves = (bits << pad).to_bytes((nbits + pad) // 8, "big")
    return _assemble(ch, name, _result(game), fingerprint(game.position), moves)


def _assemble(ch: Challenge, name: str, claim: Result, final: int, moves: bytes) -> str:
    """The code's bytes around ``moves``, with the claims as given (tests forge
    codes through here)."""
    name_bytes = name.encode("utf-8")
    body = bytearray(to_varint(ch.number))
    body.append(rules_byte(ch.rules, ch.assisted))
    body += to_varint(ch.seconds)
    body.append(len(name_bytes))
    body += name_bytes
    body += to_varint(len(ch.actions))
    body.append(claim.foundation)
    body += to_varint(claim.score)
    body += final.to_bytes(4, "big")
    if ch.reply_to is not None:
        body += ch.reply_to.to_bytes(4, "big")
    body += moves
    kind = CHALLENGE if ch.reply_to is None else ANSWER
    head = bytes([VERSION << 4 | kind])
    # the length counts itself: grow it until it fits its own digits
    size = len(head) + len(body) + 4 + 1
    while len(to_varint(size)) + len(head) + len(body) + 4 != size:
        size += 1
    data = head + to_varint(size) + bytes(body)
    return b64(data + zlib.crc32(data).to_bytes(4, "big"))


# ------------------------------------------------------------------ unpack and check

def code_of(text: object) -> str:
    """The code in a whole link (``…#challenge=<code>``), a fragment or a bare
    code, with stray spaces and line breaks a messenger may add. Raises
    ``challenge/foreign`` (not a challenge link) or ``challenge/huge``."""
    if not isinstance(text, str):
        raise ChallengeError("challenge/foreign", "not a challenge link")
    if len(text) > 4 * MAX_CODE:
        raise ChallengeError("challenge/huge", "the link is far too long")
    squeezed = re.sub(r"\s+", "", text)
    m = _CODE_RE.search(squeezed)
    if m:
        code = m.group(1)
    elif squeezed and _B64_RE.fullmatch(squeezed):
        code = squeezed
    else:
        raise ChallengeError("challenge/foreign", "not a challenge link")
    if len(code) > MAX_CODE:
        raise ChallengeError("challenge/huge", f"a code of {len(code)} characters "
                             f"(at most {MAX_CODE})")
    return code


def _bytes_of(code: str) -> bytes:
    if not _B64_RE.fullmatch(code):
        raise ChallengeError("challenge/damaged", "the code has characters no code has")
    if len(code) % 4 == 1:  # no byte string encodes to this: a character added or lost
        raise ChallengeError("challenge/truncated", "the code is cut short")
    return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))


def code_id(text: str) -> int:
    """The id of a code (the CRC-32 at its end), read without checking it."""
    data = _bytes_of(code_of(text))
    if len(data) < 5:
        raise ChallengeError("challenge/truncated", "the code is cut short")
    return int.from_bytes(data[-4:], "big")


def unpack(text: str) -> tuple[Challenge, Result, int, bytes]:
    """What a code says, unchecked against the engine: the challenge with its
    actions still packed — ``(challenge without actions, claimed result, final
    fingerprint, packed actions)``. Raises :class:`ChallengeError`."""
    code = code_of(text)
    data = _bytes_of(code)
    if len(data) < 6:
        raise ChallengeError("challenge/truncated", "the code is cut short")
    version, kind = data[0] >> 4, data[0] & 15
    crc_ok = zlib.crc32(data[:-4]) == int.from_bytes(data[-4:], "big")
    if version != VERSION and crc_ok:  # every version begins and ends so (pinned)
        raise ChallengeError("challenge/version", f"challenge link version {version}, "
                             f"this Kosynka reads {VERSION}")
    r = Reader(data)
    r.byte()
    try:
        size = r.varint(1 << 16)
    except ChallengeError:
        size = -1
    if not crc_ok:
        if version == VERSION and size > len(data):
            raise ChallengeError("challenge/truncated", "the code is cut short")
        raise ChallengeError("challenge/damaged", "the code is damaged (mistyped or changed)")
    if size != len(data) or kind not in (CHALLENGE, ANSWER):
        raise ChallengeError("challenge/damaged", "the code's length or kind is wrong")
    body = Reader(data[:-4])
    body.pos = r.pos
    number = body.varint(MAX_DEAL)
    rules, assisted = rules_of(body.byte())
    seconds = body.varint(1 << 32)
    raw_name = body.raw(body.byte())
    try:
        name = check_name(raw_name.decode("utf-8"))
    except (UnicodeDecodeError, InvalidNameError):
        raise ChallengeError("challenge/damaged", "the name is not a name") from None
    count = body.varint(1 << 32)
    if count > MAX_MOVES:
        raise ChallengeError("challenge/huge", f"{count} actions (at most {MAX_MOVES})")
    foundation = body.byte()
    score = body.varint(1 << 32)
    final = int.from_bytes(body.raw(4), "big")
    reply_to = int.from_bytes(body.raw(4), "big") if kind == ANSWER else None
    if foundation > 52:
        raise ChallengeError("challenge/damaged", "more than 52 cards claimed")
    moves = body.raw(len(body.data) - body.pos)
    ch = Challenge(number, rules, name, seconds, (), assisted, reply_to)
    # the claimed move count rides in the result; the actions in ``moves``
    return ch, Result(count, foundation, foundation == 52, score), final, moves


def check(text: str) -> Checked:
    """A code checked by replay: every action played on the engine from the
    deal, the end compared with what its maker's game reached, the claims with
    what the replay gives. Raises :class:`ChallengeError` (see the module)."""
    ch, claim, final, packed = unpack(text)
    code = code_of(text)
    game, clock = _game(ch.number, ch.rules, ch.seconds)
    bits = Bits(packed)
    actions: list[str] = []
    for i in range(claim.moves):
        options = choices(game)
        if not options:
            raise ChallengeError("challenge/illegal", f"action {i + 1}: no move is possible "
                                 "here" + (" (the game is won)" if game.is_won else ""))
        index = bits.read((len(options) - 1).bit_length())
        if index >= len(options):
            raise ChallengeError("challenge/illegal", f"action {i + 1} is not a legal move on "
                                 f"deal {ch.number}")
        if i == claim.moves - 1:
            clock[0] = float(ch.seconds)
        _act(game, options[index])
        actions.append(options[index])
    if bits.left >= 8 or bits.read(bits.left):
        raise ChallengeError("challenge/damaged", "the code has bits after its moves")
    if fingerprint(game.position) != final:
        raise ChallengeError("challenge/deal", f"the moves do not lead where their game went: "
                             f"they were not played on deal {ch.number}")
    result = _result(game)
    if result != claim:
        raise ChallengeError("challenge/forged", f"the link claims {_said(claim)}, its moves give "
                             f"{_said(result)}")
    full = Challenge(ch.number, ch.rules, ch.name, ch.seconds, tuple(actions), ch.assisted,
                     ch.reply_to)
    return Checked(full, result, code_id(code), code)


def _said(r: Result) -> str:
    return (f"{'a win' if r.won else 'no win'}, {r.foundation} cards up, {r.moves} moves, "
            f"score {r.score}")


def link(base: str, code: str) -> str:
    """The whole link: ``base`` (the app's address; any ``#…`` dropped) + the code."""
    return f"{base.split('#')[0]}#challenge={code}"


# ------------------------------------------------------------------ who wins

def standing(c: Checked) -> tuple[int, int, int, int]:
    """A game's place in a challenge as a key: higher is better (module rule)."""
    r, ch = c.result, c.challenge
    if r.won:
        return (2 if not ch.assisted else 1, -r.moves, -ch.seconds, 0)
    return (0, r.foundation, 0, 0)


def compare(a: Checked, b: Checked) -> int:
    """1 if ``a`` wins the challenge against ``b``, -1 if ``b`` does, 0 for a tie."""
    ka, kb = standing(a), standing(b)
    return (ka > kb) - (ka < kb)


@dataclass(frozen=True)
class Ranking:
    """The results of a challenge's games side by side (by :func:`compare`)."""

    places: tuple[int, ...]
    """Each game's place, 1 the best; equal games share one (1, 1, 3)."""
    order: tuple[int, ...]
    """The games' indexes best place first, equal places in the order given."""
    outcome: str
    """The player's side: ``won`` (every other game behind theirs), ``lost``
    (one ahead), ``tie`` (neither, or nobody else yet), ``none`` (no game is
    theirs)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The indexes of the games in first place (more than one: a tie)."""
        return tuple(i for i in self.order if self.places[i] == 1)


def rank(games: Sequence[Checked], yours: Sequence[bool] = ()) -> Ranking:
    """The :class:`Ranking` of ``games``; ``yours[i]`` marks the player's own
    games (none when empty), the first of them the one that is compared."""
    marks = list(yours) or [False] * len(games)
    if len(marks) != len(games):
        raise ValueError("one mark per game")
    places = tuple(1 + sum(compare(o, g) > 0 for o in games) for g in games)
    order = tuple(sorted(range(len(games)), key=lambda i: places[i]))
    mine = next((g for g, y in zip(games, marks, strict=True) if y), None)
    if mine is None:
        outcome = "none"
    else:
        results = [compare(mine, g) for g, y in zip(games, marks, strict=True) if not y]
        outcome = ("lost" if any(x < 0 for x in results)
                   else "won" if results and all(x > 0 for x in results) else "tie")
    return Ranking(places, order, outcome)


