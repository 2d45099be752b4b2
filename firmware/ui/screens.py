"""The App <-> screen contract: screen ids, which class draws each screen, and what a screen may use.

A screen is a class in a ``ui`` module (loaded when shown, dropped when another
takes its place) with:

- ``sid``: its id below; ``msg_y``: the row of the App's one-line message (-1: none);
- ``__init__(app, arg)``: ``arg`` is what ``App.goto(sid, arg)`` passed;
- ``key(app, button, kind)``: a button event (numbers from ``ui.keys``).  A ``goto`` asked
  here takes effect when ``key`` returns, so a screen never runs on after it was replaced;
- ``draw(app, canvas, now)``: the whole frame; returns ms until it changes by itself (0: static);
- optionally ``update(app, canvas, now)``: redraw only what changed since this screen's own
  last frame (the canvas still holds it) and set ``damage`` to the pages touched,
  ``[(first page, last page, first column, last column)]``; return False to ask for ``draw``;
- optionally ``tick(app, now)``: called every loop step;
- optionally ``proceed``: the button that moves a match along from this screen (a result, a
  score sheet, the pass screen, the rules offered over the cable), -1 while it waits for the
  other player; ``last = True`` on the match's last screen.  The host's auto-player reads it,
  and the table's ``keys_for``, instead of knowing screens.

A screen reads the App (``APP_READS``) and changes it only through the App's
methods (``APP_CALLS``); it asks ``app.refresh()`` for a new frame when its own
state changed.  tests/test_seams.py holds every screen to both lists.
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


# What a screen may read of the App ...
APP_READS = (
    "match",  # gin.match.Match, or None
    "mode",  # modes.py's play mode; mode_has(flag) asks what it does
    "level",
    "demo",
    "seat",  # the player whose hand is shown (on a link: this handheld's)
    "sort",
    "cursor",
    "notes",  # each player's last visible move: (action, card) or None
    "names",
    "thinking",  # the computer to move shows the thinking mark
    "settings",  # read only: set_setting changes one
    "stats",
    "msg",
    "has_save",
    "has_kept",
)
# ... and the App's methods it may call.
APP_CALLS = (
    "goto",
    "refresh",
    "say",
    "act",
    "set_cursor",
    "toggle_sort",
    "set_setting",
    "save_settings",
    "apply_contrast",
    "mode_has",
    "is_human",
    "hint",
    "show_hint",
    "new_game",
    "continue_game",
    "previous_game",
    "saved_match_line",
    "next_hand",
    "end_match",
    "quit_to_title",
    "reset_stats",
    "reset_link_stats",
    "link_stats",
    "link_accept",
    "link_cancel",
    "link_paused",
    "link_status",
    "message_line",
    "battery_mv",
    "ticks_ms",
)

# Sheet's arg: opened from the in-game menu (MENU goes back) rather than after a hand.
FROM_MENU = const(1)
