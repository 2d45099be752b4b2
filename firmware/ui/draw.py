"""Drawing helpers every screen shares: labels, the legend, menus, messages.

All of them draw on a ui.canvas.Canvas with the fonts of ui.font.
"""

from ui.font import NORMAL, SMALL

RANK_CHARS = "A23456789\u2469JQK"  # as ui.cardart: the ten is one narrow glyph
SUIT_CHARS = "\u2663\u2662\u2661\u2660"  # red suits hollow

W = 128
H = 64
LEGEND_Y = 57  # the legend box covers rows 57..63
SCROLL_MS = 45  # one pixel of a scrolling message


YOU = "You"  # the only second person among the App's player names


def verb(name, you, other):
    """The verb that agrees with a player's name: verb("You", "deal", "deals") is "deal"."""
    return you if name == YOU else other


# The title's bar: the boot screen (ui/splash.py) and the title menu (ui/menus.py) draw it alike,
# so the screen fills in instead of changing; it lives here, where both find it loaded.
TITLE_BAR = "\u2663\u2662 GIN RUMMY \u2661\u2660"


def title_bar(c):
    """The title's inverted bar, rows 0-8."""
    c.fill_rect(0, 0, W, 9, 1)
    center(c, TITLE_BAR, 1, NORMAL, 0)


def card_str(c):
    """Rank and suit glyph: '7♡', '⑩♠' (red suits are drawn hollow)."""
    return RANK_CHARS[c % 13] + SUIT_CHARS[c // 13]


def level_title(level):
    """'Hard': a computer level's name (gin.levels) as the screens show it."""
    from gin.levels import LEVELS

    n = LEVELS[level]
    return n[0].upper() + n[1:]


def center(c, s, y, font=NORMAL, col=1):
    x = (W - c.text_width(s, font)) // 2
    c.text(s, x, y, col, font)
    return x


def right(c, s, xr, y, font=SMALL, col=1):
    """Text ending at column xr - 1."""
    x = xr - c.text_width(s, font)
    c.text(s, x, y, col, font)
    return x


def label(c, s, x, y, font=SMALL):
    """Inverted text in a box one pixel larger on each side; returns x after the box."""
    w = c.text_width(s, font)
    h = 7 if font is SMALL else 9
    c.fill_rect(x, y, w + 2, h, 1)
    c.text(s, x + 1, y + 1, 0, font)
    return x + w + 2


# Text is the costliest thing on a frame.  A line that fills one 8-row page
# (the legend, the table's score line) keeps its last pixels with the words
# they show: the next frame with the same words copies 128 bytes instead of
# drawing the text again.
_page_key = [None] * 8
_page_px = [None] * 8


def from_cache(c, page, key):
    """Copy the pixels kept for ``key`` into page ``page``; False if ``key`` isn't what is kept."""
    if _page_key[page] != key:
        return False
    c.buf[page * W : page * W + W] = _page_px[page]
    return True


def to_cache(c, page, key):
    _page_key[page] = key
    _page_px[page] = bytes(c.buf[page * W : page * W + W])


def forget_kept():
    """Drop every line kept for copying back (page lines and legends): the next draws make
    their pixels anew."""
    for p in range(8):
        _page_key[p] = None
        _page_px[p] = None
    _legends.clear()


# The legend changes with the cursor at the table (the card DISCARD throws, the count KNOCK
# knocks on): the last few are kept, so moving back along the hand copies them back.  Each
# holds its words and a page of pixels, about 360 bytes: 16 held 5 KB of a Pico's heap by
# the end of a hand, and a legend not kept redraws only the words that change (_rewords).
LEGENDS_KEPT = 4
_legends = {}


def legend(c, slots, y=LEGEND_Y, room=None, before=None):
    """The bottom line: what each button does now.

    slots: [(button label, action words or None)]; None draws '-' so a button
    that does nothing right now still says so.  When the line is too long the
    words of the widest slots are dropped to their first word.
    room: None, or per slot the width its words take at least (their widest
    form): the words are drawn at the left of that room, so a slot whose words
    change (the card DISCARD throws) moves nothing else on the line.
    before: (slots, what legend returned) for the legend on the canvas now, drawn
    with the same room: when only words that fit their room differ, only those
    are drawn again.
    Returns (per slot the columns its words may cover: (first, last), whether the
    line needed no shortening).
    """
    if y != LEGEND_Y:
        c.fill_rect(0, y - 1, W, H - y + 1, 0)
        return _legend(c, slots, y, room)
    key = (tuple(slots), room)
    kept = _legends.get(key)
    if kept is not None:
        c.buf[7 * W : 8 * W] = kept[0]
        return kept[1]
    drawn = None
    if before is not None and room is not None:
        drawn = _rewords(c, slots, y, room, before)
    if drawn is None:
        c.fill_rect(0, y - 1, W, H - y + 1, 0)
        drawn = _legend(c, slots, y, room)
    if len(_legends) >= LEGENDS_KEPT:
        _legends.clear()
    _legends[key] = (bytes(c.buf[7 * W : 8 * W]), drawn)
    return drawn


def _rewords(c, slots, y, room, before):
    """Draw only the words that differ from ``before`` when the layout stays: a line drawn
    whole (no words shortened), the same labels, old and new words within their room (so the
    line's width is the same).  What legend returns, or None."""
    old, drawn = before
    boxes, fits = drawn
    n = len(slots)
    if not fits or len(old) != n or len(boxes) != n:
        return None
    for i in range(n):
        lab, act = slots[i]
        if lab != old[i][0]:
            return None
        if act != old[i][1]:
            r = room[i]
            x0, x1 = boxes[i]
            # the old words fitted their room when their box is the room; the new must fit it
            if x1 - x0 + 1 != r or c.text_width("-" if act is None else act, SMALL) > r:
                return None
    for i in range(n):
        act = slots[i][1]
        if act != old[i][1]:
            x0, x1 = boxes[i]
            c.fill_rect(x0, y - 1, x1 - x0 + 1, H - y + 1, 0)
            c.text("-" if act is None else act, x0, y + 1, 1, SMALL)
    return drawn


def _legend(c, slots, y, room):
    parts = []
    total = 0
    for i in range(len(slots)):
        lab, act = slots[i]
        a = "-" if act is None else act
        r = room[i] if room else 0
        w = c.text_width(a, SMALL)
        parts.append([lab, a, r])
        total += c.text_width(lab, SMALL) + 3 + (w if w > r else r)
    gaps = len(parts) - 1
    fits = total + gaps * 3 <= W
    while total + gaps * 3 > W:
        # shorten the longest action to its first word; stop when nothing shrinks
        best = -1
        bw = 0
        for i in range(len(parts)):
            a = parts[i][1]
            if " " in a:
                w = c.text_width(a, SMALL)
                if w > bw:
                    bw = w
                    best = i
        if best < 0:
            break
        a = parts[best][1]
        r = parts[best][2]
        short = a[: a.find(" ")]
        sw = c.text_width(short, SMALL)
        parts[best][1] = short
        parts[best][2] = 0  # its room was for the long words
        total -= (bw if bw > r else r) - sw
    spare = W - total
    gap = spare // gaps if gaps else 0
    if gap > 8:
        gap = 8
    x = (W - total - gap * gaps) // 2
    if x < 0:
        x = 0
    boxes = []
    for lab, a, r in parts:
        x = label(c, lab, x, y) + 1
        x0 = x
        x = c.text(a, x, y + 1, 1, SMALL) - 1
        if x < x0 + r:
            x = x0 + r
        boxes.append((x0, x - 1))
        x += gap
    return tuple(boxes), fits


SCROLL_PAUSE = 25  # pixels' worth of time a scrolling line holds at each end


def scroll_ms(c, s, font=SMALL):
    """How long ``banner`` takes to show s whole once: 0 when it fits, else hold, scroll, hold."""
    over = c.text_width(s, font) - (W - 4)
    if over + 2 <= 4:  # fits in W - 2
        return 0
    return (over + 2 * SCROLL_PAUSE) * SCROLL_MS


def banner(c, s, y, t_ms, inverted=True, font=SMALL):
    """One line across the screen; a line too long scrolls.  Returns ms until the next frame (0: static).

    t_ms: ms since the line first appeared.  A scrolling line starts at its beginning, holds,
    scrolls to its end and holds there (scroll_ms gives how long that takes), then starts over.
    """
    h = 7 if font is SMALL else 9
    col = 0 if inverted else 1
    c.fill_rect(0, y, W, h, 1 if inverted else 0)
    w = c.text_width(s, font)
    if w <= W - 2:
        c.text(s, (W - w) // 2, y + 1, col, font)
        return 0
    over = w - (W - 4)
    t = (t_ms // SCROLL_MS) % (over + 2 * SCROLL_PAUSE)
    off = t - SCROLL_PAUSE
    if off < 0:
        off = 0
    if off > over:
        off = over
    c.text(s, 2 - off, y + 1, col, font)
    return SCROLL_MS


def header(c, s, right_text=None):
    """An inverted title bar of SMALL text across the top (rows 0..6)."""
    c.fill_rect(0, 0, W, 7, 1)
    c.text(s, 2, 1, 0, SMALL)
    if right_text:
        right(c, right_text, W - 2, 1, SMALL, 0)


def menu(c, rows, sel, y0, nrows, line=9, font=NORMAL):
    """A scrolling list; rows are strings; the selected one is inverted.

    Returns the first visible row (the caller keeps it for a stable scroll).
    """
    n = len(rows)
    top = sel - nrows // 2
    if top > n - nrows:
        top = n - nrows
    if top < 0:
        top = 0
    for i in range(nrows):
        k = top + i
        if k >= n:
            break
        y = y0 + i * line
        s = rows[k]
        if k == sel:
            c.fill_rect(0, y, W - 4, line, 1)
            c.text(s, 3, y + 1, 0, font)
        else:
            c.text(s, 3, y + 1, 1, font)
    if n > nrows:
        scrollbar(c, W - 2, y0, nrows * line, top, nrows, n)
    return top


def scrolled(top, d, total, shown):
    """The first visible row of a list after moving d rows, kept within 0..total - shown."""
    top += d
    if top > total - shown:
        top = total - shown
    return top if top > 0 else 0


def scroll_lines(c, lines, top, rows, y, line=8, font=NORMAL):
    """Lines top.. of a list, one a row, with a scrollbar at the right edge when they don't all fit."""
    for i in range(rows):
        k = top + i
        if k >= len(lines):
            break
        c.text(lines[k], 1, y + i * line, 1, font)
    if len(lines) > rows:
        scrollbar(c, W - 2, y, rows * line, top, rows, len(lines))


def scrollbar(c, x, y, h, top, shown, total):
    c.vline(x, y, h, 1)
    th = h * shown // total
    if th < 3:
        th = 3
    ty = y + (h - th) * top // (total - shown) if total > shown else y
    c.fill_rect(x - 1, ty, 3, th, 1)


def choice_row(name, value):
    """'Name: value' with arrows showing the value can be changed."""
    return name + " \u25c0" + value + "\u25b6"


def hourglass(c, x, y):
    """A 5x7 'thinking' mark."""
    c.hline(x, y, 5, 1)
    c.hline(x, y + 6, 5, 1)
    c.line(x, y + 1, x + 4, y + 5, 1)
    c.line(x + 4, y + 1, x, y + 5, 1)
    c.hline(x + 1, y + 5, 3, 1)
    c.pixel(x + 2, y + 2, 1)
