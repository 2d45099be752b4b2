"""A hint in words: gin.ai_hint's facts as the message line says them.

'discard 9♦: keeps 14 deadwood and is dead for them'.  Cards are written as a person
writes them ('10♦'), not in the table's card glyphs: a hint is read, not looked at.
"""

from gin.ai_hint import (
    BIG_GIN,
    DISCARD_DEAD,
    DISCARD_SAFE,
    DISCARD_WANTED,
    DISCARD_WAYS,
    DRAW_INSTEAD,
    GIN,
    KNOCK,
    KNOCK_SAFE,
    LAST_KNOCK,
    ONLY_DRAW,
    ONLY_MOVE,
    SPREAD,
    TAKE_BIG_GIN,
    TAKE_DW,
    TAKE_MELD,
    WAIT_GIN,
    WAIT_RISK,
)
from gin.cards import RANKS, SUIT_GLYPHS
from gin.round import ARRANGE, PASS


def card_name(c):
    """'9♦', '10♠', 'K♥': a card as a person writes it."""
    r = c % 13
    return ("10" if r == 9 else RANKS[r]) + SUIT_GLYPHS[c // 13]


def reason(a, facts):
    """The hint for action a, in words."""
    why, c, n = facts
    if why == ONLY_DRAW:
        return "draw: the stock is the only choice"
    if why == ONLY_MOVE:
        return "the only move"
    if why == BIG_GIN:
        return "big gin: all 11 cards meld"
    if why == SPREAD:
        return "spread %d: fewest lay-offs" % (a - ARRANGE + 1)
    if c < 0:
        return "the best move"
    name = card_name(c)
    if why == TAKE_MELD:
        return "take %s: it joins a meld" % name
    if why == TAKE_DW:
        return "take %s: deadwood down to %d" % (name, n)
    if why == DRAW_INSTEAD:
        return "%s: %s doesn't help enough" % ("pass" if a == PASS else "draw", name)
    if why == KNOCK_SAFE:
        return "knock with %s: %d deadwood, no undercut risk" % (name, n)
    if why == KNOCK:
        return "knock with %s: %d deadwood" % (name, n)
    if why == LAST_KNOCK:
        return "knock with %s: the stock is out" % name
    if why == GIN:
        return "gin! knock with %s" % name
    if why == TAKE_BIG_GIN:
        return "take %s: big gin!" % name
    if why == WAIT_GIN:
        return "discard %s: don't knock, gin is likely" % name
    if why == WAIT_RISK:
        return "discard %s: knocking risks an undercut" % name
    if why == DISCARD_WAYS:
        return "discard %s: %d deadwood, more ways to meld" % (name, n)
    if why == DISCARD_DEAD:
        return "discard %s: keeps %d deadwood and is dead for them" % (name, n)
    if why == DISCARD_SAFE:
        return "discard %s: keeps %d deadwood and looks safe" % (name, n)
    if why == DISCARD_WANTED:
        return "discard %s: keeps %d deadwood (they may want it)" % (name, n)
    return "the best move"
