"""The hostile peer's body: one honest App, and on the other end a script that speaks for a handheld.

    from host_tools.link.hostile_peer import Peer
    p = Peer(seed=3)
    p.deal()                      # the handshake, commit and reveal: a match, the App holds seat 0
    p.play(lambda: p.index() >= 30)
    p.reconnect(claim=(0, 0))     # a new session whose greeting says "30 moves behind"

``Peer`` is a real ``App`` (the honest handheld, on a host ``FakeHw`` with its own in-memory
flash) joined by ``host_tools.link.line`` (or by two real ``TcpPort``s on localhost) to a bare
``link.channel.Channel`` that the script speaks through.  The script keeps its own copy of the
match, as a modified handheld would, so it can play legal moves, claim any position, withhold
acknowledgements, replay what it sent, and write any bytes at all.  host_tools/link/hostile.py
makes it lie; host_tools/link/hostile_watch.py referees the App.
"""

from __future__ import annotations

import random

import host_tools  # noqa: F401  (firmware/ on sys.path)
from host_tools.hw.fake_hw import Clock, FakeHw
from host_tools.link.line import Line

# isort: split
from app import App
from gin.cards import GinError
from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
from gin.round import DISCARD_PHASE, DRAW, DRAW_STOCK, KNOCK, OFFER, PASS
from gin.rules import RuleSet
from link import channel, frame, session
from link.channel import Channel, put_u32
from modes import LINK
from ui import keys


def hello(proto=session.PROTOCOL, fw=session.FIRMWARE, match=0, pos=(0, 0), flags=0, rules_crc=0):
    """The session part of a HELLO, any field as the script likes."""
    b = bytearray((proto,))
    b.extend(bytes(fw))
    put_u32(b, match)
    b.extend((pos[0] & 0xFF, pos[1] & 0xFF, flags, rules_crc >> 8, rules_crc & 0xFF))
    return bytes(b)


def match_id_of(seed):
    """The match id a greeting carries (protocol 1 sent the seed itself: the script runs on both)."""
    f = getattr(session, "match_id", None)
    return f(seed) if f is not None else seed


def passive(m):
    """The script's player: never knocks, throws back what it drew (a hand that runs long)."""
    rnd = m.round
    legal = rnd.legal_actions()
    if rnd.phase == OFFER:
        return PASS
    if rnd.phase == DRAW:
        return DRAW_STOCK
    if rnd.phase == DISCARD_PHASE:
        plain = [a for a in legal if a < KNOCK]
        return plain[-1] if plain else legal[0]
    return legal[0]


def knocker(m):
    """Knocks as soon as it may (else as ``passive``): a hand that ends early."""
    legal = m.round.legal_actions()
    knocks = [a for a in legal if KNOCK <= a < KNOCK + 52]
    return knocks[0] if knocks else passive(m)


class Peer:
    """The honest App on one end, the script's channel on the other."""

    def __init__(self, seed=3, rules=None, ports=None):
        self.clock = Clock()
        self.rng = random.Random(seed)
        if ports is None:
            self.line = Line(self.clock.now, random.Random(seed))
            ports = self.line.ends()
        else:
            self.line = None
        a, b = ports
        self.hw = FakeHw(clock=self.clock)
        self.hw.link = a
        r = random.Random(seed * 7 + 1)
        self.hw.random_bytes = lambda n: bytes(r.randrange(256) for _ in range(n))
        self.app = App(self.hw)
        self.app.settings["mode"] = LINK
        if rules is not None:
            self.app.settings["rules"] = rules.to_bytes()
        self.port = b
        self.port.open()
        # the first nonce is 1: when both waited as long, the App's larger nonce makes it propose
        self.chan = Channel(b, lambda: 1, 0)
        self.chan.rand32 = lambda: self.rng.getrandbits(32) | 1
        self.claim = None  # a position the greeting claims instead of the true one
        self.fields = None  # greeting fields instead of the true ones (None: the true ones)
        self.chan.hello_fields = self._fields
        self.match = None  # the script's own copy of the match
        self.seat = 1
        self.secret = None
        self.got = []  # every (type, payload) delivered to the script
        self.moves_seen = 0
        self.withhold = False  # drop the script's ACKs (the App's frames stay unacknowledged)
        self.sent_frames = []  # the script's encoded frames, for replays
        self.hold = 0.0  # chance that a frame of the script's is held back (sent later, reordered)
        self.held = []
        self.dealing = False  # the script's greeting says "in the deal"
        self._write = b.write
        b.write = self._tap

    # --- the wire -------------------------------------------------------------------------------
    def _tap(self, data):
        if self.withhold and data[:-1]:
            body = frame.decode(data[:-1])
            if body is not None and body[0] == channel.ACK:
                return
        if len(self.sent_frames) < 64:
            self.sent_frames.append(bytes(data))
        if self.hold and self.rng.random() < self.hold:
            self.held.append(bytes(data))
            return
        self._write(data)

    def release(self):
        """The held-back frames go now, in a shuffled order."""
        self.rng.shuffle(self.held)
        for d in self.held:
            self._write(d)
        self.held = []

    def raw(self, data):
        """Any bytes at all, on the wire from the script's end."""
        self._write(bytes(data))

    def _fields(self):
        if self.fields is not None:
            return self.fields
        m = self.match
        if m is None:
            return hello(flags=session.F_DEALING if self.dealing else 0)
        pos = self.claim if self.claim is not None else session.position(m)
        return hello(
            match=match_id_of(m.seed),
            pos=pos,
            flags=session.F_MATCH | (session.F_SEAT if self.seat else 0),
            rules_crc=session.rules_crc(m.rules.to_bytes()),
        )

    # --- time -----------------------------------------------------------------------------------
    def step(self, ms=2):
        self.app.step()
        self.listen()
        self.clock.advance(ms)

    def listen(self):
        for t, p in self.chan.poll(self.clock.now()):
            if len(self.got) < 4000:
                self.got.append((t, p))
            self.on_message(t, p)

    def on_message(self, t, p):
        if t == session.MOVE:
            self._their_move(p)

    def run(self, ms):
        end = self.clock.now() + ms
        while self.clock.now() < end:
            self.step()

    def sent(self, t):
        """The payloads of every message of type t the App sent the script."""
        return [p for tt, p in self.got if tt == t]

    # --- the match ------------------------------------------------------------------------------
    def commit(self, secret=bytes(range(16))):
        """The App proposes (the script waited 0), the script accepts and commits; the App's reveal."""
        self.app.link_start()
        self.run(1500)
        self.chan.send(session.JOIN, b"\x00\x00")
        self.run(300)
        self.chan.send(session.ACCEPT)
        self.run(300)
        self.secret = bytes(secret)
        self.chan.send(session.COMMIT, session.sha256(self.secret).digest())
        self.run(300)
        (theirs,) = self.sent(session.REVEAL)
        return theirs

    def deal(self, secret=bytes(range(16))):
        """``commit``, then the script reveals too: the match begins."""
        theirs = self.commit(secret)
        self.chan.send(session.REVEAL, self.secret)
        self.run(300)
        rules = RuleSet.from_bytes(self.app.settings["rules"])
        self.match = Match(rules, session.seed_of(theirs, self.secret))
        assert self.app.match is not None and self.app.match.seed == self.match.seed
        return self.match

    def _live(self):
        m = self.match
        if m.state == HAND_OVER:
            m.next_hand()
        return m

    def _their_move(self, p):
        m = self.match
        if m is None or len(p) != 3 or m.state == GAME_OVER:
            return
        if m.state == HAND_OVER:
            m.next_hand()
        if session.position(m) == (len(m.summaries), p[1]) and m.round.player != self.seat:
            try:
                m.apply(p[2])
            except GinError:
                return  # the script's copy went its own way after a lie the App took (its own seat's)
            self.moves_seen += 1

    def move(self, a=None, policy=passive):
        """The script's player moves (its own copy first, then the MOVE to the App)."""
        m = self._live()
        if a is None:
            a = policy(m)
        h, i = session.position(m)
        m.apply(a)
        self.chan.send(session.MOVE, bytes((h & 0xFF, i, a)))
        return a

    def send_move(self, pos, a):
        """A MOVE for any position and action, the script's copy untouched."""
        self.chan.send(session.MOVE, bytes((pos[0] & 0xFF, pos[1], a)))

    def index(self):
        return session.position(self.app.match)[1]

    def play(self, until, app_policy=passive, peer_policy=passive, limit=40_000):
        """Both sides move until ``until()`` (the App through App.act, as its buttons would)."""
        for _ in range(limit):
            if until():
                return True
            app = self.app
            m = app.match
            if m is None or app.link is None:
                return False
            if m.state != PLAYING:
                self.press(keys.DRAW)
            elif m.round.player == app.seat:
                if app.link.in_step():
                    app.act(app_policy(m))
            elif self.match.state != PLAYING or self.match.round.player == self.seat:
                if self.chan.inflight is None and not self.chan.queue:
                    self.move(policy=peer_policy)
            self.run(20)
        return until()

    def press(self, b, ms=100):
        self.hw.buttons.push(b * 4)
        self.run(ms)

    def reconnect(self, claim=None, fields=None):
        """A new session (as after a reboot or a pulled cable) whose greeting says what we like."""
        self.claim = claim
        self.fields = fields
        self.chan.restart(self.clock.now())
        self.run(1000)
