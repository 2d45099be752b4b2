"""The score sheet (hand by hand, Hollywood's three columns) and the game-over tally."""

from events import ticks_diff
from gin.match import GAME_OVER
from gin.round import CANCELLED, RESULT_NAMES
from modes import LEVEL_STATS, LINK_STATS, WATCHING
from ui import keys
from ui.draw import header, legend, right, scrollbar, scrolled
from ui.font import NORMAL, SMALL
from ui.screens import FROM_MENU, OVER_SCREEN, SHEET, TABLE

AUTO_MS = 3000  # watching: how long the sheet stays before the next deal


def history(rules, summaries):
    """Per finished hand: (summary, columns entered as a bit mask, totals after it per column).

    The same entering rule as gin.match (a test holds the two together): a win
    goes to every open game where the winner has an entry and to the lowest
    open game where they have none.
    """
    ncol = 3 if rules.hollywood else 1
    totals = [[0, 0] for _ in range(ncol)]
    wins = [[0, 0] for _ in range(ncol)]
    closed = [False] * ncol
    out = []
    for s in summaries:
        kind, w, pts, _k = s
        entered = 0
        if kind != CANCELLED:
            new = False
            for i in range(ncol):
                if closed[i]:
                    continue
                if wins[i][w] > 0 or not new and wins[i][w] == 0:
                    if wins[i][w] == 0:
                        new = True
                    totals[i][w] += pts
                    wins[i][w] += 1
                    entered |= 1 << i
                    if totals[i][w] >= rules.target:
                        closed[i] = True
        out.append((s, entered, [t[:] for t in totals]))
    return out


def hand_words(names, s):
    kind, w, pts, _k = s
    if kind == CANCELLED:
        return "cancelled"
    return "%s %s" % (names[w], RESULT_NAMES[kind])


class Sheet:
    """arg: None after a hand (DRAW deals the next), FROM_MENU from the in-game menu (MENU goes back)."""

    sid = SHEET
    proceed = keys.DRAW
    msg_y = 56

    def __init__(self, app, arg):
        self.from_menu = arg == FROM_MENU
        self.rows = history(app.match.rules, app.match.summaries)
        self.top = -1  # -1: scrolled to the latest hand
        self.shown_at = app.ticks_ms()

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        if app.demo and kind == keys.PRESS:
            app.end_match()
            return
        if b == keys.UP or b == keys.DOWN:
            top = self._last_top(app) if self.top < 0 else self.top
            self.top = scrolled(top, 1 if b == keys.DOWN else -1, len(self.rows), self._visible(app))
            app.refresh()
            return
        if kind != keys.PRESS:
            return
        if self.from_menu:
            if b in (keys.MENU, keys.DRAW, keys.DISCARD):
                app.goto(TABLE)
        elif b == keys.DRAW:
            app.next_hand()

    def tick(self, app, now):
        if not self.from_menu and (app.mode_has(WATCHING) or app.demo):
            if ticks_diff(now, self.shown_at) >= AUTO_MS:
                app.next_hand()

    def _visible(self, app):
        return 4 if app.match.rules.hollywood else 6

    def _last_top(self, app):
        return scrolled(len(self.rows), 0, len(self.rows), self._visible(app))

    def draw(self, app, c, now):
        m = app.match
        names = app.names
        holly = m.rules.hollywood
        header(
            c,
            ("HOLLYWOOD" if holly else "SCORE") + " \u00b7 to %d" % m.rules.target,
            "hand %d" % len(m.summaries),
        )
        vis = self._visible(app)
        last = self._last_top(app)
        top = last if self.top < 0 else scrolled(self.top, 0, len(self.rows), vis)
        if holly:
            xs = (72, 98, 123)
            for i in range(3):
                col = m.columns[i]
                right(c, "G%d%s" % (i + 1, "\u2713" if col.closed else ""), xs[i], 8, SMALL)
                for p in (0, 1):
                    v = col.totals[p]
                    right(c, "%d" % v if (v or col.wins[p]) else "-", xs[i], 15 + 6 * p, SMALL)
            c.text(names[0], 0, 15, 1, SMALL)
            c.text(names[1], 0, 21, 1, SMALL)
            y0 = 29
            c.hline(0, y0 - 2, 128, 1)
        else:
            xs = (98, 123)
            c.text("#  hand", 0, 8, 1, SMALL)
            right(c, names[0], xs[0], 8, SMALL)
            right(c, names[1], xs[1], 8, SMALL)
            c.hline(0, 14, 128, 1)
            y0 = 16
        for i in range(vis):
            k = top + i
            if k >= len(self.rows):
                break
            s, entered, totals = self.rows[k]
            y = y0 + 6 * i
            c.text("%d" % (k + 1), 0, y, 1, SMALL)
            c.text(hand_words(names, s), 10, y, 1, SMALL)
            if holly:
                for j in range(3):
                    if entered >> j & 1:
                        right(c, "+%d" % s[2], xs[j], y, SMALL)
            else:
                if s[0] != CANCELLED:
                    right(c, "+%d" % s[2], 74, y, SMALL)
                right(c, "%d" % totals[0][0], xs[0], y, SMALL)
                right(c, "%d" % totals[0][1], xs[1], y, SMALL)
        if not self.rows:
            c.text("No hand finished yet", 10, y0, 1, SMALL)
        if len(self.rows) > vis:
            scrollbar(c, 126, y0, vis * 6, top, vis, len(self.rows))
        if self.from_menu:
            legend(c, [(keys.UPDN_L, "scroll"), (keys.MENU_L, "back")])
        elif m.state == GAME_OVER:
            legend(c, [(keys.UPDN_L, "scroll"), (keys.DRAW_L, "final tally")])
        else:
            legend(c, [(keys.UPDN_L, "scroll"), (keys.DRAW_L, "next hand")])
        return 0


class GameOver:
    sid = OVER_SCREEN
    proceed = keys.DRAW  # to the title
    last = True
    msg_y = 56

    def __init__(self, app, arg):
        self.shown_at = app.ticks_ms()

    def key(self, app, b, kind):
        if kind == keys.PRESS and (b == keys.DRAW or app.demo):
            app.end_match()

    def tick(self, app, now):
        if app.demo and ticks_diff(now, self.shown_at) >= AUTO_MS:
            app.end_match()
            app.new_game(True)

    def draw(self, app, c, now):
        m = app.match
        names = app.names
        w = m.winner
        if w < 0:
            title = "GAME OVER \u00b7 a draw"
        elif app.mode_has(LEVEL_STATS) or app.mode_has(LINK_STATS):
            title = "GAME OVER \u00b7 " + ("You win!" if w == app.seat else "%s wins" % names[w])
        else:
            title = "GAME OVER \u00b7 %s wins" % names[w]
        header(c, title)
        xs = (96, 127)
        right(c, names[0], xs[0], 9, SMALL)
        right(c, names[1], xs[1], 9, SMALL)
        score = [0, 0]
        game = [0, 0]
        box = [0, 0]
        wins = [0, 0]
        shut = False
        for col in m.columns:
            for p in (0, 1):
                score[p] += col.totals[p]
                game[p] += col.game_bonus[p]
                box[p] += col.box_bonus[p]
                wins[p] += col.wins[p]
            shut = shut or col.shutout
        rows = (
            ("Points", score),
            ("Shutout!" if shut else "Game bonus", game),
            ("Boxes %d:%d" % (wins[0], wins[1]), box),
        )
        y = 16
        for name, v in rows:
            c.text(name, 0, y, 1, SMALL)
            right(c, "%d" % v[0], xs[0], y, SMALL)
            right(c, "%d" % v[1], xs[1], y, SMALL)
            y += 7
        c.hline(0, y, 128, 1)
        y += 2
        c.text("Total", 0, y, 1, NORMAL)
        right(c, "%d" % m.final_tally(0), xs[0], y, NORMAL)
        right(c, "%d" % m.final_tally(1), xs[1], y, NORMAL)
        if len(m.columns) > 1:
            c.text("3 games", 0, 50, 1, SMALL)
        legend(c, [(keys.DRAW_L, "title screen")])
        return 0
