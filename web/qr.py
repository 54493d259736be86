"""A link as a QR code, made in the page (issue 11 item 2): the race's links and the
challenges' (``web.race.lobby``, ``web.challenge_sheets``).

Encoder: `segno <https://pypi.org/project/segno/>`_ (pinned in
``requirements-dev.txt``), vendored into the app bundle from the installed package
like the runtime (``tools/bundle.py``), so nothing is fetched at run time (O3).
Why segno: pure Python with no dependencies (runs unchanged on Pyodide), maintained,
implements the whole of ISO/IEC 18004 (all versions, error levels, masks, segment
modes) with its own test suite, and writes compact SVG — a few kilobytes for a
link, about 10 ms to make on CPython. A home-made encoder would save ~50 kB of
bundle at the cost of Reed–Solomon, masking and version tables to get right and
test ourselves.

Error correction L (7 %), raised by segno when it costs no extra size: a link read
off a phone screen needs no more, and each level up adds a version (a denser code).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["QR", "make"]


@dataclass(frozen=True)
class QR:
    svg: str        # <svg viewBox=…> scaling to its box (no width/height)
    version: int    # 1–40: how dense the code is
    error: str      # error-correction level that fits: L, M, Q or H


def make(text: str) -> QR:
    """The QR code of ``text`` (a link), as SVG markup with a quiet zone of 2."""
    import segno  # vendored; imported only when a code is shown

    code = segno.make(text, error="l", micro=False)
    svg = code.svg_inline(border=2, omitsize=True, svgclass="qr", lineclass=None,
                          dark="#000", light="#fff")
    return QR(svg, int(code.version), str(code.error))
