"""Menus: the title and the in-game menu (the rules and settings menus are in ui.options).

A menu is a list of rows; UP/DOWN choose a row, LEFT/RIGHT change a value,
DRAW (or DISCARD) picks, MENU goes back.
"""

from gin.levels import LEVELS
from gin.rules import FIELDS, PRESET_TITLES
from modes import CONNECTS, HINTS, LEVELED, MODES, has
from ui import keys
from ui.draw import center, choice_row, header, legend, level_title, menu, title_bar
from ui.font import NORMAL
from ui.screens import (
    FROM_MENU,
    HELP,
    PAUSE,
    PILE,
    RULES,
    RULES_TEXT,
    SETTINGS,
    SHEET,
    STATS,
    TABLE,
    TITLE,
)

MODE_NAMES = ("vs CPU", "2 people", "Watch", "Link cable")  # by play mode


class Menu:
    sid = -1
    title = ""
    msg_y = 56
    nrows = 5

    def __init__(self, app, arg):
        self.sel = 0

    def rows(self, app):
        return []

    def pick(self, app, i, d):
        """Row i chosen (d = 0) or changed (d = -1 / +1)."""

    def back(self, app):
        pass

    def key(self, app, b, kind):
        if kind != keys.PRESS and kind != keys.REPEAT:
            return
        n = len(self.rows(app))
        if b == keys.UP or b == keys.DOWN:
            self.sel = (self.sel + (1 if b == keys.DOWN else -1)) % n
            app.refresh()
        elif b == keys.LEFT or b == keys.RIGHT:
            self.pick(app, self.sel, 1 if b == keys.RIGHT else -1)
            app.refresh()
        elif kind == keys.PRESS and (b == keys.DRAW or b == keys.DISCARD):
            self.pick(app, self.sel, 0)
            app.refresh()
        elif kind == keys.PRESS and b == keys.MENU:
            self.back(app)
            app.refresh()

    def draw_top(self, app, c):
        header(c, self.title)
        return 9

    def legend_slots(self, app):
        return [(keys.UPDN_L, "move"), (keys.DRAW_L, "ok"), (keys.MENU_L, "back")]

    def draw(self, app, c, now):
        rows = self.rows(app)
        if self.sel >= len(rows):
            self.sel = len(rows) - 1
        y0 = self.draw_top(app, c)
        menu(c, rows, self.sel, y0, self.nrows)
        legend(c, self.legend_slots(app))
        return 0


def cycle(v, d, n):
    """The value after v (d = +1 / 0) or before it (d = -1) among 0..n-1, wrapping."""
    return (v + (d if d else 1)) % n


def step_in(values, v, d):
    """The value after v in values (d = +1 / 0) or before it (d = -1)."""
    i = 0
    for k in range(len(values)):
        if values[k] == v:
            i = k
    i = (i + (d if d else 1)) % len(values)
    return values[i]


# --- the title ---------------------------------------------------------------------------


ASK_ROWS = ("No, keep it", "Yes, new game")


class Title(Menu):
    """arg: the item to select (the submenu we come back from).

    New game over a saved match asks first ("Replace the match in progress?"
    with its score and hand), and the answer starts on No.
    """

    sid = TITLE

    def __init__(self, app, arg):
        self.ask = None  # the saved match's line while asking whether to replace it
        items = self.items(app)
        self.sel = items.index(arg) if arg in items else 0

    def items(self, app):
        if self.ask is not None:
            return ["keep", "replace"]
        out = []
        if app.has_save:
            out.append("continue")
        out.append("new")
        if app.has_kept:
            out.append("previous")  # the match the last new one replaced
        out.append("mode")
        if has(app.settings["mode"], LEVELED):
            out.append("level")
        out.extend(("rules", "stats", "settings", "help", "demo"))
        return out

    def rows(self, app):
        if self.ask is not None:
            return list(ASK_ROWS)
        s = app.settings
        out = []
        for it in self.items(app):
            if it == "continue":
                out.append("Continue")
            elif it == "new":
                out.append("Connect" if has(s["mode"], CONNECTS) else "New game")
            elif it == "previous":
                out.append("Previous match")
            elif it == "mode":
                out.append(choice_row("Play", MODE_NAMES[s["mode"]]))
            elif it == "level":
                out.append(choice_row("CPU", level_title(s["level"])))
            elif it == "rules":
                out.append("Rules: " + rules_short(s["rules"]))
            elif it == "stats":
                out.append("Stats")
            elif it == "settings":
                out.append("Settings")
            elif it == "help":
                out.append("How to play")
            else:
                out.append("Demo")
        return out

    def pick(self, app, i, d):
        it = self.items(app)[i]
        s = app.settings
        if it == "mode":
            app.set_setting("mode", cycle(s["mode"], d, MODES))
            return
        if it == "level":
            app.set_setting("level", cycle(s["level"], d, len(LEVELS)))
            return
        if d:
            return
        if it == "keep":
            self._stop_asking(app)
        elif it == "replace":
            self.ask = None
            app.new_game()
        elif it == "continue":
            app.continue_game()
        elif it == "previous":
            app.previous_game()
        elif it == "new":
            line = app.saved_match_line() if app.has_save else None
            if line is None:
                app.new_game()
            else:
                self.ask = line
                self.sel = 0  # No
        elif it == "rules":
            app.goto(RULES)
        elif it == "stats":
            app.goto(STATS)
        elif it == "settings":
            app.goto(SETTINGS)
        elif it == "help":
            app.goto(HELP)
        elif it == "demo":
            app.new_game(True)

    def _stop_asking(self, app):
        self.ask = None
        items = self.items(app)
        self.sel = items.index("new") if "new" in items else 0

    def back(self, app):
        if self.ask is not None:
            self._stop_asking(app)
            return
        self.sel = 0

    def draw_top(self, app, c):
        if self.ask is not None:
            header(c, "NEW GAME")
            center(c, "Replace the match", 9, NORMAL)
            center(c, "in progress?", 18, NORMAL)
            center(c, self.ask, 27, NORMAL)
            return 37
        title_bar(c)  # the bar the boot screen showed (ui/splash.py)
        return 10

    def legend_slots(self, app):
        if self.ask is not None:
            return [(keys.UPDN_L, "move"), (keys.DRAW_L, "ok"), (keys.MENU_L, "back")]
        return [(keys.UPDN_L, "move"), (keys.LR_L, "change"), (keys.DRAW_L, "ok")]


# RuleSet.to_bytes() keeps two bytes per field in gin.rules.FIELDS order: the
# title reads the low bytes of preset, straight, oklahoma and hollywood there
# instead of building a RuleSet for each frame.
_PRESET_AT = 2 * FIELDS.index("preset") + 1
_VARIANTS_AT = (
    (2 * FIELDS.index("straight") + 1, "S"),
    (2 * FIELDS.index("oklahoma") + 1, "O"),
    (2 * FIELDS.index("hollywood") + 1, "H"),
)


def rules_short(rule_bytes):
    """'Classic', 'Modern+OH': the preset and the initials of the variants."""
    v = ""
    for i, ch in _VARIANTS_AT:
        if rule_bytes[i]:
            v += ch
    return PRESET_TITLES[rule_bytes[_PRESET_AT] & 3] + ("+" + v if v else "")


# --- in game --------------------------------------------------------------------------------


class Pause(Menu):
    sid = PAUSE
    title = "MENU"

    def items(self, app):
        out = ["resume", "sort"]
        if app.mode_has(HINTS) and app.settings["hints"]:
            out.append("hint")
        out.extend(("pile", "sheet", "rules", "quit"))
        return out

    def rows(self, app):
        out = []
        for it in self.items(app):
            if it == "resume":
                out.append("Back to the table")
            elif it == "sort":
                out.append(choice_row("Sort", "rank" if app.sort else "suit"))
            elif it == "hint":
                out.append("Hint")
            elif it == "pile":
                out.append("Discard pile")
            elif it == "sheet":
                out.append("Score sheet")
            elif it == "rules":
                out.append("Rules of this game")
            else:
                out.append("Save and quit" if not app.demo else "Quit")
        return out

    def pick(self, app, i, d):
        it = self.items(app)[i]
        if it == "sort":
            app.toggle_sort()
            return
        if d:
            return
        if it == "resume":
            app.goto(TABLE)
        elif it == "hint":
            app.goto(TABLE)
            app.show_hint()
        elif it == "pile":
            app.goto(PILE)
        elif it == "sheet":
            app.goto(SHEET, FROM_MENU)
        elif it == "rules":
            app.goto(RULES_TEXT, (app.match.rules, PAUSE))
        else:
            app.quit_to_title()

    def back(self, app):
        app.goto(TABLE)
