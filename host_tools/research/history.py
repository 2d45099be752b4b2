"""The public record of a hand, as host_tools/research/posterior.py's filter reads it.

While a research tool plays, every Observation carries ``history``: what its player knows of the
hand so far, in order (its dealt hand, the upcard, every take, pass and throw with its card, the
opponent's stock draws and knock card hidden, and at each opponent decision the public parts of
what the opponent saw).  ``log_of`` builds it from the round's action record on a shadow round;
``init_with_history`` is the Observation constructor that adds it (and the truth that labels
--auc's rows, never read by the filter or the player).
"""

from __future__ import annotations

from gin import round as gin_round
from gin.round import DISCARD_PHASE, DRAW_STOCK, KNOCK, PASS, TAKE_DISCARD

HIDDEN = -1  # the card of an opponent's stock draw, as the expert sees it

# --- the public event stream --------------------------------------------------------

plain_init = gin_round.Observation.__init__
_hand_seq = [0]


def log_of(rnd):
    """The round's action record replayed on a shadow round, one raw record per
    action: (actor, phase, action, card, actor's view before acting).  Cached on
    the round and extended as the hand goes on."""
    log = rnd.__dict__.get("_post_log")
    if log is None:
        shadow = gin_round.Round(rnd.rules, rnd.dealer, rnd.seed, rnd.deck)
        _hand_seq[0] += 1
        log = {
            "id": _hand_seq[0],
            "shadow": shadow,
            "dealt": [list(shadow.hands[0]), list(shadow.hands[1])],
            "raw": [],
        }
        rnd.__dict__["_post_log"] = log
    shadow = log["shadow"]
    raw = log["raw"]
    while len(raw) < len(rnd.actions):
        a = rnd.actions[len(raw)]
        p = shadow.player
        ph = shadow.phase
        card = -1
        if a == TAKE_DISCARD:
            card = shadow.pile[-1]
        elif a == PASS:
            card = shadow.upcard
        elif a == DRAW_STOCK:
            card = shadow.deck[shadow.stock_pos]  # private to the actor
        elif ph == DISCARD_PHASE and a < 52:
            card = a
        elif ph == DISCARD_PHASE and KNOCK <= a < KNOCK + 52:
            card = a - KNOCK  # face down: private to the actor
        view = _plain_obs(shadow, p)
        view.hand = None  # the actor's cards: never part of the record
        if ph == DISCARD_PHASE:
            view.legal = None  # derived from the hand
        raw.append((p, ph, a, card, view))
        shadow.apply(a)
    return log


def _plain_obs(rnd, p):
    o = gin_round.Observation.__new__(gin_round.Observation)
    plain_init(o, rnd, p)
    return o


class History:
    """What player `me` knows of the hand so far: its dealt hand, the upcard, and
    the events in order as (mine?, phase, action, card, opponent's view); the
    card of an opponent's stock draw or knock is HIDDEN, the opponent's view
    (public parts of its Observation at its decision) is None for my events."""

    __slots__ = ("hand_id", "dealt", "upcard", "events")

    def __init__(self, log, me):
        self.hand_id = log["id"]
        self.dealt = log["dealt"][me]
        self.upcard = log["shadow"].upcard
        ev = []
        for p, ph, a, card, view in log["raw"]:
            if p == me:
                ev.append((True, ph, a, card, None))
            else:
                hidden = a == DRAW_STOCK or (ph == DISCARD_PHASE and a >= KNOCK)
                ev.append((False, ph, a, HIDDEN if hidden else card, view))
        self.events = ev


def init_with_history(self, rnd, me):
    plain_init(self, rnd, me)
    self.history = History(log_of(rnd), me)  # public, for the filter
    self.oracle_opp = list(rnd.hands[1 - me])  # the truth: labels of --auc only
