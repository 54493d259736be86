"""Vendoring and a static server for the browser app (O1, O3).

Standard library only (and PyPI's ``brotli`` when installed). Two jobs:

``ensure_vendor(root)``
    Makes the page's runtime and code available from the app's own folder, in the
    git-ignored ``web/vendor/``:

    * the pinned npm packages (``package.json`` + ``package-lock.json``) are
      installed with ``npm ci`` when ``node_modules`` lacks them or holds another
      version;
    * from ``pyodide`` only what a page loads is copied (``pyodide.mjs``,
      ``pyodide.asm.mjs``, ``pyodide.asm.wasm``, ``python_stdlib.zip``,
      ``pyodide-lock.json``) into ``web/vendor/pyodide/``; from
      ``@pyscript/core`` its ``dist/`` (source maps left out) into
      ``web/vendor/pyscript/``; from Trystero's Nostr strategy (the race's
      signaling, issue 19) its ES modules and their one dependency
      (``TRYSTERO``), named for the page by the import map in ``index.html``;
    * ``web/vendor/app.zip`` holds what the browser runs, chosen by a rule
      (:func:`browser_modules`), found on disk at build time, so there is no
      hand-kept list that can drift: every module of the ``web`` package (the
      page; ``web/vendor/``, ``web/boot/`` and ``web/icons/`` left out) and
      every module of ours they import, directly or not, anywhere in their code
      — so ``kosynka``'s command line and benchmark, which no page module
      imports, stay out. ``pyscript.toml`` maps it with
      ``"./web/vendor/app.zip" = "./*"``: in Pyodide ``import kosynka`` and
      ``import web.app`` work from the current directory;
    * ``web/vendor/first-paint.js``: the data the first paint draws before Python
      is up (card backs of a new deal as ``web/layout.py`` lays them out, at
      reference table sizes: :mod:`tools.firstpaint`), rebuilt in a fresh
      process when the layout, the view or its maker changed;
    * ``web/vendor/build.json`` (and the same data as ``build.mjs`` for the boot
      module and ``sw-manifest.js`` for the service worker) records the runtime
      version, a content hash of the Python code (``app``), a content hash of
      everything the app is made of (``version``), the list of files the service
      worker precaches and the modules the memory snapshot pre-imports.

    The runtime copy is skipped when already up to date; the bundle is rebuilt
    only when a source file is newer than it (cheap enough to call per request).

``main(argv)`` — ``python3 -m kosynka serve [--port 8000] [--host 127.0.0.1]``
    (or ``python3 -m tools.serve …``) takes the port, vendors if needed, serves
    the repository root over HTTP and prints the URL. Wrong arguments or a port
    in use: one line on stderr, exit status 2, before any vendoring. It sends a
    vendored file's precompressed ``.br`` or ``.gz`` sibling
    (:func:`ensure_compressed`) with its ``Content-Encoding`` when the browser
    accepts it, brotli first, as nginx's ``brotli_static`` and ``gzip_static``
    do (issue 23 item 3, issue 31 item 2). Any static server works as well
    (``python -m http.server``, which sends every file as it is) once vendored.

This module lives in the repository's ``tools/``, outside the engine: nothing
of it reaches the browser, and it imports nothing of ``kosynka`` (the first
paint's data is made by running the page's layout in another process).
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import sys
import threading
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any, Callable, NoReturn

from . import firstpaint
from .pyimports import imports, module_name, ours
from .snapshot import ensure_snapshot
from .stdlib import current as current_stdlib
from .stdlib import ensure_stdlib

__all__ = ["ROOT", "ensure_vendor", "ensure_bundle", "ensure_compressed", "browser_modules",
           "make_server", "main", "VendorError"]

ROOT = Path(__file__).resolve().parent.parent

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

# The race's signaling (issue 19): Trystero's Nostr strategy and what it imports,
# ES modules copied as they are (no bundler) into web/vendor/<folder>/ and named
# for the page by the import map in index.html. npm package → (folder, files;
# "*.mjs" = every module of the package's dist/).
TRYSTERO = {
    "@trystero-p2p/core": ("trystero-core", "dist/*.mjs"),
    "@trystero-p2p/nostr": ("trystero-nostr", "dist/*.mjs"),
    "@noble/secp256k1": ("noble-secp256k1", "index.js"),
}

# Files of the app shell outside web/ that the service worker precaches.
SHELL_FILES = ("index.html", "pyscript.toml", "manifest.webmanifest")

_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


class VendorError(Exception):
    """Vendoring failed (npm missing, install failed, package files missing)."""


def _lock_versions(root: Path) -> dict[str, str]:
    lock = json.loads((root / "package-lock.json").read_text("utf-8"))
    pkgs = lock.get("packages", {})
    return {
        name: pkgs.get(f"node_modules/{name}", {}).get("version", "")
        for name in ("pyodide", "@pyscript/core", "trystero", *TRYSTERO)
    }


def _installed_version(root: Path, name: str) -> str | None:
    try:
        meta = json.loads((root / "node_modules" / name / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    version = meta.get("version") if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


def _npm_ci(root: Path) -> None:
    import subprocess

    npm = shutil.which("npm")
    if npm is None:
        raise VendorError("npm is not installed; install Node.js/npm (apt-get install npm)")
    print("kosynka: installing the pinned runtime (npm ci) ...", file=sys.stderr)
    proc = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["npm ci failed"])[-1]
        raise VendorError(f"npm ci failed: {last}")


def _copy_if_stale(src: Path, dst: Path) -> bool:
    if not src.is_file():
        raise VendorError(f"missing {src}")
    try:
        st, dt = src.stat(), dst.stat()
        if st.st_size == dt.st_size and int(st.st_mtime) == int(dt.st_mtime):
            return False
    except OSError:
        pass
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.copy2(src, tmp)
    os.replace(tmp, dst)
    return True


# Python that JavaScript runs (the solver worker's glue in web/*.mjs) imports
# these lines' modules: they count as page modules for the bundle's rule.
_MJS_IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+((?:kosynka|web)(?:\.\w+)*)", re.M)


@functools.lru_cache(maxsize=512)
def _imports_cached(path: Path, name: str, lazy: bool, stamp: tuple[int, int]) -> frozenset[str]:
    return frozenset(imports(path, name, lazy=lazy))


def _imports(path: Path, name: str, lazy: bool = True) -> frozenset[str]:
    """:func:`tools.pyimports.imports`, parsed once per version of the file (the
    server asks on every request for a build file)."""
    st = path.stat()
    return _imports_cached(path, name, lazy, (st.st_mtime_ns, st.st_size))


def _candidates(root: Path) -> dict[str, Path]:
    """Module name → path of every module of ``kosynka`` and ``web`` on disk
    (``web/vendor``, ``web/boot``, ``web/icons`` are not Python of the page)."""
    out: dict[str, Path] = {}
    for pkg in ("kosynka", "web"):
        for path in sorted((root / pkg).rglob("*.py")) if (root / pkg).is_dir() else ():
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts or any(p.startswith(".") for p in rel.parts):
                continue
            if pkg == "web" and rel.parts[1] in ("vendor", "boot", "icons"):
                continue
            out[module_name(rel.as_posix())] = path
    return out


def browser_modules(root: Path | str | None = None) -> list[str]:
    """The rule for what the browser gets: the modules of the ``web`` package,
    the modules that Python run from ``web/**/*.mjs`` imports, and — following
    every import of each (function-local ones too: they run in the browser
    when called), plus each module's parent packages — every module of
    ``kosynka``/``web`` reached. Sorted names."""
    root = Path(root or ROOT).resolve()
    known = _candidates(root)
    todo = [n for n in known if n.split(".")[0] == "web"]
    for js in sorted((root / "web").rglob("*.mjs")) if (root / "web").is_dir() else ():
        if "vendor" not in js.relative_to(root).parts:
            todo.extend(ours(_MJS_IMPORT.findall(js.read_text("utf-8")), known))
    keep: set[str] = set()
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        parts = name.split(".")
        todo.extend(ours([".".join(parts[:i]) for i in range(1, len(parts))], known))
        try:
            todo.extend(ours(_imports(known[name], name), known))
        except (SyntaxError, ValueError):
            pass  # bundled as it is; the snapshot leaves it out
    return sorted(keep)


# PyPI packages the page uses (pinned in requirements-dev.txt), bundled from where
# pip installed them: package → the modules the page needs (segno: the race's QR
# codes, issue 11; without it the page shows the links and no QR code).
PYPI_MODULES = {"segno": ("__init__", "consts", "encoder", "utils", "writers")}


def _pypi_sources() -> list[tuple[str, Path]]:
    import importlib.util

    out = []
    for pkg, mods in PYPI_MODULES.items():
        spec = importlib.util.find_spec(pkg)
        if spec is None or not spec.origin:
            print(f"kosynka: {pkg} is not installed, the page goes without it "
                  "(python3 -m pip install -r requirements-dev.txt)", file=sys.stderr)
            continue
        out += [(f"{pkg}/{m}.py", Path(spec.origin).parent / f"{m}.py") for m in mods]
    return out


def _python_sources(root: Path) -> list[tuple[str, Path]]:
    """(name in the archive, path) of every module of :func:`browser_modules` and of
    ``PYPI_MODULES``, sorted."""
    known = _candidates(root)
    return sorted([(known[n].relative_to(root).as_posix(), known[n])
                   for n in browser_modules(root)] + _pypi_sources())


def _module_names(sources: list[tuple[str, Path]], package: str = "kosynka") -> list[str]:
    return sorted(
        module_name(arc) for arc, _ in sources if arc.startswith(package + "/")
    )


_BROWSER_ONLY = ("js", "pyscript", "pyodide", "_pyscript", "polyscript")


def _snapshot_modules(sources: list[tuple[str, Path]]) -> list[str]:
    """Modules of the bundle that are safe to import in the snapshot worker: no
    browser import (``js``, ``pyscript``, ``pyodide``) at import time, directly
    or through another module of ours, and not an entry module that starts
    something when imported (named ``main``, e.g. ``web.main``). Imports inside
    functions do not count."""
    deps: dict[str, frozenset[str]] = {}
    bad: set[str] = set()
    for arc, path in sources:
        name = module_name(arc)
        try:
            found = _imports(path, name, lazy=False)
        except (SyntaxError, ValueError):
            bad.add(name)
            continue
        if any(f.split(".")[0] in _BROWSER_ONLY for f in found):
            bad.add(name)
        deps[name] = found
    bad |= {n for n in deps if n.split(".")[-1] == "main"}
    changed = True
    while changed:
        changed = False
        for name, found in deps.items():
            if name not in bad and found & bad:
                bad.add(name)
                changed = True
    return sorted(n for n in deps if n not in bad)


# PyScript's editor and terminal libraries: loaded only by a <py-editor> or a
# terminal, which the app has none of — not precached (issue 23 item 2)
UNUSED_PYSCRIPT = re.compile(r"^(codemirror|xterm)")


def _js_sources(root: Path) -> list[Path]:
    """The JavaScript that runs Python (:func:`tools.stdlib.roots`): PyScript's
    dist but its editor and terminal, and our modules outside web/vendor/."""
    pyscript = root / "web" / "vendor" / "pyscript"
    out = [p for p in sorted(pyscript.glob("*.js")) if not UNUSED_PYSCRIPT.match(p.name)]
    web = root / "web"
    out += [p for p in sorted(web.rglob("*.mjs")) if "vendor" not in p.relative_to(root).parts]
    return out


def _python_entries(root: Path) -> set[str]:
    """The Python files ``index.html`` names by URL (``<script type="py" src>``): the
    only ones of ``web/`` the page fetches as files; the rest come in app.zip."""
    try:
        html = (root / "index.html").read_text("utf-8")
    except OSError:
        return set()
    return set(re.findall(r'<script[^>]*type="py"[^>]*src="([^"]+)"', html))


def _shell_files(root: Path, stdlib: str | None) -> list[str]:
    """Every file the service worker precaches, as paths relative to the root: what
    the page and its workers fetch, no more (a first visit moves each file once):
    the trimmed standard library (``stdlib``, :mod:`tools.stdlib`) or, without
    one, the full."""
    files = [name for name in SHELL_FILES if (root / name).is_file()]
    unused = "web/vendor/pyodide/python_stdlib.zip" if stdlib else "web/vendor/stdlib.zip"
    entries = _python_entries(root)
    web = root / "web"
    for path in sorted(web.rglob("*")) if web.is_dir() else ():
        rel = path.relative_to(root)
        if not path.is_file() or "__pycache__" in rel.parts:
            continue
        if any(p.startswith(".") for p in rel.parts) or path.suffix in (".map", ".tmp", ".pyc", ".gz", ".br"):
            continue
        if rel.parts[:2] == ("web", "vendor") and (path.name in (
            "build.json", "build.mjs", "sw-manifest.js",
        ) or path.name.startswith("snapshot-")):
            continue  # the shipped snapshot is named by this version, kept apart
        if path.suffix == ".py" and rel.as_posix() not in entries:
            continue  # in app.zip (or a build-time script), never fetched as a file
        if rel.parts[:3] == ("web", "vendor", "pyscript") and UNUSED_PYSCRIPT.match(path.name):
            continue
        if rel.as_posix() == unused or path.name == "stdlib.json":
            continue
        files.append(rel.as_posix())
    return files


def _precache(shell: list[str]) -> list[str]:
    return sorted(set(shell) | {"web/vendor/app.zip", "web/vendor/build.mjs"})


def _newest_mtime(paths: Iterable[Path]) -> float:
    newest = 0.0
    for p in paths:
        try:
            newest = max(newest, p.stat().st_mtime)
        except OSError:
            pass
    return newest


_BUNDLE_LOCK = threading.Lock()


def _ensure_first_paint(root: Path) -> None:
    """Write ``web/vendor/first-paint.js`` (:mod:`tools.firstpaint`) when a file
    it is made from is newer, in a fresh Python process (the layout as it is on
    disk, whatever this process imported). Fails soft: the page then paints
    nothing before Python, and says so in one line here."""
    import subprocess

    out = root / firstpaint.OUTPUT
    sources = [root / rel for rel in firstpaint.SOURCES] + [Path(firstpaint.__file__)]
    if out.is_file() and _newest_mtime(sources) <= out.stat().st_mtime:
        return
    proc = subprocess.run([sys.executable, firstpaint.__file__, str(root)], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        print(f"kosynka: the first paint's data was not made: {last}", file=sys.stderr)


def ensure_bundle(root: Path | str | None = None, *, force: bool = False) -> dict[str, Any]:
    """Build ``web/vendor/app.zip`` and the build manifests if any source changed.

    Returns the build record (see the module docstring). Thread-safe: the
    server's request threads and a test may call it at the same time."""
    with _BUNDLE_LOCK:
        return _ensure_bundle(Path(root or ROOT).resolve(), force)


def _ensure_bundle(root: Path, force: bool) -> dict[str, Any]:
    vendor = root / "web" / "vendor"
    vendor.mkdir(parents=True, exist_ok=True)
    build_json = vendor / "build.json"
    _ensure_first_paint(root)
    sources = _python_sources(root)
    stdlib = current_stdlib(root, sources, _js_sources(root))
    shell = _shell_files(root, stdlib)
    inputs = [p for _, p in sources] + [root / f for f in shell] + [root / "web", root / "kosynka"]
    if not force and build_json.is_file():
        try:
            record: dict[str, Any] = json.loads(build_json.read_text("utf-8"))
            built = build_json.stat().st_mtime
            if (
                _newest_mtime(inputs) <= built
                and record.get("files") == _precache(shell)
                and record.get("modules") == _module_names(sources)
                and record.get("web_modules") == _module_names(sources, "web")
                and record.get("stdlib") == stdlib
            ):
                return record
        except (OSError, ValueError):
            pass

    # app.zip: deterministic (sorted names, fixed dates) so its hash is its content.
    # The hash keys the stored snapshot: the standard library it was made with
    # counts too (a heap restored over another zip would read it at wrong offsets).
    app_hash = hashlib.sha256(f"stdlib:{stdlib}\0".encode())
    if stdlib:
        app_hash.update((vendor / stdlib).read_bytes())
    tmp = vendor / "app.zip.tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for arc, path in sources:
            data = path.read_bytes()
            app_hash.update(arc.encode() + b"\0" + data + b"\0")
            info = zipfile.ZipInfo(arc, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    os.replace(tmp, vendor / "app.zip")

    files = _precache(shell)
    all_hash = hashlib.sha256()
    for rel in files:
        p = root / rel
        if rel == "web/vendor/build.mjs":
            continue  # written below, from this hash
        if rel == "web/vendor/app.zip":
            all_hash.update(b"app.zip\0" + app_hash.hexdigest().encode())
            continue
        if rel.startswith("web/vendor/pyodide/") or rel.startswith("web/vendor/pyscript/"):
            # The runtime is pinned: name + size is enough, and cheap.
            all_hash.update(rel.encode() + b"\0" + str(p.stat().st_size).encode())
            continue
        all_hash.update(rel.encode() + b"\0" + p.read_bytes() + b"\0")

    versions = _lock_versions(root)
    modules = _module_names(sources)
    record = {
        "runtime": f"pyodide-{versions['pyodide']}+pyscript-{versions['@pyscript/core']}",
        "app": app_hash.hexdigest()[:16],
        "version": all_hash.hexdigest()[:16],
        "files": files,
        "modules": modules,
        "web_modules": _module_names(sources, "web"),
        "snapshot_modules": _snapshot_modules(sources),
        "stdlib": stdlib,
    }
    text = json.dumps(record, indent=1, sort_keys=True)
    (vendor / "build.mjs").write_text(
        "// generated by tools/serve.py: do not edit\nexport default " + text + ";\n", "utf-8"
    )
    (vendor / "sw-manifest.js").write_text(
        "// generated by tools/serve.py: do not edit\nself.KOSYNKA_BUILD = " + text + ";\n",
        "utf-8",
    )
    build_json.write_text(text + "\n", "utf-8")
    return record


def _drop_others(folder: Path, wanted: set[str]) -> None:
    """Delete the files of ``folder`` an older pinned version left behind: those
    not in ``wanted``, nor a compressed copy of one (:func:`ensure_compressed`)."""
    for old in folder.iterdir():
        if old.name.removesuffix(".gz").removesuffix(".br") not in wanted:
            old.unlink()


def ensure_vendor(root: Path | str | None = None) -> dict[str, Any]:
    """Install (npm ci) and copy the pinned runtime into ``web/vendor/`` when missing
    or stale, build the app bundle, and return the build record.

    One process at a time (an exclusive lock on ``web/vendor/.lock``): the test
    workers each call it at start, and their writes and clean-ups would otherwise
    cross (a CI run lost 144 browser tests to one worker deleting a file the other
    had just deleted)."""
    root = Path(root or ROOT).resolve()
    vendor = root / "web" / "vendor"
    vendor.mkdir(parents=True, exist_ok=True)
    with open(vendor / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ensure_vendor(root, vendor)


def _ensure_vendor(root: Path, vendor: Path) -> dict[str, Any]:
    want = _lock_versions(root)
    if any(_installed_version(root, name) != ver for name, ver in want.items()):
        _npm_ci(root)
        if any(_installed_version(root, name) != ver for name, ver in want.items()):
            raise VendorError("npm ci did not install the pinned pyodide/@pyscript/core")
    nm = root / "node_modules"
    for name in PYODIDE_FILES:
        _copy_if_stale(nm / "pyodide" / name, vendor / "pyodide" / name)
    dist = nm / "@pyscript" / "core" / "dist"
    wanted = set()
    for src in sorted(dist.iterdir()):
        if src.is_file() and src.suffix in (".js", ".css", ".mjs"):
            wanted.add(src.name)
            _copy_if_stale(src, vendor / "pyscript" / src.name)
    _drop_others(vendor / "pyscript", wanted)
    for pkg, (folder, pattern) in TRYSTERO.items():
        files = sorted((nm / pkg).glob(pattern))
        if not files:
            raise VendorError(f"missing {nm / pkg / pattern}")
        for src in files:
            _copy_if_stale(src, vendor / folder / src.name)
        _drop_others(vendor / folder, {f.name for f in files})
    record = ensure_bundle(root)
    if ensure_stdlib(root, _python_sources(root), _js_sources(root)):  # fails soft
        record = ensure_bundle(root)  # made now: the build names it
    ensure_snapshot(root, record)  # issue 15; fails soft
    ensure_compressed(vendor)
    return record


# Vendored files a server may send compressed (issue 23 item 3, issue 31 item 2):
# text and wasm worth it (the wasm 9.6 MB -> 3.5 MB gzip, 2.7 MB brotli;
# python_stdlib.zip, stdlib.zip and app.zip are compressed already).
COMPRESS_SUFFIXES = (".wasm", ".mjs", ".js", ".json", ".css")
COMPRESS_MIN_BYTES = 16_384
# sibling suffix -> Content-Encoding, the server's order of preference
ENCODINGS = ((".br", "br"), (".gz", "gzip"))


def _brotli() -> Callable[[bytes], bytes] | None:
    """``brotli.compress`` at its best quality (PyPI ``brotli``, pinned in
    requirements-dev.txt), or None when it is not installed."""
    try:
        import brotli  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    return functools.partial(brotli.compress, quality=11)


def ensure_compressed(vendor: Path) -> list[Path]:
    """Write ``<file>.gz`` and ``<file>.br`` beside each file of ``vendor`` that
    ends in one of ``COMPRESS_SUFFIXES`` and is at least ``COMPRESS_MIN_BYTES``
    long, when missing or older than it (as for nginx's ``gzip_static`` and
    ``brotli_static``): :func:`make_server` sends one with its
    ``Content-Encoding`` to a browser that accepts it, brotli first. Without the
    ``brotli`` package only gzip is written (one line on stderr). Brotli's best
    quality takes about a minute for the wasm on a loaded 2-core machine, once
    per runtime version. Returns those written."""
    import gzip

    packers: list[tuple[str, Callable[[bytes], bytes]]] = [
        (".gz", functools.partial(gzip.compress, compresslevel=9, mtime=0))]
    br = _brotli()
    if br is None:
        print("kosynka: brotli is not installed, the runtime is served gzipped only "
              "(python3 -m pip install -r requirements-dev.txt)", file=sys.stderr)
    else:
        packers.append((".br", br))
    written = []
    for path in sorted(vendor.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESS_SUFFIXES:
            continue
        st = path.stat()
        if st.st_size < COMPRESS_MIN_BYTES:
            continue
        for suffix, pack in packers:
            out = path.with_name(path.name + suffix)
            if out.is_file() and out.stat().st_mtime >= st.st_mtime:
                continue
            tmp = out.with_name(out.name + ".tmp")
            tmp.write_bytes(pack(path.read_bytes()))
            os.replace(tmp, out)
            written.append(out)
    return written


def _accepts(header: str, coding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts ``coding`` (named, not with
    ``q=0``)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() == coding:
            q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
            try:
                return float(q) > 0
            except ValueError:
                return True
    return False


# --------------------------------------------------------------------- server

class _Counted:
    """A response stream that counts the bytes written through it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.n = raw, 0

    def write(self, data: bytes) -> int:
        self.n += len(data)
        return self.raw.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def make_server(root: Path | str | None = None, port: int = 8000, host: str = "127.0.0.1",
                *, quiet: bool = True, rebuild: bool = True, prefix: str = "/",
                sent: Callable[[str, int], object] | None = None,
                ) -> http.server.ThreadingHTTPServer:
    """A ``ThreadingHTTPServer`` serving ``root`` (not started). Port 0 picks a free
    port (``server.server_address[1]``). With ``rebuild`` the app bundle is rebuilt
    when a source changed before ``web/vendor/`` build files are served. ``prefix``
    serves the app under a sub-path (``"/kosynka/"``); other paths answer 404.
    ``sent(path, nbytes)``, if given, is called after each GET answer with the bytes
    it wrote, headers included (tests and bench/firstvisit.py count what moved)."""
    base = Path(root or ROOT).resolve()
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".mjs": "text/javascript",
            ".js": "text/javascript",
            ".wasm": "application/wasm",
            ".webmanifest": "application/manifest+json",
            ".toml": "text/plain",
            ".py": "text/plain",
        }

        # the file whose precompressed sibling this answer sends: (path, suffix, coding)
        packed: tuple[str, str, str] | None = None

        def translate_path(self, path: str) -> str:
            if prefix != "/":
                if not path.startswith(prefix):
                    return str(base / ".no-such-file")
                path = "/" + path[len(prefix):]
            real = super().translate_path(path)
            return real + self.packed[1] if self.packed and real == self.packed[0] else real

        def send_head(self) -> Any:
            # like nginx's brotli_static and gzip_static: a precompressed sibling
            # (ensure_compressed) goes to a browser that accepts its encoding,
            # brotli first, with Content-Encoding
            self.packed = None
            accept = self.headers.get("Accept-Encoding", "")
            real = self.translate_path(self.path)
            for suffix, coding in ENCODINGS:
                if not _accepts(accept, coding):
                    continue
                try:  # a stale sibling (its file rebuilt since) is not sent
                    if os.stat(real + suffix).st_mtime >= os.stat(real).st_mtime:
                        self.packed = (real, suffix, coding)
                        break
                except OSError:
                    pass
            return super().send_head()

        def guess_type(self, path: str | os.PathLike[str]) -> str:
            path = os.fspath(path)
            if self.packed and path.endswith(self.packed[1]):
                path = path[: -len(self.packed[1])]
            return super().guess_type(path)

        def do_GET(self) -> None:  # noqa: N802
            if rebuild and self.path.split("?")[0].rsplit("/", 1)[-1] in (
                "app.zip", "build.mjs", "sw-manifest.js", "build.json",
            ):
                try:
                    ensure_bundle(base)
                except Exception as exc:  # keep serving what exists
                    self.log_error("bundle rebuild failed: %s", exc)
            if sent is None:
                super().do_GET()
                return
            out = _Counted(self.wfile)  # type: ignore[arg-type]
            self.wfile = out  # type: ignore[assignment]
            try:
                super().do_GET()
            finally:
                self.wfile = out.raw  # type: ignore[assignment]
                sent(self.path.split("?")[0], out.n)

        def end_headers(self) -> None:
            # Let the browser revalidate; the service worker does the caching.
            self.send_header("Cache-Control", "no-cache")
            if self.packed:
                self.send_header("Content-Encoding", self.packed[2])
            if self.path.split("?")[0].rsplit("/", 1)[-1].endswith(COMPRESS_SUFFIXES):
                self.send_header("Vary", "Accept-Encoding")
            super().end_headers()

        def log_message(self, fmt: str, *args: Any) -> None:
            if not quiet:
                super().log_message(fmt, *args)

    class Server(http.server.ThreadingHTTPServer):
        allow_reuse_address = True
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            # a browser that closes a connection mid-transfer is not an error
            if isinstance(sys.exc_info()[1], ConnectionError):
                return
            super().handle_error(request, client_address)

    return Server((host, port), functools.partial(Handler, directory=str(base)))


def _parse(argv: list[str]) -> argparse.Namespace:
    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            raise SystemExit(f"kosynka serve: {message}")

    p = Parser(prog="kosynka serve", description="Serve the Kosynka web app locally.")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000, 0 = any free)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--quiet", action="store_true", help="do not log requests")
    args = p.parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise SystemExit(f"kosynka serve: port out of range: {args.port}")
    return args


def main(argv: list[str] | None = None) -> int:
    """``python3 -m kosynka serve [--port 8000] [--host 127.0.0.1]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["serve"]:
        argv = argv[1:]
    try:
        args = _parse(argv)
    except SystemExit as exc:
        if exc.code in (0, None):  # --help
            return 0
        print(exc.code, file=sys.stderr)
        return 2
    try:  # the port first: a port in use is said at once, not after an npm install
        server = make_server(ROOT, args.port, args.host, quiet=args.quiet)
    except OSError as exc:
        print(f"kosynka serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    try:
        ensure_vendor(ROOT)
    except (VendorError, OSError, ValueError) as exc:
        server.server_close()
        print(f"kosynka serve: cannot vendor the runtime: {exc}", file=sys.stderr)
        return 2
    host, port = str(server.server_address[0]), server.server_address[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    print(f"Kosynka: http://{shown}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
