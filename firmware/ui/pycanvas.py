"""The pure-Python drawing surface: the reference every host tool draws with.

``PyCanvas`` draws the 1-bit SSD1306 MONO_VLSB layout of ui.canvas (its docstring has the layout,
the API and the differences from framebuf) in plain Python, so a screen is the same bytes on
CPython (simulator, tests, screenshots) as on the Pico.  On MicroPython the firmware draws with
ui.canvas.FbCanvas, which loads this module only for what framebuf cannot do (XOR, reading a
pixel); the tests hold the two byte-identical (tests/test_canvas.py,
tests/mp/test_canvas_mp.py).
"""

from ui.canvas import COPY, XOR, page_masks
from ui.font import NORMAL, codes, text_width


def _paint(buf, i, j, m, c):
    # buf[i:j]: bits m lit (c 1), unlit (c 0) or inverted (XOR).  One loop per colour,
    # deliberately: a test inside the loop doubles its cost on a Pico.
    if c == XOR:
        for k in range(i, j):
            buf[k] ^= m
    elif c:
        for k in range(i, j):
            buf[k] |= m
    else:
        m ^= 0xFF
        for k in range(i, j):
            buf[k] &= m


class PyCanvas:
    def __init__(self, width=128, height=64, buf=None):
        self.width = width
        self.height = height
        self.pages = (height + 7) >> 3
        # buf: draw into these bytes (FbCanvas hands over its own for XOR), else a new buffer
        self.buf = bytearray(width * self.pages) if buf is None else buf
        # One page row of each for slice stores; memoryview slices copy nothing.
        self._zero = memoryview(bytes(width))
        self._ones = memoryview(b"\xff" * width)

    # --- whole screen ----------------------------------------------------

    def fill(self, c):
        if c == XOR or self.height & 7:
            self.fill_rect(0, 0, self.width, self.height, c)
            return
        src = self._ones if c else self._zero
        buf = self.buf
        W = self.width
        n = len(buf)
        i = 0
        while i < n:
            buf[i : i + W] = src
            i += W

    # --- pixels and rectangles -------------------------------------------

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y >> 3) * self.width + x
            b = 1 << (y & 7)
            if c is None:
                return 1 if self.buf[i] & b else 0
            if c == XOR:
                self.buf[i] ^= b
            elif c:
                self.buf[i] |= b
            else:
                self.buf[i] &= b ^ 0xFF
        elif c is None:
            return 0

    def hline(self, x, y, w, c):
        if y < 0 or y >= self.height or w < 1:
            return
        W = self.width
        e = x + w
        if x < 0:
            x = 0
        if e > W:
            e = W
        if x >= e:
            return
        i = (y >> 3) * W + x
        _paint(self.buf, i, i + e - x, 1 << (y & 7), c)

    def vline(self, x, y, h, c):
        if x < 0 or x >= self.width or h < 1:
            return
        self._pages(x, 1, y, y + h, c)

    def _pages(self, x, n, y, ye, c):
        # Columns x..x+n-1 of rows y..ye-1 (x clipped already): one masked span per page.
        if y < 0:
            y = 0
        if ye > self.height:
            ye = self.height
        W = self.width
        buf = self.buf
        for p, m in page_masks(y, ye):
            i = p * W + x
            if m == 0xFF and c != XOR and n > 1:
                buf[i : i + n] = (self._ones if c else self._zero)[:n]
            else:
                _paint(buf, i, i + n, m, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
        elif c == XOR:
            # Each outline pixel exactly once, or the corners would cancel.
            if w < 1 or h < 1:
                return
            self.hline(x, y, w, c)
            if h > 1:
                self.hline(x, y + h - 1, w, c)
            if h > 2:
                self.vline(x, y + 1, h - 2, c)
                if w > 1:
                    self.vline(x + w - 1, y + 1, h - 2, c)
        else:
            # framebuf's four strokes, degenerate sizes included.
            self.fill_rect(x, y, w, 1, c)
            self.fill_rect(x, y + h - 1, w, 1, c)
            self.fill_rect(x, y, 1, h, c)
            self.fill_rect(x + w - 1, y, 1, h, c)

    def fill_rect(self, x, y, w, h, c):
        W = self.width
        if w < 1 or h < 1 or x >= W or y >= self.height or x + w <= 0 or y + h <= 0:
            return
        e = x + w
        if e > W:
            e = W
        if x < 0:
            x = 0
        self._pages(x, e - x, y, y + h, c)

    # --- lines --------------------------------------------------------------

    def line(self, x1, y1, x2, y2, c):
        # Bresenham exactly as MicroPython's framebuf draws it, so both agree.
        W = self.width
        H = self.height
        buf = self.buf
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
            lim_a = H  # x1 runs along y, y1 along x
            lim_b = W
        else:
            lim_a = W
            lim_b = H
        e = 2 * dy - dx
        dx2 = 2 * dx
        dy2 = 2 * dy
        for _ in range(dx):
            if 0 <= x1 < lim_a and 0 <= y1 < lim_b:
                if steep:
                    k = (x1 >> 3) * W + y1
                    b = 1 << (x1 & 7)
                else:
                    k = (y1 >> 3) * W + x1
                    b = 1 << (y1 & 7)
                if c == XOR:
                    buf[k] ^= b
                elif c:
                    buf[k] |= b
                else:
                    buf[k] &= b ^ 0xFF
            while e >= 0:
                y1 += sy
                e -= dx2
            x1 += sx
            e += dy2
        self.pixel(x2, y2, c)

    # --- text ---------------------------------------------------------------

    def text(self, s, x, y, c=1, font=None):
        """Draw s with its top-left at (x, y); return the x after the text.

        Lit glyph pixels take colour c (0 clear, 1 set, 2 invert); the rest of
        the cell is left alone, as framebuf.text does.
        """
        f = font if font is not None else NORMAL
        if c != 0 and c != XOR:
            c = 1
        data = f.data
        gw = f.width
        ext = f.ext
        box = f.box
        W = self.width
        buf = self.buf
        p = y >> 3
        s8 = y & 7
        r8 = 8 - s8
        pages = self.pages
        lo_ok = 0 <= p < pages
        spill = s8 != 0 and f.height + s8 > 8  # glyphs reach into the next page
        hi_ok = spill and 0 <= p + 1 < pages
        if not lo_ok and not hi_ok:
            return x + text_width(s, f) + (1 if s else 0)
        row = p * W
        if c == 1 and lo_ok and (hi_ok or not spill):
            # The common cases, kept lean: set pixels, every page needed on screen.  The glyph
            # lookup repeats the general loop's below on purpose (a call per character costs
            # more than the lookup on a Pico).
            for o in codes(s):
                o -= 32
                if 0 <= o < 95:
                    j = o * gw
                    n = gw
                else:
                    k = ext.get(o + 32, box)
                    j = k >> 4
                    n = k & 15
                if 0 <= x <= W - n:
                    a = 0
                    b = n
                elif x < W and x + n > 0:
                    a = -x if x < 0 else 0
                    b = W - x if x + n > W else n
                else:
                    x += n + 1
                    continue
                i = row + x - j
                if not spill:
                    for q in range(j + a, j + b):
                        buf[i + q] |= data[q] << s8
                else:
                    for q in range(j + a, j + b):
                        v = data[q]
                        if v:
                            buf[i + q] |= (v << s8) & 0xFF
                            buf[i + q + W] |= v >> r8
                x += n + 1
            return x
        for o in codes(s):
            o -= 32
            if 0 <= o < 95:
                j = o * gw
                n = gw
            else:
                k = ext.get(o + 32, box)
                j = k >> 4
                n = k & 15
            if x >= W or x + n <= 0:
                x += n + 1
                continue
            a = -x if x < 0 else 0
            b = W - x if x + n > W else n
            i = row + x - j
            for q in range(j + a, j + b):
                v = data[q]
                if v:
                    k = i + q
                    if lo_ok:
                        m = (v << s8) & 0xFF
                        if c == 1:
                            buf[k] |= m
                        elif c:
                            buf[k] ^= m
                        else:
                            buf[k] &= m ^ 0xFF
                    if hi_ok:
                        m = v >> r8
                        k += W
                        if c == 1:
                            buf[k] |= m
                        elif c:
                            buf[k] ^= m
                        else:
                            buf[k] &= m ^ 0xFF
            x += n + 1
        return x

    def text_width(self, s, font=None):
        """Pixels from the first column of s to its last (no trailing gap)."""
        return text_width(s, font if font is not None else NORMAL)

    # --- sprites ------------------------------------------------------------

    def blit(self, data, x, y, w, h, c=1, off=0):
        """Draw a w x h sprite stored in data[off:] at (x, y).

        The sprite is column-major VLSB: for each column, (h + 7) >> 3 bytes
        top page first, bit 0 = top row; bits below row h must be 0.  c is the
        colour given to the sprite's lit pixels (0, 1, 2); c = COPY also clears
        its unlit pixels, so the w x h box ends up exactly the sprite.
        """
        W = self.width
        if w < 1 or h < 1 or x >= W or y >= self.height or x + w <= 0 or y + h <= 0:
            return
        buf = self.buf
        np = (h + 7) >> 3
        k0 = -x if x < 0 else 0
        k1 = W - x if x + w > W else w
        s = y & 7
        r = 8 - s
        pt = y >> 3
        d = -pt if pt < 0 else 0
        de = (h + s + 7) >> 3  # screen pages the sprite touches
        if pt + de > self.pages:
            de = self.pages - pt
        elif d == 0 and np == 3 and h + s <= 30 and c != 0 and c != XOR:
            # Card-sized (17..24 rows) and wholly on screen vertically: read
            # each column once as one int (under 2**30, no bignum) and write
            # each screen byte once.
            self._blit3(data, off + k0 * 3, off + k1 * 3, pt * W + x + k0, s, h, de, c == COPY)
            return
        while d < de:
            # Rows [a, b) of this screen page belong to the sprite; its low
            # bits come from sprite page d, its high bits from page d - 1.
            a = s - (d << 3)
            if a < 0:
                a = 0
            b = s + h - (d << 3)
            if b > 8:
                b = 8
            keep = (((1 << b) - 1) ^ ((1 << a) - 1)) ^ 0xFF if c == COPY else 0xFF
            i = (pt + d) * W + x + k0
            ie = i + k1 - k0
            j0 = off + k0 * np + d  # sprite byte of page d, first column drawn
            lo = d < np
            hi = s != 0 and d > 0
            j = j0
            # Loops run over the screen index: range() with a variable step
            # would allocate on MicroPython.
            if c == COPY or c == 1:
                if not hi:
                    if s == 0 and keep == 0:
                        for k in range(i, ie):
                            buf[k] = data[j]
                            j += np
                    else:
                        for k in range(i, ie):
                            buf[k] = (buf[k] & keep) | ((data[j] << s) & 0xFF)
                            j += np
                elif lo:
                    for k in range(i, ie):
                        buf[k] = (buf[k] & keep) | ((data[j] << s) & 0xFF) | (data[j - 1] >> r)
                        j += np
                else:
                    for k in range(i, ie):
                        buf[k] = (buf[k] & keep) | (data[j - 1] >> r)
                        j += np
            else:
                for k in range(i, ie):
                    v = 0
                    if lo:
                        v = (data[j] << s) & 0xFF
                    if hi:
                        v |= data[j - 1] >> r
                    if c:
                        buf[k] ^= v
                    else:
                        buf[k] &= v ^ 0xFF
                    j += np
            d += 1

    def _blit3(self, data, j0, j1, i, s, h, nd, copy):
        # 3-page columns data[j0:j1] to screen pages from byte i, shifted down
        # s rows; nd (3 or 4) screen pages, all on screen.
        buf = self.buf
        W = self.width
        m = ((1 << h) - 1) << s
        if copy:
            k0 = (m & 0xFF) ^ 0xFF
            k1 = ((m >> 8) & 0xFF) ^ 0xFF
            k2 = ((m >> 16) & 0xFF) ^ 0xFF
            k3 = (m >> 24) ^ 0xFF
        else:
            k0 = k1 = k2 = k3 = 0xFF
        W2 = W + W
        if nd == 3:
            for j in range(j0, j1, 3):
                v = (data[j] | (data[j + 1] << 8) | (data[j + 2] << 16)) << s
                buf[i] = (buf[i] & k0) | (v & 0xFF)
                buf[i + W] = (buf[i + W] & k1) | ((v >> 8) & 0xFF)
                buf[i + W2] = (buf[i + W2] & k2) | (v >> 16)
                i += 1
        else:
            W3 = W2 + W
            for j in range(j0, j1, 3):
                v = (data[j] | (data[j + 1] << 8) | (data[j + 2] << 16)) << s
                buf[i] = (buf[i] & k0) | (v & 0xFF)
                buf[i + W] = (buf[i + W] & k1) | ((v >> 8) & 0xFF)
                buf[i + W2] = (buf[i + W2] & k2) | ((v >> 16) & 0xFF)
                buf[i + W3] = (buf[i + W3] & k3) | (v >> 24)
                i += 1
