"""Hands into a game: totals, boxes, bonuses, Hollywood columns, the next dealer.

A match is fully described by (rules, seed, the actions of each hand).  The
score itself only needs each hand's summary (kind, winner, points, knocker),
so a save can keep the summaries of finished hands plus the live hand's actions.
"""

from gin.cards import Rng, mix_seed
from gin.round import CANCELLED, OVER, Round
from gin.rules import ALTERNATE, CUT, HIGHER_TALLY, LOSER_DEALS, WINNER_DEALS

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


PLAYING = const(0)
HAND_OVER = const(1)
GAME_OVER = const(2)

COLUMNS = const(3)  # Hollywood: three games at once


def hand_seed(match_seed, hand_no):
    return mix_seed(match_seed, 1 + hand_no)


class Column:
    """One game's score: a plain game has one, Hollywood has three."""

    def __init__(self):
        self.totals = [0, 0]
        self.wins = [0, 0]  # hands entered in this game
        self.closed = False
        self.winner = -1  # who reached the target
        self.game_bonus = [0, 0]
        self.box_bonus = [0, 0]
        self.shutout = False

    def final(self, p):
        return self.totals[p] + self.game_bonus[p] + self.box_bonus[p]

    def close(self, rules, w):
        self.closed = True
        self.winner = w
        self.shutout = self.wins[1 - w] == 0
        self.game_bonus[w] = rules.shutout_bonus if self.shutout else rules.game_bonus
        for p in (0, 1):
            self.box_bonus[p] = rules.box_bonus * self.wins[p]


# The record of a finished hand whose actions are not in memory (dealer unknown): one shared
# tuple, so that a long match adds no record objects to the heap.
_GONE = (-1, b"")


class Match:
    """A game (or a Hollywood match of three games) between players 0 and 1."""

    def __init__(self, rules, seed, deck=None, dealer=None):
        """deck (top first) and dealer choose the first hand's deal for tests and tools;
        ``stacked`` says so: such a match can't be rebuilt from (rules, seed, actions)."""
        self.rules = rules
        self.seed = seed
        self.stacked = deck is not None or dealer is not None
        self.cuts = []  # (card of player 0, card of player 1) per cut, for the screen
        self.dealer = self._first_dealer() if dealer is None else dealer
        self.columns = [Column() for _ in range(COLUMNS if rules.hollywood else 1)]
        self.wins = [0, 0]  # hands won in the match
        self.summaries = []  # (kind, winner, points, knocker) of each finished hand
        self.records = []  # (dealer, bytes of actions) of each finished hand
        # How many finished hands keep their actions in memory; the older ones become _GONE, as
        # a restored match's are.  None (all of them) lets record() replay the whole match; a
        # handheld keeps one (play.py), else the heap grows by a hand's actions every hand.
        self.kept = None
        self.winner = -1
        self.state = PLAYING
        self.round = Round(rules, self.dealer, hand_seed(seed, 0), deck)

    def _first_dealer(self):
        rng = Rng(mix_seed(self.seed, 0))
        if self.rules.first_dealer != CUT:
            return rng.below(2)
        # Each player cuts one card; the lower rank deals, equal ranks cut again.
        while True:
            deck = list(range(52))
            rng.shuffle(deck)
            a = deck[rng.below(52)]
            b = a
            while b == a:
                b = deck[rng.below(52)]
            self.cuts.append((a, b))
            if a % 13 != b % 13:
                return 0 if a % 13 < b % 13 else 1

    # --- reading ---------------------------------------------------------------

    @property
    def hand_no(self):
        return len(self.summaries)

    @property
    def totals(self):
        """Running totals of the first game column (the only one outside Hollywood)."""
        return self.columns[0].totals

    def score_of(self, p):
        """A player's current score: the sum of their column totals."""
        t = 0
        for col in self.columns:
            t += col.totals[p]
        return t

    def final_tally(self, p):
        t = 0
        for col in self.columns:
            t += col.final(p)
        return t

    def observation(self, p):
        obs = self.round.observation(p)
        obs.scores = (self.score_of(p), self.score_of(1 - p), self.rules.target)
        obs.match_totals = [(c.totals[p], c.totals[1 - p], c.closed) for c in self.columns]
        return obs

    def legal_actions(self):
        return self.round.legal_actions() if self.state == PLAYING else []

    # --- acting ----------------------------------------------------------------

    def apply(self, a):
        """Apply an action to the live hand; scores it when the hand ends."""
        if self.state != PLAYING:
            from gin.cards import GinError

            raise GinError(
                "the hand is over: deal the next one" if self.state == HAND_OVER else "the game is over"
            )
        self.round.apply(a)
        if self.round.phase == OVER:
            self._record(self.round.result.summary())
            recs = self.records
            recs.append((self.round.dealer, bytes(self.round.actions)))
            if self.kept is not None:
                i = len(recs) - 1 - self.kept  # the newest hand past those kept; older ones went before
                while i >= 0 and recs[i] is not _GONE:
                    recs[i] = _GONE
                    i -= 1
        return self

    def next_hand(self):
        """Deal the next hand after a finished one."""
        if self.state != HAND_OVER:
            from gin.cards import GinError

            raise GinError("the hand is still being played" if self.state == PLAYING else "the game is over")
        self.state = PLAYING
        self.round = Round(self.rules, self.dealer, hand_seed(self.seed, self.hand_no))
        return self.round

    def _record(self, summary):
        kind, w, pts, _knocker = summary
        self.summaries.append(summary)
        rules = self.rules
        if kind != CANCELLED:
            self.wins[w] += 1
            entered = False
            for col in self.columns:
                if col.closed:
                    continue
                if col.wins[w] > 0 or not entered and col.wins[w] == 0:
                    if col.wins[w] == 0:
                        entered = True  # only the lowest open game without an entry
                    col.totals[w] += pts
                    col.wins[w] += 1
                    if col.totals[w] >= rules.target:
                        col.close(rules, w)
            nd = rules.next_dealer
            if nd == WINNER_DEALS:
                self.dealer = w
            elif nd == LOSER_DEALS:
                self.dealer = 1 - w
            elif nd == ALTERNATE:
                self.dealer = 1 - self.dealer
        # a cancelled hand: the same dealer deals again
        if self._all_closed():
            self.state = GAME_OVER
            self.winner = self._decide_winner()
        else:
            self.state = HAND_OVER

    def _all_closed(self):
        for col in self.columns:
            if not col.closed:
                return False
        return True

    def _decide_winner(self):
        if self.rules.hollywood:
            a = self.final_tally(0)
            b = self.final_tally(1)
            return 0 if a > b else 1 if b > a else -1
        col = self.columns[0]
        if self.rules.game_winner == HIGHER_TALLY:
            a = col.final(0)
            b = col.final(1)
            if a != b:
                return 0 if a > b else 1
        return col.winner

    # --- records ---------------------------------------------------------------

    def record(self):
        """(seed, [actions of each hand]) including the live hand: replays to this state
        (when every hand kept its actions: ``kept`` None)."""
        hands = [acts for (_d, acts) in self.records]
        if self.state == PLAYING or self.round.phase != OVER:
            hands.append(bytes(self.round.actions))
        return self.seed, hands

    @classmethod
    def replay(cls, rules, seed, hands):
        """Rebuild a match by replaying every action of every hand."""
        m = cls(rules, seed)
        for i in range(len(hands)):
            if i > 0:
                m.next_hand()
            for a in hands[i]:
                m.apply(a)
        return m

    @classmethod
    def restore(cls, rules, seed, summaries, live_actions):
        """Rebuild from finished hands' summaries plus the live hand's actions (the save format)."""
        m = cls(rules, seed)
        for s in summaries:
            m._record(tuple(s))
            m.records.append(_GONE)
            if m.state == GAME_OVER:
                return m
        m.state = PLAYING
        m.round = Round(rules, m.dealer, hand_seed(seed, m.hand_no))
        for a in live_actions:
            m.apply(a)
        return m
