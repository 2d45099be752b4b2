"""A computer in a seat, paced like a person: a pause before each move, the thinking mark before a slow one.

Loaded only when a mode seats a computer (modes.LEVELED).
"""

from events import ticks_diff
from gin.round import DISCARD_PHASE  # loaded with the match this seat plays in

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


PACE_MS = (const(450), const(700))  # the pause before a draw, before a discard
WATCH_PACE_MS = const(900)
THINK_MS = const(80)  # a move slower than this shows the thinking mark before the next one

# ComputerSeat.turn's answers besides an action.
WAIT = const(-1)  # not yet: the pause goes on
THINK = const(-2)  # show the thinking mark now; the move comes at the next step


class ComputerSeat:
    def __init__(self, player, watching):
        self.player = player  # a gin.ai player: choose(observation) -> action
        self.watching = watching  # computers playing each other: a steadier pace
        self.due = None  # when the pause before the next move ends
        self.slow = False  # was the last decision slow (the thinking mark before the next)?
        self.thinking = False

    def turn(self, match, now, clock, feed):
        """The move for the player to move, once its pause has passed; WAIT or THINK before."""
        rnd = match.round
        if self.due is None:
            if self.watching:
                pace = WATCH_PACE_MS
            else:
                pace = PACE_MS[1 if rnd.phase == DISCARD_PHASE else 0]
            self.due = now + pace
            return WAIT
        if ticks_diff(now, self.due) < 0:
            return WAIT
        if self.slow and not self.thinking:
            self.thinking = True  # drawn this step; the move comes next step
            return THINK
        if feed is not None:
            feed()  # a slow decision must not look like a hang to the watchdog
        t0 = clock.ticks_ms()
        a = self.player.choose(match.observation(rnd.player))
        self.slow = ticks_diff(clock.ticks_ms(), t0) >= THINK_MS
        self.thinking = False
        self.due = None
        return a
