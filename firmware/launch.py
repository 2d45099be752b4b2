"""The device's start: build the Pico hardware, run the app, and come back from any crash.

main.py (MicroPython runs it by name, from source) only calls ``main()`` here: this module
ships compiled like the rest, so the board neither compiles it at every boot (~75 ms) nor
keeps its source's compile-time garbage in the heap.

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

The crash screen and safe mode's are in rescue.py, loaded only when taken: the game has that
RAM while it runs (issue 21).
"""

import gc
import sys
import time

try:
    import micropython

    # A traceback for an exception raised with the heap full (or in an interrupt).
    micropython.alloc_emergency_exception_buf(160)
except (ImportError, AttributeError):  # CPython
    micropython = None

WDT_MS = 8000  # the RP2040's longest is 8.3 s
NOTE_MS = 60000  # "Save set aside" stays until a button is pressed (or a minute passes)
CARD_FILE = "title.card"  # ui/titlecard.py's: the title kept for the next boot
RESUME_GC_BYTES = 8192  # a collection after every 8 KB allocated while a saved game resumes
# Held from boot, let go when a crash needs room: enough to reach free_for_crash's collection
# (its list of modules, a frame or two); the game's modules it drops then give back tens of KB
# for the log line and the screen.  Every byte of it is heap the game never has.
RESERVE_BYTES = 2048

# Room for the crash path, allocated while the heap is young (main() fills it right after the
# hardware is up): a crash with the heap exhausted frees this first, so the traceback, the
# crash.log line and the screen still fit.
crash_reserve = None
# The game's packages, let go before the crash path runs, but for what the crash screen needs.
_CRASH_DROPS = (
    "app",
    "games",
    "play",
    "play_computer",
    "play_cable",
    "modes",
    "savegame",
    "saveread",
    "prefs",
    "gin",
    "link",
    "ui",
)
_CRASH_KEEPS = ("ui", "ui.canvas", "ui.draw", "ui.font")


def _safe_mode():
    try:
        from rescue import safe_mode

        safe_mode()
    except Exception as e:  # noqa: BLE001 - safe mode must leave the REPL free whatever happens
        print("safe mode:", repr(e))


def _has_save(hw):
    """Is there a game to resume?  Only the file's presence: the app checks it properly."""
    st = hw.storage
    try:  # sizes only (an emptied file is no game: see FileStorage.remove)
        return st.exists("game.sav") or st.exists("game.sav.bak")
    except Exception:  # noqa: BLE001 - a strange flash: the app will say what it finds
        return False


def free_for_crash():
    """Let go of the reserve and of the game's modules, then collect.

    The app and the game are gone by now (main() drops them): what they imported goes too,
    so an out-of-memory crash finds tens of KB free for its log line and its screen.  Only on
    the device: a host keeps its modules (its tests go on with the same classes).
    """
    global crash_reserve
    crash_reserve = None
    if sys.implementation.name == "micropython" and sys.platform == "rp2":
        for name in list(sys.modules):
            top = name.split(".")[0]
            if top in _CRASH_DROPS and name not in _CRASH_KEEPS:
                drop_module(name)  # out of its package too: ui stays, and would keep it alive
    gc.collect()


def crash(hw, e, restart, canvas=None):
    """Log, show, remember to resume, restart.  Every step may fail: the reset must still come."""
    free_for_crash()
    try:
        from rescue import report  # only now: its code is RAM the game had while it ran

        report(hw, e, canvas)
    except Exception:  # noqa: BLE001 - nothing stops the restart
        pass
    restart()


def main(safe=None):
    """Run the game; safe: boot.py's reading of the safe-mode button (None: read it here)."""
    global crash_reserve
    from device import pico

    if safe is None:
        safe = pico.safe_held()
    if safe:
        _safe_mode()
        return
    hw = pico.build()
    # The crash path's reserve first, while the heap is young (a tenth of a millisecond): a resume
    # fragments the heap (the replay's small objects among the modules it loads), and a reserve
    # taken after it failed to find its 6 KB in one piece, crashing every resume after a crash.
    try:
        crash_reserve = bytearray(RESERVE_BYTES)
    except MemoryError:  # no reserve is no reason not to play
        crash_reserve = None
    resuming = _has_save(hw)
    # The title on the glass first: the app, the rules core and the computer players take a
    # while to load.  The title the app kept last time when it is still the one it will draw
    # (ui/titlecard.py), else the splash (ui/splash.py).
    if resuming or not _kept_title(hw):
        _splash(hw.display, resuming)
    deliberate = pico.was_deliberate(hw.storage)
    hung = pico.woke_from_watchdog() and not deliberate
    if hung:
        hw.log("--- watchdog reset: the loop hung")
    guard = _boot_guard(hw.storage)
    note = guard.start(hung)  # decides (and sets a failing save aside); writes nothing yet
    if guard.set_aside:
        hw.log("--- the app failed twice at start-up: set aside " + " ".join(guard.set_aside))
    app = step = None
    canvas = None
    try:
        gc_was = None
        if resuming:
            # The replay needs the meld table: its 4 KB block before it fragments the heap (for
            # the title it comes after its first frame, below).
            import gin.meldtables  # noqa: F401

            # The resume loads modules among the replay's many short-lived objects; collected
            # only once the heap is full, those leave it in small pieces, and the resume ran out
            # of memory with 150 KB free (a 1280-byte module block: make pico's resume run, then
            # the boot guard set the match aside).  Collecting every RESUME_GC_BYTES while it
            # resumes keeps the pieces together, for about 0.7 s more (emulated Pico).
            gc_was = _gc_every(RESUME_GC_BYTES)
        from app import App

        # Every boot resumes the saved game where it was: power cut, crash or hang alike.
        app = App(hw, True)
        canvas = app.canvas
        if note:
            app.say(note, False, NOTE_MS)
        feed = pico.start_watchdog(WDT_MS)
        hw.feed = feed
        step = app.step
        ready = hw.buttons.ready
        ms = step()  # the title (or the resumed table) on the glass
        if gc_was is not None:
            _gc_every(gc_was)
        # The boot guard's flag and the meld table only now, off the path to the first frame;
        # the table (a 4 KB block, needed by every game) while the heap is still young.
        guard.arm()
        import gin.meldtables  # noqa: F401

        t0 = time.ticks_ms()
        while True:
            feed()
            # sleep, but wake within a millisecond of a press: it is drawn at once
            while ms > 0 and not ready():
                time.sleep_ms(1)
                ms -= 1
            if guard is not None:  # the first moments: a failure counts towards setting the save aside
                if not guard.tick(time.ticks_diff(time.ticks_ms(), t0)):
                    guard = None  # main() runs for good: a name held here keeps a module alive
                    drop_module("device.bootguard")
            ms = step()
    except KeyboardInterrupt:
        pico.stop_watchdog()
        hw.buttons.stop()
        pico.mark_deliberate(hw.storage)  # the host's reset that follows is not a hang
        print("Stopped: the REPL is yours.")
    except Exception as e:
        app = step = None  # the game is saved at every move: let it go, its memory is the crash's
        if guard is not None:
            guard.failed()
        crash(hw, e, lambda: pico.restart(hw.storage), canvas)


def _splash(display, resuming):
    # In a function of its own: main() never returns, and a name bound in its frame (the
    # function imported) would keep the dropped module alive for good.
    from ui.splash import show_title

    show_title(display, resuming)
    drop_module("ui.splash")


def _kept_title(hw):
    # One look-up before loading the module: a flash without a card (the first boot after a
    # deploy) pays only that.  The name is ui.titlecard.CARD_FILE (tests/test_titlecard.py).
    try:
        if not hw.storage.exists(CARD_FILE):
            return False
    except Exception:  # noqa: BLE001 - a strange flash: no card, the splash
        return False
    from ui.titlecard import show

    shown = show(hw.storage, hw.display)
    drop_module("ui.titlecard")
    return shown


def _boot_guard(storage):
    from device.bootguard import BootGuard  # the instance keeps it until main() lets go of it

    return BootGuard(storage)


def _gc_every(n):
    """MicroPython's gc.threshold(n) (-1: only when the heap is full); the previous setting, or
    None where there is none (a host: CPython's gc has no such threshold)."""
    if sys.implementation.name != "micropython" or not hasattr(gc, "threshold"):
        return None
    was = gc.threshold()
    gc.collect()
    gc.threshold(n)
    return was


def drop_module(name):
    """Forget a module that has done its job, so the GC can take its code back: out of
    sys.modules and out of its package (whose attribute would keep it alive)."""
    if sys.modules.pop(name, None) is None:
        return
    cut = name.rfind(".")
    pkg = sys.modules.get(name[:cut]) if cut > 0 else None
    if pkg is not None:
        try:
            delattr(pkg, name[cut + 1 :])
        except (AttributeError, TypeError):
            pass


def drop_modules(names):
    for name in names:
        drop_module(name)


def __getattr__(name):  # rescue's names as launch's (crash_frame, one_line, ...): PEP 562, MicroPython too
    if name.startswith("__"):
        raise AttributeError(name)
    import rescue

    return getattr(rescue, name)
