"""The debouncer and the event queue: the same pure logic the Pico's timer runs."""

from device.buttons import (
    BUTTON_NAMES,
    DEBOUNCE_MS,
    DISCARD,
    DOWN,
    DRAW,
    KNOCK,
    LEFT,
    LONG,
    MENU,
    PRESS,
    RELEASE,
    REPEAT,
    REPEAT_DELAY_MS,
    REPEAT_EVERY_MS,
    RIGHT,
    SAMPLE_MS,
    UP,
    Debouncer,
    EventQueue,
    event,
    event_text,
    ticks_diff,
)


def run(deb, timeline, start=0, until=None):
    """Feed raw masks sampled every SAMPLE_MS; timeline = [(t_ms, mask)] changes. Returns [(t, ev)]."""
    out = []
    changes = dict(timeline)
    end = until if until is not None else max(changes) + 1000
    mask = 0
    t = start
    while t <= end:
        if t in changes:
            mask = changes[t]
        for ev in deb.sample(mask, t & ((1 << 30) - 1)):
            out.append((t, ev))
        t += SAMPLE_MS
    return out


def test_contract_numbers():
    assert BUTTON_NAMES == ("UP", "DOWN", "LEFT", "RIGHT", "DRAW", "DISCARD", "KNOCK", "MENU")
    assert (UP, DOWN, LEFT, RIGHT, DRAW, DISCARD, KNOCK, MENU) == tuple(range(8))
    assert (PRESS, LONG, REPEAT, RELEASE) == (0, 1, 2, 3)
    assert event(KNOCK, LONG) == 6 * 4 + 1
    assert event_text(event(DISCARD, RELEASE)) == "DISCARD release"


def test_ui_keys_mirror_the_device_numbers():
    from ui import keys

    assert (
        keys.UP,
        keys.DOWN,
        keys.LEFT,
        keys.RIGHT,
        keys.DRAW,
        keys.DISCARD,
        keys.KNOCK,
        keys.MENU,
    ) == tuple(range(8))
    # the contract's numbers, not device.buttons' names: keys re-exports those, so comparing the two
    # would compare each object with itself and could never fail
    assert (keys.PRESS, keys.LONG, keys.REPEAT, keys.RELEASE) == (0, 1, 2, 3)


def test_a_clean_tap_is_one_press_and_one_release_at_their_first_edges():
    evs = run(Debouncer(0), [(100, 1 << DRAW), (200, 0)])
    assert evs == [(100, event(DRAW, PRESS)), (200, event(DRAW, RELEASE))]


def test_the_press_counts_at_the_first_sampled_edge_and_bounce_after_it_is_ignored():
    """Issue 13: no DEBOUNCE_MS wait before a press counts; bounce on either edge makes nothing."""
    bit = 1 << LEFT
    # bounce after the press (100..110) and after the release (300..310), each under DEBOUNCE_MS
    tl = [(100, bit), (105, 0), (110, bit), (300, 0), (305, bit), (310, 0)]
    evs = run(Debouncer(0), tl, until=600)
    assert evs == [(100, event(LEFT, PRESS)), (300, event(LEFT, RELEASE))]
    # a press released while the button is still deaf is released once the line has been still
    evs = run(Debouncer(0), [(100, bit), (105, 0)], until=400)
    assert evs == [(100, event(LEFT, PRESS)), (105 + DEBOUNCE_MS, event(LEFT, RELEASE))]
    # every tap of a fast series still counts: deaf time is per edge, not a hold requirement
    tl = []
    for k in range(5):
        tl += [(100 + 40 * k, bit), (120 + 40 * k, 0)]
    presses = [t for t, e in run(Debouncer(0), tl, until=600) if e == event(LEFT, PRESS)]
    assert presses == [100, 140, 180, 220, 260]


def test_contact_bounce_makes_no_extra_events():
    bit = 1 << DISCARD
    tl = [(100, bit), (105, 0), (110, bit), (115, 0), (120, bit), (300, 0), (305, bit), (310, 0)]
    evs = [e for _t, e in run(Debouncer(0), tl)]
    assert evs == [event(DISCARD, PRESS), event(DISCARD, RELEASE)]


def test_a_glitch_shorter_than_the_debounce_makes_one_press_and_one_release_at_most():
    # First-edge counting can't tell a glitch from a tap (issue 13 chose the faster press);
    # what it must never do is make a burst of events or leave the button stuck down.
    deb = Debouncer(0)
    evs = run(deb, [(100, 1 << KNOCK), (105, 0), (110, 1 << KNOCK), (115, 0)])
    assert [e for _t, e in evs] == [event(KNOCK, PRESS), event(KNOCK, RELEASE)]
    assert deb.held() == 0 and not deb.settling()


def test_long_press_comes_once_and_action_buttons_do_not_repeat():
    evs = [e for _t, e in run(Debouncer(0), [(0, 1 << KNOCK), (3000, 0)])]
    assert evs == [event(KNOCK, PRESS), event(KNOCK, LONG), event(KNOCK, RELEASE)]


def test_arrows_repeat_after_the_delay_then_steadily():
    evs = run(Debouncer(0), [(0, 1 << RIGHT), (1500, 0)])
    reps = [t for t, e in evs if e == event(RIGHT, REPEAT)]
    press_t = evs[0][0]
    assert reps, "no repeat"
    assert reps[0] - press_t >= REPEAT_DELAY_MS
    gaps = {b - a for a, b in zip(reps, reps[1:])}
    assert all(abs(g - REPEAT_EVERY_MS) <= SAMPLE_MS for g in gaps)
    held = 1500 - press_t
    assert len(reps) == 1 + (held - REPEAT_DELAY_MS) // REPEAT_EVERY_MS
    assert event(RIGHT, LONG) in [e for _t, e in evs]


def test_late_samples_do_not_burst_repeats():
    deb = Debouncer(0)
    assert deb.sample(1 << LEFT, 0) == [event(LEFT, PRESS)]
    assert deb.sample(1 << LEFT, 20) == []
    # the loop stalled for 2 s: one repeat (and the long press), not a burst
    evs = deb.sample(1 << LEFT, 2020)
    assert evs.count(event(LEFT, REPEAT)) == 1


def test_two_buttons_held_make_two_presses_a_chord():
    evs = [e for _t, e in run(Debouncer(0), [(0, (1 << DRAW) | (1 << KNOCK)), (100, 0)])]
    assert evs[:2] == [event(DRAW, PRESS), event(KNOCK, PRESS)]


def test_held_is_the_debounced_mask():
    deb = Debouncer(0)
    deb.sample(1 << MENU, 0)
    assert deb.held() == 1 << MENU
    deb.sample(0, 5)  # bounce inside the deaf time: still held
    assert deb.held() == 1 << MENU and deb.settling()
    deb.sample(0, 20)
    assert deb.held() == 0 and not deb.settling()


def test_ticks_wrap_around_2_to_the_30():
    start = (1 << 30) - 50
    evs = run(Debouncer(start), [(start + 20, 1 << UP), (start + 900, 0)], start=start)
    kinds = [e & 3 for _t, e in evs]
    assert kinds[0] == PRESS and LONG in kinds and kinds[-1] == RELEASE
    assert ticks_diff(5, (1 << 30) - 5) == 10
    assert ticks_diff((1 << 30) - 5, 5) == -10


def test_the_queue_keeps_order_and_counts_what_it_drops():
    q = EventQueue(4)
    for e in (1, 2, 3, 4, 5):
        q.put(e)
    assert q.drain() == [1, 2, 3]
    assert q.dropped == 2
    q.put(9)
    assert q.drain() == [9]
    assert q.drain() == []


def test_taps_made_while_the_app_is_busy_wait_in_the_queue():
    """The device samples from a timer: the app can be busy for a second and still see every tap."""
    from host_tools.hw.fake_hw import FakeHw

    hw = FakeHw()
    for _ in range(3):
        hw.buttons.press(RIGHT, 60)
        hw.clock.advance(120)
    evs = hw.buttons.events()
    assert evs.count(event(RIGHT, PRESS)) == 3
    assert evs.count(event(RIGHT, RELEASE)) == 3
