"""The standard library the app runs (issue 31 item 1): ``web/vendor/stdlib.zip``.

Pyodide's ``python_stdlib.zip`` holds all of CPython's library, 2.5 MB that a
first visit downloads before Python starts. The app needs a part of it. The
vendoring (:func:`tools.serve.ensure_vendor`) writes the part here and the page,
its workers and the build's snapshot give it to ``loadPyodide`` as
``stdLibURL`` (``web/boot/runtime.mjs``; ``build.stdlib`` names it).

What is kept, by rule, never by a hand-kept list:

1. the roots: every module of the standard library named by an import anywhere
   in the browser's Python (the bundle's modules and the PyPI ones it carries,
   function-level imports too) or in Python that JavaScript runs: our boot
   modules' ``runPython`` text and PyScript's own Python (its ``pyscript``
   package and its glue, carried as strings in its ``dist/``; read loosely —
   anything that looks like an import of a standard module counts); and
   Pyodide's own packages (``pyodide``, ``_pyodide``);
2. in the vendored Pyodide (Python 3.14 parses its own library; Node.js,
   ``tools/make-stdlib.mjs``): every module in ``sys.modules`` once Pyodide is
   up, the snapshot's preparation has run and every module of the bundle has
   been imported — what start-up imports that no import statement names;
3. every module reached from those by any import statement, function-level ones
   included (a lazy import runs when its function is called), except those under
   ``if __name__ == "__main__"`` or ``if TYPE_CHECKING`` (they never run
   here), with their parent packages.

``tests/test_stdlib.py`` imports every module of the app and every standard
module it names under both libraries in the vendored Pyodide and fails on any
difference; the browser tests run the whole app on it.

Freshness: ``web/vendor/stdlib.json`` records the fingerprint of the roots and
the maker. A build whose roots changed (a new import) is not given the stale zip
(:func:`current` is ``None``): the page then loads the full library until the
vendoring runs again. No Node.js or a failing build: one line on stderr, the
full library is used. Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["OUTPUT", "roots", "current", "ensure_stdlib"]

OUTPUT = "web/vendor/stdlib.zip"
INFO = "web/vendor/stdlib.json"
MAKER = ("tools/make-stdlib.mjs", "web/boot/snapshot-prepare.mjs")
FULL = "web/vendor/pyodide/python_stdlib.zip"
TIMEOUT_S = 300  # about 10 s on a loaded 2-core machine

# Pyodide's own Python, kept whole: the runtime imports it at start and the
# page's code through PyScript (pyodide.ffi, pyodide.code, the event loop)
RUNTIME_PACKAGES = ("pyodide", "_pyodide")

# Python imports inside JavaScript text (PyScript's dist, our boot modules):
# `import a, b.c` and `from a.b import c`; JavaScript's own imports name files
# in quotes or braces and never match a standard module's name
_JS_IMPORT = re.compile(r"(?<![\w.$])import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)")
_JS_FROM = re.compile(r"(?<![\w.$])from\s+([A-Za-z_][\w.]*)\s+import\b")


def _stdlib_name(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


@functools.lru_cache(maxsize=256)
def _js_file_imports(path: Path, stamp: tuple[int, int]) -> frozenset[str]:
    return frozenset(_js_imports(path.read_text("utf-8", errors="replace")))


def _js_imports(text: str) -> set[str]:
    found = {m.group(1) for m in _JS_FROM.finditer(text)}
    for m in _JS_IMPORT.finditer(text):
        found.update(n.strip() for n in m.group(1).split(","))
    return {n for n in found if _stdlib_name(n)}


Sources = list[tuple[str, Path]]


def roots(sources: Sources, js: list[Path]) -> list[str]:
    """Rule 1 of the module docstring: the standard modules named by the app's
    Python (``sources``: the bundle's (name in the archive, path) pairs) and by
    the JavaScript that runs Python (``js``), and Pyodide's own packages. Sorted
    names."""
    from .pyimports import imports, module_name

    found: set[str] = set(RUNTIME_PACKAGES)
    for arc, path in sources:
        try:
            found.update(n for n in imports(path, module_name(arc)) if _stdlib_name(n))
        except (SyntaxError, ValueError):
            continue  # bundled as it is; its imports fail alike under either library
    for path in js:  # read once per version of the file (the server asks per request)
        st = path.stat()
        found |= _js_file_imports(path, (st.st_mtime_ns, st.st_size))
    return sorted(found)


def _fingerprint(root: Path, names: list[str]) -> str:
    h = hashlib.sha256(json.dumps(names).encode())
    for rel in MAKER:
        try:
            h.update((root / rel).read_bytes())
        except OSError:
            h.update(b"-")
    try:
        h.update(str((root / FULL).stat().st_size).encode())
    except OSError:
        h.update(b"-")
    return h.hexdigest()[:16]


def current(root: Path, sources: Sources, js: list[Path]) -> str | None:
    """``"stdlib.zip"`` (the file's name in web/vendor/) when it was made for
    these roots, else ``None`` (the full library)."""
    try:
        info = json.loads((root / INFO).read_text("utf-8"))
        if (root / OUTPUT).is_file() and info.get("fingerprint") == _fingerprint(
            root, roots(sources, js)
        ):
            return Path(OUTPUT).name
    except (OSError, ValueError, AttributeError):
        pass
    return None


def ensure_stdlib(root: Path, sources: Sources, js: list[Path]) -> dict[str, object] | None:
    """Make ``web/vendor/stdlib.zip`` unless :func:`current`. Needs the bundle
    built (``web/vendor/build.json``, ``app.zip``). Returns what
    ``tools/make-stdlib.mjs`` printed plus the fingerprint ({} when it was up
    to date), or ``None`` when there is none (one line on stderr)."""
    root = Path(root).resolve()
    if current(root, sources, js):
        return {}
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        _skip("Node.js is not installed")
        return None
    names = roots(sources, js)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"roots": names, "out": str(root / OUTPUT)}, f)
    try:
        proc = subprocess.run([node, str(root / MAKER[0]), str(root), f.name], cwd=root,
                              capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as exc:
        _skip(str(exc))
        return None
    finally:
        Path(f.name).unlink(missing_ok=True)
    if proc.returncode != 0:
        _skip((proc.stderr.strip().splitlines() or ["failed"])[-1])
        return None
    try:
        info: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        _skip("unexpected output")
        return None
    info["fingerprint"] = _fingerprint(root, names)
    info["full_size"] = (root / FULL).stat().st_size
    (root / INFO).write_text(json.dumps(info, indent=1) + "\n", "utf-8")
    return info


def _skip(why: str) -> None:
    print(f"kosynka: no trimmed standard library ({why}); the page loads the full one",
          file=sys.stderr)
