"""Sending only what changed (issue 13): the glass must be what a whole-frame send shows.

device.display.FrameSender keeps the last frame sent and sends the changed
windows.  Checked here against the SSD1306 model, through both drivers the
product uses (Adafruit's on the host, micropython-lib's as re-stated in
test_ssd1306_model), on random edits and on every frame of a scripted match
that visits every screen.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from device.display import DATA_WRITE_COST, GATHER, WINDOW_COST, WINDOW_COST_SINGLE, FrameSender, Panel

from host_tools.hw.host_display import HostDisplay
from host_tools.hw.i2c_bus import bus_with_ssd1306
from host_tools.hw.ssd1306_model import FRAME_BYTES, Glass, SSD1306Model
from tests.test_ssd1306_model import MicroPythonLibSSD1306I2C


def wire_bytes(bus) -> int:
    """Bytes clocked on the bus since its log was cleared: each address byte and the payload."""
    return sum(1 + len(t.data) for t in bus.transactions)


def edit(frame: bytearray, rng: random.Random) -> None:
    """A screen-like change: a few boxes of bytes, sometimes none, sometimes a whole new screen."""
    k = rng.random()
    if k < 0.1:
        return
    if k < 0.2:
        frame[:] = bytes(rng.getrandbits(8) for _ in range(FRAME_BYTES))
        return
    for _ in range(rng.randint(1, 4)):
        p0 = rng.randrange(8)
        p1 = min(7, p0 + rng.randrange(3))
        c0 = rng.randrange(128)
        c1 = min(127, c0 + rng.randrange(40))
        for p in range(p0, p1 + 1):
            for c in range(c0, c1 + 1):
                frame[p * 128 + c] = rng.getrandbits(8)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_windows_give_the_glass_of_a_full_send_with_adafruit(seed):
    rng = random.Random(seed)
    d = HostDisplay()
    frame = bytearray(FRAME_BYTES)
    for _ in range(12):
        edit(frame, rng)
        d.bus.clear_log()
        d.show_frame(frame)
        assert d.glass().pixels == Glass.from_frame(frame).pixels
        assert d.sent == wire_bytes(d.bus)  # the sender's own count is what the bus saw
        assert d.sent <= WINDOW_COST + FRAME_BYTES  # never more than the whole frame in one window
    assert d.warnings == []


def damaged_edit(frame: bytearray, rng: random.Random) -> list:
    """Boxes of new bytes, and damage that covers them: the boxes themselves, grown at random,
    overlapping each other at times, plus boxes where nothing changed."""
    damage = []
    for _ in range(rng.randint(0, 5)):
        p0 = rng.randrange(8)
        p1 = min(7, p0 + rng.randrange(4))
        c0 = rng.randrange(128)
        c1 = min(127, c0 + rng.choice((0, 3, 10, 20, 40, 127)))
        for p in range(p0, p1 + 1):
            for c in range(c0, c1 + 1):
                if rng.random() < 0.7:
                    frame[p * 128 + c] = rng.getrandbits(8)
        grow = rng.randrange(3)
        damage.append((max(0, p0 - grow), min(7, p1 + grow), c0 - grow * 5, c1 + grow * 5))
    for _ in range(rng.randrange(3)):
        p0 = rng.randrange(8)
        damage.append((p0, p0, rng.randrange(64), 64 + rng.randrange(64)))
    rng.shuffle(damage)
    return damage


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_damaged_boxes_give_the_glass_of_a_full_send(seed):
    """What the app passes as damage: only those boxes are looked at, and that is enough."""
    rng = random.Random(seed)
    d = HostDisplay()
    frame = bytearray(FRAME_BYTES)
    d.show_frame(frame)
    for _ in range(12):
        damage = damaged_edit(frame, rng)
        d.bus.clear_log()
        d.show_frame(frame, damage)
        assert d.glass().pixels == Glass.from_frame(frame).pixels
        assert d.sent == wire_bytes(d.bus)
        assert d.sent <= WINDOW_COST + FRAME_BYTES
    assert d.warnings == []


def test_overlapping_damage_sends_each_column_once():
    """The table's message line (a whole page) under the cursor cards' box: one window each."""
    d = HostDisplay()
    frame = bytearray(FRAME_BYTES)
    d.show_frame(frame)
    for p in range(3, 7):
        frame[p * 128 + 100 : p * 128 + 122] = b"\xff" * 22
    frame[6 * 128 : 7 * 128] = b"\x0f" * 128
    n = d.show_frame(frame, [(3, 6, 100, 121), (6, 6, 0, 127)])
    assert n == 2 * WINDOW_COST + 3 * 22 + 128
    assert d.glass().pixels == Glass.from_frame(frame).pixels


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_windows_give_the_glass_of_a_full_send_with_micropython_lib(seed, panel):
    """Through device.display.Panel (the Pico: each window's commands in one write) and through the
    driver's own write_cmd (one write per command)."""
    rng = random.Random(seed)
    model = SSD1306Model()
    bus = bus_with_ssd1306(model)
    drv = MicroPythonLibSSD1306I2C(128, 64, bus)
    out = Panel(drv, bus, 0x3C) if panel else drv
    sender = FrameSender(128, 64, drv.buffer)  # the driver's buffer keeps the last frame, as on the Pico
    frame = bytearray(FRAME_BYTES)
    for _ in range(12):
        edit(frame, rng)
        bus.clear_log()
        sender.send(out, frame)
        assert model.glass().pixels == Glass.from_frame(frame).pixels
        assert sender.sent == wire_bytes(bus)
        writes = sum(1 for t in bus.transactions if t.data[0] == 0x40)
        if panel:  # a window's six address commands in one write
            windows = sum(1 for t in bus.transactions if t.data[0] == 0x00)
        else:  # one write each
            windows = sum(1 for t in bus.transactions if t.data[0] == 0x80) // 6
        # a window of several pages narrower than the screen goes one data write per page
        assert (
            sender.sent - sum(len(t.data) - 1 for t in bus.transactions if t.data[0] == 0x40)
            == windows * (WINDOW_COST if panel else WINDOW_COST_SINGLE) + (writes - windows) * DATA_WRITE_COST
        )
    assert model.warnings == []


def test_an_unchanged_frame_sends_nothing_and_a_small_change_a_small_window():
    d = HostDisplay()
    frame = bytearray(FRAME_BYTES)
    frame[5] = 1
    assert d.show_frame(frame) == WINDOW_COST + FRAME_BYTES  # the first send is whole
    assert d.show_frame(frame) == 0
    frame[3 * 128 + 60] = 0x80
    n = d.show_frame(frame)
    assert WINDOW_COST < n <= WINDOW_COST + 8
    # pages with the same columns changed go as one window
    for p in (4, 5, 6):
        frame[p * 128 + 20 : p * 128 + 30] = b"\x55" * 10
    d.bus.clear_log()
    d.show_frame(frame)
    assert sum(1 for t in d.bus.transactions if t.data[0] == 0x40) == 1
    assert d.glass().pixels == Glass.from_frame(frame).pixels
    # one bigger than GATHER goes as one window too (its address set once), a data write per
    # page: the controller's pointer runs on through the window
    for p in range(1, 7):
        frame[p * 128 + 10 : p * 128 + 100] = bytes(range(p, p + 90))
    d.bus.clear_log()
    n = d.show_frame(frame, [(1, 6, 10, 99)])
    spans = [len(t.data) - 1 for t in d.bus.transactions if t.data[0] == 0x40]
    assert 90 * 6 > GATHER and spans == [90] * 6
    assert n == WINDOW_COST + 90 * 6 + 5 * DATA_WRITE_COST
    assert d.glass().pixels == Glass.from_frame(frame).pixels


def test_a_driver_reinit_sends_the_whole_frame_again():
    d = HostDisplay()
    frame = bytearray(range(256)) * 4
    d.show_frame(frame)
    d.model.gddram[:] = bytes(FRAME_BYTES)  # the panel lost its RAM (replugged)
    d.sender.invalidate()
    assert d.show_frame(frame) == WINDOW_COST + FRAME_BYTES
    assert d.glass().to_frame() == bytes(frame)


def test_every_frame_of_a_scripted_match_shows_the_glass_of_a_full_send(tmp_path):
    """Each screen transition and each redraw of a match, every screen visited."""
    from host_tools.simulator import keys as keymap
    from host_tools.simulator.session import ScriptRunner, Session

    s = Session(tmp_path, seed=7)
    seen = set()
    frames = []

    def check(display, frame):
        if frame is None:
            return
        seen.add(s.app.view.sid if s.app.view is not None else -1)
        frames.append(display.controller.sent)
        assert display.glass().pixels == Glass.from_frame(frame).pixels, (len(frames), s.app.view)

    s.display.listeners.append(check)
    script = (
        "down*3 d down*12 d down m m "  # the rules menu, every row, all the rules; back
        "down*2 d down*2 right left m "  # settings
        "up d right m "  # stats
        "down*2 d right*8 m "  # how to play, every page
        "up*6 d auto*2 m d "  # a new game, moves, the in-game menu, back
        "m down*3 d d "  # the discard pile, back
        "m down*4 d m "  # the score sheet, back
        "m down*5 d m m "  # the rules of this game, back
        "auto:hand wait:3000 d auto:match wait:400 d wait:400"
    )
    ScriptRunner(s).run(keymap.parse_script(script))
    assert len(frames) > 100
    assert {0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13} <= seen, sorted(seen)  # 13: the rules text (RULES_TEXT)
    assert max(frames) <= 1100  # a new screen: one window at most


def test_the_pass_and_link_screens_show_the_glass_of_a_full_send(tmp_path):
    """The screens the scripted match above can't reach: passing the device between two people,
    and a link match's waiting, proposed rules, table and stop page (the App on one end of a
    simulated cable, tests/test_link_matches.py's Pair on the other)."""
    from gin.rules import RuleSet
    from link import session
    from modes import TWO_PEOPLE
    from ui import keys
    from ui.screens import LINK_RULES, LINK_WAIT, PASS_SCREEN, TABLE, TEXT

    from host_tools.simulator import keys as keymap
    from host_tools.simulator.session import ScriptRunner, Session
    from tests.test_link_matches import Pair

    seen = set()
    frames = []

    def press(p, b):
        p.hw.buttons.push(b * 4)
        p.run(100)

    def watch(display, app):
        def check(d, frame):
            if frame is None:
                return
            seen.add(app().view.sid)
            frames.append(d.controller.sent)
            assert d.glass().pixels == Glass.from_frame(frame).pixels, (len(frames), app().view)

        display.listeners.append(check)

    s = Session(tmp_path, overrides={"mode": TWO_PEOPLE}, seed=5, new_game=True)
    watch(s.display, lambda: s.app)
    ScriptRunner(s).run(keymap.parse_script("d auto d auto d right*3 auto d auto"))
    assert PASS_SCREEN in seen and TABLE in seen

    p = Pair()
    p.hw.display.controller = HostDisplay()
    watch(p.hw.display, lambda: p.app)
    p.join(b"\xff\xff", 300)  # the test waited longer: it proposes the rules
    assert LINK_WAIT in seen
    p.peer.send(session.RULES, RuleSet(oklahoma=True, target=150).to_bytes())
    p.run(300)
    assert p.app.view.sid == LINK_RULES
    press(p, keys.DOWN)
    press(p, keys.DRAW)  # accepted: the App commits to its secret
    (commit,) = p.sent(session.COMMIT)
    mine = bytes(range(16))
    p.peer.send(session.COMMIT, session.sha256(mine).digest())
    p.run(300)
    p.sent(session.REVEAL)
    p.peer.send(session.REVEAL, mine)
    p.run(300)
    assert p.app.view.sid == TABLE
    press(p, keys.RIGHT)
    m = p.app.match
    for _ in range(10):  # the App's side plays until the test's seat is to move
        if m.round.player != p.app.seat:
            break
        p.app.act(m.round.legal_actions()[0])
        p.run(200)
    pos = session.position(m)
    bad = next(a for a in range(124) if a not in m.round.legal_actions())
    p.peer.send(session.MOVE, bytes((pos[0], pos[1], bad)))  # refused: the match stops, a page says why
    p.run(400)
    assert p.app.view.sid == TEXT
    press(p, keys.DOWN)
    assert {PASS_SCREEN, LINK_WAIT, LINK_RULES, TEXT, TABLE} <= seen, sorted(seen)
    assert max(frames) <= 1100
