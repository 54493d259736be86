"""The first paint's data: card backs of a new deal laid out by ``web/layout.py``,
computed at build time (``tools/bundle.py`` writes ``web/vendor/first-paint.js``).

Before Python is up, ``web/boot/paint.js`` draws the table from data alone — it
keeps no geometry of its own: the exact paint the page saved last time (scaled
to the table if the table's size changed), or else the card backs of a new deal
from this file's data, for the reference table nearest in shape to the window,
scaled to it. Each reference is what the page lays out for that table box:

* ``w``, ``h`` — the table box; ``left`` — the left-handed table (issue 13);
* ``aspect`` — ``[lo, hi)``: the width / height ratios the reference stands for
  (the layout changes at ``wide_ratio``: a reference never stands for a table
  of the other layout);
* ``cw``, ``ch`` — the card size (``--cw``/``--ch`` of the table);
* ``piles`` — each pile id → ``[left, top, width, height, [[x, y], …]]``: the
  pile element's box (``width`` null where it is the card's, as the view leaves
  it to the style sheet) and its cards' offsets inside it, bottom → top (all
  face down: the first paint knows no card).

``store`` is what the first paint reads of the page's storage, from its one
source ``web/store.py`` (issue 28 item 4): ``keys`` (the saved paint, the saved
game, the settings, the probe), ``themes`` (the themes ``html[data-theme]`` takes
as they are: all but ``auto``, which follows the system) and ``left`` (the left
hand's value). paint.js writes none of them itself.

``lang`` is the language rule's data and the page's labels in every language
(``web.i18n.first_paint_words``): the first paint speaks the language the page
will (issue 32). ``v`` names the layout and the view that made the data (a hash of their
source): a paint the page saved under another ``v`` is not used (it could show
an older layout, then jump).

Run as a script (``python3 tools/firstpaint.py ROOT``) it writes the file for the
checkout at ``ROOT``; ``tools/bundle.py`` runs it in a fresh process when
``web/layout.py``, ``web/view.py`` or this file changed, so what it imports is
what is on disk.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

__all__ = ["REFERENCES", "LAYOUT_SOURCES", "SOURCES", "WORD_KEYS", "OUTPUT", "paint_data", "write"]

REFERENCES: tuple[tuple[int, int], ...] = (
    # the table box (px) of common viewports, as Chromium lays out index.html:
    # phones upright 360×640, 375×667, 390×844 (the panel in two rows under
    # 410 px, web/style.css), 412×915
    (360, 495), (375, 522), (390, 699), (412, 817),
    # phones on their side 640×360, 667×375, 844×390, 915×412
    (640, 262), (667, 277), (844, 293), (915, 315),
    # tablets 768×1024 upright, 1024×768 / desktops 1366×768, 1280×800, 1920×1080
    # (the bar's first stat is two lines: the variant above the deal's number, issue 32)
    (768, 927), (1000, 671), (1000, 703), (1000, 983),
    # short desktop windows (1280×600) and the shapes between
    (1000, 503), (1000, 420), (1000, 560), (600, 900), (480, 800),
)
"""Reference table boxes. Exact at these sizes; at others the one nearest in
shape is scaled (the figures are in docs/startup.md)."""

LAYOUT_SOURCES = ("web/layout.py", "web/view.py")
"""What the layout data is made from, with this file: its version ``v`` is their hash."""
SOURCES = LAYOUT_SOURCES + ("index.html", "web/store.py", "web/i18n/__init__.py", "web/i18n/uk.py",
                            "web/i18n/ru.py", "web/i18n/en.py")
"""Every file the data is made from (``tools/bundle.py`` rebuilds it when one changes)."""
WORD_KEYS = ("title", "table_label")
"""Strings the first paint shows besides the page's ``data-t`` labels (the app sets them)."""

OUTPUT = "web/vendor/first-paint.js"


def _new_deal() -> SimpleNamespace:
    """A new deal as the layout sees it: 1…7 cards in the columns, the top one
    face up, and 24 in the stock (any card numbers do: the first paint shows
    only backs)."""
    cards = iter(range(52))
    columns = [tuple(next(cards) for _ in range(c + 1)) for c in range(7)]
    return SimpleNamespace(columns=columns, down=[len(c) - 1 for c in columns],
                           stock=tuple(cards), waste=(), fan=0, foundations=(0, 0, 0, 0))


def _reference(w: int, h: int, left: bool, aspect: tuple[float, float | None]) -> dict[str, Any]:
    from web import layout

    g = layout.geometry(w, h, left)
    placed = layout.places(_new_deal(), g)
    piles: dict[str, list[Any]] = {}
    for name in layout.PILES:
        x, y, pw, ph = g.pile_box(name)
        cards = sorted((p.index, p.x, p.y) for p in placed.values() if p.pile == name)
        piles[name] = [x, y, None if pw == g.cw else pw, ph, [[px, py] for _, px, py in cards]]
    return {"w": w, "h": h, "left": left, "aspect": list(aspect), "cw": g.cw, "ch": g.ch,
            "piles": piles}


def _store() -> dict[str, Any]:
    """What paint.js reads of the page's storage (see the module docstring)."""
    from web import store

    return {"keys": {"paint": store.PAINT_KEY, "game": store.GAME_KEY, "settings": store.SETTINGS_KEY,
                     "probe": store.PROBE_KEY},
            "themes": [theme for theme in store.THEMES if theme != store.AUTO_THEME],
            "left": store.LEFT_HAND}


def paint_data(root: Path) -> dict[str, Any]:
    """The first paint's data for the checkout at ``root`` (see the module docstring)."""
    from web import layout
    from web.i18n import first_paint_words

    digest = hashlib.sha256(Path(__file__).read_bytes())
    for rel in LAYOUT_SOURCES:
        digest.update(rel.encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    wide = layout.N["wide_ratio"]
    backs = []
    for left in (False, True):
        for w, h in REFERENCES:
            side = layout.geometry(w, h, left).side
            backs.append(_reference(w, h, left, (wide, None) if side else (0, wide)))
    keys = sorted(set(re.findall(r'data-t="([a-z_0-9]+)"', (root / "index.html").read_text("utf-8"))))
    return {"v": digest.hexdigest()[:12], "backs": backs, "store": _store(),
            "lang": first_paint_words(keys + list(WORD_KEYS))}


def write(root: Path) -> Path:
    """Write :data:`OUTPUT` under ``root``; returns its path."""
    text = json.dumps(paint_data(root), separators=(",", ":"))
    out = root / OUTPUT
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text("// generated by tools/firstpaint.py from web/layout.py: do not edit\n"
                   f"self.kosynkaFirstPaint = {text};\n", "utf-8")
    tmp.replace(out)
    return out


if __name__ == "__main__":
    here = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sys.path.insert(0, str(here))
    print(write(here))
