"""The canvas tests' helpers (tests/test_canvas*.py): the screen as a set of lit points, the plainest
reading of each primitive, and random coordinates that often fall on or off an edge."""

from __future__ import annotations

import random

from ui.canvas import XOR, Canvas

W, H = 128, 64


class Ref:
    """The screen as a set of lit (x, y) points."""

    def __init__(self, lit=()):
        self.lit = set(lit)

    @classmethod
    def of(cls, cv: Canvas) -> Ref:
        lit = set()
        for i, b in enumerate(cv.buf):
            if b:
                x, y = i % W, (i // W) * 8
                lit.update((x, y + bit) for bit in range(8) if b >> bit & 1)
        return cls(lit)

    def put(self, x: int, y: int, c: int) -> None:
        if 0 <= x < W and 0 <= y < H:
            if c == XOR:
                self.lit ^= {(x, y)}
            elif c:
                self.lit.add((x, y))
            else:
                self.lit.discard((x, y))

    def fill_rect(self, x, y, w, h, c):
        # only the on-screen part: put() would drop the rest anyway
        for yy in range(max(y, 0), min(y + h, H)):
            for xx in range(max(x, 0), min(x + w, W)):
                self.put(xx, yy, c)

    def buf(self) -> bytearray:
        b = bytearray(W * H // 8)
        for x, y in self.lit:
            b[(y >> 3) * W + x] |= 1 << (y & 7)
        return b


def random_canvas(rng: random.Random) -> Canvas:
    """A canvas with scattered lit pixels, so that every colour has something to act on."""
    cv = Canvas()
    cv.buf[:] = bytes(
        rng.getrandbits(8) & rng.getrandbits(8) if rng.random() < 0.4 else 0 for _ in range(1024)
    )
    return cv


def coord(rng: random.Random, lo: int, hi: int) -> int:
    """Mostly on screen, sometimes well off it, often near an edge."""
    r = rng.random()
    if r < 0.15:
        return rng.choice([lo - 1, lo, hi - 1, hi])
    if r < 0.3:
        return rng.randint(lo - 40, hi + 40)
    return rng.randint(lo, hi - 1)


def size(rng: random.Random) -> int:
    return rng.choice([0, 1, 2, 3, rng.randint(-3, 0), rng.randint(1, 20), rng.randint(1, 150)])


def random_ops(seed: int, n: int) -> list[tuple]:
    rng = random.Random(seed)
    ops = []
    for _ in range(n):
        k = rng.choice(["line", "line", "line", "hline", "vline", "rect", "fill_rect", "pixel"])
        x, y = coord(rng, 0, W), coord(rng, 0, H)
        c = rng.choice([0, 1, 1])
        if k == "line":
            ops.append((k, x, y, coord(rng, 0, W), coord(rng, 0, H), c))
        elif k in ("hline", "vline"):
            ops.append((k, x, y, size(rng), c))
        elif k == "rect" and rng.random() < 0.3:
            ops.append((k, x, y, size(rng), size(rng), c, True))
        elif k in ("rect", "fill_rect"):
            ops.append((k, x, y, size(rng), size(rng), c))
        else:
            ops.append((k, x, y, c))
    return ops
