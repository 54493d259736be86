"""The import graph (issue 9 item 3, issue 22 item 5): no cycle in the engine, the
page and the tools — every import counts, a function-local one too, since a lazy
import only hides a circle until the function runs — and the page imports only
what the browser bundle holds (web/vendor/app.zip, tools.serve's rule), the
standard library and the browser's own modules."""

from __future__ import annotations

import sys
from pathlib import Path

from tools import bundle
from tools.pyimports import imports, module_name, ours

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kosynka", "tools", "web")
BROWSER = {"js", "pyodide", "pyscript"}  # Pyodide's and PyScript's modules


def _graph() -> dict[str, set[str]]:
    """Module → the modules of ours it imports anywhere in its code."""
    known = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "__pycache__" not in rel.parts and "vendor" not in rel.parts:
                known[module_name(rel.as_posix())] = path
    return {n: ours(imports(p, n), known) - {n} for n, p in known.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}          # 1 = on the path, 2 = done
    path: list[str] = []

    def visit(n):
        state[n] = 1
        path.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in state and (c := visit(m)):
                return c
        state[n] = 2
        path.pop()
        return None

    for n in sorted(graph):
        if n not in state and (c := visit(n)):
            return c
    return None


def test_no_import_cycle():
    graph = _graph()
    assert "kosynka.solver" in graph["kosynka.cli"]          # the parse sees lazy imports
    # the dev tools use no engine code (only `python -m kosynka serve` reaches them)
    assert not {m for n in graph if n.startswith("tools") for m in graph[n]
                if m.startswith("kosynka")}
    assert _cycle(graph) is None, " → ".join(_cycle(graph))


def test_the_page_imports_only_what_the_bundle_holds():
    """Every import of every bundled module, function-local ones too (they run
    in the browser when called), is a bundled module of ours, the standard
    library (Pyodide's is CPython's), the browser's modules or a bundled PyPI
    package — so no page breaks on an import the bundle lacks."""
    bundled = set(bundle.browser_modules(ROOT))
    known = {module_name(p.relative_to(ROOT).as_posix()): p
             for pkg in ("kosynka", "web") for p in (ROOT / pkg).rglob("*.py")
             if "__pycache__" not in p.parts and "vendor" not in p.parts}
    allowed = set(sys.stdlib_module_names) | BROWSER | set(bundle.PYPI_MODULES)
    assert "web.app" in bundled and "kosynka.position" in bundled
    assert "kosynka.cli" not in bundled                   # the page has no use for it
    missing = {}
    for name in sorted(bundled):
        for imp in imports(known[name], name):
            top = imp.split(".")[0]
            if top in ("kosynka", "web"):
                mod = ours([imp], known)
                if not mod <= bundled:
                    missing[name] = sorted(mod - bundled)
            elif top not in allowed:
                missing[name] = [imp]
    assert not missing, f"imports the bundle cannot serve: {missing}"


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_layers_import_only_downward():
    """Issue 28 item 2, the README's layers: ``kosynka/`` (the rules) ← ``web/``
    (the page) ← ``web/race/``, with the race's engine ``kosynka/race/`` beside
    the rest of the engine. Only the roots reach into the race: the app
    (``web.app``) and the command line (``kosynka.cli``); ``web.race`` may use
    ``kosynka.race`` (its engine side). The engine never imports the page. Every
    import counts (``from web import race``, one inside a function): the one
    place these rules are checked."""
    graph = _graph()

    def inside(name: str, pkg: str) -> bool:
        return name == pkg or name.startswith(pkg + ".")

    wrong = sorted(
        f"{n} → {m}" for n, deps in graph.items() for m in deps
        if (inside(m, "web.race") and not inside(n, "web.race") and n != "web.app")
        or (inside(m, "kosynka.race") and not inside(n, "kosynka.race")
            and not inside(n, "web.race") and n != "kosynka.cli")
        or (inside(n, "kosynka") and inside(m, "web")))
    assert wrong == []
    assert "web.race.page" in graph["web.app"] and "kosynka.race.cli" in graph["kosynka.cli"]
