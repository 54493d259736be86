# pyodide.ffi for mypy: a proxy of a Python callable, and JavaScript's null.
from typing import Any, Callable

jsnull: Any

def create_proxy(obj: Callable[..., Any]) -> Any: ...
def __getattr__(name: str) -> Any: ...
