"""The race page's modules as issue 28 wants them: none over 500 lines, the
hand-over channel's name written once (``handover.mjs`` exports it,
``web/race/invites.py`` reads it from there), nothing outside ``web/race/``
importing it but the app's root."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RACE = ROOT / "web" / "race"
MAX_LINES = 500


def test_no_race_page_module_over_500_lines():
    sizes = {p.name: len(p.read_text("utf-8").splitlines())
             for p in sorted(RACE.iterdir()) if p.suffix in (".py", ".mjs")}
    assert sizes and {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_the_handover_channel_is_named_once():
    written = [p.relative_to(ROOT).as_posix()
               for p in sorted((ROOT / "web").rglob("*"))
               if p.suffix in (".py", ".mjs", ".js", ".html") and "vendor" not in p.parts
               and re.search(r"""["']kosynka-race["']""", p.read_text("utf-8"))]
    assert written == ["web/race/handover.mjs"]
    assert re.search(r"^export const CHANNEL = ", (RACE / "handover.mjs").read_text("utf-8"), re.M)
    assert 'module("handover.mjs")).CHANNEL' in (RACE / "invites.py").read_text("utf-8")


def test_nothing_outside_the_race_page_imports_it():
    """Layers as the README says (issue 28 item 2): ``web/race/`` imports ``web``,
    never the other way round — the app's root (``web/app.py``) aside."""
    found = []
    for path in sorted((ROOT / "web").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("web/race/", "web/vendor/")) or rel == "web/app.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [(rel, n) for n in names if n == "web.race" or n.startswith("web.race.")]
            if isinstance(node, ast.ImportFrom) and node.module == "web":
                found += [(rel, "web." + a.name) for a in node.names if a.name == "race"]
    assert found == []
