# Pyodide's ``js`` module (the browser's globals as JsProxy objects) for mypy: every
# name is Any — the browser's objects are typed by the browser, not here.
from typing import Any

def __getattr__(name: str) -> Any: ...
