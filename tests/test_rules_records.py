"""Rules of docs/RULES.md about what is refused and what is recorded: bad input changes nothing, a player
sees only what it may, replays and restores give identical states. One hand's rules are in test_rules.py.
"""

import pytest

from gin import rules as gin_rules
from gin.cards import GinError, hand_cards, parse_card, parse_cards
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import ARRANGE, DRAW_STOCK, OVER, PASS, SPREAD, TAKE_DISCARD, Round

from deal import fingerprint
from rule_examples import DEALER, EX1, NONDEALER, card, knock, pass_both_and_draw, stacked_round

# --- bad input ----------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "7", "1H", "7X", "HH", "77H", "ZZZZ", "11H", None, 7])
def test_malformed_card_text_is_refused(text):
    with pytest.raises(GinError):
        parse_card(text)


def test_duplicate_cards_are_refused():
    with pytest.raises(GinError, match="duplicate card 7H"):
        parse_cards("7H 8H 7h")


def test_unknown_rule_and_bad_values_are_refused():
    with pytest.raises(GinError, match="unknown rule"):
        gin_rules.RuleSet(knocklimit=5)
    with pytest.raises(GinError):
        gin_rules.RuleSet(knock_limit=11)
    with pytest.raises(GinError):
        gin_rules.RuleSet(hollywood=1)
    with pytest.raises(GinError, match="unknown preset"):
        gin_rules.RuleSet.preset_rules("vegas")


def test_rules_round_trip_through_bytes():
    rs = gin_rules.RuleSet.preset_rules("20/25", oklahoma=True, hollywood=True, target=250)
    assert gin_rules.RuleSet.from_bytes(rs.to_bytes()) == rs
    with pytest.raises(GinError):
        gin_rules.RuleSet.from_bytes(b"\x00" * 3)


def _illegal_candidates(rnd):
    legal = set(rnd.legal_actions())
    return [a for a in list(range(124)) + [-1, 124, 500, "x", None, True] if a not in legal]


@pytest.mark.parametrize("phase_steps", [0, 1, 2, 3, 4])
def test_illegal_actions_in_every_phase_raise_and_change_nothing(phase_steps):
    rnd = Round(gin_rules.RuleSet(), DEALER, 31)
    steps = [PASS, PASS, DRAW_STOCK, None, DRAW_STOCK]
    for i in range(phase_steps):
        a = steps[i]
        if a is None:
            a = [c for c in hand_cards(rnd.hands[rnd.player])][0]
        rnd.apply(a)
    before = fingerprint(rnd)
    for a in _illegal_candidates(rnd):
        with pytest.raises(GinError):
            rnd.apply(a)
        assert fingerprint(rnd) == before


def test_illegal_actions_in_spread_and_over_phases():
    nd = "3H 4H 5H 6H 6C 6D 6S AC 2D 3C"
    rnd = pass_both_and_draw(stacked_round(nd, "KC KD 2H 2S QD 4D 8C AD 9D 5C", "TC", "QH"))
    rnd.apply(knock("QH"))
    assert rnd.phase == SPREAD
    before = fingerprint(rnd)
    for a in _illegal_candidates(rnd):
        with pytest.raises(GinError):
            rnd.apply(a)
        assert fingerprint(rnd) == before
    rnd.apply(ARRANGE)
    with pytest.raises(GinError, match="over"):
        rnd.apply(DRAW_STOCK)


def test_discarding_a_card_not_in_hand_says_so():
    rnd = pass_both_and_draw(stacked_round(*EX1[:4]))
    with pytest.raises(GinError, match="KS is not in your hand"):
        rnd.apply(card("KS"))


# --- information and records ----------------------------------------------------


def test_observation_shows_only_what_the_player_may_see():
    rnd = Round(gin_rules.RuleSet(), DEALER, 8)
    rnd.apply(TAKE_DISCARD)
    up = rnd.upcard
    throw = [c for c in hand_cards(rnd.hands[NONDEALER]) if c != up][0]
    rnd.apply(throw)
    obs = rnd.observation(DEALER)
    assert obs.hand == rnd.hands[DEALER]
    assert obs.opp_took == [up] and obs.opp_threw == [throw]
    assert obs.opp_known() == [up]
    assert obs.opp_hand_size == 10 and obs.stock_size == 31
    assert obs.to_act and obs.legal == rnd.legal_actions()
    names = set(vars(obs))
    assert not any(n in names for n in ("deck", "hands", "stock", "stock_pos"))
    assert obs.hand is not rnd.hands[DEALER]


def test_replay_of_seed_and_actions_gives_the_identical_state():
    from gin.cards import Rng

    rnd = Round(gin_rules.RuleSet(), 0, 77)
    rng = Rng(3)
    while rnd.phase != OVER:
        legal = rnd.legal_actions()
        rnd.apply(legal[rng.below(len(legal))])
    again = Round.replay(gin_rules.RuleSet(), 0, 77, rnd.actions)
    assert fingerprint(again) == fingerprint(rnd)
    assert again.result.summary() == rnd.result.summary()


def test_match_replay_and_restore_give_identical_scores():
    from gin.cards import Rng

    m = Match(gin_rules.RuleSet(target=60), 5)
    rng = Rng(9)
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        legal = m.legal_actions()
        m.apply(legal[rng.below(len(legal))])
    seed, hands = m.record()
    again = Match.replay(gin_rules.RuleSet(target=60), seed, hands)
    assert again.summaries == m.summaries and again.winner == m.winner
    restored = Match.restore(gin_rules.RuleSet(target=60), seed, m.summaries, b"")
    assert restored.state == GAME_OVER and restored.winner == m.winner
    assert [c.totals for c in restored.columns] == [c.totals for c in m.columns]


def _played_hands(m, hands, seed):
    from gin.cards import Rng

    rng = Rng(seed)
    while len(m.summaries) < hands and m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        legal = m.legal_actions()
        m.apply(legal[rng.below(len(legal))])
    return m


@pytest.mark.parametrize("kept", [0, 1, 2])
def test_a_match_keeps_the_actions_of_its_last_kept_hands_only(kept):
    """A handheld keeps one finished hand's actions (play.HANDS_KEPT): a long match no longer
    grows the heap by a hand's actions every hand, and what it keeps is the hand as played."""
    rules = gin_rules.RuleSet(target=500)
    full = _played_hands(Match(rules, 8), 6, 3)
    m = Match(rules, 8)
    m.kept = kept
    _played_hands(m, 6, 3)
    assert len(m.records) == len(full.records) == 6
    for i, (rec, whole) in enumerate(zip(m.records, full.records)):
        assert rec == (whole if i >= 6 - kept else (-1, b"")), "as a match restored from a save has"
    assert all(whole[1] for _d, whole in full.records)
    assert m.summaries == full.summaries


def test_keeping_fewer_hands_from_the_middle_of_a_match_lets_the_older_ones_go():
    rules = gin_rules.RuleSet(target=500)
    m = _played_hands(Match(rules, 8), 3, 3)
    m.kept = 1
    _played_hands(m, 4, 4)
    assert [bool(acts) for _d, acts in m.records] == [False, False, False, True]


def test_a_results_points_are_its_base_and_bonus_times_the_multiplier():
    """HandResult carries its base and bonus: the screens never re-derive them from the points."""
    from gin import ai
    from gin.round import BIG_GIN_WIN, GIN, KNOCK_WIN, UNDERCUT

    seen = set()
    for seed in range(60):
        rules = gin_rules.RuleSet(
            preset=seed % 4, big_gin=seed % 3 == 0, oklahoma=seed % 5 == 0, oklahoma_spade_double=True
        )
        rnd = Round(rules, seed % 2, seed)
        players = [ai.make_player("baseline", seed), ai.make_player("normal", seed + 1)]
        while rnd.phase != OVER:
            rnd.apply(players[rnd.player].choose(rnd.observation(rnd.player)))
        r = rnd.result
        seen.add(r.kind)
        assert r.points == (r.base + r.bonus) * r.multiplier
        if r.kind == KNOCK_WIN:
            assert (r.base, r.bonus) == (r.defender_deadwood - r.knocker_deadwood, 0)
        elif r.kind == UNDERCUT:
            assert (r.base, r.bonus) == (r.knocker_deadwood - r.defender_deadwood, rules.undercut_bonus)
        elif r.kind == GIN:
            assert (r.base, r.bonus) == (r.defender_deadwood, rules.gin_bonus)
        elif r.kind == BIG_GIN_WIN:
            assert (r.base, r.bonus) == (r.defender_deadwood, rules.big_gin_bonus)
        else:
            assert r.points == r.base == r.bonus == 0
    assert {KNOCK_WIN, UNDERCUT} <= seen
