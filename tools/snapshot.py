"""The memory snapshot shipped with the build (issue 15), made when the runtime is
vendored: ``ensure_snapshot(root, record)`` runs ``tools/make-snapshot.mjs`` (Pyodide
under Node.js) unless ``web/vendor/snapshot-<version>.bin.gz`` is already there and
newer than the scripts that make it.

It never fails the caller: no Node.js, a failing or slow build — one line on stderr
and ``None``; the page then boots normally and makes its own snapshot in the
browser (web/boot/snapshot-worker.mjs). Standard library only.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["ensure_snapshot", "snapshot_path"]

MAKER = ("tools/make-snapshot.mjs", "web/boot/snapshot-prepare.mjs")
TIMEOUT_S = 300  # about 3 s on a quiet 2-core machine


def snapshot_path(root: Path, record: dict[str, Any]) -> Path:
    """Where the page looks for it (web/boot/pyodide.mjs): named by the service
    worker's content version, so every deploy has its own URL."""
    return root / "web" / "vendor" / f"snapshot-{record['version']}.bin.gz"


def _fresh(out: Path, root: Path) -> bool:
    try:
        made = out.stat().st_mtime
        return all((root / p).stat().st_mtime <= made for p in MAKER)
    except OSError:
        return False


def ensure_snapshot(root: Path | str, record: dict[str, Any]) -> dict[str, Any] | None:
    """Make the snapshot if missing or stale. Returns ``{"file", "raw", "gzip",
    "ms", ...}`` (``ms`` 0 when it was up to date) or ``None`` when there is none."""
    root = Path(root).resolve()
    out = snapshot_path(root, record)
    if _fresh(out, root):
        return {"file": out.relative_to(root).as_posix(), "gzip": out.stat().st_size, "ms": 0}
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return _skip("Node.js is not installed")
    try:
        proc = subprocess.run(
            [node, str(root / MAKER[0]), str(root)], cwd=root, capture_output=True,
            text=True, timeout=TIMEOUT_S,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return _skip(str(exc))
    if proc.returncode != 0:
        return _skip((proc.stderr.strip().splitlines() or ["failed"])[-1])
    try:
        info: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return _skip("unexpected output")
    if info.get("failed"):
        print(f"kosynka: snapshot made without: {info['failed']}", file=sys.stderr)
    return info


def _skip(why: str) -> dict[str, Any] | None:
    """Say in one line why there is no snapshot; ``None`` (for ``return _skip(…)``)."""
    print(f"kosynka: no shipped memory snapshot ({why}); a first visit boots without it",
          file=sys.stderr)
    return None
