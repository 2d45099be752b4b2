"""The App <-> screen contract: screen ids, play modes, and which class draws each screen.

A screen is a class in a ``ui`` module (loaded when shown, dropped when another
takes its place) with:

- ``sid``: its id below; ``msg_y``: the row of the App's one-line message (-1: none);
- ``__init__(app, arg)``: ``arg`` is what ``App.goto(sid, arg)`` passed;
- ``key(app, button, kind)``: a button event (numbers from ``ui.keys``);
- ``draw(app, canvas, now)``: the frame; returns ms until it changes by itself (0: static);
- optionally ``tick(app, now)``: called every loop step.

Screens read the App's state (``app.match``, ``app.mode``, ``app.settings``...)
and change it only through App methods (``goto``, ``say``, ``act``, ``new_game``,
``save_settings``, ``reset_stats``, ``saved_match_line``, ``previous_game``, ``battery_mv``, ``ticks_ms``...): never
through ``app.hw`` or ``app.saves``.  See docs/ARCHITECTURE.md.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Screen ids (App.goto's first argument).
TITLE = const(0)
TABLE = const(1)
RESULT = const(2)
SHEET = const(3)
OVER_SCREEN = const(4)
PASS_SCREEN = const(5)
PAUSE = const(6)
RULES = const(7)
SETTINGS = const(8)
STATS = const(9)
HELP = const(10)
PILE = const(11)
TEXT = const(12)
RULES_TEXT = const(13)
LINK_WAIT = const(14)
LINK_RULES = const(15)

# screen id -> (module in ui/, class); a test holds each class's sid to its index
CLASSES = (
    ("menus", "Title"),
    ("table", "Table"),
    ("result", "Result"),
    ("sheet", "Sheet"),
    ("sheet", "GameOver"),
    ("pages", "PassDevice"),
    ("menus", "Pause"),
    ("options", "RulesMenu"),
    ("options", "SettingsMenu"),
    ("pages", "StatsPage"),
    ("pages", "Help"),
    ("pages", "Pile"),
    ("pages", "TextPage"),
    ("pages", "RulesText"),
    ("link", "LinkWait"),
    ("link", "LinkRules"),
)


def module_of(sid):
    """The module that holds screen ``sid``'s class: 'ui.table'."""
    return "ui." + CLASSES[sid][0]


def load(sid):
    """Screen ``sid``'s class, importing its module (deploy's import closure reads the names above)."""
    mod, cls = CLASSES[sid]
    return getattr(__import__("ui." + mod, None, None, (cls,)), cls)


# Play modes (App.mode, settings["mode"]): the saves keep these numbers.
VS_CPU = const(0)
TWO_PEOPLE = const(1)
WATCH = const(2)
LINK = const(3)  # two handhelds on a link cable (or two simulators over TCP)
MODES = const(4)

# Sheet's arg: opened from the in-game menu (MENU goes back) rather than after a hand.
FROM_MENU = const(1)
