"""The SSD1306 over I2C, behind a wrapper that never raises.

A display that is missing, unplugged or glitching makes ``show`` return
False and ``present`` go False; the next ``show`` after RETRY_MS tries to
bring it back (scan, then a fresh driver init), so plugging it in again just
works.  The driver is micropython-lib's ``ssd1306`` (``mpremote mip install
ssd1306``); our frames are already in its MONO_VLSB layout, so ``show`` hands
it our buffer instead of drawing into its own.
"""

import time

RETRY_MS = 1000


class Display:
    """addrs: the I2C addresses to look for, in order (modules answer at 0x3C or 0x3D)."""

    def __init__(self, i2c, addrs, width=128, height=64):
        self.i2c = i2c
        self.addrs = addrs
        self.addr = addrs[0]
        self.width = width
        self.height = height
        self.present = False
        self.fault = None  # why it is absent, for the log: 'driver', 'no answer', 'io'
        self._drv = None
        self._level = 127
        self._on = True
        self._next_try = time.ticks_ms()
        self._init()

    def _init(self):
        try:
            import ssd1306
        except ImportError:
            self.fault = "driver"
            return False
        try:
            found = self.i2c.scan()
            for a in self.addrs:
                if a in found:
                    self.addr = a
                    break
            else:
                self.fault = "no answer"
                return False
            drv = ssd1306.SSD1306_I2C(self.width, self.height, self.i2c, self.addr)
            drv.contrast(self._level)
            if not self._on:
                drv.poweroff()
        except OSError:
            self.fault = "io"
            self._drv = None
            self.present = False
            return False
        self._drv = drv
        self.present = True
        self.fault = None
        return True

    def _lost(self):
        self._drv = None
        self.present = False
        self.fault = "io"
        self._next_try = time.ticks_add(time.ticks_ms(), RETRY_MS)

    def show(self, buf):
        drv = self._drv
        if drv is None:
            now = time.ticks_ms()
            if time.ticks_diff(now, self._next_try) < 0:
                return False
            self._next_try = time.ticks_add(now, RETRY_MS)
            if not self._init():
                return False
            drv = self._drv
        try:
            drv.buffer = buf  # show() sends self.buffer: ours, no copy
            drv.show()
        except OSError:
            self._lost()
            return False
        return True

    def contrast(self, v):
        self._level = v
        if self._drv is not None:
            try:
                self._drv.contrast(v)
            except OSError:
                self._lost()

    def power(self, on):
        self._on = on
        if self._drv is not None:
            try:
                if on:
                    self._drv.poweron()
                else:
                    self._drv.poweroff()
            except OSError:
                self._lost()
