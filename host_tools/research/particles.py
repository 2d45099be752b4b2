"""The particle filter of host_tools/research/posterior.py: particles over the opponent's hand,
weighted by a model of the opponent's policy (that module's docstring has the method).

``Filter`` is fed a hand's History (host_tools/research/history.py) event by event and gives each
card's posterior danger; ``PolicyScorer`` is hard's own scoring asked about a hand it may not hold
(the ``hard`` policy model).
"""

from __future__ import annotations

import math
import random

from gin import ai_eval as E
from gin.ai_hard import HardPlayer
from gin.cards import hand_cards
from gin.melds import deadwood4, discard_deadwoods
from gin.round import DISCARD_PHASE, DRAW, DRAW_STOCK, OFFER, TAKE_DISCARD

from host_tools.research.history import HIDDEN

ALL = (1 << 52) - 1

# --- the particle filter ---------------------------------------------------------------


def _bit(c):
    return 1 << c


def _mask_to_hand(m):
    return [m & 0x1FFF, (m >> 13) & 0x1FFF, (m >> 26) & 0x1FFF, (m >> 39) & 0x1FFF]


def _cards(m):
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out


class Filter:
    """Particles over the opponent's hand for one hand of play, fed the History
    event by event.  model: 'hard' or 'deadwood'; n particles; t, td: the
    softening temperatures (1/16 point)."""

    def __init__(self, model, n, t, td=64, fix="swap", seed=0):
        self.model = model
        self.kill = fix == "kill"  # refute inconsistent particles instead of fixing them up
        self.n = n
        self.t = float(t)
        self.td = float(td)
        self.rng = random.Random(seed)
        self.hp = PolicyScorer(0)
        self.hand_id = None
        self.evals = 0  # policy evaluations (one per particle per scored decision)
        self.fixups = 0
        self.resamples = 0

    # -- the hand's start ---------------------------------------------------------
    def start(self, hist):
        self.hand_id = hist.hand_id
        self.done = 0
        mine = 0
        for s in range(4):
            mine |= hist.dealt[s] << (13 * s)
        self.seen = mine | _bit(hist.upcard)  # cards that cannot be hidden in their hand
        self.known = 0  # cards they surely hold (taken from the pile, not thrown since)
        pool = _cards(ALL & ~self.seen)
        self.hands = []
        self.used = []  # hidden cards the particle's opponent has held (dealt or drawn)
        for _ in range(self.n):
            m = 0
            for c in self.rng.sample(pool, 10):
                m |= _bit(c)
            self.hands.append(m)
            self.used.append(m)
        self.w = [1.0 / self.n] * self.n

    # -- feeding events ------------------------------------------------------------
    def update(self, hist):
        if hist.hand_id != self.hand_id:
            self.start(hist)
        ev = hist.events
        while self.done < len(ev):
            i = self.done
            self.done += 1
            mine, ph, a, card, view = ev[i]
            if mine:
                if a == DRAW_STOCK:
                    self._my_draw(card)
                continue
            if ph == OFFER or ph == DRAW:
                if view.legal and TAKE_DISCARD in view.legal and len(view.legal) > 1:
                    self._score_take(view, a == TAKE_DISCARD)
                if a == TAKE_DISCARD:
                    b = _bit(card)
                    self.known |= b
                    for k in range(self.n):
                        self.hands[k] |= b
                elif a == DRAW_STOCK:
                    nxt = ev[i + 1] if i + 1 < len(ev) else None
                    x = nxt[3] if nxt is not None and not nxt[0] and nxt[1] == DISCARD_PHASE else HIDDEN
                    self._their_draw(x)
            elif ph == DISCARD_PHASE:
                if a >= 52:
                    continue  # a knock or big gin ends the hand
                b = _bit(card)
                if not self.known & b:
                    self._must_hold(card)
                self._score_discard(view, card)
                self.known &= ~b
                for k in range(self.n):
                    self.hands[k] &= ~b
            self._maybe_resample()

    def _pool(self, k):
        return ALL & ~self.seen & ~self.used[k]

    def _my_draw(self, c):
        b = _bit(c)
        self.seen |= b
        for k in range(self.n):
            if self.used[k] & b:
                # a card I drew from the stock can't be theirs: swap it for one of the pool
                if self.kill:
                    self.w[k] = 0.0
                    continue
                y = self.rng.choice(_cards(self._pool(k)))
                self.hands[k] = (self.hands[k] & ~b) | _bit(y)
                self.used[k] = (self.used[k] & ~b) | _bit(y)
                self.fixups += 1

    def _their_draw(self, x):
        """A stock draw; x: the card they throw next (HIDDEN if unknown)."""
        bx = _bit(x) if x >= 0 else 0
        for k in range(self.n):
            pool = self._pool(k)
            if bx and not self.hands[k] & bx and not self.known & bx and pool & bx:
                # they throw x next and don't hold it: the draw was x (weight: its prior chance)
                c = x
                self.w[k] *= 1.0 / bin(pool).count("1")
            else:
                c = self.rng.choice(_cards(pool))
            self.hands[k] |= _bit(c)
            self.used[k] |= _bit(c)

    def _must_hold(self, x):
        """They threw hidden card x; particles without it swap it in (after a take)."""
        b = _bit(x)
        for k in range(self.n):
            h = self.hands[k]
            if h & b:
                continue
            if not self._pool(k) & b:
                self.w[k] = 0.0  # x can't be theirs in this particle
                continue
            if self.kill:
                self.w[k] = 0.0
                continue
            y = self.rng.choice(_cards(h & ~self.known))
            self.hands[k] = (h & ~_bit(y)) | b
            self.used[k] = (self.used[k] & ~_bit(y)) | b
            self.fixups += 1

    # -- likelihoods ----------------------------------------------------------------
    def _reweight(self, view, likelihood):
        """Multiply each live particle's weight by likelihood(hand as 4 masks), computed
        once per distinct hand; the view lends the hand to hard's scoring meanwhile."""
        cache = {}
        for k in range(self.n):
            if self.w[k] == 0.0:
                continue
            h = self.hands[k]
            p = cache.get(h)
            if p is None:
                self.evals += 1
                p = cache[h] = likelihood(_mask_to_hand(h))
            self.w[k] *= p
        view.hand = None

    def _score_take(self, view, took):
        hp = self.hp
        top = view.pile[-1]

        def likelihood(hand):
            if self.model == "hard":
                view.hand = hand
                hp.read(view)
                z = hp.take_margin(hand, top) / self.td
                p = 1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0
                p = 0.01 + 0.98 * p
            else:
                p = 0.85 if E.joins_meld(hand, top) else 0.1
            return p if took else 1.0 - p

        self._reweight(view, likelihood)

    def _score_discard(self, view, x):
        hp = self.hp

        def likelihood(hand):
            if self.model == "hard":
                view.hand = hand
                hp.read(view)
                hp.best_discard(hand, view.taken)
                cands = [c for c in hand_cards(hand) if c != view.taken and hp.dws[c] <= hp.ks_limit]
                scores = [hp.ks[c] for c in cands]
            else:
                dws = hp.dws
                discard_deadwoods(hand, dws, view.taken)
                cands = [c for c in hand_cards(hand) if c != view.taken]
                scores = [16 * dws[c] for c in cands]
            best = min(scores)
            es = [math.exp(-(s - best) / self.t) for s in scores]
            z = sum(es)
            if x in cands:
                return es[cands.index(x)] / z
            return 0.01 * min(es) / z  # pruned by hard: far worse than its candidates

        self._reweight(view, likelihood)

    def _maybe_resample(self):
        tot = sum(self.w)
        if tot <= 0.0:
            # every particle refuted: start over from the prior of the present cards
            self.w = [1.0 / self.n] * self.n
            return
        w = [x / tot for x in self.w]
        self.w = w
        ess = 1.0 / sum(x * x for x in w)
        if ess >= self.n / 2:
            return
        self.resamples += 1
        u = self.rng.random() / self.n
        hands = []
        used = []
        c = w[0]
        j = 0
        for i in range(self.n):
            t = u + i / self.n
            while t > c and j < self.n - 1:
                j += 1
                c += w[j]
            hands.append(self.hands[j])
            used.append(self.used[j])
        self.hands = hands
        self.used = used
        self.w = [1.0 / self.n] * self.n

    # -- output ---------------------------------------------------------------------------
    def danger(self, cards):
        """({card: posterior chance (0..256) that it melds with two of their cards},
        {card: the model's danger formula over the posterior chance of each card}).

        The first counts the particles in which the card melds; the second puts
        each card's posterior chance of being in their hand (a mean over all
        particles, so less noisy) into ai_eval.danger's pair formula."""
        acc = {}
        for k in range(self.n):
            acc[self.hands[k]] = acc.get(self.hands[k], 0.0) + self.w[k]
        tot = sum(acc.values()) or 1.0
        marg = [0.0] * 52
        for m, wt in acc.items():
            for c in _cards(m):
                marg[c] += wt
        ws = _Weights()
        for c in range(52):
            if self.known >> c & 1:
                ws.w[c] = E.KNOWN
            else:
                ws.w[c] = min(250, int(round(256 * marg[c] / tot)))
        ind = {}
        formula = {}
        for c in cards:
            p = 0.0
            for m, wt in acc.items():
                if E.joins_meld(_mask_to_hand(m), c):
                    p += wt
            ind[c] = int(round(256 * p / tot))
            formula[c] = E.danger(ws, c)
        return ind, formula


class _Weights:
    """The one field of ai_eval.Scratch that ai_eval.danger reads."""

    __slots__ = ("w",)

    def __init__(self):
        self.w = bytearray(52)


class PolicyScorer(HardPlayer):
    """hard's own scoring, asked about a hand it may not hold: the `hard` policy model."""

    def best_discard(self, h, skip):
        """(score, card, least deadwood) of hard's best discard from 11 cards h; fills ks."""
        return self._best_discard(h, skip)

    def take_margin(self, h, t):
        """hard's _draw comparison (v_stock - v_take - take_pen): > 0 means it takes t."""
        sc = self.sc
        d0 = deadwood4(h[0], h[1], h[2], h[3])
        g0 = E.gain16(sc, h[0], h[1], h[2], h[3], d0)
        v_stock = self.kw * d0 - g0 - (self.beta * g0) // 16 - (self.kvw * sc.kv) // 16
        h2 = [0, 0, 0, 0]
        E.without(h, t, h2)
        h2[t // 13] |= 1 << (t % 13)
        v_take, _, _ = self._best_discard(h2, t)
        return v_stock - (v_take + self.take_pen)
