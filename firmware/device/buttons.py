"""Buttons: names, event codes, the debouncer (pure logic) and the Pico reader.

An event is a small int ``button * 4 + kind``.  ``Debouncer.sample`` is the
same code on the device and on the host; only ``PicoButtons`` touches
``machine``, and it imports it lazily so the rest of this module runs on
CPython.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The buttons' numbers and the event kinds are events.py's (the screens share them, and the
# screens must not import device/); they are re-exported here for the debouncer's callers.
from events import (  # noqa: F401  (re-exported)
    BUTTON_NAMES,
    COUNT,
    DISCARD,
    DOWN,
    DRAW,
    KIND_NAMES,
    KNOCK,
    LEFT,
    LONG,
    MENU,
    PRESS,
    RELEASE,
    REPEAT,
    RIGHT,
    UP,
    event,
    event_text,
    ticks_diff,
)

DEBOUNCE_MS = const(15)  # after an edge, a button ignores changes this long (bounce)
LONG_MS = const(600)
REPEAT_DELAY_MS = const(400)
REPEAT_EVERY_MS = const(120)
REPEATING = const(0x0F)  # UP, DOWN, LEFT, RIGHT auto-repeat
SAMPLE_MS = const(5)  # the device timer's period

# ticks_ms wraps at 2**30 on MicroPython; the debouncer compares with events.ticks_diff.

NO_EVENTS = []  # shared result of a quiet sample: callers must not mutate it


class Debouncer:
    """Raw masks in (bit i = button i is down), debounced edge events out.

    A change counts at the first sample that sees it (the press a player
    feels starts there); the button then stays deaf until its raw level has
    been still for DEBOUNCE_MS, so the contact bounce that follows either
    edge, however long, can't make a second event.  A level that differs
    from the reported one when the deaf time ends is reported then (a tap
    shorter than DEBOUNCE_MS is a press and a release, never lost).
    """

    def __init__(self, now_ms):
        self.stable = 0
        self._deaf = 0  # buttons inside their DEBOUNCE_MS after an edge
        self._pending = 0  # deaf buttons whose raw level differs from stable (reported when deaf ends)
        self._raw = 0  # the last raw mask seen
        self._since = [now_ms] * COUNT  # when each deaf button's raw level last moved
        self._down_at = [now_ms] * COUNT  # when each stable press began
        self._next_rep = [0] * COUNT
        self._long_done = 0

    def held(self):
        return self.stable

    def settling(self):
        """Is any button still deaf with a raw level that differs (an edge still to report)?"""
        return self._pending != 0

    def sample(self, raw_mask, now_ms):
        """Feed one raw reading; return the events it completes (NO_EVENTS when none)."""
        out = None
        deaf = self._deaf
        if deaf:
            moved = raw_mask ^ self._raw
            for i in range(COUNT):
                bit = 1 << i
                if deaf & bit:
                    if moved & bit:
                        self._since[i] = now_ms  # still bouncing: deaf for longer
                    elif ticks_diff(now_ms, self._since[i]) >= DEBOUNCE_MS:
                        deaf &= ~bit
        self._raw = raw_mask
        diff = (raw_mask ^ self.stable) & 0xFF
        edges = diff & ~deaf
        self._pending = diff & deaf
        if edges:
            out = []
            for i in range(COUNT):
                bit = 1 << i
                if edges & bit:
                    deaf |= bit
                    self._since[i] = now_ms
                    if raw_mask & bit:
                        self.stable |= bit
                        self._down_at[i] = now_ms
                        self._next_rep[i] = REPEAT_DELAY_MS
                        self._long_done &= ~bit
                        out.append(i * 4 + PRESS)
                    else:
                        self.stable &= ~bit
                        out.append(i * 4 + RELEASE)
        self._deaf = deaf
        held = self.stable & ~self._pending  # a button mid-release makes no long/repeat events
        if held:
            for i in range(COUNT):
                bit = 1 << i
                if held & bit:
                    t = ticks_diff(now_ms, self._down_at[i])
                    if t >= LONG_MS and not self._long_done & bit:
                        self._long_done |= bit
                        if out is None:
                            out = []
                        out.append(i * 4 + LONG)
                    if bit & REPEATING and t >= self._next_rep[i]:
                        # one event per sample even if samples were late: no bursts
                        while self._next_rep[i] <= t:
                            self._next_rep[i] += REPEAT_EVERY_MS
                        if out is None:
                            out = []
                        out.append(i * 4 + REPEAT)
        return NO_EVENTS if out is None else out


class EventQueue:
    """A fixed ring of event bytes: filled from a timer, drained by the app loop."""

    def __init__(self, size=64):
        self._buf = bytearray(size)
        self._head = 0  # written by the producer only
        self._tail = 0  # written by the consumer only
        self.dropped = 0

    def put(self, ev):
        n = len(self._buf)
        nxt = (self._head + 1) % n
        if nxt == self._tail:
            self.dropped += 1
            return
        self._buf[self._head] = ev
        self._head = nxt

    def ready(self):
        """Is an event waiting? (the device loop wakes early for it)"""
        return self._tail != self._head

    def drain(self):
        out = []
        n = len(self._buf)
        while self._tail != self._head:
            out.append(self._buf[self._tail])
            self._tail = (self._tail + 1) % n
        return out


class PicoButtons:
    """The device's buttons: pins with pull-ups sampled by a hardware timer.

    Sampling from a timer (not from the app loop) is what keeps taps made while
    the computer thinks or the screen redraws: they wait in the queue.
    """

    def __init__(self, gpios):
        import time

        from machine import Pin, Timer

        self._pins = [Pin(g, Pin.IN, Pin.PULL_UP) if g is not None and g >= 0 else None for g in gpios]
        self._ticks = time.ticks_ms
        self._deb = Debouncer(time.ticks_ms())
        self._queue = EventQueue()
        self._timer = Timer(-1)
        self._timer.init(period=SAMPLE_MS, mode=Timer.PERIODIC, callback=self._tick)

    def raw(self):
        m = 0
        pins = self._pins
        for i in range(len(pins)):
            p = pins[i]
            if p is not None and p.value() == 0:  # active low
                m |= 1 << i
        return m

    def _tick(self, _t):
        evs = self._deb.sample(self.raw(), self._ticks())
        for e in evs:
            self._queue.put(e)

    def events(self):
        return self._queue.drain()

    def ready(self):
        return self._queue.ready()

    def held(self):
        return self._deb.stable

    def stop(self):
        self._timer.deinit()
