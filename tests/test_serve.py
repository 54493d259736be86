"""tools/serve.py without a browser: the bundle holds what the page imports, by
rule (issue 9 item 3), is deterministic, the server serves a sub-path, and
`python3 -m kosynka serve` fails in one line with exit status 2 on bad input
(issue 4 items 1-2, O1). None of it needs the runtime vendored: a fresh
checkout passes."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tools import bundle, serve

ROOT = Path(__file__).resolve().parents[1]


def _app_copy(tmp: Path) -> Path:
    for name in ("package.json", "package-lock.json", "index.html", "pyscript.toml",
                 "manifest.webmanifest"):
        shutil.copy2(ROOT / name, tmp / name)
    shutil.copytree(ROOT / "kosynka", tmp / "kosynka", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "web", tmp / "web",
                    ignore=shutil.ignore_patterns("__pycache__", "vendor"))
    return tmp


def test_bundle_holds_what_the_page_imports_and_follows_the_disk(tmp_path):
    app = _app_copy(tmp_path)
    rec = bundle.ensure_bundle(app, force=True)
    names = set(zipfile.ZipFile(app / "web/vendor/app.zip").namelist())
    web = {p.relative_to(app).as_posix() for p in (app / "web").glob("*.py")}
    assert web and web <= names                       # every module of the page
    assert {"kosynka/__init__.py", "kosynka/position.py", "kosynka/solver/__init__.py",
            "kosynka/solver/search.py", "kosynka/solver/moves.py"} <= names
    # command line and benchmark: no page module imports them, so they stay out
    assert not names & {"kosynka/cli.py", "kosynka/cli_common.py", "kosynka/__main__.py",
                        "kosynka/solver_bench.py"}
    assert not any(n.startswith("tools/") for n in names)
    assert rec["modules"] == sorted(n[:-3].replace("/", ".").removesuffix(".__init__")
                                    for n in names if n.startswith("kosynka/"))
    assert all(not m.endswith(".main") for m in rec["snapshot_modules"])
    # a new engine module is bundled once the page imports it: no list to edit
    (app / "kosynka" / "zz_new_module.py").write_text("X = 1\n")
    assert "kosynka.zz_new_module" not in bundle.ensure_bundle(app)["modules"]
    (app / "web" / "zz_page.py").write_text("def f():\n    from kosynka import zz_new_module\n")
    rec2 = bundle.ensure_bundle(app)
    assert "kosynka/zz_new_module.py" in zipfile.ZipFile(app / "web/vendor/app.zip").namelist()
    assert "kosynka.zz_new_module" in rec2["modules"]
    assert rec2["app"] != rec["app"] and rec2["version"] != rec["version"]


def test_bundle_is_deterministic(tmp_path):
    app = _app_copy(tmp_path)
    a = bundle.ensure_bundle(app, force=True)
    first = (app / "web/vendor/app.zip").read_bytes()
    b = bundle.ensure_bundle(app, force=True)
    assert (app / "web/vendor/app.zip").read_bytes() == first
    assert a == b
    sw = (app / "web/vendor/sw-manifest.js").read_text()
    assert json.dumps(a["version"]) in sw


def test_snapshot_modules_exclude_browser_imports(tmp_path):
    app = _app_copy(tmp_path)
    (app / "web" / "zz_dom.py").write_text("import js\n")
    (app / "web" / "zz_uses_dom.py").write_text("from . import zz_dom\n")
    (app / "web" / "zz_pure.py").write_text("import json\n")
    rec = bundle.ensure_bundle(app, force=True)
    assert "web.zz_pure" in rec["snapshot_modules"]
    assert "web.zz_dom" not in rec["snapshot_modules"]
    assert "web.zz_uses_dom" not in rec["snapshot_modules"]


def test_server_serves_a_sub_path(tmp_path):
    app = _app_copy(tmp_path)
    bundle.ensure_bundle(app, force=True)
    srv = serve.make_server(app, 0, prefix="/kosynka/")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{srv.server_address[1]}"
        with urllib.request.urlopen(base + "/kosynka/manifest.webmanifest") as r:
            assert json.load(r)["start_url"] == "./"
            assert "manifest" in r.headers["Content-Type"]
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(base + "/manifest.webmanifest")
    finally:
        srv.shutdown()
        srv.server_close()


def test_server_sends_precompressed_siblings_like_brotli_and_gzip_static(tmp_path):
    """Issue 23 item 3, issue 31 item 2: a vendored file's .br sibling
    (ensure_compressed) goes to a browser that accepts brotli, its .gz sibling to
    one that accepts gzip only, each with Content-Encoding and the file's own
    type; the plain file to one that accepts neither (or refuses them, q=0); a
    sibling older than its file is never sent."""
    import gzip
    import os

    import brotli

    vendor = tmp_path / "web" / "vendor"
    vendor.mkdir(parents=True)
    wasm = vendor / "big.wasm"
    wasm.write_bytes(b"\0asm" + bytes(100_000))
    (vendor / "small.js").write_text("x = 1;\n")
    assert serve.ensure_compressed(vendor) == [vendor / "big.wasm.gz", vendor / "big.wasm.br"]
    assert serve.ensure_compressed(vendor) == []  # up to date
    assert not {"web/vendor/big.wasm.gz", "web/vendor/big.wasm.br"} & set(
        bundle._shell_files(tmp_path, None))
    srv = serve.make_server(tmp_path, 0, rebuild=False)
    threading.Thread(target=srv.serve_forever, daemon=True).start()

    def get(accept):
        req = urllib.request.Request(f"http://127.0.0.1:{srv.server_address[1]}/web/vendor/big.wasm",
                                     headers={"Accept-Encoding": accept})
        with urllib.request.urlopen(req) as r:
            return r.headers["Content-Encoding"], r.headers["Content-Type"], r.read()

    try:
        enc, kind, body = get("gzip, deflate, br, zstd")       # Chromium's
        assert (enc, kind) == ("br", "application/wasm")
        assert brotli.decompress(body) == wasm.read_bytes() and len(body) < 10_000
        enc, kind, body = get("gzip, deflate")
        assert (enc, kind) == ("gzip", "application/wasm")
        assert gzip.decompress(body) == wasm.read_bytes()
        assert get("gzip;q=0, br;q=0")[0] is None
        assert get("identity") == (None, "application/wasm", wasm.read_bytes())
        st = wasm.stat()
        os.utime(wasm, (st.st_atime, st.st_mtime + 10))  # the file rebuilt since
        assert get("br, gzip")[0] is None
    finally:
        srv.shutdown()
        srv.server_close()


def _serve(*args):
    return subprocess.run([sys.executable, "-m", "kosynka", "serve", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [["--port", "x"], ["--port", "70000"], ["--bogus"]])
def test_bad_arguments_one_line_exit_2(args):
    r = _serve(*args)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_port_in_use_one_line_exit_2():
    # the port is taken before anything is vendored: no npm needed to say so
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = _serve("--port", str(s.getsockname()[1]))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "in use" in r.stderr


def test_serve_outside_a_checkout_says_so_in_one_line(tmp_path):
    # the engine alone (e.g. copied elsewhere): no tools/ package to serve with
    shutil.copytree(ROOT / "kosynka", tmp_path / "kosynka",
                    ignore=shutil.ignore_patterns("__pycache__"))
    r = subprocess.run([sys.executable, "-m", "kosynka", "serve"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("kosynka: error: serve runs from a Kosynka checkout")
    assert len(r.stderr.strip().splitlines()) == 1


def test_serve_help():
    r = _serve("--help")
    assert r.returncode == 0 and "--port" in r.stdout
