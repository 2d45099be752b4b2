"""What the hardware tells the rest: button events and the clock they are stamped with.

An event is a small int ``button * 4 + kind``.  The numbers live here, below both
device/ (which makes events) and ui/ (whose screens read them), so that a screen
never imports device code; ``ticks_diff`` compares two ``ticks_ms`` stamps the
way ``time.ticks_diff`` does, on the host too.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


BUTTON_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "DRAW", "DISCARD", "KNOCK", "MENU")
UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
DRAW = const(4)
DISCARD = const(5)
KNOCK = const(6)
MENU = const(7)
COUNT = const(8)

PRESS = const(0)
LONG = const(1)
REPEAT = const(2)
RELEASE = const(3)
KIND_NAMES = ("press", "long", "repeat", "release")

# ticks_ms wraps at 2**30 on MicroPython.
_PERIOD = const(1 << 30)
_HALF = const(1 << 29)


def ticks_diff(a, b):
    """a - b for ticks that wrap at 2**30, like time.ticks_diff."""
    d = (a - b) & (_PERIOD - 1)
    if d >= _HALF:
        d -= _PERIOD
    return d


def event(button, kind):
    return button * 4 + kind


def event_text(ev):
    return BUTTON_NAMES[ev >> 2] + " " + KIND_NAMES[ev & 3]
