"""tools/snapshot.py: the shipped memory snapshot is made when the runtime is
vendored and never breaks vendoring (issue 15): no Node.js or a failing build
gives one line on stderr and no snapshot."""

from __future__ import annotations

import shutil

import pytest

from tools import snapshot

RECORD = {"version": "0123456789abcdef"}


def test_no_node_no_snapshot_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert snapshot.ensure_snapshot(tmp_path, RECORD) is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Node.js is not installed" in err[0]


def test_failing_build_no_snapshot_one_line(tmp_path, capsys):
    if shutil.which("node") is None and shutil.which("nodejs") is None:
        pytest.skip("Node.js not installed")
    tools = tmp_path / "tools"
    tools.mkdir()
    shutil.copy2(snapshot.Path(snapshot.__file__).with_name("make-snapshot.mjs"), tools)
    # no web/vendor: nothing to make it from
    assert snapshot.ensure_snapshot(tmp_path, RECORD) is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no shipped memory snapshot" in err[0], err
    assert not snapshot.snapshot_path(tmp_path, RECORD).exists()


def test_up_to_date_snapshot_is_kept(tmp_path):
    out = snapshot.snapshot_path(tmp_path, RECORD)
    for rel in snapshot.MAKER:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("//\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(b"x")
    info = snapshot.ensure_snapshot(tmp_path, RECORD)
    assert info == {"file": f"web/vendor/{out.name}", "gzip": 1, "ms": 0}
