"""The hint: the move hard (or the expert) would make for the person, and why, as facts.

Loaded only when a hint is asked for: easy and normal games then carry neither this nor the hard
player's code (gin/ai.py ``hint`` forwards here).  The words are the screens' (ui/hintwords.py):
the rules core says why in numbers, ``(reason, card, count)``.
"""

from gin import ai_eval as E
from gin.ai import make_player
from gin.ai_hard import (
    R_BIG_GIN,
    R_DISCARD,
    R_DRAW,
    R_GIN,
    R_KNOCK,
    R_LAST_KNOCK,
    R_SPREAD,
    R_TAKE_BIG_GIN,
    R_TAKE_DW,
    R_TAKE_MELD,
    R_WAIT_GIN,
    R_WAIT_RISK,
)
from gin.round import DRAW_STOCK

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# The reasons (the first of a hint's facts).
ONLY_DRAW = const(0)  # the stock is the only choice
ONLY_MOVE = const(1)
TAKE_MELD = const(2)  # the card taken joins a meld
TAKE_DW = const(3)  # taking the card brings the deadwood down to count
DRAW_INSTEAD = const(4)  # the card offered doesn't help enough (draw, or pass the upcard)
KNOCK_SAFE = const(5)  # knock with count deadwood, no undercut risk
KNOCK = const(6)  # knock with count deadwood
LAST_KNOCK = const(7)  # knock: the stock is out
GIN = const(8)
BIG_GIN = const(9)
TAKE_BIG_GIN = const(10)
SPREAD = const(11)  # the spread with the fewest lay-offs (count: its number, from 1)
WAIT_GIN = const(12)  # discard; don't knock, gin is likely
WAIT_RISK = const(13)  # discard; knocking risks an undercut
DISCARD_WAYS = const(14)  # discard: count deadwood, more ways to meld
DISCARD_DEAD = const(15)  # discard: keeps count deadwood and the card is dead for them
DISCARD_SAFE = const(16)  # ... and looks safe
DISCARD_WANTED = const(17)  # ... (they may want it)
BEST = const(18)

_HINTERS = [None, None]


def hint(obs, expert=False):
    """(action, (reason, card, count)) for the person's side: the hard player's choice (the
    expert's with expert=True) and why (ui/hintwords.py says it in words)."""
    i = 1 if expert else 0
    p = _HINTERS[i]
    if p is None:
        p = _HINTERS[i] = make_player("expert" if expert else "hard", 0)
    a = p.choose(obs)
    return a, _reason(p, obs, a)


def _reason(p, obs, a):
    why = p.why
    c = p.why_card
    dw = p.why_dw
    if len(obs.legal) == 1:
        return (ONLY_DRAW if a == DRAW_STOCK else ONLY_MOVE, -1, 0)
    if why == R_TAKE_MELD:
        return (TAKE_MELD, c, 0)
    if why == R_TAKE_DW:
        return (TAKE_DW, c, dw)
    if why == R_DRAW:
        return (DRAW_INSTEAD, c, 0)
    if why == R_KNOCK:
        return (KNOCK_SAFE if p.why_risk < 16 else KNOCK, c, dw)
    if why == R_LAST_KNOCK:
        return (LAST_KNOCK, c, 0)
    if why == R_GIN:
        return (GIN, c, 0)
    if why == R_BIG_GIN:
        return (BIG_GIN, -1, 0)
    if why == R_TAKE_BIG_GIN:
        return (TAKE_BIG_GIN, obs.pile[-1], 0)
    if why == R_SPREAD:
        return (SPREAD, -1, 0)
    if why == R_WAIT_GIN:
        return (WAIT_GIN, c, 0)
    if why == R_WAIT_RISK:
        return (WAIT_RISK, c, 0)
    if why == R_DISCARD:
        if dw > p.why_best:
            return (DISCARD_WAYS, c, dw)
        live_set, runs = E.deadness(p.sc, c)
        if live_set < 2 and runs == 0:
            return (DISCARD_DEAD, c, dw)
        if E.danger(p.sc, c) < 40:
            return (DISCARD_SAFE, c, dw)
        return (DISCARD_WANTED, c, dw)
    return (BEST, -1, 0)
