"""Saves through the whole app: power cuts at any moment, button mashing, and the endurance run.

A "reboot" is what a power cut and the next power-on do: a new hw object
over the same files and a new App(hw, resume=True).
"""

import random

import pytest

import savegame as sg
from app import App
from device.buttons import DOWN, LEFT, LONG, PRESS, RELEASE, REPEAT, RIGHT, UP  # noqa: E402
from gin.match import GAME_OVER, PLAYING
from gin.rules import RuleSet
from modes import VS_CPU, WATCH
from ui.screens import TABLE

from host_tools.bench.soak_saves import app_match
from host_tools.hw.fake_hw import AutoPlayer, Driver, FakeHw
from savecheck import check_invariants, match_fingerprint

DPAD = (UP, DOWN, LEFT, RIGHT)


def reboot(hw, resume=True):
    hw2 = FakeHw(start_ms=hw.clock.now() + 5000, files=hw.fs.files)
    return hw2, App(hw2, resume)


def start_vs_cpu(start_ms=4321):
    hw = FakeHw(start_ms=start_ms)
    app = App(hw)
    app.settings["mode"] = VS_CPU
    app.new_game()
    return hw, app


def test_the_deal_is_saved_before_the_player_sees_it():
    # Power-cycling right after the deal must bring back the same cards, not a new shuffle.
    hw, app = start_vs_cpu()
    dealt = match_fingerprint(app.match)
    assert sg.GAME_FILE in hw.fs.files
    hw2, app2 = reboot(hw)
    assert app2.match is not None and match_fingerprint(app2.match) == dealt


def test_reboot_at_every_action_resumes_the_same_screen():
    hw, app = start_vs_cpu(start_ms=98765)
    d = Driver(app, hw)
    bot = AutoPlayer(d)
    reboots = 0
    last = None
    for _ in range(600):
        if app.match is None or app.match.state == GAME_OVER:
            break
        bot.step()
        m = app.match
        if m is None or m.state == GAME_OVER:
            break
        key = (len(m.summaries), bytes(m.round.actions))
        if key == last or not hw.fs.files:
            continue
        last = key
        before = (app.view.sid, app.sort, app.mode, app.level, app.play.aiseed, match_fingerprint(m))
        hw, app = reboot(hw)
        after = (app.view.sid, app.sort, app.mode, app.level, app.play.aiseed, match_fingerprint(app.match))
        assert after == before
        bot = AutoPlayer(Driver(app, hw))
        reboots += 1
    assert reboots >= 30


def test_a_damaged_save_boots_to_the_title_with_one_line():
    hw, app = start_vs_cpu()
    Driver(app, hw).run(3000)
    hw.fs.files[sg.GAME_FILE] = b"\xff" * 64  # a damaged save, and no good copy beside it
    hw.fs.files.pop(sg.GAME_FILE + ".bak", None)
    hw.fs.files.pop(sg.GAME_FILE + ".tmp", None)
    hw2, app2 = reboot(hw)
    assert app2.msg == sg.MSG_LOST
    Driver(app2, hw2).run(500)
    assert app2.match is None  # a fresh start on the title
    assert app2.view.sid == 0


# --- button mashing ---------------------------------------------------------------------


class Watch:
    """Checks the engine's invariants at every step, in full whenever the match changed."""

    def __init__(self):
        self.key = None
        self.checks = 0

    def __call__(self, app):
        m = app.match
        if m is None:
            self.key = None
            return
        rnd = m.round
        key = (
            id(m),
            m.state,
            len(m.summaries),
            len(rnd.actions),
            tuple(rnd.hands[0]),
            tuple(rnd.hands[1]),
            len(rnd.pile),
        )
        if key != self.key:
            self.key = key
            check_invariants(m)
            self.checks += 1


def _mash_events(rng):
    """A burst of events as the debouncer makes them: a tap, a long press (with repeats on the
    d-pad), or a chord of two buttons held together."""
    r = rng.random()
    b = rng.randrange(8)
    if r < 0.6:
        return [b * 4 + PRESS, b * 4 + RELEASE]
    if r < 0.85:
        out = [b * 4 + PRESS, b * 4 + LONG]
        if b in DPAD:
            out += [b * 4 + REPEAT] * rng.randrange(1, 6)
        return out + [b * 4 + RELEASE]
    b2 = rng.randrange(8)
    return [b * 4 + PRESS, b2 * 4 + PRESS, b * 4 + RELEASE, b2 * 4 + RELEASE]


def test_hundred_thousand_mashed_buttons_with_power_cuts():
    rng = random.Random(6)
    hw = FakeHw(start_ms=55555)
    app = App(hw)
    watch = Watch()
    sent = 0
    reboots = resumed_same = 0
    screens = set()
    next_cut = 2500
    while sent < 100000:
        for ev in _mash_events(rng):
            hw.buttons.push(ev)
            sent += 1
        # time passes between bursts: the computer moves, messages expire, the display dims
        hw.clock.advance(rng.choice((5, 20, 60, 200, 500, 800)))
        app.step()
        watch(app)
        screens.add(app.view.sid)
        if sent >= next_cut:
            next_cut += 2500
            m = app.match
            saved_game = (
                m is not None and not app.demo and m.state != GAME_OVER and sg.GAME_FILE in hw.fs.files
            )
            before = match_fingerprint(m) if saved_game else None
            players = None
            if saved_game and app.mode == WATCH:
                on_file = sg.decode_game(hw.fs.files[sg.GAME_FILE])
                if on_file["mode"] != WATCH:
                    # Watching never writes over the player's match (issue 26): theirs comes back.
                    before, players = None, on_file["seed"]
            hw, app = reboot(hw, resume=True)
            reboots += 1
            watch(app)
            if before is not None:
                assert app.match is not None and match_fingerprint(app.match) == before
                resumed_same += 1
            if players is not None:
                assert app.match is not None and app.match.seed == players and app.mode != WATCH
    assert reboots == 40
    assert resumed_same >= 5
    assert watch.checks > 1000
    assert TABLE in screens and len(screens) >= 6


# --- endurance ---------------------------------------------------------------------------------

SHORT_RULES = (
    RuleSet(target=50),
    RuleSet(hollywood=True, target=50),
    RuleSet.preset_rules("modern", oklahoma=True, target=50),
    RuleSet.preset_rules("10/20", target=75),
)


@pytest.mark.parametrize("block", range(5))
def test_endurance_through_the_app(block):
    """50 complete computer-vs-computer matches (10 per block) through the app, rebooting after every
    action, end exactly as the same matches played straight through."""
    for k in range(10):
        seed = 5000 + block * 10 + k
        t = app_match(SHORT_RULES[k % 4], seed, level=k % 3)
        assert t.failures == []
        assert t.identical == 1
        assert t.saves > 10 and max(t.sizes) <= 300


def test_watch_game_state_survives_reboot_mid_hand():
    hw = FakeHw(start_ms=321)
    app = App(hw)
    app.settings["mode"] = WATCH
    app.new_game()
    d = Driver(app, hw)
    while app.match.state == PLAYING and len(app.match.round.actions) < 9:
        d.run(100)
    fp = match_fingerprint(app.match)
    hw2, app2 = reboot(hw)
    assert match_fingerprint(app2.match) == fp
    assert app2.view.sid == app.view.sid
