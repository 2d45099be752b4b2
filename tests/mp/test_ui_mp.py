"""The device UI's logic on MicroPython and CPython alike: buttons, idle, hand layout, the app's loop.

Plain functions and bare asserts (see README.md).  Whole-session pixel
identity is tests/test_ui_mp_frames.py; here the pieces are checked one by
one, against values written in.
"""

import sys

from device.buttons import DOWN, DRAW, PRESS, RELEASE, RIGHT, SAMPLE_MS, UP, Debouncer
from device.sleep import AWAKE, DIM, OFF, Idle
from gin.cards import hand_of, parse_cards
from ui.hand import BY_RANK, BY_SUIT, flatten, hand_groups, place
from ui.screens import TABLE, TITLE
from ui.sheet import history


def _feed(deb, changes, end):
    out = []
    mask = 0
    t = 0
    while t <= end:
        if t in changes:
            mask = changes[t]
        for e in deb.sample(mask, t):
            out.append((t, e))
        t += SAMPLE_MS
    return out


def test_debouncer_tap_long_and_repeat():
    evs = _feed(Debouncer(0), {100: 1 << DRAW, 200: 0}, 400)
    assert evs == [(100, DRAW * 4), (200, DRAW * 4 + 3)], evs  # each edge counts at once
    evs = _feed(Debouncer(0), {0: 1 << RIGHT, 1000: 0}, 1100)
    kinds = [e & 3 for _t, e in evs]
    assert kinds == [0, 2, 2, 1, 2, 2, 2, 3], kinds  # press, repeats from 400 ms, long at 600 ms
    assert [t for t, _e in evs] == [0, 400, 520, 600, 640, 760, 880, 1000], evs


def test_bounce_is_filtered():
    evs = _feed(Debouncer(0), {100: 1, 105: 0, 110: 1, 115: 0, 120: 1, 300: 0}, 400)
    assert [e for _t, e in evs] == [0, 3], evs


def test_idle_dims_turns_off_and_swallows_the_waking_press():
    idle = Idle(0)
    assert idle.update(5000, 10, 30) == AWAKE
    assert idle.update(10000, 10, 30) == DIM
    assert idle.update(30000, 10, 30) == OFF
    assert idle.filter([1 * 4, 1 * 4 + 2, 1 * 4 + 3], 31000) == []
    assert idle.update(31000, 10, 30) == AWAKE
    assert idle.filter([1 * 4, 1 * 4 + 3], 31500) == [4, 7]
    assert idle.update(60000, 0, 0) == AWAKE  # 0: never


def test_hand_groups_put_melds_first_in_the_chosen_order():
    h = hand_of("4H 5H 6H 9S TS JS KC KD KH 2C")
    by_suit = flatten(hand_groups(h, BY_SUIT))
    by_rank = flatten(hand_groups(h, BY_RANK))
    assert by_suit == parse_cards("KC KD KH 4H 5H 6H 9S TS JS 2C"), by_suit
    assert by_rank == parse_cards("4H 5H 6H 9S TS JS KC KD KH 2C"), by_rank


def test_eleven_cards_in_four_groups_fit_the_screen():
    groups = [([0, 1, 2], True), ([13, 26, 39], True), ([5, 6, 7, 8], True), ([50], False)]
    xs, step = place(groups)
    assert (xs, step) == ([4, 14, 24, 37, 47, 57, 70, 80, 90, 100, 113], 10), (xs, step)
    groups = [([0, 1, 2], True), ([13, 26, 39], True), ([5, 6, 7], True), ([50, 49], False)]
    xs, step = place(groups, 114)
    assert (xs, step) == ([2, 11, 20, 32, 41, 50, 62, 71, 80, 92, 101], 9), (xs, step)


def test_sheet_history_of_a_hollywood_match():
    class R:
        hollywood = True
        target = 50

    rows = history(R, [(0, 0, 30, 0), (2, 0, 25, 0), (0, 1, 10, 1), (0, 0, 5, 0), (4, -1, 0, -1)])
    # game 1 closes at 55; the CPU's first win opens its entry in game 2
    assert [r[1] for r in rows] == [1, 3, 2, 6, 0], rows
    assert rows[-1][2] == [[55, 0], [30, 10], [5, 0]], rows[-1]


def test_the_app_boots_to_the_title_and_plays_a_few_moves():
    from app import App
    from device.contract import missing

    try:
        from host_tools.hw.fake_hw import FakeHw
    except ImportError:  # MicroPython: host_tools/hw is on the path
        from fake_hw import FakeHw

    hw = FakeHw(start_ms=1000)
    assert missing(hw) == [], missing(hw)
    app = App(hw)
    app.step()
    assert app.view.sid == TITLE and hw.display.shows == 1
    lit = 0
    for b in hw.display.frame:
        while b:
            lit += b & 1
            b >>= 1
    assert 1500 < lit < 3000, lit
    for ev in (DOWN * 4 + PRESS, DOWN * 4 + RELEASE):
        hw.buttons.push(ev)
    app.step()
    assert app.view.sel == 1 and hw.display.shows == 2
    for ev in (UP * 4 + PRESS, UP * 4 + RELEASE, DRAW * 4 + PRESS, DRAW * 4 + RELEASE):  # new game
        hw.buttons.push(ev)
    app.step()
    assert app.view.sid == TABLE and app.match is not None
    rnd = app.match.round
    for _ in range(200):  # the computer's pace is in ms of the clock
        hw.clock.advance(50)
        app.step()
        if rnd.player == 0 and rnd.phase in (0, 1):
            break
    assert rnd.player == 0, "the computer never handed the turn back"
    hw.buttons.press(DRAW, 60)  # through the debouncer, as a finger would
    hw.clock.advance(100)
    app.step()
    assert len(rnd.actions) >= 1 and app.view.sid == TABLE
    # a plain message over the table (a frame), then an error (a block): neither XORs, so the
    # pure-Python canvas never loads into a Pico's heap
    app.say("Saved")
    hw.clock.advance(50)
    app.step()
    app.say("Flash full", err=True)
    hw.clock.advance(50)
    app.step()
    assert hw.display.shows > 2
    if sys.implementation.name == "micropython":
        assert "ui.pycanvas" not in sys.modules, "a screen drew with XOR"
