"""The link cable's screens: waiting for the other handheld, and the rules it proposes."""

from launch import drop_module
from ui import keys
from ui.draw import center, header, legend, scrollbar
from ui.font import NORMAL, SMALL
from ui.screens import LINK_RULES, LINK_WAIT

LINE = 8
TOP = 9
ROWS = 5
COLS = 21  # characters of the normal font on one line


def wrap(text, cols=COLS):
    """Words into lines of at most cols characters (a longer word is cut)."""
    out = []
    line = ""
    for w in text.split():
        while len(w) > cols:
            if line:
                out.append(line)
                line = ""
            out.append(w[:cols])
            w = w[cols:]
        if not line:
            line = w
        elif len(line) + 1 + len(w) <= cols:
            line += " " + w
        else:
            out.append(line)
            line = w
    if line:
        out.append(line)
    return out


class LinkWait:
    """'Waiting for the other handheld…' (and the rules' answer, and the deal); MENU cancels."""

    sid = LINK_WAIT
    msg_y = 48
    proceed = -1  # the other handheld answers

    def __init__(self, app, arg):
        pass

    def key(self, app, b, kind):
        if kind == keys.PRESS and b == keys.MENU:
            app.link_cancel()

    def draw(self, app, c, now):
        header(c, "LINK CABLE")
        lines = wrap(app.link_status() or "")
        y = 14
        for ln in lines[:3]:
            center(c, ln, y, NORMAL)
            y += 10
        if len(lines) < 3:
            center(c, "Both: Play: Link cable", 38, SMALL)
        legend(c, [(keys.MENU_L, "cancel")])
        return 250  # the status follows the link


class LinkRules:
    """The other handheld proposes rules: DRAW accepts, MENU declines.  arg: the rule bytes."""

    sid = LINK_RULES
    proceed = keys.DRAW  # accept
    msg_y = 56

    def __init__(self, app, arg):
        from gin.cards import GinError
        from gin.rules import RuleSet

        self.top = 0
        self.ok = True
        try:
            from ui.rulelines import rule_lines

            self.lines = rule_lines(RuleSet.from_bytes(arg))
        except GinError as e:
            self.ok = False
            self.lines = wrap("Rules this handheld can't play: " + str(e))
        finally:
            # the words are made once: their code would stay in RAM through the match (2 KB of a
            # Pico's heap), as the screen module goes when the match starts
            drop_module("ui.rulelines")

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        n = len(self.lines)
        if b == keys.UP and self.top > 0:
            self.top -= 1
        elif b == keys.DOWN and self.top < n - ROWS:
            self.top += 1
        elif kind == keys.PRESS and b == keys.DRAW and self.ok:
            app.link_accept()
            return
        elif kind == keys.PRESS and b == keys.MENU:
            app.link_cancel()
            return
        app.refresh()

    def draw(self, app, c, now):
        header(c, "PLAY THESE RULES?")
        lines = self.lines
        for i in range(ROWS):
            k = self.top + i
            if k >= len(lines):
                break
            c.text(lines[k], 1, TOP + i * LINE, 1, NORMAL)
        if len(lines) > ROWS:
            scrollbar(c, 126, TOP, ROWS * LINE, self.top, ROWS, len(lines))
        legend(c, [(keys.DRAW_L, "accept" if self.ok else None), (keys.MENU_L, "decline")])
        return 0
