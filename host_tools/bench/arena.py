"""Play N matches between two computer players and report who is stronger.

    python -m host_tools.bench.arena --a hard --b baseline --matches 2000 --rules classic --seed 1 --jobs 2
    python -m host_tools.bench.arena --a normal --b easy --variant oklahoma --variant hollywood
    python -m host_tools.bench.arena --a hard --b baseline --matches 20 --micropython

Players: easy, normal, hard, baseline.  Matches 2k and 2k+1 use the same deals
with the first dealer swapped, so luck of the cards cancels out in pairs.  The
progress bar goes to stderr, the report to stdout.  --micropython plays the
same matches (same seeds, same code: host_tools/bench/arena_core.py) under the
MicroPython WebAssembly port; the numbers must equal the CPython ones.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import multiprocessing.pool
import os
import statistics
import sys
import time
from pathlib import Path

from gin.ai import PLAYERS

from host_tools.bench import arena_core
from host_tools.bench.arena_core import DEALER_PLAYS, FIELDS, N_FIELDS, VARIANTS, make_rules

PRESETS = ("classic", "modern", "10/20", "20/25")


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def _clock_us() -> int:
    return time.perf_counter_ns() // 1000


def _work(args: tuple) -> tuple[list[int], list[int], list[int]]:
    preset, variants, target, seed, start, stop, a, b, timed = args
    rules = make_rules(preset, variants, target)
    times: tuple[list[int], list[int]] = ([], [])
    tot = arena_core.play_range(rules, seed, start, stop, a, b, _clock_us if timed else None, times)
    return tot, times[0], times[1]


def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    return [(i, min(n, i + size)) for i in range(0, n, size)]


class Progress:
    def __init__(self, total: int, label: str, stream=None) -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.t0 = time.monotonic()
        self.enabled = total > 0

    def add(self, k: int) -> None:
        self.done += k
        if not self.enabled:
            return
        frac = self.done / self.total if self.total else 1.0
        width = 30
        fill = int(frac * width)
        el = time.monotonic() - self.t0
        eta = el / frac - el if frac > 0 else 0
        self.stream.write(
            "\r%s [%s%s] %d/%d  %.0fs left "
            % (self.label, "#" * fill, "." * (width - fill), self.done, self.total, eta)
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def run_cpython(
    a: str,
    b: str,
    matches: int,
    preset: str,
    variants: list[str],
    target: int,
    seed: int,
    jobs: int,
    timed: bool = True,
) -> tuple[list[int], list[int], list[int]]:
    size = max(1, min(20, matches // (jobs * 4) or 1))
    tasks = [(preset, variants, target, seed, s, e, a, b, timed) for s, e in _chunks(matches, size)]
    tot = [0] * N_FIELDS
    ta: list[int] = []
    tb: list[int] = []
    prog = Progress(matches, "%s vs %s" % (a, b))
    if jobs <= 1:
        results = map(_work, tasks)
        pool = None
    else:
        pool = multiprocessing.Pool(jobs)
        results = pool.imap(_work, tasks)
    try:
        for (s, e), (st, x, y) in zip([(t[4], t[5]) for t in tasks], results):
            for k in range(N_FIELDS):
                tot[k] += st[k]
            ta.extend(x)
            tb.extend(y)
            prog.add(e - s)
    finally:
        prog.close()
        if pool is not None:
            pool.close()
            pool.join()
    return tot, ta, tb


# --- MicroPython ----------------------------------------------------------------

_MP_DRIVER = """
try:
    import js
    def _clock():
        return int(js.performance.now() * 1000)
except ImportError:
    import time
    _clock = time.ticks_us
_rules = make_rules(%(preset)r, %(variants)r, %(target)d)
_times = ([], [])
_tot = play_range(_rules, %(seed)d, %(start)d, %(stop)d, %(a)r, %(b)r, _clock, _times)
print("STATS " + " ".join([str(x) for x in _tot]))
print("TA " + " ".join([str(x) for x in _times[0]]))
print("TB " + " ".join([str(x) for x in _times[1]]))
"""


def core_source() -> str:
    """arena_core's source with its gin imports kept (the runner mounts firmware/)."""
    return (Path(__file__).resolve().parent / "arena_core.py").read_text()


def run_micropython_code(code: str, heapsize: int | str | None = None, timeout: float | None = None) -> str:
    """Run code under the MicroPython WebAssembly port (firmware/ importable); return its stdout.

    Without a heap size the port's heap grows on demand: it collects garbage only
    between runs, so a long run needs the room.  timeout: seconds (None: the runner's default)."""
    from host_tools.micropython.runner import run

    if timeout is None:
        return run(code, heapsize=heapsize)
    return run(code, heapsize=heapsize, timeout=timeout)


def _mp_chunk(args: tuple) -> tuple[list[int], list[int], list[int]]:
    preset, variants, target, seed, start, stop, a, b = args
    code = core_source() + _MP_DRIVER % dict(
        preset=preset, variants=list(variants), target=target, seed=seed, start=start, stop=stop, a=a, b=b
    )
    out = run_micropython_code(code)
    st: list[int] = []
    ta: list[int] = []
    tb: list[int] = []
    for line in out.splitlines():
        if line.startswith("STATS "):
            st = [int(x) for x in line.split()[1:]]
        elif line.startswith("TA"):
            ta = [int(x) for x in line.split()[1:]]
        elif line.startswith("TB"):
            tb = [int(x) for x in line.split()[1:]]
    if len(st) != N_FIELDS:
        raise RuntimeError("MicroPython run gave no stats:\n" + out[-2000:])
    return st, ta, tb


def run_micropython(
    a: str, b: str, matches: int, preset: str, variants: list[str], target: int, seed: int, jobs: int
) -> tuple[list[int], list[int], list[int]]:
    size = max(2, min(10, matches // max(1, jobs)))
    size += size % 2
    tasks = [(preset, variants, target, seed, s, e, a, b) for s, e in _chunks(matches, size)]
    tot = [0] * N_FIELDS
    ta: list[int] = []
    tb: list[int] = []
    prog = Progress(matches, "%s vs %s (MicroPython)" % (a, b))
    pool = multiprocessing.pool.ThreadPool(max(1, jobs))
    try:
        for t, (st, x, y) in zip(tasks, pool.imap(_mp_chunk, tasks)):
            for k in range(N_FIELDS):
                tot[k] += st[k]
            ta.extend(x)
            tb.extend(y)
            prog.add(t[5] - t[4])
    finally:
        prog.close()
        pool.close()
        pool.join()
    return tot, ta, tb


# --- report ---------------------------------------------------------------------


def summarize(a: str, b: str, tot: list[int], ta: list[int], tb: list[int]) -> dict:
    s = dict(zip(FIELDS, tot))
    n = s["a_won"] + s["b_won"] + s["drawn"]
    score = s["a_won"] + 0.5 * s["drawn"]
    lo, hi = wilson(score, n)
    hands = max(1, s["hands"])
    played = max(1, hands - s["cancelled"])
    rep = {
        "a": a,
        "b": b,
        "matches": n,
        "a_wins": s["a_won"],
        "b_wins": s["b_won"],
        "draws": s["drawn"],
        "a_win_rate": score / n if n else 0.0,
        "ci95": [lo, hi],
        "hands": s["hands"],
        "a_points_per_hand": s["a_points"] / hands,
        "b_points_per_hand": s["b_points"] / hands,
        "net_points_per_hand": (s["a_points"] - s["b_points"]) / hands,
        "a_hand_win_rate": s["a_hands"] / played,
        "gin_rate": (s["a_gin"] + s["b_gin"]) / hands,
        "a_gin_rate": s["a_gin"] / hands,
        "b_gin_rate": s["b_gin"] / hands,
        "undercut_rate": (s["a_undercut"] + s["b_undercut"]) / hands,
        "a_undercuts": s["a_undercut"],
        "b_undercuts": s["b_undercut"],
        "cancelled_rate": s["cancelled"] / hands,
        "turns_per_hand": s["turns"] / hands,
        "a_tally_per_match": s["a_tally"] / max(1, n),
        "b_tally_per_match": s["b_tally"] / max(1, n),
        "illegal": s["illegal"],
        "decisions": [s["a_decisions"], s["b_decisions"]],
        "stats": s,
    }
    for who, t in (("a", ta), ("b", tb)):
        if t:
            st = sorted(t)
            rep[who + "_time_us"] = {
                "median": statistics.median(st),
                "mean": sum(st) / len(st),
                "p99": st[min(len(st) - 1, int(len(st) * 0.99))],
                "max": st[-1],
            }
    return rep


def format_report(rep: dict, title: str) -> str:
    a, b = rep["a"], rep["b"]
    lo, hi = rep["ci95"]
    lines = [
        title,
        "%-28s %d (%s %d, %s %d, drawn %d)"
        % ("matches", rep["matches"], a, rep["a_wins"], b, rep["b_wins"], rep["draws"]),
        "%-28s %.1f%%  95%% CI %.1f%% .. %.1f%%"
        % ("%s match win rate" % a, 100 * rep["a_win_rate"], 100 * lo, 100 * hi),
        "%-28s %d" % ("hands", rep["hands"]),
        "%-28s %s %.2f, %s %.2f, net %+.2f"
        % (
            "points per hand",
            a,
            rep["a_points_per_hand"],
            b,
            rep["b_points_per_hand"],
            rep["net_points_per_hand"],
        ),
        "%-28s %.1f%%" % ("%s hand win rate" % a, 100 * rep["a_hand_win_rate"]),
        "%-28s %.1f%% (%s %.1f%%, %s %.1f%%)"
        % ("gin rate", 100 * rep["gin_rate"], a, 100 * rep["a_gin_rate"], b, 100 * rep["b_gin_rate"]),
        "%-28s %.1f%% (%s undercut %d, %s undercut %d)"
        % ("undercut rate", 100 * rep["undercut_rate"], a, rep["a_undercuts"], b, rep["b_undercuts"]),
        "%-28s %.1f%%" % ("cancelled hands", 100 * rep["cancelled_rate"]),
        "%-28s %.1f turns" % ("average hand length", rep["turns_per_hand"]),
        "%-28s %s %.0f, %s %.0f"
        % ("final tally per match", a, rep["a_tally_per_match"], b, rep["b_tally_per_match"]),
        "%-28s %d" % ("illegal actions", rep["illegal"]),
    ]
    for who, name in (("a", a), ("b", b)):
        t = rep.get(who + "_time_us")
        if t:
            lines.append(
                "%-28s median %.0f us, mean %.0f, p99 %.0f, max %.0f"
                % ("decision time (%s)" % name, t["median"], t["mean"], t["p99"], t["max"])
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.arena", description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="hard", choices=PLAYERS, help="player A (default hard)")
    ap.add_argument("--b", default="baseline", choices=PLAYERS, help="player B (default baseline)")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--rules", default="classic", choices=PRESETS, help="preset (default classic)")
    ap.add_argument("--variant", action="append", default=[], choices=VARIANTS + (DEALER_PLAYS,))
    ap.add_argument("--target", type=int, default=0, help="game target (default: the rule set's, 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--micropython", action="store_true", help="run under the MicroPython WebAssembly port")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--no-times", action="store_true", help="skip per-decision timing")
    args = ap.parse_args(argv)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    t0 = time.monotonic()
    if args.micropython:
        tot, ta, tb = run_micropython(
            args.a, args.b, args.matches, args.rules, args.variant, args.target, args.seed, args.jobs
        )
        where = "MicroPython (WebAssembly)"
    else:
        tot, ta, tb = run_cpython(
            args.a,
            args.b,
            args.matches,
            args.rules,
            args.variant,
            args.target,
            args.seed,
            args.jobs,
            not args.no_times,
        )
        where = "CPython"
    rep = summarize(args.a, args.b, tot, ta, tb)
    rep["seconds"] = time.monotonic() - t0
    rules = make_rules(args.rules, args.variant, args.target)
    title = "%s vs %s: %s, target %d, seed %d, %s, %.0f s" % (
        args.a,
        args.b,
        rules.title(),
        rules.target,
        args.seed,
        where,
        rep["seconds"],
    )
    if args.json:
        rep["title"] = title
        print(json.dumps(rep, indent=1, sort_keys=True))
    else:
        print(format_report(rep, title))
    return 0 if rep["illegal"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
