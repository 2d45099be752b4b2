"""How well can FAIR inference of the opponent's hand predict which discard it
can meld, when it uses the whole public action sequence and a model of the
opponent's policy?  A research tool for issue 10 (host only, CPython).

    python -m host_tools.research.posterior --auc --matches 40 --filters hard:100:32:64,deadwood:100:32
    python -m host_tools.research.posterior --play --matches 600 --jobs 2 --filters hard:50:32:64 --blend 1
    python -m host_tools.research.posterior --cost --matches 10 --filters hard:50:32:64

The inference is a sequential particle filter (importance sampling with
resampling) over the opponent's hidden cards, run hand by hand (the record it
reads: host_tools/research/history.py; the filter: host_tools/research/particles.py;
this module seats it in the expert and runs the matches):

* Evidence: the public event sequence of the hand as the expert sees it at the
  table.  Each opponent take (the card is public), pass, stock draw (card
  hidden), discard (public), and the expert's own actions and cards (its own
  stock draws are known to it).  A hook on Observation builds that stream from
  the round's action record, hiding the opponent's stock draws; the filter
  reads nothing else.  The opponent's cards are read only to label the rows
  (the truth of --auc), never by the filter or the player.
* Particles: one opponent hand each.  The dealt hand is 10 cards drawn evenly
  from the cards the opponent could hold (not mine, not the upcard); each of
  its stock draws is a card the particle allows.  When the opponent then throws
  a hidden card the particle does not hold, the draw is forced to be that card
  and the weight multiplied by its prior chance (1/pool): proposal and
  importance weight are exact for this case.  Two cases are fixed up instead
  of killed, so the particles stay diverse (an approximation: earlier
  likelihoods are not re-scored): a hidden card thrown right after a pile take
  that the particle lacks is swapped in for a random unknown card of its hand;
  a card I draw from the stock that a particle holds is swapped for a random
  card of its pool.
* Likelihood of every opponent decision given the particle's hand, with the
  opponent's view at that moment (the public parts of its Observation,
  snapshot at its decision, with the particle's hand put in):
    hard      hard's own scoring softened: P(discard x) ~ exp(-(keep score of
              x - best)/T) over hard's scored candidates (HardPlayer._best_discard),
              a pruned card 1/100 of the worst candidate; P(take) = a logistic
              of hard's _draw comparison (v_stock - v_take - take_pen)/Td.
    deadwood  a cheaper model: P(discard x) ~ exp(-16*(deadwood after x -
              least)/T); P(take) 0.85 if the card joins a meld, else 0.1.
  Resampling (systematic) when the effective sample size falls below N/2.
* Output: the posterior danger of each card I could discard (the weighted
  share of particles in which it melds with two of the opponent's cards,
  0..256), in place of the expert's danger_of (the seam of HardPlayer), alone
  or blended with the model's: (1 - blend) * model + blend * posterior.

Modes: --auc plays the expert as it is (so the decisions are those of
`oracle --calibration`) and reports the ROC AUC of the model's danger and of
each filter's posterior on the same rows; --play seats the expert with the
first filter's posterior danger against the opponent (compare the `none`
oracle on the same deals); --cost reports the CPU time and the policy
evaluations per decision.  A filter spec is model:particles:T[:Td[:swap|kill]]
(kill: refute the inconsistent particles of the two fix-up cases instead).

What it found (Classic, seed 1, against hard; --auc on 6-12 matches, --play on
600): the posterior is noise-limited.  Its ROC AUC rises with the particle
count (least-deadwood model: 0.72 at 200 particles, 0.76 at 1,000, 0.77 at
3,000, 0.78 at 10,000; hard's policy: 0.73 at 200, 0.77 at 1,000-5,000) and
reaches the model's 0.78-0.79 on the same rows only at 3,000-10,000 particles,
never above it; blends with the model gain at most 0.003.  Killing instead of
fixing up collapses the particles (0.67).  Seated in the expert it did not
help: 49.8 % (posterior alone, 200 particles) and 52.7 % (blend 0.25) against
the expert's own 54.3 % on the same 600 matches.
"""

from __future__ import annotations

import argparse
import sys
import time

from gin import ai_eval as E
from gin.ai import PLAYERS
from gin.ai_expert import ExpertPlayer
from gin.round import DISCARD_PHASE, SPREAD

from host_tools.research.history import init_with_history
from host_tools.research.oracle import auc, map_chunks, play_seated, result_line
from host_tools.research.particles import Filter

# --- the players ---------------------------------------------------------------------------


def _hand_cards_plus_top(obs):
    out = obs.hand_cards()
    if obs.pile and obs.pile[-1] not in out:
        out.append(obs.pile[-1])
    return out


class PosteriorExpert(ExpertPlayer):
    """The expert whose discard danger is the first filter's posterior (blended
    with the model's); with log=True it plays the expert unchanged and records,
    for every card it could discard, (model danger, each filter's danger, truth)."""

    def __init__(self, seed=0, specs=(), blend=1.0, log=False, output="ind"):
        ExpertPlayer.__init__(self, seed)
        self.output = 0 if output == "ind" else 1
        self.filters = [Filter(m, n, t, td, fix, seed * 7 + i) for i, (m, n, t, td, fix) in enumerate(specs)]
        self.blend = blend
        self.log = log
        self.post = {}
        self.rows = []
        self.cpu = [0.0] * len(self.filters)
        self.decisions = 0

    def choose(self, obs):
        legal = obs.legal
        if len(legal) > 1 and obs.phase != SPREAD:
            self.decisions += 1
            cards = _hand_cards_plus_top(obs)
            posts = []
            for i, f in enumerate(self.filters):
                t0 = time.thread_time()
                f.update(obs.history)
                posts.append(f.danger(cards))
                self.cpu[i] += time.thread_time() - t0
            self.post = posts[0][self.output] if posts and not self.log else {}
        else:
            posts = []
            self.post = {}
        a = ExpertPlayer.choose(self, obs)
        if self.log and obs.phase == DISCARD_PHASE and len(legal) > 1:
            for c in range(52):
                if obs.hand[c // 13] >> (c % 13) & 1 and c != obs.taken:
                    truth = 1 if E.joins_meld(obs.oracle_opp, c) else 0
                    self.rows.append((E.danger(self.sc, c), tuple((p[0][c], p[1][c]) for p in posts), truth))
        return a

    def danger_of(self, x):
        p = self.post.get(x)
        model = E.danger(self.sc, x)
        if p is None:
            return model
        return int(round((1.0 - self.blend) * model + self.blend * p))


# --- running matches ------------------------------------------------------------------------


def _work(args):
    specs, blend, log, output, opponent, preset, seed, start, stop = args
    seated = []

    def seat(s):
        p = PosteriorExpert(s, specs, blend, log, output)
        seated.append(p)
        return p

    t0 = time.thread_time()
    tot = play_seated(init_with_history, seat, preset, seed, start, stop, opponent)
    rows = []
    cpu = [0.0] * len(specs)
    evals = [0] * len(specs)
    decisions = 0
    for p in seated:
        rows.extend(p.rows)
        decisions += p.decisions
        for i, f in enumerate(p.filters):
            cpu[i] += p.cpu[i]
            evals[i] += f.evals
    return tot, rows, cpu, evals, decisions, time.thread_time() - t0


def run(
    specs, blend=1.0, log=False, output="ind", opponent="hard", matches=100, preset="classic", seed=1, jobs=1
):
    step = 10 if matches >= 20 * jobs else 2  # small runs: small chunks, so every job has work
    chunks = [
        (specs, blend, log, output, opponent, preset, seed, i, min(matches, i + step))
        for i in range(0, matches, step)
    ]
    parts = map_chunks(_work, chunks, jobs)
    tot = [sum(p[0][k] for p in parts) for k in range(len(parts[0][0]))]
    rows = [r for p in parts for r in p[1]]
    cpu = [sum(p[2][i] for p in parts) for i in range(len(specs))]
    evals = [sum(p[3][i] for p in parts) for i in range(len(specs))]
    decisions = sum(p[4] for p in parts)
    total_cpu = sum(p[5] for p in parts)
    return tot, rows, cpu, evals, decisions, total_cpu


def parse_spec(s):
    parts = s.split(":")
    model = parts[0]
    if model not in ("hard", "deadwood"):
        raise ValueError("model must be hard or deadwood: %r" % s)
    n = int(parts[1]) if len(parts) > 1 else 100
    t = float(parts[2]) if len(parts) > 2 else 32.0
    td = float(parts[3]) if len(parts) > 3 else 64.0
    fix = parts[4] if len(parts) > 4 else "swap"
    if fix not in ("swap", "kill"):
        raise ValueError("fix must be swap or kill: %r" % s)
    return (model, n, t, td, fix)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.research.posterior", description=__doc__.split("\n\n")[0]
    )
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--auc", action="store_true", help="ROC AUC of each filter's posterior vs the model")
    mode.add_argument(
        "--play", action="store_true", help="the expert with the first filter's posterior danger"
    )
    mode.add_argument("--cost", action="store_true", help="CPU time and policy evaluations per decision")
    ap.add_argument("--filters", default="hard:100:32:64", help="comma-separated model:particles:T[:Td]")
    ap.add_argument("--blend", type=float, default=1.0, help="weight of the posterior against the model")
    ap.add_argument(
        "--output",
        choices=("ind", "formula"),
        default="ind",
        help="--play's danger: share of particles where the card melds, or the model's formula over posterior card chances",
    )
    ap.add_argument("--b", dest="opponent", choices=PLAYERS, default="hard")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--rules", choices=("classic", "modern", "10/20", "20/25"), default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    specs = [parse_spec(s) for s in a.filters.split(",")]
    t0 = time.monotonic()
    tot, rows, cpu, evals, decisions, total_cpu = run(
        specs, a.blend, a.auc or a.cost, a.output, a.opponent, a.matches, a.rules, a.seed, a.jobs
    )
    if a.auc:
        print(
            "%d cards the expert could have thrown, %d matches against %s (%s)"
            % (len(rows), a.matches, a.opponent, a.rules)
        )
        print("  model danger (ai_eval)          ROC AUC %.3f" % auc([(m, y) for m, _, y in rows]))
        for i, sp in enumerate(specs):
            name = "%s N=%d T=%g Td=%g %s" % sp
            for o, oname in ((0, "ind"), (1, "formula")):
                print("  %-30s %-8s ROC AUC %.3f" % (name, oname, auc([(p[i][o], y) for _, p, y in rows])))
                for lam in (0.25, 0.5, 0.75):
                    r = [((1 - lam) * m + lam * p[i][o], y) for m, p, y in rows]
                    print("    blend %.2f with the model                ROC AUC %.3f" % (lam, auc(r)))
    if a.auc or a.cost:
        print("per decision of the expert (%d decisions with a choice), CPU time of CPython:" % decisions)
        for i, sp in enumerate(specs):
            print(
                "  %-30s  %.1f ms, %.0f policy evaluations"
                % (
                    "%s N=%d T=%g Td=%g %s" % sp,
                    1000 * cpu[i] / max(1, decisions),
                    evals[i] / max(1, decisions),
                )
            )
    if a.play:
        who = "expert + posterior (%s, blend %.2f)" % (a.filters, a.blend)
        print(result_line(who, a.opponent, a.rules, a.matches, tot))
    print("(%.0f s wall, %.0f s CPU)" % (time.monotonic() - t0, total_cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
