"""``python3 -m tools.relay`` (issue 19 item 7): the real Nostr relay the race's tests
use, on loopback; its URL is the first line it prints; it runs until stopped."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tools import relay

websockets = pytest.importorskip("websockets")


def test_relay_answers_and_stops():
    r = relay.start()
    try:
        assert r.url.startswith("ws://127.0.0.1:")

        async def talk():
            async with websockets.connect(r.url) as a, websockets.connect(r.url) as b:
                await b.send(json.dumps(["REQ", "s", {"kinds": [20000], "#x": ["t"]}]))
                assert json.loads(await asyncio.wait_for(b.recv(), 10)) == ["EOSE", "s"]
                # an event is relayed as it is: a signed ephemeral event from a client
                await a.send(json.dumps(["REQ", "q", {"kinds": [1], "limit": 1}]))
                assert json.loads(await asyncio.wait_for(a.recv(), 10))[0] == "EOSE"

        # in a thread of its own: under xdist a browser test's Playwright (sync API)
        # may hold a running event loop in this worker's main thread
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, talk()).result(60)
    finally:
        r.stop()
    assert r.proc.returncode is not None


@pytest.mark.parametrize("args", [["--port", "99999"], ["--nonsense"]])
def test_bad_arguments_one_line(args):
    p = subprocess.run([sys.executable, "-m", "tools.relay", *args], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("tools.relay:")
