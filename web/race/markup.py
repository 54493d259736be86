"""HTML for the race's screens as text, the way ``web/sheets.py`` makes the solo
sheets: pure functions, no browser import, tested on CPython.

:func:`el` writes an element; a plain ``str`` child is text and is escaped (a
name or anything else a peer sends shows as the characters it is, never as
markup, issue 11 item 5), an :class:`Html` child is markup made here. Attribute
values: ``None``/``False`` leave the attribute out, ``True`` writes it empty,
anything else as its ``str`` — as ``setAttribute`` would.
"""

from __future__ import annotations

from html import escape
from typing import Mapping

from web.i18n import t

__all__ = ["Html", "el", "tr", "buttons"]

_VOID = frozenset({"br", "input"})


class Html(str):
    """Markup made by :func:`el` (a plain ``str`` is text)."""


Attrs = Mapping[str, object]


def el(tag: str, attrs: Attrs | None = None, *children: str | None) -> Html:
    """``<tag attrs>children</tag>``; ``None`` children left out."""
    out = [f"<{tag}"]
    for name, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        out.append(f' {name}=""' if value is True else f' {name}="{escape(str(value))}"')
    out.append(">")
    if tag in _VOID:
        return Html("".join(out))
    for child in children:
        if child is not None:
            out.append(child if isinstance(child, Html) else escape(child, quote=False))
    out.append(f"</{tag}>")
    return Html("".join(out))


def tr(lang: str, key: str, **kw: object) -> str:
    """The words of ``key`` in ``lang``, filled in with ``kw``."""
    text = t(lang, key)
    return text.format(**kw) if kw else text


Spec = tuple[str, str] | tuple[str, str, Attrs]


def buttons(lang: str, *specs: Spec | None) -> Html:
    """A row of buttons, each ``(action, words key[, more attributes])``."""
    return el("div", {"class": "buttons"}, *(
        None if spec is None else
        el("button", {"type": "button", "data-action": spec[0],
                      **(spec[2] if len(spec) > 2 else {})},
           tr(lang, spec[1]))
        for spec in specs))


def way_mark(lang: str, way: str | None) -> str:
    """How this page reaches a player (issue 30 item 2): "direct" or "through relays"."""
    return tr(lang, "race_way_through" if way == "relay" else "race_way_direct") if way else ""
