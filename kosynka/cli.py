"""``python -m kosynka …`` — the command line.

Subcommands: ``deal``, ``replay``, ``bench``, ``solve``, ``serve`` (see ``--help``). Bad
input — a wrong argument, an unreadable or malformed file — prints one line on
stderr and exits 2, never a traceback. ``replay`` exits 1 at the first illegal
move, naming it and the rule that forbids it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .game import Game
from .position import IllegalMoveError, InvalidMoveError, InvalidPositionError, Position, Rules
from .deals import MAX_DEAL

__all__ = ["main"]


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(message)


def _deal_number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a deal number: {text!r}") from None
    if not 0 <= n < MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number must be 0 … 2**64-1, not {n}")
    return n


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


def rules_from(args: argparse.Namespace, data: dict | None = None) -> Rules:
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


def read_json(path: str) -> object:
    """The JSON in file ``path`` (``-`` = stdin); UsageError if unreadable."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return json.loads(text)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"{path} is not valid JSON: {e}") from None


def deal_json(position: Position, number: int | None) -> dict:
    """The pinned deal JSON of a starting position, with number and rules."""
    data = {"number": number, "draw": position.rules.draw, "redeals": position.rules.redeals}
    full = position.to_json()
    data["tableau"], data["stock"] = full["tableau"], full["stock"]
    return data


# ---------------------------------------------------------------- commands
def cmd_deal(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    if getattr(args, "verified", False):
        from .solver import verified_deal_json  # the solver adds this subcommand's body
        data = verified_deal_json(args.number, rules)
    else:
        data = deal_json(Position.deal(args.number, rules), args.number)
    print(json.dumps(data))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    deal = read_json(args.deal)
    if not isinstance(deal, dict):
        raise UsageError(f"{args.deal}: a deal must be a JSON object with tableau and stock")
    rules = rules_from(args, deal)
    try:
        start = Position.from_json(deal, rules)
    except InvalidPositionError as e:
        raise UsageError(f"{args.deal}: {e}") from None
    moves = read_json(args.moves)
    if isinstance(moves, dict):
        moves = moves.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise UsageError(f"{args.moves}: expected a JSON list of moves or {{\"moves\": [...]}}")
    game = Game.from_position(start, clock=lambda: 0.0)
    for i, move in enumerate(moves, 1):
        try:
            if move == "U":
                game.undo()
            else:
                game.play(move)
        except (IllegalMoveError, InvalidMoveError) as e:
            print(f"move {i} ({move}) is illegal: {e}", file=sys.stderr)
            return 1
    if game.is_won:
        print("won")
    else:
        p = game.position
        print(f"not won: {sum(p.foundations)}/52 on foundations, {game.moves} moves, "
              f"score {game.score}, {len(p.stock)} in stock, {len(p.waste)} in waste, "
              f"{sum(p.down)} face down")
    return 0


def bench_engine(seconds: float = 2.0, seed: int = 1) -> dict:
    """Random legal play over deals 0, 1, …: per position, generate the legal
    moves, then push and pop each of them; then play one at random. Returns
    the counts and rates."""
    import random
    rng = random.Random(seed)
    positions = moves = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    number = 0
    while time.perf_counter() < deadline:
        p = Position.deal(number)
        number += 1
        for _ in range(300):
            legal = p.legal_moves()
            positions += 1
            if not legal:
                break
            for m in legal:
                p.push(m)
                p.pop()
            moves += len(legal)
            p.push(rng.choice(legal))
    dt = time.perf_counter() - t0
    return {"deals": number, "positions": positions, "moves": moves, "seconds": dt,
            "positions_per_s": positions / dt, "moves_per_s": moves / dt}


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "engine":
        r = bench_engine(args.seconds)
        print(f"engine on Python {sys.version.split()[0]}: {r['deals']} deals, "
              f"{r['positions']} positions in {r['seconds']:.2f} s")
        print(f"  legal-move generation + push + pop of every move: "
              f"{r['moves_per_s']:,.0f} moves/s ({r['positions_per_s']:,.0f} positions/s)")
        return 0
    from .solver import bench_main  # the solver's benchmark
    return bench_main(args)


def cmd_solve(args: argparse.Namespace) -> int:
    """``solve [FILE|-]``: decide a deal JSON or a saved game (``"kosynka": "game"``)
    with the solver and print ``{"result", "moves", "states", "seconds"}`` (F2)."""
    from .game import SaveError
    from .solver import Solver
    data = read_json(args.file)
    if not isinstance(data, dict):
        raise UsageError(f"{args.file}: expected a deal JSON object or a saved game")
    if args.max_states is not None and args.max_states < 1:
        raise UsageError("--max-states must be at least 1")
    if args.max_seconds is not None and not args.max_seconds > 0:
        raise UsageError("--max-seconds must be positive")
    if data.get("kosynka") == "game":
        try:
            position = Game.from_json(json.dumps(data)).position
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
    res = Solver(position, max_states=args.max_states, max_seconds=args.max_seconds).run()
    print(json.dumps(res.to_json()))
    return 0


def cmd_serve(argv: list[str]) -> int:
    from . import serve
    return serve.main(argv)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m kosynka", description="Kosynka — Klondike solitaire")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("deal", help="print the deal JSON of deal number N")
    p.add_argument("number", type=_deal_number)
    p.add_argument("--verified", action="store_true",
                   help="the first deal at or after N that the solver wins (V1)")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("replay", help="play a list of moves from a deal")
    p.add_argument("deal", help="deal JSON file (- for stdin)")
    p.add_argument("moves", help="JSON list of moves, or {\"moves\": [...]}")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="print throughput figures")
    p.add_argument("what", choices=("engine", "solver"))
    p.add_argument("--seconds", type=float, default=2.0, help="engine: how long to run")
    p.add_argument("--deals", type=int, default=100, help="solver: deals 0…N-1")
    p.add_argument("--max-seconds", type=float, default=10.0, help="solver: budget per deal")
    p.add_argument("--max-states", type=int, default=None, help="solver: state budget per deal")
    p.add_argument("--jobs", type=int, default=1, help="solver: worker processes (default 1)")
    p.add_argument("--json", action="store_true", help="solver: also print the figures as JSON")
    p.add_argument("--verbose", action="store_true", help="solver: one JSON line per deal on stderr")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("solve", help="decide a deal or a saved game with the solver (F2)")
    p.add_argument("file", nargs="?", default="-",
                   help="deal JSON or saved-game JSON (- for stdin, the default)")
    p.add_argument("--max-states", type=int, default=None, help="state budget (default none)")
    p.add_argument("--max-seconds", type=float, default=60.0, help="time budget (default 60)")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_solve)

    sub.add_parser("serve", help="serve the app at http://127.0.0.1:8000/ (--port N)",
                   add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "serve":
            return cmd_serve(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except UsageError as e:
        print(f"kosynka: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
