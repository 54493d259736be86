"""Kosynka's PyScript entry point: builds the solo table (see ``web.app``).

Start-up runs as a task on PyScript's event loop (the first deal may need a short
sliced solver search); a failure is reported on the console and in the loading line
instead of passing silently.
"""

import asyncio
import traceback
from typing import Any

import js

from web.app import App

app = App()


def _report(task: asyncio.Task[Any]) -> None:
    if task.cancelled() or task.exception() is None:
        return
    text = "".join(traceback.format_exception(task.exception()))
    js.console.error("Kosynka failed to start:\n" + text)
    try:
        js.document.getElementById("loading").textContent = (
            "Kosynka failed to start: " + str(task.exception()))
    except Exception:
        pass


_start = asyncio.ensure_future(app.start())
_start.add_done_callback(_report)
