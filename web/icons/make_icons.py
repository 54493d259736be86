"""Draw Kosynka's app icons (O2): a white card with a red heart, fanned over a
card back, on the table's green. Standard library only; run it from anywhere:

    python3 web/icons/make_icons.py

writes ``icon-192.png``, ``icon-512.png`` (rounded square, transparent corners)
and ``maskable-512.png`` (full bleed; the cards inside the 80 % safe circle) next
to this file. ``icon.svg`` is the same drawing by hand, for the favicon.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

GREEN = (11, 93, 59)
GREEN_DARK = (8, 70, 44)
WHITE = (250, 250, 246)
RED = (200, 30, 45)
BACK = (30, 70, 150)
BACK_LINE = (200, 215, 240)
EDGE = (40, 40, 40)


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> float:
    """Signed distance to a rounded rectangle centred at 0 (negative inside)."""
    qx, qy = abs(x) - w / 2 + r, abs(y) - h / 2 + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def heart(x: float, y: float) -> bool:
    """Inside test of the classic heart curve (x²+y²−1)³ − x²y³ ≤ 0, y up."""
    a = x * x + y * y - 1
    return a * a * a - x * x * y * y * y <= 0


def rotate(x: float, y: float, deg: float) -> tuple[float, float]:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return x * c + y * s, -x * s + y * c


def sample(u: float, v: float, maskable: bool) -> tuple[int, int, int, int] | None:
    """Colour (r, g, b, a) at u, v in [-1, 1] (y down)."""
    # background
    if maskable:
        colour = GREEN if math.hypot(u, v) < 1.2 else GREEN_DARK
        scale = 0.78
    else:
        if rounded_rect(u, v, 2.0, 2.0, 0.42) > 0:
            return None
        colour = GREEN
        scale = 1.0
    u, v = u / scale, v / scale
    cw, ch, cr = 0.92, 1.30, 0.12
    # card back, rotated left, shifted
    bx, by = rotate(u + 0.22, v - 0.02, 14)
    d = rounded_rect(bx, by, cw, ch, cr)
    if d <= 0:
        colour = EDGE if d > -0.025 else BACK
        if d <= -0.08 and (int((bx + by) * 14) % 2 == 0):
            colour = BACK_LINE if d > -0.10 or (int((bx - by) * 14) % 2) else colour
    # face card, rotated right
    fx, fy = rotate(u - 0.16, v + 0.03, -8)
    d = rounded_rect(fx, fy, cw, ch, cr)
    if d <= 0:
        colour = EDGE if d > -0.025 else WHITE
        hx, hy = fx / 0.30, -(fy + 0.02) / 0.30
        if heart(hx, hy + 0.1):
            colour = RED
    return (*colour, 255)


def render(size: int, maskable: bool, ss: int = 3) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sj in range(ss):
                for si in range(ss):
                    u = ((i + (si + 0.5) / ss) / size) * 2 - 1
                    v = ((j + (sj + 0.5) / ss) / size) * 2 - 1
                    c = sample(u, v, maskable)
                    if c:
                        for k in range(3):
                            acc[k] += c[k] * c[3]
                        acc[3] += c[3]
            n = ss * ss
            a = acc[3] / n
            if acc[3]:
                row += bytes(round(acc[k] / acc[3]) for k in range(3)) + bytes([round(a)])
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(w: int, h: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-512.png", 512, True),
    ):
        (HERE / name).write_bytes(render(size, maskable))
        print("wrote", HERE / name)


if __name__ == "__main__":
    main()
