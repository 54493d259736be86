"""The race page's modules as issue 28 wants them: none over 500 lines, the
hand-over channel's name written once (``handover.mjs`` exports it,
``web/race/invites.py`` reads it from there)."""

from __future__ import annotations

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
