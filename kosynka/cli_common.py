"""What every ``python -m kosynka`` subcommand shares: the one-line error, the
parser, argument types and reading JSON input.

A subcommand's module imports this, never :mod:`kosynka.cli` (which imports
the subcommands to list them), so the import graph stays a tree.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn, TypeAlias

from .deals import check_number
from .position import InvalidPositionError, Position, Rules

__all__ = ["UsageError", "Parser", "Subparsers", "deal_number", "add_rules_arguments", "rules_from", "print_json",
           "read_text", "parse_json", "read_json", "read_deal", "read_moves", "one_line"]


Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"
"""What a subcommand's ``add_…`` function is given to add its parser to."""


class UsageError(Exception):
    """Bad input from the user: reported in one line on stderr, exit status 2."""


def one_line(text: str) -> str:
    """``text`` fit for one line of a terminal: every unprintable character (line
    breaks, controls), which bad input may carry into a message, escaped."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a :class:`UsageError` (one line, exit 2;
    argparse's own would print the usage too)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def deal_number(text: str) -> int:
    """Argument type: a deal number 0 … 2**64-1."""
    try:
        return check_number(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a deal number (0 … 2**64-1): {text!r}") from None


def _redeals(text: str) -> int | None:
    try:
        return Rules.parse_redeals(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    """``--draw 1|3`` and ``--redeals 0|1|2|3|unlimited`` (default: from the input, else Classic)."""
    p.add_argument("--draw", type=int, choices=(1, 3), help="cards per stock tap (default 1)")
    p.add_argument("--redeals", type=_redeals, default=argparse.SUPPRESS,
                   help="redeal limit: 0, 1, 2, 3 or unlimited (default unlimited)")


def rules_from(args: argparse.Namespace, data: dict[str, Any] | None = None) -> Rules:
    """Rules from the flags, falling back on ``draw``/``redeals`` keys in ``data``
    (``null`` or ``"unlimited"`` meaning unlimited), then on Classic draw 1."""
    data = data or {}
    draw = args.draw if args.draw is not None else data.get("draw", 1)
    if hasattr(args, "redeals"):
        redeals = args.redeals
    else:
        redeals = data.get("redeals")
        if redeals == "unlimited":
            redeals = None
    try:
        return Rules(draw, redeals)
    except ValueError as e:
        raise UsageError(str(e)) from None


def read_text(path: str) -> str:
    """The text of file ``path`` (``-`` = stdin); UsageError if unreadable."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise UsageError(f"{path} is not UTF-8 text: {e}") from None


def parse_json(text: str, path: str) -> object:
    """``text`` (read from ``path``) as JSON; UsageError if it is not JSON we take."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise UsageError(f"{path} is not valid JSON: {e}") from None
    except RecursionError:
        raise UsageError(f"{path} is not valid JSON: nested too deep") from None


def read_json(path: str) -> object:
    """The JSON in file ``path`` (``-`` = stdin); UsageError if unreadable."""
    return parse_json(read_text(path), path)


def read_moves(path: str) -> list[str]:
    """A move list from file ``path``: a JSON list of moves in the notation, or an
    object with it under ``moves`` (or ``solution``, as ``deal --verified`` prints
    it); UsageError otherwise."""
    moves = read_json(path)
    if isinstance(moves, dict):
        moves = moves.get("moves", moves.get("solution"))
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise UsageError(f"{path}: expected a JSON list of moves or {{\"moves\": [...]}}")
    return moves


def read_deal(path: str, args: argparse.Namespace) -> tuple[dict[str, Any], Position]:
    """The deal JSON in file ``path`` and its position under the rules of the
    flags (else the file's, else Classic draw 1); UsageError if it is none."""
    deal = read_json(path)
    if not isinstance(deal, dict):
        raise UsageError(f"{path}: a deal must be a JSON object with tableau and stock")
    try:
        return deal, Position.from_json(deal, rules_from(args, deal))
    except InvalidPositionError as e:
        raise UsageError(f"{path}: {e}") from None


def print_json(value: object) -> None:
    """Print ``value`` as JSON on stdout: its text as it is where stdout's encoding
    can write it (a UTF-8 terminal), else with ``\\u`` escapes (an ASCII or Latin-1
    one) — the same JSON either way, never a ``UnicodeEncodeError``."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(value)
    print(text)
