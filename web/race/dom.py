"""Small DOM helpers for the race screens: every piece of text goes in as a text
node (``textContent``), never as HTML — names and anything else a peer sends are
shown as the characters they are (issue 11 item 5)."""

from __future__ import annotations

from js import document

from web.dom import JsObject


def h(tag: str, attrs: dict[str, object] | None = None, *children: JsObject) -> JsObject:
    """An element with ``attrs`` (``None``/``False`` values left out, ``True`` as an
    empty attribute) and ``children``: elements, or strings added as text."""
    el = document.createElement(tag)
    for name, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        el.setAttribute(name, "" if value is True else str(value))
    for child in children:
        if child is None:
            continue
        el.appendChild(document.createTextNode(child) if isinstance(child, str) else child)
    return el


def fill(parent: JsObject, *children: JsObject) -> None:
    """Replace ``parent``'s children."""
    parent.replaceChildren()
    for child in children:
        if child is not None:
            parent.appendChild(document.createTextNode(child) if isinstance(child, str) else child)
