"""A canvas that records text a player can't read whole (host side, issue 13).

``CheckedCanvas`` draws exactly as the firmware's reference canvas and, for
every ``text`` call, records a problem when the text

- runs past the screen's edge (clipped: the player never sees the rest), or
- lands on pixels already lit (drawn in colour 1 over something: it runs past
  its box into a neighbour, a scrollbar, a column of numbers), or
- holds a character its font has no glyph for (the glass would show a box).

Text drawn by ``ui.draw.banner`` may run past the edges: that line scrolls, and
App.say keeps it up until it has been shown whole (tests/test_readable.py
checks that separately).
"""

from __future__ import annotations

import inspect

from ui.canvas import PyCanvas
from ui.font import NORMAL


class CheckedCanvas(PyCanvas):
    def __init__(self, width: int = 128, height: int = 64) -> None:
        super().__init__(width, height)
        self.problems: list[str] = []
        self.drawn: set[str] = set()  # every string drawn (the grammar checks read them)
        self.where = ""  # what is on screen, for the messages

    def text(self, s, x, y, c=1, font=None):
        f = font if font is not None else NORMAL
        w = self.text_width(s, f)
        h = f.height - 1  # the last row holds descenders only: it may touch what is below
        self.drawn.add(s)
        if lacking(s, f):
            self._note(s, x, y, "has no glyph for %r" % "".join(sorted(lacking(s, f))))
        if s and not _in_banner():
            if x < 0 or y < 0 or x + w > self.width or y + h > self.height:
                self._note(s, x, y, "runs off the screen")
            elif c == 1 and self._lit(x, y, w, h):
                self._note(s, x, y, "overlaps something already drawn")
        return super().text(s, x, y, c, f)

    def _lit(self, x, y, w, h) -> bool:
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                if self.pixel(xx, yy):
                    return True
        return False

    def _note(self, s, x, y, what) -> None:
        self.problems.append("%s: %r at (%d, %d) %s" % (self.where, s, x, y, what))


def lacking(s: str, font) -> set[str]:
    """The characters of s that font has no glyph for (ui.font draws them as a box)."""
    return {ch for ch in s if not (31 < ord(ch) < 127 or ord(ch) in font.ext)}


def _in_banner() -> bool:
    f = inspect.currentframe()
    while f is not None:
        if f.f_code.co_name == "banner" and f.f_globals.get("__name__") == "ui.draw":
            return True
        f = f.f_back
    return False
