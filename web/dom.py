"""The few browser helpers every part of the page shares (Pyodide only).

``Listeners`` binds DOM events to Python callables and keeps their proxies alive
for the page's life; ``nil`` tells JS null/undefined; ``LocalStorageBackend`` is
``localStorage`` behind ``web.store``'s backend protocol; ``h`` and ``fill`` build
elements whose every piece of text goes in as a text node (``textContent``), never
as HTML — names and anything else a peer or a link sends are shown as the
characters they are (issue 11 item 5; moved here from ``web/race/dom.py``, issue 28).
"""

from __future__ import annotations

from typing import Any, Callable, TypeAlias

import js
from pyodide.ffi import create_proxy

from web.store import PROBE_KEY

try:  # recent Pyodide turns JS null into ``jsnull``, not None
    from pyodide.ffi import jsnull as _jsnull
except ImportError:  # pragma: no cover
    _jsnull = None

document = js.document
window = js.window


JsObject: TypeAlias = Any
"""A browser object as Pyodide hands it over (a ``JsProxy``): typed by the
browser, not here, so ``Any`` for mypy."""


def nil(x: JsObject) -> bool:
    """True for JS null/undefined as Pyodide hands them over."""
    return x is None or x is _jsnull


SOLO_PAGE = ("bar", "challenge-bar", "table", "panel")
"""The solo page's parts that a sheet or a race screen makes inert."""


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


def control_selector(el: JsObject) -> str | None:
    """A selector that finds the control ``el`` again in a sheet drawn anew
    (a choice by its setting and value, a button by its action, a field by
    name), so the focus can stay on it; None for anything else."""
    if nil(el):
        return None
    if el.hasAttribute("data-set"):
        return f"[data-set='{el.getAttribute('data-set')}'][data-value='{el.getAttribute('data-value')}']"
    for attr in ("data-action", "data-field"):
        if el.hasAttribute(attr):
            return f"[{attr}='{el.getAttribute(attr)}']"
    return None


class Listeners:
    """Event bindings and callbacks handed to JS, kept alive as long as the page."""

    def __init__(self) -> None:
        self._proxies: list[JsObject] = []

    def proxy(self, fn: Callable[..., Any]) -> JsObject:
        p = create_proxy(fn)
        self._proxies.append(p)
        return p

    def on(self, target: JsObject, name: str, fn: Callable[..., Any],
           passive: bool | None = None) -> None:
        p = self.proxy(fn)
        if passive is None:
            target.addEventListener(name, p)
        else:
            target.addEventListener(name, p, js.Object.fromEntries([["passive", passive]]))


class LocalStorageBackend:
    """``localStorage`` behind the ``store.Backend`` protocol; raises if blocked."""

    def __init__(self) -> None:
        self.ls = window.localStorage
        self.ls.setItem(PROBE_KEY, "1")
        self.ls.removeItem(PROBE_KEY)

    def get(self, key: str) -> str | None:
        v = self.ls.getItem(key)
        return None if nil(v) else str(v)

    def set(self, key: str, value: str) -> None:
        self.ls.setItem(key, value)

    def remove(self, key: str) -> None:
        self.ls.removeItem(key)


def today_iso() -> str:
    """The device's local date, ``YYYY-MM-DD`` (Deal of the day)."""
    d = js.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


def reduced_motion() -> bool:
    return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
