"""The first paint's data (issue 22 item 2): made at build time from web/layout.py
by tools/firstpaint.py, shipped as web/vendor/first-paint.js and precached (O2),
so web/boot/paint.js keeps no geometry of its own. The browser side is
tests/e2e/test_layout_paint.py."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from kosynka import Position
from tools import bundle, firstpaint
from web import layout, store

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data():
    return firstpaint.paint_data(ROOT)


def test_every_reference_is_the_layout_of_a_new_deal(data):
    assert len(data["backs"]) == 2 * len(firstpaint.REFERENCES)   # either hand
    for ref in data["backs"]:
        g = layout.geometry(ref["w"], ref["h"], ref["left"])
        placed = layout.places(Position.deal(0), g)
        assert (ref["cw"], ref["ch"]) == (g.cw, g.ch)
        for name in layout.PILES:
            x, y, w, h, cards = ref["piles"][name]
            bx, by, bw, bh = g.pile_box(name)
            assert (x, y, w or g.cw, h) == (bx, by, bw, bh)
            want = sorted((p.index, p.x, p.y) for p in placed.values() if p.pile == name)
            assert cards == [[px, py] for _, px, py in want]


def test_a_reference_stands_only_for_tables_of_its_own_layout(data):
    """The side layout begins at ``wide_ratio``: a reference's aspect range never
    crosses it, so a phone on its side is never painted as one upright."""
    wide = layout.N["wide_ratio"]
    for ref in data["backs"]:
        lo, hi = ref["aspect"]
        assert lo <= ref["w"] / ref["h"] < (hi or float("inf"))
        assert (lo, hi) in ((0, wide), (wide, None))
        assert layout.geometry(ref["w"], ref["h"]).side == (lo == wide)
    assert {tuple(r["aspect"]) for r in data["backs"]} == {(0, wide), (wide, None)}


def test_its_version_follows_the_layout_and_the_view(tmp_path, data):
    for rel in firstpaint.SOURCES:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tmp_path / rel)
    same = firstpaint.paint_data(tmp_path)
    assert same["v"] == data["v"]
    with open(tmp_path / "web/layout.py", "a") as f:
        f.write("# a change\n")
    assert firstpaint.paint_data(tmp_path)["v"] != data["v"]


def test_the_build_ships_it_and_the_service_worker_precaches_it(tmp_path):
    for name in ("package.json", "package-lock.json", "index.html", "pyscript.toml",
                 "manifest.webmanifest"):
        shutil.copy2(ROOT / name, tmp_path / name)
    for pkg in ("kosynka", "web"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "vendor"))
    rec = bundle.ensure_bundle(tmp_path, force=True)
    assert firstpaint.OUTPUT in rec["files"]
    text = (tmp_path / firstpaint.OUTPUT).read_text("utf-8")
    body = text.split("self.kosynkaFirstPaint = ", 1)[1].rstrip().rstrip(";")
    assert json.loads(body) == firstpaint.paint_data(tmp_path)
    assert f'src="{firstpaint.OUTPUT}"' in (ROOT / "index.html").read_text("utf-8")


def test_paint_js_reads_storage_through_the_build_data_alone(data):
    """Issue 28 item 4: the storage keys and the look's values (theme, hand) have
    one source, web/store.py; web/boot/paint.js gets them from the build's data,
    reads only keys the data carries, and writes none of them itself."""
    js = (ROOT / "web/boot/paint.js").read_text("utf-8")
    keys = data["store"]["keys"]
    assert keys == {"paint": store.PAINT_KEY, "game": store.GAME_KEY, "settings": store.SETTINGS_KEY,
                    "probe": store.PROBE_KEY}
    assert set(re.findall(r'read\("(\w+)"\)', js)) | set(re.findall(r"STORE\.keys\.(\w+)", js)) == set(keys)
    assert data["store"]["themes"] == [x for x in store.THEMES if x != store.AUTO_THEME] != []
    assert data["store"]["left"] == store.LEFT_HAND in store.HANDS
    for value in (*keys.values(), *store.THEMES, *store.HANDS):
        assert not re.search(rf"""["']{re.escape(value)}["']""", js), value
    assert not re.search(r"kosynka\.[a-z]", js)          # no key of its own either
