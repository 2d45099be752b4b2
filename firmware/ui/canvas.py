"""A 1-bit drawing surface in SSD1306 MONO_VLSB layout, in plain Python.

The screens draw here rather than into the display driver's framebuf so that a
screen is the same bytes on CPython (simulator, tests, screenshots) and on the
Pico; the device layer copies ``buf`` into the driver's buffer to show it.

Layout: byte ``(y >> 3) * width + x``, bit ``y & 7``, 1 = lit.

The API follows ``framebuf.FrameBuffer`` (fill, pixel, hline, vline, rect,
fill_rect, line, text, blit) and, for colours 0 and 1, produces exactly the same
bytes, line included.  Differences, all deliberate:
- colour 2 inverts (XOR) instead of meaning "lit";
- ``pixel(x, y)`` off the screen reads 0, not None;
- ``text`` uses our fonts (ui.font) and returns the x after the text;
- ``blit`` takes a bytes sprite (column-major VLSB, see ``blit``), not a framebuf.
Everything clips at every edge; nothing raises for off-screen coordinates.

On MicroPython ``Canvas`` is ``FbCanvas``, here: the same bytes, drawn by the
firmware's C ``framebuf`` (fills, lines, rectangles, sprite blits from a
converted copy of each sprite table, text as blits of rendered strings kept per
font).  On CPython it is ``PyCanvas`` (ui.pycanvas), the pure-Python reference
every host tool draws with; the tests hold the two byte-identical
(tests/test_canvas.py, tests/mp/test_canvas_mp.py).  FbCanvas stands alone so
that a Pico does not hold the reference's code in its heap: it inverts filled
rectangles itself and loads ui.pycanvas only for the rest of XOR (lines, text,
sprites), which framebuf cannot do and the firmware's screens never ask for.
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from ui.font import NORMAL, codes, text_width

CLEAR = const(0)  # colour: unlit
SET = const(1)  # colour: lit
XOR = const(2)  # colour: invert what is there
COPY = const(3)  # blit only: the sprite's box becomes exactly the sprite


try:
    import framebuf
except ImportError:  # CPython: the pure-Python reference is the canvas
    framebuf = None

# Rendered strings kept per font, about 100 bytes each with their key: 24 held 3 KB of a Pico's
# heap by the end of a hand (the title's words among them), and a string drawn again costs only
# its blit.
TEXT_STRIPS = const(12)
_MONO = 0 if framebuf is None else framebuf.MONO_VLSB


def page_masks(y, ye):
    """(page, mask of its rows) for each 8-row page that rows y..ye-1 (clipped) touch: the
    one walk over a column's pages, for this canvas's XOR and the pure-Python one's drawing."""
    while y < ye:
        p = y >> 3
        top = y - (p << 3)
        bot = ye - (p << 3)
        if bot > 8:
            bot = 8
        yield p, ((1 << bot) - 1) ^ ((1 << top) - 1)
        y = (p + 1) << 3


class FbCanvas:
    """The canvas drawn by framebuf (MicroPython only): PyCanvas's bytes, PyCanvas's API."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.pages = (height + 7) >> 3
        self.buf = bytearray(width * self.pages)
        self._py = None  # the reference over the same bytes, made by _ref() on first use
        self.fb = framebuf.FrameBuffer(self.buf, width, height, _MONO)
        # blit palette for "clear where the source is lit": lit -> 0, unlit -> 1 = the key (skipped)
        self._clear_pal = framebuf.FrameBuffer(bytearray(2), 2, 1, _MONO)
        self._clear_pal.pixel(0, 0, 1)
        self._sheets = {}  # id(sprite data) -> (strip, bytes per sprite, strip width)

    def _ref(self):
        # PyCanvas drawing into these same bytes, for XOR but of rectangles: loaded only then.
        if self._py is None:
            from ui.pycanvas import PyCanvas

            self._py = PyCanvas(self.width, self.height, self.buf)
        return self._py

    def _xor_rect(self, x, y, w, h):
        # framebuf has no XOR: the rectangle's bits inverted page by page, here rather than by
        # the reference, since the firmware does draw this one (the cards the result screen
        # shows laid off are inverted so)
        W = self.width
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > W:
            w = W - x
        ye = y + h
        if ye > self.height:
            ye = self.height
        if w < 1 or y >= ye:
            return
        buf = self.buf
        for p, m in page_masks(y, ye):
            i = p * W + x
            for k in range(i, i + w):
                buf[k] ^= m

    def fill(self, c):
        if c == XOR:
            self._xor_rect(0, 0, self.width, self.height)
        else:
            self.fb.fill(c)

    def pixel(self, x, y, c=None):
        if c is None:
            return self.fb.pixel(x, y) or 0  # framebuf reads None off the screen, the reference 0
        if c == XOR:
            self._ref().pixel(x, y, c)
        else:
            self.fb.pixel(x, y, c)

    def hline(self, x, y, w, c):
        if c == XOR:
            self._ref().hline(x, y, w, c)
        else:
            self.fb.hline(x, y, w, c)

    def vline(self, x, y, h, c):
        if c == XOR:
            self._ref().vline(x, y, h, c)
        else:
            self.fb.vline(x, y, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if c == XOR and f:
            self._xor_rect(x, y, w, h)
        elif c == XOR:
            self._ref().rect(x, y, w, h, c, f)
        elif f:
            self.fb.fill_rect(x, y, w, h, c)
        else:
            self.fb.rect(x, y, w, h, c)

    def fill_rect(self, x, y, w, h, c):
        if c == XOR:
            self._xor_rect(x, y, w, h)
        else:
            self.fb.fill_rect(x, y, w, h, c)

    def line(self, x1, y1, x2, y2, c):
        if c == XOR:
            self._ref().line(x1, y1, x2, y2, c)
        else:
            self.fb.line(x1, y1, x2, y2, c)

    def text(self, s, x, y, c=1, font=None):
        f = font if font is not None else NORMAL
        if not s:
            return x
        if c == XOR:
            return self._ref().text(s, x, y, c, f)
        strips = f.strips
        if strips is None:
            strips = {}
            f.strips = strips
        st = strips.get(s)
        if st is None:
            w = text_width(s, f)
            if w > 2 * self.width:
                # a banner longer than two screens (it scrolls by): two strips, so that none
                # is a big buffer; each half is kept, and the banner's next frame reuses them
                h = len(s) >> 1
                return self.text(s[h:], self.text(s[:h], x, y, c, f), y, c, f)
            if len(strips) >= TEXT_STRIPS:
                strips.clear()  # start afresh: popitem() may drop what was just added
            # the string made once into a one-page strip kept for next time: a glyph's columns
            # are VLSB bytes, one per column, so at row 0 of a one-page strip they are copied
            # as they are, a blank column after each (what PyCanvas.text draws there).  The
            # glyph lookup is PyCanvas.text's, inlined on purpose as in its fast path: a call
            # per character costs more than the lookup on a Pico, and strips are built while
            # the player waits for the first visit of a card
            b = bytearray(w)
            data = f.data
            gw = f.width
            ext = f.ext
            box = f.box
            x0 = 0
            for o in codes(s):
                o -= 32
                if 0 <= o < 95:
                    j = o * gw
                    n = gw
                else:
                    k = ext.get(o + 32, box)
                    j = k >> 4
                    n = k & 15
                b[x0 : x0 + n] = data[j : j + n]
                x0 += n + 1
            st = (framebuf.FrameBuffer(b, w, 8, _MONO), x0)
            strips[s] = st
        if c:
            self.fb.blit(st[0], x, y, 0)
        else:
            self.fb.blit(st[0], x, y, 1, self._clear_pal)
        return x + st[1]

    def text_width(self, s, font=None):
        f = font if font is not None else NORMAL
        strips = f.strips
        if strips is not None:
            st = strips.get(s)
            if st is not None:
                return st[1] - 1  # a string kept as a strip knows its width: no walk over it
        return text_width(s, f)

    def blit(self, data, x, y, w, h, c=1, off=0):
        if c == XOR:
            self._ref().blit(data, x, y, w, h, c, off)
            return
        sh = self._sheets.get(id(data))
        if sh is None:
            # data's w x h sprites side by side in one page-major strip, converted once
            np = (h + 7) >> 3
            per = w * np
            n = len(data) // per
            b = bytearray(per * n)
            sw = w * n
            for col in range(sw):
                j = col * np
                for p in range(np):
                    b[p * sw + col] = data[j + p]
            sh = (memoryview(b), per, sw)
            self._sheets[id(data)] = sh
        src = (sh[0][(off // sh[1]) * w :], w, h, _MONO, sh[2])
        if c == COPY:
            self.fb.blit(src, x, y)
        elif c:
            self.fb.blit(src, x, y, 0)
        else:
            self.fb.blit(src, x, y, 1, self._clear_pal)


if framebuf is not None:
    Canvas = FbCanvas


def __getattr__(name):
    # PyCanvas (and Canvas on CPython) from ui.pycanvas, imported only when asked for: a Pico's
    # firmware never asks, and the reference's code stays out of its heap.
    if name == "PyCanvas" or (name == "Canvas" and framebuf is None):
        from ui.pycanvas import PyCanvas

        return PyCanvas
    raise AttributeError(name)
