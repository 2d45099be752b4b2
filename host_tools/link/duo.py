"""Two App instances joined by a simulated link cable: whole matches, faults, power cuts.

    from host_tools.link.duo import Duo, Faults
    result = Duo(seed=7, faults=Faults.rough()).play()
    assert result.ok, result.why

Each side is the firmware's own ``App`` on a host ``FakeHw`` with its own
in-memory flash, joined by ``host_tools.link.line`` (a serial line with a
seeded fault injector).  Both sides' clocks are one virtual clock.  The
people are computer-driven: on their turn at the table each side plays the
firmware's own computer player through ``App.act`` (the call the table's
buttons make); every other screen gets the button a person would press, through
the App's event queue.  Power cuts stop a side with no warning (often in the
middle of a flash write: the write is lost, as on a real cut) and reboot it
later with ``App(hw, resume=True)``, as main.py does on the device.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import host_tools  # noqa: F401  (firmware/ on sys.path)
from host_tools.hw.fake_hw import Clock, FakeHw
from host_tools.link.line import Line

# isort: split
from app import App
from gin.match import GAME_OVER
from link.messages import MSG_LEFT_DEAL, MSG_OTHER_MATCH, MSG_OTHER_NEW, MSG_SAME_SEAT
from modes import LINK
from ui import keys
from ui.screens import LINK_RULES, OVER_SCREEN, RESULT, SHEET, TABLE, TEXT, TITLE

BUTTON_PRESS = 0
# notes on which the people start over (a deal the other left needs a press: MENU, Connect)
GIVE_UP = (MSG_OTHER_NEW, MSG_OTHER_MATCH, MSG_SAME_SEAT, MSG_LEFT_DEAL)


class PowerCut(Exception):
    """The side lost power in the middle of a step (raised from a flash write)."""


@dataclass
class Faults:
    drop: float = 0.0
    dup: float = 0.0
    corrupt: float = 0.0
    stall: float = 0.0
    blackout: bool = False  # every save on a side is a flash erase: 45 ms deaf
    cuts: float = 0.0  # chance per 100 ms of pulling the cable (plugged back 0.5-6 s later)
    power_cuts: float = 0.0  # chance per 100 ms of switching a side off (on again 0.2-5 s later)
    cut_in_write: float = 0.5  # share of power cuts that strike inside a flash write

    @classmethod
    def clean(cls) -> Faults:
        return cls()

    @classmethod
    def rough(cls) -> Faults:
        """Everything at once, at rates far above a real cable's."""
        return cls(
            drop=0.01, dup=0.003, corrupt=0.003, stall=0.002, blackout=True, cuts=0.002, power_cuts=0.002
        )


@dataclass
class Result:
    seed: int
    ok: bool = False
    why: str = ""
    steps: int = 0
    virtual_ms: int = 0
    records: list = field(default_factory=list)  # per side: (seed, summaries, tallies, winner, last hand)
    reboots: int = 0
    cable_cuts: int = 0
    moves: int = 0
    line: dict = field(default_factory=dict)


class _Storage:
    """The side's FileStorage, where a power cut can strike inside a write (the write is lost)."""

    def __init__(self, inner, side):
        self.inner = inner
        self.side = side

    def write_atomic(self, name, data, *a):
        s = self.side
        if s.cut_next_write:
            s.cut_next_write = False
            raise PowerCut()
        if s.duo.faults.blackout:
            s.end.blackout()
        return self.inner.write_atomic(name, data, *a)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class Side:
    def __init__(self, duo, index, end):
        self.duo = duo
        self.index = index
        self.end = end
        self.hw = FakeHw(clock=duo.clock_hw)
        self.hw.link = end
        rng = random.Random(duo.seed * 31 + index)
        self.hw.random_bytes = lambda n: bytes(rng.randrange(256) for _ in range(n))
        self.hw.storage = _Storage(self.hw.storage, self)
        self.ai = None
        self.cut_next_write = False
        self.off_until = None
        self.think_until = 0
        self.record = None
        self.done = False
        self.abandon = False
        self.app = App(self.hw)
        self.app.settings["mode"] = LINK

    def press(self, b):
        self.hw.buttons.push(b * 4 + BUTTON_PRESS)

    def boot(self):
        self.end.power(True)
        self.app = App(self.hw, resume=True)
        self.app.settings["mode"] = LINK

    def step(self, now):
        """One loop step and the person's reaction; returns the ms the app may sleep."""
        app = self.app
        ms = app.step()
        self._person(app, now)
        return ms

    def _person(self, app, now):
        sid = app.view.sid if app.view is not None else -1
        m = app.match
        if m is not None and m.state == GAME_OVER and self.record is None:
            self.record = record_of(m)
        if sid == TITLE:
            if self.record is not None:
                self.done = True
            elif app.has_save and not self.abandon:
                app.continue_game()
            else:
                self.abandon = False
                app.link_start()
            return
        lk = app.link
        if lk is not None and lk.note in GIVE_UP:
            # the other lost the match it had just begun (a power cut inside its first save, or
            # in the deal), or came back with an older one: these people give up and connect again
            self.abandon = True
            self.press(keys.MENU)
            return
        if sid == LINK_RULES:
            self.press(keys.DRAW)
            return
        if sid in (RESULT, SHEET):
            self.press(keys.DRAW)
            return
        if sid == OVER_SCREEN:
            # leave once the other side has the final score too (see docs/LINK.md: a finished
            # match is not kept for a device that lost its last move afterwards)
            other = self.duo.sides[1 - self.index]
            if other.record is not None or other.done:
                self.press(keys.DRAW)
            return
        if sid == TEXT:
            self.duo.fail("side %d stopped: %s" % (self.index, " ".join(app.view.lines)))
            return
        if sid != TABLE or m is None or m.state != 0:
            return
        rnd = m.round
        if rnd.player != app.seat or not app.link.in_step():
            return
        if now < self.think_until:
            return
        if self.think_until == 0:
            self.think_until = now + self.duo.rng.randrange(0, 400)  # a person takes a moment
            return
        self.think_until = 0
        a = self.player().choose(m.observation(app.seat))
        if not app.act(a):
            self.duo.fail("side %d: its own legal move %d was refused: %s" % (self.index, a, app.msg))
        self.duo.moves += 1

    def player(self):
        if self.ai is None:
            from gin import ai

            self.ai = ai.make_player(self.duo.level, self.duo.seed * 7 + self.index)
        return self.ai


def record_of(m):
    return (
        m.seed,
        [tuple(s) for s in m.summaries],
        (m.final_tally(0), m.final_tally(1)),
        m.winner,
        bytes(m.round.actions),
    )


class Duo:
    def __init__(self, seed=1, faults=None, rules=None, level="easy", max_steps=400_000):
        self.seed = seed
        self.faults = faults or Faults()
        self.rng = random.Random(seed)
        self.level = level
        self.max_steps = max_steps
        self.clock_hw = Clock()  # one virtual clock for both sides (the harness moves it)
        f = self.faults
        self.line = Line(
            self.clock, random.Random(seed ^ 0x5EED), drop=f.drop, dup=f.dup, corrupt=f.corrupt, stall=f.stall
        )
        a, b = self.line.ends()
        self.failed = None
        self.moves = 0
        self.sides = [Side(self, 0, a), Side(self, 1, b)]
        if rules is not None:
            for s in self.sides:
                s.app.settings["rules"] = rules.to_bytes()
        self.cut_until = None
        self.result = Result(seed)

    def clock(self):
        return self.clock_hw.now()

    def fail(self, why):
        if self.failed is None:
            self.failed = why

    def _faults(self, now):
        """Cable pulls and power cuts, drawn every 100 ms of virtual time."""
        f = self.faults
        r = self.rng
        if self.cut_until is not None and now >= self.cut_until:
            self.line.restore()
            self.cut_until = None
        elif self.cut_until is None and f.cuts and r.random() < f.cuts:
            self.line.cut()
            self.cut_until = now + r.randrange(500, 6000)
            self.result.cable_cuts += 1
        for s in self.sides:
            if s.off_until is not None:
                if now >= s.off_until:
                    s.off_until = None
                    s.boot()
                    self.result.reboots += 1
                continue
            if not f.power_cuts or s.done or s.record is not None or r.random() >= f.power_cuts:
                continue
            if self.sides[1 - s.index].record is not None:
                continue  # the other finished: see _person at OVER_SCREEN
            if r.random() < f.cut_in_write:
                s.cut_next_write = True  # the next flash write never happens
            else:
                self._off(s, now)

    def _off(self, s, now):
        s.cut_next_write = False
        s.end.power(False)
        s.app = None
        s.off_until = now + self.rng.randrange(200, 5000)

    def play(self):
        res = self.result
        clk = self.clock_hw
        next_fault = 100
        steps = 0
        while steps < self.max_steps and self.failed is None:
            steps += 1
            now = clk.now()
            sleep = 50
            for s in self.sides:
                if s.app is None or s.done:
                    continue
                try:
                    ms = s.step(now)
                except PowerCut:
                    self._off(s, now)
                    continue
                if ms < sleep:
                    sleep = ms
            if all(s.done for s in self.sides):
                break
            if now >= next_fault:
                self._faults(now)
                next_fault = now + 100
            nxt = self.line.next_arrival()
            if nxt is not None and nxt - now < sleep:
                sleep = int(nxt - now) + 1
            clk.advance_to(now + max(1, sleep))
        res.steps = steps
        res.virtual_ms = clk.now()
        res.moves = self.moves
        res.line = dict(self.line.stats)
        res.records = [s.record for s in self.sides]
        if self.failed is not None:
            res.why = self.failed
        elif steps >= self.max_steps:
            res.why = "no end after %d loop steps (a deadlock?)" % steps
        elif res.records[0] is None or res.records[0] != res.records[1]:
            res.why = "the two sides' records differ:\n%r\n%r" % tuple(res.records)
        else:
            res.ok = True
        return res
