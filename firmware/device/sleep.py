"""Idle policy: dim after a while, display off later, wake on any button.

Pure logic on the hw clock (the same on the device and the host).  The button
that wakes the screen must not act: ``wake`` says so, and the whole press of
that button (its LONG, REPEAT and RELEASE too) is swallowed by ``filter``.
"""

from events import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


AWAKE = const(0)
DIM = const(1)
OFF = const(2)

DIM_CONTRAST = const(1)  # the SSD1306's dimmest: still readable up close


class Idle:
    def __init__(self, now_ms):
        self.last = now_ms
        self.level = AWAKE
        self._swallow = 0  # buttons whose current press only woke the screen

    def idle_ms(self, now_ms):
        return ticks_diff(now_ms, self.last)

    def filter(self, events, now_ms):
        """Events that should act; the ones that only woke the screen are dropped."""
        if not events:
            return events
        out = []
        for ev in events:
            b = ev >> 2
            kind = ev & 3
            self.last = now_ms
            if kind == 0 and self.level != AWAKE:
                self.level = AWAKE
                self._swallow |= 1 << b
                continue
            if self._swallow & (1 << b):
                if kind == 3:
                    self._swallow &= ~(1 << b)
                continue
            out.append(ev)
        return out

    def update(self, now_ms, dim_s, off_s, allow_dim=True):
        """The level the display should be at now (AWAKE, DIM or OFF)."""
        t = self.idle_ms(now_ms)
        if off_s > 0 and t >= off_s * 1000:
            self.level = OFF
        elif allow_dim and dim_s > 0 and t >= dim_s * 1000:
            self.level = DIM
        else:
            self.level = AWAKE
        return self.level
