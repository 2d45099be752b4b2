"""Where the expert's missing strength is: the expert given one piece of perfect
information, against a fair opponent, and how well its discard-danger model predicts.

    python -m host_tools.research.oracle --oracle danger --matches 400
    python -m host_tools.research.oracle --oracle knock --matches 1000 --jobs 2
    python -m host_tools.research.oracle --calibration --matches 300
    python -m host_tools.research.oracle --oracle mix --mix 0.05 --matches 800 --jobs 2

An oracle player cheats on purpose (it reads the opponent's cards through a
field this tool adds to the Observation): it is a measuring stick for the
research of a stronger computer level, never a player the device or the arena
can seat.  Oracles:

  none     the expert itself (the reference row, same deals)
  knock    knocks exactly when the knock wins (the opponent's real count after
           lay-offs is above its own), otherwise plays the expert's discard
  danger   the expert, with the danger of each discard replaced by the truth:
           256 when the card makes a meld with two of the opponent's cards, else 0
  weights  the expert, with every card-tracking weight replaced by the truth
           (danger, lay-off risk and the knock's lay-off estimate all exact)
  mix      the expert, with each discard's danger moved a share --mix of the
           way from the model's to the truth's: a model that is better by a
           known amount.  --calibration --mix gives that model's ROC AUC, so
           the two together tell how much better a danger model must predict
           to reach a given win rate.

--calibration plays expert against the opponent and reports, for every discard
the expert could have made, the model's danger against whether the card really
melds with the opponent's hand: the hit rate per danger band and the ROC AUC.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

from gin import ai_eval as E
from gin import round as gin_round
from gin.ai import PLAYERS, make_player
from gin.ai_expert import ExpertPlayer
from gin.melds import deadwood4
from gin.round import DISCARD_PHASE, KNOCK

from host_tools.bench import arena_core
from host_tools.bench.arena import wilson

ORACLES = ("none", "knock", "danger", "weights", "mix")
DANGER_BANDS = (0, 8, 16, 32, 48, 64, 96, 128, 192, 257)

_plain_init = gin_round.Observation.__init__


def _init_with_opponent(self, rnd, me):
    _plain_init(self, rnd, me)
    self.oracle_opp = list(rnd.hands[1 - me])  # the cheat: read by the oracles only


def _card_in(h, c):
    return h[c // 13] >> (c % 13) & 1


class DangerOracle(ExpertPlayer):
    """The expert with the true danger of every discard."""

    def choose(self, obs):
        self.opp = obs.oracle_opp
        return ExpertPlayer.choose(self, obs)

    def danger_of(self, x):
        return 256 if E.joins_meld(self.opp, x) else 0


class MixOracle(DangerOracle):
    """The expert with each danger a share `mix` of the way to the truth."""

    mix = 0.0

    def danger_of(self, x):
        d = E.danger(self.sc, x)
        return int(d + (DangerOracle.danger_of(self, x) - d) * self.mix)


class WeightsOracle(ExpertPlayer):
    """The expert with every opponent weight exact (the stock's share untouched)."""

    def read(self, obs):
        ExpertPlayer.read(self, obs)
        w = self.sc.w
        for c in range(52):
            if w[c] and w[c] != E.KNOWN:
                w[c] = 250 if _card_in(obs.oracle_opp, c) else 1


class KnockOracle(ExpertPlayer):
    """Knocks exactly when the knock wins; otherwise the expert's discard."""

    def choose(self, obs):
        a = ExpertPlayer.choose(self, obs)
        if obs.phase != DISCARD_PHASE:
            return a
        # the expert's own play-out scoring of a knock, in the true world: my hand, theirs
        self.ginb = obs.rules.gin_bonus
        self.ucb = obs.rules.undercut_bonus
        self.mult = obs.multiplier
        hh = self.hh
        best = None
        for x in obs.legal:
            if KNOCK <= x < KNOCK + 52:
                c = x - KNOCK
                for s in range(4):
                    hh[s] = obs.hand[s]
                    hh[4 + s] = obs.oracle_opp[s]
                hh[c // 13] &= ~(1 << (c % 13))
                pts = self._knock(0, deadwood4(hh[0], hh[1], hh[2], hh[3]))
                if best is None or pts > best[0]:
                    best = (pts, x)
        if best is None:
            return a
        if best[0] > 0:
            return best[1]
        if KNOCK <= a < KNOCK + 52 and a - KNOCK in obs.legal:
            return a - KNOCK  # the knock would lose: throw the same card instead
        return a


ORACLE_CLASSES = {
    "none": ExpertPlayer,
    "knock": KnockOracle,
    "danger": DangerOracle,
    "weights": WeightsOracle,
    "mix": MixOracle,
}


class DangerLog(ExpertPlayer):
    """The expert, noting (model danger, truth) for every card it could discard."""

    def __init__(self, seed=0):
        ExpertPlayer.__init__(self, seed)
        self.rows = []

    def choose(self, obs):
        a = ExpertPlayer.choose(self, obs)
        if obs.phase == DISCARD_PHASE and len(obs.legal) > 1:
            for c in range(52):
                if _card_in(obs.hand, c) and c != obs.taken:
                    self.rows.append((E.danger(self.sc, c), 1 if E.joins_meld(obs.oracle_opp, c) else 0))
        return a


SEATED = "seated"  # the arena level name of the player a tool seats as A


def play_seated(obs_init, seat, preset, seed, start, stop, opponent):
    """Arena matches start..stop (the arena's deals) with player A made by seat(seed)
    and every Observation built by obs_init; both are swapped in for these matches
    only, then put back."""
    plain_seat = arena_core.make_player

    def make(level, s=0):
        return seat(s) if level == SEATED else make_player(level, s)

    gin_round.Observation.__init__ = obs_init
    arena_core.make_player = make
    try:
        rules = arena_core.make_rules(preset, (), 0)
        return arena_core.play_range(rules, seed, start, stop, SEATED, opponent)
    finally:
        gin_round.Observation.__init__ = _plain_init
        arena_core.make_player = plain_seat


def _work(args):
    oracle, opponent, preset, seed, start, stop, mix = args
    cls = DangerLog if oracle == "calibration" else ORACLE_CLASSES[oracle]
    seated = []

    def seat(s):
        p = cls(s)
        seated.append(p)
        return p

    MixOracle.mix = mix
    try:
        tot = play_seated(_init_with_opponent, seat, preset, seed, start, stop, opponent)
    finally:
        MixOracle.mix = 0.0
    rows = []
    for p in seated:
        rows.extend(getattr(p, "rows", ()))
    return tot, rows


def play(oracle, opponent="hard", matches=100, preset="classic", seed=1, jobs=1, mix=0.0):
    """(summed arena stats, [(danger, melds?)...]) of the oracle against the opponent."""
    chunks = [(oracle, opponent, preset, seed, i, min(matches, i + 25), mix) for i in range(0, matches, 25)]
    parts = map_chunks(_work, chunks, jobs)
    tot = [sum(p[0][k] for p in parts) for k in range(len(parts[0][0]))]
    rows = [r for p in parts for r in p[1]]
    return tot, rows


def map_chunks(work, chunks, jobs):
    """work(chunk) for every chunk, on `jobs` processes (in order)."""
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            return pool.map(work, chunks)
    return [work(c) for c in chunks]


def result_line(who, opponent, rules, matches, tot):
    """One arena result: the win rate with its 95 % CI, net points a hand, the gins."""
    lo, hi = wilson(tot[0], matches)
    return "%s vs %s, %s, %d matches: %.1f %% (95 %% CI %.1f-%.1f), net %+.2f points a hand, gin %d / %d" % (
        who,
        opponent,
        rules,
        matches,
        100 * tot[0] / matches,
        100 * lo,
        100 * hi,
        (tot[4] - tot[5]) / max(1, tot[3]),
        tot[8],
        tot[9],
    )


def auc(rows):
    """ROC AUC of a score against a 0/1 truth: the chance that a random positive
    scores above a random negative (ties count half)."""
    rows = sorted(rows)
    pos = sum(1 for _, y in rows if y)
    neg = len(rows) - pos
    if not pos or not neg:
        return 0.5
    rank_sum = 0.0
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0]:
            j += 1
        mid = (i + j + 1) / 2  # the average 1-based rank of the tie group
        rank_sum += mid * sum(1 for k in range(i, j) if rows[k][1])
        i = j
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.research.oracle", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--oracle", choices=ORACLES, default="danger")
    ap.add_argument("--calibration", action="store_true", help="the danger model against the truth instead")
    ap.add_argument(
        "--b", dest="opponent", choices=PLAYERS, default="hard", help="the opponent (default hard)"
    )
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--rules", choices=("classic", "modern", "10/20", "20/25"), default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--mix", type=float, help="the truth's share (0..1) in the mix oracle's danger")
    a = ap.parse_args(argv)
    if a.matches < 1:
        ap.error("--matches must be at least 1")
    if a.oracle == "mix" and a.mix is None and not a.calibration:
        ap.error("--oracle mix needs --mix (the truth's share, 0..1)")
    if a.mix is not None and not 0 <= a.mix <= 1:
        ap.error("--mix must be between 0 and 1")
    t0 = time.monotonic()
    tot, rows = play(
        "calibration" if a.calibration else a.oracle,
        a.opponent,
        a.matches,
        a.rules,
        a.seed,
        a.jobs,
        a.mix or 0.0,
    )
    if a.calibration:
        print(
            "danger model vs the truth: %d cards the expert could have thrown, %d matches against %s (%s)"
            % (len(rows), a.matches, a.opponent, a.rules)
        )
        for lo, hi in zip(DANGER_BANDS, DANGER_BANDS[1:]):
            band = [y for d, y in rows if lo <= d < hi]
            if band:
                print(
                    "  danger %3d-%3d  %7d cards  melds with their hand %5.1f %%"
                    % (lo, hi - 1, len(band), 100 * sum(band) / len(band))
                )
        print("  ROC AUC %.3f" % auc(rows))
        if a.mix is not None:
            mixed = [(d + (256 * y - d) * a.mix, y) for d, y in rows]
            print("  ROC AUC %.3f of the mix oracle's danger (--mix %g)" % (auc(mixed), a.mix))
    else:
        who = a.oracle if a.oracle != "mix" else "mix %g" % a.mix
        print(result_line(who + " oracle", a.opponent, a.rules, a.matches, tot))
    print("(%.0f s)" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
