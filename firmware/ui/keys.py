"""Button numbers and event kinds as the screens see them, and the legend's button names.

The numbers are events.py's (the one source, shared with device/), re-exported here so a
screen imports its whole vocabulary from one place.
"""

from events import (  # noqa: F401  (re-exported)
    DISCARD,
    DOWN,
    DRAW,
    KNOCK,
    LEFT,
    LONG,
    MENU,
    PRESS,
    RELEASE,
    REPEAT,
    RIGHT,
    UP,
)

# Button names on the legend (the short forms fit 128 px with their actions).
DRAW_L = "DRAW"
DISC_L = "DISC"
KNOCK_L = "KNOCK"
MENU_L = "MENU"
UPDN_L = "\u25b2\u25bc"
LR_L = "\u25c0\u25b6"
