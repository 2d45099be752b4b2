"""The SSD1306 over I2C, behind a wrapper that never raises.

A display that is missing, unplugged or glitching makes ``show`` return
False and ``present`` go False; the next ``show`` after RETRY_MS tries to
bring it back (scan, then a fresh driver init), so plugging it in again just
works.  The driver is micropython-lib's ``ssd1306`` (``mpremote mip install
ssd1306``); our frames are already in its MONO_VLSB layout.

Only what changed goes over the wire (issue 13): ``FrameSender`` keeps the
last frame sent (in the driver's own 1 KB buffer: no extra RAM) and sends
the changed pages, each trimmed to the columns that changed, as rectangles
set with the controller's column and page address commands (horizontal
addressing mode, which the driver sets up).  A cursor move sends about 200
bytes instead of 1 KB; a new screen sends the whole frame in one window.
The host simulator drives the same class through Adafruit's driver, and its
SSD1306 model checks that the glass is what a full send would show.
"""

import time

RETRY_MS = 1000

SET_COL_ADDR = 0x21  # then first and last column
SET_PAGE_ADDR = 0x22  # then first and last page
WINDOW_COST = 20  # bytes on the wire a window costs besides its data: 6 commands, address, control
GRAIN = 4  # columns: changed windows are found to this precision (a compare costs about a byte's time)
TRIM_WIDER = 32  # a damaged span at least this wide is trimmed to what changed; a narrower one goes as is


class FrameSender:
    """Sends a frame as the windows where it differs from the last one sent.

    ``drv`` is anything with ``write_cmd(byte)`` and ``write_data(buffer)``
    (micropython-lib's SSD1306_I2C; an adapter over Adafruit's on the host).
    ``last``: a buffer to keep the last frame in (the driver's own), or None.
    """

    def __init__(self, width=128, height=64, last=None):
        self.width = width
        self.pages = height >> 3
        n = width * self.pages
        self.last = last if last is not None else bytearray(n)
        self.valid = False  # False: the controller's RAM is unknown, the next send is whole
        self.sent = 0  # bytes on the wire of the last send (commands and data, addresses included)
        self._lv = memoryview(self.last)
        self._scratch = bytearray(n)
        self._sv = memoryview(self._scratch)
        w = width
        self._pv = [self._lv[p * w : p * w + w] for p in range(self.pages)]

    def invalidate(self):
        self.valid = False

    def windows(self, buf, damage=None):
        """[(first page, last page, first column, last column)] covering every changed byte.

        damage: None (look everywhere) or [(first page, last page, first column, last
        column)] outside which the caller guarantees nothing changed: only those are compared.
        """
        W = self.width
        P = self.pages
        if not self.valid:
            return [(0, P - 1, 0, W - 1)]
        bv = memoryview(buf)
        lv = self._lv
        pv = self._pv
        half = W >> 1
        out = []
        for p in range(P):
            i = p * W
            if damage is None:
                if bv[i : i + W] == pv[p]:
                    continue
                # each half of the page on its own: a cursor that wraps from the last card to
                # the first changes both ends of the row and nothing between them
                a = self._span(bv, i, 0, half)
                b = self._span(bv, i, half, W)
                if a is None:
                    spans = (b,)
                elif b is None or b[0] - a[1] - 1 <= WINDOW_COST:
                    spans = ((a[0], b[1] if b is not None else a[1]),)
                else:
                    spans = (a, b)
            else:
                spans = []
                for q0, q1, c0, c1 in damage:
                    if q0 <= p <= q1:
                        c0 = 0 if c0 < 0 else c0
                        c1 = W - 1 if c1 >= W else c1
                        if c0 > c1 or bv[i + c0 : i + c1 + 1] == lv[i + c0 : i + c1 + 1]:
                            continue
                        if c1 - c0 >= TRIM_WIDER:
                            c0, c1 = self._span(bv, i, c0, c1 + 1)
                        spans.append((c0, c1))
            first = len(out)
            for c0, c1 in spans:
                for k in range(first):
                    q0, q1, a0, a1 = out[k]
                    if q1 != p - 1:  # not ending on the page above, or joined by another span
                        continue
                    # join the window above when one rectangle costs less than two
                    u0 = a0 if a0 < c0 else c0
                    u1 = a1 if a1 > c1 else c1
                    both = (u1 - u0 + 1) * (p - q0 + 1)
                    apart = (a1 - a0 + 1) * (q1 - q0 + 1) + WINDOW_COST + (c1 - c0 + 1)
                    if both <= apart:
                        out[k] = (q0, p, u0, u1)
                        break
                else:
                    out.append((p, p, c0, c1))
        return out

    def _span(self, bv, i, a, b):
        """(first, last) changed column of [a, b) in the page at byte i, to GRAIN; None if none."""
        lv = self._lv
        if bv[i + a : i + b] == lv[i + a : i + b]:
            return None
        # bisect the first: bv[i+a:i+lo] == lv[i+a:i+lo] always holds
        lo = a
        hi = b
        while hi - lo > GRAIN:
            mid = (lo + hi) >> 1
            if bv[i + a : i + mid] == lv[i + a : i + mid]:
                lo = mid
            else:
                hi = mid
        c0 = lo
        # and the last: bv[i+hi:i+b] == lv[i+hi:i+b] always holds
        lo = c0
        hi = b
        e = i + b
        while hi - lo > GRAIN:
            mid = (lo + hi) >> 1
            if bv[i + mid : e] == lv[i + mid : e]:
                hi = mid
            else:
                lo = mid
        return c0, hi - 1

    def send(self, drv, buf, damage=None):
        """Send what changed since the last send (see ``windows``); the bytes on the wire are in ``sent``."""
        W = self.width
        bv = memoryview(buf)
        lv = self._lv
        sent = 0
        for p0, p1, c0, c1 in self.windows(buf, damage):
            w = c1 - c0 + 1
            drv.write_cmd(SET_COL_ADDR)
            drv.write_cmd(c0)
            drv.write_cmd(c1)
            drv.write_cmd(SET_PAGE_ADDR)
            drv.write_cmd(p0)
            drv.write_cmd(p1)
            if w == W:
                data = bv[p0 * W : (p1 + 1) * W]
            else:
                # gather the rectangle page by page, the order horizontal addressing fills it
                sv = self._sv
                k = 0
                for p in range(p0, p1 + 1):
                    i = p * W + c0
                    sv[k : k + w] = bv[i : i + w]
                    k += w
                data = sv[:k]
            drv.write_data(data)
            for p in range(p0, p1 + 1):
                i = p * W + c0
                lv[i : i + w] = bv[i : i + w]
            sent += WINDOW_COST + len(data)
        self.valid = True
        self.sent = sent
        return sent


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
        self._sender = None
        self.damage = None  # set by the app before a show: where the frame may have changed
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
        # the driver's own buffer keeps the last frame sent; its init cleared the RAM with a
        # show() we don't rely on: the first send is whole
        last = getattr(drv, "buffer", None)
        if last is not None and len(last) != self.width * self.height // 8:
            last = None
        self._sender = FrameSender(self.width, self.height, last)
        self.present = True
        self.fault = None
        return True

    def _lost(self):
        self._drv = None
        self.present = False
        self.fault = "io"
        self._next_try = time.ticks_add(time.ticks_ms(), RETRY_MS)

    def show(self, buf):
        damage = self.damage
        self.damage = None
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
            self._sender.send(drv, buf, damage)
        except OSError:
            self._lost()
            return False
        return True

    @property
    def sent(self):
        """Bytes on the wire of the last frame sent (0 when none)."""
        return self._sender.sent if self._sender is not None else 0

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
