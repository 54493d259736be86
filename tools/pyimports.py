"""Which modules a Python source file imports, read with :mod:`ast`.

Used by the bundle's rule (:mod:`tools.bundle`: the browser gets what the page
imports) and by ``tests/test_imports.py`` (no import cycle in the engine).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Container, Iterable, Iterator
from pathlib import Path

__all__ = ["module_name", "imports", "ours"]


def module_name(rel: str) -> str:
    """``"kosynka/race/__init__.py"`` → ``"kosynka.race"``; ``"web/ui.py"`` → ``"web.ui"``."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _module_level(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes run at import time: everything but function bodies."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                todo.append(child)


def imports(path: Path, name: str, *, lazy: bool = True) -> set[str]:
    """:func:`_parsed`, read once per version of the file (its modification time
    and size): the dev server asks for the whole app on every request for a
    build file (a no-op rebuild took 0.3 s of CPU, parsing every module again)."""
    st = path.stat()
    return set(_parsed(path, name, lazy, (st.st_mtime_ns, st.st_size)))


@functools.lru_cache(maxsize=1024)
def _parsed(path: Path, name: str, lazy: bool, _stamp: tuple[int, int]) -> frozenset[str]:
    """Absolute names of what module ``name`` (source file ``path``) imports:
    ``import a.b`` → ``a.b``; ``from a import b`` → ``a`` and ``a.b`` (``b``
    may be a module); relative imports resolved against ``name``. With
    ``lazy=False`` only what runs at import time counts (an import inside a
    function does not). Raises SyntaxError/ValueError for a file that does
    not parse."""
    tree = ast.parse(path.read_bytes(), str(path))
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in (ast.walk(tree) if lazy else _module_level(tree)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names if a.name != "*")
    return frozenset(found)


def ours(names: Iterable[str], known: Container[str]) -> set[str]:
    """Each name mapped onto the deepest module of ``known`` it lies in
    (``kosynka.solver.solve`` → ``kosynka.solver``); names of no known module
    are dropped."""
    out = set()
    for n in names:
        while n and n not in known:
            n = n.rpartition(".")[0]
        if n:
            out.add(n)
    return out
