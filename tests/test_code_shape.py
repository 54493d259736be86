"""The code's shape as issue 28 wants it: the README's code map matches the
tree — every module of the engine, the page and the tools is named there (the
race's and the solver's in the pages the README sends a reader to for them,
docs/race.md and docs/solver.md) and every path it names exists —; no module of
``kosynka/``, ``web/``, ``tools/`` or ``bench/`` is over 500 lines; the race's
hand-over channel is named once. The layer rules are tests/test_imports.py's (from the import graph); the
storage keys' one source is checked by tests/test_web_store.py and
tests/test_first_paint.py."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 500
MAPS = {"kosynka/race/": "docs/race.md", "web/race/": "docs/race.md", "kosynka/solver/": "docs/solver.md"}


def _names(doc: str) -> set[str]:
    """What ``doc`` names in backticks (a path, a file name or a glob such as ``snapshot-*.mjs``)."""
    return set(re.findall(r"`([\w./*-]+)`", (ROOT / doc).read_text("utf-8")))


def _modules() -> list[str]:
    found = [ROOT / "sw.js"]
    for top in ("kosynka", "web", "tools"):
        found += [p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".mjs", ".js")]
    return sorted(p.relative_to(ROOT).as_posix() for p in found
                  if not {"vendor", "__pycache__"} & set(p.parts) and p.name != "__init__.py")


def test_every_module_is_on_the_map():
    readme = _names("README.md")
    missing = []
    for rel in _modules():
        names = readme | next((_names(doc) for folder, doc in MAPS.items() if rel.startswith(folder)), set())
        if not any(fnmatch(rel, n) or fnmatch(rel.rsplit("/", 1)[-1], n) for n in names):
            missing.append(rel)
    assert missing == []


def test_every_path_on_the_map_exists():
    paths = [n for n in _names("README.md") if re.match(r"(kosynka|web|tools|tests|bench|docs)/", n)]
    assert len(paths) > 30
    assert [p for p in paths if not any(ROOT.glob(p.rstrip("/")))] == []


def test_no_module_over_500_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text("utf-8").splitlines())
             for top in ("kosynka", "web", "tools", "bench") for p in (ROOT / top).rglob("*")
             if p.suffix in (".py", ".mjs", ".js") and not {"vendor", "__pycache__"} & set(p.parts)}
    assert len(sizes) > 100 and {rel: n for rel, n in sizes.items() if n > MAX_LINES} == {}


def test_the_handover_channel_is_named_once():
    """``handover.mjs`` exports it, ``web/race/invites.py`` reads it from there."""
    race = ROOT / "web" / "race"
    written = [p.relative_to(ROOT).as_posix()
               for p in sorted((ROOT / "web").rglob("*"))
               if p.suffix in (".py", ".mjs", ".js", ".html") and "vendor" not in p.parts
               and re.search(r"""["']kosynka-race["']""", p.read_text("utf-8"))]
    assert written == ["web/race/handover.mjs"]
    assert re.search(r"^export const CHANNEL = ", (race / "handover.mjs").read_text("utf-8"), re.M)
    assert 'module("handover.mjs")).CHANNEL' in (race / "invites.py").read_text("utf-8")
