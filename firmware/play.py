"""A match in play: the match, who sits in each seat, what a move does.

``Play`` changes the game and answers with outcomes; it never draws, beeps,
saves or changes screens: the App (the loop) turns an outcome into those.  Who
makes each player's moves is a seat (modes.SEATS): a person with the buttons,
a person the handheld is passed to, a computer (play_computer.py, loaded only
when a computer plays) or the other handheld on the cable (play_cable.py,
loaded only for link play).
"""

from modes import COMPUTER, LEVELED, NAMES, PASSER, PERSON, SEATS, TURN_BEEP, WATCHING, has

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Mirrors of gin.match and gin.round numbers, so that booting to the title needs no rules core
# (tests/test_app.py holds them equal).
PLAYING = const(0)
DISCARD_PHASE = const(2)
OVER = const(4)
KNOCK = const(52)
DRAW_STOCK = const(104)
TAKE_DISCARD = const(105)
BIG_GIN = const(107)

# What a move led to (Play.apply).
MOVED = const(0)  # the game goes on
YOUR_TURN = const(1)  # a computer moved and the turn is the person's again
PASS_ON = const(2)  # the next move is the other person's: the handheld is passed
HAND_OVER = const(3)  # the hand ended: its result

# Finished hands whose actions a match keeps in memory (gin.match Match.kept): the cable
# resends at most the hand before the live one (link/session.py _hand_actions) and a save
# holds only the live hand's.  Keeping all of them grew a Pico's heap ~135 B a hand.
HANDS_KEPT = const(1)


class Play:
    """The play state the screens read (through the App) and the moves that change it."""

    def __init__(self, mode, level):
        self.mode = mode
        self.level = level
        self.demo = False  # the title's demo: a watched match nobody asked for
        self.match = None
        self.seat = 0  # the player whose hand the table shows (on a link: this handheld's)
        self.sort = 0  # 0: by suit, 1: by rank
        self.cursor = -1  # the card under the cursor (-1: the table picks one)
        self.notes = [None, None]  # each player's last visible move: (action, card taken) or None
        self.seats = [None, None]  # per player: its ComputerSeat, or None (a person, the cable)
        self.aiseed = 0
        self.hand_recorded = -1  # the statistics hold the hands before this one

    # --- who sits where ---------------------------------------------------------------

    def kind(self, p):
        """Who makes player p's moves: PERSON, PASSER, COMPUTER or CABLE (modes.py)."""
        if self.seats[p] is not None:
            return COMPUTER
        k = SEATS[self.mode][0 if p == self.seat else 1]
        return PERSON if k == COMPUTER else k  # a computer whose seat a test took over

    def is_human(self, p):
        """A person plays p on this handheld (on a link, the other handheld's player is not)."""
        k = self.kind(p)
        return k == PERSON or k == PASSER

    @property
    def names(self):
        n = NAMES[self.mode]
        kinds = SEATS[self.mode]
        if self.seat == 1 and kinds[0] != kinds[1]:
            return (n[1], n[0])  # the names follow this handheld's seat
        return n

    def seat_computers(self):
        """A computer player in each computer seat (the demo plays hard)."""
        self.seats = [None, None]
        kinds = SEATS[self.mode]
        if not has(self.mode, LEVELED):
            return
        from gin import ai
        from gin.cards import mix_seed
        from play_computer import ComputerSeat

        level = ai.LEVELS[2 if self.demo else self.level]
        watching = has(self.mode, WATCHING)
        self.seats[1] = ComputerSeat(ai.make_player(level, self.aiseed), watching)
        if kinds[0] == COMPUTER:
            self.seats[0] = ComputerSeat(ai.make_player(level, mix_seed(self.aiseed, 7)), watching)

    def computer(self):
        """The seat of the computer to move now, or None."""
        m = self.match
        return None if m is None else self.seats[m.round.player]

    @property
    def thinking(self):
        """The computer to move shows the thinking mark."""
        s = self.computer()
        return s is not None and s.thinking

    def calm(self):
        """No computer is pausing or thinking: a new hand, a result, a loaded match."""
        for s in self.seats:
            if s is not None:
                s.due = None
                s.thinking = False

    # --- the match ----------------------------------------------------------------------

    def hold(self, match):
        """Take match as the one in play (a new one, or one loaded from the save)."""
        match.kept = HANDS_KEPT
        self.match = match

    def start_match(self, match):
        self.hold(match)
        self.hand_recorded = -1
        self.seat_computers()
        self.start_hand()

    def start_hand(self):
        self.notes = [None, None]
        self.cursor = -1
        self.calm()

    def leave(self):
        self.match = None
        self.seats = [None, None]
        self.demo = False

    def apply(self, a):
        """Play action a for the player to move; its outcome.  GinError when illegal (nothing changed)."""
        m = self.match
        rnd = m.round
        p = rnd.player
        before = list(rnd.hands[p])
        m.apply(a)
        if a == TAKE_DISCARD:
            self.notes[p] = (a, rnd.took[p][-1])
        elif KNOCK <= a <= BIG_GIN:  # knocks, a draw, a pass, big gin: a discard leaves the note
            self.notes[p] = (a, -1)
        if (a == DRAW_STOCK or a == TAKE_DISCARD) and p == self.seat:
            # the cursor goes to the card that just arrived
            h = rnd.hands[p]
            for s in range(4):
                new = h[s] & ~before[s]
                if new:
                    r = 0
                    while not new >> r & 1:
                        r += 1
                    self.cursor = s * 13 + r
        if rnd.phase == OVER:
            self.calm()
            return HAND_OVER
        q = rnd.player
        if q != self.seat and self.kind(q) == PASSER:
            self.seat = q
            return PASS_ON
        if has(self.mode, TURN_BEEP) and self.kind(p) == COMPUTER and self.kind(q) == PERSON:
            return YOUR_TURN
        return MOVED

    def set_cursor(self, card):
        self.cursor = card

    def toggle_sort(self):
        self.sort = 1 - self.sort
        return self.sort

    def hint(self):
        """(action, reason facts) for the person to move: the hard player's choice, or the
        expert's against the expert (whose players wait for its search anyway); or None."""
        m = self.match
        if m is None or m.state != PLAYING or not self.is_human(m.round.player):
            return None
        from gin import ai

        level = ai.LEVELS[self.level]
        return ai.hint(m.observation(m.round.player), level == "expert")
