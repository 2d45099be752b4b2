"""The expert computer player: hard's judgement, its discards retuned, and
its knock checked by playing the hand out in the worlds the observation allows.

What it does
------------
docs/AI.md ("The expert") has the method and the measurements behind each choice; in short,
expert is hard (ai_hard.py) with two changes that measured stronger:

* Safer discards: hard's weight of a discard's danger is 8 instead of 2 at the usual knock
  limit of 10, falling with the hand's limit to hard's 2 when only gin ends the hand
  (gamma_for).
* A searched knock: whenever it may knock (gin is always taken), it plays knocking now and
  hard's best discard out in the same sampled worlds (search: sample_world, then play_out
  of each candidate, each end scored by _knock) and plays the better mean, hard's choice a
  head start of `prior` ahead.  The draw and discard searches of the same machinery are
  switched off (EXPERT's "draw" and "discard"): they measured weaker than hard's formulas.

Bounded and deterministic
-------------------------
The search stops at a budget of work units: one per world drawn, one per
replayed opponent draw, one per simulated turn.  Never a clock: a decision
depends only on the observation and the seed, on CPython and MicroPython
alike.  The random stream is a 20-bit LCG whose products stay below 2**30
(no bignums on the RP2040), seeded from the player's seed and the public
state.  Fair: it reads the Observation only; the buffers below are made once
and overwritten by every decision, so nothing carries from one decision to
the next, and a decision allocates nothing on the heap (functions return
single small ints: a tuple would be a heap object).
"""

from gin import ai_eval as E
from gin.ai_eval import fingerprint
from gin.ai_hard import R_DISCARD, R_KNOCK, HardPlayer
from gin.melds import deadwood4, deadwood_after_discard4
from gin.meldtables import SUIT
from gin.round import BIG_GIN, DISCARD_PHASE, DRAW, DRAW_STOCK, KNOCK, OFFER, SPREAD, TAKE_DISCARD

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MAX_CANDIDATES = const(5)  # discards played out (hard's best by its score), besides a knock
MAX_HORIZON = const(24)
FULL_LIMIT = const(10)  # a hand's usual knock limit

# Tuned knobs (host_tools/bench/arena.py; see docs/AI.md).  budget: work units
# per decision (the device's setting); horizon: turns a play-out runs before it
# is scored by the counts; min_worlds: never decide on fewer worlds; prior:
# head start of hard's choice, 1/16 point per world; slack: discards within
# this many 1/16 points of hard's best keep score are candidates; draw, knock,
# discard: which decisions are searched.
EXPERT = {
    "budget": 400,
    "horizon": 24,
    "min_worlds": 6,
    "replays": 8,
    "prior": 8,
    "slack": 48,
    "draw": 0,
    "knock": 1,
    "discard": 0,
    "gamma": 8,
    "gamma_gin": 2,
}

_M20 = const(0xFFFFF)

# rank of a one-bit 13-bit mask, by the bit's remainder mod 37 (all 13 differ)
_LOG2 = (
    b"\x00\x00\x01\x00\x02\x00\x00\x00\x03\x00\x00\x00\x00\x0b\x00\x00\x04\x07\x00"
    b"\x00\x00\x00\x00\x00\x00\x0a\x0c\x06\x00\x00\x00\x09\x05\x00\x08\x00\x00"
)


def gamma_for(full, gin, limit):
    """The danger weight for a hand with this knock limit: full at FULL_LIMIT, gin at 0."""
    if limit >= FULL_LIMIT:
        return full
    return gin + (full - gin) * limit // FULL_LIMIT


class ExpertPlayer(HardPlayer):
    level = "expert"

    def __init__(self, seed=0, budget=-1):
        HardPlayer.__init__(self, seed)
        k = EXPERT
        self.budget = k["budget"] if budget < 0 else budget
        self.horizon = k["horizon"]
        if self.horizon > MAX_HORIZON:
            self.horizon = MAX_HORIZON
        self.min_worlds = k["min_worlds"]
        self.replays = k["replays"]
        self.prior = k["prior"]
        self.slack = k["slack"]
        self.s_draw = k["draw"]
        self.s_knock = k["knock"]
        self.s_disc = k["discard"]
        # hard's weight of discard danger, retuned (docs/AI.md): gamma at the usual knock
        # limit, falling linearly to gamma_gin at limit 0 (Oklahoma's low upcards, straight
        # gin), where hands run longer and one's own melds weigh more against the danger
        self.gamma_full = k["gamma"]
        self.gamma_gin = k["gamma_gin"]
        self.gamma = self.gamma_full
        self.rs = 1
        self.pt = 0  # turns of the last play-out
        self.uc = bytearray(52)  # unseen cards (not mine, not in the pile, not known in their hand)
        self.inw = bytearray(52)  # 1: in the sampled opponent hand
        self.ix = bytearray(52)  # card -> its index in uc
        self.stock = bytearray(52)  # the sampled stock, top first
        self.cand = bytearray(MAX_CANDIDATES + 2)  # candidate actions
        self.val = [0] * (MAX_CANDIDATES + 2)  # summed play-out points per candidate (x16)
        self.w0 = [0, 0, 0, 0, 0, 0, 0, 0]  # the world: my hand, then theirs
        self.hh = [0, 0, 0, 0, 0, 0, 0, 0]  # the play-out's hands
        self.dd = [0, 0]  # the play-out's counts (10 cards)
        # the rules of the hand, read once per decision
        self.lim = 10
        self.ginb = 25
        self.ucb = 25
        self.mult = 1

    # -- random numbers: a 20-bit LCG, products below 2**30 -----------------------
    def rand(self, n):
        x = (self.rs * 1021 + 907) & _M20
        self.rs = x
        return ((x >> 4) * n) >> 16

    def seed_stream(self, obs):
        self.rs = (fingerprint(obs) * 13 + (self.seed & 0x3FFF) * 61 + (self.seed >> 14)) & _M20

    def read(self, obs):
        self.gamma = gamma_for(self.gamma_full, self.gamma_gin, obs.knock_limit)
        HardPlayer.read(self, obs)

    def choose(self, obs):
        legal = obs.legal
        if not legal:
            raise ValueError("not this player's turn")
        if len(legal) == 1:
            self.why = 0
            return legal[0]
        ph = obs.phase
        a = HardPlayer.choose(self, obs)
        if ph == OFFER or ph == SPREAD or self.budget <= 0:
            return a  # the upcard offer and the spread: hard's judgement
        if ph == DRAW:
            if not self.s_draw or TAKE_DISCARD not in legal:
                return a
            if E.big_gin_take(obs):
                return a
            return self._search_draw(obs, a)
        if ph == DISCARD_PHASE:
            if a == BIG_GIN:
                return a
            return self._search_discard(obs, a)
        return a

    # -- candidates -----------------------------------------------------------------
    def _search_draw(self, obs, hard_a):
        cand = self.cand
        cand[0] = TAKE_DISCARD
        cand[1] = DRAW_STOCK
        best = self.search(obs, 2, 0 if hard_a == TAKE_DISCARD else 1)
        a = cand[best]
        if a != hard_a:
            self.why = 0  # the reason words are hard's; a changed choice keeps none
        return a

    def _search_discard(self, obs, hard_a):
        legal = obs.legal
        hard_knocks = KNOCK <= hard_a < KNOCK + 52
        if hard_knocks and (not self.s_knock or self.dws[hard_a - KNOCK] == 0):
            return hard_a  # gin is never worth searching
        ncap = MAX_CANDIDATES if self.s_disc else 1
        h = obs.hand
        skip = obs.taken
        # hard's _best_discard has just scored this hand's discards: its counts are in
        # self.dws, its keep scores in self.ks for the cards within self.ks_limit
        dws = self.dws
        ks = self.ks
        limit = self.ks_limit
        best_dw = limit - self.prune
        cand = self.cand
        val = self.val
        n = 0
        prior = -1
        # best MAX_CANDIDATES discards by hard's score (insertion into val, ascending)
        for x in range(52):
            if x == skip or dws[x] > limit or not h[x // 13] >> (x % 13) & 1 or x not in legal:
                continue
            sc = ks[x]
            i = n
            if i == ncap:
                if sc >= val[i - 1]:
                    continue
                i -= 1
            else:
                n += 1
            while i > 0 and val[i - 1] > sc:
                val[i] = val[i - 1]
                cand[i] = cand[i - 1]
                i -= 1
            val[i] = sc
            cand[i] = x
        # keep those within SLACK of the best score
        k = 1
        while k < n and val[k] <= val[0] + self.slack:
            k += 1
        n = k
        # hard's choice is a candidate
        if not hard_knocks:
            for i in range(n):
                if cand[i] == hard_a:
                    prior = i
        if hard_knocks:
            cand[n] = hard_a
            prior = n
            n += 1
        elif best_dw <= obs.knock_limit and self.s_knock:
            kc = self._knock_card(h, best_dw, skip)
            if kc >= 0 and KNOCK + kc in legal:
                cand[n] = KNOCK + kc
                n += 1
        elif not self.s_disc:
            return hard_a
        if prior < 0:
            if hard_a < 52 and n < MAX_CANDIDATES + 2:
                cand[n] = hard_a
                prior = n
                n += 1
            else:
                return hard_a
        if n == 1:
            return cand[0]
        best = self.search(obs, n, prior)
        a = cand[best]
        if a != hard_a:
            if a >= KNOCK:
                self.why = R_KNOCK
                self.why_card = a - KNOCK
                self.why_dw = dws[a - KNOCK]
                self.why_risk = 256
            else:
                self.why = R_DISCARD
                self.why_card = a
                self.why_dw = dws[a]
                self.why_best = best_dw
        return a

    # -- the search -----------------------------------------------------------------
    def search(self, obs, n, prior):
        """Index of the best of the n candidates in self.cand, hard's at prior."""
        self.seed_stream(obs)
        rules = obs.rules
        self.lim = obs.knock_limit
        self.ginb = rules.gin_bonus
        self.ucb = rules.undercut_bonus
        self.mult = obs.multiplier
        sc = self.sc  # loaded by hard's choose()
        nu = self.list_unseen()
        n_unk = sc.n_unk
        if nu < n_unk:
            n_unk = nu
        val = self.val
        for i in range(n):
            val[i] = 0
        units = 0
        worlds = 0
        budget = self.budget
        while worlds < self.min_worlds or units < budget:
            self.sample_world(obs, nu, n_unk)
            units += 1 + self.replays
            for i in range(n):
                val[i] += self.play_out(obs, self.cand[i])
                units += self.pt
            worlds += 1
            val[prior] += self.prior
        best = prior
        for i in range(n):
            if val[i] > val[best]:
                best = i
        return best

    def list_unseen(self):
        """List the unseen cards in self.uc (and their places in self.ix); their count."""
        uc = self.uc
        un = self.sc.un
        nu = 0
        for s in range(4):
            m = un[s]
            r = 0
            while m:
                if m & 1:
                    uc[nu] = s * 13 + r
                    self.ix[s * 13 + r] = nu
                    nu += 1
                m >>= 1
                r += 1
        return nu

    def sample_world(self, obs, nu, n_unk):
        """Sample the opponent's hand and the stock order into self.w0 / self.stock."""
        uc = self.uc
        inw = self.inw
        w = self.sc.w
        k = 0
        for i in range(nu):
            x = self.rs = (self.rs * 1021 + 907) & _M20
            if (x >> 12) < w[uc[i]]:
                inw[i] = 1
                k += 1
            else:
                inw[i] = 0
        while k > n_unk:
            i = self.rand(nu)
            if inw[i]:
                inw[i] = 0
                k -= 1
        while k < n_unk:
            i = self.rand(nu)
            if not inw[i]:
                inw[i] = 1
                k += 1
        w0 = self.w0
        h = obs.hand
        ok = self.sc.ok
        for s in range(4):
            w0[s] = h[s]
            w0[4 + s] = ok[s]
        for i in range(nu):
            if inw[i]:
                c = uc[i]
                w0[4 + c // 13] |= 1 << (c % 13)
        # The opponent kept the best of the cards it saw: replay its draws as
        # "draw an unseen card, throw the worst" (known cards stay), so the
        # sampled hand is as good as a hand played for that many turns.
        m = len(obs.opp_threw)
        if m > self.replays:
            m = self.replays
        if n_unk < nu:
            for _ in range(m):
                i = self.rand(nu)
                if inw[i]:
                    continue
                c = uc[i]
                w0[4 + c // 13] |= 1 << (c % 13)
                x = _greedy(w0, 4, -1) & 63
                if ok[x // 13] >> (x % 13) & 1:
                    x = c  # it would throw a card it is known to hold: keep the hand instead
                w0[4 + x // 13] &= ~(1 << (x % 13))
                if x != c:
                    inw[i] = 1
                    inw[self.ix[x]] = 0
        st = self.stock
        ns = 0
        for i in range(nu):
            if not inw[i]:
                st[ns] = uc[i]
                ns += 1
        # shuffle the top of the stock (a play-out never draws deeper than HORIZON + 1)
        top = ns if ns < MAX_HORIZON + 2 else MAX_HORIZON + 2
        for i in range(top):
            j = i + self.rand(ns - i)
            c = st[i]
            st[i] = st[j]
            st[j] = c

    def play_out(self, obs, a):
        """Points for me (x16) of action a played out in the world; sets self.pt
        to the turns simulated."""
        self.pt = 1
        w0 = self.w0
        hh = self.hh
        for i in range(8):
            hh[i] = w0[i]
        dd = self.dd
        stock_n = obs.stock_size
        si = 0
        st = self.stock
        if a == TAKE_DISCARD or a == DRAW_STOCK:
            # my draw, then the play-out from my discard
            if a == TAKE_DISCARD:
                c = obs.pile[-1]
                skip = c
            else:
                c = st[0]
                si = 1
                stock_n -= 1
                skip = -1
            hh[c // 13] |= 1 << (c % 13)
            v = _greedy(hh, 0, skip)
            x = v & 63
            v >>= 6
            hh[x // 13] &= ~(1 << (x % 13))
            if v <= self.lim:
                return self._knock(0, v)
            if stock_n <= 2:
                return 0
            dd[0] = v
            top = x
        elif a >= KNOCK:
            c = a - KNOCK
            hh[c // 13] &= ~(1 << (c % 13))
            return self._knock(0, deadwood4(hh[0], hh[1], hh[2], hh[3]))
        else:
            hh[a // 13] &= ~(1 << (a % 13))
            if stock_n <= 2:
                return 0
            dd[0] = deadwood4(hh[0], hh[1], hh[2], hh[3])
            top = a
        dd[1] = deadwood4(hh[4], hh[5], hh[6], hh[7])
        p = 1
        t = 1
        lim = self.lim
        hz = self.horizon
        while t < hz:
            o = 4 * p
            skip = -1
            if top >= 0 and _joins(hh, o, top):
                c = top
                skip = c
            else:
                c = st[si]
                si += 1
                stock_n -= 1
            hh[o + c // 13] |= 1 << (c % 13)
            v = _greedy(hh, o, skip)
            x = v & 63
            v >>= 6
            hh[o + x // 13] &= ~(1 << (x % 13))
            t += 1
            self.pt = t
            if v <= lim:
                return self._knock(p, v)
            if stock_n <= 2:
                return 0
            dd[p] = v
            top = x
            p = 1 - p
        # cut at the horizon: the lower count is ahead
        return (dd[1] - dd[0]) * 8

    def _knock(self, p, k):
        """Points (x16) for me when player p knocks with count k (10 cards left in hh)."""
        hh = self.hh
        o = 4 * p
        q = 4 - o
        dv = deadwood4(hh[q], hh[q + 1], hh[q + 2], hh[q + 3])
        if k == 0:
            pts = self.ginb + dv
            win = p
        else:
            # lay-offs: the defender's cards that extend the knocker's runs or
            # complete a set of three the knocker holds
            a = hh[o]
            b = hh[o + 1]
            c = hh[o + 2]
            d = hh[o + 3]
            three = (a & b & c & ~d) | (a & b & d & ~c) | (a & c & d & ~b) | (b & c & d & ~a)
            l0 = _layoff_cards(a, hh[q]) | (hh[q] & three)
            l1 = _layoff_cards(b, hh[q + 1]) | (hh[q + 1] & three)
            l2 = _layoff_cards(c, hh[q + 2]) | (hh[q + 2] & three)
            l3 = _layoff_cards(d, hh[q + 3]) | (hh[q + 3] & three)
            if l0 | l1 | l2 | l3:
                x = deadwood4(hh[q] & ~l0, hh[q + 1] & ~l1, hh[q + 2] & ~l2, hh[q + 3] & ~l3)
                if x < dv:
                    dv = x
            if k < dv:
                pts = dv - k
                win = p
            else:
                pts = k - dv + self.ucb
                win = 1 - p
        pts *= 16 * self.mult
        return pts if win == 0 else -pts


def _layoff_cards(k, dm):
    """Cards of defender suit mask dm that extend the knocker's runs in suit mask k."""
    st = k & k >> 1 & k >> 2
    if not st:
        return 0
    cov = st | st << 1 | st << 2
    out = 0
    e = (cov << 1 | cov >> 1) & dm & ~cov & 0x1FFF
    while e:
        out |= e
        e = (e << 1 | e >> 1) & dm & ~cov & ~out & 0x1FFF
    return out


def _joins(hh, o, card):
    """True if card forms a set or a run with two cards of the hand at hh[o:o+4]."""
    s = card // 13
    r = card - s * 13
    bit = 1 << r
    n = 0
    for t in range(4):
        if t != s and hh[o + t] & bit:
            n += 1
    if n >= 2:
        return True
    m = hh[o + s]
    if m >> r + 1 & m >> r + 2 & 1:
        return True
    if r > 0 and m >> r - 1 & m >> r + 1 & 1:
        return True
    return r > 1 and m >> r - 2 & m >> r - 1 & 1 == 1


def _greedy(hh, o, skip):
    """The least count after a discard of the 11 cards at hh[o:o+4], times 64,
    plus that discard: the highest such card (by rank, then suit), never the
    card skip.  One small int, as a tuple would be a heap object."""
    a = hh[o]
    b = hh[o + 1]
    c = hh[o + 2]
    d = hh[o + 3]
    if (a & b & (c | d)) | (c & d & (a | b)):
        # sets: the least count in one search, then the highest card reaching it
        best = deadwood_after_discard4(a, b, c, d)
        r = 12
        while r >= 0:
            bit = 1 << r
            if a & bit and r != skip and deadwood4(a ^ bit, b, c, d) == best:
                return best * 64 + r
            if b & bit and 13 + r != skip and deadwood4(a, b ^ bit, c, d) == best:
                return best * 64 + 13 + r
            if c & bit and 26 + r != skip and deadwood4(a, b, c ^ bit, d) == best:
                return best * 64 + 26 + r
            if d & bit and 39 + r != skip and deadwood4(a, b, c, d ^ bit) == best:
                return best * 64 + 39 + r
            r -= 1
        # only the skipped card reaches it: the best of the others
        best = 999
        card = -1
        r = 12
        while r >= 0:
            bit = 1 << r
            for s in range(4):
                m = hh[o + s]
                if m & bit and s * 13 + r != skip:
                    hh[o + s] = m ^ bit
                    v = deadwood4(hh[o], hh[o + 1], hh[o + 2], hh[o + 3])
                    hh[o + s] = m
                    if v < best:
                        best = v
                        card = s * 13 + r
            r -= 1
        return best * 64 + card
    t = SUIT  # a suit's run deadwood: t[m & 511] + t[m >> 5 | 512] (gin/meldtables.py)
    tot = deadwood4(a, b, c, d)
    best = 999
    card = -1
    bv = 0
    for s in range(4):
        m = hh[o + s]
        base = tot - t[m & 511] - t[m >> 5 | 512]
        while m:
            bit = m & -m
            r = _LOG2[bit % 37]
            x = s * 13 + r
            if x != skip:
                v = hh[o + s] ^ bit
                v = base + t[v & 511] + t[v >> 5 | 512]
                if v < best or (v == best and r >= bv):
                    best = v
                    card = x
                    bv = r
            m ^= bit
    return best * 64 + card
