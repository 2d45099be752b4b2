"""The start's two exits, loaded only when taken: the crash screen and its log line, safe mode's screen.

launch.py keeps none of this in RAM while the game runs (a module costs the Pico about twice its
.mpy, issue 21).  A crash lets go of its reserve and of the game's modules first
(launch.free_for_crash), so this module loads even when the heap was exhausted; if it can't,
launch still restarts.  launch.py's names for these (launch.crash_frame, ...) still work.
"""

import sys
import time

CRASH_SHOW_MS = 5000  # long enough to read a scrolling line once
MSG_NO_MEMORY = "Out of memory."


def one_line(e):
    """'ValueError: bad card' — an exception as one screen line."""
    s = type(e).__name__
    if e.args:
        s += ": " + str(e.args[0])
    return s


def crash_frame(text, now_ms=0, canvas=None, no_memory=False):
    """The crash screen: what went wrong in one line (scrolling if long), and what happens next."""
    from ui.canvas import Canvas
    from ui.draw import banner, center, header
    from ui.font import NORMAL, SMALL

    c = canvas if canvas is not None else Canvas()
    c.fill(0)
    header(c, "SORRY \u00b7 AN ERROR")
    center(c, MSG_NO_MEMORY if no_memory else "Something broke.", 14, NORMAL)
    banner(c, text, 30, now_ms, False, SMALL)
    center(c, "Logged to crash.log", 42, SMALL)
    center(c, "Restarting into your game\u2026", 52, SMALL)
    return c


def safe_frame():
    from ui.canvas import Canvas
    from ui.draw import center, header
    from ui.font import NORMAL, SMALL

    c = Canvas()
    header(c, "SAFE MODE")
    center(c, "The app is skipped.", 16, NORMAL)
    center(c, "REPL free for mpremote", 32, SMALL)
    center(c, "Reset to play again", 44, SMALL)
    return c


def safe_mode():
    try:
        from device import pins
        from device.display import Display
        from device.pico import i2c

        Display(i2c(), (pins.OLED_ADDR, pins.OLED_ADDR_ALT)).show(safe_frame().buf)
    except Exception as e:
        print("safe mode screen:", one_line(e))


def report(hw, e, canvas=None):
    """Log the traceback and show the crash screen for CRASH_SHOW_MS; every step may fail (the
    caller restarts whatever happens here)."""
    try:
        import io

        out = io.StringIO()
        sys.print_exception(e, out)  # MicroPython's traceback printer
        text = out.getvalue()
    except Exception:
        text = one_line(e)
    try:
        hw.log("--- crash at %d ms: %s" % (time.ticks_ms(), text))
    except Exception:
        pass
    line = one_line(e)
    no_memory = isinstance(e, MemoryError)
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < CRASH_SHOW_MS:
        try:
            canvas = crash_frame(line, time.ticks_diff(time.ticks_ms(), t0), canvas, no_memory)
            hw.display.show(canvas.buf)
        except Exception:
            pass
        if hw.feed is not None:
            hw.feed()
        time.sleep_ms(60)
