"""What a computer player knows and how it scores hands: card tracking, the
opponent model, meld potential, discard danger and lay-off risk.

Everything here reads an Observation (never the opponent's cards or the stock
order) and writes into a Scratch that the player keeps between decisions, so a
decision allocates almost nothing under MicroPython.  Scores are small ints in
1/16 of a deadwood point: no floats (they are heap objects on the RP2040).

The opponent model gives every card a weight 0..255: how likely the opponent
holds it.  0: mine or in the pile; 255: the opponent took it from the pile and
still has it; otherwise a share of the opponent's unknown cards, lowered near
cards they threw or passed (a player keeps cards that go together) and raised
near cards they took.
"""

from gin.cards import RANK_VALUES
from gin.melds import deadwood4, deadwood_after_discard4
from gin.round import TAKE_DISCARD

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


FULL = const(0x1FFF)
KNOWN = const(255)  # weight of a card the opponent surely holds
BASE = const(16)  # neutral likelihood of an unseen card

# Likelihood steps (added to BASE) for an unseen card near a signal card, by
# distance: same rank in another suit, same suit one rank away, two away.
_THREW = (-5, -4, -2)
_PASSED = (-3, -2, -1)
_TOOK = (10, 8, 4)


def fingerprint(obs):
    """A small int from the public state: the salt of a decision's random stream."""
    h = obs.hand
    x = h[0] ^ (h[1] << 1) ^ (h[2] << 2) ^ (h[3] << 3)
    x = (x * 31 + len(obs.pile)) & 0xFFFF
    x = (x * 31 + obs.stock_size + 53 * obs.phase) & 0xFFFF
    x = (x * 31 + (obs.pile[-1] if obs.pile else 52)) & 0xFFFF
    return x


class Scratch:
    """Per-player buffers, reused by every decision (the player's retained state)."""

    __slots__ = (
        "w",
        "lr",
        "lq",
        "ls",
        "un",
        "pile",
        "ok",
        "qsum",
        "n_unk",
        "limit",
        "gc",
        "kv",
        "kbase",
        "ginb",
    )

    def __init__(self):
        self.w = bytearray(52)  # opponent-holds weight per card
        self.lr = bytearray(52)  # live cards (drawable later), grouped by suit: rank
        self.lq = bytearray(52)  # ... and the chance it is in the stock, 1..256 scaled to 1..255
        self.ls = bytearray(5)  # start index of each suit's live cards in lr/lq
        self.un = [0, 0, 0, 0]  # unseen: not mine, not in the pile, not known in the opponent's hand
        self.pile = [0, 0, 0, 0]
        self.ok = [0, 0, 0, 0]  # known in the opponent's hand
        self.qsum = 1
        self.n_unk = 0  # opponent cards not known to me
        self.limit = 10  # the hand's knock limit
        self.gc = 0  # set by gain16: chance (0..256) the next draw makes gin
        self.kv = 0  # set by gain16: expected knock value after the next draw (1/16 point)
        self.kbase = 20  # the opponent's likely deadwood, for kv
        self.ginb = 0  # gin bonus, for kv


def load(sc, obs, model):
    """Fill the scratch from an observation.  model=False: every unseen card
    gets the same weight (no reading of the opponent's signals)."""
    h = obs.hand
    pile = sc.pile
    ok = sc.ok
    un = sc.un
    for s in range(4):
        pile[s] = 0
        ok[s] = 0
    for c in obs.pile:
        pile[c // 13] |= 1 << (c % 13)
    n_ok = 0
    for c in obs.opp_took:
        # taken and not thrown back since: still in their hand
        if obs.opp_took.count(c) > obs.opp_threw.count(c):
            bit = 1 << (c % 13)
            if not ok[c // 13] & bit:
                ok[c // 13] |= bit
                n_ok += 1
    for s in range(4):
        un[s] = FULL & ~(h[s] | pile[s] | ok[s])
    n_unk = obs.opp_hand_size - n_ok
    if n_unk < 0:
        n_unk = 0
    sc.n_unk = n_unk
    w = sc.w
    # likelihoods first (BASE-centred), in w; then scale to weights
    for c in range(52):
        s = c // 13
        bit = 1 << (c - s * 13)
        if un[s] & bit:
            w[c] = BASE
        elif ok[s] & bit:
            w[c] = KNOWN
        else:
            w[c] = 0
    if model:
        for c in obs.opp_threw:
            _nudge(w, c, _THREW)
        for c in obs.opp_passed:
            _nudge(w, c, _PASSED)
        for s in range(4):
            m = ok[s]
            r = 0
            while m:
                if m & 1:
                    _nudge(w, s * 13 + r, _TOOK)
                m >>= 1
                r += 1
    tot = 0
    for c in range(52):
        x = w[c]
        if 0 < x < KNOWN:
            tot += x
    # weight = likelihood * n_unk / total, in 1/256: the weights of unseen cards sum to n_unk
    if tot:
        for c in range(52):
            x = w[c]
            if 0 < x < KNOWN:
                y = (x * n_unk * 256) // tot
                if y > 250:
                    y = 250
                elif y < 1:
                    y = 1
                w[c] = y
    # live cards for my later draws: unseen, weighted by the chance they are in the stock
    lr = sc.lr
    lq = sc.lq
    ls = sc.ls
    i = 0
    qsum = 0
    for s in range(4):
        ls[s] = i
        m = un[s]
        r = 0
        while m:
            if m & 1:
                q = 256 - w[s * 13 + r]
                if q > 255:
                    q = 255
                lr[i] = r
                lq[i] = q
                qsum += q
                i += 1
            m >>= 1
            r += 1
    ls[4] = i
    sc.qsum = qsum if qsum else 1
    sc.limit = obs.knock_limit


def _nudge(w, c, steps):
    """Shift the likelihood of unseen cards near card c (only cards still unknown)."""
    s = c // 13
    r = c - s * 13
    d = steps[0]
    for t in range(4):
        if t != s:
            _add(w, t * 13 + r, d)
    d = steps[1]
    if r > 0:
        _add(w, c - 1, d)
    if r < 12:
        _add(w, c + 1, d)
    d = steps[2]
    if r > 1:
        _add(w, c - 2, d)
    if r < 11:
        _add(w, c + 2, d)


def _add(w, c, d):
    x = w[c]
    if x == 0 or x == KNOWN:
        return
    x += d
    if x < 2:
        x = 2
    elif x > 60:
        x = 60
    w[c] = x


# --- potential: what the next draw is worth -----------------------------------


def gain16(sc, a, b, c, d, dw):
    """Expected deadwood saved by the next stock draw (in 1/16 point) for the
    10-card hand (a, b, c, d) of deadwood dw.  Each live card u is weighted by
    the chance it is in the stock and scored by how much the best discard
    after drawing it lowers the count.

    Only cards that can join a meld need the meld search: any other card u
    stays deadwood, so drawing it saves exactly max(0, m - value(u)) where m
    is what the best single discard of the 10 cards saves (one search).

    Also sets sc.kv, the expected value of being able to knock after that
    draw (the opponent's likely count sc.kbase less my count, plus the gin
    bonus for gin), and sc.gc, the chance the draw makes gin."""
    lr = sc.lr
    lq = sc.lq
    ls = sc.ls
    vals = RANK_VALUES
    m = dw - deadwood_after_discard4(a, b, c, d)
    # ranks held in 2+ suits other than s, per suit s: a third card makes a set
    ab = a & b
    cd = c & d
    p0 = (b & (c | d)) | cd
    p1 = (a & (c | d)) | cd
    p2 = (d & (a | b)) | ab
    p3 = (c & (a | b)) | ab
    tot = 0
    gq = 0
    kv = 0
    lim = sc.limit
    base = sc.kbase
    ginb = sc.ginb
    for s in range(4):
        if s == 0:
            h = a
            pm = p0
        elif s == 1:
            h = b
            pm = p1
        elif s == 2:
            h = c
            pm = p2
        else:
            h = d
            pm = p3
        near = pm | (h << 1 & h << 2) | (h >> 1 & h << 1) | (h >> 1 & h >> 2)
        i = ls[s]
        e = ls[s + 1]
        while i < e:
            r = lr[i]
            bit = 1 << r
            if near & bit:
                if s == 0:
                    x = dw - deadwood_after_discard4(a | bit, b, c, d)
                elif s == 1:
                    x = dw - deadwood_after_discard4(a, b | bit, c, d)
                elif s == 2:
                    x = dw - deadwood_after_discard4(a, b, c | bit, d)
                else:
                    x = dw - deadwood_after_discard4(a, b, c, d | bit)
            else:
                x = m - vals[r]
                if x < 0:
                    x = 0
            if x > 0:
                tot += x * lq[i]
            if dw - x <= lim:
                k = dw - x
                if k == 0:
                    gq += lq[i]
                    kv += (base + ginb) * lq[i]
                else:
                    kv += (base - k) * lq[i]
            i += 1
    sc.gc = (gq * 256) // sc.qsum
    sc.kv = (kv * 16) // sc.qsum
    return (tot * 16) // sc.qsum


# --- danger: could the opponent use my discard? -------------------------------


def danger(sc, card):
    """Chance (0..256) that the opponent holds two cards that meld with card."""
    w = sc.w
    s = card // 13
    r = card - s * 13
    x = w[((s + 1) & 3) * 13 + r]
    y = w[((s + 2) & 3) * 13 + r]
    z = w[((s + 3) & 3) * 13 + r]
    p = x * y + x * z + y * z
    if r > 1:
        p += w[card - 2] * w[card - 1]
    if 0 < r < 12:
        p += w[card - 1] * w[card + 1]
    if r < 11:
        p += w[card + 1] * w[card + 2]
    p >>= 8
    return p if p < 256 else 256


def deadness(sc, card):
    """(cards of card's rank the opponent could still hold, run pairs around it
    they could still hold): (0 or 1, 0) means nobody can meld it any more, the
    hint's "dead for them"."""
    w = sc.w
    s = card // 13
    r = card - s * 13
    live_set = 0
    for t in range(4):
        if t != s and w[t * 13 + r]:
            live_set += 1
    runs = 0
    if r > 1 and w[card - 2] and w[card - 1]:
        runs += 1
    if 0 < r < 12 and w[card - 1] and w[card + 1]:
        runs += 1
    if r < 11 and w[card + 1] and w[card + 2]:
        runs += 1
    return live_set, runs


# --- lay-off risk of a spread --------------------------------------------------


def layoff_risk(sc, melds_list):
    """Sum of opponent weights of the cards that could be laid off on these melds."""
    w = sc.w
    risk = 0
    for meld in melds_list:
        c0 = meld[0]
        if len(meld) == 3 and meld[1] % 13 == c0 % 13:
            r = c0 % 13
            seen = 0
            for c in meld:
                seen |= 1 << (c // 13)
            for t in range(4):
                if not seen >> t & 1:
                    risk += w[t * 13 + r]
        elif meld[1] % 13 != c0 % 13:
            lo = min(meld) % 13  # a run: one suit, so the lowest card has the lowest rank
            hi = max(meld) % 13
            base = (c0 // 13) * 13
            if lo > 0:
                risk += w[base + lo - 1]
            if hi < 12:
                risk += w[base + hi + 1]
    return risk


def layoff_value(sc, h):
    """What the opponent may lay off on the melds of 10 cards h, in 1/16 point:
    each card that would extend a run of h or complete a set of three, weighted
    by the chance they hold it."""
    w = sc.w
    tot = 0
    for s in range(4):
        m = h[s]
        starts = m & m >> 1 & m >> 2
        cover = starts | starts << 1 | starts << 2
        ends = (cover << 1 | cover >> 1) & ~m & FULL
        r = 0
        while ends:
            if ends & 1:
                tot += w[s * 13 + r] * RANK_VALUES[r]
            ends >>= 1
            r += 1
    for r in range(13):
        bit = 1 << r
        n = 0
        miss = 0
        for s in range(4):
            if h[s] & bit:
                n += 1
            else:
                miss = s
        if n == 3:
            tot += w[miss * 13 + r] * RANK_VALUES[r]
    return tot // 16


def without(h, c, out):
    """out = h minus card c (out is a 4-list the caller reuses)."""
    out[0] = h[0]
    out[1] = h[1]
    out[2] = h[2]
    out[3] = h[3]
    out[c // 13] &= ~(1 << (c % 13))


def joins_meld(h, card):
    """True if card forms a set or a run with two or more cards of hand h."""
    s = card // 13
    r = card - s * 13
    bit = 1 << r
    n = 0
    for t in range(4):
        if t != s and h[t] & bit:
            n += 1
    if n >= 2:
        return True
    m = h[s]
    if m >> r + 1 & m >> r + 2 & 1:
        return True
    if r > 0 and m >> r - 1 & m >> r + 1 & 1:
        return True
    return r > 1 and m >> r - 2 & m >> r - 1 & 1 == 1


def big_gin_take(obs):
    """True if taking the top card makes all 11 cards meld where big gin is on."""
    if not obs.rules.big_gin or not obs.pile:
        return False
    legal = obs.legal
    if TAKE_DISCARD not in legal:
        return False
    h = obs.hand
    t = obs.pile[-1]
    s = t // 13
    bit = 1 << (t % 13)
    a = h[0] | bit if s == 0 else h[0]
    b = h[1] | bit if s == 1 else h[1]
    c = h[2] | bit if s == 2 else h[2]
    d = h[3] | bit if s == 3 else h[3]
    return deadwood4(a, b, c, d) == 0
