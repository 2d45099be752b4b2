"""Time the Canvas primitives and a realistic full redraw, on CPython and MicroPython.

    python -m host_tools.bench.draw            # both interpreters
    python -m host_tools.bench.draw --cpython  # CPython only

MicroPython is the WebAssembly port, run through host_tools.micropython.runner.  The
same benchmark code (BENCH below) runs on both: each case is repeated in
batches and the median per-call time is reported, by wall clock and by the
process's CPU time.  CPU time is the figure to compare: on a machine shared
with other jobs the wall clock also counts the time the process waited for a
core.  A Pico runs MicroPython roughly 33x slower than the wasm port.  On
MicroPython the firmware draws with framebuf (ui.canvas.FbCanvas); the pure
Python reference is timed there too, for comparison.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from host_tools.micropython.runner import run as run_micropython

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"


PICO_FACTOR = 33  # a Pico runs MicroPython about 33x slower than the wasm port on this machine

# The benchmark, valid on both interpreters; the clocks passed to run() give ms.
BENCH = r"""
from ui.canvas import Canvas, XOR
from ui.font import SMALL, NORMAL
from ui import cardart

HAND = (0, 13, 26, 1, 2, 3, 17, 30, 43, 48, 12)


def redraw(cv):
    # A game screen: status line, stock and discard, two message lines,
    # an 11-card hand with one card raised, a highlight bar.
    cv.fill(0)
    cv.text("You 37  CPU 52   Box 2", 0, 0, 1, SMALL)
    cardart.draw_back(cv, 40, 9)
    cardart.draw_card(cv, 56, 9, 22)
    cv.text("Stock 21", 76, 10, 1, SMALL)
    cv.text("Take 10?", 76, 18)
    cv.rect(74, 8, 54, 19, 1)
    x = 3
    for i in range(11):
        cardart.draw_card(cv, x, 45, HAND[i], i == 4)
        x += 11
    cv.fill_rect(74, 17, 54, 9, XOR)
    cv.hline(0, 31, 128, 1)


def bench(fn, wall, cpu, batch):
    # Median over 7 batches of the per-call time, by wall clock and by CPU time.
    tw = []
    tc = []
    for r in range(7):
        w0 = wall()
        c0 = cpu()
        for i in range(batch):
            fn()
        tc.append((cpu() - c0) * 1000.0 / batch)
        tw.append((wall() - w0) * 1000.0 / batch)
    tw.sort()
    tc.sort()
    return tw[3], tc[3]


def run(wall, cpu, scale):
    cv = Canvas()
    s21 = "Deadwood 12: knock? OK"
    cases = (
        ("full redraw (11 cards, 3 text lines, rects)", lambda: redraw(cv), 20),
        ("fill(0)", lambda: cv.fill(0), 200),
        ("draw_card aligned (y=48)", lambda: cardart.draw_card(cv, 50, 48, 22), 100),
        ("draw_card unaligned (y=45)", lambda: cardart.draw_card(cv, 50, 45, 22), 100),
        ("draw_card dim+invert", lambda: cardart.draw_card(cv, 50, 45, 22, False, False, True, True), 50),
        ("draw_cursor (the raised cursor card)", lambda: cardart.draw_cursor(cv, 50, 45, 22), 100),
        ("text NORMAL 21 chars aligned", lambda: cv.text(s21[:21], 0, 8), 50),
        ("text NORMAL 21 chars unaligned", lambda: cv.text(s21[:21], 0, 11), 50),
        ("text SMALL 32 chars aligned", lambda: cv.text(s21 + " 1234567890", 0, 16, 1, SMALL), 50),
        ("text NORMAL 21 chars XOR", lambda: cv.text(s21[:21], 0, 11, XOR), 50),
        ("fill_rect 128x8 XOR bar", lambda: cv.fill_rect(0, 24, 128, 8, XOR), 100),
        ("fill_rect 60x20 set", lambda: cv.fill_rect(10, 13, 60, 20, 1), 100),
        ("rect 60x20", lambda: cv.rect(10, 13, 60, 20, 1), 100),
        ("hline 128", lambda: cv.hline(0, 33, 128, 1), 100),
        ("vline 64", lambda: cv.vline(5, 0, 64, 1), 200),
        ("line diagonal 128x64", lambda: cv.line(0, 0, 127, 63, 1), 50),
        ("pixel set", lambda: cv.pixel(5, 9, 1), 500),
    )
    # Warm up first: the wasm engine compiles hot code in tiers, and the first
    # case timed would otherwise pay for it.
    for name, fn, batch in cases:
        bench(fn, wall, cpu, max(1, batch // scale))
    for name, fn, batch in cases:
        print("%s|%.1f|%.1f" % ((name,) + bench(fn, wall, cpu, max(1, batch // scale))))
"""

# Clocks in milliseconds: wall time, and this process's CPU time (which other
# jobs on a busy machine do not inflate).
_CPY_CLOCK = """
import time
run(lambda: time.perf_counter() * 1000.0, lambda: time.process_time() * 1000.0, 1)
"""
_MP_CLOCK = """
import js
def cpu_ms():
    u = js.process.cpuUsage()
    return (u.user + u.system) / 1000.0
run(js.performance.now, cpu_ms, 1)
"""


def run_cpython() -> list[tuple[str, float, float]]:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(BENCH + _CPY_CLOCK, "bench", "exec"), {"__name__": "bench"})  # noqa: S102
    return _parse(buf.getvalue())


# On MicroPython ui.canvas.Canvas is the framebuf-backed FbCanvas; this runs the pure-Python
# reference instead, for comparison.
_PURE = "import ui.canvas\nui.canvas.Canvas = ui.canvas.PyCanvas\n"


def run_mp(pure: bool = False) -> list[tuple[str, float, float]]:
    return _parse(run_micropython((_PURE if pure else "") + BENCH + _MP_CLOCK))


def _parse(text: str) -> list[tuple[str, float, float]]:
    rows = []
    for line in text.splitlines():
        if line.count("|") == 2:
            name, wall, cpu = line.split("|")
            rows.append((name, float(wall), float(cpu)))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpython", action="store_true", help="skip MicroPython")
    args = ap.parse_args(argv)
    cpy = run_cpython()
    mp = {} if args.cpython else {name: (w, c) for name, w, c in run_mp()}
    pure = {} if args.cpython else {name: (w, c) for name, w, c in run_mp(pure=True)}
    print("median microseconds per call; cpu = this process's CPU time, wall = elapsed")
    print("MP = the wasm port: 'framebuf' is the firmware's FbCanvas, 'pure' the PyCanvas reference")
    head = ("operation", "CPython cpu", "MP pure cpu", "MP fb cpu", "MP fb wall", "Pico est. ms")
    print("%-44s %11s %11s %11s %11s %12s" % head)
    for name, _wall, cpu in cpy:
        if name in mp:
            mw, mc = mp[name]
            pc = pure.get(name, (0.0, float("nan")))[1]
            print(
                "%-44s %11.1f %11.1f %11.1f %11.1f %12.2f"
                % (name, cpu, pc, mc, mw, mc * PICO_FACTOR / 1000.0)
            )
        else:
            print("%-44s %11.1f" % (name, cpu))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        "Pico estimate = %d x wasm cpu with framebuf (docs/ARCHITECTURE.md: Pico facts); %d cores, load %.2f"
        % (PICO_FACTOR, os.cpu_count(), load)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
