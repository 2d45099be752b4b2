"""The link protocol's parts: frames, the reliable channel, and the refusals of the match session.

Whole matches between two Apps are in tests/test_link_matches.py.
"""

import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gin.match import PLAYING as MATCH_PLAYING
from link import channel, frame, messages, session
from link.channel import Channel

from host_tools.link.line import BLACKOUT_MS, FIFO, Line

ROOT = Path(__file__).resolve().parent.parent


# --- frames -------------------------------------------------------------------------------------


@given(st.binary(min_size=1, max_size=frame.MAX_BODY))
def test_a_frame_round_trips_and_has_no_zero_inside(body):
    w = frame.encode(body)
    assert w[-1] == 0 and 0 not in w[:-1]
    assert frame.decode(w[:-1]) == body
    assert frame.Decoder().feed(w) == [body]


@given(st.binary(min_size=1, max_size=frame.MAX_BODY), st.data())
def test_any_single_bit_flip_is_caught(body, data):
    w = bytearray(frame.encode(body))
    i = data.draw(st.integers(0, len(w) - 2))
    w[i] ^= 1 << data.draw(st.integers(0, 7))
    assert body not in frame.Decoder().feed(bytes(w)) or w[i] == 0


def test_the_decoder_finds_the_next_frame_after_garbage_and_lost_bytes():
    a, b, c = frame.encode(b"\x16abc"), frame.encode(b"\x17de"), frame.encode(b"\x18f")
    d = frame.Decoder()
    stream = b"\x05\x07\x00" + a[:3] + a[4:] + b + b"\xff" * 100 + b"\x00" + c
    assert d.feed(stream) == [b"\x17de", b"\x18f"]
    assert d.bad >= 2


def test_a_frame_body_has_bounds():
    with pytest.raises(ValueError):
        frame.encode(b"")
    with pytest.raises(ValueError):
        frame.encode(bytes(frame.MAX_BODY + 1))


def test_the_frame_check_is_crc32():
    assert frame.check(b"123456789") == bytes.fromhex("CBF43926")
    assert frame.decode(frame.encode(b"abc")[:-1]) == b"abc"
    assert len(frame.encode(bytes((0x16, 1, 2, 3, 104)))) == 5 + 4 + 2


# --- the channel ----------------------------------------------------------------------------------


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


def _pair(line_kw=None, seed=1):
    clock = Clock()
    line = Line(clock, random.Random(seed), **(line_kw or {}))
    ea, eb = line.ends()
    r = random.Random(seed + 100)
    ca = Channel(ea, lambda: r.getrandbits(32), 0)
    cb = Channel(eb, lambda: r.getrandbits(32), 0)
    return clock, line, ca, cb


def _run(clock, chans, ms, got=None, step=2):
    got = got if got is not None else ([], [])
    end = clock.now + ms
    while clock.now < end:
        for i, c in enumerate(chans):
            got[i].extend(c.poll(clock.now))
        clock.now += step
    return got


def test_two_channels_come_up_and_greet_each_other_once():
    clock, _line, ca, cb = _pair()
    ca.hello_fields = lambda: b"A-fields"
    cb.hello_fields = lambda: b"B-fields"
    got = _run(clock, (ca, cb), 1000)
    assert ca.up and cb.up
    assert got[0] == [(channel.HELLO, b"B-fields")]
    assert got[1] == [(channel.HELLO, b"A-fields")]


@pytest.mark.parametrize("seed", range(6))
def test_messages_arrive_once_and_in_order_over_a_bad_line(seed):
    clock, line, ca, cb = _pair({"drop": 0.02, "dup": 0.02, "corrupt": 0.01, "stall": 0.01}, seed)
    for _ in range(100):
        _run(clock, (ca, cb), 200)
        if ca.up and cb.up:
            break
    assert ca.up and cb.up
    sent = [bytes((i, i * 7 & 0xFF)) for i in range(120)]
    got = ([], [])
    for p in sent:
        while len(ca.queue) >= channel.QUEUE_MAX - 1:
            _run(clock, (ca, cb), 20, got)
        assert ca.send(0x40, p)
    _run(clock, (ca, cb), 30000, got)
    assert [p for t, p in got[1] if t == 0x40] == sent
    assert line.stats["dropped"] and line.stats["duplicated"] and line.stats["corrupted"]
    assert ca.stats["resent"] > 0


def test_bytes_lost_during_a_flash_erase_are_resent():
    clock, line, ca, cb = _pair()
    _run(clock, (ca, cb), 1000)
    got = ([], [])
    for _i in range(8):
        ca.send(0x40, bytes(40))  # 8 long frames behind each other
    line.b.blackout(clock.now)  # the receiver erases flash: only FIFO bytes survive BLACKOUT_MS
    _run(clock, (ca, cb), 3000, got)
    assert len([1 for t, _p in got[1] if t == 0x40]) == 8
    assert line.stats["blackout"] > 0 and ca.stats["resent"] > 0
    assert FIFO == 32 and BLACKOUT_MS == 45


def test_a_pulled_cable_is_noticed_and_a_new_session_follows():
    clock, line, ca, cb = _pair()
    _run(clock, (ca, cb), 1000)
    line.cut()
    got = _run(clock, (ca, cb), channel.LOST_MS + 500)
    assert not ca.up and not cb.up
    assert (channel.LOST_EVENT, b"") in got[0] and (channel.LOST_EVENT, b"") in got[1]
    line.restore()
    got = _run(clock, (ca, cb), 2000)
    assert ca.up and cb.up
    assert [t for t, _p in got[0]] == [channel.HELLO]


def test_a_duplicate_is_acknowledged_but_not_delivered_and_a_stale_frame_is_dropped():
    clock, line, ca, cb = _pair()
    _run(clock, (ca, cb), 1000)
    ca.send(0x40, b"one")
    got = _run(clock, (ca, cb), 200)
    assert got[1] == [(0x40, b"one")]
    wire = frame.encode(bytes((0x40, 0)) + b"one")  # the same frame (seq 0) replayed
    line.transmit(line.a, wire)
    got = _run(clock, (ca, cb), 200)
    assert got[1] == [] and cb.stats["dup"] == 1
    line.transmit(line.a, frame.encode(bytes((0x40, 77)) + b"old"))  # a frame from another session
    got = _run(clock, (ca, cb), 200)
    assert got[1] == [] and cb.stats["stale"] == 1


def test_a_stale_hello_can_not_leave_one_side_up_and_the_other_looking():
    # The deadlock seen while building this: an old HELLO of B's, delayed on the line, made A
    # adopt B's old nonce while B stayed up.  A HELLO that does not echo our nonce ends our session.
    clock, line, ca, cb = _pair()
    _run(clock, (ca, cb), 1000)
    old_b = cb.nonce
    cb.restart(clock.now)  # B starts over (a reboot) ...
    _run(clock, (ca, cb), 1000)
    assert ca.up and cb.up and cb.nonce != old_b
    hello = bytearray((channel.HELLO, 0))
    channel.put_u32(hello, old_b)  # ... and its old HELLO turns up late at A
    channel.put_u32(hello, 0)
    line.transmit(line.b, frame.encode(bytes(hello)))
    _run(clock, (ca, cb), 2000)
    assert ca.up and cb.up and ca.peer == cb.nonce and cb.peer == ca.nonce
    cb.send(0x40, b"still talking")
    got = _run(clock, (ca, cb), 500)
    assert (0x40, b"still talking") in got[0]


# --- constants that mirror others --------------------------------------------------------------------


def test_mirrored_constants_agree():
    assert session.M_PLAYING == MATCH_PLAYING
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert messages.version_text(session.FIRMWARE) == version
    for t in (session.JOIN, session.RULES, session.MOVE, session.REFUSE):
        assert t >= channel.SEQUENCED
