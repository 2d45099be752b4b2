"""Canvas, fonts and card art: pixels against simple references, framebuf and MicroPython.

The references here work pixel by pixel on a set of lit points, the plainest
possible reading of each primitive; the Canvas must give the same bytes.
MicroPython's own framebuf (WebAssembly port) is the reference for line, rect
and friends: the same random calls must produce the same 1024 bytes.
"""

from __future__ import annotations

import random

import pytest

from gin.cards import RANKS, SUITS
from ui import cardart
from ui.canvas import CLEAR, COPY, SET, XOR, Canvas
from ui.font import NORMAL, SMALL, text_width

from canvasref import H, Ref, W, coord, random_canvas, random_ops, size
from host_tools.gen import font as gen_font
from host_tools.micropython.runner import run as run_micropython

# --- primitives against the reference ----------------------------------------


def test_fill_sets_clears_and_inverts():
    cv = Canvas()
    cv.fill(1)
    assert cv.buf == bytearray(b"\xff" * 1024)
    cv.pixel(3, 3, 0)
    cv.fill(XOR)
    assert Ref.of(cv).lit == {(3, 3)}
    cv.fill(0)
    assert cv.buf == bytearray(1024)


def test_pixel_get_set_xor_and_clipping():
    cv = Canvas()
    cv.pixel(0, 0, 1)
    cv.pixel(127, 63, 1)
    cv.pixel(5, 9, 1)
    cv.pixel(5, 9, XOR)
    cv.pixel(6, 9, XOR)
    for x, y in [(-1, 0), (0, -1), (128, 0), (0, 64), (-500, 900)]:
        cv.pixel(x, y, 1)
        assert cv.pixel(x, y) == 0
    assert Ref.of(cv).lit == {(0, 0), (127, 63), (6, 9)}
    assert cv.buf[0] == 1 and cv.buf[7 * 128 + 127] == 0x80 and cv.buf[128 + 6] == 2
    assert cv.pixel(6, 9) == 1 and cv.pixel(5, 9) == 0


@pytest.mark.parametrize("op", ["hline", "vline", "fill_rect", "rect"])
def test_rectangles_match_reference(op):
    rng = random.Random(op)
    for _ in range(400):
        cv = random_canvas(rng)
        ref = Ref.of(cv)
        x, y = coord(rng, 0, W), coord(rng, 0, H)
        w, h = size(rng), size(rng)
        c = rng.choice([CLEAR, SET, XOR])
        if op == "hline":
            cv.hline(x, y, w, c)
            ref.fill_rect(x, y, w, 1, c)
        elif op == "vline":
            cv.vline(x, y, h, c)
            ref.fill_rect(x, y, 1, h, c)
        elif op == "fill_rect":
            cv.fill_rect(x, y, w, h, c)
            ref.fill_rect(x, y, w, h, c)
        else:
            if rng.random() < 0.2:
                cv.rect(x, y, w, h, c, True)
                ref.fill_rect(x, y, w, h, c)
            else:
                cv.rect(x, y, w, h, c)
                if c != XOR:  # framebuf's four strokes, even for a degenerate box
                    ref.fill_rect(x, y, w, 1, c)
                    ref.fill_rect(x, y + h - 1, w, 1, c)
                    ref.fill_rect(x, y, 1, h, c)
                    ref.fill_rect(x + w - 1, y, 1, h, c)
                elif w >= 1 and h >= 1:  # each outline pixel inverted once
                    edge = {(xx, yy) for xx in range(x, x + w) for yy in (y, y + h - 1)}
                    edge |= {(xx, yy) for yy in range(y, y + h) for xx in (x, x + w - 1)}
                    for p in edge:
                        ref.put(p[0], p[1], c)
        assert cv.buf == ref.buf(), (op, x, y, w, h, c)


def reference_line(x1, y1, x2, y2):
    """Textbook integer Bresenham in the form MicroPython's modframebuf.c uses."""
    pts = []
    dx, sx = (x2 - x1, 1) if x2 - x1 > 0 else (x1 - x2, -1)
    dy, sy = (y2 - y1, 1) if y2 - y1 > 0 else (y1 - y2, -1)
    steep = dy > dx
    if steep:
        x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
    e = 2 * dy - dx
    for _ in range(dx):
        pts.append((y1, x1) if steep else (x1, y1))
        while e >= 0:
            y1 += sy
            e -= 2 * dx
        x1 += sx
        e += 2 * dy
    pts.append((x2, y2))
    return pts


def test_line_matches_reference_points():
    rng = random.Random(7)
    for _ in range(500):
        cv = Canvas()
        ref = Ref()
        a = (coord(rng, 0, W), coord(rng, 0, H), coord(rng, 0, W), coord(rng, 0, H))
        cv.line(*a, 1)
        for x, y in reference_line(*a):
            ref.put(x, y, 1)
        assert cv.buf == ref.buf(), a


def test_line_xor_and_clear():
    cv = Canvas()
    cv.fill(1)
    cv.line(0, 0, 127, 63, 0)
    assert cv.pixel(0, 0) == 0 and cv.pixel(127, 63) == 0 and cv.pixel(64, 31) + cv.pixel(64, 32) == 1
    cv.line(0, 0, 127, 63, XOR)
    assert cv.buf == bytearray(b"\xff" * 1024)


# --- text ---------------------------------------------------------------------


def glyph_pixels(font, ch):
    off, w = font.glyph(ch)
    return [(dx, dy) for dx in range(w) for dy in range(8) if font.data[off + dx] >> dy & 1], w


def reference_text(ref, s, x, y, c, font):
    for ch in s:
        pts, w = glyph_pixels(font, ch)
        for dx, dy in pts:
            ref.put(x + dx, y + dy, c)
        x += w + 1
    return x


def test_text_matches_reference_anywhere():
    rng = random.Random(11)
    alphabet = (
        [chr(c) for c in range(32, 127)] + list(gen_font.EXTRAS) + ["\u20ac", "\n", "\x00", "\U0001f600"]
    )
    for _ in range(600):
        cv = random_canvas(rng)
        ref = Ref.of(cv)
        font = rng.choice([SMALL, NORMAL])
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        x, y = coord(rng, 0, W), coord(rng, 0, H)
        c = rng.choice([CLEAR, SET, XOR])
        got = cv.text(s, x, y, c, font)
        want = reference_text(ref, s, x, y, c, font)
        assert got == want, (s, x, y)
        assert cv.buf == ref.buf(), (s, x, y, c)


def test_text_width_and_return_value():
    cv = Canvas()
    assert cv.text("", 5, 0) == 5
    assert text_width("", NORMAL) == 0
    assert cv.text("Gin", 0, 0) == 18 and cv.text_width("Gin") == 17
    assert cv.text("Gin", 0, 0, 1, SMALL) == 12 and text_width("Gin", SMALL) == 11
    # SMALL suits are 5 wide; NORMAL suits 7 wide.
    assert text_width("A\u2665", SMALL) == 3 + 1 + 5
    assert text_width("A\u2665", NORMAL) == 5 + 1 + 7
    # 21 columns of NORMAL and 32 of SMALL fill the 128 px line.
    assert text_width("x" * 21, NORMAL) <= W < text_width("x" * 22, NORMAL)
    assert text_width("x" * 32, SMALL) <= W < text_width("x" * 33, SMALL)


def test_unknown_characters_draw_the_box():
    for font in (SMALL, NORMAL):
        a, b = Canvas(), Canvas()
        a.text("\u20ac\U0001f600\n", 3, 8, 1, font)
        b.text("\u25a1\u25a1\u25a1", 3, 8, 1, font)
        assert a.buf == b.buf and any(a.buf)


@pytest.mark.parametrize("font", [SMALL, NORMAL], ids=["SMALL", "NORMAL"])
def test_every_glyph_stays_in_its_cell(font):
    chars = [chr(c) for c in range(32, 127)] + list(gen_font.EXTRAS)
    seen = {}
    for ch in chars:
        off, w = font.glyph(ch)
        cols = bytes(font.data[off : off + w])
        if 31 < ord(ch) < 127:
            assert w == font.width
        assert all(b < (1 << font.height) for b in cols), ch  # nothing below the line box
        cv = Canvas()
        x, y = 20, 11
        end = cv.text(ch, x, y, 1, font)
        assert end == x + w + 1
        lit = Ref.of(cv).lit
        assert all(x <= px < x + w and y <= py < y + font.line for px, py in lit), ch
        if ch != " ":
            assert lit, "glyph %r is empty" % ch
            assert cols not in seen, "glyphs %r and %r look the same" % (
                seen.get(cols),
                ch,
            )
            seen[cols] = ch
    # Capitals and digits keep off the descender row: lines never touch.
    for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
        off, w = font.glyph(ch)
        assert all(b >> (font.height - 1) == 0 for b in font.data[off : off + w]), ch


def test_font_metrics():
    assert (SMALL.width, SMALL.advance, SMALL.line) == (3, 4, 6)
    assert (NORMAL.width, NORMAL.advance, NORMAL.line) == (5, 6, 8)
    assert isinstance(SMALL.data, bytes) and isinstance(NORMAL.data, bytes)


# --- sprites --------------------------------------------------------------------


def reference_blit(ref, sprite_rows, x, y, c):
    for dy, row in enumerate(sprite_rows):
        for dx, px in enumerate(row):
            if px:
                ref.put(x + dx, y + dy, XOR if c == XOR else (0 if c == CLEAR else 1))
            elif c == COPY:
                ref.put(x + dx, y + dy, 0)


def test_blit_matches_reference_all_modes_and_clipping():
    rng = random.Random(5)
    for _ in range(500):
        w, h = rng.randint(1, 14), rng.randint(1, 30)
        rows = [[rng.random() < 0.5 for _ in range(w)] for _ in range(h)]
        data = gen_font.columns(["".join("#" if p else "." for p in r) for r in rows])
        pad = rng.randint(0, 5)
        data = bytes(rng.getrandbits(8) for _ in range(pad)) + data
        cv = random_canvas(rng)
        ref = Ref.of(cv)
        x, y = coord(rng, -w, W), coord(rng, -h, H)
        c = rng.choice([CLEAR, SET, XOR, COPY])
        cv.blit(data, x, y, w, h, c, pad)
        reference_blit(ref, rows, x, y, c)
        assert cv.buf == ref.buf(), (w, h, x, y, c)


# --- cards -----------------------------------------------------------------------


def face_pixels(card: int) -> frozenset:
    cv = Canvas()
    cardart.draw_card(cv, 0, 0, card)
    return frozenset(Ref.of(cv).lit)


def test_all_52_faces_are_distinct_and_inside_the_card():
    faces = [face_pixels(c) for c in range(52)]
    assert len(set(faces)) == 52
    for c, f in enumerate(faces):
        assert all(0 <= x < cardart.CARD_W and 0 <= y < cardart.CARD_H for x, y in f), c
        # the outline: full left and right sides, rounded corners
        assert all((0, y) in f and (cardart.CARD_W - 1, y) in f for y in range(1, cardart.CARD_H - 1))
        assert (0, 0) not in f
        # rank and suit keep to columns 1..8: a 9 px step hides none of them
        inner = {p for p in f if 0 < p[1] < cardart.CARD_H - 1 and 0 < p[0] < 10}
        assert inner and all(1 <= px <= 8 for px, _ in inner), c

    # cards of one rank share the rank picture, cards of one suit the suit picture
    def inside(f, y0, y1):
        return {p for p in f if 0 < p[0] < cardart.CARD_W - 1 and y0 <= p[1] < y1}

    def top(f):  # the rank's rows
        return inside(f, 2, 9)

    def bottom(f):  # the suit's rows
        return inside(f, 10, cardart.CARD_H - 1)

    for c in range(52):
        assert top(faces[c]) == top(faces[c % 13])
        assert bottom(faces[c]) == bottom(faces[(c // 13) * 13])
    assert len({frozenset(top(faces[r])) for r in range(13)}) == 13
    assert len({frozenset(bottom(faces[s * 13])) for s in range(4)}) == 4


def test_rank_and_suit_order_follow_gin_cards():
    assert SUITS == "CDHS" and RANKS == "A23456789TJQK"
    assert cardart.card_label(0) == "A\u2663"
    assert cardart.card_label(9 + 26) == "\u2469\u2661"  # ten of hearts
    assert cardart.card_label(12 + 39) == "K\u2660"
    assert cardart.card_label(13 + 10) == "J\u2662"


def test_card_variants():
    x, y = 40, 20
    plain = Canvas()
    cardart.draw_card(plain, x, y, 30)
    # selected: the same picture CARD_RAISE px higher
    sel = Canvas()
    cardart.draw_card(sel, x, y, 30, selected=True)
    assert Ref.of(sel).lit == {(px, py - cardart.CARD_RAISE) for px, py in Ref.of(plain).lit}
    # face down: the back, whatever the card
    b1, b2 = Canvas(), Canvas()
    cardart.draw_card(b1, x, y, 3, face_down=True)
    cardart.draw_card(b2, x, y, 44, face_down=True)
    assert b1.buf == b2.buf and b1.buf != plain.buf
    back = Canvas()
    cardart.draw_back(back, x, y)
    assert back.buf == b1.buf
    # dim: only outline pixels go, and about half of them
    dim = Canvas()
    cardart.draw_card(dim, x, y, 30, dim=True)
    lost = Ref.of(plain).lit - Ref.of(dim).lit
    assert Ref.of(dim).lit < Ref.of(plain).lit
    outline = {(px, py) for px, py in Ref.of(plain).lit if px in (x, x + 10) or py in (y, y + 18)}
    assert lost <= outline and len(outline) // 3 < len(lost) < len(outline) * 2 // 3
    # invert: the inside is flipped, the outline kept
    inv = Canvas()
    cardart.draw_card(inv, x, y, 30, invert=True)
    inside = {(px, py) for px in range(x + 1, x + 10) for py in range(y + 1, y + 18)}
    assert Ref.of(inv).lit == (Ref.of(plain).lit - inside) | (inside - Ref.of(plain).lit)


def test_card_covers_what_is_under_it_and_clips():
    cv = Canvas()
    cv.fill(1)
    cardart.draw_card(cv, 10, 10, 0)
    plain = Canvas()
    cardart.draw_card(plain, 10, 10, 0)
    box = {(px, py) for px in range(10, 21) for py in range(10, 29)}
    assert Ref.of(cv).lit & box == Ref.of(plain).lit
    for x, y in [
        (-5, -7),
        (120, 50),
        (-11, 0),
        (128, 0),
        (0, 64),
        (0, -19),
        (-300, 300),
    ]:
        c = Canvas()
        cardart.draw_card(c, x, y, 51, selected=True, dim=True, invert=True)
        big = Canvas(width=128 + 64, height=64 + 64)
        cardart.draw_card(big, x + 32, y + 32, 51, selected=True, dim=True, invert=True)
        for px, py in Ref.of(c).lit:
            assert big.pixel(px + 32, py + 32) == 1
        lit_big = {
            (bx - 32, by - 32)
            for bx in range(big.width)
            for by in range(big.height)
            if big.pixel(bx, by) and 0 <= bx - 32 < W and 0 <= by - 32 < H
        }
        assert Ref.of(c).lit == lit_big


def test_eleven_cards_fit_the_screen():
    assert 10 * cardart.CARD_STEP + cardart.CARD_W <= W
    assert cardart.row_step(11) == cardart.CARD_STEP
    for n in range(2, 25):
        st = cardart.row_step(n)
        assert (n - 1) * st + cardart.CARD_W <= W
    assert cardart.row_step(1) == cardart.CARD_STEP


def test_inline_card_labels():
    cv = Canvas()
    x = cardart.draw_inline(cv, 0, 0, 9)  # ten of clubs: narrow "10" + club
    assert x == cardart.inline_width(9) + 1 == 5 + 1 + 5 + 1
    lit = Ref.of(cv).lit
    assert lit and all(py < SMALL.line for _, py in lit)
    labels = set()
    for c in range(52):
        t = Canvas()
        cardart.draw_inline(t, 0, 0, c)
        labels.add(bytes(t.buf))
    assert len(labels) == 52


# --- generated tables ---------------------------------------------------------------


def test_committed_tables_equal_generator_output():
    for path, text in gen_font.outputs().items():
        assert path.read_text(encoding="utf-8") == text, (
            "%s is stale: run python -m host_tools.gen.font" % path
        )


def test_generator_art_parser_rejects_ragged_art():
    with pytest.raises(ValueError):
        gen_font.parse_art("> AB\n#. ##\n#. #\n", 2)
    with pytest.raises(ValueError):
        gen_font.parse_art("> A\n#x\n##\n", 2)


# --- FbCanvas against the reference, on MicroPython ------------------------------------------------


_MP_BOTH = r"""
from ui.canvas import PyCanvas, FbCanvas, Canvas
from ui.font import SMALL, NORMAL
from ui import cardart
assert Canvas is FbCanvas
OPS = %r
py = PyCanvas()
fb = FbCanvas()
bad = []
for i, op in enumerate(OPS):
    for cv in (py, fb):
        if i %% 9 == 0:
            cv.fill(op[-1] & 1)
        k = op[0]
        if k == "text":
            r = cv.text(op[1], op[2], op[3], op[4], SMALL if op[5] else NORMAL)
        elif k == "card":
            cardart.draw_card(cv, op[1], op[2], op[3], op[4] & 1, op[4] & 2, op[4] & 4, op[4] & 8)
        elif k == "cursor":
            cardart.draw_cursor(cv, op[1], op[2], op[3])
        else:
            getattr(cv, k)(*op[1:])
    if py.buf != fb.buf:
        bad.append(i)
print("BAD", bad)
"""


def test_framebuf_canvas_equals_the_reference_on_micropython_for_every_primitive():
    """FbCanvas (framebuf) against PyCanvas, both under MicroPython: every moved primitive,
    every colour, text in both fonts and colours, card art of every kind, anywhere on or off screen."""
    rng = random.Random(13)
    ops = []
    words = [
        "Without 7\u2663",
        "limit 10",
        "You 0 \u00b7 CPU 0",
        "\u25c0\u25b6 move",
        "\u20ac x",
        "Q",
        "Deadwood 12",
    ]
    for op in random_ops(77, 300):
        ops.append(op)
    for _ in range(300):
        x, y = rng.randint(-20, 130), rng.randint(-12, 66)
        k = rng.choice(["text", "text", "card", "cursor", "fill_rect", "fill", "rect_f"])
        if k == "text":
            ops.append(("text", rng.choice(words), x, y, rng.choice([0, 1, 1, 2]), rng.random() < 0.5))
        elif k == "card":
            ops.append(("card", x, y, rng.randrange(52), rng.randrange(16)))
        elif k == "cursor":
            ops.append(("cursor", x, y, rng.randrange(52)))
        elif k == "fill_rect":
            ops.append(("fill_rect", x, y, rng.randint(0, 60), rng.randint(0, 30), rng.choice([0, 1, 2])))
        elif k == "rect_f":
            ops.append(("rect", x, y, rng.randint(0, 60), rng.randint(0, 30), rng.choice([0, 1, 2]), True))
        else:
            ops.append(("fill", rng.choice([0, 1, 2])))
    out = run_micropython(_MP_BOTH % (ops,))
    line = [x for x in out.splitlines() if x.startswith("BAD ")][-1]
    assert line == "BAD []", [ops[int(i)] for i in line[5:-1].split(",")[:5]]


_MP_EDGES = r"""
from ui.canvas import PyCanvas, FbCanvas
from ui.font import SMALL, NORMAL
py = PyCanvas()
fb = FbCanvas()
bad = []
LONG = "Gin 25 \u00b7 Undercut 10 \u00b7 Big gin 31 \u00b7 Game 100 \u00b7 Line 20 \u00b7 Shutout \u00d72 \u2663\u2666"
cases = [(LONG, x, y, c, f) for x in (-400, -130, 0, 3) for y in (0, 5) for c in (0, 1) for f in (0, 1)]
cases += [("", 5, 5, 1, 0), ("", -3, 70, 0, 1)]
for s, x, y, c, f in cases:
    font = SMALL if f else NORMAL
    for cv in (py, fb):
        cv.fill(1 - c)
    a = py.text(s, x, y, c, font)
    b = fb.text(s, x, y, c, font)
    if a != b or py.buf != fb.buf:
        bad.append((len(s), x, y, c, f, a, b))
reads = [(x, y) for x in (-1, 0, 60, 127, 128) for y in (-1, 0, 31, 63, 64)]
if [py.pixel(x, y) for x, y in reads] != [fb.pixel(x, y) for x, y in reads]:
    bad.append("pixel reads")
print("BAD", bad)
"""

_MP_ALONE = r"""
import sys
from ui.canvas import FbCanvas
from ui.font import NORMAL
from ui import cardart
fb = FbCanvas()
fb.fill(0)
fb.text("", 0, 0)
fb.text("Gin 25 \u00b7 Undercut 10 \u00b7 Big gin 31 \u00b7 Game 100 \u00b7 Line 20 \u00b7 Shutout", -50, 8)
fb.rect(1, 1, 30, 20, 1)
fb.line(0, 0, 127, 63, 1)
cardart.draw_card(fb, 40, 20, 7, dim=True)
cardart.draw_card(fb, 60, 20, 8, dim=True, invert=True)
fb.fill_rect(-5, 60, 20, 10, 2)
fb.fill(2)
fb.pixel(3, 3)
fb.pixel(-3, 3)
print("ALONE", "ui.pycanvas" in sys.modules)
fb.text("x", 0, 0, 2)
print("XOR", "ui.pycanvas" in sys.modules)
"""


def test_long_lines_empty_strings_and_pixel_reads_on_framebuf_are_the_references():
    """A banner longer than two screens, empty strings and pixel reads (on and off the screen):
    FbCanvas returns and draws what PyCanvas does."""
    out = run_micropython(_MP_EDGES)
    assert [x for x in out.splitlines() if x.startswith("BAD ")][-1] == "BAD []"


def test_framebuf_canvas_loads_the_reference_only_for_xor():
    """The firmware's drawing (text, long banners, lines, card art inverted or not, XOR of
    rectangles, pixel reads) never loads ui.pycanvas into a Pico's heap; XOR text does."""
    out = run_micropython(_MP_ALONE).splitlines()
    assert "ALONE False" in out and "XOR True" in out, out
