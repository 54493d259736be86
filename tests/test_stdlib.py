"""The standard library the app runs (issue 31 item 1, O3): web/vendor/stdlib.zip,
made by tools/stdlib.py from the import graph. Every module of the app and every
standard module its code names (function-level imports too) imports the same
under it as under Pyodide's full library, in the vendored Pyodide under Node.js:
a module the rule missed shows as a ModuleNotFoundError only there. The browser
tests then run the whole app on it."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import bundle, serve, stdlib

ROOT = Path(__file__).resolve().parents[1]


def test_roots_follow_every_import_of_the_app_and_the_python_in_javascript(tmp_path):
    page = tmp_path / "web" / "page.py"
    page.parent.mkdir()
    page.write_text("import json\n\ndef later():\n    from fractions import Fraction\n"
                    "    import kosynka.x\n")
    js = tmp_path / "web" / "boot.mjs"
    js.write_text('import x from "./y.mjs";\npy.runPython(`\nimport os, textwrap\n'
                  'from email.utils import format_datetime\n`);\n')
    names = stdlib.roots([("web/page.py", page)], [js])
    assert {"json", "fractions", "os", "textwrap", "email.utils", "pyodide", "_pyodide"} <= set(names)
    assert not {n for n in names if n.startswith(("kosynka", "x", "y"))}


@pytest.fixture(scope="module")
def vendored():
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node.js/npm not installed")
    record = serve.ensure_vendor(ROOT)
    if not record.get("stdlib"):
        pytest.fail("the vendoring made no trimmed standard library (see its stderr)")
    return record


def test_the_app_imports_alike_under_the_trimmed_library(vendored, tmp_path):
    full = zipfile.ZipFile(ROOT / stdlib.FULL)
    trimmed = zipfile.ZipFile(ROOT / stdlib.OUTPUT)
    assert set(trimmed.namelist()) < set(full.namelist())
    sources = bundle.python_sources(ROOT)
    app = sorted({arc[:-3].replace("/", ".").removesuffix(".__init__") for arc, _ in sources})
    named = stdlib.roots(sources, bundle.js_sources(ROOT))
    names = tmp_path / "names.json"
    names.write_text(json.dumps(named + app))
    proc = subprocess.run(["node", str(ROOT / "tests/data/stdlib-check.mjs"), str(ROOT), str(names)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["full"]["web.solver_protocol"] == "ok" and got["full"]["kosynka.position"] == "ok"
    differ = {n: (got["full"][n], got["trimmed"][n]) for n in got["full"]
              if got["full"][n] != got["trimmed"][n]}
    assert not differ, differ


def test_no_node_no_trimmed_library_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert stdlib.ensure_stdlib(tmp_path, [], []) is None
    assert stdlib.current(tmp_path, [], []) is None       # the page loads the full library
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Node.js is not installed" in err[0]
