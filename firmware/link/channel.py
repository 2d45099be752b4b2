"""The reliable channel: who is on the other end, and every message delivered once, in order.

Over any byte port (``write(bytes)``, ``read()`` -> bytes or None, never
blocking: the UART on the device, a TCP socket on the PC, a simulated line
in the tests) it keeps a *session* with the other device and carries
messages on it.

Session.  Each side picks a random 32-bit ``nonce`` whenever it (re)starts
looking for the other and sends HELLO frames (whether it is up, its nonce,
the last nonce it heard from the other, and the caller's own HELLO fields)
every HELLO_MS.  A side is *up* once it has heard a HELLO that echoes its own
nonce; a HELLO from a side that is not up, or that does not echo ours, is
answered at once with ours.  Hearing a
nonce it did not know means the other side restarted (a reboot, a reconnect):
the sequence numbers and anything still unsent start over, and the game
layer decides what to resend from the two positions in the HELLOs.  Nothing
heard for LOST_MS while up means the link is lost: a new nonce, HELLOs again.

Messages.  Sequenced messages (the game's) are sent one at a time
(stop-and-wait): the frame carries a sequence number, the other side answers
ACK(seq), and the frame goes again every RESEND_MS until it is acknowledged.
A frame with the sequence number just delivered is a duplicate (its ACK was
lost): acknowledged again, not delivered.  Any other number is stale (a
frame from before a restart, or replayed): dropped and counted.  PING keeps
a quiet link alive; HELLO, ACK and PING are not sequenced.

Why stop-and-wait: a move is a few bytes and a person makes at most a few
moves a second, while a frame and its ACK take about 1.5 ms at 115200 baud.
RESEND_MS is long enough for the other device to finish a flash erase
(interrupts off for ~45 ms, bytes lost) and its loop's sleep.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from link.frame import Decoder, encode

# Frame types below SEQUENCED are link control; the game's messages are SEQUENCED and above.
HELLO = const(0x01)
ACK = const(0x02)
PING = const(0x03)
SEQUENCED = const(0x10)
LOST_EVENT = const(0x00)  # delivered by poll: the link went down (it looks for the other again)

HELLO_MS = const(300)  # a HELLO every 300 ms while looking for the other device
RESEND_MS = const(120)  # an unacknowledged frame goes again after this
PING_MS = const(700)  # something goes out at least this often while up
LOST_MS = const(2500)  # nothing heard for this long: the link is lost
QUEUE_MAX = const(24)  # messages waiting to go out (a game needs a handful; a resync at most this)


def _diff(a, b):
    d = (a - b) & ((1 << 30) - 1)
    if d >= 1 << 29:
        d -= 1 << 30
    return d


def u32(data, i):
    return (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]


def put_u32(out, v):
    out.append((v >> 24) & 0xFF)
    out.append((v >> 16) & 0xFF)
    out.append((v >> 8) & 0xFF)
    out.append(v & 0xFF)


class Channel:
    def __init__(self, port, rand32, now_ms):
        self.port = port
        self.rand32 = rand32  # a function: a fresh random 32-bit int (never 0)
        self.decoder = Decoder()
        self.up = False
        self.nonce = 0
        self.peer = 0  # the other side's nonce, 0: none heard yet
        self.echoed = False  # the other side has heard our nonce
        self.hello_fields = None  # a function: the caller's part of our HELLO (bytes)
        self.peer_hello = None  # the caller's part of the other's last HELLO
        self.heard_at = now_ms
        self.sent_at = now_ms
        self.hello_at = now_ms
        self.stats = {"sent": 0, "resent": 0, "bytes_out": 0, "bytes_in": 0, "bad": 0, "dup": 0, "stale": 0}
        self.full = False  # a message found the queue full: drop the session at the next poll
        self._restart(now_ms)

    # --- the session -----------------------------------------------------------------

    def _restart(self, now):
        """Look for the other side afresh: new nonce, nothing in flight."""
        n = self.rand32() & 0xFFFFFFFF
        self.nonce = n if n else 1
        self.up = False
        self.echoed = False
        self.peer = 0
        self._reset_seq()
        self.hello_at = now - HELLO_MS  # a HELLO at the next poll

    def _reset_seq(self):
        self.tx_seq = 0
        self.rx_next = 0
        self.queue = []
        self.inflight = None
        self.inflight_at = 0

    def restart(self, now):
        """Drop the session (the game layer saw something it can't continue from)."""
        self._restart(now)

    # --- sending ---------------------------------------------------------------------

    def _write(self, body, now):
        w = encode(body)
        self.port.write(w)
        self.stats["bytes_out"] += len(w)
        self.sent_at = now

    def send(self, mtype, payload=b""):
        """Queue a sequenced message; False when it can't go (it never raises).

        The link down: it would be lost anyway.  The queue full (only a peer that stops
        acknowledging gets here): the session is dropped at the next poll, and the game layer
        compares positions afresh on the next one, as after a pulled cable.
        """
        if not self.up:
            return False
        if len(self.queue) >= QUEUE_MAX:
            self.full = True
            return False
        self.queue.append((mtype, bytes(payload)))
        return True

    def busy(self):
        """Something is waiting to go out or to be acknowledged."""
        return self.inflight is not None or len(self.queue) > 0

    def _hello(self, now):
        b = bytearray()
        b.append(HELLO)
        b.append(1 if self.up else 0)
        put_u32(b, self.nonce)
        put_u32(b, self.peer)
        if self.hello_fields is not None:
            b.extend(self.hello_fields())
        self._write(b, now)
        self.hello_at = now

    # --- the loop --------------------------------------------------------------------

    def poll(self, now):
        """Read and answer what arrived, (re)send what is due; returns [(type, payload)] delivered.

        HELLOs are delivered too (type HELLO, the other's fields), once per new session.
        """
        out = []
        data = self.port.read()
        if data:
            self.stats["bytes_in"] += len(data)
            bad = self.decoder.bad
            for body in self.decoder.feed(data):
                self._frame(body, now, out)
            self.stats["bad"] += self.decoder.bad - bad
        if self.full:
            self.full = False
            if self.up:
                self._restart(now)
                out.append((LOST_EVENT, b""))
        if self.up and _diff(now, self.heard_at) >= LOST_MS:
            self._restart(now)
            out.append((LOST_EVENT, b""))
        if not self.up:
            if _diff(now, self.hello_at) >= HELLO_MS:
                self._hello(now)
            return out
        if self.inflight is None and self.queue:
            mtype, payload = self.queue.pop(0)
            body = bytearray()
            body.append(mtype)
            body.append(self.tx_seq)
            body.extend(payload)
            self.inflight = bytes(body)
            self.tx_seq = (self.tx_seq + 1) & 0xFF
            self._write(self.inflight, now)
            self.inflight_at = now
            self.stats["sent"] += 1
        elif self.inflight is not None and _diff(now, self.inflight_at) >= RESEND_MS:
            self._write(self.inflight, now)
            self.inflight_at = now
            self.stats["resent"] += 1
        if _diff(now, self.sent_at) >= PING_MS:
            self._write(b"\x03", now)
        return out

    def _frame(self, body, now, out):
        t = body[0]
        if t == HELLO:
            if len(body) < 10:
                return
            self.heard_at = now
            peer_up = body[1] & 1
            n = u32(body, 2)
            echo = u32(body, 6)
            fields = bytes(body[10:])
            if n != self.peer:
                # a new session on the other side: start our numbering over with it
                if self.up:
                    out.append((LOST_EVENT, b""))
                self.peer = n
                self.up = False
                self._reset_seq()
            self.peer_hello = fields
            if echo != self.nonce:
                # the other side does not know our nonce (it restarted, or took an old HELLO of
                # ours for new): whatever we thought, we are not in one session
                if self.up:
                    out.append((LOST_EVENT, b""))
                    self.up = False
                    self._reset_seq()
            elif not self.up:
                self.up = True
                out.append((HELLO, fields))
            if not peer_up or echo != self.nonce:
                self._hello(now)  # it is still looking: tell it our nonce and that we heard its own
            return
        if not self.up:
            return  # the game's frames mean nothing before a session
        self.heard_at = now
        if t == PING:
            return
        if t == ACK:
            if len(body) == 2 and self.inflight is not None and body[1] == self.inflight[1]:
                self.inflight = None
            return
        if t < SEQUENCED or len(body) < 2:
            self.stats["stale"] += 1
            return
        seq = body[1]
        if seq == self.rx_next:
            self.rx_next = (seq + 1) & 0xFF
            self._write(bytes((ACK, seq)), now)
            out.append((t, bytes(body[2:])))
        elif seq == (self.rx_next - 1) & 0xFF:
            self.stats["dup"] += 1
            self._write(bytes((ACK, seq)), now)
        else:
            self.stats["stale"] += 1
