"""The hint: the move hard (or the expert) would make for the person, with a one-line reason.

Loaded only when a hint is asked for: easy and normal games then carry neither this nor the hard
player's code (gin/ai.py ``hint`` forwards here).
"""

from gin import ai_eval as E
from gin.ai import card_name, make_player
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
from gin.round import ARRANGE, DRAW_STOCK, PASS

_HINTERS = [None, None]


def hint(obs, expert=False):
    """(action, reason) for the person's side: the hard player's choice (the
    expert's with expert=True) and a one-line reason, e.g.
    'discard 9♦: keeps 14 deadwood and is dead for them'."""
    i = 1 if expert else 0
    p = _HINTERS[i]
    if p is None:
        p = _HINTERS[i] = make_player("expert" if expert else "hard", 0)
    a = p.choose(obs)
    return a, _reason(p, obs, a)


def _reason(p, obs, a):
    why = p.why
    if len(obs.legal) == 1:
        if a == DRAW_STOCK:
            return "draw: the stock is the only choice"
        return "the only move"
    if why == R_TAKE_MELD:
        return "take %s: it joins a meld" % card_name(p.why_card)
    if why == R_TAKE_DW:
        return "take %s: deadwood down to %d" % (card_name(p.why_card), p.why_dw)
    if why == R_DRAW:
        return "%s: %s doesn't help enough" % ("pass" if a == PASS else "draw", card_name(p.why_card))
    if why == R_KNOCK:
        if p.why_risk < 16:
            return "knock with %s: %d deadwood, no undercut risk" % (card_name(p.why_card), p.why_dw)
        return "knock with %s: %d deadwood" % (card_name(p.why_card), p.why_dw)
    if why == R_LAST_KNOCK:
        return "knock with %s: the stock is out" % card_name(p.why_card)
    if why == R_GIN:
        return "gin! knock with %s" % card_name(p.why_card)
    if why == R_BIG_GIN:
        return "big gin: all 11 cards meld"
    if why == R_TAKE_BIG_GIN:
        return "take %s: big gin!" % card_name(obs.pile[-1])
    if why == R_SPREAD:
        return "spread %d: fewest lay-offs" % (a - ARRANGE + 1)
    if why in (R_DISCARD, R_WAIT_GIN, R_WAIT_RISK):
        c = p.why_card
        name = card_name(c)
        if why == R_WAIT_GIN:
            return "discard %s: don't knock, gin is likely" % name
        if why == R_WAIT_RISK:
            return "discard %s: knocking risks an undercut" % name
        if p.why_dw > p.why_best:
            return "discard %s: %d deadwood, more ways to meld" % (name, p.why_dw)
        live_set, runs = E.deadness(p.sc, c)
        if live_set < 2 and runs == 0:
            tail = "and is dead for them"
        elif E.danger(p.sc, c) < 40:
            tail = "and looks safe"
        else:
            tail = "(they may want it)"
        return "discard %s: keeps %d deadwood %s" % (name, p.why_dw, tail)
    return "the best move"
