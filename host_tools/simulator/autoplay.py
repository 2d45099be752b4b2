"""A pilot that plays the person's side through the buttons, for scripts and tests.

It reads the app's state only to decide (which screen, whose turn, where
the cursor is) and acts only by pressing buttons on the simulated keypad,
exactly as a person would: so a full match played by the pilot exercises the
same screens, keys and frames as a person's.  Its choices come from the
firmware's own computer player (gin.ai), seeded, hence deterministic.
"""

from __future__ import annotations

from gin.match import GAME_OVER, PLAYING
from gin.round import (
    ARRANGE,
    BIG_GIN,
    DRAW_STOCK,
    KNOCK,
    MAX_ARRANGEMENTS,
    PASS,
    TAKE_DISCARD,
)
from ui.keys import DISCARD, DRAW, RIGHT
from ui.keys import KNOCK as KNOCK_B
from ui.screens import OVER_SCREEN, PASS_SCREEN, RESULT, SHEET, TABLE

from host_tools.simulator import keys as keymap

WAIT_MS = 100
MAX_WAIT_MS = 60_000  # the computer never takes a minute of virtual time for one move


class PilotError(RuntimeError):
    pass


class Pilot:
    def __init__(self, session, level: str = "normal", seed: int = 99) -> None:
        from gin import ai

        self.session = session
        self.player = ai.make_player(level, seed)
        self.moves = 0

    @property
    def app(self):
        return self.session.app

    def _tap(self, button: int) -> None:
        self.session.tap(keymap.Press(button))
        self.session.run_for(keymap.TAP_MS + keymap.SCRIPT_GAP_MS)

    def _sid(self) -> int:
        return self.app.view.sid

    def _my_turn(self) -> bool:
        app = self.app
        m = app.match
        if m is None or m.state != PLAYING or self._sid() != TABLE:
            return False
        p = m.round.player
        return app.is_human(p) and p == app.seat

    # ---- one step
    def step(self) -> str:
        """Do the next thing a person would; returns what it did ('move', 'next', 'wait', 'over', 'idle')."""
        sid = self._sid()
        app = self.app
        if sid == TABLE:
            if self._my_turn():
                self._move()
                return "move"
            self.session.run_for(WAIT_MS)
            return "wait"
        if sid == RESULT:
            self._tap(DRAW)  # first press ends the lay-off animation, the next opens the sheet
            return "next"
        if sid == SHEET:
            self._tap(DRAW)
            return "next"
        if sid == PASS_SCREEN:
            self._tap(DRAW)
            return "next"
        if sid == OVER_SCREEN or (app.match is not None and app.match.state == GAME_OVER):
            return "over"
        return "idle"

    def _move(self) -> None:
        app = self.app
        m = app.match
        rnd = m.round
        p = rnd.player
        obs = m.observation(p)
        a = self.player.choose(obs)
        if a not in obs.legal:
            raise PilotError(f"the computer chose an illegal action {a}")
        before = len(rnd.actions)
        for b in self.keys_for(a):
            if isinstance(b, tuple):  # ("cursor", card)
                self._cursor_to(b[1])
            else:
                self._tap(b)
        if len(m.round.actions) == before and m.round is rnd:
            raise PilotError(f"pressed the keys for {a} but nothing happened (message: {app.msg!r})")
        self.moves += 1

    def keys_for(self, a: int) -> list:
        rnd = self.app.match.round
        if a == PASS or a == DRAW_STOCK:
            return [DRAW]
        if a == TAKE_DISCARD:
            return [DISCARD]
        if a == BIG_GIN:
            return [DRAW]
        if 0 <= a < 52:
            return [("cursor", a), DISCARD]
        if KNOCK <= a < KNOCK + 52:
            return [("cursor", a - KNOCK), KNOCK_B]
        if ARRANGE <= a < ARRANGE + MAX_ARRANGEMENTS:
            return [RIGHT] * (a - ARRANGE) + [KNOCK_B]
        raise PilotError(f"no keys for action {a} in phase {rnd.phase}")

    def _cursor_to(self, card: int) -> None:
        app = self.app
        for _ in range(12):
            if app.cursor == card:
                return
            self._tap(RIGHT)
        raise PilotError(f"the cursor never reached card {card}")

    # ---- longer runs
    def run(self, scope: str = "move", limit: int = 5000) -> None:
        """scope move: until one move is made; hand: until the hand's result; match: until game over."""
        app = self.app
        start_hand = len(app.match.summaries) if app.match is not None else 0
        waited = 0
        progress = None
        for _ in range(limit):
            m = app.match
            now = (len(m.summaries), len(m.round.actions)) if m is not None else None
            if now != progress:
                progress, waited = now, 0
            if (
                scope == "hand"
                and app.match is not None
                and (len(app.match.summaries) > start_hand or app.match.state == GAME_OVER)
            ):
                return
            did = self.step()
            if did == "over":
                return
            if did == "idle":
                raise PilotError(f"the pilot doesn't know screen {self._sid()}")
            if did == "move":
                if scope == "move":
                    return
            elif did == "wait":
                waited += WAIT_MS
                if waited > MAX_WAIT_MS:
                    raise PilotError("waited a minute for a turn that never came")
            elif did == "next" and scope == "move":
                continue
        raise PilotError(f"no end after {limit} steps")
