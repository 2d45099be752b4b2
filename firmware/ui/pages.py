"""Pages of text: how to play, stats, the discard pile, the rules, passing the device."""

from gin.levels import LEVELS
from launch import drop_module
from ui import keys
from ui.draw import card_str, center, header, label, legend, level_title, scroll_lines, scrolled, verb
from ui.font import NORMAL, SMALL
from ui.screens import HELP as HELP_SCREEN
from ui.screens import PASS_SCREEN, PILE, RULES_TEXT, STATS, TABLE, TEXT, TITLE

LINE = 8
LINK_PAGE = len(LEVELS)  # the stats page after the levels: link-cable matches
TOP = 8
ROWS = 6

HELP = (
    (
        "THE GOAL",
        "Make melds and keep",
        "little deadwood: the",
        "cards in no meld.",
        "Reach the target",
        "score to win.",
    ),
    (
        "MELDS",
        "Set: 3 or 4 cards of",
        "one rank. Run: 3 or",
        "more of one suit in a",
        "row: 5\u2661 6\u2661 7\u2661.",
        "Ace is low: no QKA.",
    ),
    (
        "YOUR TURN",
        "Draw a card: DRAW",
        "from the stock, DISC",
        "the pile's top. Then",
        "DISC throws the card",
        "under the cursor.",
    ),
    (
        "KNOCKING",
        "Deadwood at most the",
        "limit (10)? KNOCK and",
        "throw the cursor",
        "card. No deadwood at",
        "all is gin: a bonus.",
    ),
    (
        "COUNTING",
        "A counts 1, 2 to 10",
        "their pips, J Q K 10.",
        "After a knock the",
        "other player lays off",
        "cards on your melds.",
    ),
    (
        "SCORING",
        "Knock: the difference",
        "in deadwood. Equal or",
        "lower? The defender",
        "undercuts: difference",
        "plus a bonus.",
    ),
    (
        "THE UPCARD",
        "The first card face",
        "up is offered: DISC",
        "takes it, DRAW",
        "passes. If both pass,",
        "the non-dealer draws.",
    ),
    (
        "BUTTONS",
        "\u25c0\u25b6 move the cursor",
        "\u25b2 sort by suit/rank",
        "\u25bc hint or the pile",
        "MENU: score, pile,",
        "rules, save and quit",
    ),
)


class TextPage:
    """Scrolling lines under a title. arg: (title, lines, screen to go back to)."""

    sid = TEXT
    msg_y = 56

    def __init__(self, app, arg):
        self.title, self.lines, self.back_to = arg
        self.top = 0

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        if b == keys.UP or b == keys.DOWN:
            self.top = scrolled(self.top, 1 if b == keys.DOWN else -1, len(self.lines), ROWS)
        elif kind == keys.PRESS and b in (keys.MENU, keys.DRAW, keys.DISCARD):
            app.goto(self.back_to)
        app.refresh()

    def draw(self, app, c, now):
        header(c, self.title)
        scroll_lines(c, self.lines, self.top, ROWS, TOP, LINE)
        legend(c, [(keys.UPDN_L, "scroll"), (keys.MENU_L, "back")])
        return 0


class RulesText(TextPage):
    """A rule set in words. arg: (RuleSet, screen to go back to)."""

    sid = RULES_TEXT

    def __init__(self, app, arg):
        from ui.rulelines import rule_lines

        rules, back_to = arg
        lines = rule_lines(rules)
        drop_module("ui.rulelines")  # the words are made once: their code needn't stay in RAM
        TextPage.__init__(self, app, ("RULES", lines, back_to))


class Help:
    sid = HELP_SCREEN
    msg_y = 56

    def __init__(self, app, arg):
        self.page = 0

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        n = len(HELP)
        if b in (keys.RIGHT, keys.DOWN, keys.DRAW):
            if self.page == n - 1 and b == keys.DRAW:
                app.goto(TITLE, "help")
                return
            self.page = (self.page + 1) % n
        elif b in (keys.LEFT, keys.UP):
            self.page = (self.page - 1) % n
        elif b == keys.MENU:
            app.goto(TITLE, "help")
            return
        app.refresh()

    def draw(self, app, c, now):
        p = HELP[self.page]
        header(c, "HOW TO PLAY \u00b7 " + p[0], "%d/%d" % (self.page + 1, len(HELP)))
        for i in range(1, len(p)):
            c.text(p[i], 1, TOP + (i - 1) * LINE, 1, NORMAL)
        legend(c, [(keys.LR_L, "page"), (keys.DRAW_L, "next"), (keys.MENU_L, "back")])
        return 0


class StatsPage:
    sid = STATS
    msg_y = 56

    def __init__(self, app, arg):
        self.level = app.settings["level"]
        self.top = 0

    def key(self, app, b, kind):
        if kind == keys.LONG and b == keys.KNOCK:
            if self.level == LINK_PAGE:
                app.reset_link_stats()
                return
            app.reset_stats(self.level)
            app.say("Stats of this level reset")
            return
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        if b == keys.LEFT or b == keys.RIGHT:
            self.level = (self.level + (1 if b == keys.RIGHT else -1)) % (LINK_PAGE + 1)
        elif b == keys.UP or b == keys.DOWN:
            n = len(self._lines(app))
            self.top = scrolled(self.top, 1 if b == keys.DOWN else -1, n, ROWS)
        elif kind == keys.PRESS and b in (keys.MENU, keys.DRAW, keys.DISCARD):
            app.goto(TITLE, "stats")
            return
        app.refresh()

    def _lines(self, app):
        if self.level == LINK_PAGE:
            return app.link_stats().lines(0)
        return app.stats.lines(self.level)

    def draw(self, app, c, now):
        if self.level == LINK_PAGE:
            header(c, "STATS \u00b7 link cable", "\u25c0\u25b6")
        else:
            header(c, "STATS \u00b7 vs " + level_title(self.level), "\u25c0\u25b6")
        lines = self._lines(app)
        self.top = scrolled(self.top, 0, len(lines), ROWS)  # another page may have fewer lines
        scroll_lines(c, lines, self.top, ROWS, TOP, LINE)
        legend(c, [(keys.KNOCK_L, "hold: reset"), (keys.MENU_L, "back")])
        return 0


class _AnyKeyToTable:
    """A page in the middle of a hand: any press goes back to the table."""

    def __init__(self, app, arg):
        pass

    def key(self, app, b, kind):
        if kind == keys.PRESS:
            app.goto(TABLE)


class Pile(_AnyKeyToTable):
    """The whole discard pile, oldest first, and the cards the opponent is known to hold."""

    sid = PILE
    msg_y = 56

    def draw(self, app, c, now):
        rnd = app.match.round
        pile = rnd.pile
        header(c, "DISCARD PILE \u00b7 %d" % len(pile), "top last")
        per_row = 8
        first = 0
        if len(pile) > per_row * 4:
            first = len(pile) - per_row * 4  # the oldest scroll away
            first += (per_row - first % per_row) % per_row
        y = TOP
        x = 1
        for i in range(first, len(pile)):
            s = card_str(pile[i])
            if i == len(pile) - 1:
                label(c, s, x - 1, y - 1, NORMAL)
            else:
                c.text(s, x, y, 1, NORMAL)
            x += 16
            if x > 128 - 14:
                x = 1
                y += LINE + 1
        opp = 1 - app.seat
        obs = rnd.observation(app.seat)
        known = obs.opp_known()
        s = "%s holds: " % app.names[opp]
        s += " ".join([card_str(k) for k in known]) if known else "nothing known"
        c.text(s, 0, 50, 1, SMALL)
        legend(c, [("ANY", "back to the table")])
        return 0


class PassDevice(_AnyKeyToTable):
    """Two people: the hand is hidden until the next player takes the device."""

    sid = PASS_SCREEN
    proceed = keys.DRAW
    msg_y = -1

    def draw(self, app, c, now):
        m = app.match
        who = app.names[app.seat]
        rnd = m.round
        dealer = app.names[rnd.dealer]
        header(c, "HAND %d \u00b7 %s %s" % (m.hand_no + 1, dealer, verb(dealer, "deal", "deals")))
        center(c, "Pass the device", 14, NORMAL)
        center(c, "to " + who, 25, NORMAL)
        c.fill_rect(30, 37, 68, 1, 1)
        t = m.columns[0].totals
        center(c, "%s %d \u00b7 %s %d" % (app.names[0], t[0], app.names[1], t[1]), 42, SMALL)
        legend(c, [("ANY", who + ": show my hand")])
        return 0
