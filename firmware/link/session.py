"""A match between two handhelds: handshake, rules, a deal neither chooses alone, moves, resuming.

The App owns one ``LinkPlay`` while a link match is being set up or played
and calls ``poll(now, apply)`` every loop step; ``apply(action)`` plays the
other's move on the App's match (None, or the engine's reason when the move
is illegal).  ``poll`` returns events for the App:

    ("rules", rule_bytes)      the other proposes these rules: ``accept()`` or ``decline()``
    ("start", (rules, seed, seat))   both agreed and the deal is fixed: play as player ``seat``
    ("up", None) / ("lost", None)    the link came back (and is in step) / went away
    ("note", text)             something to tell the player (a refusal that changes nothing)
    ("stop", text)             the link match can't go on: show why, keep the save

Both devices run the full engine and judge each other's moves with it.  The
protocol (HELLO's fields, the messages, the deal neither chooses, moves, resuming
after a pulled cable or a power cut) is told once, in docs/LINK.md ("The session");
what the player reads is in link/messages.py.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from hashlib import sha256

from link import channel, messages
from link.channel import put_u32, u32

M_PLAYING = const(0)  # gin.match.PLAYING (a test holds them equal; the engine loads later)

PROTOCOL = const(2)  # 2: the match id is a hash, the deal is fixed once both commitments are held
# The firmware release (pyproject.toml's version; a test holds them equal).
FIRMWARE = (0, 1, 0)

# --- the game's messages (sequenced) ----------------------------------------------------------
JOIN = const(0x10)  # waited (2 bytes, 100 ms units): the longer waiter proposes the rules
RULES = const(0x11)  # RuleSet.to_bytes()
ACCEPT = const(0x12)
DECLINE = const(0x13)
COMMIT = const(0x14)  # sha256 of the 16 secret bytes (32 bytes)
REVEAL = const(0x15)  # the 16 secret bytes
MOVE = const(0x16)  # hand mod 256, index in the hand, action
BYE = const(0x17)  # the player left (cancel, or save and quit)
REFUSE = const(0x18)  # a move of the receiver was refused: ASCII reason

SECRET = const(16)
# A resync resends at most this many moves (an honest device lacks a few: see _up); the queue
# keeps room for what follows them.  A peer claiming to be further behind is refused.
RESYNC_MAX = channel.QUEUE_MAX - 4
INBOX_MAX = const(6)  # the next hand's moves that may wait while the result shows (an honest peer: 2)

# --- states -------------------------------------------------------------------------------------
WAIT = const(1)  # looking for the other device (a new match)
PROPOSED = const(2)  # the starter: rules sent, waiting for the answer
ASKED = const(3)  # the joiner: the rules are on the screen
DEALING = const(4)  # commit and reveal
PLAYING = const(5)  # a match (the link may be up or lost)
STOPPED = const(6)

# HELLO flags
F_SEAT = const(1)  # this device plays seat 1
F_MATCH = const(2)  # a match is under way (match id and position are valid)
F_DEALING = const(4)  # in the deal: committed, waits for the other's commitment or reveal


def match_id(seed):
    """The match's name in HELLO: a hash of its seed, never the seed itself (see docs/LINK.md)."""
    b = bytearray(b"gin-link-match")
    put_u32(b, seed)
    return u32(sha256(bytes(b)).digest(), 0)


def seed_of(starter_secret, joiner_secret):
    d = sha256(bytes(starter_secret) + bytes(joiner_secret)).digest()
    return u32(d, 0) & 0x7FFFFFFF


def rules_crc(rule_bytes):
    """16 bits of the rules' CRC-32: both devices must play the same rules."""
    from binascii import crc32

    return crc32(rule_bytes) & 0xFFFF


def position(match):
    """(hand, index): where the next move of the match goes.  A finished hand is the next one's start."""
    n = len(match.summaries)
    if match.state == M_PLAYING:
        return n, len(match.round.actions)
    return n, 0


def _before(a, b):
    """Position a comes strictly before position b."""
    return a[0] < b[0] or (a[0] == b[0] and a[1] < b[1])


class LinkPlay:
    def __init__(self, port, now, rand_bytes):
        """port: the byte port (opened here, closed by close()); rand_bytes(n): n random bytes."""
        self.port = port
        self.rand_bytes = rand_bytes
        port.open()
        self.chan = channel.Channel(port, self._rand32, now)
        self.chan.hello_fields = self._hello_fields
        self.state = WAIT
        self.started = now  # when this device began waiting
        self.seat = 0
        self.match = None
        self.prev = b""  # actions of the hand before the live one, when the match can't tell
        self.my_rules = None  # the rules this device proposes when it starts the link
        self.rules = None  # the rules of the match being set up (the starter's)
        self.starter = False
        self.secret = None
        self.peer_commit = None
        self.peer_waited = -1
        self.my_waited = -1
        self.inbox = []  # (hand, index, action) of the next hand, while this one shows the result
        self.outbox = []  # (hand, index, action) of this device's moves not yet on the wire
        self.saved = 0  # how many of them the App has saved (see poll)
        self.peer_pos = None  # the other's position when the link came up
        self._mid = None  # (seed, match_id(seed)): the hash once per match, not per HELLO
        self.note = None  # why the link is paused, when it is not simply lost
        self.stop_text = None
        self.left = False  # the other said BYE
        self.moves_in = 0
        self.moves_out = 0

    def _rand32(self):
        return u32(self.rand_bytes(4), 0)

    # --- what the App asks --------------------------------------------------------------------

    @property
    def up(self):
        return self.chan.up

    def in_step(self):
        """Up and caught up with the other: a move may be made.

        A hand's first move also waits until the other has acknowledged everything sent so far:
        so a device can never run a whole hand ahead of one that was switched off meanwhile
        (a non-dealer can take the upcard and go gin without the other moving at all).
        """
        if not self.chan.up or self.state != PLAYING or self.match is None or self.note is not None:
            return False
        pos = position(self.match)
        if pos[1] == 0 and self.busy():
            return False
        return self.peer_pos is None or not _before(pos, self.peer_pos)

    def busy(self):
        return self.chan.busy() or len(self.outbox) > 0

    def status(self):
        """One line for the screens: what the link is doing."""
        if self.state == STOPPED:
            return self.stop_text
        if self.state == PLAYING:
            if self.note is not None:
                return self.note
            if self.chan.up:
                return None if self.in_step() else messages.MSG_CATCHING_UP
            return messages.MSG_LEFT if self.left else messages.MSG_LOST
        if self.note is not None:
            return self.note
        if self.state == PROPOSED:
            return messages.MSG_RULES_SENT
        if self.state == DEALING:
            return messages.MSG_DEALING if self.chan.up else messages.MSG_DEAL_LOST
        return messages.MSG_WAITING

    # --- starting ------------------------------------------------------------------------------

    def propose(self, rule_bytes):
        """The rules this device proposes if it turns out to be the starter."""
        self.my_rules = bytes(rule_bytes)

    def resume(self, match, seat, prev=b""):
        """Continue a saved link match: paused until the other device is in step."""
        self.state = PLAYING
        self.match = match
        self.seat = seat
        self.prev = bytes(prev)
        self.peer_pos = None

    def playing(self, match):
        """The App built the match from the ("start", ...) event."""
        self.match = match
        self.state = PLAYING

    def accept(self):
        if self.state == ASKED and self.chan.send(ACCEPT):
            self._deal()

    def decline(self):
        if self.state == ASKED:
            self.chan.send(DECLINE)
        self.state = WAIT
        self.rules = None

    def close(self, now=0):
        """Leave: tell the other (best effort), let the port go."""
        if self.chan.up:
            self.chan.send(BYE)
            for _ in range(3):  # a BYE is a courtesy: a few tries, never a wait
                self.chan.poll(now)
        self.port.close()

    # --- moves ------------------------------------------------------------------------------------

    def sent(self, hand, index, action):
        """This device's player made a move at (hand, index): tell the other, once it is saved.

        The App saves a move at the end of the loop step that made it (App.step), and polls the
        link once per step: a move goes on the wire at the poll after the one that saw it, so it
        is on this device's flash first.  The other handheld therefore never holds a move of
        this device's player that this device lost in a power cut, and so never has a reason to
        send one back: a move for this device's seat from the other is always refused (_apply).
        """
        self.moves_out += 1
        self.outbox.append((hand, index, action))

    def _release(self):
        """Send the moves saved since the last poll; those made since are saved at this step's end."""
        n = self.saved
        if n:
            for h, i, a in self.outbox[:n]:
                self.chan.send(MOVE, bytes((h & 0xFF, i, a)))  # link down: a resync resends it
            del self.outbox[:n]
        self.saved = len(self.outbox)

    def flush(self, apply, ev=None):
        """Play the other's moves that waited in the inbox and fit the match now (after the next deal)."""
        ev = [] if ev is None else ev
        m = self.match
        while self.inbox and m.state == M_PLAYING and self.state == PLAYING:
            h, i, a = self.inbox[0]
            if (h, i) != position(m):
                break
            self.inbox.pop(0)
            self._apply(apply, a, ev)
        return ev

    def _apply(self, apply, a, ev):
        # The local seat belongs to the local player, whatever state the link is in: a move for
        # it from the other is refused here, before the App or the engine see it.
        why = messages.MSG_NOT_ITS_TURN if self.match.round.player == self.seat else apply(a)
        if why is not None:
            # a modified device, or two engines that disagree: stop here, nothing applied
            self.chan.send(REFUSE, ("move %d: %s" % (a, why)).encode()[:40])
            self._fail(messages.MSG_MOVE_REFUSED + why, ev)

    def _stop(self, text):
        self.state = STOPPED
        self.stop_text = text

    # --- the loop ---------------------------------------------------------------------------------

    def poll(self, now, apply):
        ev = []
        self._applier = apply
        self._release()
        for t, payload in self.chan.poll(now):
            if self.state == STOPPED:
                break
            if t == channel.HELLO:
                self._up(payload, now, ev)
            elif t == channel.LOST_EVENT:
                self._lost(ev)
            else:
                self._message(t, payload, now, ev)
        return ev

    def _hello_fields(self):
        b = bytearray()
        b.append(PROTOCOL)
        b.extend(bytes(FIRMWARE))
        flags = 0
        mid = 0
        h = i = 0
        rc = 0
        m = self.match
        if self.state == PLAYING and m is not None:
            flags = F_MATCH | (F_SEAT if self.seat else 0)
            mid = self._match_id(m)
            h, i = position(m)
            rc = rules_crc(m.rules.to_bytes())
        elif self.state == DEALING:
            flags = F_DEALING
        put_u32(b, mid)
        b.append(h & 0xFF)
        b.append(i)
        b.append(flags)
        b.append(rc >> 8)
        b.append(rc & 0xFF)
        return b

    def _match_id(self, m):
        if self._mid is None or self._mid[0] != m.seed:
            self._mid = (m.seed, match_id(m.seed))
        return self._mid[1]

    def _lost(self, ev):
        if self.state in (PROPOSED, ASKED):
            self._back_to_wait()
        # DEALING stays: the same deal goes on when the other comes back in it (_up)
        ev.append(("lost", None))

    def _back_to_wait(self):
        self.state = WAIT
        self.peer_commit = None
        self.secret = None
        self.my_waited = -1
        self.peer_waited = -1
        self.rules = None
        self.starter = False

    def _up(self, f, now, ev):
        """The link is up: check the other's versions, then where each of us is."""
        if len(f) < 13:
            return  # not a greeting this firmware can read (a damaged one): wait for the next
        if f[0] != PROTOCOL:
            self._fail(messages.MSG_PROTOCOL % (f[0], PROTOCOL), ev)
            return
        fw = (f[1], f[2], f[3])
        if fw != FIRMWARE:
            self._fail(messages.firmware_text(fw, FIRMWARE), ev)
            return
        mid = u32(f, 4)
        ph, pi, flags = f[8], f[9], f[10]
        prc = (f[11] << 8) | f[12]
        self.note = None
        self.left = False
        self.inbox = []
        if self.state == PLAYING:
            m = self.match
            if not flags & F_MATCH:
                self.note = messages.MSG_OTHER_NEW if not flags & F_DEALING else None
                if flags & F_DEALING and self.secret is not None and len(m.summaries) == 0:
                    # the other missed our reveal when the link went: it holds our commitment
                    to = self._sendable(position(m))
                    n = self._gap((0, 0), to)
                    if n <= RESYNC_MAX:
                        self.note = None
                        self.chan.send(REVEAL, self.secret)
                        self.peer_pos = (0, 0)
                        self._resend((0, 0), to)
                        ev.append(("up", None))
                        return
                    self.note = messages.far_text(n, "move", "behind")
                ev.append(("note", self.note))
                return
            if mid != self._match_id(m) or prc != rules_crc(m.rules.to_bytes()):
                self.note = messages.MSG_OTHER_MATCH
                ev.append(("note", self.note))
                return
            if (1 if flags & F_SEAT else 0) == self.seat:
                self.note = messages.MSG_SAME_SEAT
                ev.append(("note", self.note))
                return
            mine = position(m)
            # the hand number travels mod 256: unwrap it next to ours
            d = (ph - mine[0]) & 0xFF
            if d >= 128:
                d -= 256
            theirs = (mine[0] + d, pi)
            self.peer_pos = theirs
            # An honest device is at most a hand and a few moves away (moves go out only once
            # saved, and a hand starts only when everything before is acknowledged): anything
            # further is refused with a count, never resent without bound.
            if d > 1:
                self.note = messages.far_text(d, "hand", "ahead")
            elif _before(theirs, mine):
                n = self._gap(theirs, self._sendable(mine))
                if n < 0:
                    self.note = messages.far_text(-d, "hand", "behind")  # hands this device no longer has
                elif n > RESYNC_MAX:
                    self.note = messages.far_text(n, "move", "behind")
                else:
                    self._resend(theirs, self._sendable(mine))
            if self.note is not None:
                ev.append(("note", self.note))
                return
            ev.append(("up", None))
            return
        # setting up a new match
        if self.state == DEALING:
            # Once this device holds the other's commitment it has revealed (or will): the deal is
            # fixed.  A peer that leaves then, having seen the deal, gets the same deal back or
            # none; a new one needs this player's press (MENU, then Connect).
            if flags & F_DEALING:
                self._commit()  # the same deal goes on: commitment (and reveal) again
                ev.append(("up", None))
                return
            if flags & F_MATCH and ph == 0 and self.peer_commit is not None:
                ev.append(("up", None))  # it started: its reveal is on its way again
                return
            if self.peer_commit is not None:
                self.note = messages.MSG_LEFT_DEAL
                ev.append(("note", self.note))
                return
            # nothing of ours revealed: the setup may start over
        if flags & F_MATCH:
            self.note = messages.MSG_OTHER_RESUMES
            self._back_to_wait()
            ev.append(("note", self.note))
            return
        self._back_to_wait()
        self.my_waited = min(0xFFFF, max(0, (now - self.started) // 100))
        self.chan.send(JOIN, bytes((self.my_waited >> 8, self.my_waited & 0xFF)))
        ev.append(("up", None))

    def _fail(self, text, ev):
        self._stop(text)
        ev.append(("stop", text))

    def _sendable(self, mine):
        """Where the moves this device may resend end: before any not yet saved (see sent)."""
        if self.outbox:
            h, i, _a = self.outbox[0]
            return (h, i)
        return mine

    def _gap(self, frm, to):
        """How many moves lie from position frm to position to; -1 when this device lacks them."""
        return self._resend(frm, to, False)

    def _resend(self, frm, to, send=True):
        """Send the moves from position frm up to position to; their count, -1 when this device no
        longer has them (then nothing is sent only if send is False: _up counts first)."""
        m = self.match
        n = len(m.summaries)
        h, i = frm
        k = 0
        while _before((h, i), to):  # (a finished hand's end is the next one's start: no actions)
            acts = self._hand_actions(m, n, h)
            if acts is None:
                return -1
            end = to[1] if h == to[0] else len(acts)
            while i < end:
                if i >= len(acts):
                    return -1
                if send:
                    self.chan.send(MOVE, bytes((h & 0xFF, i, acts[i])))
                k += 1
                i += 1
            h += 1
            i = 0
        return k

    def _hand_actions(self, m, n, h):
        """The actions of hand h, from the live round, the match's records, or the saved hand before."""
        live = n if m.state == M_PLAYING else n - 1
        if h == live:
            return m.round.actions
        if 0 <= h < live and h < len(m.records) and m.records[h][1]:
            return m.records[h][1]  # played since this device last started: in memory
        if h == live - 1 and self.prev:
            return self.prev
        return None

    def _message(self, t, p, now, ev):
        st = self.state
        if t == BYE:
            if st == PLAYING:
                self.left = True
                self.chan.restart(now)
                ev.append(("lost", None))
            elif st == DEALING and self.peer_commit is not None:
                self.note = messages.MSG_LEFT_DEAL  # the deal is fixed: no other without a press
                ev.append(("note", self.note))
            elif st != WAIT:
                self._back_to_wait()
                self.note = messages.MSG_CANCELLED
                ev.append(("note", self.note))
            return
        if t == REFUSE:
            self._fail(messages.MSG_REFUSED + _ascii(p), ev)
            return
        if t == JOIN:
            if st != WAIT or len(p) != 2 or self.my_waited < 0:
                return
            self.peer_waited = (p[0] << 8) | p[1]
            mine = (self.my_waited, self.chan.nonce)
            theirs = (self.peer_waited, self.chan.peer)
            self.starter = mine > theirs
            self.seat = 0 if self.starter else 1
            if self.starter:
                self.rules = self.my_rules
                self.chan.send(RULES, self.rules)
                self.state = PROPOSED
            return
        if t == RULES:
            if st != WAIT or self.starter or self.peer_waited < 0:
                return
            self.rules = bytes(p)
            self.state = ASKED
            ev.append(("rules", self.rules))
            return
        if t == ACCEPT:
            if st == PROPOSED:
                self._deal()
            return
        if t == DECLINE:
            if st == PROPOSED:
                self._back_to_wait()
                self.note = messages.MSG_DECLINED
                ev.append(("note", self.note))
            return
        if t == COMMIT:
            if st != DEALING or len(p) != 32:
                return
            if self.peer_commit is None:
                self.peer_commit = bytes(p)  # from here on the deal is fixed
            elif bytes(p) != self.peer_commit:
                self._fail(messages.MSG_COMMIT_CHANGED, ev)  # a second try at a deal it likes better
                return
            self.chan.send(REVEAL, self.secret)
            return
        if t == REVEAL:
            if st == PLAYING and self.match is not None:
                return  # ours arrived late on the other side: nothing to do here
            if st != DEALING:
                return  # a late copy from a setup that was started over
            if self.peer_commit is None:
                self._fail(messages.MSG_REVEAL_EARLY, ev)
                return
            if sha256(bytes(p)).digest() != self.peer_commit:
                self._fail(messages.MSG_REVEAL, ev)
                return
            if self.starter:
                seed = seed_of(self.secret, p)
            else:
                seed = seed_of(p, self.secret)
            self.state = PLAYING
            self.note = None
            self.peer_pos = (0, 0)
            ev.append(("start", (self.rules, seed, self.seat)))
            return
        if t == MOVE:
            self._move(p, now, ev)

    def _deal(self):
        self.state = DEALING
        self.secret = bytes(self.rand_bytes(SECRET))
        self.peer_commit = None
        self._commit()

    def _commit(self):
        """Our commitment, and our reveal once we hold the other's (sent again after a reconnect)."""
        self.chan.send(COMMIT, sha256(self.secret).digest())
        if self.peer_commit is not None:
            self.chan.send(REVEAL, self.secret)

    def _move(self, p, now, ev):
        m = self.match
        if self.state != PLAYING or m is None or len(p) != 3 or self.note is not None:
            return  # a paused match (another match, seat, too far) takes no moves
        mine = position(m)
        d = (p[0] - mine[0]) & 0xFF
        if d >= 128:
            d -= 256
        at = (mine[0] + d, p[1])
        a = p[2]
        if self.inbox:
            h, i, _a = self.inbox[-1]
            if at == (h, i + 1) and len(self.inbox) < INBOX_MAX:
                self.inbox.append((at[0], at[1], a))
                self.moves_in += 1
                return
        elif at == mine:
            self.moves_in += 1
            if m.state == M_PLAYING:
                self._apply(self._applier, a, ev)
            else:
                self.inbox.append((at[0], at[1], a))  # the next hand's: after this result screen
            return
        if _before(at, mine):
            ev.append(("note", messages.MSG_REPLAY))
            return
        # a gap: something is out of step; compare positions afresh
        self.chan.restart(now)
        ev.append(("lost", None))


def _ascii(p):
    s = ""
    for b in p:
        s += chr(b) if 32 <= b < 127 else "?"
    return s
