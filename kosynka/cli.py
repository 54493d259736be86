"""``python -m kosynka …`` — the command line.

Subcommands: ``deal``, ``replay``, ``bench``, ``solve``, ``serve``, ``race``,
``challenge`` (see ``--help``),
listed in :data:`COMMANDS`. Bad input — a wrong argument, an unreadable or
malformed file — prints one line on stderr and exits 2, never a traceback.
``replay`` exits 1 at the first illegal move, naming it and the rule that
forbids it; it prints ``won``, or ``not won:`` with how the game ended if the
engine can tell (no legal move left, a dead end: :class:`~kosynka.position.Outcome`)
and the counts.

``serve`` is the development server of the repository's ``tools/`` package:
it is no part of the engine (nor of the browser bundle), so the engine does
not import it; this command imports it when run, and says so in one line when
``kosynka`` is used without its checkout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .challenge_cli import add_challenge
from .cli_common import (
    Parser,
    Subparsers,
    UsageError,
    add_rules_arguments,
    deal_number,
    one_line,
    parse_json,
    read_deal,
    read_moves,
    read_text,
    rules_from,
)
from .deals import deal_json
from .game import Game
from .position import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Position,
    Termination,
)
from .race.cli import add_race

__all__ = ["main", "COMMANDS"]


# ---------------------------------------------------------------- commands
def cmd_deal(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    number, solution = args.number, None
    if args.verified:
        from .solver import NoVerifiedDealError, verified_deal
        try:
            number, res = verified_deal(number, rules)
        except NoVerifiedDealError as e:
            raise UsageError(str(e)) from None
        solution = res.moves
    data = deal_json(number, **rules.to_json())
    if solution is not None:
        data["solution"] = solution
    print(json.dumps(data))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    _, start = read_deal(args.deal, args)
    moves = read_moves(args.moves)
    game = Game.from_position(start, clock=lambda: 0.0)
    for i, move in enumerate(moves, 1):
        try:
            if move == "U":
                game.undo()
            else:
                game.play(move)
        except (IllegalMoveError, InvalidMoveError) as e:
            print(one_line(f"move {i} ({move}) is illegal: {e}"), file=sys.stderr)
            return 1
    outcome = game.outcome()
    if outcome is not None and outcome.won:
        print("won")
    else:
        p = game.position
        end = "" if outcome is None else ENDS[outcome.termination] + ", "
        print(f"not won: {end}{sum(p.foundations)}/52 on foundations, {game.moves} moves, "
              f"score {game.score}, {len(p.stock)} in stock, {len(p.waste)} in waste, "
              f"{sum(p.down)} face down")
    return 0


ENDS = {Termination.NO_MOVES: "no legal move left",
        Termination.DEAD_END: "a dead end (no move can put a card up, turn one up or play "
                              "one from the stock and waste)"}
"""How ``replay`` says a game that cannot be won any more has ended."""


def bench_engine(seconds: float = 2.0, seed: int = 1) -> dict[str, float]:
    """Random legal play over deals 0, 1, …: per position, generate the legal
    moves, then push and pop each of them; then play one at random, for
    ``seconds`` of CPU time (``time.process_time``: what else the machine runs
    does not change the figure). Returns the counts and rates."""
    import random
    rng = random.Random(seed)
    positions = moves = 0
    t0 = time.process_time()
    deadline = t0 + seconds
    number = 0
    while time.process_time() < deadline:
        p = Position.deal(number)
        number += 1
        for _ in range(300):
            legal = p.generate_legal_moves()
            positions += 1
            if not legal:
                break
            for m in legal:
                p.push(m)
                p.pop()
            moves += len(legal)
            p.push(rng.choice(legal))
    dt = time.process_time() - t0
    return {"deals": number, "positions": positions, "moves": moves, "seconds": dt,
            "positions_per_s": positions / dt, "moves_per_s": moves / dt}


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "engine":
        if not 0 < args.seconds < float("inf"):
            raise UsageError("--seconds must be a positive number")
        r = bench_engine(args.seconds)
        print(f"engine on Python {sys.version.split()[0]}: {r['deals']} deals, "
              f"{r['positions']} positions in {r['seconds']:.2f} CPU s")
        print(f"  legal-move generation + push + pop of every move: "
              f"{r['moves_per_s']:,.0f} moves/s ({r['positions_per_s']:,.0f} positions/s)")
        return 0
    from . import solver_bench
    rules = rules_from(args)
    if args.deals < 1:
        raise UsageError("--deals must be at least 1")
    if args.max_seconds is not None and not args.max_seconds > 0:
        raise UsageError("--max-seconds must be positive")
    if args.max_states is not None and args.max_states < 1:
        raise UsageError("--max-states must be at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")

    def progress(row: solver_bench.Row) -> None:
        if args.verbose:
            print(json.dumps(row), file=sys.stderr, flush=True)

    r = solver_bench.run(args.deals, rules, args.max_seconds, args.max_states, args.jobs,
                         progress=progress)
    print(solver_bench.report(r))
    if args.json:
        print(json.dumps(r))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve [FILE|-]``: decide a deal JSON or a saved game (``"kosynka": "game"``)
    with the solver and print ``{"result", "moves", "states", "seconds"}`` (F2).
    ``--max-seconds`` and ``seconds`` are CPU time of this process
    (``time.process_time``), as in the benchmark: a busy machine does not change
    the verdict."""
    from .game import SaveError
    from .solver import Solver
    text = read_text(args.file)
    data = parse_json(text, args.file)
    if not isinstance(data, dict):
        raise UsageError(f"{args.file}: expected a deal JSON object or a saved game")
    if args.max_states is not None and args.max_states < 1:
        raise UsageError("--max-states must be at least 1")
    if args.max_seconds is not None and not args.max_seconds > 0:
        raise UsageError("--max-seconds must be positive")
    if data.get("kosynka") == "game":
        try:
            position = Game.from_json(text).position
        except SaveError as e:
            raise UsageError(f"{args.file}: {e}") from None
        rules = position.rules
        if (args.draw is not None and args.draw != rules.draw) or (
                hasattr(args, "redeals") and args.redeals != rules.redeals):
            raise UsageError(f"{args.file}: the saved game is played under {rules.name}; "
                             "--draw/--redeals cannot change it")
    else:
        rules = rules_from(args, data)
        try:
            position = Position.from_json(data, rules)
        except InvalidPositionError as e:
            raise UsageError(f"{args.file}: {e}") from None
    res = Solver(position, max_states=args.max_states, max_seconds=args.max_seconds,
                 clock=time.process_time).run()
    print(json.dumps(res.to_json()))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """The dev server lives outside the engine, in the repository's ``tools/``
    (it is no part of the app): imported only when asked for."""
    try:
        from tools import serve
    except ModuleNotFoundError as e:
        if e.name not in ("tools", "tools.serve"):
            raise
        raise UsageError("serve runs from a Kosynka checkout (its tools/ folder is missing)"
                         ) from None
    return serve.main(args.rest)


# ---------------------------------------------------------------- the parser
def add_deal(sub: Subparsers) -> None:
    p = sub.add_parser("deal", help="print the deal JSON of deal number N")
    p.add_argument("number", type=deal_number)
    p.add_argument("--verified", action="store_true",
                   help="the first deal at or after N that the solver wins (V1)")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_deal)


def add_replay(sub: Subparsers) -> None:
    p = sub.add_parser("replay", help="play a list of moves from a deal")
    p.add_argument("deal", help="deal JSON file (- for stdin)")
    p.add_argument("moves", help="JSON list of moves, or {\"moves\": [...]}")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_replay)


def add_bench(sub: Subparsers) -> None:
    p = sub.add_parser("bench", help="print throughput figures")
    p.add_argument("what", choices=("engine", "solver"))
    p.add_argument("--seconds", type=float, default=2.0,
                   help="engine: how long to run, in CPU seconds (default 2)")
    p.add_argument("--deals", type=int, default=100, help="solver: deals 0…N-1")
    p.add_argument("--max-seconds", type=float, default=10.0,
                   help="solver: budget per deal in CPU seconds (default 10)")
    p.add_argument("--max-states", type=int, default=None, help="solver: state budget per deal")
    p.add_argument("--jobs", type=int, default=1, help="solver: worker processes (default 1)")
    p.add_argument("--json", action="store_true", help="solver: also print the figures as JSON")
    p.add_argument("--verbose", action="store_true", help="solver: one JSON line per deal on stderr")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_bench)


def add_solve(sub: Subparsers) -> None:
    p = sub.add_parser("solve", help="decide a deal or a saved game with the solver (F2)")
    p.add_argument("file", nargs="?", default="-",
                   help="deal JSON or saved-game JSON (- for stdin, the default)")
    p.add_argument("--max-states", type=int, default=None, help="state budget (default none)")
    p.add_argument("--max-seconds", type=float, default=60.0,
                   help="time budget in CPU seconds of this process, as the benchmark counts "
                        "them, so a busy machine does not change the verdict (default 60)")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_solve)


def add_serve(sub: Subparsers) -> None:
    # its arguments (--port, --host, --quiet, --help) are tools.serve's own
    p = sub.add_parser("serve", help="serve the app at http://127.0.0.1:8000/ (--port N)",
                       add_help=False)
    p.set_defaults(func=cmd_serve, takes_rest=True)


COMMANDS = (add_deal, add_replay, add_bench, add_solve, add_serve, add_race, add_challenge)
"""Every subcommand, in ``--help`` order: a function that adds the subcommand's
parser to the subparsers and sets ``func`` (parsed args → exit status; raise
:class:`~kosynka.cli_common.UsageError` for bad input). A subcommand written in
another module (which imports :mod:`kosynka.cli_common`, never this module)
joins with its import and one entry here."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m kosynka", description="Kosynka — Klondike solitaire")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        args, rest = build_parser().parse_known_args(argv)
        if rest and not getattr(args, "takes_rest", False):
            raise UsageError(f"unrecognized arguments: {' '.join(rest)}")
        args.rest = rest
        status: int = args.func(args)
        return status
    except UsageError as e:
        print(one_line(f"kosynka: error: {e}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`… | head`): nothing more to say, and say nothing
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
