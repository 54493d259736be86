"""Challenge links: how long they are and what packing and checking cost (issue 20
item 1: "measure a 150-move win's link length; aim under 600 characters").

    python3 bench/challenge.py [--deals 40] [--base https://example.github.io/kosynka/]

For each variant (Classic draw 1, draw 3, Turn Three), the first ``deals``
verified deals from 1 on are won on the solver's line and packed
(``kosynka.challenge.pack``, name "Anna", time 3:12); printed: the actions per
game, bytes, code characters and whole-link characters (``--base`` + the
fragment), bits per action, and the CPU time of ``pack`` and ``check`` (the
replay). Then the win nearest 150 actions, and games of random legal play with
undos (a person's game has undos; the solver's has none) cut at 150 actions.
CPU time (``time.process_time``): the machine may be shared. With ``--browser``
the same codes are checked in Pyodide too (bench/pyodide.html, the app
bundle), as a friend's page checks them, with the ratio to CPython (wall
time there: Pyodide's process clock is coarse, and the page runs nothing else).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kosynka import challenge as C  # noqa: E402
from kosynka.game import Game  # noqa: E402
from kosynka.position import Rules  # noqa: E402
from kosynka.solver import verified_deal  # noqa: E402

VARIANTS = (("Classic, draw 1", Rules(1)), ("Classic, draw 3", Rules(3)), ("Turn Three", Rules(3, 2)))


def measure(number: int, rules: Rules, actions: tuple[str, ...], base: str) -> dict:
    ch = C.Challenge(number, rules, "Anna", 192, actions)
    t0 = time.process_time()
    code = C.pack(ch)
    t1 = time.process_time()
    C.check(code)
    t2 = time.process_time()
    raw = (len(code) * 6) // 8
    packed = len(C.unpack(code)[3])
    return {"number": number, "rules": rules, "actions": len(actions), "bytes": raw, "code": len(code),
            "code_text": code,
            "link": len(C.link(base, code)), "bits": 8 * packed / max(1, len(actions)),
            "head": raw - packed,
            "pack_ms": (t1 - t0) * 1000, "check_ms": (t2 - t1) * 1000}


def random_play(number: int, rules: Rules, n: int, rng: random.Random) -> tuple[str, ...]:
    g = Game.new(number, rules, clock=lambda: 0.0)
    while g.moves < n:
        options = C.choices(g)
        if not options:
            break
        moves = [o for o in options if o != "U"]
        action = "U" if "U" in options and (not moves or rng.random() < 0.1) else rng.choice(moves)
        g.undo() if action == "U" else g.play(action)
    return tuple(g.log)


def line(name: str, rows: list[dict]) -> str:
    def f(key: str, fmt: str = "{:.0f}") -> str:
        v = [r[key] for r in rows]
        return f"{fmt.format(statistics.mean(v))} (max {fmt.format(max(v))})"
    return (f"{name:16} {len(rows):3} games: actions {f('actions')}, link {f('link')} chars, "
            f"code {f('code')}, the rest {f('head')} bytes + {f('bits', '{:.2f}')} bits/action, "
            f"pack {f('pack_ms', '{:.1f}')} ms, "
            f"check {f('check_ms', '{:.1f}')} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--base", default="https://example.github.io/kosynka/")
    ap.add_argument("--browser", action="store_true", help="check the codes in Pyodide too")
    args = ap.parse_args(argv)
    print(f"challenge links, CPython {sys.version.split()[0]}, base {args.base!r} ({len(args.base)} chars)")
    wins: list[dict] = []
    for name, rules in VARIANTS:
        rows = []
        n = 1
        while len(rows) < args.deals:
            n, res = verified_deal(n, rules)
            rows.append(measure(n, rules, tuple(res.moves), args.base))
            n += 1
        wins += rows
        print(line(name, rows))
    near = min(wins, key=lambda r: abs(r["actions"] - 150))
    print(f"the win nearest 150 actions: deal {near['number']} ({near['rules'].name}), "
          f"{near['actions']} actions → "
          f"a {near['link']}-character link ({near['code']}-character code, {near['bytes']} bytes)")
    rng = random.Random(1)
    human = [measure(k, Rules(1), random_play(k, Rules(1), 150, rng), args.base) for k in range(1, args.deals + 1)]
    print(line("random + undos", human))
    longest = measure(1, Rules(1), random_play(1, Rules(1), C.MAX_MOVES, rng), args.base)
    print(f"the longest game a link takes ({longest['actions']} actions): a {longest['link']}-character "
          f"link, check {longest['check_ms']:.0f} ms")
    if args.browser:
        in_pyodide([r["code_text"] for r in wins[:40]], longest)
    return 0


BROWSER_RUN = """
import json, time
from kosynka import challenge as C

def run(codes, rounds):
    for code in codes:  # warm up (imports, caches)
        C.check(code)
    t = time.perf_counter()  # Pyodide's process_time is coarse; the page does nothing else
    for _ in range(rounds):
        for code in codes:
            C.check(code)
    return (time.perf_counter() - t) / rounds
"""


def in_pyodide(codes: list[str], longest: dict) -> None:
    """``check`` of the same codes on Pyodide in Chromium, against CPython."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from startup import served_browser  # bench/startup.py

    ns: dict = {}
    exec(BROWSER_RUN, ns)
    with served_browser() as (browser, base):
        page = browser.new_page()
        page.goto(base + "bench/pyodide.html")
        page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120_000)
        page.evaluate("code => py.runPython(code)", BROWSER_RUN)
        for label, batch, rounds in ((f"{len(codes)} wins", codes, 5),
                                     (f"the {longest['actions']}-action game", [longest["code_text"]], 3)):
            cp = ns["run"](batch, rounds)
            js = page.evaluate("a => py.globals.get('run')(a[0], a[1])", [batch, rounds])
            print(f"check of {label} in Pyodide: {js * 1000 / len(batch):.1f} ms each "
                  f"(CPython {cp * 1000 / len(batch):.1f} ms, ratio {js / cp:.2f})")


if __name__ == "__main__":
    sys.exit(main())
