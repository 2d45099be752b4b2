"""Thousands of link matches between two Apps under every fault, to the end: the soak.

    python -m host_tools.link.soak                         # 5,000 matches, 2 processes
    python -m host_tools.link.soak --matches 500 --first 20000 --target 100

Each match is host_tools.link.duo with one of the test suite's fault mixes and rule sets
(tests/test_link_matches.py plays 200 of these), seeded by its number.  Prints the failures
(seed and why), the totals, and exits 1 if any match failed.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import host_tools  # noqa: F401  (firmware/ on sys.path)
from host_tools.link.duo import Duo, Faults

# isort: split
from gin.rules import RuleSet

FAULTS = (
    ("noise", dict(drop=0.01, dup=0.003, corrupt=0.003, stall=0.002)),
    ("noise+erase", dict(drop=0.01, dup=0.003, corrupt=0.003, stall=0.002, blackout=True)),
    ("cable pulls", dict(drop=0.005, blackout=True, cuts=0.01)),
    ("power cuts", dict(drop=0.005, blackout=True, power_cuts=0.01)),
    (
        "everything",
        dict(drop=0.01, dup=0.003, corrupt=0.003, stall=0.002, blackout=True, cuts=0.002, power_cuts=0.002),
    ),
)
RULES = (
    {},
    {"preset": "modern"},
    {"oklahoma": True},
    {"straight": True},
    {"hollywood": True},
    {"preset": "20/25", "big_gin": True},
    {"gin_forced": True, "next_dealer": 2},
)


def one(args):
    seed, target = args
    name, f = FAULTS[seed % len(FAULTS)]
    rules = RuleSet(target=target, **RULES[seed % len(RULES)])
    t = time.perf_counter()
    r = Duo(seed=seed, faults=Faults(**f), rules=rules, max_steps=200_000).play()
    return (
        seed,
        name,
        r.ok,
        r.why,
        r.steps,
        r.virtual_ms,
        r.moves,
        r.reboots,
        r.cable_cuts,
        time.perf_counter() - t,
    )


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.link.soak", description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=5000)
    ap.add_argument("--first", type=int, default=100_000, help="the first match's seed")
    ap.add_argument("--target", type=int, default=100, help="points to win a match")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    work = [(a.first + i, a.target) for i in range(a.matches)]
    failed = []
    done = 0
    totals = {"steps": 0, "virtual_ms": 0, "moves": 0, "reboots": 0, "cuts": 0, "max_steps": 0}
    with ProcessPoolExecutor(a.jobs) as ex:
        for seed, name, ok, why, steps, vms, moves, reboots, cuts, _dt in ex.map(one, work, chunksize=8):
            totals["steps"] += steps
            totals["virtual_ms"] += vms
            totals["moves"] += moves
            totals["reboots"] += reboots
            totals["cuts"] += cuts
            totals["max_steps"] = max(totals["max_steps"], steps)
            if not ok:
                failed.append(seed)
                print("FAILED seed %d (%s): %s" % (seed, name, why), flush=True)
            done += 1
            if done % 250 == 0:
                print(
                    "... %d matches, %d failed, %.0f s" % (done, len(failed), time.perf_counter() - t0),
                    flush=True,
                )
    n = a.matches
    print(
        "%d matches to %d: %d ok, %d failed; %d moves, %d reboots, %d cable pulls; "
        "loop steps per match: mean %d, max %d; %.0f h of play; %.0f s"
        % (
            n,
            a.target,
            n - len(failed),
            len(failed),
            totals["moves"],
            totals["reboots"],
            totals["cuts"],
            totals["steps"] // max(1, n),
            totals["max_steps"],
            totals["virtual_ms"] / 3.6e6,
            time.perf_counter() - t0,
        )
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
