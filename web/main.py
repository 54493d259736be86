"""Placeholder entry point (platform engineer); the UI engineer replaces it.

Imports the engine and marks the page ready (DOM contract: body[data-state]).
"""

import kosynka  # noqa: F401
from pyscript import document

document.body.dataset.state = "ready"
