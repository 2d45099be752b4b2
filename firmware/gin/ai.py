"""Computer players: easy, normal, hard, expert, and the baseline yardstick.

A player sees one thing: the Observation of its seat (own hand, the pile, what
the opponent took, passed and threw, stock size, scores, rules).  It keeps no
memory between decisions, so a decision is a function of the observation and
the player's seed alone: a restored game brings back the same computer, and a
test can re-deal the hidden cards and expect the same choice.

    p = make_player("hard", seed)   # a name of PLAYERS: LEVELS (gin/levels.py) or "baseline"
    action = p.choose(obs)          # one of obs.legal
    action, why = hint(obs)         # the hard player's choice and why (ui/hintwords.py: in words)

Levels
  baseline  the simple competition player: take the top card only if it joins
            a meld, discard to the least deadwood (never the card just taken),
            knock as soon as allowed.  A yardstick, not a level.
  easy      the baseline's plan with a beginner's slips: now and then it lets
            a useful top card go or throws a card it should keep.
  normal    a sound club player: least deadwood first, then what the next
            draw is worth; takes a top card that joins a meld or cuts the
            count; knocks as soon as allowed.  Reads the pile, not the opponent.
  hard      card tracking and an opponent model, potential that fades as the
            hand goes on, the value of knocking soon, safe discards, and
            knocking judgement (ai_hard.py).
  expert    hard's judgement checked by search: it samples the hidden cards
            the observation allows (weighted by the opponent's takes, passes
            and throws) and plays each candidate move out to the end of the
            hand in every sample (ai_expert.py, docs/AI.md).
"""

from gin import ai_eval as E
from gin.cards import RANK_VALUES, Rng, mix_seed
from gin.levels import LEVELS  # the one list of levels, re-exported
from gin.melds import deadwood4, deadwood_after_discard4, discard_deadwoods
from gin.round import ARRANGE, BIG_GIN, DRAW, DRAW_STOCK, KNOCK, OFFER, PASS, SPREAD, TAKE_DISCARD

# Every player the host tools can seat: the levels a person can choose, then the yardstick.
PLAYERS = LEVELS + ("baseline",)


def make_player(level, seed=0):
    """A player for one seat: a name of PLAYERS."""
    if level == "hard":
        from gin.ai_hard import HardPlayer  # loaded on demand, like the expert

        return HardPlayer(seed)
    if level == "expert":
        from gin.ai_expert import ExpertPlayer  # loaded on demand: its code costs RAM on a Pico

        return ExpertPlayer(seed)
    if level == "normal":
        return NormalPlayer(seed)
    if level == "easy":
        return EasyPlayer(seed)
    if level == "baseline":
        return BaselinePlayer(seed)
    raise ValueError("unknown level %r: use %s" % (level, ", ".join(PLAYERS)))


def _min_deadwood_cards(h, skip):
    """(least deadwood after one discard, the discards reaching it in card order), skipping card skip."""
    dws = bytearray(52)
    best = discard_deadwoods(h, dws, skip)
    return best, [x for x in range(52) if dws[x] == best] if best != 255 else []


class _Simple:
    """Shared plumbing of the baseline, easy and normal players."""

    level = "?"

    def __init__(self, seed):
        self.seed = seed & 0x3FFFFFFF

    def reset_hand(self):
        """Nothing to forget: every decision is derived from the observation."""

    def _rng(self, obs):
        # a fresh stream per decision, from the seed and the public state: no memory needed
        return Rng(mix_seed(self.seed & 0xFFFF, E.fingerprint(obs) + (self.seed >> 16)))

    def choose(self, obs):
        legal = obs.legal
        if not legal:
            raise ValueError("not this player's turn")
        if len(legal) == 1:
            return legal[0]
        ph = obs.phase
        if ph == SPREAD:
            return ARRANGE  # the first listed arrangement
        if ph == OFFER or ph == DRAW:
            if E.big_gin_take(obs):
                return TAKE_DISCARD
            return self._draw(obs)
        return self._discard(obs)

    def _knock_or(self, legal, x):
        """Knock with x if allowed (they all knock as soon as they can), else discard it."""
        if KNOCK + x in legal:
            return KNOCK + x
        if x in legal:
            return x
        return legal[-1]


# --- baseline -----------------------------------------------------------------


class BaselinePlayer(_Simple):
    """The simple competition player (the yardstick): takes a top card that joins a meld,
    throws a card that leaves the least deadwood, knocks as soon as it may."""

    level = "baseline"

    def _draw(self, obs):
        if TAKE_DISCARD in obs.legal and obs.pile and E.joins_meld(obs.hand, obs.pile[-1]):
            if not self._misses(obs):
                return TAKE_DISCARD
        return PASS if obs.phase == OFFER else DRAW_STOCK

    def _discard(self, obs):
        legal = obs.legal
        if BIG_GIN in legal:
            return BIG_GIN
        best, cards = _min_deadwood_cards(obs.hand, obs.taken)
        return self._knock_or(legal, self._throw(obs, cards))

    def _misses(self, obs):
        """True: let the top card that joins a meld go by (the baseline never does)."""
        return False

    def _throw(self, obs, cards):
        """The discard among ``cards``, those that leave the least deadwood."""
        return cards[0] if len(cards) == 1 else cards[self._rng(obs).below(len(cards))]


# --- easy ---------------------------------------------------------------------


class EasyPlayer(BaselinePlayer):
    """The baseline's plan with a beginner's slips (seeded, so reproducible)."""

    level = "easy"
    MISS_TAKE = 1  # in 8: lets a top card that joins a meld go by
    SLIP = 1  # in 8: throws a random loose card instead of the best one

    def _misses(self, obs):
        return self._rng(obs).below(8) < self.MISS_TAKE

    def _throw(self, obs, cards):
        h = obs.hand
        rng = self._rng(obs)
        x = cards[rng.below(len(cards))]
        if KNOCK + x not in obs.legal and rng.below(8) < self.SLIP:
            # a slip: any card outside the melds of the moment, not always the highest
            loose = []
            d0 = deadwood4(h[0], h[1], h[2], h[3])
            tmp = [0, 0, 0, 0]
            for s in range(4):
                for r in range(13):
                    c = s * 13 + r
                    if h[s] >> r & 1 and c != obs.taken:
                        E.without(h, c, tmp)
                        if deadwood4(tmp[0], tmp[1], tmp[2], tmp[3]) == d0 - RANK_VALUES[r]:
                            loose.append(c)
            if loose:
                x = loose[rng.below(len(loose))]
        return x


# --- normal -------------------------------------------------------------------


class NormalPlayer(_Simple):
    """A sound club player: least deadwood first; among discards within SLACK
    points of it, the one whose kept cards gain most from the next draw (live
    cards only: it reads the pile).  Takes a top card that joins a meld or cuts
    the count by TAKE_GAIN; knocks as soon as allowed."""

    level = "normal"
    TAKE_GAIN = 4
    SLACK = 0

    def __init__(self, seed):
        _Simple.__init__(self, seed)
        self.sc = E.Scratch()
        self.tmp = [0, 0, 0, 0]

    def _draw(self, obs):
        no = PASS if obs.phase == OFFER else DRAW_STOCK
        if TAKE_DISCARD not in obs.legal or not obs.pile:
            return no
        h = obs.hand
        t = obs.pile[-1]
        if E.joins_meld(h, t):
            return TAKE_DISCARD
        d0 = deadwood4(h[0], h[1], h[2], h[3])
        h2 = self.tmp
        E.without(h, t, h2)
        h2[t // 13] |= 1 << (t % 13)
        if deadwood_after_discard4(h2[0], h2[1], h2[2], h2[3]) <= d0 - self.TAKE_GAIN:
            return TAKE_DISCARD
        return no

    def _discard(self, obs):
        legal = obs.legal
        if BIG_GIN in legal:
            return BIG_GIN
        h = obs.hand
        best, cards = _min_deadwood_cards(h, obs.taken)
        x = cards[0]
        if KNOCK + x in legal:
            return KNOCK + x
        sc = self.sc
        E.load(sc, obs, False)
        tmp = self.tmp
        top = -(1 << 20)
        for s in range(4):
            for r in range(13):
                c = s * 13 + r
                if not h[s] >> r & 1 or c == obs.taken:
                    continue
                E.without(h, c, tmp)
                d = deadwood4(tmp[0], tmp[1], tmp[2], tmp[3])
                if d > best + self.SLACK:
                    continue
                n = E.gain16(sc, tmp[0], tmp[1], tmp[2], tmp[3], d) - 16 * d
                if n > top:
                    top = n
                    x = c
        return self._knock_or(legal, x)


# --- hint ---------------------------------------------------------------------


def hint(obs, expert=False):
    """(action, (reason, card, count)) for the person's side: the hard player's choice (the
    expert's with expert=True) and why (gin/ai_hint.py, loaded only when a hint is asked for;
    ui/hintwords.py says it in words)."""
    from gin.ai_hint import hint as _hint

    return _hint(obs, expert)
