"""The handheld's hardware on a web page: the ``hw`` object the firmware's App gets in a browser.

This module runs under the MicroPython WebAssembly port inside the page (gin.mjs
loads it with the firmware's own ``.mpy`` files).  It implements the hardware
contract (firmware/device/contract.py) as firmware/device/pico.py and the
simulator's host_tools/hw/fake_hw.py do: tests/test_app.py holds all three to
it.  What a browser does, the JavaScript ``page`` object passed to ``start()``
does (gin.mjs; the same test holds it to the calls made here): draw a frame on
the canvas, beep through WebAudio, light the LED, and keep files in ``localStorage``.

* Buttons: the page reports each edge (mouse, touch or key) as it happens; the
  device's own ``Debouncer`` samples them on the device's 5 ms grid, so debounce,
  long press and auto-repeat behave as on the Pico.  A tap shorter than the
  debounce (a quick click) is held just long enough to count, as the simulator does.
* Storage: the firmware's ``FileStorage`` (write the temporary copy, keep the
  backup, rename) on ``LocalStorageFS``, one ``localStorage`` key per file.
* A crash is handled as launch.py does on the device: logged, shown on the
  device's own crash screen for a few seconds, then the App restarts into the
  saved game.
"""

import sys
import time
from binascii import hexlify, unhexlify

from device.buttons import COUNT, DEBOUNCE_MS, SAMPLE_MS, Debouncer, ticks_diff
from device.storage import LOG_FILE, LOG_MAX, FileStorage, MemFS

try:
    from errno import ENOENT, ENOSPC
except ImportError:  # pragma: no cover - every port we use has errno
    ENOENT = 2
    ENOSPC = 28

PERIOD = 1 << 30  # ticks_ms wraps here, as on the device
MIN_HOLD_MS = DEBOUNCE_MS + 2 * SAMPLE_MS  # a click shorter than this is held this long
CATCH_UP_MS = 1000  # a page in the background: quiet time older than this is not replayed
STORE_PREFIX = "gin-handheld/"  # localStorage keys: gin-handheld/game.sav, ...
MAX_RESUMING_CRASHES = 3


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        # The page's loop sleeps between steps (setTimeout); a call from the App waits here.
        t0 = time.ticks_ms()
        while time.ticks_diff(time.ticks_ms(), t0) < ms:
            pass


class Buttons:
    """Edges from the page -> raw levels sampled every SAMPLE_MS -> the device's Debouncer."""

    def __init__(self, clock):
        self._clock = clock
        now = clock.ticks_ms()
        self._deb = Debouncer(now)
        self._t = now  # the last sample
        self._raw = 0
        self._changes = []  # (ticks, button, down), in time order
        self._down_at = [now] * COUNT
        self._queue = []

    def change(self, button, down, hold_ms=0):
        """The page: ``button`` went down (or up) now; hold_ms > 0 releases it that much later."""
        if not 0 <= button < COUNT:
            return
        now = self._clock.ticks_ms()
        if down:
            self._down_at[button] = now
            self._add(now, button, True)
            if hold_ms > 0:
                self._add((now + max(hold_ms, MIN_HOLD_MS)) % PERIOD, button, False)
        else:
            early = (self._down_at[button] + MIN_HOLD_MS) % PERIOD
            self._add(early if ticks_diff(early, now) > 0 else now, button, False)

    def release_all(self):
        """The page lost the focus: nothing stays held."""
        for b in range(COUNT):
            if self._raw & (1 << b) or any(c[1] == b and c[2] for c in self._changes):
                self.change(b, False)

    def _add(self, t, button, down):
        ch = self._changes
        i = len(ch)
        while i > 0 and ticks_diff(ch[i - 1][0], t) > 0:
            i -= 1
        ch.insert(i, (t, button, down))

    def _pump(self):
        now = self._clock.ticks_ms()
        t = self._t
        deb = self._deb
        ch = self._changes
        if ticks_diff(now, t) > CATCH_UP_MS and not (self._raw or deb.held() or ch):
            t = (now - SAMPLE_MS) % PERIOD  # nothing happened while the page slept
        while ticks_diff(now, t) >= SAMPLE_MS or (ch and ticks_diff(ch[0][0], now) <= 0 and t != now):
            # the device's 5 ms grid; an edge that is due is sampled now, not up to 5 ms later
            # (the page steps the App at once on an input: the press shows in that step)
            t = (t + SAMPLE_MS) % PERIOD if ticks_diff(now, t) >= SAMPLE_MS else now
            while ch and ticks_diff(ch[0][0], t) <= 0:
                _, b, down = ch.pop(0)
                if down:
                    self._raw |= 1 << b
                else:
                    self._raw &= ~(1 << b)
            evs = deb.sample(self._raw, t)
            if evs:
                self._queue.extend(evs)
        self._t = t

    def events(self):
        self._pump()
        out = self._queue
        self._queue = []
        return out

    def held(self):
        self._pump()
        return self._deb.held()


class Display:
    """The canvas: each frame goes to the page as hex text (1024 bytes, MONO_VLSB, as the SSD1306 takes)."""

    present = True

    def __init__(self, page):
        self._page = page
        self.damage = None  # the App's hint of where a frame changed: the page takes whole frames

    def show(self, buf):
        self._page.show(hexlify(buf).decode())
        return True

    def contrast(self, value):
        self._page.contrast(value)

    def power(self, on):
        self._page.power(bool(on))


class Sound:
    def __init__(self, page):
        self._page = page

    def tone(self, freq_hz, ms):
        self._page.tone(freq_hz, ms)


class Led:
    def __init__(self, page):
        self._page = page

    def set(self, on):
        self._page.led(bool(on))


class LocalStorageFS:
    """The file operations device/storage.py needs, on a browser's ``localStorage``.

    One key per file (``prefix + path``), the bytes as hex text (the C code of
    binascii; its base64 is Python code on this port, a thousand times slower).  Each ``setItem``
    is atomic, so ``FileStorage.write_atomic`` keeps its promise: a tab closed at
    any moment leaves the file, its backup or its complete temporary copy.
    ``store`` is anything with getItem/setItem/removeItem (localStorage itself,
    or a dict-backed stand-in in the tests).
    """

    def __init__(self, store, prefix=STORE_PREFIX):
        self._store = store
        self._prefix = prefix

    def read(self, path):
        v = self._store.getItem(self._prefix + path)
        if v is None:
            raise OSError(ENOENT)
        try:
            return unhexlify(v)
        except Exception:  # not hex (someone edited the key by hand): the bytes, for the CRC to refuse
            return v.encode()

    def write(self, path, data):
        try:
            self._store.setItem(self._prefix + path, hexlify(data).decode())
        except Exception:  # QuotaExceededError: the browser's storage is full
            raise OSError(ENOSPC)

    def rename(self, old, new):
        v = self._store.getItem(self._prefix + old)
        if v is None:
            raise OSError(ENOENT)
        try:
            self._store.setItem(self._prefix + new, v)
        except Exception:
            raise OSError(ENOSPC)
        self._store.removeItem(self._prefix + old)

    def remove(self, path):
        if self._store.getItem(self._prefix + path) is None:
            raise OSError(ENOENT)
        self._store.removeItem(self._prefix + path)

    def exists(self, path):
        return self._store.getItem(self._prefix + path) is not None

    def mkdir(self, path):
        pass  # keys need no folders


class WebHw:
    """Everything the App may touch, in a browser tab."""

    name = "web"

    def __init__(self, page, store=None):
        self.clock = Clock()
        self.buttons = Buttons(self.clock)
        self.display = Display(page)
        # No localStorage (a private window that refuses it): play on, saves last until the tab closes.
        self.storage = FileStorage("", fs=LocalStorageFS(store) if store is not None else MemFS())
        self.sound = Sound(page)
        self.led = Led(page)
        self.feed = None  # no watchdog in a page: a hung loop is the browser's to report
        self.link = None  # no link cable on a page (Play > Link cable says so)
        self._page = page

    def battery_mv(self):
        return None  # no battery gauge

    def reset(self):
        self._page.reload()

    def log(self, text):
        """The browser's console, and crash.log in the page's storage (kept small, as on the device)."""
        print(text)
        self.storage.append_line(LOG_FILE, text, LOG_MAX)


class Runner:
    """The device's main loop, one step at a time: the page calls ``step()`` and sleeps what it returns."""

    def __init__(self, page, store, seed=None):
        self.hw = WebHw(page, store)
        self.seed = seed
        self.crashed_at = None
        self.crash_line = ""
        self.crashes = 0
        self.app = None
        self._boot()

    def _boot(self):
        from app import App

        # As main.py on the device: every start resumes the saved game where it was.  After
        # repeated crashes the page starts at the title instead (the save is kept): no endless loop.
        self.app = None
        self.app = App(self.hw, self.crashes < MAX_RESUMING_CRASHES)
        if self.seed is not None:
            self.app.games.next_seed = self.seed  # as the simulator's --seed: the next match deals from it
            self.seed = None

    def step(self):
        if self.crashed_at is not None:
            return self._show_crash()
        try:
            if self.app is None:
                self._boot()
            return self.app.step()
        except Exception as e:
            self._crash(e)
            return 0

    def press(self, button, down, hold_ms=0):
        self.hw.buttons.change(button, down, hold_ms)

    def release_all(self):
        self.hw.buttons.release_all()

    def screen(self):
        """The id of the screen shown (for the page's title bar and the tests)."""
        v = self.app.view if self.app is not None else None
        return v.sid if v is not None else -1

    def _crash(self, e):
        import io

        from launch import one_line

        out = io.StringIO()
        sys.print_exception(e, out)
        self.hw.log("--- crash at %d ms: %s" % (time.ticks_ms(), out.getvalue()))
        self.crash_line = one_line(e)
        self.crashes += 1
        self.crashed_at = time.ticks_ms()
        self.app = None

    def _show_crash(self):
        from launch import CRASH_SHOW_MS, crash_frame

        t = time.ticks_diff(time.ticks_ms(), self.crashed_at)
        if t >= CRASH_SHOW_MS:
            self.crashed_at = None  # restart into the saved game, as the device does
            return 0
        self.hw.display.show(crash_frame(self.crash_line, t).buf)
        return 60


def start(page, store=None, seed=None):
    """Boot the App in the page; ``store`` is window.localStorage (None: saves kept in memory)."""
    return Runner(page, store, None if seed is None or seed < 0 else seed)
