"""The arena's match loop, in code that runs unchanged on CPython and MicroPython.

host_tools/bench/arena.py imports it on the host and sends its source text to the
MicroPython WebAssembly port for --micropython runs, so both report the same
numbers for the same seeds.  No type hints, no host-only modules here.
"""

from gin import rules as gin_rules
from gin.ai import make_player
from gin.cards import mix_seed
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import BIG_GIN_WIN, CANCELLED, GIN, KNOCK_WIN, UNDERCUT

# Fields of a match's stats list (ints), in order.
FIELDS = (
    "a_won",  # 1 if player A won the match
    "b_won",
    "drawn",  # Hollywood: equal sums
    "hands",
    "a_points",  # points A scored in hands (before game and box bonuses)
    "b_points",
    "a_hands",  # hands won
    "b_hands",
    "a_gin",  # gin or big gin by A
    "b_gin",
    "a_undercut",  # A undercut B (A defended and won)
    "b_undercut",
    "a_knock",  # A knocked (any result except gin)
    "b_knock",
    "cancelled",
    "turns",  # draws in all hands
    "a_tally",  # final tallies (totals + bonuses)
    "b_tally",
    "a_decisions",
    "b_decisions",
    "illegal",  # actions a player chose that were not legal (must stay 0)
)
N_FIELDS = len(FIELDS)

# the upcard option's value name (gin.rules'), a --variant of its own
DEALER_PLAYS = gin_rules.OFFER_NAMES[gin_rules.OFFER_DEALER_PLAYS]
VARIANTS = ("straight", "oklahoma", "oklahoma_spade_double", "hollywood", "gin_forced", "big_gin")


def make_rules(preset, variants, target=0):
    opts = {}
    for v in variants:
        if v == DEALER_PLAYS:
            opts["upcard_offer"] = gin_rules.OFFER_DEALER_PLAYS
        else:
            opts[v] = True
    if target:
        opts["target"] = target
    return gin_rules.RuleSet.preset_rules(preset, **opts)


def match_seed(seed, i):
    """Matches 2k and 2k+1 share the deals; A deals first in one, B in the other."""
    return mix_seed(seed, 1000 + i // 2)


def play_match(rules, seed, i, level_a, level_b, clock=None, times=None):
    """Play match i of a run; return its stats list (see FIELDS).

    clock: a function returning microseconds, or None; times: a pair of lists
    that receive each decision's duration for A and B."""
    ms = match_seed(seed, i)
    m = Match(rules, ms)
    a_first = i % 2 == 0
    a_seat = m.dealer if a_first else 1 - m.dealer
    players = [None, None]
    players[a_seat] = make_player(level_a, mix_seed(ms, 11 + (i & 1)))
    players[1 - a_seat] = make_player(level_b, mix_seed(ms, 21 + (i & 1)))
    st = [0] * N_FIELDS
    while True:
        if m.state == HAND_OVER:
            m.next_hand()
            players[0].reset_hand()
            players[1].reset_hand()
        elif m.state == GAME_OVER:
            break
        rnd = m.round
        p = rnd.player
        obs = m.observation(p)
        who = 0 if p == a_seat else 1
        if clock is not None:
            t0 = clock()
            a = players[p].choose(obs)
            times[who].append(clock() - t0)
        else:
            a = players[p].choose(obs)
        st[18 + who] += 1
        if a not in obs.legal:
            st[20] += 1
            raise ValueError("illegal action %r by %s in phase %d" % (a, players[p].level, obs.phase))
        m.apply(a)
        if rnd.result is not None:
            _count_hand(st, rnd, a_seat)
    w = m.winner
    if w < 0:
        st[2] = 1
    elif w == a_seat:
        st[0] = 1
    else:
        st[1] = 1
    st[16] = m.final_tally(a_seat)
    st[17] = m.final_tally(1 - a_seat)
    return st


def _count_hand(st, rnd, a_seat):
    r = rnd.result
    st[3] += 1
    st[15] += rnd.turns
    if r.kind == CANCELLED:
        st[14] += 1
        return
    wa = r.winner == a_seat
    if wa:
        st[4] += r.points
        st[6] += 1
    else:
        st[5] += r.points
        st[7] += 1
    ka = r.knocker == a_seat
    if r.kind == GIN or r.kind == BIG_GIN_WIN:
        st[8 if ka else 9] += 1
    elif r.kind == UNDERCUT:
        st[10 if not ka else 11] += 1
        st[12 if ka else 13] += 1
    elif r.kind == KNOCK_WIN:
        st[12 if ka else 13] += 1


def play_range(rules, seed, start, stop, level_a, level_b, clock=None, times=None):
    """Stats summed over matches start..stop-1."""
    tot = [0] * N_FIELDS
    for i in range(start, stop):
        st = play_match(rules, seed, i, level_a, level_b, clock, times)
        for k in range(N_FIELDS):
            tot[k] += st[k]
    return tot
