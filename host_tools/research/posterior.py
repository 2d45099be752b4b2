"""How well can FAIR inference of the opponent's hand predict which discard it
can meld, when it uses the whole public action sequence and a model of the
opponent's policy?  A research tool for issue 10 (host only, CPython).

    python -m host_tools.research.posterior --auc --matches 40 --filters hard:100:32:64,deadwood:100:32
    python -m host_tools.research.posterior --play --matches 600 --jobs 2 --filters hard:50:32:64 --blend 1
    python -m host_tools.research.posterior --cost --matches 10 --filters hard:50:32:64

The inference is a sequential particle filter (importance sampling with
resampling) over the opponent's hidden cards, run hand by hand:

* Evidence: the public event sequence of the hand as the expert sees it at the
  table.  Each opponent take (the card is public), pass, stock draw (card
  hidden), discard (public), and the expert's own actions and cards (its own
  stock draws are known to it).  A hook on Observation builds that stream from
  the round's action record, hiding the opponent's stock draws; the filter
  reads nothing else.  The opponent's cards are read only to label the rows
  (the truth of --auc), never by the filter or the player.
* Particles: one opponent hand each.  The dealt hand is 10 cards drawn evenly
  from the cards the opponent could hold (not mine, not the upcard); each of
  its stock draws is a card the particle allows.  When the opponent then throws
  a hidden card the particle does not hold, the draw is forced to be that card
  and the weight multiplied by its prior chance (1/pool): proposal and
  importance weight are exact for this case.  Two cases are fixed up instead
  of killed, so the particles stay diverse (an approximation: earlier
  likelihoods are not re-scored): a hidden card thrown right after a pile take
  that the particle lacks is swapped in for a random unknown card of its hand;
  a card I draw from the stock that a particle holds is swapped for a random
  card of its pool.
* Likelihood of every opponent decision given the particle's hand, with the
  opponent's view at that moment (the public parts of its Observation,
  snapshot at its decision, with the particle's hand put in):
    hard      hard's own scoring softened: P(discard x) ~ exp(-(keep score of
              x - best)/T) over hard's scored candidates (HardPlayer._best_discard),
              a pruned card 1/100 of the worst candidate; P(take) = a logistic
              of hard's _draw comparison (v_stock - v_take - take_pen)/Td.
    deadwood  a cheaper model: P(discard x) ~ exp(-16*(deadwood after x -
              least)/T); P(take) 0.85 if the card joins a meld, else 0.1.
  Resampling (systematic) when the effective sample size falls below N/2.
* Output: the posterior danger of each card I could discard (the weighted
  share of particles in which it melds with two of the opponent's cards,
  0..256), in place of the expert's danger_of (the seam of HardPlayer), alone
  or blended with the model's: (1 - blend) * model + blend * posterior.

Modes: --auc plays the expert as it is (so the decisions are those of
`oracle --calibration`) and reports the ROC AUC of the model's danger and of
each filter's posterior on the same rows; --play seats the expert with the
first filter's posterior danger against the opponent (compare the `none`
oracle on the same deals); --cost reports the CPU time and the policy
evaluations per decision.  A filter spec is model:particles:T[:Td[:swap|kill]]
(kill: refute the inconsistent particles of the two fix-up cases instead).

What it found (Classic, seed 1, against hard; --auc on 6-12 matches, --play on
600): the posterior is noise-limited.  Its ROC AUC rises with the particle
count (least-deadwood model: 0.72 at 200 particles, 0.76 at 1,000, 0.77 at
3,000, 0.78 at 10,000; hard's policy: 0.73 at 200, 0.77 at 1,000-5,000) and
reaches the model's 0.78-0.79 on the same rows only at 3,000-10,000 particles,
never above it; blends with the model gain at most 0.003.  Killing instead of
fixing up collapses the particles (0.67).  Seated in the expert it did not
help: 49.8 % (posterior alone, 200 particles) and 52.7 % (blend 0.25) against
the expert's own 54.3 % on the same 600 matches.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from gin import ai_eval as E
from gin import round as gin_round
from gin.ai import PLAYERS
from gin.ai_expert import ExpertPlayer
from gin.ai_hard import HardPlayer
from gin.cards import hand_cards
from gin.melds import deadwood4, discard_deadwoods
from gin.round import DISCARD_PHASE, DRAW, DRAW_STOCK, KNOCK, OFFER, PASS, SPREAD, TAKE_DISCARD

from host_tools.research.oracle import auc, map_chunks, play_seated, result_line

ALL = (1 << 52) - 1
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


# --- the players ---------------------------------------------------------------------------


def _hand_cards_plus_top(obs):
    out = obs.hand_cards()
    if obs.pile and obs.pile[-1] not in out:
        out.append(obs.pile[-1])
    return out


class PosteriorExpert(ExpertPlayer):
    """The expert whose discard danger is the first filter's posterior (blended
    with the model's); with log=True it plays the expert unchanged and records,
    for every card it could discard, (model danger, each filter's danger, truth)."""

    def __init__(self, seed=0, specs=(), blend=1.0, log=False, output="ind"):
        ExpertPlayer.__init__(self, seed)
        self.output = 0 if output == "ind" else 1
        self.filters = [Filter(m, n, t, td, fix, seed * 7 + i) for i, (m, n, t, td, fix) in enumerate(specs)]
        self.blend = blend
        self.log = log
        self.post = {}
        self.rows = []
        self.cpu = [0.0] * len(self.filters)
        self.decisions = 0

    def choose(self, obs):
        legal = obs.legal
        if len(legal) > 1 and obs.phase != SPREAD:
            self.decisions += 1
            cards = _hand_cards_plus_top(obs)
            posts = []
            for i, f in enumerate(self.filters):
                t0 = time.thread_time()
                f.update(obs.history)
                posts.append(f.danger(cards))
                self.cpu[i] += time.thread_time() - t0
            self.post = posts[0][self.output] if posts and not self.log else {}
        else:
            posts = []
            self.post = {}
        a = ExpertPlayer.choose(self, obs)
        if self.log and obs.phase == DISCARD_PHASE and len(legal) > 1:
            for c in range(52):
                if obs.hand[c // 13] >> (c % 13) & 1 and c != obs.taken:
                    truth = 1 if E.joins_meld(obs.oracle_opp, c) else 0
                    self.rows.append((E.danger(self.sc, c), tuple((p[0][c], p[1][c]) for p in posts), truth))
        return a

    def danger_of(self, x):
        p = self.post.get(x)
        model = E.danger(self.sc, x)
        if p is None:
            return model
        return int(round((1.0 - self.blend) * model + self.blend * p))


# --- running matches ------------------------------------------------------------------------


def _work(args):
    specs, blend, log, output, opponent, preset, seed, start, stop = args
    seated = []

    def seat(s):
        p = PosteriorExpert(s, specs, blend, log, output)
        seated.append(p)
        return p

    t0 = time.thread_time()
    tot = play_seated(init_with_history, seat, preset, seed, start, stop, opponent)
    rows = []
    cpu = [0.0] * len(specs)
    evals = [0] * len(specs)
    decisions = 0
    for p in seated:
        rows.extend(p.rows)
        decisions += p.decisions
        for i, f in enumerate(p.filters):
            cpu[i] += p.cpu[i]
            evals[i] += f.evals
    return tot, rows, cpu, evals, decisions, time.thread_time() - t0


def run(
    specs, blend=1.0, log=False, output="ind", opponent="hard", matches=100, preset="classic", seed=1, jobs=1
):
    step = 10 if matches >= 20 * jobs else 2  # small runs: small chunks, so every job has work
    chunks = [
        (specs, blend, log, output, opponent, preset, seed, i, min(matches, i + step))
        for i in range(0, matches, step)
    ]
    parts = map_chunks(_work, chunks, jobs)
    tot = [sum(p[0][k] for p in parts) for k in range(len(parts[0][0]))]
    rows = [r for p in parts for r in p[1]]
    cpu = [sum(p[2][i] for p in parts) for i in range(len(specs))]
    evals = [sum(p[3][i] for p in parts) for i in range(len(specs))]
    decisions = sum(p[4] for p in parts)
    total_cpu = sum(p[5] for p in parts)
    return tot, rows, cpu, evals, decisions, total_cpu


def parse_spec(s):
    parts = s.split(":")
    model = parts[0]
    if model not in ("hard", "deadwood"):
        raise ValueError("model must be hard or deadwood: %r" % s)
    n = int(parts[1]) if len(parts) > 1 else 100
    t = float(parts[2]) if len(parts) > 2 else 32.0
    td = float(parts[3]) if len(parts) > 3 else 64.0
    fix = parts[4] if len(parts) > 4 else "swap"
    if fix not in ("swap", "kill"):
        raise ValueError("fix must be swap or kill: %r" % s)
    return (model, n, t, td, fix)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.research.posterior", description=__doc__.split("\n\n")[0]
    )
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--auc", action="store_true", help="ROC AUC of each filter's posterior vs the model")
    mode.add_argument(
        "--play", action="store_true", help="the expert with the first filter's posterior danger"
    )
    mode.add_argument("--cost", action="store_true", help="CPU time and policy evaluations per decision")
    ap.add_argument("--filters", default="hard:100:32:64", help="comma-separated model:particles:T[:Td]")
    ap.add_argument("--blend", type=float, default=1.0, help="weight of the posterior against the model")
    ap.add_argument(
        "--output",
        choices=("ind", "formula"),
        default="ind",
        help="--play's danger: share of particles where the card melds, or the model's formula over posterior card chances",
    )
    ap.add_argument("--b", dest="opponent", choices=PLAYERS, default="hard")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--rules", choices=("classic", "modern", "10/20", "20/25"), default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    specs = [parse_spec(s) for s in a.filters.split(",")]
    t0 = time.monotonic()
    tot, rows, cpu, evals, decisions, total_cpu = run(
        specs, a.blend, a.auc or a.cost, a.output, a.opponent, a.matches, a.rules, a.seed, a.jobs
    )
    if a.auc:
        print(
            "%d cards the expert could have thrown, %d matches against %s (%s)"
            % (len(rows), a.matches, a.opponent, a.rules)
        )
        print("  model danger (ai_eval)          ROC AUC %.3f" % auc([(m, y) for m, _, y in rows]))
        for i, sp in enumerate(specs):
            name = "%s N=%d T=%g Td=%g %s" % sp
            for o, oname in ((0, "ind"), (1, "formula")):
                print("  %-30s %-8s ROC AUC %.3f" % (name, oname, auc([(p[i][o], y) for _, p, y in rows])))
                for lam in (0.25, 0.5, 0.75):
                    r = [((1 - lam) * m + lam * p[i][o], y) for m, p, y in rows]
                    print("    blend %.2f with the model                ROC AUC %.3f" % (lam, auc(r)))
    if a.auc or a.cost:
        print("per decision of the expert (%d decisions with a choice), CPU time of CPython:" % decisions)
        for i, sp in enumerate(specs):
            print(
                "  %-30s  %.1f ms, %.0f policy evaluations"
                % (
                    "%s N=%d T=%g Td=%g %s" % sp,
                    1000 * cpu[i] / max(1, decisions),
                    evals[i] / max(1, decisions),
                )
            )
    if a.play:
        who = "expert + posterior (%s, blend %.2f)" % (a.filters, a.blend)
        print(result_line(who, a.opponent, a.rules, a.matches, tot))
    print("(%.0f s wall, %.0f s CPU)" % (time.monotonic() - t0, total_cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
