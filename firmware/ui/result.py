"""The end of a hand: both hands spread, the lay-offs one by one, the counts, the points and why.

Rows: 0-6 what happened (who knocked; once the lay-offs are all shown, which
cards were laid off: they stay named for as long as the screen is up); 8-26 the
knocker's spread; 28-46 the defender's; the names and counts sit in the right
margin; 49-55 the result line; 57-63 the legend.
"""

from events import ticks_diff
from gin.cards import cards_value
from gin.round import BIG_GIN_WIN, CANCELLED, GIN, UNDERCUT
from modes import WATCHING
from ui import keys
from ui.cardart import CARD_H, CARD_W, draw_card
from ui.draw import W, banner, card_str, center, header, legend, right, verb
from ui.font import NORMAL, SMALL
from ui.hand import groups_of, place
from ui.screens import RESULT, SHEET

ROW1 = 8
ROW2 = ROW1 + CARD_H + 1
TEXT_Y = 49
MARGIN = 14  # the right margin for names and counts (wider when a name needs it)
STEP_MS = 900  # between two lay-offs
AUTO_MS = 3500  # watching: how long the final result stays


def why(r):
    """The points in a few characters: 'undercut: 8-1+10', 'gin: 20+61', 'knock: 25-2'."""
    if r.kind == UNDERCUT:
        s = "undercut: %d-%d+%d" % (r.knocker_deadwood, r.defender_deadwood, r.bonus)
    elif r.kind == GIN or r.kind == BIG_GIN_WIN:
        s = "%s: %d+%d" % ("gin" if r.kind == GIN else "big gin", r.bonus, r.base)
    else:
        s = "knock: %d-%d" % (r.defender_deadwood, r.knocker_deadwood)
    if r.multiplier > 1:
        s += " \u00d7%d" % r.multiplier
    return s


class Result:
    sid = RESULT
    proceed = keys.DRAW  # the lay-offs at once, then the score sheet
    msg_y = 56

    def __init__(self, app, arg):
        r = app.match.round.result
        self.r = r
        self.k = 0  # lay-offs shown so far
        self.n = len(r.layoffs)
        self.next_at = None
        self.done_at = None
        if self.n == 0:
            self.done_at = app.ticks_ms()

    @property
    def done(self):
        return self.k >= self.n

    def key(self, app, b, kind):
        if kind != keys.PRESS:
            return
        if app.demo:
            app.end_match()
            return
        if b in (keys.DRAW, keys.DISCARD, keys.KNOCK):
            if not self.done:
                self.k = self.n
                self.done_at = app.ticks_ms()
            else:
                app.goto(SHEET)
            app.refresh()

    def tick(self, app, now):
        if not self.done:
            if self.next_at is None:
                self.next_at = now + STEP_MS
            elif ticks_diff(now, self.next_at) >= 0:
                self.k += 1
                self.next_at = None if self.done else now + STEP_MS
                if self.done:
                    self.done_at = now
                app.refresh()
        elif (
            (app.mode_has(WATCHING) or app.demo)
            and self.done_at is not None
            and ticks_diff(now, self.done_at) >= AUTO_MS
        ):
            app.goto(SHEET)

    def rows(self):
        """(knocker groups, defender groups, laid cards so far)."""
        r = self.r
        laid = r.layoffs[: self.k]
        kms = [list(m) for m in r.knocker_melds]
        for card, mi in laid:
            kms[mi].append(card)
        kg = groups_of(kms, r.knocker_deadwood_cards, 0)
        unlaid = [card for card, _mi in r.layoffs[self.k :]]
        dg = groups_of(r.defender_melds, list(r.defender_deadwood_cards) + unlaid, 0)
        return kg, dg, [card for card, _mi in laid]

    def draw(self, app, c, now):
        r = self.r
        names = app.names
        if r.kind == CANCELLED:
            header(c, "HAND CANCELLED")
            center(c, r.reason, 16, NORMAL)
            center(c, "Nobody scores.", 28, NORMAL)
            center(c, "The same dealer", 38, SMALL)
            center(c, "deals again.", 44, SMALL)
            legend(c, [(keys.DRAW_L, "score sheet")])
            return 0
        kn = names[r.knocker]
        de = names[1 - r.knocker]
        tell = self.done and self.n > 0  # the header names the lay-offs, not the knock
        frame = 0
        if tell:
            frame = self._laid_header(c, de, now)
        elif r.kind == BIG_GIN_WIN:
            header(c, kn.upper() + ": BIG GIN!")
        elif r.kind == GIN:
            header(c, kn.upper() + ": GIN!")
        else:
            header(c, "%s KNOCKED ON %d" % (kn.upper(), r.knocker_deadwood))
        kg, dg, laid = self.rows()
        kd = r.knocker_deadwood
        dd = cards_value(dg[-1][0]) if dg and not dg[-1][1] else 0
        # names and counts in the right margin, as wide as they need
        margin = MARGIN
        for name, v in ((kn, kd), (de, dd)):
            for w in (c.text_width(name, SMALL), c.text_width("%d" % v, NORMAL) + 1):
                if w + 2 > margin:
                    margin = w + 2
        self._row(c, kg, ROW1, laid, margin)
        self._row(c, dg, ROW2, (), margin)
        for y, name, v in ((ROW1, kn, kd), (ROW2, de, dd)):
            right(c, name, 128, y + 1, SMALL)
            right(c, "%d" % v, 127, y + 8, NORMAL)
        if not self.done:
            card, mi = r.layoffs[self.k]
            if self.k == 0:
                s = "%s %s %s\u2026" % (de, verb(de, "lay off", "lays off"), card_str(card))
            else:
                # the latest cards when they all don't fit
                shown = [card_str(x) for x in laid]
                s = "%s laid off %s" % (de, " ".join(shown))
                while len(shown) > 1 and c.text_width(s, SMALL) > 128:
                    shown.pop(0)
                    s = "%s laid off \u2026%s" % (de, " ".join(shown))
            c.text(s, 0, TEXT_Y + 1, 1, SMALL)
            legend(c, [(keys.DRAW_L, "skip")])
            return STEP_MS
        self._verdict(app, c, tell)
        legend(c, [(keys.DRAW_L, "score sheet")])
        return frame

    def _laid_header(self, c, de, now):
        """'YOU LAID OFF 7♡ 8♡ Q♠' across the top; a list too long for the bar scrolls
        (ms until the next frame, 0 when still)."""
        cards = [card_str(x) for x, _mi in self.r.layoffs]
        s = "%s LAID OFF " % de.upper()
        for sep in (" ", ""):
            if c.text_width(s + sep.join(cards), SMALL) <= W - 4:
                header(c, s + sep.join(cards))
                return 0
        return banner(c, s + " ".join(cards), 0, ticks_diff(now, self.done_at), True)

    def _verdict(self, app, c, tell=False):
        r = self.r
        x = c.text("%s +%d" % (app.names[r.winner], r.points), 0, TEXT_Y, 1, NORMAL) + 4
        w = why(r)
        if x + c.text_width(w, SMALL) > 128:
            # the arithmetic alone when the header says what kind of win; else the kind alone
            w = w[: w.find(":")] if tell else w[w.find(":") + 2 :]
        c.text(w, x, TEXT_Y + 1, 1, SMALL)

    def _row(self, c, groups, y, laid, margin=MARGIN):
        xs, _s = place(groups, 128 - margin, CARD_W, 11, 2)
        k = 0
        for g, is_meld in groups:
            for card in g:
                draw_card(c, xs[k], y, card, False, False, not is_meld, card in laid)
                k += 1
