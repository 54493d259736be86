"""``python -m kosynka challenge pack|check …`` (issue 20 item 6): challenge codes
on the command line, registered in :data:`kosynka.cli.COMMANDS`.

``challenge pack DEAL.json MOVES.json --name NAME --seconds S`` (rules flags as
``solve`` has them; ``--assisted``; ``--answers CODE`` makes an answer to that
challenge) prints the code of that game. ``challenge check CODE`` (a code or a
whole link) replays it and prints what the replay gives, as JSON: ``kind``,
``id``, ``deal``, ``draw``, ``redeals``, ``name``, ``seconds`` (as reported),
``assisted`` (as reported), ``moves`` (the count), ``won``, ``foundation``,
``score``, ``answers`` (the id of the challenge an answer answers, else null)
and ``actions``. A damaged or invalid code — or any bad argument — prints one
line on stderr and exits 2; so does ``pack`` of a game whose code ``check`` would
refuse (it checks its own code before printing it). Names print on any terminal:
as they are where the terminal's encoding has them, else as JSON escapes.
"""

from __future__ import annotations

import argparse

from .challenge import Challenge, ChallengeError, Checked, check, pack
from .cli_common import (
    Parser,
    Subparsers,
    UsageError,
    add_rules_arguments,
    print_json,
    read_deal,
    read_moves,
)
from .deals import check_number
from .names import InvalidNameError, check_name
from .position import Position

__all__ = ["add_challenge"]

MAX_SECONDS = (1 << 32) - 1  # the most a code carries (``kosynka.challenge`` reads below 2**32)


def _checked(text: str) -> Checked:
    try:
        return check(text)
    except ChallengeError as e:
        raise UsageError(f"not a valid challenge ({e.code}): {e.detail}") from None


def cmd_pack(args: argparse.Namespace) -> int:
    deal, start = read_deal(args.deal, args)
    try:
        number = check_number(deal.get("number"))
    except ValueError:
        raise UsageError(f"{args.deal}: a challenge is played on a numbered deal, and this "
                         "deal JSON has no number (make it with `deal N`)") from None
    if start != Position.deal(number, start.rules):
        raise UsageError(f"{args.deal}: its cards are not those of deal {number}")
    if not 0 <= args.seconds <= MAX_SECONDS:
        raise UsageError(f"--seconds must be from 0 to {MAX_SECONDS}, not {args.seconds}")
    reply_to = None
    if args.answers is not None:
        answered = _checked(args.answers)
        if answered.challenge.reply_to is not None:
            raise UsageError("--answers takes a challenge, not an answer")
        if (answered.challenge.number, answered.challenge.rules) != (number, start.rules):
            raise UsageError(f"--answers: that challenge is deal {answered.challenge.number} "
                             f"under {answered.challenge.rules.name}, this game deal {number} "
                             f"under {start.rules.name}")
        reply_to = answered.id
    try:
        name = check_name(args.name)
    except InvalidNameError as e:
        raise UsageError(f"--name: {e.detail}") from None
    moves = read_moves(args.moves)
    try:
        code = pack(Challenge(number, start.rules, name, args.seconds, tuple(moves),
                              args.assisted, reply_to))
    except ChallengeError as e:
        raise UsageError(f"{args.moves}: {e.detail}") from None
    try:  # what check would refuse is not printed (issue 32: --seconds 4294967296 was)
        check(code)
    except ChallengeError as e:
        raise UsageError(f"that game makes no valid challenge ({e.code}): {e.detail}") from None
    print(code)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    c = _checked(args.code)
    ch, r = c.challenge, c.result
    print_json({
        "kind": ch.kind, "id": c.id, "deal": ch.number, "draw": ch.rules.draw,
        "redeals": ch.rules.redeals, "name": ch.name, "seconds": ch.seconds,
        "assisted": ch.assisted, "moves": r.moves, "won": r.won, "foundation": r.foundation,
        "score": r.score, "answers": ch.reply_to, "actions": list(ch.actions),
    })
    return 0


def add_challenge(sub: Subparsers) -> None:
    p = sub.add_parser("challenge", help="challenge links: pack a game into a code, check a code "
                       "by replay (O6)")
    ch = p.add_subparsers(dest="challenge_command", required=True, parser_class=Parser)
    pk = ch.add_parser("pack", help="print the challenge code of a game on a numbered deal")
    pk.add_argument("deal", help="deal JSON file with its number (`deal N`; - for stdin)")
    pk.add_argument("moves", help="JSON list of actions (moves, D, U), or {\"moves\": [...]}")
    pk.add_argument("--name", required=True, help="the player's name (1–24 characters)")
    pk.add_argument("--seconds", type=int, required=True, help="the time taken, whole seconds "
                    "(carried as reported: nothing can check it)")
    pk.add_argument("--assisted", action="store_true",
                    help="the game was finished with the solver's help (F2)")
    pk.add_argument("--answers", metavar="CODE", default=None,
                    help="make an answer to this challenge (its code or link)")
    add_rules_arguments(pk)
    pk.set_defaults(func=cmd_pack)
    ck = ch.add_parser("check", help="replay a challenge code; print what it gives as JSON")
    ck.add_argument("code", help="the code, or the whole link")
    ck.set_defaults(func=cmd_check)
