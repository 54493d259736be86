"""The engine's import graph has no cycle (issue 9 item 3): every import of every
module of ``kosynka/`` and ``tools/`` counts, a function-local one too, since a
lazy import only hides a circle until the function runs."""

from __future__ import annotations

from pathlib import Path

from tools.pyimports import imports, module_name, ours

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kosynka", "tools")


def _graph() -> dict[str, set[str]]:
    """Module → the modules of ours it imports anywhere in its code."""
    known = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "__pycache__" not in rel.parts:
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


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
