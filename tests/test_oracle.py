"""host_tools/research/oracle.py: the measuring sticks of the expert's research."""

from gin import round as gin_round
from gin.rules import RuleSet

from host_tools.bench import arena_core
from host_tools.research import oracle


def test_auc_counts_pairs_ranked_right_and_ties_as_half():
    assert oracle.auc([(1, 0), (2, 0), (3, 1), (4, 1)]) == 1.0
    assert oracle.auc([(1, 1), (2, 1), (3, 0), (4, 0)]) == 0.0
    assert oracle.auc([(5, 0), (5, 1)]) == 0.5
    assert oracle.auc([(1, 0), (3, 1), (2, 1), (4, 0)]) == 0.5


def test_the_reference_row_is_the_arena_s_expert_on_the_same_deals():
    tot, _ = oracle.play("none", "hard", 4, seed=3)
    rules = arena_core.make_rules("classic", (), 0)
    assert tot == arena_core.play_range(rules, 3, 0, 4, "expert", "hard")


def test_perfect_danger_wins_far_more_than_the_expert_and_the_cheat_is_put_back():
    tot, _ = oracle.play("danger", "hard", 20, seed=1)
    ref, _ = oracle.play("none", "hard", 20, seed=1)
    assert tot[0] >= 14 and tot[0] > ref[0]  # measured 17 of 20 against 13
    assert (tot[4] - tot[5]) > (ref[4] - ref[5])
    obs = gin_round.Round(RuleSet(), 0, 5).observation(0)
    assert not hasattr(obs, "oracle_opp")
    assert arena_core.make_player is oracle.make_player


def test_the_knock_oracle_never_knocks_into_an_undercut():
    tot, _ = oracle.play("knock", "hard", 6, seed=2)
    assert tot[11] == 0  # undercuts the opponent made against the oracle's knocks


def test_calibration_rows_are_dangers_with_the_truth():
    _, rows = oracle.play("calibration", "hard", 2, seed=4)
    assert len(rows) > 100
    assert all(0 <= d <= 256 and y in (0, 1) for d, y in rows)
    assert 0.6 < oracle.auc(rows) < 0.95


def test_the_mix_oracle_lies_between_the_model_and_the_truth():
    p = oracle.MixOracle(0)
    obs = gin_round.Round(RuleSet(), 0, 5).observation(0)
    p.read(obs)
    opp = [0x7, 0, 0, 0]  # A, 2 and 3 of the first suit: the 4 of that suit melds with them
    p.opp = opp
    for mix, lo_hi in ((0.0, None), (1.0, (256, 0)), (0.5, None)):
        oracle.MixOracle.mix = mix
        try:
            for x in (3, 30):
                model = oracle.E.danger(p.sc, x)
                truth = 256 if oracle.E.joins_meld(opp, x) else 0
                got = p.danger_of(x)
                if lo_hi:
                    assert got == truth
                elif mix == 0.0:
                    assert got == model
                else:
                    assert min(model, truth) <= got <= max(model, truth)
                    assert abs(got - (model + truth) / 2) <= 1
        finally:
            oracle.MixOracle.mix = 0.0


def test_a_mix_of_the_truth_wins_more_and_is_put_back():
    tot, _ = oracle.play("mix", "hard", 20, seed=1, mix=0.5)
    ref, _ = oracle.play("none", "hard", 20, seed=1)
    assert (tot[4] - tot[5]) > (ref[4] - ref[5])
    assert oracle.MixOracle.mix == 0.0
