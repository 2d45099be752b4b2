"""Canvas, fonts and card art checks that run unchanged on CPython and MicroPython.

The expected digests were computed on CPython; MicroPython must draw the very
same bytes.
"""

from ui import cardart
from ui.canvas import CLEAR, COPY, XOR, Canvas
from ui.font import NORMAL, SMALL, codes, text_width


def _digest(buf):
    # 22-bit polynomial hash: h * 131 stays below 2**30, a small int everywhere
    # (a bignum here would allocate on every byte).
    h = 0
    for b in buf:
        h = (h * 131 + b) & 0x3FFFFF
    return h


def _lit(cv):
    n = 0
    for b in cv.buf:
        while b:
            n += b & 1
            b >>= 1
    return n


def _text_scene():
    cv = Canvas()
    cv.text("You 37  CPU 52 \u00b7 Box 2 \u2026", 0, 0, 1, SMALL)
    cv.text("Knock with 7?", 3, 8)
    cv.text("Gin! \u2663\u2662\u2661\u2660 \u2469", -4, 19)
    cv.text("\u25c0 Back  Next \u25b6 \u2713\u00d7\u00b0", 0, 29, 1, SMALL)
    cv.fill_rect(0, 36, 128, 9, 1)
    cv.text("Undercut +25 \u20ac", 2, 37, CLEAR)
    cv.text("xor", 100, 40, XOR, SMALL)
    return cv


def _card_scene():
    cv = Canvas()
    x = 3
    for i in range(11):
        cardart.draw_card(cv, x, 45, (i * 5) % 52, i == 4, False, i == 9, i == 7)
        x += cardart.CARD_STEP
    cardart.draw_back(cv, 40, 9)
    cardart.draw_card(cv, 56, 9, 22)
    x = 70
    for c in (0, 9, 22, 35, 51):
        x = cardart.draw_inline(cv, x, 12, c) + 2
    return cv


def _shape_scene():
    cv = Canvas()
    cv.rect(-3, -3, 40, 20, 1)
    cv.fill_rect(100, 50, 60, 30, 1)
    cv.fill_rect(10, 5, 30, 30, XOR)
    cv.hline(-10, 40, 300, 1)
    cv.vline(64, -10, 200, 1)
    cv.line(-20, -5, 150, 70, XOR)
    cv.line(127, 0, 0, 63, 1)
    cv.rect(50, 20, 20, 10, XOR)
    cv.pixel(1, 62, 1)
    return cv


def test_text_scene_digest():
    assert _digest(_text_scene().buf) == 1443437


def test_card_scene_digest():
    assert _digest(_card_scene().buf) == 1994566


def test_shape_scene_digest():
    assert _digest(_shape_scene().buf) == 1860749


def test_all_cards_digest():
    cv = Canvas()
    total = 0
    for c in range(52):
        cv.fill(0)
        cardart.draw_card(cv, (c * 7) % 117 - 3, (c * 5) % 50 - 2, c)
        total = (total * 7 + _digest(cv.buf)) & 0x3FFFFF
    assert total == 3800377


def test_drawing_off_screen_never_raises_and_draws_nothing():
    cv = Canvas()
    for x, y in ((-200, 10), (300, 10), (10, -200), (10, 300), (-1000, -1000)):
        cv.pixel(x, y, 1)
        cv.hline(x, y, 50, 1)
        cv.vline(x, y, 50, 1)
        cv.rect(x, y, 50, 50, 1)
        cv.fill_rect(x, y, 50, 50, XOR)
        cv.line(x, y, x + 20, y + 3, 1)
        cv.text("far away", x, y)
        cv.blit(b"\xff\xff", x, y, 2, 8, COPY)
        cardart.draw_card(cv, x, y, 7, True, False, True, True)
        assert cv.pixel(x, y) == 0
    assert _lit(cv) == 0


def test_pixel_roundtrip_and_layout():
    cv = Canvas()
    cv.pixel(5, 9, 1)
    assert cv.pixel(5, 9) == 1 and cv.pixel(5, 8) == 0
    assert cv.buf[128 + 5] == 2
    cv.pixel(5, 9, XOR)
    assert cv.pixel(5, 9) == 0


def test_text_returns_the_next_x_and_measures():
    cv = Canvas()
    assert cv.text("Gin", 10, 0) == 10 + 18
    assert cv.text("Gin", 10, 0, 1, SMALL) == 10 + 12
    assert text_width("A\u2661", SMALL) == 9
    assert text_width("A\u2661", NORMAL) == 13
    assert cv.text("\u20ac", 0, 20) == 6  # unknown: the box glyph


def test_selected_card_is_raised():
    a = Canvas()
    b = Canvas()
    cardart.draw_card(a, 20, 20, 40)
    cardart.draw_card(b, 20, 20 - cardart.CARD_RAISE, 40)
    c = Canvas()
    cardart.draw_card(c, 20, 20, 40, True)
    assert c.buf == b.buf and c.buf != a.buf


def test_copy_blit_replaces_and_or_blit_adds():
    cv = Canvas()
    cv.fill(1)
    cv.blit(b"\x01\x00", 0, 3, 2, 2, COPY)  # 2x2 box: only its top-left pixel stays lit
    assert cv.pixel(0, 3) == 1 and cv.pixel(1, 3) == 0 and cv.pixel(0, 4) == 0 and cv.pixel(2, 3) == 1
    cv.fill(0)
    cv.blit(b"\x03", 126, 62, 1, 2, 1)
    cv.blit(b"\x03", 127, 63, 1, 2, 1)
    assert _lit(cv) == 3


def test_codes_are_the_code_points_of_any_text():
    # ASCII as its bytes, anything else decoded from UTF-8 by hand: 1- to 4-byte characters
    cases = ["", "Gin", "Knock with 7?", "\u2663\u2662\u2661\u2660", "a\u00b7b\u00d7", "\u2469 10"]
    cases += ["x\U0001f0a1y", "\u00e9t\u00e9 \u2026", "\u007f\u0080\u07ff\u0800\uffff\U00010000"]
    for s in cases:
        assert list(codes(s)) == [ord(ch) for ch in s], s
