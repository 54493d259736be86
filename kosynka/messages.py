"""One message style for every channel Kosynka speaks over (issue 9 item 4, issue 10 item 3).

Both the solver worker's protocol (page ↔ Web Worker) and the race protocol
(host ↔ players) send JSON objects of one shape::

    {"v": <protocol version>, "id": <int ≥ 0>, "kind": "<name>", ...fields}

- ``v`` is the version of *that* protocol (each protocol keeps its own number);
  a peer with another version is told so (``msg/version``) and nothing else happens.
- ``id`` numbers the sender's messages (a request's id comes back in its answer;
  in the race it is the sender's sequence number, checked by the host).
- ``kind`` picks the message; its other fields are named, never positional.

A protocol is a :class:`Protocol`: its version, a byte limit, and for every kind
the fields it must carry and their types. :meth:`Protocol.build` makes a message
(raising ``ValueError`` on a programming error); :meth:`Protocol.parse` takes
untrusted text from a peer and returns the object or raises :class:`MessageError`
with a stable ``code`` (a ``msg/…`` string) and a human-readable ``detail``. It
never raises anything else, whatever the input.

>>> ping = Protocol("demo", 1, {"ping": {"n": int}})
>>> text = ping.dumps(ping.build("ping", 7, n=3))
>>> text
'{"v":1,"id":7,"kind":"ping","n":3}'
>>> ping.parse(text)["n"]
3
>>> try:
...     ping.parse('{"v":2,"id":1,"kind":"ping","n":3}')
... except MessageError as e:
...     print(e.code, "|", e.detail)
msg/version | demo protocol version 2, this Kosynka speaks 1 (update Kosynka)
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import KosynkaError

__all__ = ["MessageError", "Protocol", "ENVELOPE", "too_deep", "loads_bounded"]

ENVELOPE = ("v", "id", "kind")
MAX_DEPTH = 8  # JSON nesting a message may have (deeper input is refused before parsing)


class MessageError(KosynkaError):
    """A message from a peer that is refused; ``code`` is stable (``msg/…``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def _type_ok(value: Any, typ: Any) -> bool:
    if typ is int:  # bool is an int in Python, never in a message
        return isinstance(value, int) and not isinstance(value, bool)
    if typ is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(typ, tuple):
        return any(_type_ok(value, t) for t in typ)
    if typ is None:
        return value is None
    return isinstance(value, typ)


def too_deep(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects deeper than ``limit``; read
    without parsing, so any depth is safe to ask about (strings are skipped)."""
    if text.count("[") + text.count("{") <= limit:  # the common case, at C speed
        return False
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _finite_or_none(text: str) -> float | None:
    x = float(text)
    return x if math.isfinite(x) else None


def loads_bounded(text: str, max_chars: int, max_depth: int) -> Any:
    """The JSON value of untrusted ``text`` (stored data, a file): ``ValueError``,
    before anything is parsed, when it is longer than ``max_chars`` or nested deeper
    than ``max_depth`` — Pyodide's runtime dies on 10,000 levels instead of raising
    ``RecursionError`` (PLATFORM-NOTES). A non-finite number (``NaN``, ``Infinity``,
    ``1e400``: not JSON, but Python writes them) reads as null, so the reader's own
    checks drop that one field and keep the rest.

    >>> loads_bounded('{"t": 1e400, "n": NaN, "k": [1.5]}', 100, 2)
    {'t': None, 'n': None, 'k': [1.5]}
    >>> loads_bounded('[[[]]]', 100, 2)
    Traceback (most recent call last):
    ...
    ValueError: JSON nested deeper than 2
    """
    if not isinstance(text, str):
        raise ValueError(f"JSON text expected, not {type(text).__name__}")
    if len(text) > max_chars:
        raise ValueError(f"JSON text longer than {max_chars} characters")
    if too_deep(text, max_depth):
        raise ValueError(f"JSON nested deeper than {max_depth}")
    try:
        return json.loads(text, parse_float=_finite_or_none, parse_constant=lambda _: None)
    except RecursionError:  # cannot happen under max_depth; said as bad JSON all the same
        raise ValueError("JSON nested too deep") from None


class Protocol:
    """A versioned message protocol: ``kinds`` maps each kind to ``{field: type}``.

    A type is a Python type (``int`` excludes ``bool``), ``None`` for JSON null,
    or a tuple of those. Extra fields are refused (``msg/field``) so a message
    means one thing only.
    """

    def __init__(self, name: str, version: int, kinds: dict[str, dict[str, Any]],
                 max_bytes: int = 16_384) -> None:
        self.name = name
        self.version = version
        self.kinds = kinds
        self.max_bytes = max_bytes

    def build(self, kind: str, id: int, **fields: Any) -> dict[str, Any]:
        """A message of ``kind`` with ``fields``; ``ValueError`` if they do not fit."""
        msg = {"v": self.version, "id": id, "kind": kind, **fields}
        try:
            self.check(msg)
        except MessageError as e:
            raise ValueError(str(e)) from None
        return msg

    @staticmethod
    def dumps(msg: dict[str, Any]) -> str:
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))

    def parse(self, text: Any) -> dict[str, Any]:
        """The message in ``text`` (from a peer), or :class:`MessageError`."""
        if not isinstance(text, str):
            raise MessageError("msg/not_text", f"a message is JSON text, not {type(text).__name__}")
        if len(text.encode("utf-8", "surrogatepass")) > self.max_bytes:
            raise MessageError("msg/too_big", f"over {self.max_bytes} bytes")
        if too_deep(text, MAX_DEPTH):
            raise MessageError("msg/not_json", f"nested deeper than {MAX_DEPTH}")
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            raise MessageError("msg/not_json", "not JSON") from None
        return self.check(msg)

    def check(self, msg: Any) -> dict[str, Any]:
        """``msg`` itself if it is a well-formed message of this protocol."""
        if not isinstance(msg, dict):
            raise MessageError("msg/not_object", "a message is a JSON object")
        v = msg.get("v")
        if not _type_ok(v, int):
            raise MessageError("msg/version", f"{self.name} message without a version")
        if v != self.version:
            raise MessageError("msg/version", f"{self.name} protocol version {v}, this Kosynka "
                               f"speaks {self.version} (update Kosynka)")
        if not _type_ok(msg.get("id"), int) or msg["id"] < 0:
            raise MessageError("msg/id", "id must be an integer ≥ 0")
        kind = msg.get("kind")
        spec = self.kinds.get(kind) if isinstance(kind, str) else None
        if spec is None:
            raise MessageError("msg/kind", f"unknown kind {str(kind)[:40]!r}")
        for name, typ in spec.items():
            if name not in msg:
                raise MessageError("msg/field", f"{kind} lacks {name!r}")
            if not _type_ok(msg[name], typ):
                raise MessageError("msg/field", f"{kind}.{name} has the wrong type")
        extra = set(msg) - set(spec) - set(ENVELOPE)
        if extra:
            raise MessageError("msg/field", f"{kind} has unknown fields {sorted(extra)[:3]}")
        return msg
