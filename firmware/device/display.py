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
addressing mode, which the driver sets up), each window's commands in one
I2C write (``Panel``).  A cursor move sends about 150 bytes (at most 300)
instead of 1 KB; a new screen sends the whole frame in one window.
The host simulator drives the same class through Adafruit's driver, and its
SSD1306 model checks that the glass is what a full send would show.
"""

import time

RETRY_MS = 1000

SET_COL_ADDR = 0x21  # then first and last column
SET_PAGE_ADDR = 0x22  # then first and last page
# A window's six address commands go as one I2C write when the driver can (``write_cmds``: control
# byte 0x00, a stream of commands, as the SSD1306 datasheet allows) instead of six (0x80, command)
# writes: 8 bytes on the wire, not 18, and one bus transaction, not six.
WINDOW_COST = (
    10  # bytes on the wire a window costs besides its data: address + 0x00 + 6 commands, address + 0x40
)
# A window of several pages narrower than the screen is gathered into one data write when it
# fits GATHER bytes (a cursor's cards: 88), else written page by page, which costs the address and
# 0x40 again for each page after the first: a buffer for the largest window would keep 1 KB of a
# Pico's heap for the rare screen change that is not a whole frame.
GATHER = 256
DATA_WRITE_COST = 2
WINDOW_COST_SINGLE = 20  # the same with the six commands one write each (address, 0x80, command)
GRAIN = 4  # columns: changed windows are found to this precision (a compare costs about a byte's time)
TRIM_WIDER = 32  # a damaged span at least this wide is trimmed to what changed; a narrower one goes as is


class FrameSender:
    """Sends a frame as the windows where it differs from the last one sent.

    ``drv`` is anything with ``write_data(buffer)`` and either ``write_cmds(buffer)`` (one write of
    a 0x00 control byte and commands: ``Panel`` over micropython-lib's SSD1306_I2C, an adapter over
    Adafruit's on the host) or ``write_cmd(byte)`` (micropython-lib's driver itself).
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
        self._sv = memoryview(bytearray(GATHER))
        w = width
        self._pv = [self._lv[p * w : p * w + w] for p in range(self.pages)]
        self._cmds = bytearray((0, SET_COL_ADDR, 0, 0, SET_PAGE_ADDR, 0, 0))

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
        out = self._damaged(bv, damage) if damage is not None else self._changed(bv)
        # many windows can cost more than one whole frame
        n = 0
        for p0, p1, c0, c1 in out:
            n += WINDOW_COST + (p1 - p0 + 1) * (c1 - c0 + 1)
            if c1 - c0 + 1 < W and (p1 - p0 + 1) * (c1 - c0 + 1) > GATHER:
                n += (p1 - p0) * DATA_WRITE_COST  # send() writes such a window page by page
        if n > WINDOW_COST + W * P:
            return [(0, P - 1, 0, W - 1)]
        return out

    def _changed(self, bv):
        """The windows of what changed, anywhere in the frame."""
        W = self.width
        P = self.pages
        pv = self._pv
        half = W >> 1
        out = []
        for p in range(P):
            i = p * W
            if bv[i : i + W] == pv[p]:
                continue
            # each half of the page on its own: a cursor that wraps from the last card to
            # the first changes both ends of the row and nothing between them
            a = self._span(bv, i, 0, half)
            b = self._span(bv, i, half, W)
            if a is None:
                _add(out, p, p, b[0], b[1])
            elif b is None:
                _add(out, p, p, a[0], a[1])
            else:
                _add(out, p, p, a[0], a[1])
                _add(out, p, p, b[0], b[1])
        return out

    def _damaged(self, bv, damage):
        """The windows of what changed inside the damaged boxes.

        A box narrower than TRIM_WIDER goes whole over each run of its pages that changed (a
        column search costs more than the few unchanged bytes it could save); a wider one is
        trimmed page by page to the columns that changed.
        """
        W = self.width
        P = self.pages
        lv = self._lv
        out = []
        for q0, q1, c0, c1 in damage:
            c0 = 0 if c0 < 0 else c0
            c1 = W - 1 if c1 >= W else c1
            q0 = 0 if q0 < 0 else q0
            q1 = P - 1 if q1 >= P else q1
            if c0 > c1:
                continue
            wide = c1 - c0 >= TRIM_WIDER
            run = -1  # first page of the run of changed pages so far
            for p in range(q0, q1 + 1):
                i = p * W
                if bv[i + c0 : i + c1 + 1] == lv[i + c0 : i + c1 + 1]:
                    if run >= 0:
                        _add(out, run, p - 1, c0, c1)
                        run = -1
                elif wide:
                    a, b = self._span(bv, i, c0, c1 + 1)
                    _add(out, p, p, a, b)
                elif run < 0:
                    run = p
            if run >= 0:
                _add(out, run, q1, c0, c1)
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
        cmds = getattr(drv, "write_cmds", None)
        cb = self._cmds
        for p0, p1, c0, c1 in self.windows(buf, damage):
            w = c1 - c0 + 1
            if cmds is not None:
                cb[2] = c0
                cb[3] = c1
                cb[5] = p0
                cb[6] = p1
                cmds(cb)
                sent += WINDOW_COST
            else:
                drv.write_cmd(SET_COL_ADDR)
                drv.write_cmd(c0)
                drv.write_cmd(c1)
                drv.write_cmd(SET_PAGE_ADDR)
                drv.write_cmd(p0)
                drv.write_cmd(p1)
                sent += WINDOW_COST_SINGLE
            if w == W:
                i = p0 * W
                data = bv[i : (p1 + 1) * W]
                lv[i : (p1 + 1) * W] = data
            elif p0 == p1:
                i = p0 * W + c0
                data = bv[i : i + w]
                lv[i : i + w] = data
            elif w * (p1 - p0 + 1) <= GATHER:
                # gather the rectangle page by page, the order horizontal addressing fills it;
                # the last frame takes the same columns
                sv = self._sv
                k = 0
                for p in range(p0, p1 + 1):
                    i = p * W + c0
                    src = bv[i : i + w]
                    sv[k : k + w] = src
                    lv[i : i + w] = src
                    k += w
                data = sv[:k]
            else:
                # too big to gather: page by page, one data write each.  In horizontal addressing
                # the controller's pointer runs on from write to write through the window; each
                # write after the first costs the address and control bytes again.
                for p in range(p0, p1 + 1):
                    i = p * W + c0
                    src = bv[i : i + w]
                    lv[i : i + w] = src
                    drv.write_data(src)
                sent += (p1 - p0 + 1) * w + (p1 - p0) * DATA_WRITE_COST
                continue
            drv.write_data(data)
            sent += len(data)
        self.valid = True
        self.sent = sent
        return sent


def _add(out, p0, p1, c0, c1):
    """Add the window (p0, p1, c0, c1) to ``out``: without the end pages a window already there
    sends across all its columns (and such pages of a window there left to this one), joined
    with one it meets or overlaps when a rectangle around both costs less than the two apart
    (each window costs WINDOW_COST)."""
    k = 0
    while k < len(out):
        q0, q1, a0, a1 = out[k]
        if q0 <= p1 and p0 <= q1:  # pages in common
            if a0 <= c0 and c1 <= a1 and (p0 >= q0 or p1 <= q1):
                # sent by that one: the new window's end pages go
                if p0 >= q0:
                    p0 = q1 + 1
                if p1 <= q1:
                    p1 = q0 - 1
                if p0 > p1:
                    return
                k = 0  # trimmed: look again
                continue
            if c0 <= a0 and a1 <= c1 and (q0 >= p0 or q1 <= p1):  # the new one sends that one's end pages
                if q0 >= p0:
                    q0 = p1 + 1
                if q1 <= p1:
                    q1 = p0 - 1
                if q0 > q1:
                    out.pop(k)
                    continue
                out[k] = (q0, q1, a0, a1)
        k += 1
    for k in range(len(out)):
        q0, q1, a0, a1 = out[k]
        if p0 > q1 + 1 or q0 > p1 + 1:
            continue  # no page in common, nor next to each other
        u0 = a0 if a0 < c0 else c0
        u1 = a1 if a1 > c1 else c1
        v0 = q0 if q0 < p0 else p0
        v1 = q1 if q1 > p1 else p1
        if (u1 - u0 + 1) * (v1 - v0 + 1) <= (a1 - a0 + 1) * (q1 - q0 + 1) + WINDOW_COST + (c1 - c0 + 1) * (
            p1 - p0 + 1
        ):
            out[k] = (v0, v1, u0, u1)
            return
    out.append((p0, p1, c0, c1))


class Panel:
    """micropython-lib's SSD1306_I2C with ``write_cmds``: a window's commands in one I2C write."""

    def __init__(self, drv, i2c, addr):
        self.drv = drv
        self.i2c = i2c
        self.addr = addr

    def write_cmds(self, buf):
        self.i2c.writeto(self.addr, buf)

    def write_data(self, buf):
        self.drv.write_data(buf)


def _dark_start(base):
    """micropython-lib's driver class, started dark: its init leaves out the clearing frame (a
    whole 1 KB frame, 26 ms of I2C before the title, which our first frame overwrites anyway) and
    holds back its display-on command until that first frame is in the panel's RAM (``held_on``:
    Display.show sends it), so the glass never shows the RAM's power-on noise."""

    class Dark(base):
        def init_display(self):
            self.held_on = 0
            self.starting = True  # write_cmd holds back display-on, show sends nothing
            base.init_display(self)
            self.starting = False

        def write_cmd(self, cmd):
            if self.starting and cmd == 0xAF:  # SET_DISP | 1: display on
                self.held_on = 1
                return
            base.write_cmd(self, cmd)

        def show(self):
            if not self.starting:
                base.show(self)

    return Dark


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

    def _driver(self):
        """The panel driver's constructor (width, height, i2c, addr), or None when it is missing."""
        try:
            import ssd1306
        except ImportError:
            return None
        return _dark_start(ssd1306.SSD1306_I2C)

    def _wire(self, drv):
        """(panel, sender) for a driver: what sends the changed windows, and how."""
        # the driver's own buffer keeps the last frame sent; its init cleared the RAM with a
        # show() we don't rely on: the first send is whole
        last = getattr(drv, "buffer", None)
        if last is not None and len(last) != self.width * self.height // 8:
            last = None
        return Panel(drv, self.i2c, self.addr), FrameSender(self.width, self.height, last)

    def _init(self):
        make = self._driver()
        if make is None:
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
            drv = make(self.width, self.height, self.i2c, self.addr)
            drv.contrast(self._level)
            if not self._on:
                drv.poweroff()
        except OSError:
            self.fault = "io"
            self._drv = None
            self.present = False
            return False
        self._drv = drv
        self._panel, self._sender = self._wire(drv)
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
            self._sender.send(self._panel, buf, damage)
            if getattr(drv, "held_on", 0):  # the first frame is in the panel's RAM: now light it
                drv.held_on = 0
                if self._on:
                    drv.poweron()
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
