"""`make bench`: named benchmarks, timed on CPython and under MicroPython.

    python -m host_tools.bench.melds                 # every benchmark, both interpreters
    python -m host_tools.bench.melds meld-rich       # only names containing "meld-rich"
    python -m host_tools.bench.melds --cpython-only

Each benchmark is a row of BENCHMARKS: a name, a one-line definition, and a
snippet of firmware-compatible Python that defines ITEMS (inputs made
outside the timed loop) and FN (the call timed on each item).  The same
snippet runs on CPython and on the MicroPython WebAssembly port, so both
interpreters time the same calls on the same inputs (hands are dealt with
cards.Rng, identical everywhere).

Columns: calls/s on one CPython core (best of several rounds, each at least
0.2 s of CPU time: rates are per CPU second of this process, so other load on
the machine counts little), calls/s under MicroPython (wasm port in Node, CPU
time of the Node process; a Pico is about 25x slower),
and heap bytes allocated per call under MicroPython (gc disabled,
gc.mem_alloc() before and after every item called `ALLOC_REPS` times, after a
warm-up pass).  Timed loops are `for x in ITEMS: FN(x)`, so the rate includes
the loop and the call.  The wasm port keeps Python frames on a pystack; the
rp2 port takes frames over 11 words from the heap and frees them on return,
which this column can't show (tests/test_melds.py checks the meld entry
points' frame sizes instead).

To add a section, append Benchmark rows (any section name) to BENCHMARKS.

Melds section: hands are the engine's representation, a list of four suit
masks.  "random" hands are 10 or 11 cards from a shuffled 52-card deck.
"meld-rich" hands are 10 or 11 cards drawn from the 20 cards of 5
consecutive ranks (start rank uniform in A..9): rich in sets and runs at
once, the case where the engine has to branch (~96% of them hold a rank 3 or
4 times, against ~24% of random 10-card hands).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
ALLOC_REPS = 3


@dataclass(frozen=True)
class Benchmark:
    section: str
    name: str
    definition: str
    snippet: str  # defines ITEMS and FN; firmware on sys.path; runs on both interpreters
    count: int = 2000  # len(ITEMS), passed to the snippet as N


_DEAL = """
from gin.cards import Rng
from gin import melds


def deal_hands(seed, n_cards, rich, count):
    rng = Rng(seed)
    out = []
    for _ in range(count):
        if rich:
            lo = rng.below(9)
            pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 5)]
        else:
            pool = list(range(52))
        rng.shuffle(pool)
        h = [0, 0, 0, 0]
        for c in pool[:n_cards]:
            h[c // 13] |= 1 << (c % 13)
        out.append(h)
    return out
"""

BENCHMARKS: list[Benchmark] = [
    Benchmark(
        "melds",
        "deadwood, random 10",
        "melds.deadwood(h), h = 10 cards of a shuffled deck",
        _DEAL + "ITEMS = deal_hands(1, 10, False, N)\nFN = melds.deadwood\n",
    ),
    Benchmark(
        "melds",
        "deadwood, meld-rich 10",
        "melds.deadwood(h), h = 10 of the 20 cards of 5 consecutive ranks",
        _DEAL + "ITEMS = deal_hands(2, 10, True, N)\nFN = melds.deadwood\n",
    ),
    Benchmark(
        "melds",
        "after discard, random 11",
        "melds.deadwood_after_discard(h), h = 11 cards of a shuffled deck",
        _DEAL + "ITEMS = deal_hands(3, 11, False, N)\nFN = melds.deadwood_after_discard\n",
    ),
    Benchmark(
        "melds",
        "after discard, meld-rich 11",
        "melds.deadwood_after_discard(h), h = 11 of the 20 cards of 5 consecutive ranks",
        _DEAL + "ITEMS = deal_hands(4, 11, True, N)\nFN = melds.deadwood_after_discard\n",
    ),
    Benchmark(
        "melds",
        "arrangement, meld-rich 10",
        "melds.arrangement(h) (lists; once per knock, not a hot path)",
        _DEAL + "ITEMS = deal_hands(5, 10, True, N)\nFN = melds.arrangement\n",
        count=500,
    ),
]

# Timing harness, valid on both interpreters.  CLOCK() returns milliseconds.
_HARNESS = """
import gc


def _rate(fn, items, clock, min_ms, rounds):
    for x in items:  # warm-up: first calls may cache lookups
        fn(x)
    reps = 1
    while True:
        t = clock()
        for _ in range(reps):
            for x in items:
                fn(x)
        dt = clock() - t
        if dt >= min_ms:
            break
        reps *= 2
    best = dt
    for _ in range(rounds - 1):
        t = clock()
        for _ in range(reps):
            for x in items:
                fn(x)
        dt = clock() - t
        if dt < best:
            best = dt
    return reps * len(items) * 1000.0 / best


def _alloc(fn, items, reps):
    if not hasattr(gc, "mem_alloc"):
        return -1.0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(reps):
        for x in items:
            fn(x)
    after = gc.mem_alloc()
    gc.enable()
    return (after - before) / (reps * len(items))


def _bench(name, src, n, clock, min_ms, rounds, alloc_reps):
    g = {"N": n}
    exec(src, g)
    items = g["ITEMS"]
    fn = g["FN"]
    rate = _rate(fn, items, clock, min_ms, rounds)
    per = _alloc(fn, items, alloc_reps)
    print("BENCH " + name + "|%.1f|%.3f" % (rate, per))
"""


def _job(benches: list[Benchmark], clock: str, min_ms: float, rounds: int) -> str:
    lines = [_HARNESS, clock]
    for b in benches:
        lines.append(
            "_bench(%r, %r, %d, CLOCK, %r, %d, %d)" % (b.name, b.snippet, b.count, min_ms, rounds, ALLOC_REPS)
        )
    return "\n".join(lines) + "\n"


def _parse(text: str) -> dict[str, tuple[float, float]]:
    out = {}
    for line in text.splitlines():
        if line.startswith("BENCH "):
            name, rate, per = line[6:].rsplit("|", 2)
            out[name] = (float(rate), float(per))
    return out


def run_cpython(benches: list[Benchmark], min_ms: float, rounds: int) -> dict[str, tuple[float, float]]:
    import contextlib
    import io

    clock = "import time\nCLOCK = lambda: time.process_time() * 1000.0\n"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(_job(benches, clock, min_ms, rounds), "bench", "exec"), {"__name__": "bench"})
    return _parse(buf.getvalue())


# Node's process.cpuUsage(): CPU time, like time.process_time() on CPython (and
# the wasm port's time.ticks_ms() only ticks every few ms).
_MP_CLOCK = """
try:
    import js

    def CLOCK():
        u = js.process.cpuUsage()
        return (u.user + u.system) / 1000.0

except ImportError:
    import time

    CLOCK = lambda: time.ticks_us() / 1000.0
"""


def run_micropython(benches: list[Benchmark], min_ms: float, rounds: int) -> dict[str, tuple[float, float]]:
    return _parse(_micropython(_job(benches, _MP_CLOCK, min_ms, rounds)))


def _micropython(code: str) -> str:
    """stdout of `code` under MicroPython with firmware/ on sys.path."""
    from host_tools.micropython.runner import run

    # No fixed heap: this port collects garbage only between runs, and the
    # list-building rows (arrangement) make plenty.
    return run(code, timeout=900)


def _fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="run only benchmarks whose name contains one of these")
    ap.add_argument("--cpython-only", action="store_true", help="skip MicroPython")
    ap.add_argument("--quick", action="store_true", help="shorter rounds (noisier)")
    args = ap.parse_args(argv)
    benches = [b for b in BENCHMARKS if not args.names or any(n in b.name for n in args.names)]
    if not benches:
        print("no benchmark matches %s" % " ".join(args.names), file=sys.stderr)
        return 2
    min_ms, rounds = (100.0, 3) if args.quick else (200.0, 7)
    cpy = run_cpython(benches, min_ms, rounds)
    mp = {} if args.cpython_only else run_micropython(benches, min_ms, 3 if args.quick else 5)
    w = max(len(b.name) for b in benches)
    head = f"{'benchmark':<{w}}  {'CPython /s':>12}  {'MicroPython /s':>14}  {'MP bytes/call':>13}"
    section = None
    for b in benches:
        if b.section != section:
            section = b.section
            print(f"\n[{section}]")
            print(head)
            print("-" * len(head))
        rate = cpy[b.name][0]
        mrate, mper = mp.get(b.name, (None, None))
        per = "-" if mper is None else f"{mper:.2f}"
        print(f"{b.name:<{w}}  {_fmt_rate(rate):>12}  {_fmt_rate(mrate):>14}  {per:>13}")
    print()
    for b in benches:
        print(f"  {b.name}: {b.definition} ({b.count} inputs made before timing)")
    print(
        "\nRates per CPU second of one process (CPython %s; %d cores here, others may be busy). "
        "MicroPython = WebAssembly port in Node; a Pico is ~25x slower."
        % (sys.version.split()[0], os.cpu_count() or 0)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
