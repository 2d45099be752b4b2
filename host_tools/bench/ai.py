"""Speed and memory of the computer players under MicroPython (WebAssembly port).

    python -m host_tools.bench.ai                  # hard vs baseline, 50 matches, Classic
    python -m host_tools.bench.ai --level expert   # the expert's search (issue 10's targets)
    python -m host_tools.bench.ai --level normal --matches 20 --repeat 3
    python -m host_tools.bench.ai --json

For every decision of the measured player over N full matches it records the
time (js performance.now, microseconds) and the heap bytes allocated
(gc.mem_alloc() before and after: this port collects garbage only between
runs, so the difference is exactly what the decision allocated).  Players keep
no memory between decisions, so each decision is made twice, once under each
probe, and both calls must agree.  It also
reports the player's retained state: what make_player() allocates, which is
everything a player keeps (decisions add nothing to it).

Targets: hard's decision (issue 3) median <= 8 ms and worst <= 40 ms here
(a Pico is about 33x slower), <= 2 KB allocated per decision, retained state
< 2 KB; expert's (issue 10) median <= 10 ms, p99 <= 25 ms, worst <= 35 ms
(about 1 s on a Pico), <= 8 KB allocated per decision.  Timing is noisy when
other work shares the cores: --repeat runs the same matches again and
reports each run, and --cpu-time measures the process's CPU time instead of
the wall clock (Node's process.cpuUsage(), microseconds).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import time

from gin.ai import PLAYERS
from gin.round import DISCARD_PHASE, DRAW, OFFER

from host_tools.bench.arena import run_micropython_code

# level: (median ms, p99 ms, worst ms, heap bytes per decision, retained state bytes)
TARGETS = {
    "expert": (10.0, 25.0, 35.0, 8192, 4096),
}
DEFAULT_TARGET = (8.0, 40.0, 40.0, 2048, 2048)
PICO_FACTOR = 33  # a Pico runs MicroPython about this many times slower than the WebAssembly port

_CODE = """
import gc
import js
from gin import rules as gin_rules
from gin.ai import make_player
from gin.cards import mix_seed
from gin.match import GAME_OVER, HAND_OVER, Match

if %(cpu)r:
    def now_us():
        u = js.process.cpuUsage()  # this process's CPU time: steady when other work shares the cores
        return u.user + u.system
else:
    def now_us():
        return int(js.performance.now() * 1000)

make_player(%(level)r, 0)  # loads the level's module: code, not the player's state
gc.collect()
m0 = gc.mem_alloc()
probe = make_player(%(level)r, 1)
state = gc.mem_alloc() - m0

rules = gin_rules.RuleSet(**%(rules)r)
times = []
heaps = []
phases = []
for i in range(%(matches)d):
    ms = mix_seed(%(seed)d, 1000 + i)
    m = Match(rules, ms)
    seat = m.dealer if i %% 2 == 0 else 1 - m.dealer
    players = [None, None]
    players[seat] = make_player(%(level)r, mix_seed(ms, 11))
    players[1 - seat] = make_player(%(opponent)r, mix_seed(ms, 21))
    # a Match's usual turn loop, repeated on purpose in tests/mp/test_ai_mp.py and
    # tests/test_ai_expert.py: each runs alone (here a MicroPython program), and a
    # shared helper would have to ship in the firmware, in the Pico's RAM
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
            continue
        p = m.round.player
        obs = m.observation(p)
        if p == seat:
            # a player keeps no memory between decisions, so the same call can be
            # measured twice: once for the heap, once for the clock
            h0 = gc.mem_alloc()
            a = players[p].choose(obs)
            heaps.append(gc.mem_alloc() - h0)
            t0 = now_us()
            b = players[p].choose(obs)
            times.append(now_us() - t0)
            phases.append(obs.phase)
            if a != b:
                raise ValueError("a repeated decision differed")
        else:
            a = players[p].choose(obs)
        m.apply(a)
print("STATE", state)
print("T", " ".join([str(x) for x in times]))
print("H", " ".join([str(x) for x in heaps]))
print("P", " ".join([str(x) for x in phases]))
"""


class _HostShim:
    """What the bench code asks of MicroPython's `gc` and the port's `js`, on CPython:
    the thread's CPU time as the clock; no heap figures (CPython has no gc.mem_alloc)."""

    def __init__(self) -> None:
        self.process = self
        self.performance = self

    def collect(self) -> None:
        pass

    def mem_alloc(self) -> int:
        return 0

    def cpuUsage(self):  # noqa: N802  (Node's name)
        class Usage:
            user = time.thread_time_ns() // 1000
            system = 0

        return Usage

    def now(self) -> float:
        return time.perf_counter_ns() / 1e6


def run_code_on_cpython(code: str) -> str:
    """The bench code run in this process (CPython) with _HostShim for gc and js; its output."""
    shim = _HostShim()
    out = io.StringIO()
    body = code.replace("import gc\n", "", 1).replace("import js\n", "", 1)
    with contextlib.redirect_stdout(out):
        exec(body, {"gc": shim, "js": shim, "__name__": "bench"})  # noqa: S102  (our own code)
    return out.getvalue()


def run_once(
    level: str, opponent: str, matches: int, seed: int, rules: dict, cpu: bool = False, cpython: bool = False
) -> dict:
    code = _CODE % dict(
        level=level, opponent=opponent, matches=matches, seed=seed, rules=rules, cpu=cpu or cpython
    )
    if cpython:
        out = run_code_on_cpython(code)
    else:
        out = run_micropython_code(code, timeout=60.0 * matches)  # generous: a loaded machine stretches it
    state = 0
    times: list[int] = []
    heaps: list[int] = []
    phases: list[int] = []
    for line in out.splitlines():
        if line.startswith("STATE"):
            state = int(line.split()[1])
        elif line.startswith("T "):
            times = [int(x) for x in line.split()[1:]]
        elif line.startswith("H "):
            heaps = [int(x) for x in line.split()[1:]]
        elif line.startswith("P "):
            phases = [int(x) for x in line.split()[1:]]
    if not times:
        raise RuntimeError("the MicroPython bench printed no timings:\n" + out[-2000:])
    st = sorted(times)
    hp = sorted(heaps)
    draw = sorted(t for t, ph in zip(times, phases) if ph in (OFFER, DRAW))
    disc = sorted(t for t, ph in zip(times, phases) if ph == DISCARD_PHASE)
    return {
        "draw_median_ms": statistics.median(draw) / 1000 if draw else 0.0,
        "discard_median_ms": statistics.median(disc) / 1000 if disc else 0.0,
        "discard_worst_ms": disc[-1] / 1000 if disc else 0.0,
        "decisions": len(st),
        "median_ms": statistics.median(st) / 1000,
        "p90_ms": st[int(len(st) * 0.9)] / 1000,
        "p99_ms": st[min(len(st) - 1, int(len(st) * 0.99))] / 1000,
        "worst_ms": st[-1] / 1000,
        "heap_median": statistics.median(hp),
        "heap_max": hp[-1],
        "state_bytes": state,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.ai", description=__doc__.split("\n")[0])
    ap.add_argument("--level", default="hard", choices=PLAYERS)
    ap.add_argument("--opponent", default="baseline", choices=PLAYERS)
    ap.add_argument("--matches", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="run the same matches this many times")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--cpu-time",
        action="store_true",
        help="time decisions by the process's CPU time, not the wall clock (for a loaded machine)",
    )
    ap.add_argument(
        "--cpython",
        action="store_true",
        help="run on CPython instead (the thread's CPU time; no heap figures)",
    )
    args = ap.parse_args(argv)
    runs = [
        run_once(args.level, args.opponent, args.matches, args.seed, {}, args.cpu_time, args.cpython)
        for _ in range(args.repeat)
    ]
    t_med, t_p99, t_worst, t_heap, t_state = TARGETS.get(args.level, DEFAULT_TARGET)
    ok = all(
        r["median_ms"] <= t_med
        and r["p99_ms"] <= t_p99
        and r["worst_ms"] <= t_worst
        and r["heap_max"] <= t_heap
        and r["state_bytes"] < t_state
        for r in runs
    )
    if args.json:
        print(json.dumps({"level": args.level, "opponent": args.opponent, "runs": runs, "ok": ok}, indent=1))
        return 0 if ok or args.cpython else 1
    print(
        "AI bench (%s): %s vs %s, %d matches, seed %d, %s"
        % (
            "CPython" if args.cpython else "MicroPython WebAssembly",
            args.level,
            args.opponent,
            args.matches,
            args.seed,
            "CPU time" if args.cpu_time or args.cpython else "wall clock",
        )
    )
    for i, r in enumerate(runs):
        pico = ""
        if not args.cpython:
            pico = "  (Pico ~x%d: %.0f ms / %.0f ms)" % (
                PICO_FACTOR,
                PICO_FACTOR * r["median_ms"],
                PICO_FACTOR * r["worst_ms"],
            )
        print(
            "  run %d: %d decisions  median %.2f ms  p90 %.2f  p99 %.2f  worst %.2f ms%s"
            % (i + 1, r["decisions"], r["median_ms"], r["p90_ms"], r["p99_ms"], r["worst_ms"], pico)
        )
        print(
            "         by phase: draw/offer median %.2f ms, discard/knock median %.2f ms (worst %.2f)"
            % (r["draw_median_ms"], r["discard_median_ms"], r["discard_worst_ms"])
        )
        if not args.cpython:
            print(
                "         heap per decision: median %d B, max %d B   retained state %d B"
                % (r["heap_median"], r["heap_max"], r["state_bytes"])
            )
    if args.cpython:
        print("  (the targets are for the WebAssembly port: run without --cpython to check them)")
        return 0
    print(
        "  targets: median <= %.0f ms, p99 <= %.0f ms, worst <= %.0f ms, heap <= %d B, state < %d B: %s"
        % (t_med, t_p99, t_worst, t_heap, t_state, "met" if ok else "MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
