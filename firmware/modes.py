"""The play modes as data: who sits in each seat, what a mode's players are called, what it does.

A mode is a row of the tables below, read by play.py (who moves), games.py (what a
move leads to) and the screens (``App.mode_has``): adding a mode is adding a row,
not a branch in each of them.  The numbers are kept by the saves and settings.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


VS_CPU = const(0)
TWO_PEOPLE = const(1)
WATCH = const(2)
LINK = const(3)  # two handhelds on a link cable (or two simulators over TCP)
MODES = const(4)

# Who makes a seat's moves.
PERSON = const(0)  # the person holding this handheld, with its buttons
COMPUTER = const(1)  # a computer player, paced like a person (play_computer.py)
PASSER = const(2)  # a person who takes the handheld when it is passed (the pass screen first)
CABLE = const(3)  # the other handheld's player, over the link cable (play_cable.py)

# What a mode does (bits).
LEVELED = const(1)  # a computer plays: the level setting applies
HINTS = const(2)  # the person may ask for a hint (when the setting allows)
LEVEL_STATS = const(4)  # hands and matches count in the statistics against the level
LINK_STATS = const(8)  # ... in the link-cable statistics
TURN_BEEP = const(16)  # a beep when the computer hands the turn back
WATCHING = const(32)  # nobody plays with the buttons: the computers play each other
CONNECTS = const(64)  # a match starts by finding the other handheld ("Connect")

# Per mode: (this handheld's seat, the other seat) ...
SEATS = ((PERSON, COMPUTER), (PASSER, PASSER), (COMPUTER, COMPUTER), (PERSON, CABLE))
# ... what players 0 and 1 are called when this handheld sits in seat 0 ...
NAMES = (("You", "CPU"), ("P1", "P2"), ("North", "South"), ("You", "Other"))
# ... and what the mode does.
FLAGS = (
    LEVELED | HINTS | LEVEL_STATS | TURN_BEEP,
    0,
    LEVELED | WATCHING,
    LINK_STATS | CONNECTS,
)


def has(mode, flag):
    return FLAGS[mode] & flag != 0
