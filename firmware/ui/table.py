"""The table: your hand in meld groups, the stock and the pile, the opponent, the legend.

Rows (128x64): 0-5 scores; 8-26 stock, pile, the opponent's line and your
live count; 27-48 your hand (the cursor card raised over a bar, melds solid
over a shelf, deadwood dotted); 50-55 the prompt or a message; 57-63 the
legend of DRAW, DISCARD and KNOCK.

A cursor move or a message redraws only what depends on them (``update``):
the live count, the hand, the prompt and the legend; the rest of the frame
stays as drawn.  A test holds every such frame equal to a full redraw.
"""

from gin import melds
from gin.round import (
    ARRANGE,
    BIG_GIN,
    DISCARD_PHASE,
    DRAW,
    DRAW_STOCK,
    KNOCK,
    OFFER,
    PASS,
    SPREAD,
    TAKE_DISCARD,
)
from modes import HINTS, WATCHING
from ui import keys
from ui.cardart import CARD_H, CARD_RAISE, CARD_W, draw_back, draw_card, draw_cursor
from ui.draw import LEGEND_Y, card_str, from_cache, hourglass, legend, right, to_cache
from ui.font import NORMAL, SMALL, text_width
from ui.hand import groups_of, hand_groups, place
from ui.screens import PAUSE, PILE, TABLE

MID_Y = 8
HAND_Y = MID_Y + CARD_H + CARD_RAISE  # top of an unraised hand card
BAR_Y = HAND_Y + CARD_H  # right under the cards: a shelf under each meld
PROMPT_Y = 49
TEXT_X = 36
COUNT_Y = MID_Y + 8  # the live count's rows: 16..23, right of TEXT_X
_LEGEND_PAGE = (LEGEND_Y - 1) >> 3  # the legend's rows, 56..63
WITHOUT = "Without "  # the live count while you hold 11 cards: "Without 7♣ 12"
_WITHOUT_W = text_width(WITHOUT, SMALL)


def score_line(app):
    """'You 23 · CPU 45 · to 100' (Hollywood: the first open game's scores)."""
    m = app.match
    n = app.names
    me = app.seat  # the scores read from the hand shown
    cols = m.columns
    g = 0
    while g < len(cols) - 1 and cols[g].closed:
        g += 1
    t = cols[g].totals
    s = "%s %d \u00b7 %s %d \u00b7 to %d" % (n[me], t[me], n[1 - me], t[1 - me], m.rules.target)
    if len(cols) > 1:
        s = "G%d %s" % (g + 1, s)
    return s


def note_words(note):
    """A player's last visible move (Play.notes) as the table shows it: 'took 7♡', 'knocked'."""
    a, card = note
    if a == TAKE_DISCARD:
        return "took " + card_str(card)
    if a == DRAW_STOCK:
        return "drew"
    if a == PASS:
        return "passed"
    if a == BIG_GIN:
        return "big gin!"
    return "knocked"


class Table:
    sid = TABLE
    msg_y = PROMPT_Y

    def __init__(self, app, arg):
        self._key = None
        self.groups = None
        self.order = []
        self.xs = []
        self.spread_i = 0
        self.cur_i = 0
        self._dw_key = None
        self._dw = {}  # card left out (-1: none) -> deadwood, for the hand in _dw_key
        self._upper = None  # what the top of the frame was last drawn from (see update)
        self._drawn = None  # (layout key, cursor index or -1, count line, prompt, message shown)
        self._limit_x = 128  # where "limit 10" starts on the count line
        self._count_end = TEXT_X  # where the count line's text ends (see _draw_count)
        self.damage = None  # after update: [(first page, last page, first col, last col)] it touched
        self._slots = {}
        self._room = None  # the legend's room (legend_room), set with each full redraw
        self._legend = None  # (slots, what ui.draw.legend returned) for the legend last drawn

    # --- layout ----------------------------------------------------------------

    def _spreading(self, app):
        rnd = app.match.round
        return rnd.phase == SPREAD and rnd.player == app.seat and app.is_human(app.seat)

    def layout(self, app):
        rnd = app.match.round
        h = rnd.hands[app.seat]
        sp = self._spreading(app)
        k = (h[0], h[1], h[2], h[3], app.sort, self.spread_i if sp else -1)
        if k != self._key:
            self._key = k
            if sp:
                ms, dw = rnd.arrangements[self.spread_i]
                self.groups = groups_of(ms, dw, app.sort)
            else:
                self.groups = hand_groups(h, app.sort)
            order = []
            meld = []
            for g, m in self.groups:
                order.extend(g)
                meld.extend([m] * len(g))
            self.order = order
            self.meld = meld  # per card in order: part of a meld
            self.xs, _step = place(self.groups)
        order = self.order
        i = self.cur_i
        if i < len(order) and order[i] == app.cursor:
            pass  # where it was: no search
        elif app.cursor in order:
            self.cur_i = order.index(app.cursor)
        elif order:
            if self.cur_i >= len(order):
                self.cur_i = len(order) - 1
            app.set_cursor(order[self.cur_i])
        return order

    def deadwood(self, app):
        """The live count: of the 10 cards, or of the 10 kept if the cursor card goes."""
        rnd = app.match.round
        h = rnd.hands[app.seat]
        c = app.cursor
        eleven = rnd.phase == DISCARD_PHASE and rnd.player == app.seat
        k = (h[0], h[1], h[2], h[3])
        if k != self._dw_key:
            self._dw_key = k
            self._dw = {}
        if not eleven or not 0 <= c < 52:  # a stray cursor counts the ten, never indexes past the suits
            c = -1
        dw = self._dw.get(c)
        if dw is None:
            # each count once per hand: moving the cursor back and forth costs nothing
            if c >= 0:
                hh = list(h)
                hh[c // 13] &= ~(1 << (c % 13))
                dw = melds.deadwood(hh)
            else:
                dw = melds.deadwood(h)
            self._dw[c] = dw
        return dw

    # --- input -------------------------------------------------------------------

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        if app.demo:
            if kind == keys.PRESS:
                app.end_match()
            return
        if kind == keys.PRESS and b == keys.MENU:
            if app.link_paused():
                app.quit_to_title()  # "Link lost - reconnect, or MENU to save and quit"
            else:
                app.goto(PAUSE)
            return
        if b == keys.LEFT or b == keys.RIGHT:
            d = 1 if b == keys.RIGHT else -1
            if self._spreading(app):
                n = len(app.match.round.arrangements)
                self.spread_i = (self.spread_i + d) % n
                app.refresh()
            else:
                order = self.layout(app)
                if order:
                    self.cur_i = (self.cur_i + d) % len(order)
                    app.set_cursor(order[self.cur_i])
                else:
                    app.refresh()
            return
        if kind != keys.PRESS:
            return
        if b == keys.UP:
            app.say("Sorted by rank" if app.toggle_sort() else "Sorted by suit")
            return
        if b == keys.DOWN:
            if app.settings["hints"] and app.mode_has(HINTS):
                app.show_hint()
            else:
                app.goto(PILE)  # no hints: the discard pile instead
            return
        if app.mode_has(WATCHING):
            app.say("Watching: MENU to stop")
            return
        a = self.action_for(app, b)
        if a >= 0:
            self.spread_i = 0
            app.act(a)

    def action_for(self, app, b):
        """The move button b makes now (-1: none): the one mapping of buttons to moves
        (``keys_for`` reads it backwards)."""
        rnd = app.match.round
        if self._spreading(app):
            return ARRANGE + self.spread_i
        ph = rnd.phase
        if b == keys.DRAW:
            if ph == OFFER:
                return PASS
            if ph == DISCARD_PHASE and rnd.rules.big_gin and rnd.player == app.seat:
                return BIG_GIN
            return DRAW_STOCK
        if b == keys.DISCARD:
            if ph == OFFER or ph == DRAW:
                return TAKE_DISCARD
            return app.cursor
        if b == keys.KNOCK:
            return KNOCK + app.cursor if app.cursor >= 0 else KNOCK
        return -1

    def keys_for(self, app, a):
        """The next button toward move a, or -1 when no button makes it: the buttons that
        ``action_for`` maps to it, else a cursor step toward its card (or to the next spread).
        The host's auto-player plays through this, never a mapping of its own."""
        for b in (keys.KNOCK, keys.DISCARD, keys.DRAW):
            if self.action_for(app, b) == a:
                return b
        if self._spreading(app):
            return keys.RIGHT if ARRANGE <= a < ARRANGE + len(app.match.round.arrangements) else -1
        card = a - KNOCK if KNOCK <= a < KNOCK + 52 else a
        order = self.layout(app)
        if not 0 <= card < 52 or card not in order or app.cursor not in order:
            return -1
        return keys.RIGHT if order.index(card) > order.index(app.cursor) else keys.LEFT

    # --- drawing ------------------------------------------------------------------

    def _upper_key(self, app):
        """Everything the frame's top part (scores, stock, pile, opponent) is drawn from.

        The hand's state (phase, player, stock, pile) changes only with an action, and every
        action is recorded in ``actions``: the round and how many it has stand for all of it.
        """
        m = app.match
        rnd = m.round
        return (
            rnd,
            len(rnd.actions),
            len(m.summaries),
            app.notes[1 - app.seat],
            app.thinking,
            app.seat,
            app.mode,
            app.demo,
        )

    def draw(self, app, c, now):
        m = app.match
        rnd = m.round
        seat = app.seat
        opp = 1 - seat
        names = app.names
        self._upper = self._upper_key(app)
        self._slots = {}  # cursor index -> (count line, prompt, legend slots) while only it moves
        # scores (page 0 alone: kept with its words, see ui.draw.from_cache)
        sc = score_line(app)
        hn = "#%d" % (m.hand_no + 1)
        if not from_cache(c, 0, (sc, hn)):
            c.text(sc, 0, 0, 1, SMALL)
            right(c, hn, 128, 0, SMALL)
            to_cache(c, 0, (sc, hn))
        # stock and pile
        n = rnd.stock_size()
        if n > 0:
            draw_back(c, 0, MID_Y)
        c.text("%d" % n, CARD_W + 1, MID_Y + 6, 1, SMALL)
        px = CARD_W + 10
        if len(rnd.pile) > 1:
            c.vline(px + CARD_W, MID_Y + 2, CARD_H - 3, 1)  # the pile has depth
        if rnd.pile:
            draw_card(c, px, MID_Y, rnd.pile[-1])
        # the opponent
        y = MID_Y
        x = c.text(names[opp], TEXT_X, y, 1, NORMAL) + 2
        x = _mini_back(c, x, y) + 2
        x = c.text("%d" % len(rnd.cards_of(opp)), x, y, 1, NORMAL) + 4
        note = app.notes[opp]
        if note is not None:
            c.text(note_words(note), x, y + 1, 1, SMALL)
        if app.thinking:
            hourglass(c, 122, y)
        self._lower(app, c)
        return 0

    def update(self, app, c, now):
        """Redraw only the parts a cursor move or a message changes; False if more changed."""
        if self._upper != self._upper_key(app):
            return False
        key, cur, count, prompt, msg = self._drawn
        self.layout(app)
        if key != self._key:  # sorted, or another spread: the whole lower part
            self._slots = {}
            c.fill_rect(TEXT_X, COUNT_Y, 128 - TEXT_X, 8, 0)
            c.fill_rect(0, HAND_Y - CARD_RAISE, 128, PROMPT_Y + 7 - (HAND_Y - CARD_RAISE), 0)
            self._lower(app, c)
            self.damage = [(COUNT_Y >> 3, 7, 0, 127)]
            return True
        # where this frame may differ from the last, for the display (device.display.FrameSender)
        dmg = []
        new = self._cursor_index(app)
        # what the cursor card changes below, worked out once per card while the rest stays
        words = self._slots.get(new)
        if words is None:
            words = (self._count_line(app), self.prompt(app), self.legend_slots(app))
            self._slots[new] = words
        cl, p, slots = words
        if cl != count:
            # the words and the count change; "limit 10" at the right stays, and "Without "
            # when it was there already
            same = cl[0] >= 0 and count[0] >= 0
            x0 = TEXT_X + _WITHOUT_W if same else TEXT_X
            c.fill_rect(x0, COUNT_Y, self._limit_x - x0, 8, 0)
            end = self._draw_count(app, c, cl, False, same)
            x1 = end if end > self._count_end else self._count_end
            self._count_end = end
            dmg.append((COUNT_Y >> 3, COUNT_Y >> 3, x0, x1 - 1))
        line = p != prompt or msg or app.msg is not None  # the prompt or message line is redrawn
        if new != cur:
            # the old and the new cursor card, each with the cards after it that overlap it (a
            # card covers the edge of the one before); the card before needs nothing: its edge
            # is under the first one redrawn.  Far apart (a wrap, a hint), two boxes.
            a0 = a1 = b0 = b1 = -1
            if cur >= 0:
                a0 = cur
                a1 = self._overlapped(cur)
            if new >= 0:
                b0 = new
                b1 = self._overlapped(new)
            if a0 < 0 or b0 >= 0 and b0 < a0:
                a0, a1, b0, b1 = b0, b1, a0, a1
            if b0 >= 0 and b0 <= a1 + 1:
                a1 = b1 if b1 > a1 else a1
                b0 = -1
            self._redraw_cards(app, c, a0, a1, dmg, line)
            if b0 >= 0:
                self._redraw_cards(app, c, b0, b1, dmg, line)
        if line:
            c.fill_rect(0, PROMPT_Y, 128, 7, 0)
            self._draw_shelves(c)
            c.text(p, 0, PROMPT_Y + 1, 1, SMALL)
            dmg.append((PROMPT_Y >> 3, (PROMPT_Y + 6) >> 3, 0, 127))
        drawn = legend(c, slots, LEGEND_Y, self._room, self._legend)
        boxes = drawn[0]
        old_slots, old_drawn = self._legend
        if drawn == old_drawn and len(slots) == len(old_slots):
            # the same layout: only the words that changed (with legend_room, DISCARD's card and
            # KNOCK's count); a label that changed makes the whole line below
            for i in range(len(slots)):
                s = slots[i]
                o = old_slots[i]
                if s[0] != o[0]:
                    dmg.append((_LEGEND_PAGE, _LEGEND_PAGE, 0, 127))
                    break
                if s[1] != o[1]:
                    dmg.append((_LEGEND_PAGE, _LEGEND_PAGE, boxes[i][0], boxes[i][1]))
        else:
            dmg.append((_LEGEND_PAGE, _LEGEND_PAGE, 0, 127))
        self._legend = (slots, drawn)
        self._drawn = (self._key, new, cl, p, app.msg is not None)
        self.damage = dmg
        return True

    def _overlapped(self, i):
        """The last card from i on that overlaps the one before it (the row's draw order)."""
        xs = self.xs
        n = len(xs)
        while i + 1 < n and xs[i + 1] < xs[i] + CARD_W:
            i += 1
        return i

    def _redraw_cards(self, app, c, lo, hi, dmg, line):
        xs = self.xs
        top = HAND_Y - CARD_RAISE
        c.fill_rect(xs[lo], top, xs[hi] + CARD_W - xs[lo], BAR_Y - top, 0)
        self._draw_cards(app, c, lo, hi + 1)
        # the cards' last page is the prompt's: left to the line's box when that is redrawn
        last = (BAR_Y - 1) >> 3
        if line and last == PROMPT_Y >> 3:
            last -= 1
        dmg.append((top >> 3, last, xs[lo], xs[hi] + CARD_W - 1))

    def _count_line(self, app):
        """(the card the count leaves out or -1, the count): "Without 7♣ 12" or "Deadwood 12"."""
        rnd = app.match.round
        if rnd.phase == DISCARD_PHASE and rnd.player == app.seat and app.cursor >= 0:
            card = app.cursor
        else:
            card = -1
        return card, self.deadwood(app)

    def _draw_count(self, app, c, line, limit=True, word_there=False):
        """word_there: "Without " is on the canvas already (only the card and the count are drawn)."""
        card, dw = line
        y2 = MID_Y + 10
        if card < 0:
            x = c.text("Deadwood", TEXT_X, y2, 1, SMALL)
        else:
            # in two pieces, the word's pixels kept for every card (one string each would not be)
            x = TEXT_X + _WITHOUT_W + 1 if word_there else c.text(WITHOUT, TEXT_X, y2, 1, SMALL)
            x = c.text(card_str(card), x, y2, 1, SMALL)
        end = c.text("%d" % dw, x + 2, y2 - 2, 1, NORMAL)
        if limit:
            lim = app.match.round.knock_limit
            self._limit_x = right(c, ("limit %d" % lim) if lim else "gin only", 128, y2, SMALL)
        return end  # the x after the count's gap column: nothing of it is drawn from there on

    def _cursor_index(self, app):
        if app.demo or app.mode_has(WATCHING) or self._spreading(app):
            return -1
        return self.cur_i

    def _draw_cards(self, app, c, a, b):
        """Cards a..b-1 of the row, in order (a card covers the edge of the one before)."""
        xs = self.xs
        order = self.order
        meld = self.meld
        cur = self._cursor_index(app)
        for k in range(a, b):
            if k == cur:
                draw_cursor(c, xs[k], HAND_Y, order[k])
            else:
                draw_card(c, xs[k], HAND_Y, order[k], False, False, not meld[k])

    def _draw_shelves(self, c):
        xs = self.xs
        k = 0
        for g, is_meld in self.groups:
            k += len(g)
            if is_meld:
                x0 = xs[k - len(g)]
                c.hline(x0 + 1, BAR_Y, xs[k - 1] + CARD_W - x0 - 2, 1)

    def _lower(self, app, c):
        # your count, the hand (melds solid over a shelf, deadwood dotted, the cursor card raised),
        # the prompt and the legend
        self.layout(app)  # first: it may move the cursor onto the hand
        cl = self._count_line(app)
        self._count_end = self._draw_count(app, c, cl)
        self._draw_cards(app, c, 0, len(self.order))
        self._draw_shelves(c)
        p = self.prompt(app)
        c.text(p, 0, PROMPT_Y + 1, 1, SMALL)
        self._room = self.legend_room(app)
        slots = self.legend_slots(app)
        self._legend = (slots, legend(c, slots, LEGEND_Y, self._room))
        self._drawn = (self._key, self._cursor_index(app), cl, p, app.msg is not None)

    def prompt(self, app):
        rnd = app.match.round
        seat = app.seat
        if app.demo:
            return "DEMO \u00b7 press any button"
        p = rnd.player
        if not app.is_human(p) or p != seat:
            return "%s to play\u2026" % app.names[p]
        ph = rnd.phase
        if ph == OFFER:
            return "Take the upcard %s or pass?" % card_str(rnd.pile[-1])
        if ph == DRAW:
            if rnd.stock_only:
                return "Both passed: draw from the stock"
            return "Your turn: draw a card"
        if ph == DISCARD_PHASE and rnd.taken >= 0:
            # the whole turn, not only on that card: the line stays as the cursor moves
            return "Discard or knock \u00b7 keep %s" % card_str(rnd.taken)
        if ph == SPREAD:
            return "Spread %d of %d: \u25c0\u25b6 to choose" % (self.spread_i + 1, len(rnd.arrangements))
        return "Discard or knock \u00b7 \u25b2sort \u25bchint"

    def legend_room(self, app):
        """The legend's room per slot (ui.draw.legend) while the cursor changes its words: DISCARD's
        card and KNOCK's count take the width of their widest form, so nothing else moves."""
        rnd = app.match.round
        p = rnd.player
        if (
            app.demo
            or app.mode_has(WATCHING)
            or p != app.seat
            or not app.is_human(p)
            or rnd.phase != DISCARD_PHASE
        ):
            return None  # legend_slots' other lines: they don't follow the cursor
        return (0, _card_room(), _knock_room(rnd.knock_limit))

    def legend_slots(self, app):
        rnd = app.match.round
        seat = app.seat
        p = rnd.player
        if app.demo:
            return [("ANY", "back to the title")]
        if app.mode_has(WATCHING):
            return [(keys.UPDN_L, "sort/pile"), (keys.MENU_L, "menu")]
        if p != seat or not app.is_human(p):
            return [(keys.UPDN_L, "sort/hint"), (keys.MENU_L, "menu")]
        ph = rnd.phase
        top = card_str(rnd.pile[-1]) if rnd.pile else ""
        if ph == OFFER:
            return [(keys.DRAW_L, "pass"), (keys.DISC_L, "take " + top), (keys.KNOCK_L, None)]
        if ph == DRAW:
            return [
                (keys.DRAW_L, "stock"),
                (keys.DISC_L, None if rnd.stock_only else "take " + top),
                (keys.KNOCK_L, None),
            ]
        if ph == SPREAD:
            return [(keys.LR_L, "choose"), (keys.KNOCK_L, "spread")]
        cur = app.cursor
        big = rnd.rules.big_gin and melds.deadwood(rnd.hands[seat]) == 0
        dw = self.deadwood(app)
        if cur == rnd.taken:
            knock = None
        elif dw == 0:
            knock = "gin"
        elif dw <= rnd.knock_limit:
            knock = "on %d" % dw
        else:
            knock = None
        return [
            (keys.DRAW_L, "big gin" if big else None),
            (keys.DISC_L, None if cur == rnd.taken else card_str(cur)),
            (keys.KNOCK_L, knock),
        ]


_rooms = {}  # what the legend's room for a card (key -1) and for each knock limit takes


def _card_room():
    w = _rooms.get(-1)
    if w is None:
        w = 0
        for k in range(52):
            t = text_width(card_str(k), SMALL)
            w = t if t > w else w
        _rooms[-1] = w
    return w


def _knock_room(limit):
    w = _rooms.get(limit)
    if w is None:
        w = text_width("gin", SMALL)
        for d in range(1, limit + 1):
            t = text_width("on %d" % d, SMALL)
            w = t if t > w else w
        _rooms[limit] = w
    return w


def _mini_back(c, x, y):
    """A 5x7 card back: the opponent's hand."""
    c.rect(x, y, 5, 7, 1)
    c.pixel(x + 2, y + 2, 1)
    c.pixel(x + 2, y + 4, 1)
    return x + 5
