"""The link protocol on MicroPython: frames, the channel over a lossy line, a dealt and played match.

Plain functions and bare asserts (see README.md): this module runs under the MicroPython
WebAssembly port and under CPython, and both must give the same bytes.
"""

from gin.match import PLAYING, Match
from gin.round import DISCARD_PHASE
from gin.rules import RuleSet
from link import channel, frame, messages, session

# frame.encode(MOVE_BODY) on CPython
MOVE_BODY = b"\x16\x03\x01\x00\x68"
MOVE_WIRE = b"\x04\x16\x03\x01\x06\x68\x79\x9c\xb9\x8c\x00"


class Lcg:
    """A tiny seeded generator that both interpreters run the same (MicroPython's random varies)."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x

    def chance(self, per_mille):
        return self.next() % 1000 < per_mille

    def bytes(self, n):
        return bytes([(self.next() >> 8) & 0xFF for _ in range(n)])


class End:
    def __init__(self):
        self.other = None
        self.buf = bytearray()
        self.rng = None
        self.loss = 0
        self.lost = 0
        self.lie = False  # rewrite this device's REVEAL: a device that changed its secret

    def open(self):
        self.buf = bytearray()

    def close(self):
        pass

    def write(self, data):
        if self.lie and data[-1] == 0:
            body = frame.decode(data[:-1])
            if body is not None and body[0] == session.REVEAL:
                data = frame.encode(body[:2] + b"\x02" * 16)
        for b in data:
            if self.rng.chance(self.loss):
                self.lost += 1
                continue
            self.other.buf.append(b)

    def read(self):
        if not self.buf:
            return None
        out = bytes(self.buf)
        self.buf = bytearray()
        return out


def _line(seed, loss):
    a = End()
    b = End()
    a.other = b
    b.other = a
    a.rng = b.rng = Lcg(seed)
    a.loss = b.loss = loss
    return a, b


def test_frames_are_the_same_bytes_as_on_cpython():
    assert frame.encode(MOVE_BODY) == MOVE_WIRE
    assert frame.decode(MOVE_WIRE[:-1]) == MOVE_BODY
    assert frame.check(b"123456789") == b"\xcb\xf4\x39\x26"
    d = frame.Decoder()
    assert d.feed(b"\x07\x01\x00" + MOVE_WIRE + MOVE_WIRE[:4] + b"\x00" + MOVE_WIRE) == [MOVE_BODY, MOVE_BODY]
    assert d.bad == 2


def test_channel_delivers_in_order_over_a_lossy_line():
    a, b = _line(7, 20)  # 2% of bytes lost
    r = Lcg(3)
    ca = channel.Channel(a, r.next, 0)
    cb = channel.Channel(b, r.next, 0)
    now = 0
    got = []
    while not (ca.up and cb.up) and now < 20000:
        ca.poll(now)
        cb.poll(now)
        now += 5
    assert ca.up and cb.up
    for i in range(20):
        ca.send(0x40, bytes([i]))
    end = now + 60000
    while now < end and len(got) < 20:
        ca.poll(now)
        for t, p in cb.poll(now):
            if t == 0x40:
                got.append(p[0])
        now += 5
    assert got == list(range(20)), got
    assert a.lost + b.lost > 0 and ca.stats["resent"] > 0


class Side:
    def __init__(self, end, seed):
        self.rng = Lcg(seed)
        self.lp = session.LinkPlay(end, 0, self.rng.bytes)
        self.lp.propose(RuleSet(target=50).to_bytes())
        self.match = None
        self.seat = 0
        self.stopped = None
        self.auto = True

    def apply(self, a):
        try:
            self.match.apply(a)
        except ValueError as e:
            return str(e)
        return None

    def poll(self, now):
        for kind, arg in self.lp.poll(now, self.apply):
            if kind == "rules":
                self.lp.accept()
            elif kind == "start":
                rules, seed, seat = arg
                self.match = Match(RuleSet.from_bytes(rules), seed)
                self.seat = seat
                self.lp.playing(self.match)
            elif kind == "stop":
                self.stopped = arg

    def move(self):
        m = self.match
        if (
            not self.auto
            or m is None
            or m.state != PLAYING
            or m.round.player != self.seat
            or not self.lp.in_step()
        ):
            return
        legal = m.round.legal_actions()
        a = legal[-1] if m.round.phase == DISCARD_PHASE else legal[0]
        h, i = session.position(m)
        m.apply(a)
        self.lp.sent(h, i, a)


def _pair(seed, loss):
    a, b = _line(seed, loss)
    return Side(a, seed + 1), Side(b, seed + 2)


def _run(sides, ms, now=0):
    end = now + ms
    while now < end:
        for s in sides:
            s.poll(now)
            s.move()
        now += 5
    return now


def test_two_sessions_agree_on_the_deal_and_play_a_hand_alike():
    x, y = _pair(11, 10)
    now = _run((x, y), 8000)
    assert x.match is not None and y.match is not None
    assert x.match.seed == y.match.seed and x.seat != y.seat
    for _ in range(200):
        if x.match.state != PLAYING and y.match.state != PLAYING:
            break
        now = _run((x, y), 500, now)
    assert x.stopped is None and y.stopped is None
    assert x.match.summaries == y.match.summaries and len(x.match.summaries) == 1
    assert bytes(x.match.round.actions) == bytes(y.match.round.actions)


def test_a_forged_move_is_refused_and_a_bad_reveal_stops_the_deal():
    x, y = _pair(5, 0)
    x.auto = y.auto = False
    now = _run((x, y), 4000)
    m = x.match
    assert m is not None and y.match is not None
    mover = x if m.round.player == x.seat else y
    other = y if mover is x else x
    h, i = session.position(mover.match)
    other_legal = other.match.round.legal_actions()
    bad = 0
    while bad in other_legal:
        bad += 1
    mover.lp.sent(h, i, bad)  # a move this device's engine never made: the other must refuse it
    _run((x, y), 1000, now)
    assert other.stopped is not None and "refused" in other.stopped
    assert mover.stopped is not None and mover.stopped.startswith("The other handheld refused")

    # a modified device: it commits to one secret and reveals another (rewritten on its wire)
    x, y = _pair(9, 0)
    y.lp.port.lie = True
    _run((x, y), 6000)
    assert x.stopped == messages.MSG_REVEAL and x.match is None
