"""The race's link through the relays (issue 30 item 1, ``web/race/relay.mjs``) in
Node, over fake relays that lose, repeat and reorder events (``tests/js/``): every
message once, whole and in order; the relays see no plain text and only
ephemeral kinds; a forged event changes nothing; never two events of a link
closer than 250 ms (4 a second); a goodbye drops the other end. Skipped with one
line where Node is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parent / "js"


def test_the_relay_link_is_reliable_sealed_and_paced():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    p = subprocess.run([node, "--import", str(JS / "register.mjs"), str(JS / "relay_link.mjs")],
                       capture_output=True, text=True, timeout=120, cwd=JS.parent.parent)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["ok"] and out["rate"] <= 4.1
