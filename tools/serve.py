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
    * the app's bundle, first paint and build record (``app.zip``,
      ``first-paint.js``, ``build.json``…): :func:`tools.bundle.ensure_bundle`;
    * the trimmed standard library (:mod:`tools.stdlib`), the shipped memory
      snapshot (:mod:`tools.snapshot`) and the compressed siblings
      (:func:`ensure_compressed`).

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
import http.server
import json
import os
import shutil
import sys
from pathlib import Path
from typing import IO, Any, Callable, NoReturn

from .bundle import ROOT, ensure_bundle, js_sources, lock_versions, python_sources
from .snapshot import ensure_snapshot
from .stdlib import ensure_stdlib

__all__ = ["ROOT", "ensure_vendor", "ensure_compressed", "make_server", "main", "VendorError"]


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


class VendorError(Exception):
    """Vendoring failed (npm missing, install failed, package files missing)."""


def _lock_versions(root: Path) -> dict[str, str]:
    return lock_versions(root, ("pyodide", "@pyscript/core", "trystero", *TRYSTERO))


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
    if ensure_stdlib(root, python_sources(root), js_sources(root)):  # fails soft
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
