"""``python -m kosynka race simulate …`` (issue 10 item 5): the race's subcommand,
registered in :data:`kosynka.cli.COMMANDS`."""

from __future__ import annotations

import argparse
import json

from ..cli_common import Parser, Subparsers, UsageError

__all__ = ["add_race"]


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate
    if not 2 <= args.players <= 4:
        raise UsageError(f"--players must be 2, 3 or 4 (the host and 1–3 friends), not {args.players}")
    if not 0 <= args.faults <= 1:
        raise UsageError(f"--faults is a rate from 0 to 1, not {args.faults}")
    if args.hostile is not None and not 1 <= args.hostile < args.players:
        raise UsageError(f"--hostile must be a friend's seat, 1 to {args.players - 1}, "
                         f"not {args.hostile}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {args.seed}")
    print(json.dumps(simulate(args.players, args.kind, args.draw, args.seed, args.faults,
                              args.hostile)))
    return 0


def add_race(sub: Subparsers) -> None:
    p = sub.add_parser("race", help="race with friends: simulate a race of bots (N1–N11)")
    race = p.add_subparsers(dest="race_command", required=True, parser_class=Parser)
    s = race.add_parser("simulate", help="bots race through in-memory links on a fake clock; "
                        "prints one JSON object")
    s.add_argument("--players", type=int, default=2, help="2–4: the host and 1–3 friends")
    s.add_argument("--kind", choices=("last", "5", "10", "15"), default="last",
                   help="to the last card, or timed minutes (N4)")
    s.add_argument("--draw", type=int, choices=(1, 3), default=1, help="cards per stock tap")
    s.add_argument("--seed", type=int, default=0, help="seed of the deal, the bots and the faults")
    s.add_argument("--faults", type=float, default=0.0,
                   help="transport fault rate 0–1: duplicated, delayed, reordered, dropped")
    s.add_argument("--hostile", type=int, default=None,
                   help="this friend's seat also sends forged and malformed messages")
    s.set_defaults(func=cmd_simulate)
