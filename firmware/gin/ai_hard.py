"""The hard computer player: card tracking, an opponent model, meld potential,
the value of knocking soon, and knocking judgement.

Every decision scores the 10 cards it would keep:

    16 * deadwood  -  beta * (expected deadwood saved by the next draw)
                   -  kv * (expected value of being able to knock after it)
                   +  gamma * (chance the opponent can meld the discard)

in 1/16 of a deadwood point (ints only: floats are heap objects on the
RP2040).  beta falls over the hand: early on, potential matters; later, the
count does, because the opponent may knock.  The draw compares the best score
after taking the top card with the expected score of a blind draw.  Knocking is
weighed against the undercut risk (the opponent's likely count, from the turn
and their discards, less what they could lay off), the stock left, and the
match score.  Knobs were tuned with host_tools/bench/arena.py against the baseline
and the normal player.
"""

from gin import ai_eval as E
from gin.cards import RANK_VALUES
from gin.melds import deadwood4, discard_deadwoods
from gin.round import ARRANGE, BIG_GIN, DISCARD_PHASE, DRAW, DRAW_STOCK, KNOCK, OFFER, PASS, TAKE_DISCARD

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Tuned knobs (see the module doc).  beta: potential weight x/16 at turn 0
# (beta_e) falling linearly to beta_l at beta_turns; take_pen: added to the
# take option's score (negative: a sure card is worth more than the blind
# draw's estimate credits); prune: discards leaving more than the least
# deadwood + prune are not scored; kb0/kb1: the opponent's likely count at
# turn 0 (falling one point a turn, not below kb1), the gain of a knock.
HARD = {
    "kw": 16,
    "beta_e": 40,
    "beta_l": 8,
    "beta_turns": 16,
    "gamma": 2,
    "take_pen": -24,
    "prune": 12,
    "kv": 16,
    "kb0": 36,
    "kb1": 12,
    "uc_max": 64,  # highest undercut risk (x/256) accepted for a knock in mid-hand
    "gin_wait": 1,  # wait for gin with a low count early, when gin is likely next draw
}


def _match_point(obs, win, lose):
    """(a win of `win` points reaches my target, a loss of `lose` reaches theirs)
    in some open game: the match score matters to the knock."""
    target = obs.rules.target
    cols = getattr(obs, "match_totals", None)
    if not cols:
        sc = obs.scores
        if sc is None:
            return False, False
        cols = ((sc[0], sc[1], False),)
    closes = False
    ends = False
    for mine, theirs, closed in cols:
        if closed:
            continue
        if mine + win >= target:
            closes = True
        if theirs + lose >= target:
            ends = True
    return closes, ends


# The opponent's likely deadwood (before lay-offs) by turns played / 2, measured
# in the arena when a player knocks against sound opponents.
_OPP_DW = b"\x2e\x2a\x24\x1f\x1b\x18\x16\x14\x12\x11\x10\x0f\x0e"

R_TAKE_MELD = const(1)
R_TAKE_DW = const(2)
R_DRAW = const(3)
R_KNOCK = const(4)
R_GIN = const(5)
R_DISCARD = const(6)
R_SPREAD = const(7)
R_BIG_GIN = const(8)
R_TAKE_BIG_GIN = const(9)
R_WAIT_GIN = const(10)
R_WAIT_RISK = const(11)
R_LAST_KNOCK = const(12)


class HardPlayer:
    level = "hard"

    def __init__(self, seed=0):
        self.seed = seed & 0x3FFFFFFF  # hard is deterministic: the seed is kept for the API only
        k = HARD
        self.kw = k["kw"]
        self.beta_e = k["beta_e"]
        self.beta_l = k["beta_l"]
        self.beta_turns = k["beta_turns"]
        self.gamma = k["gamma"]
        self.take_pen = k["take_pen"]
        self.prune = k["prune"]
        self.kvw = k["kv"]
        self.kb0 = k["kb0"]
        self.kb1 = k["kb1"]
        self.uc_max = k["uc_max"]
        self.gin_wait = k["gin_wait"]
        self.beta = self.beta_e
        self.sc = E.Scratch()
        self.dws = bytearray(52)  # deadwood after discarding each card
        # the keep score of each discard the last _best_discard scored (those with
        # dws[x] <= self.ks_limit, not the skipped card): the expert ranks its candidates by them
        self.ks = [0] * 52
        self.ks_limit = 0
        self.tmp = [0, 0, 0, 0]
        self.h2 = [0, 0, 0, 0]
        # why the last decision was made, for hint()
        self.why = 0
        self.why_card = -1
        self.why_dw = 0
        self.why_best = 0
        self.why_risk = 0

    def reset_hand(self):
        """Nothing to forget: every decision is derived from the observation."""

    def choose(self, obs):
        legal = obs.legal
        if not legal:
            raise ValueError("not this player's turn")
        self.why = 0
        if len(legal) == 1:
            return legal[0]
        ph = obs.phase
        self.read(obs)
        if ph == OFFER or ph == DRAW:
            if E.big_gin_take(obs):
                self.why = R_TAKE_BIG_GIN
                return TAKE_DISCARD
            return self._draw(obs)
        if ph == DISCARD_PHASE:
            return self._discard(obs)
        return self._spread(obs)

    # -- what it knows -----------------------------------------------------------
    # public: the expert extends it, and host_tools/research/ reads observations it never chooses on
    def read(self, obs):
        """Fill the card tracking from the observation (every decision starts here)."""
        sc = self.sc
        E.load(sc, obs, True)
        t = obs.turns
        kb = self.kb0 - t
        sc.kbase = kb if kb > self.kb1 else self.kb1
        sc.ginb = obs.rules.gin_bonus
        bt = self.beta_turns
        if t >= bt:
            self.beta = self.beta_l
        else:
            self.beta = self.beta_l + ((self.beta_e - self.beta_l) * (bt - t)) // bt

    # -- the score of keeping 10 cards and throwing x (lower is better) ---------
    def _keep_score(self, h, dw, x):
        sc = self.sc
        g = E.gain16(sc, h[0], h[1], h[2], h[3], dw)
        v = self.kw * dw - (self.beta * g) // 16 - (self.kvw * sc.kv) // 16
        if self.gamma and x >= 0:
            v += (self.gamma * self.danger_of(x)) // 16
        return v

    # a method, not E.danger inline: the one seam where host_tools/research/ puts its own danger in
    def danger_of(self, x):
        """The chance (0..256) that the opponent melds discard x: the opponent model's."""
        return E.danger(self.sc, x)

    def _best_discard(self, h, skip):
        """(score, card, least deadwood) of the best discard from 11 cards h."""
        dws = self.dws
        best = discard_deadwoods(h, dws, skip)
        limit = best + self.prune
        self.ks_limit = limit
        ks = self.ks
        tmp = self.tmp
        best_score = 1 << 20
        best_card = -1
        for s in range(4):
            m = h[s]
            for r in range(13):
                if not m >> r & 1:
                    continue
                x = s * 13 + r
                v = dws[x]
                if v > limit or x == skip:
                    continue
                E.without(h, x, tmp)
                score = self._keep_score(tmp, v, x)
                ks[x] = score
                if score < best_score:
                    best_score = score
                    best_card = x
        return best_score, best_card, best

    # -- draw: the top card or the stock ----------------------------------------
    def _draw(self, obs):
        legal = obs.legal
        no = PASS if obs.phase == OFFER else DRAW_STOCK
        if TAKE_DISCARD not in legal or not obs.pile:
            return no
        sc = self.sc
        h = obs.hand
        t = obs.pile[-1]
        d0 = deadwood4(h[0], h[1], h[2], h[3])
        g0 = E.gain16(sc, h[0], h[1], h[2], h[3], d0)
        # a blind draw: this draw's expected saving now, about the same potential after
        v_stock = self.kw * d0 - g0 - (self.beta * g0) // 16 - (self.kvw * sc.kv) // 16
        h2 = self.h2
        E.without(h, t, h2)
        h2[t // 13] |= 1 << (t % 13)
        v_take, card, dw = self._best_discard(h2, t)
        self.why_card = t
        self.why_dw = dw
        if v_take + self.take_pen < v_stock:
            self.why = R_TAKE_MELD if E.joins_meld(h, t) else R_TAKE_DW
            return TAKE_DISCARD
        self.why = R_DRAW
        return no

    # -- discard, knock or big gin ------------------------------------------------
    def _discard(self, obs):
        legal = obs.legal
        if BIG_GIN in legal:
            self.why = R_BIG_GIN
            return BIG_GIN
        h = obs.hand
        score, card, best = self._best_discard(h, obs.taken)
        if best <= obs.knock_limit:
            k = self._knock_card(h, best, obs.taken)
            if k >= 0 and KNOCK + k in legal:
                if self._should_knock(obs, h, k, best):
                    self.why = R_KNOCK if best else R_GIN
                    if best and obs.stock_size <= 2:
                        self.why = R_LAST_KNOCK
                    self.why_card = k
                    self.why_dw = best
                    return KNOCK + k
        if not self.why:
            self.why = R_DISCARD
        self.why_card = card
        self.why_dw = self.dws[card]
        self.why_best = best
        if card in legal:
            return card
        # gin is forced (discards are refused): the least-deadwood knock
        for a in legal:
            if a >= KNOCK and self.dws[a - KNOCK] == best:
                return a
        return legal[-1]

    def _knock_card(self, h, best, skip):
        """The knock discard: the least deadwood (it goes face down, so any such card)."""
        dws = self.dws
        for s in range(4):
            m = h[s]
            for r in range(13):
                if m >> r & 1:
                    x = s * 13 + r
                    if x != skip and dws[x] == best:
                        return x
        return -1

    def opp_deadwood(self, obs):
        """The opponent's likely count before lay-offs: by the turn, capped by
        their last two discards (a player throws their highest loose card, so
        low throws mean low loose cards)."""
        i = obs.turns // 2
        if i >= len(_OPP_DW):
            i = len(_OPP_DW) - 1
        est = _OPP_DW[i]
        thrown = obs.opp_threw
        if thrown:
            v = RANK_VALUES[thrown[-1] % 13]
            if len(thrown) > 1 and RANK_VALUES[thrown[-2] % 13] > v:
                v = RANK_VALUES[thrown[-2] % 13]  # one low throw may be a broken pair
            cap = 4 * v + 2
            if cap < est:
                est = cap
        return est

    def _should_knock(self, obs, h, kcard, k):
        """Knock now with count k, or play on for a lower count or gin?"""
        if k == 0:
            return True
        sc = self.sc
        tmp = self.tmp
        E.without(h, kcard, tmp)
        lay = E.layoff_value(sc, tmp)  # what the opponent may lay off, x16
        est = self.opp_deadwood(obs) * 16 - lay
        spread = est // 2
        if spread < 80:
            spread = 80
        # chance (x/256) that the opponent ends at or below k: an undercut
        p = ((k * 16 - est + spread) * 256) // (2 * spread)
        if p < 0:
            p = 0
        elif p > 256:
            p = 256
        self.why_risk = p
        gain = est - k * 16  # x16: what a knock wins when it is not undercut
        bonus = obs.rules.undercut_bonus
        # expected points of knocking now (x16 x256)
        ev = (256 - p) * gain - p * (bonus * 16 + 48)
        if obs.stock_size <= 2:
            # a discard now cancels the hand (0 points): knock if it pays on average
            if ev > 0:
                return True
            self.why = R_WAIT_RISK
            return False
        p_max = self.uc_max
        mult = obs.multiplier
        closes, ends = _match_point(obs, gain * mult // 16, (bonus + k) * mult)
        if ends:
            p_max = p_max // 2  # an undercut would likely end the game for them
        if closes and p < 128:
            return True  # this knock likely takes the game
        if p > p_max:
            self.why = R_WAIT_RISK
            return False
        if self.gin_wait and k <= 3 and obs.stock_size >= 12 and obs.turns < 8:
            # gin pays its bonus and allows no lay-offs: wait when it is likely next draw
            E.gain16(sc, tmp[0], tmp[1], tmp[2], tmp[3], k)
            if sc.gc >= 96:
                self.why = R_WAIT_GIN
                return False
        return True

    # -- spread: the arrangement that leaves the fewest lay-offs ----------------
    def _spread(self, obs):
        arr = obs.arrangements
        self.why = R_SPREAD
        if not arr:
            return ARRANGE
        best = 0
        best_risk = 1 << 20
        for i in range(len(arr)):
            risk = E.layoff_risk(self.sc, arr[i][0])
            if risk < best_risk:
                best_risk = risk
                best = i
        return ARRANGE + best
