# Pyodide for mypy: only what web/ uses is named; the rest is Any.
from typing import Any

def __getattr__(name: str) -> Any: ...
