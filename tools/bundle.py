"""The app's bundle and build record (O1, O3; split from :mod:`tools.serve`).

``ensure_bundle(root)`` writes, into the git-ignored ``web/vendor/``:

* ``app.zip``: what the browser runs, chosen by a rule (:func:`browser_modules`),
  found on disk at build time, so there is no hand-kept list that can drift:
  every module of the ``web`` package (the page; ``web/vendor/``, ``web/boot/``
  and ``web/icons/`` left out) and every module of ours they import, directly or
  not, anywhere in their code — so ``kosynka``'s command line and benchmark,
  which no page module imports, stay out. ``pyscript.toml`` maps it with
  ``"./web/vendor/app.zip" = "./*"``: in Pyodide ``import kosynka`` and
  ``import web.app`` work from the current directory;
* ``first-paint.js``: the data the first paint draws before Python is up
  (:mod:`tools.firstpaint`), rebuilt in a fresh process when the layout, the
  view or its maker changed;
* ``build.json`` (and the same data as ``build.mjs`` for the boot module and
  ``sw-manifest.js`` for the service worker): the runtime version, a content
  hash of the Python code (``app``), a content hash of everything the app is
  made of (``version``), the files the service worker precaches and the
  modules the memory snapshot pre-imports.

The bundle is rebuilt only when a source file is newer than it (cheap enough
for the dev server to call per request). Imports nothing of ``kosynka``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import firstpaint
from .pyimports import imports, module_name, ours
from .stdlib import current as current_stdlib

__all__ = ["ensure_bundle", "browser_modules", "python_sources", "js_sources", "lock_versions",
           "PYPI_MODULES", "SHELL_FILES"]

ROOT = Path(__file__).resolve().parent.parent

# Files of the app shell outside web/ that the service worker precaches.
SHELL_FILES = ("index.html", "pyscript.toml", "manifest.webmanifest")

_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def lock_versions(root: Path, names: Iterable[str]) -> dict[str, str]:
    """The versions ``package-lock.json`` pins for the npm packages ``names``."""
    lock = json.loads((root / "package-lock.json").read_text("utf-8"))
    pkgs = lock.get("packages", {})
    return {name: pkgs.get(f"node_modules/{name}", {}).get("version", "") for name in names}


# Python that JavaScript runs (the solver worker's glue in web/*.mjs) imports
# these lines' modules: they count as page modules for the bundle's rule.
_MJS_IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+((?:kosynka|web)(?:\.\w+)*)", re.M)


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
            todo.extend(ours(imports(known[name], name), known))
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


def python_sources(root: Path) -> list[tuple[str, Path]]:
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
    deps: dict[str, set[str]] = {}
    bad: set[str] = set()
    for arc, path in sources:
        name = module_name(arc)
        try:
            found = imports(path, name, lazy=False)
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
        for name, needs in deps.items():
            if name not in bad and needs & bad:
                bad.add(name)
                changed = True
    return sorted(n for n in deps if n not in bad)


# PyScript's editor and terminal libraries: loaded only by a <py-editor> or a
# terminal, which the app has none of — not precached (issue 23 item 2)
UNUSED_PYSCRIPT = re.compile(r"^(codemirror|xterm)")


def js_sources(root: Path) -> list[Path]:
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


def newest_mtime(paths: Iterable[Path]) -> float:
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
    out = root / firstpaint.OUTPUT
    sources = [root / rel for rel in firstpaint.SOURCES] + [Path(firstpaint.__file__)]
    if out.is_file() and newest_mtime(sources) <= out.stat().st_mtime:
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
    sources = python_sources(root)
    stdlib = current_stdlib(root, sources, js_sources(root))
    shell = _shell_files(root, stdlib)
    inputs = [p for _, p in sources] + [root / f for f in shell] + [root / "web", root / "kosynka"]
    if not force and build_json.is_file():
        try:
            record: dict[str, Any] = json.loads(build_json.read_text("utf-8"))
            built = build_json.stat().st_mtime
            if (
                newest_mtime(inputs) <= built
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

    versions = lock_versions(root, ("pyodide", "@pyscript/core"))
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
        "// generated by tools/bundle.py: do not edit\nexport default " + text + ";\n", "utf-8"
    )
    (vendor / "sw-manifest.js").write_text(
        "// generated by tools/bundle.py: do not edit\nself.KOSYNKA_BUILD = " + text + ";\n",
        "utf-8",
    )
    build_json.write_text(text + "\n", "utf-8")
    return record
