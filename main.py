"""Device entry: build the Pico hardware, run the app, and come back from any crash.

- An unexpected exception is written to crash.log in flash (full traceback),
  shown on the screen in one line, and the board restarts into the saved game.
- A hardware watchdog (8 s) restarts a hung loop the same way.  The log
  names a hang only when the watchdog really fired: deliberate restarts
  leave a flag first (device/pico.py).
- A crash-proof boot (device/bootguard.py): a save that makes the app fail
  while starting, or in its first moments after resuming, twice in a row, is
  moved aside (game.bad) and the board comes up at the title saying so.
- Safe mode (boot.py: the safe button held at power-on) skips all of this and
  leaves the REPL free.  Ctrl-C from a terminal stops the app and the
  watchdog, for the same reason.
"""

import sys
import time

WDT_MS = 8000  # the RP2040's longest is 8.3 s
CRASH_SHOW_MS = 5000  # long enough to read a scrolling line once
NOTE_MS = 60000  # "Save set aside" stays until a button is pressed (or a minute passes)


def one_line(e):
    """'ValueError: bad card' — an exception as one screen line."""
    s = type(e).__name__
    if e.args:
        s += ": " + str(e.args[0])
    return s


def crash_frame(text, now_ms=0):
    """The crash screen: what went wrong in one line (scrolling if long), and what happens next."""
    from ui.canvas import Canvas
    from ui.draw import banner, center, header
    from ui.font import NORMAL, SMALL

    c = Canvas()
    header(c, "SORRY \u00b7 AN ERROR")
    center(c, "Something broke.", 14, NORMAL)
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


def _safe_mode():
    try:
        from device import pins
        from device.display import Display
        from device.pico import i2c

        Display(i2c(), (pins.OLED_ADDR, pins.OLED_ADDR_ALT)).show(safe_frame().buf)
    except Exception as e:
        print("safe mode screen:", one_line(e))


def _has_save(hw):
    """Is there a game to resume?  Only the file's presence: the app checks it properly."""
    st = hw.storage
    try:  # sizes only (an emptied file is no game: see FileStorage.remove)
        return st.exists("game.sav") or st.exists("game.sav.bak")
    except Exception:  # noqa: BLE001 - a strange flash: the app will say what it finds
        return False


def crash(hw, e, restart):
    """Log, show, remember to resume, restart.  Every step may fail: the reset must still come."""
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
    t0 = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t0) < CRASH_SHOW_MS:
        try:
            hw.display.show(crash_frame(line, time.ticks_diff(time.ticks_ms(), t0)).buf)
        except Exception:
            pass
        if hw.feed is not None:
            hw.feed()
        time.sleep_ms(60)
    restart()


def main():
    from device import pico

    safe = globals().get("GIN_SAFE")  # boot.py's decision (boot.py and main.py share globals)
    if safe is None:
        safe = pico.safe_held()
    if safe:
        _safe_mode()
        return
    hw = pico.build()
    # The title on the glass first: the app, the rules core and the computer players take a
    # while to load (ui/splash.py).
    from ui.splash import show_title

    show_title(hw.display, _has_save(hw))
    deliberate = pico.was_deliberate(hw.storage)
    hung = pico.woke_from_watchdog() and not deliberate
    if hung:
        hw.log("--- watchdog reset: the loop hung")
    from device.bootguard import BootGuard

    guard = BootGuard(hw.storage)
    note = guard.start(hung)
    if guard.set_aside:
        hw.log("--- the app failed twice at start-up: set aside " + " ".join(guard.set_aside))
    try:
        from app import App

        # Every boot resumes the saved game where it was: power cut, crash or hang alike.
        app = App(hw, True)
        if note:
            app.say(note, False, NOTE_MS)
        feed = pico.start_watchdog(WDT_MS)
        hw.feed = feed
        step = app.step
        ready = hw.buttons.ready
        t0 = time.ticks_ms()
        while True:
            ms = step()
            feed()
            # sleep, but wake within a millisecond of a press: it is drawn at once
            while ms > 0 and not ready():
                time.sleep_ms(1)
                ms -= 1
            if guard.early:  # the first moments: a failure now counts towards setting the save aside
                guard.tick(time.ticks_diff(time.ticks_ms(), t0))
    except KeyboardInterrupt:
        pico.stop_watchdog()
        hw.buttons.stop()
        pico.mark_deliberate(hw.storage)  # the host's reset that follows is not a hang
        print("Stopped: the REPL is yours.")
    except Exception as e:
        guard.failed()
        crash(hw, e, lambda: pico.restart(hw.storage))


if __name__ == "__main__":
    main()
