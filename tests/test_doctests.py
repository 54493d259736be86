"""The engine's docstring examples run as tests (issue 9 item 7): every module of
``kosynka/`` found on disk (``__main__`` runs the CLI, it is not imported), and
the README's (issue 22)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "kosynka").rglob("*.py")
    if "__pycache__" not in p.parts and p.name != "__main__.py"
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_engine_has_examples():
    counts = {n: doctest.testmod(importlib.import_module(n)).attempted for n in
              ("kosynka.position", "kosynka.deals")}
    assert all(counts.values()), counts


def test_the_readme_example_runs():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted and result.failed == 0
