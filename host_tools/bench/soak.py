"""Legality soak: thousands of hands between the computer players under every
preset and variant; every action must be legal and every card accounted for.

    python -m host_tools.bench.soak                 # 10,000 hands, both cores
    python -m host_tools.bench.soak --hands 500 --jobs 1

Hands cycle through the rule sets below and through every pairing of the four
players (easy, normal, hard, baseline), each seat dealing in turn.  A player's
choice is checked against the legal list before the engine sees it, and the
engine's own invariants are checked after every action.  Exit status 1 if
anything went wrong; the report lists each rule set's hands and endings.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

from gin import rules as gin_rules
from gin.ai import PLAYERS, make_player
from gin.cards import mix_seed
from gin.round import OVER, RESULT_NAMES, Round, action_text

RULESETS = (
    ("classic", {}),
    ("modern (big gin)", {"preset": "modern"}),
    ("10/20", {"preset": "10/20"}),
    ("20/25", {"preset": "20/25"}),
    ("straight", {"straight": True}),
    ("oklahoma x2 spades", {"oklahoma": True, "oklahoma_spade_double": True}),
    ("oklahoma + straight", {"preset": "modern", "oklahoma": True, "straight": True}),
    ("hollywood", {"hollywood": True}),
    ("gin forced + big gin", {"gin_forced": True, "big_gin": True}),
    ("dealer plays the upcard", {"upcard_offer": gin_rules.OFFER_DEALER_PLAYS}),
)


def rules_of(i: int) -> gin_rules.RuleSet:
    return gin_rules.RuleSet(**RULESETS[i][1])


def play_one(k: int, seed: int) -> tuple[int, int, int, str]:
    """Hand k: (rule set index, result kind, turns, error text or '')."""
    ri = k % len(RULESETS)
    n = len(PLAYERS)
    pair = (k // len(RULESETS)) % (n * n)
    a, b = PLAYERS[pair // n], PLAYERS[pair % n]
    rules = rules_of(ri)
    hs = mix_seed(seed, k)
    rnd = Round(rules, k % 2, hs)
    players = (make_player(a, hs ^ 1), make_player(b, hs ^ 2))
    try:
        while rnd.phase != OVER:
            p = rnd.player
            obs = rnd.observation(p)
            act = players[p].choose(obs)
            if act not in obs.legal:
                return (
                    ri,
                    -1,
                    rnd.turns,
                    "hand %d (%s vs %s, %s): illegal %s"
                    % (
                        k,
                        a,
                        b,
                        RULESETS[ri][0],
                        action_text(act) if isinstance(act, int) else repr(act),
                    ),
                )
            rnd.apply(act)
            rnd.check_invariants()
    except Exception as e:  # a crash is a finding: report it with the hand that caused it
        return (
            ri,
            -1,
            rnd.turns,
            "hand %d (%s vs %s, %s): %s: %s" % (k, a, b, RULESETS[ri][0], type(e).__name__, e),
        )
    return ri, rnd.result.kind, rnd.turns, ""


def _chunk(args: tuple[int, int, int]) -> list[tuple[int, int, int, str]]:
    start, stop, seed = args
    return [play_one(k, seed) for k in range(start, stop)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.soak", description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    size = 50
    tasks = [(s, min(args.hands, s + size), args.seed) for s in range(0, args.hands, size)]
    results: list[tuple[int, int, int, str]] = []
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    it = pool.imap(_chunk, tasks) if pool else map(_chunk, tasks)
    try:
        for part in it:
            results.extend(part)
            sys.stderr.write("\rsoak %d/%d hands" % (len(results), args.hands))
            sys.stderr.flush()
    finally:
        sys.stderr.write("\n")
        if pool:
            pool.close()
            pool.join()
    errors = [r[3] for r in results if r[3]]
    per = [[0] * (len(RESULT_NAMES) + 1) for _ in RULESETS]
    turns = 0
    for ri, kind, t, err in results:
        if not err:
            per[ri][kind] += 1
            per[ri][-1] += 1
            turns += t
    print("soak: %d hands, seed %d, %.0f s" % (len(results), args.seed, time.monotonic() - t0))
    print("%-26s %6s  %s" % ("rule set", "hands", "  ".join("%9s" % n for n in RESULT_NAMES)))
    for i, (name, _) in enumerate(RULESETS):
        print("%-26s %6d  %s" % (name, per[i][-1], "  ".join("%9d" % x for x in per[i][:-1])))
    print("average turns per hand: %.1f" % (turns / max(1, len(results) - len(errors))))
    print("illegal actions or errors: %d" % len(errors))
    for e in errors[:20]:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
