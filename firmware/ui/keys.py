"""Button indices and event kinds as the screens see them (the contract's numbers)."""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
DRAW = const(4)
DISCARD = const(5)
KNOCK = const(6)
MENU = const(7)

PRESS = const(0)
LONG = const(1)
REPEAT = const(2)
RELEASE = const(3)

# Button names on the legend (the short forms fit 128 px with their actions).
DRAW_L = "DRAW"
DISC_L = "DISC"
KNOCK_L = "KNOCK"
MENU_L = "MENU"
UPDN_L = "\u25b2\u25bc"
LR_L = "\u25c0\u25b6"
