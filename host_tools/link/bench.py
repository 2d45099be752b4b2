"""Bench the link cable: bytes per move, moves per second on a lossy 115200-baud line, move -> other screen.

    python -m host_tools.link.bench              # all three tables
    python -m host_tools.link.bench --no-mp      # without the MicroPython timing (no node needed)

1. Frame bytes: a MOVE frame and its ACK as they go on the wire (firmware/link/frame.py), and the
   bytes per move over whole matches between two Apps (host_tools.link.duo: HELLOs, PINGs and
   resends included).
2. Moves per second: two channels (firmware/link/channel.py) on the line model at 115200 baud,
   10 bits a byte, with 1% of the bytes lost, the sender always having a move to send, each side
   polling its port every P ms (the App polls every LINK_BUSY_MS while a frame of its own waits
   for its ACK, every LINK_POLL_MS otherwise).
3. Move -> the other's screen, estimated for a Pico: the CPU time of the two App steps involved
   (the mover's: engine, frame out; the other's: frame in, CRC, session, its engine's check, a
   full table redraw) measured on the MicroPython WebAssembly port and multiplied by the guide's
   33 (WebAssembly port -> Pico), plus the line time of the frame, the other's polling delay and
   the I2C transfer of a full frame (1,024 bytes at 400 kHz, about 26 ms; less once only the
   changed pages are sent).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
from pathlib import Path

import host_tools  # noqa: F401  (firmware/ on sys.path)
from host_tools.link.line import Line

# isort: split
from app import LINK_BUSY_MS, LINK_POLL_MS
from link import channel, frame, session

ROOT = Path(__file__).resolve().parents[2]
PICO_FACTOR = 33  # the developers' guide: a Pico runs MicroPython ~33x slower than the wasm port here
I2C_FULL_FRAME_MS = 26.0  # 1 KB at 400 kHz (guide)
BAUD = 115200


def frame_bytes():
    move = frame.encode(bytes((session.MOVE, 7, 3, 12, 104)))
    ack = frame.encode(bytes((channel.ACK, 7)))
    hello = frame.encode(bytes(31))  # type, up, nonce, echo, 13 session field bytes + padding
    return {"move": len(move), "ack": len(ack), "per_move": len(move) + len(ack), "hello_max": len(hello)}


def match_bytes(matches=20):
    from gin.rules import RuleSet

    from host_tools.link.duo import Duo, Faults

    total = moves = 0
    for seed in range(matches):
        r = Duo(seed=9000 + seed, faults=Faults.clean(), rules=RuleSet()).play()
        assert r.ok, r.why
        total += r.line["bytes"]
        moves += r.moves
    return {"matches": matches, "moves": moves, "bytes": total, "per_move": total / moves}


def throughput(poll_ms, loss=0.01, seconds=120, seed=1):
    """Moves per second one way with the sender never idle; returns (moves/s, resend share)."""

    class Clock:
        now = 0

    clock = Clock()
    line = Line(lambda: clock.now, random.Random(seed), baud=BAUD, drop=loss)
    a, b = line.ends()
    r = random.Random(seed + 1)
    ca = channel.Channel(a, lambda: r.getrandbits(32) | 1, 0)
    cb = channel.Channel(b, lambda: r.getrandbits(32) | 1, 0)
    while not (ca.up and cb.up):
        ca.poll(clock.now)
        cb.poll(clock.now)
        clock.now += 1
    start = clock.now
    got = 0
    k = 0
    end = start + seconds * 1000
    while clock.now < end and ca.up and cb.up:
        while len(ca.queue) < 2:
            ca.send(session.MOVE, bytes((0, k & 0xFF, 104)))
            k += 1
        if (clock.now - start) % poll_ms == 0:
            ca.poll(clock.now)
            got += len([1 for t, _p in cb.poll(clock.now) if t == session.MOVE])
        clock.now += 1
    secs = (clock.now - start) / 1000
    return got / secs, ca.stats["resent"] / max(1, ca.stats["sent"]), line.stats["dropped"]


_MP_CODE = r"""
import time, gc
from fake_hw import Clock, FakeHw
import app as appmod
from link import session, frame
from gin.match import PLAYING
from gin.round import DISCARD_PHASE
from modes import LINK
from ui.screens import LINK_RULES

class Wire:
    def __init__(self): self.buf = bytearray(); self.other = None
    def open(self): pass
    def close(self): pass
    def write(self, b): self.other.buf.extend(b)
    def read(self):
        if not self.buf: return None
        b = bytes(self.buf); self.buf = bytearray(); return b

wa = Wire(); wb = Wire(); wa.other = wb; wb.other = wa
class NoFlash:
    def __init__(self, inner): self.inner = inner
    def write_atomic(self, name, data, *a): return len(data)
    def __getattr__(self, k): return getattr(self.inner, k)
clock = Clock()  # one virtual clock for both handhelds
apps = []
n = [0]
def rnd(k):
    n[0] += 1
    return bytes([(n[0] * 37 + i * 11) & 255 for i in range(k)])
for w in (wa, wb):
    hw = FakeHw(clock=clock)
    hw.storage = NoFlash(hw.storage)  # the flash write comes after the frame: not part of the latency
    hw.link = w
    hw.random_bytes = rnd
    a = appmod.App(hw)
    a.settings["mode"] = LINK
    a.link_start()
    apps.append(a)
def step_all(ms=5):
    for a in apps:
        a.step()
    clock.advance(ms)
for _ in range(400):
    step_all()
    if apps[0].view.sid == LINK_RULES or apps[1].view.sid == LINK_RULES:
        break
for a in apps:
    if a.view.sid == LINK_RULES:
        a.link_accept()
for _ in range(400):
    step_all()
    if apps[0].match is not None and apps[1].match is not None:
        break
send_us = []
recv_us = []
for _ in range(60):
    m0 = apps[0].match
    if m0.state != PLAYING:
        break
    p = m0.round.player
    mover = apps[0] if apps[0].seat == p else apps[1]
    other = apps[1] if mover is apps[0] else apps[0]
    for _ in range(100):
        if mover.link.in_step():
            break
        step_all()
    obs = mover.match.observation(p)
    legal = obs.legal
    act = legal[-1] if mover.match.round.phase == DISCARD_PHASE else legal[0]
    t = time.ticks_us()
    mover.act(act)  # the engine checks and applies the move
    mover.link.poll(clock.now(), None)  # this step's poll: the move waits for the step's save
    mover.link.poll(clock.now(), None)  # the next step's: the MOVE frame goes out, saved first
    send_us.append(time.ticks_diff(time.ticks_us(), t))
    clock.advance(1)
    t = time.ticks_us()
    other.step()  # frame in, CRC, session, the engine's check, the table redrawn
    recv_us.append(time.ticks_diff(time.ticks_us(), t))
    for _ in range(40):
        step_all(2)
print("BENCH", " ".join(str(v) for v in send_us), "|", " ".join(str(v) for v in recv_us))
"""


def mp_step_times():
    from host_tools.micropython.runner import run

    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "ht").mkdir()
        shutil.copy(ROOT / "host_tools" / "hw" / "fake_hw.py", t / "ht" / "fake_hw.py")
        out = run(_MP_CODE, paths=[(ROOT / "firmware", "/fw"), (t / "ht", "/ht")], timeout=900)
    line = [x for x in out.splitlines() if x.startswith("BENCH")][-1][6:]
    sends, recvs = ([int(v) for v in part.split()] for part in line.split("|"))
    # the first moves import the table's modules: warm-up, left out
    sends, recvs = sends[4:], recvs[4:]
    return {
        "moves": len(sends),
        "send_mean_us": statistics.mean(sends),
        "send_max_us": max(sends),
        "recv_mean_us": statistics.mean(recvs),
        "recv_max_us": max(recvs),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.link.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--no-mp", action="store_true", help="skip the MicroPython timing")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    res = {"frames": frame_bytes(), "match": match_bytes()}
    res["throughput"] = {}
    for p in (1, LINK_BUSY_MS, LINK_POLL_MS):
        mps, resend, dropped = throughput(p)
        res["throughput"][p] = {"moves_per_s": mps, "resent_share": resend, "bytes_dropped": dropped}
    if not a.no_mp:
        mp = mp_step_times()
        res["mp"] = mp
        byte_ms = 10 * 1000 / BAUD
        wire = res["frames"]["move"] * byte_ms
        res["estimate_ms"] = {
            "mover_step": mp["send_mean_us"] * PICO_FACTOR / 1000,
            "wire": wire,
            "poll_wait_mean": LINK_POLL_MS / 2,
            "other_step": mp["recv_mean_us"] * PICO_FACTOR / 1000,
            "i2c_full_frame": I2C_FULL_FRAME_MS,
        }
        res["estimate_ms"]["total_mean"] = sum(res["estimate_ms"].values())
        res["estimate_ms"]["total_worst"] = (
            mp["send_max_us"] * PICO_FACTOR / 1000
            + wire
            + LINK_POLL_MS
            + mp["recv_max_us"] * PICO_FACTOR / 1000
            + I2C_FULL_FRAME_MS
        )
    if a.json:
        print(json.dumps(res, indent=2))
        return 0
    f = res["frames"]
    print("Frame bytes (wire, COBS + CRC-32 + the zero):")
    print(
        f"  MOVE {f['move']} + ACK {f['ack']} = {f['per_move']} bytes per move "
        f"({f['per_move'] * 10 * 1000 / BAUD:.2f} ms of line at {BAUD} baud)"
    )
    m = res["match"]
    print(
        f"  whole matches (Classic to 100, clean line, {m['matches']} matches, {m['moves']} moves): "
        f"{m['per_move']:.1f} bytes on the line per move, HELLOs and PINGs included"
    )
    print(
        f"Moves per second one way at {BAUD} baud with 1% of bytes lost (stop-and-wait, "
        f"resend after {channel.RESEND_MS} ms):"
    )
    for p, t in res["throughput"].items():
        print(
            f"  both sides polling every {p:2d} ms: {t['moves_per_s']:6.1f} moves/s, "
            f"{100 * t['resent_share']:.1f}% of frames resent"
        )
    if "estimate_ms" in res:
        e = res["estimate_ms"]
        mp = res["mp"]
        print(
            f"Move -> the other's screen, estimated for a Pico (WebAssembly port x {PICO_FACTOR}, "
            f"{mp['moves']} moves):"
        )
        print(
            f"  mover: engine, frame out         {e['mover_step']:6.1f} ms  "
            f"(port: mean {mp['send_mean_us']:.0f} us, max {mp['send_max_us']} us)"
        )
        print(f"  the MOVE frame on the line        {e['wire']:6.1f} ms")
        print(f"  the other's poll (mean)           {e['poll_wait_mean']:6.1f} ms  (every {LINK_POLL_MS} ms)")
        print(
            f"  other: frame in, check, redraw   {e['other_step']:6.1f} ms  "
            f"(port: mean {mp['recv_mean_us']:.0f} us, max {mp['recv_max_us']} us)"
        )
        print(f"  I2C, a full frame                 {e['i2c_full_frame']:6.1f} ms")
        print(f"  (the port's clock ticks in whole ms here: these are means over {mp['moves']} moves)")
        print(
            f"  total: mean {e['total_mean']:.0f} ms, worst {e['total_worst']:.0f} ms "
            f"(plus {channel.RESEND_MS} ms per resend when the line loses the frame)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
