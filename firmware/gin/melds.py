"""The meld engine: minimum deadwood, best arrangements, lay-offs.

A hand is four 13-bit suit masks [clubs, diamonds, hearts, spades] (see
cards.py).  Melds are sets (3 or 4 cards of one rank) and runs (3+ cards of
one suit in sequence, ace low, no wrap); a card sits in at most one meld.

API
---
deadwood(h), deadwood4(a, b, c, d)         least deadwood, any hand size
deadwood_after_discard(h), ..._after_discard4(a, b, c, d)
                                           least deadwood after the best discard
best_discards(h)                           the discards achieving it, ascending ids
arrangement(h), min_arrangements(h, limit) (melds, deadwood cards) of the least count
is_meld(cards), meld_kind(cards)           'set' | 'run' | None
layoff(defender_h, knocker_melds)          the defender's best count after lay-offs
Parameters starting with an underscore bind tables as locals for speed: never
pass them.

How the minimum is found
------------------------
Within one suit and with runs only, the best cover is every maximal
consecutive segment of 3+ cards, so one table (meldtables.SUIT) answers a
suit in two lookups, one per half of its ranks: run_dw(mask).  Sets are what couple the suits, and only ranks
held 3 or 4 times can form one: ``trip = (a & b & (c | d)) | (c & d & (a | b))``.
With no such rank (most random hands) the answer is eight lookups.  Otherwise
each such rank takes one of: no set, the full set, or (4 held) a 3-set
leaving out one card; the chosen set cards leave the suit masks and the rest
is eight lookups again.  Two cuts keep the branching small, both exchange
arguments:

* no card of the rank lies in a 3-window of its suit, so none can be in a
  run: the full set is optimal, no branching;
* with 4 held, leaving out a card that can't be in a run only makes it
  deadwood: those 3-sets are skipped.

"Can be in a run" is judged on the masks left after the sets already chosen,
which only prunes more.  The last branching rank scores its options inline.

After the draw (11 cards), the best discard: for a fixed set choice, dropping
a card from suit s saves discard_gain(s's leftover mask) (two more lookups in
SUIT), so the answer is min over set choices of (sum of run_dw) minus the
largest gain of the four suits.  Discarding a card of a chosen set
is covered by the choices themselves: breaking a 3-set is the "no set" choice
plus a suit discard, and taking the 4th card off a 4-set costs nothing (gain
0), which the search records when it takes a 4-set.  The first cut still holds
with a discard when the hand size is not a multiple of 3: had the best play
discarded a card of such a rank, its other cards are deadwood; setting the
rank instead and discarding some other deadwood card, or an end of a 4+ meld,
is no worse, and one of those exists unless the remaining n - 3 cards are all
exact 3-melds.  Sizes 3k fall back to trying every discard.

The hot functions (deadwood, deadwood4, deadwood_after_discard,
deadwood_after_discard4) allocate nothing under MicroPython: ints stay small,
no containers are built, and recursion depth is the number of branching set
ranks (at most 3 for 11 cards).  On ports without a pystack (rp2), a frame of
more than 11 words is taken from the heap and given back at every call: the
entry points stay within 11 (tests/test_melds.py checks it), the set searches
behind them don't, so a hand holding 3+ of a rank costs one short-lived heap
block per search call there (never garbage: gc.mem_alloc() is unchanged).
best_discards, the arrangement and lay-off helpers build lists and are for
once-per-turn use.

The table costs 4 KB of RAM (two 8192-entry tables would take 16 KB of the
Pico's heap).  Ship meldtables as .mpy (mpy-cross): compiling its 17 KB
source on the device would take a peak several times that.

Tie-breaks (documented contract)
--------------------------------
Arrangements are canonical: the chosen sets, then every maximal consecutive
segment of 3+ leftover cards in a suit as one run.  Among arrangements with
the least deadwood, the order is: fewer deadwood cards first, then the
deadwood card ids compared as ascending lists, then the meld lists compared
as sorted lists of ascending card-id lists.  arrangement() is the first one.
Melds are listed in ascending order of their card-id lists.
"""

try:
    from micropython import const
except ImportError:

    def const(x):
        return x


from gin.cards import RANK_VALUES, GinError
from gin.meldtables import GAIN_OFFSET, SUIT

_OFF = const(21)  # GAIN_OFFSET, inlined by MicroPython's compiler
assert _OFF == GAIN_OFFSET

# Popcount of a 7-bit value, for the hand size in the slow path.
_POP7 = bytes([bin(i).count("1") for i in range(128)])


# --- minimum deadwood ---------------------------------------------------------
# The four entry points keep their frames within 11 words (locals + stack):
# MicroPython ports without a pystack, rp2 among them, put bigger frames on
# the heap at every call.  Hence the terse bodies; the branching searches
# behind them are bigger and only run for hands holding 3+ of a rank.


def deadwood(h, _s=SUIT):
    """Least deadwood of a hand (any size) over every legal arrangement."""
    a, b, c, d = h
    if (a & b & (c | d)) | (c & d & (a | b)):
        return _sets10(a, b, c, d)
    return (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512]
    )  # fmt: skip


def deadwood4(a, b, c, d, _s=SUIT):
    """deadwood() on the four suit masks directly (no list needed)."""
    if (a & b & (c | d)) | (c & d & (a | b)):
        return _sets10(a, b, c, d)
    return (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512]
    )  # fmt: skip


def _sets10(a, b, c, d, t=0, _s=SUIT):
    # t: the ranks held 3+ times still to decide (0 from the entry points).
    if not t:
        t = (a & b & (c | d)) | (c & d & (a | b))
    # Ranks whose cards can't be in a run: take their full set and move on.
    while True:
        lb = t & -t
        t ^= lb
        w = lb | lb >> 1 | lb >> 2  # starts of the 3-windows holding rank lb
        q = 0
        if a & a >> 1 & a >> 2 & w:
            q = 1
        if b & b >> 1 & b >> 2 & w:
            q |= 2
        if c & c >> 1 & c >> 2 & w:
            q |= 4
        if d & d >> 1 & d >> 2 & w:
            q |= 8
        nb = ~lb
        if q:
            break
        a &= nb
        b &= nb
        c &= nb
        d &= nb
        if not t:
            return (
                _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
                + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512]
            )  # fmt: skip
    # Branch on rank lb: no set, the full set, or a 3-set leaving out one
    # runnable card (suit k keeps its card).
    aa = a & nb
    bb = b & nb
    cc = c & nb
    dd = d & nb
    four = a & b & c & d & lb
    if t:
        v = _sets10(a, b, c, d, t)
        x = _sets10(aa, bb, cc, dd, t)
        if x < v:
            v = x
        if four:
            if q & 1:
                x = _sets10(a, bb, cc, dd, t)
                if x < v:
                    v = x
            if q & 2:
                x = _sets10(aa, b, cc, dd, t)
                if x < v:
                    v = x
            if q & 4:
                x = _sets10(aa, bb, c, dd, t)
                if x < v:
                    v = x
            if q & 8:
                x = _sets10(aa, bb, cc, d, t)
                if x < v:
                    v = x
        return v
    ra = _s[aa & 511] + _s[aa >> 5 | 512]
    rb = _s[bb & 511] + _s[bb >> 5 | 512]
    rc = _s[cc & 511] + _s[cc >> 5 | 512]
    rd = _s[dd & 511] + _s[dd >> 5 | 512]
    full = ra + rb + rc + rd
    # the suits as they are (no set), each suit's own run deadwood reused below
    aa = _s[a & 511] + _s[a >> 5 | 512]
    bb = _s[b & 511] + _s[b >> 5 | 512]
    cc = _s[c & 511] + _s[c >> 5 | 512]
    dd = _s[d & 511] + _s[d >> 5 | 512]
    v = aa + bb + cc + dd
    if full < v:
        v = full
    if four:
        if q & 1:
            x = full - ra + aa
            if x < v:
                v = x
        if q & 2:
            x = full - rb + bb
            if x < v:
                v = x
        if q & 4:
            x = full - rc + cc
            if x < v:
                v = x
        if q & 8:
            x = full - rd + dd
            if x < v:
                v = x
    return v


# --- best discard (11 cards) --------------------------------------------------
# A suit's best gain is the larger of its two halves' (SUIT[m & 1023 | 1024] and
# SUIT[m >> 2 | 2048]); the maximum over the suits is the maximum over all eight.


def deadwood_after_discard(h, _s=SUIT):
    """Least deadwood left after the best discard (h: 11 cards after the
    draw; any non-empty hand works)."""
    a, b, c, d = h
    if (a & b & (c | d)) | (c & d & (a | b)):
        return _after_discard_sets(a, b, c, d)
    # h, no longer needed, holds the best gain: one more local would cross
    # the 11 words (see above)
    h = _s[a & 1023 | 1024]
    if _s[a >> 2 | 2048] > h:
        h = _s[a >> 2 | 2048]
    if _s[b & 1023 | 1024] > h:
        h = _s[b & 1023 | 1024]
    if _s[b >> 2 | 2048] > h:
        h = _s[b >> 2 | 2048]
    if _s[c & 1023 | 1024] > h:
        h = _s[c & 1023 | 1024]
    if _s[c >> 2 | 2048] > h:
        h = _s[c >> 2 | 2048]
    if _s[d & 1023 | 1024] > h:
        h = _s[d & 1023 | 1024]
    if _s[d >> 2 | 2048] > h:
        h = _s[d >> 2 | 2048]
    return (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512] + _OFF - h
    )  # fmt: skip


def deadwood_after_discard4(a, b, c, d, _s=SUIT):
    """deadwood_after_discard() on the four suit masks directly."""
    if (a & b & (c | d)) | (c & d & (a | b)):
        return _after_discard_sets(a, b, c, d)
    x = _s[a & 1023 | 1024]
    if _s[a >> 2 | 2048] > x:
        x = _s[a >> 2 | 2048]
    if _s[b & 1023 | 1024] > x:
        x = _s[b & 1023 | 1024]
    if _s[b >> 2 | 2048] > x:
        x = _s[b >> 2 | 2048]
    if _s[c & 1023 | 1024] > x:
        x = _s[c & 1023 | 1024]
    if _s[c >> 2 | 2048] > x:
        x = _s[c >> 2 | 2048]
    if _s[d & 1023 | 1024] > x:
        x = _s[d & 1023 | 1024]
    if _s[d >> 2 | 2048] > x:
        x = _s[d >> 2 | 2048]
    return (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512] + _OFF - x
    )  # fmt: skip


def _after_discard_sets(a, b, c, d, _p=_POP7):
    t = (a & b & (c | d)) | (c & d & (a | b))
    n = _p[a & 127] + _p[a >> 7] + _p[b & 127] + _p[b >> 7]
    n += _p[c & 127] + _p[c >> 7] + _p[d & 127] + _p[d >> 7]
    if n % 3:
        return _sets11(a, b, c, d, t, 0)
    # Sizes 3k: the no-run cut is unsound with a discard, so try every card.
    best = 999
    bit = 1
    while bit < 8192:
        if a & bit:
            x = deadwood4(a ^ bit, b, c, d)
            if x < best:
                best = x
        if b & bit:
            x = deadwood4(a, b ^ bit, c, d)
            if x < best:
                best = x
        if c & bit:
            x = deadwood4(a, b, c ^ bit, d)
            if x < best:
                best = x
        if d & bit:
            x = deadwood4(a, b, c, d ^ bit)
            if x < best:
                best = x
        bit <<= 1
    return best


def _leaf11(a, b, c, d, f, _s=SUIT, _off=GAIN_OFFSET):
    # f: best gain code already available (GAIN_OFFSET once a 4-set is taken:
    # its 4th card goes for free), else 0.
    x = f
    y = _s[a & 1023 | 1024]
    if y > x:
        x = y
    y = _s[a >> 2 | 2048]
    if y > x:
        x = y
    y = _s[b & 1023 | 1024]
    if y > x:
        x = y
    y = _s[b >> 2 | 2048]
    if y > x:
        x = y
    y = _s[c & 1023 | 1024]
    if y > x:
        x = y
    y = _s[c >> 2 | 2048]
    if y > x:
        x = y
    y = _s[d & 1023 | 1024]
    if y > x:
        x = y
    y = _s[d >> 2 | 2048]
    if y > x:
        x = y
    return (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512] + _off - x
    )  # fmt: skip


def _gain(m, _s=SUIT):
    # A suit's best gain code (the branch below is rare: a 4-set with a runnable card).
    x = _s[m & 1023 | 1024]
    y = _s[m >> 2 | 2048]
    return y if y > x else x


def _sets11(a, b, c, d, t, f, _s=SUIT, _off=GAIN_OFFSET):
    while True:
        lb = t & -t
        t ^= lb
        w = lb | lb >> 1 | lb >> 2
        q = 0
        if a & a >> 1 & a >> 2 & w:
            q = 1
        if b & b >> 1 & b >> 2 & w:
            q |= 2
        if c & c >> 1 & c >> 2 & w:
            q |= 4
        if d & d >> 1 & d >> 2 & w:
            q |= 8
        nb = ~lb
        four = a & b & c & d & lb
        if q:
            break
        if four:
            f = _off
        a &= nb
        b &= nb
        c &= nb
        d &= nb
        if not t:
            return _leaf11(a, b, c, d, f)
    aa = a & nb
    bb = b & nb
    cc = c & nb
    dd = d & nb
    if t:
        v = _sets11(a, b, c, d, t, f)
        x = _sets11(aa, bb, cc, dd, t, _off if four else f)
        if x < v:
            v = x
        if four:
            if q & 1:
                x = _sets11(a, bb, cc, dd, t, f)
                if x < v:
                    v = x
            if q & 2:
                x = _sets11(aa, b, cc, dd, t, f)
                if x < v:
                    v = x
            if q & 4:
                x = _sets11(aa, bb, c, dd, t, f)
                if x < v:
                    v = x
            if q & 8:
                x = _sets11(aa, bb, cc, d, t, f)
                if x < v:
                    v = x
        return v
    # Last branching rank: score every option inline (no calls but the rare 4-set's gains).  The
    # four suit branches are deliberately unrolled: a loop over the suits costs the hot path
    # on a Pico.
    x = f
    y = _s[a & 1023 | 1024]
    if y > x:
        x = y
    y = _s[a >> 2 | 2048]
    if y > x:
        x = y
    y = _s[b & 1023 | 1024]
    if y > x:
        x = y
    y = _s[b >> 2 | 2048]
    if y > x:
        x = y
    y = _s[c & 1023 | 1024]
    if y > x:
        x = y
    y = _s[c >> 2 | 2048]
    if y > x:
        x = y
    y = _s[d & 1023 | 1024]
    if y > x:
        x = y
    y = _s[d >> 2 | 2048]
    if y > x:
        x = y
    v = (
        _s[a & 511] + _s[a >> 5 | 512] + _s[b & 511] + _s[b >> 5 | 512]
        + _s[c & 511] + _s[c >> 5 | 512] + _s[d & 511] + _s[d >> 5 | 512] - x
    )  # fmt: skip
    ra = _s[aa & 511] + _s[aa >> 5 | 512]
    rb = _s[bb & 511] + _s[bb >> 5 | 512]
    rc = _s[cc & 511] + _s[cc >> 5 | 512]
    rd = _s[dd & 511] + _s[dd >> 5 | 512]
    full = ra + rb + rc + rd
    ga = _s[aa & 1023 | 1024]
    x = _s[aa >> 2 | 2048]
    if x > ga:
        ga = x
    gb = _s[bb & 1023 | 1024]
    x = _s[bb >> 2 | 2048]
    if x > gb:
        gb = x
    gc = _s[cc & 1023 | 1024]
    x = _s[cc >> 2 | 2048]
    if x > gc:
        gc = x
    gd = _s[dd & 1023 | 1024]
    x = _s[dd >> 2 | 2048]
    if x > gd:
        gd = x
    if four:
        # max gain of the removed suits but one, each floored by f
        if q & 1:
            x = _gain(a)
            if x < f:
                x = f
            if gb > x:
                x = gb
            if gc > x:
                x = gc
            if gd > x:
                x = gd
            x = full - ra + _s[a & 511] + _s[a >> 5 | 512] - x
            if x < v:
                v = x
        if q & 2:
            x = _gain(b)
            if x < f:
                x = f
            if ga > x:
                x = ga
            if gc > x:
                x = gc
            if gd > x:
                x = gd
            x = full - rb + _s[b & 511] + _s[b >> 5 | 512] - x
            if x < v:
                v = x
        if q & 4:
            x = _gain(c)
            if x < f:
                x = f
            if ga > x:
                x = ga
            if gb > x:
                x = gb
            if gd > x:
                x = gd
            x = full - rc + _s[c & 511] + _s[c >> 5 | 512] - x
            if x < v:
                v = x
        if q & 8:
            x = _gain(d)
            if x < f:
                x = f
            if ga > x:
                x = ga
            if gb > x:
                x = gb
            if gc > x:
                x = gc
            x = full - rd + _s[d & 511] + _s[d >> 5 | 512] - x
            if x < v:
                v = x
        f = _off
    x = f
    if ga > x:
        x = ga
    if gb > x:
        x = gb
    if gc > x:
        x = gc
    if gd > x:
        x = gd
    x = full - x
    if x < v:
        v = x
    return v + _off


def discard_deadwoods(h, out, skip=-1):
    """The one try-every-discard loop: out[x] = the deadwood left after throwing card x
    of h (255 for a card not in h, and for ``skip``, a card that may not be thrown);
    returns the least (255 when nothing can be thrown).  out: a bytearray(52)."""
    a, b, c, d = h
    best = 255
    for s in range(4):
        m = h[s]
        for r in range(13):
            bit = 1 << r
            x = s * 13 + r
            if not m & bit or x == skip:
                out[x] = 255
                continue
            if s == 0:
                v = deadwood4(a ^ bit, b, c, d)
            elif s == 1:
                v = deadwood4(a, b ^ bit, c, d)
            elif s == 2:
                v = deadwood4(a, b, c ^ bit, d)
            else:
                v = deadwood4(a, b, c, d ^ bit)
            out[x] = v
            if v < best:
                best = v
    return best


def best_discards(h, skip=-1):
    """Card ids (ascending) whose discard leaves the least deadwood (never ``skip``)."""
    dws = bytearray(52)
    best = discard_deadwoods(h, dws, skip)
    return [x for x in range(52) if dws[x] == best and best != 255]


# --- single melds -------------------------------------------------------------


def meld_kind(cards):
    """'set', 'run' or None for a group of card ids."""
    n = len(cards)
    if n < 3:
        return None
    r = cards[0] % 13
    s = cards[0] // 13
    same_rank = True
    same_suit = True
    for c in cards:
        if not 0 <= c < 52:
            return None
        if c % 13 != r:
            same_rank = False
        if c // 13 != s:
            same_suit = False
    if same_rank:
        if n > 4:
            return None
        seen = 0
        for c in cards:
            seen |= 1 << (c // 13)
        return "set" if _POP7[seen] == n else None
    if same_suit:
        lo = 13
        m = 0
        for c in cards:
            m |= 1 << (c % 13)
            if c % 13 < lo:
                lo = c % 13
        # n distinct consecutive ranks from lo fill exactly this mask
        return "run" if m == ((1 << n) - 1) << lo else None
    return None


def is_meld(cards):
    return meld_kind(cards) is not None


# --- arrangements -------------------------------------------------------------


def _set_ranks(h):
    """(rank, suit pattern) of every rank held 3 or 4 times, ascending."""
    out = []
    for r in range(13):
        p = 0
        for s in range(4):
            if h[s] >> r & 1:
                p |= 1 << s
        if _POP7[p] >= 3:
            out.append((r, p))
    return out


def _set_options(p):
    # none, the full set, and each 3-set of a 4-held rank
    opts = [0, p]
    if p == 15:
        opts.extend([14, 13, 11, 7])
    return opts


def _choices(h):
    """Every set choice: a list of (rank, suit pattern taken) per choice."""
    ranks = _set_ranks(h)
    out = [[]]
    for r, p in ranks:
        nxt = []
        for ch in out:
            for sp in _set_options(p):
                nxt.append(ch + [(r, sp)] if sp else ch)
        out = nxt
    return out


def _build(h, choice):
    """(deadwood value, melds, deadwood cards) of a canonical arrangement."""
    m = list(h)
    melds = []
    for r, sp in choice:
        meld = []
        for s in range(4):
            if sp >> s & 1:
                m[s] &= ~(1 << r)
                meld.append(s * 13 + r)
        melds.append(meld)
    dead = []
    value = 0
    for s in range(4):
        mask = m[s]
        r = 0
        while r < 13:
            if not mask >> r & 1:
                r += 1
                continue
            start = r
            while r < 13 and mask >> r & 1:
                r += 1
            seg = [s * 13 + k for k in range(start, r)]
            if r - start >= 3:
                melds.append(seg)
            else:
                dead.extend(seg)
                for k in range(start, r):
                    value += RANK_VALUES[k]
    melds.sort()
    dead.sort()
    return value, melds, dead


def min_arrangements(h, limit=16):
    """Distinct least-deadwood arrangements [(melds, deadwood cards)], in
    tie-break order (see the module notes), at most `limit` of them."""
    found = []
    best = 999
    for choice in _choices(h):
        value, melds, dead = _build(h, choice)
        if value < best:
            best = value
            found = []
        if value == best:
            found.append((len(dead), dead, melds))
    found.sort()
    out = []
    for _, dead, melds in found[:limit]:
        out.append((melds, dead))
    return out


def arrangement(h):
    """One least-deadwood arrangement (melds, deadwood cards): the first of
    min_arrangements()."""
    return min_arrangements(h, 1)[0]


# --- laying off ---------------------------------------------------------------


def _layoff_slots(h, knocker_melds):
    """Where the defender's cards can go: [(meld index, chain)], a chain being
    the cards that can be laid in order (inner first); any prefix is legal."""
    slots = []
    for i, meld in enumerate(knocker_melds):
        kind = meld_kind(meld)
        if kind is None:
            raise GinError("not a meld: %r" % (meld,))
        if kind == "set":
            if len(meld) == 3:
                r = meld[0] % 13
                present = 0
                for c in meld:
                    present |= 1 << (c // 13)
                s = 0
                while present >> s & 1:
                    s += 1
                if h[s] >> r & 1:
                    slots.append((i, [s * 13 + r]))
            continue
        s = meld[0] // 13
        lo = min(meld) % 13  # a run: one suit, so the lowest card has the lowest rank
        hi = max(meld) % 13
        mask = h[s]
        chain = []
        r = lo - 1
        while r >= 0 and mask >> r & 1:
            chain.append(s * 13 + r)
            r -= 1
        if chain:
            slots.append((i, chain))
        chain = []
        r = hi + 1
        while r < 13 and mask >> r & 1:
            chain.append(s * 13 + r)
            r += 1
        if chain:
            slots.append((i, chain))
    return slots


def layoff(defender_h, knocker_melds):
    """The defender's best result against a knock (not against gin, where
    nothing may be laid off: the caller decides that).

    Returns (deadwood value, defender melds, layoffs, deadwood cards) where
    layoffs is [(card, knocker meld index)] in a legal laying order.  The
    minimum is over every way to lay off (each run end takes a prefix of its
    chain, each 3-set its 4th card or not) of the least deadwood of the cards
    left.  Ties: fewer deadwood cards, then deadwood ids as ascending lists,
    then fewer lay-offs, then the lay-off list compared as a list.
    """
    slots = _layoff_slots(defender_h, knocker_melds)
    combos = [[]]  # each: list of chain lengths, one per slot
    for _, chain in slots:
        nxt = []
        for combo in combos:
            for k in range(len(chain) + 1):
                nxt.append(combo + [k])
        combos = nxt
    best = None
    for combo in combos:
        m = list(defender_h)
        plays = []
        ok = True
        for (i, chain), k in zip(slots, combo):
            for c in chain[:k]:
                bit = 1 << (c % 13)
                if not m[c // 13] & bit:
                    ok = False  # the same card claimed by two slots
                    break
                m[c // 13] ^= bit
                plays.append((c, i))
            if not ok:
                break
        if not ok:
            continue
        value = deadwood4(m[0], m[1], m[2], m[3])
        if best is not None and value > best[0]:
            continue
        melds, dead = arrangement(m)
        key = (value, len(dead), dead, len(plays), plays)
        if best is None or key < best[0:5]:
            best = key + (melds,)
    value, _, dead, _, plays, melds = best
    return value, melds, plays, dead
