"""A model of the link cable between two devices: a serial line at a baud rate, with faults.

Each ``End`` is a byte port with the contract of the device's UART port
(``open``, ``close``, ``write(bytes)``, ``read()`` -> bytes or None).  Bytes
leave one at a time (10 bits each at the baud rate: 115200 baud is 86.8 us a
byte) and arrive in order at the other end.  The fault injector, seeded:

* ``drop``, ``dup``, ``corrupt``: per-byte chances of losing a byte, sending it
  twice, flipping one of its bits;
* ``stall`` and ``stall_ms``: per-byte chance that the line holds everything
  behind it for ``stall_ms`` (a delay; bytes on a wire never overtake);
* ``cut()`` / ``restore()``: the cable pulled and plugged back (bytes in flight
  are lost);
* ``End.blackout(now)``: the receiving device erases a flash block, with
  interrupts off for ``BLACKOUT_MS``: of the bytes that arrive meanwhile only
  the UART FIFO's ``FIFO`` survive (the RP2040 facts in the developers' guide);
* ``End.power(False)``: the device is off: what arrives is lost.

Time comes from ``clock()`` (ms, an int or a float).  Plain Python that
MicroPython runs too.
"""

BLACKOUT_MS = 45
FIFO = 32
BITS_PER_BYTE = 10  # start + 8 data + stop


class End:
    def __init__(self, line, side):
        self.line = line
        self.side = side
        self.inbox = []  # (arrival ms, byte)
        self.busy_until = 0.0  # the transmitter is sending until then
        self.windows = []  # [start, end, bytes kept] of blackouts
        self.powered = True
        self.opened = 0
        self.written = 0

    # --- the port contract ---------------------------------------------------------------
    def open(self):
        self.opened += 1
        self.inbox = []  # a UART starts empty

    def close(self):
        pass

    def write(self, data):
        if not self.powered:
            return
        self.written += len(data)
        self.line.transmit(self, data)

    def read(self):
        now = self.line.clock()
        inbox = self.inbox
        n = 0
        while n < len(inbox) and inbox[n][0] <= now:
            n += 1
        if not n:
            return None
        out = bytearray()
        for t, b in inbox[:n]:
            if self._blacked_out(t):
                continue
            out.append(b)
        del inbox[:n]
        return bytes(out) if out else None

    # --- faults on this device ---------------------------------------------------------------
    def blackout(self, now=None):
        """A flash erase starts now: interrupts off for BLACKOUT_MS."""
        t = self.line.clock() if now is None else now
        self.line.stats["erases"] += 1
        self.windows.append([t, t + BLACKOUT_MS, 0])
        if len(self.windows) > 8:
            self.windows.pop(0)

    def _blacked_out(self, t):
        for w in self.windows:
            if w[0] <= t < w[1]:
                if w[2] < FIFO:
                    w[2] += 1
                    return False
                self.line.stats["blackout"] += 1
                return True
        return False

    def power(self, on):
        self.powered = on
        if not on:
            self.inbox = []


class Line:
    def __init__(self, clock, rng=None, baud=115200, drop=0.0, dup=0.0, corrupt=0.0, stall=0.0, stall_ms=30):
        self.clock = clock
        self.rng = rng
        self.byte_ms = 1000.0 * BITS_PER_BYTE / baud
        self.drop = drop
        self.dup = dup
        self.corrupt = corrupt
        self.stall = stall
        self.stall_ms = stall_ms
        self.is_cut = False
        self.a = End(self, 0)
        self.b = End(self, 1)
        self.stats = {
            "bytes": 0,
            "dropped": 0,
            "duplicated": 0,
            "corrupted": 0,
            "stalls": 0,
            "cut": 0,
            "erases": 0,
            "blackout": 0,
        }

    def ends(self):
        return self.a, self.b

    def cut(self):
        self.is_cut = True
        self.a.inbox = []
        self.b.inbox = []

    def restore(self):
        self.is_cut = False

    def _chance(self, p):
        return p > 0 and self.rng is not None and self.rng.random() < p

    def transmit(self, src, data):
        """Put bytes on the wire from end ``src`` (what End.write does; tests inject frames with it)."""
        dst = self.b if src is self.a else self.a
        now = self.clock()
        t = src.busy_until if src.busy_until > now else now
        for b in data:
            t += self.byte_ms
            self.stats["bytes"] += 1
            if self.is_cut or not dst.powered:
                self.stats["cut"] += 1
                continue
            if self._chance(self.stall):
                self.stats["stalls"] += 1
                t += self.stall_ms
            if self._chance(self.drop):
                self.stats["dropped"] += 1
                continue
            if self._chance(self.corrupt):
                self.stats["corrupted"] += 1
                b ^= 1 << self.rng.randrange(8)
            dst.inbox.append((t, b))
            if self._chance(self.dup):
                self.stats["duplicated"] += 1
                dst.inbox.append((t, b))
        src.busy_until = t

    def next_arrival(self):
        """The earliest time a byte is due at either end, or None."""
        best = None
        for e in (self.a, self.b):
            if e.inbox and (best is None or e.inbox[0][0] < best):
                best = e.inbox[0][0]
        return best
