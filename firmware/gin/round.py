"""One hand of gin as a state machine over small-int actions.

A hand is fully described by (rules, dealer, seed, actions): replaying the
actions on a fresh Round gives the identical state.  ``apply`` checks an action
completely before it changes anything, so an illegal action raises GinError
with a readable reason and leaves the hand as it was.
"""

from gin import melds
from gin.cards import GinError, card_text, cards_value, hand_cards, hand_has, shuffled_deck
from gin.rules import OFFER_DEALER_PLAYS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# --- actions ------------------------------------------------------------------
DISCARD = const(0)  # 0..51: discard that card
KNOCK = const(52)  # 52..103: knock, discarding card (a - 52) face down
DRAW_STOCK = const(104)
TAKE_DISCARD = const(105)
PASS = const(106)
BIG_GIN = const(107)
ARRANGE = const(108)  # 108..123: the knocker spreads best arrangement (a - 108)
MAX_ARRANGEMENTS = const(16)
ACTION_LIMIT = const(124)

# --- phases -------------------------------------------------------------------
OFFER = const(0)  # the upcard offer: take it or pass
DRAW = const(1)
DISCARD_PHASE = const(2)  # after a draw: discard, knock or big gin
SPREAD = const(3)  # the knocker chooses among equally low arrangements
OVER = const(4)

# --- hand results -------------------------------------------------------------
KNOCK_WIN = const(0)
UNDERCUT = const(1)
GIN = const(2)
BIG_GIN_WIN = const(3)
CANCELLED = const(4)
RESULT_NAMES = ("knock", "undercut", "gin", "big gin", "cancelled")

TURN_LIMIT = const(100)  # device rule: a hand that reaches 100 turns is cancelled
STOCK_FLOOR = const(2)  # a discard that leaves 2 cards in the stock cancels the hand


def action_text(a):
    """A person's words for an action: 'discard 7H', 'knock 7H', 'draw'."""
    if 0 <= a < 52:
        return "discard " + card_text(a)
    if KNOCK <= a < KNOCK + 52:
        return "knock " + card_text(a - KNOCK)
    if a == DRAW_STOCK:
        return "draw"
    if a == TAKE_DISCARD:
        return "take"
    if a == PASS:
        return "pass"
    if a == BIG_GIN:
        return "big gin"
    if ARRANGE <= a < ARRANGE + MAX_ARRANGEMENTS:
        return "spread %d" % (a - ARRANGE + 1)
    return "action %d" % a


class HandResult:
    """How a hand ended, with everything the knock screen shows."""

    def __init__(self):
        self.kind = CANCELLED
        self.knocker = -1
        self.winner = -1  # -1: nobody scores (cancelled)
        self.points = 0  # (base + bonus) * multiplier
        self.base = 0  # the deadwood difference (gin, big gin: the defender's deadwood)
        self.bonus = 0  # the gin, big gin or undercut bonus (0 for a plain knock)
        self.multiplier = 1
        self.knocker_deadwood = 0
        self.defender_deadwood = 0  # after lay-offs (before, for gin: no lay-offs)
        self.defender_deadwood_before = 0  # own melds only
        self.knocker_melds = []
        self.knocker_deadwood_cards = []
        self.defender_melds = []
        self.defender_deadwood_cards = []
        self.layoffs = []  # (card, knocker meld index) in laying order
        self.reason = ""

    def summary(self):
        """(kind, winner, points, knocker): enough to rebuild the match score."""
        return (self.kind, self.winner, self.points, self.knocker)


class Round:
    """One hand. Players are 0 and 1; ``dealer`` deals, the other is the non-dealer."""

    def __init__(self, rules, dealer, seed, deck=None):
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        # ``deck`` (top first) stacks the cards for tests and puzzles; play uses the seed.
        deck = shuffled_deck(seed) if deck is None else list(deck)
        self.deck = deck
        self.hands = [[0, 0, 0, 0], [0, 0, 0, 0]]
        nd = 1 - dealer
        for i in range(20):
            c = deck[i]
            p = nd if i % 2 == 0 else dealer  # one at a time, non-dealer first
            self.hands[p][c // 13] |= 1 << (c % 13)
        self.upcard = deck[20]
        self.pile = [deck[20]]
        self.stock_pos = 21  # deck[stock_pos] is the top of the stock
        self.knock_limit = rules.hand_knock_limit(self.upcard)
        self.multiplier = rules.hand_multiplier(self.upcard)
        self.phase = OFFER
        self.player = nd
        self.stock_only = False  # the non-dealer's draw after both passed the upcard
        self.taken = -1  # the card just taken from the pile: can't be thrown back this turn
        self.turns = 0
        self.actions = bytearray()  # every action is below 128: one byte each
        # what each player did in the open: cards taken from the pile, passed, thrown
        self.took = ([], [])
        self.passed = ([], [])
        self.threw = ([], [])
        self.last = [-1, -1]  # each player's last action
        self.knocker = -1
        self.knock_card = -1
        self.arrangements = None
        self.result = None

    # --- reading the state --------------------------------------------------

    @property
    def over(self):
        return self.phase == OVER

    def stock_size(self):
        return 52 - self.stock_pos

    def top(self):
        return self.pile[-1] if self.pile else -1

    def hand_of(self, p):
        return self.hands[p]

    def cards_of(self, p):
        return hand_cards(self.hands[p])

    def legal_actions(self):
        """Every legal action of the player to act, ascending."""
        ph = self.phase
        if ph == OFFER:
            return [TAKE_DISCARD, PASS]
        if ph == DRAW:
            return [DRAW_STOCK] if self.stock_only else [DRAW_STOCK, TAKE_DISCARD]
        if ph == DISCARD_PHASE:
            h = self.hands[self.player]
            discards = []
            knocks = []
            gin_possible = False
            for c in hand_cards(h):
                if c == self.taken:
                    continue
                d = self._deadwood_without(h, c)
                discards.append(c)
                if d <= self.knock_limit:
                    knocks.append(KNOCK + c)
                if d == 0:
                    gin_possible = True
            if gin_possible and self.rules.gin_forced:
                # gin is forced: the only way out of this turn is gin itself (or big gin)
                out = [k for k in knocks if self._deadwood_without(h, k - KNOCK) == 0]
            else:
                out = discards + knocks
            if self.rules.big_gin and melds.deadwood(h) == 0:
                out.append(BIG_GIN)
            return out
        if ph == SPREAD:
            return [ARRANGE + i for i in range(len(self.arrangements))]
        return []

    def is_legal(self, a):
        try:
            self._check(a)
        except GinError:
            return False
        return True

    # --- acting -----------------------------------------------------------

    def apply(self, a):
        """Apply one action of the player to act; GinError (state unchanged) if illegal."""
        self._check(a)
        self.actions.append(a)
        p = self.player
        ph = self.phase
        if ph == OFFER:
            if a == TAKE_DISCARD:
                self._take(p)
            else:
                self.passed[p].append(self.upcard)
                self.last[p] = PASS
                if p != self.dealer:
                    self.player = self.dealer
                    if self.rules.upcard_offer == OFFER_DEALER_PLAYS:
                        # [004]: the dealer plays a normal first turn: upcard or stock
                        self.phase = DRAW
                else:
                    self.phase = DRAW
                    self.player = 1 - self.dealer
                    self.stock_only = True
        elif ph == DRAW:
            if a == TAKE_DISCARD:
                self._take(p)
            else:
                if self.pile:
                    self.passed[p].append(self.pile[-1])
                c = self.deck[self.stock_pos]
                self.stock_pos += 1
                self.hands[p][c // 13] |= 1 << (c % 13)
                self.taken = -1
                self.turns += 1
                self.last[p] = DRAW_STOCK
                self.phase = DISCARD_PHASE
                self.stock_only = False
        elif ph == DISCARD_PHASE:
            if a < 52:
                self._remove(p, a)
                self.pile.append(a)
                self.threw[p].append(a)
                self.last[p] = a
                self.taken = -1
                if self.stock_size() <= STOCK_FLOOR:
                    self._cancel("Stock down to %d cards" % self.stock_size())
                elif self.turns >= TURN_LIMIT:
                    self._cancel("%d turns without an end" % TURN_LIMIT)
                else:
                    self.player = 1 - p
                    self.phase = DRAW
            elif a == BIG_GIN:
                self.knocker = p
                self.last[p] = BIG_GIN
                self._finish_big_gin(p)
            else:
                c = a - KNOCK
                self._remove(p, c)
                self.knocker = p
                self.knock_card = c
                self.last[p] = a
                self.taken = -1
                h = self.hands[p]
                if melds.deadwood(h) == 0:
                    self._finish_knock(p, None)
                else:
                    arr = melds.min_arrangements(h, MAX_ARRANGEMENTS)
                    self.arrangements = arr
                    if len(arr) == 1:
                        self._finish_knock(p, arr[0])
                    else:
                        self.phase = SPREAD
        elif ph == SPREAD:
            self._finish_knock(p, self.arrangements[a - ARRANGE])
        return self

    def _take(self, p):
        c = self.pile.pop()
        self.hands[p][c // 13] |= 1 << (c % 13)
        self.took[p].append(c)
        self.taken = c
        self.turns += 1
        self.last[p] = TAKE_DISCARD
        self.phase = DISCARD_PHASE
        self.stock_only = False

    def _remove(self, p, c):
        self.hands[p][c // 13] &= ~(1 << (c % 13))

    @staticmethod
    def _deadwood_without(h, c):
        s = c // 13
        bit = 1 << (c % 13)
        h[s] ^= bit
        d = melds.deadwood(h)
        h[s] ^= bit
        return d

    def _check(self, a):
        """Raise GinError with a person's reason if action a is illegal now."""
        if not isinstance(a, int) or isinstance(a, bool) or a < 0 or a >= ACTION_LIMIT:
            raise GinError("unknown action %r" % (a,))
        ph = self.phase
        if ph == OVER:
            raise GinError("the hand is over")
        if ph == OFFER:
            if a == TAKE_DISCARD or a == PASS:
                return
            raise GinError("take the upcard or pass first")
        if ph == DRAW:
            if a == DRAW_STOCK:
                return
            if a == TAKE_DISCARD:
                if self.stock_only:
                    raise GinError("both passed the upcard: draw from the stock")
                return
            if a == PASS:
                raise GinError("you can only pass on the upcard")
            raise GinError("draw first: from the stock or the pile")
        if ph == SPREAD:
            if ARRANGE <= a < ARRANGE + len(self.arrangements):
                return
            raise GinError("choose how to spread your melds")
        # DISCARD_PHASE
        if a in (DRAW_STOCK, TAKE_DISCARD, PASS):
            raise GinError("you have drawn: now discard or knock")
        h = self.hands[self.player]
        if a == BIG_GIN:
            if not self.rules.big_gin:
                raise GinError("big gin is off in these rules")
            if melds.deadwood(h) != 0:
                raise GinError("big gin needs all 11 cards in melds")
            return
        if a >= ARRANGE:
            raise GinError("nothing to spread: discard or knock")
        c = a if a < 52 else a - KNOCK
        if not hand_has(h, c):
            raise GinError("%s is not in your hand" % card_text(c))
        if c == self.taken:
            raise GinError("%s was just taken from the pile: keep it this turn" % card_text(c))
        d = self._deadwood_without(h, c)
        if a >= KNOCK:
            if d > self.knock_limit:
                if self.knock_limit == 0:
                    raise GinError("deadwood %d: only gin may knock in this hand" % d)
                raise GinError("deadwood %d is above the knock limit %d" % (d, self.knock_limit))
            if d and self.rules.gin_forced and self._gin_available(h):
                raise GinError("gin is forced: you have gin, knock with gin")
            return
        if self.rules.gin_forced and self._gin_available(h):
            raise GinError("gin is forced: knock for gin")

    def _gin_available(self, h):
        for c in hand_cards(h):
            if c != self.taken and self._deadwood_without(h, c) == 0:
                return True
        return False

    # --- endings ------------------------------------------------------------

    def _cancel(self, why):
        r = HandResult()
        r.kind = CANCELLED
        r.reason = why
        self.result = r
        self.phase = OVER

    def _spread_defender(self, r, d):
        arr, dw = melds.arrangement(self.hands[d])
        r.defender_melds = arr
        r.defender_deadwood_cards = dw
        r.defender_deadwood_before = cards_value(dw)
        r.defender_deadwood = r.defender_deadwood_before

    def _finish_big_gin(self, p):
        r = HandResult()
        r.kind = BIG_GIN_WIN
        r.knocker = p
        r.winner = p
        r.knocker_melds, r.knocker_deadwood_cards = melds.arrangement(self.hands[p])
        self._spread_defender(r, 1 - p)
        r.multiplier = self.multiplier
        r.base = r.defender_deadwood
        r.bonus = self.rules.big_gin_bonus
        r.points = (r.base + r.bonus) * self.multiplier
        r.reason = "big gin %d + deadwood %d" % (self.rules.big_gin_bonus, r.defender_deadwood)
        self.result = r
        self.phase = OVER

    def _finish_knock(self, p, arrangement):
        r = HandResult()
        r.knocker = p
        d = 1 - p
        r.multiplier = self.multiplier
        if arrangement is None:  # gin: all ten in melds, no lay-offs
            r.kind = GIN
            r.winner = p
            r.knocker_melds, r.knocker_deadwood_cards = melds.arrangement(self.hands[p])
            self._spread_defender(r, d)
            r.base = r.defender_deadwood
            r.bonus = self.rules.gin_bonus
            r.points = (r.base + r.bonus) * self.multiplier
            r.reason = "gin %d + deadwood %d" % (self.rules.gin_bonus, r.defender_deadwood)
        else:
            km, kd = arrangement
            r.knocker_melds = km
            r.knocker_deadwood_cards = kd
            k = cards_value(kd)
            r.knocker_deadwood = k
            own_melds, own_dw = melds.arrangement(self.hands[d])
            r.defender_deadwood_before = cards_value(own_dw)
            dv, dmelds, lays, ddw = melds.layoff(self.hands[d], km)
            r.defender_deadwood = dv
            r.defender_melds = dmelds
            r.layoffs = lays
            r.defender_deadwood_cards = ddw
            if k < dv:
                r.kind = KNOCK_WIN
                r.winner = p
                r.base = dv - k
                r.points = r.base * self.multiplier
                r.reason = "%d - %d" % (dv, k)
            else:
                r.kind = UNDERCUT
                r.winner = d
                r.base = k - dv
                r.bonus = self.rules.undercut_bonus
                r.points = (r.base + r.bonus) * self.multiplier
                r.reason = "%d - %d + undercut %d" % (k, dv, self.rules.undercut_bonus)
        self.result = r
        self.phase = OVER

    # --- records ------------------------------------------------------------

    @classmethod
    def replay(cls, rules, dealer, seed, actions):
        r = cls(rules, dealer, seed)
        for a in actions:
            r.apply(a)
        return r

    def observation(self, p):
        return Observation(self, p)

    def check_invariants(self):
        """All 52 cards accounted for exactly once; raises AssertionError otherwise."""
        seen = [0, 0, 0, 0]
        count = 0
        for h in self.hands:
            for s in range(4):
                if seen[s] & h[s]:
                    raise AssertionError("a card is in two places")
                seen[s] |= h[s]
        for c in (
            self.pile + self.deck[self.stock_pos :] + ([self.knock_card] if self.knock_card >= 0 else [])
        ):
            bit = 1 << (c % 13)
            if seen[c // 13] & bit:
                raise AssertionError("card %s is in two places" % card_text(c))
            seen[c // 13] |= bit
        for s in range(4):
            if seen[s] != 0x1FFF:
                raise AssertionError("cards missing")
            count += 1
        n0 = len(hand_cards(self.hands[0]))
        n1 = len(hand_cards(self.hands[1]))
        if self.phase in (OFFER, DRAW) or (self.phase == OVER and self.knocker < 0):
            if n0 != 10 or n1 != 10:
                raise AssertionError("hand sizes %d/%d" % (n0, n1))
        return True


class Observation:
    """What player ``me`` may see of a hand: never the opponent's cards or the stock order."""

    def __init__(self, rnd, me):
        opp = 1 - me
        self.me = me
        self.dealer = rnd.dealer
        # Copies only: a player that writes to its observation must not reach the match.
        self.rules = rnd.rules.clone()
        self.phase = rnd.phase
        self.to_act = rnd.player == me and rnd.phase != OVER
        self.hand = list(rnd.hands[me])
        self.pile = list(rnd.pile)
        self.upcard = rnd.upcard
        self.stock_size = 52 - rnd.stock_pos
        self.taken = rnd.taken if rnd.player == me else -1
        self.turns = rnd.turns
        self.knock_limit = rnd.knock_limit
        self.multiplier = rnd.multiplier
        self.stock_only = rnd.stock_only
        self.opp_hand_size = len(hand_cards(rnd.hands[opp]))
        self.opp_took = list(rnd.took[opp])
        self.opp_passed = list(rnd.passed[opp])
        self.opp_threw = list(rnd.threw[opp])
        self.my_took = list(rnd.took[me])
        self.my_passed = list(rnd.passed[me])
        self.my_threw = list(rnd.threw[me])
        self.opp_last = rnd.last[opp]
        self.legal = rnd.legal_actions() if self.to_act else []
        self.arrangements = None
        if rnd.phase == SPREAD and self.to_act:
            # copies all the way down: the engine's own lists stay out of reach
            self.arrangements = [([list(m) for m in ms], list(dead)) for ms, dead in rnd.arrangements]
        self.scores = None  # filled in by the match: (my total, opponent total, target)

    def opp_known(self):
        """Cards the opponent surely holds: taken from the pile and not thrown since."""
        out = []
        for c in self.opp_took:
            # a card can travel back and forth through the pile: count both ways
            if c not in out and self.opp_took.count(c) > self.opp_threw.count(c):
                out.append(c)
        return out

    def hand_cards(self):
        return hand_cards(self.hand)
