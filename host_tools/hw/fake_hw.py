"""A minimal in-memory ``hw`` object (the contract of docs/HELPERS_CONTEXT.md) and a button bot.

Deliberately plain Python that MicroPython runs too: the cross-check test
plays the very same scripted session under CPython and under the MicroPython
WebAssembly port and compares every frame.  So: no type hints, no dataclasses,
no f-string tricks.

* ``FakeClock`` is virtual: time moves only when told (``advance``), and the
  buttons are sampled on the device's 5 ms grid as it moves, through the
  firmware's own ``Debouncer`` (debounce, long press, repeat as on the Pico).
* ``FakeDisplay`` keeps the last frame and, when asked, a CRC of every frame.
* ``storage`` is the firmware's ``FileStorage`` on an in-memory file system.
* ``Driver`` steps an App the way the device loop does and presses buttons.
* ``Bot`` chooses buttons from what the screen shows, to play whole matches.
"""

try:
    from binascii import crc32
except ImportError:  # pragma: no cover
    from zlib import crc32

from device.buttons import BUTTON_NAMES, SAMPLE_MS, Debouncer
from device.storage import FileStorage, MemFS

_PERIOD = 1 << 30


class FakeReset(Exception):
    """hw.reset() was called."""


class FakeClock:
    def __init__(self, start_ms=0):
        self.now = start_ms
        self._next_sample = start_ms
        self.buttons = None

    def ticks_ms(self):
        return self.now % _PERIOD

    def diff(self, a, b):
        d = (a - b) & (_PERIOD - 1)
        if d >= _PERIOD >> 1:
            d -= _PERIOD
        return d

    def advance(self, ms):
        end = self.now + ms
        b = self.buttons
        while b is not None and self._next_sample <= end:
            self.now = self._next_sample
            b.sample(self.now % _PERIOD)
            self._next_sample += SAMPLE_MS
        self.now = end

    def sleep_ms(self, ms):
        self.advance(ms)


class FakeButtons:
    def __init__(self, clock):
        self.raw = 0
        self.deb = Debouncer(clock.ticks_ms())
        self.queue = []
        clock.buttons = self

    def sample(self, now_ms):
        evs = self.deb.sample(self.raw, now_ms)
        if evs:
            self.queue.extend(evs)

    def push(self, ev):
        """Inject an event directly (bypassing the debouncer)."""
        self.queue.append(ev)

    def events(self):
        q = self.queue
        self.queue = []
        return q

    def held(self):
        return self.deb.stable


class FakeDisplay:
    def __init__(self, record=False):
        self.present = True
        self.frame = bytes(1024)
        self.shows = 0
        self.level = 127
        self.on = True
        self.crcs = [] if record else None

    def show(self, buf):
        if not self.present:
            return False
        self.frame = bytes(buf)
        self.shows += 1
        if self.crcs is not None:
            self.crcs.append(crc32(self.frame) & 0xFFFFFFFF)
        return True

    def contrast(self, v):
        self.level = v

    def power(self, on):
        self.on = on


class FakeSound:
    def __init__(self):
        self.tones = []

    def tone(self, freq_hz, ms):
        self.tones.append((freq_hz, ms))


class FakeLed:
    def __init__(self):
        self.on = False
        self.changes = 0

    def set(self, on):
        self.on = bool(on)
        self.changes += 1


class FakeHw:
    name = "sim"

    def __init__(self, start_ms=0, record=False, files=None, battery=None):
        self.clock = FakeClock(start_ms)
        self.buttons = FakeButtons(self.clock)
        self.display = FakeDisplay(record)
        self.fs = MemFS(files)
        self.storage = FileStorage("", self.fs)
        self.sound = FakeSound()
        self.led = FakeLed()
        self.battery = battery
        self.logs = []
        self.resets = 0
        self.feed = None  # the watchdog's feed on the device; no watchdog here

    def battery_mv(self):
        return self.battery

    def reset(self):
        self.resets += 1
        raise FakeReset()

    def log(self, text):
        self.logs.append(text)


# --- driving an App ---------------------------------------------------------------


def button_index(b):
    if isinstance(b, int):
        return b
    return BUTTON_NAMES.index(b.upper())


class Driver:
    """Steps an App as the device loop does; presses buttons through the debouncer."""

    def __init__(self, app, hw):
        self.app = app
        self.hw = hw

    def run(self, ms):
        clock = self.hw.clock
        end = clock.now + ms
        while True:
            sleep = self.app.step()
            if clock.now >= end:
                return
            d = sleep if sleep > 0 else 1
            if clock.now + d > end:
                d = end - clock.now
            clock.advance(d)

    def press(self, b, hold_ms=60, gap_ms=40):
        bit = 1 << button_index(b)
        self.hw.buttons.raw |= bit
        self.run(hold_ms)
        self.hw.buttons.raw &= ~bit
        self.run(gap_ms)

    def long(self, b):
        self.press(b, 700, 40)

    def keys(self, names):
        """Press buttons named in a space-separated string, e.g. 'DOWN DOWN DRAW'."""
        for n in names.split():
            self.press(n)


# --- a player made of button presses ------------------------------------------------------


class Bot:
    """Plays through the screens with buttons only.

    It reads the state the screen shows (the hand, the pile, the phase) to
    choose, and acts only by pressing buttons: the cursor travels with
    LEFT/RIGHT, DRAW/DISCARD/KNOCK act, DRAW moves on from the result screens.
    Its play: take the upcard or pile top when it lowers the deadwood, throw
    the card that leaves the least deadwood, knock when allowed.
    """

    def __init__(self, driver):
        self.d = driver
        self.presses = 0

    def press(self, b):
        self.presses += 1
        self.d.press(b)

    def act(self):
        """One decision on the current screen; returns False when there is nothing to do."""
        b = self.decide()
        if b is None:
            return False
        if b:
            self.press(b)
        else:
            self.d.run(50)
        return True

    def decide(self):
        """The button to press now: a name, '' to wait for the computer, None when done."""
        app = self.d.app
        sid = app.view.sid
        if sid in (2, 3, 4, 5):  # result, sheet, game over, pass the device
            return "DRAW"
        if sid != 1:
            return None
        rnd = app.match.round
        if not app.is_human(rnd.player) or rnd.player != app.seat:
            return ""
        from gin import melds

        ph = rnd.phase
        h = rnd.hands[rnd.player]
        if ph == 0 or ph == 1:  # offer / draw
            take = False
            if rnd.pile and not rnd.stock_only:
                top = rnd.pile[-1]
                hh = list(h)
                hh[top // 13] |= 1 << (top % 13)
                take = melds.deadwood_after_discard(hh) < melds.deadwood(h)
            return "DISCARD" if take else "DRAW"
        if ph == 3:  # spread: the first arrangement
            return "KNOCK"
        # discard phase: the best discard that isn't the card just taken
        best = -1
        bv = 999
        for c in rnd.cards_of(rnd.player):
            if c == rnd.taken:
                continue
            hh = list(h)
            hh[c // 13] &= ~(1 << (c % 13))
            v = melds.deadwood(hh)
            if v < bv:
                bv = v
                best = c
        if app.cursor != best:
            order = app.view.layout(app)
            return "RIGHT" if order.index(best) > order.index(app.cursor) else "LEFT"
        return "KNOCK" if bv <= rnd.knock_limit else "DISCARD"

    def play_match(self, limit=4000):
        """Act until the title screen comes back (the match is over); returns presses used."""
        n = 0
        while n < limit:
            if self.d.app.view.sid == 0 and self.d.app.match is None:
                return self.presses
            if not self.act():
                return self.presses
            n += 1
        raise RuntimeError("the match did not end")


# --- the scripted session both interpreters play (tests/test_ui_mp_frames.py) ----------------


def session(App, start_ms=4242, whole_match=True):
    """Boot, visit every menu and page, then play a match with the Bot; returns (hw, app).

    hw.display.crcs holds the CRC-32 of every frame shown, in order.
    """
    hw = FakeHw(start_ms=start_ms, record=True)
    app = App(hw)
    d = Driver(app, hw)
    d.run(300)
    d.keys("DOWN DOWN DOWN DRAW")  # title -> rules
    d.keys("RIGHT DOWN DOWN DOWN RIGHT UP UP UP")  # Modern, Oklahoma on
    d.keys("UP DRAW DOWN DOWN MENU MENU")  # show all rules, back, back to the title
    d.keys("DOWN DOWN DRAW DOWN RIGHT LEFT MENU")  # settings
    d.keys("UP DRAW RIGHT LEFT MENU")  # stats
    d.keys("DOWN DOWN DRAW RIGHT RIGHT LEFT MENU")  # how to play
    d.keys("UP UP UP UP UP UP DRAW")  # new game
    if whole_match:
        Bot(d).play_match()
    else:
        bot = Bot(d)
        for _ in range(40):
            bot.act()
    d.run(500)
    return hw, app
