"""Canvas against MicroPython's own framebuf and under MicroPython: the same random primitives give
framebuf's 1024 bytes, and the same text and cards come out of the WebAssembly port as out of CPython.

The pixel-set references of each primitive, and FbCanvas against PyCanvas, are in test_canvas.py.
"""

from __future__ import annotations

from ui.canvas import Canvas

from canvasref import random_ops
from host_tools.micropython.runner import run as run_micropython

# --- against MicroPython ----------------------------------------------------------------


_MP_FRAMEBUF = r"""
import framebuf
from ui.canvas import Canvas
OPS = %r
fb_buf = bytearray(1024)
fb = framebuf.FrameBuffer(fb_buf, 128, 64, framebuf.MONO_VLSB)
cv = Canvas()
for i, op in enumerate(OPS):
    if i %% 7 == 0:
        fb.fill(0)
        cv.fill(0)
    getattr(fb, op[0])(*op[1:])
    getattr(cv, op[0])(*op[1:])
    print("F", fb_buf.hex())
    print("C", cv.buf.hex())
"""


def test_primitives_equal_micropython_framebuf_byte_for_byte():
    ops = random_ops(2024, 700)
    out = run_micropython(_MP_FRAMEBUF % (ops,))
    fb = [bytes.fromhex(line[2:]) for line in out.splitlines() if line.startswith("F ")]
    mpc = [bytes.fromhex(line[2:]) for line in out.splitlines() if line.startswith("C ")]
    assert len(fb) == len(mpc) == len(ops)
    cv = Canvas()
    drawn = 0
    for i, op in enumerate(ops):
        if i % 7 == 0:
            cv.fill(0)
        getattr(cv, op[0])(*op[1:])
        assert bytes(cv.buf) == fb[i], ("framebuf differs after", op)
        assert mpc[i] == fb[i], ("Canvas on MicroPython differs after", op)
        drawn += any(cv.buf)
    assert drawn > len(ops) // 2  # the random shapes mostly land on screen


SCENE = r"""
from ui.canvas import Canvas, XOR
from ui.font import SMALL, NORMAL
from ui import cardart


def scene(k):
    cv = Canvas()
    cv.text("You 37  CPU 52 \u00b7 Box 2 \u2026", -3, k, 1, SMALL)
    cv.text("Knock with 7? \u25c0\u25b6\u25b2\u25bc\u2713\u00d7\u00b0", k - 20, 9 + k)
    cv.text("unknown \u20ac here", 2, 56 - k, XOR, SMALL)
    for c in range(52):
        cardart.draw_card(cv, (c % 13) * 9 - 4 + k, 16 + (c // 13) * 7 + k,
                          c, c % 5 == 0, c % 7 == 0, c % 3 == 0, c % 4 == 0)
    x = -2
    for c in range(0, 52, 5):
        x = cardart.draw_inline(cv, x, 58 + k % 3, c) + 1
    cv.fill_rect(100, 20 + k, 28, 9, XOR)
    cv.rect(-1, -1, 130, 66, XOR)
    cv.line(k, 63, 127, k, XOR)
    return cv.buf


for k in range(9):
    print("S", scene(k).hex())
"""


def test_canvas_on_micropython_draws_the_same_text_and_cards():
    out = run_micropython(SCENE)
    mp = [bytes.fromhex(line[2:]) for line in out.splitlines() if line.startswith("S ")]
    assert len(mp) == 9
    ns: dict = {}
    exec(compile(SCENE.split("for k in range(9)")[0], "scene", "exec"), ns)  # noqa: S102
    for k in range(9):
        assert mp[k] == bytes(ns["scene"](k)), "scene %d differs" % k
    assert len(set(mp)) == 9
