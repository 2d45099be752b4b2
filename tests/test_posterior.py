"""host_tools/research/posterior.py: the public record the filter reads (history.py), and the filter's
particles (particles.py)."""

import pytest

from gin import round as gin_round
from gin.ai import make_player
from gin.ai_hard import HardPlayer
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import DISCARD_PHASE, DRAW_STOCK, KNOCK

from host_tools.bench import arena_core
from host_tools.research import history, particles
from host_tools.research import posterior as P


def _play(players, seed, after):
    """One Classic match; after(rnd, p, obs, a, hand before the action) follows every action."""
    m = Match(arena_core.make_rules("classic", (), 0), arena_core.match_seed(seed, 0))
    gin_round.Observation.__init__ = history.init_with_history
    try:
        while m.state != GAME_OVER:
            if m.state == HAND_OVER:
                m.next_hand()
                continue
            rnd = m.round
            p = rnd.player
            obs = m.observation(p)
            a = players[p].choose(obs)
            hand = list(rnd.hands[p])
            m.apply(a)
            after(rnd, p, obs, a, hand)
    finally:
        gin_round.Observation.__init__ = history.plain_init


def test_the_record_hides_the_opponents_draws_and_its_views_reproduce_its_decisions():
    hard = particles.PolicyScorer(0)
    seen = {"hidden": 0, "mine": 0, "discards": 0}

    def after(rnd, p, obs, a, hand):
        log = history.log_of(rnd)
        actor, ph, act, card, view = log["raw"][-1]
        assert (actor, act) == (p, a) and view.hand is None
        if p == 1 and ph == DISCARD_PHASE and a < KNOCK and len(obs.legal) > 1:
            # the opponent's view as recorded, with its true cards put in: hard's own choice
            view.hand = hand
            hard.read(view)
            _, best, _ = hard.best_discard(hand, view.taken)
            view.hand = None
            assert best == a
            seen["discards"] += 1
        mine = history.History(log, 0).events[-1]
        if a == DRAW_STOCK:
            if p == 0:
                assert mine[3] == card >= 0  # my own draw: I see the card
                seen["mine"] += 1
            else:
                assert mine[3] == history.HIDDEN and mine[4] is not None and mine[4].hand is None
                seen["hidden"] += 1

    _play([make_player("expert", 1), HardPlayer(0)], 3, after)
    assert seen["hidden"] > 5 and seen["mine"] > 5 and seen["discards"] > 10


def test_the_observation_is_put_back():
    _play([make_player("baseline", 1), make_player("baseline", 2)], 4, lambda *a: None)
    obs = gin_round.Round(arena_core.make_rules("classic", (), 0), 0, 5).observation(0)
    assert not hasattr(obs, "history") and not hasattr(obs, "oracle_opp")


def test_particles_hold_what_the_opponent_surely_holds_and_nothing_i_can_see():
    checked = [0]

    class Checked(P.PosteriorExpert):
        def choose(self, obs):
            a = P.PosteriorExpert.choose(self, obs)
            f = self.filters[0]
            if f.hand_id != obs.history.hand_id:
                return a
            mine = 0
            for s in range(4):
                mine |= obs.hand[s] << (13 * s)
            visible = mine
            for c in obs.pile:
                visible |= 1 << c
            known = 0
            for c in obs.opp_known():
                known |= 1 << c
            for k, h in enumerate(f.hands):
                if f.w[k] > 0:
                    assert h & known == known
                    assert not h & visible
                    assert bin(h).count("1") == obs.opp_hand_size
            checked[0] += 1
            return a

    spec = P.parse_spec("deadwood:40:32")
    _play([Checked(1, [spec]), make_player("hard", 2)], 5, lambda *a: None)
    assert checked[0] > 20


def test_run_reports_rows_of_dangers_and_the_arena_stats():
    tot, rows, cpu, evals, decisions, _ = P.run([P.parse_spec("deadwood:20:32")], log=True, matches=2)
    assert tot[0] + tot[1] == 2 and decisions > 0 and evals[0] > 0
    assert rows and all(0 <= m <= 256 and y in (0, 1) for m, _, y in rows)
    assert all(0 <= d[0][0] <= 256 for _, d, _ in rows)


def test_specs_are_checked():
    assert P.parse_spec("hard:50:16:64") == ("hard", 50, 16.0, 64.0, "swap")
    with pytest.raises(ValueError):
        P.parse_spec("oracle:5")
    with pytest.raises(ValueError):
        P.parse_spec("deadwood:5:1:1:maybe")
