"""Random full games: every card accounted for, every offered action legal, every other refused."""

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gin import rules as gin_rules
from gin.cards import GinError, Rng
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import ACTION_LIMIT, CANCELLED, OVER, Round

from deal import fingerprint

RULESETS = [
    gin_rules.RuleSet(),
    gin_rules.RuleSet.preset_rules("modern"),
    gin_rules.RuleSet.preset_rules("10/20"),
    gin_rules.RuleSet.preset_rules("20/25"),
    gin_rules.RuleSet(straight=True),
    gin_rules.RuleSet(oklahoma=True, oklahoma_spade_double=True),
    gin_rules.RuleSet(hollywood=True, target=60),
    gin_rules.RuleSet(gin_forced=True, big_gin=True, upcard_offer=gin_rules.OFFER_DEALER_PLAYS),
]


def _pick(rng, legal, knock_bias):
    # Favour knocks sometimes so hands end in every way, not only by the stock running out.
    knocks = [a for a in legal if 52 <= a < 104 or a == 107]
    if knocks and rng.below(100) < knock_bias:
        return knocks[rng.below(len(knocks))]
    return legal[rng.below(len(legal))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ri=st.integers(0, len(RULESETS) - 1), bias=st.integers(0, 100))
def test_random_hands_conserve_cards_and_offer_only_legal_actions(seed, ri, bias):
    rules = RULESETS[ri]
    rnd = Round(rules, seed % 2, seed)
    rng = Rng(seed ^ 0x5A5A)
    while rnd.phase != OVER:
        rnd.check_invariants()
        legal = rnd.legal_actions()
        assert legal, "a live hand always offers an action"
        # every non-offered action is refused and changes nothing (sampled: all 124 would be slow)
        before = fingerprint(rnd)
        for _ in range(6):
            a = rng.below(ACTION_LIMIT)
            if a not in legal:
                try:
                    rnd.apply(a)
                except GinError:
                    pass
                else:
                    raise AssertionError("illegal action %d was accepted" % a)
                assert fingerprint(rnd) == before
        for a in legal:
            assert rnd.is_legal(a)
        rnd.apply(_pick(rng, legal, bias))
    rnd.check_invariants()
    r = rnd.result
    if r.kind == CANCELLED:
        assert r.winner == -1 and r.points == 0
    else:
        assert r.winner in (0, 1) and r.points >= 0
    replay = Round.replay(rules, seed % 2, seed, rnd.actions)
    assert fingerprint(replay) == fingerprint(rnd)


def _greedy(rnd, rng):
    """Mostly a sensible player (knock when allowed, else keep the least deadwood) so even
    straight-gin matches end; sometimes random so every path gets exercised."""
    from gin import melds

    legal = rnd.legal_actions()
    knocks = [a for a in legal if a >= 52 and a != 104 and a != 105 and a != 106]
    if knocks:
        return knocks[0]
    discards = [a for a in legal if a < 52]
    if discards and rng.below(10) < 8:
        h = list(rnd.hands[rnd.player])
        best, pick = 999, discards[0]
        for c in discards:
            h[c // 13] ^= 1 << (c % 13)
            d = melds.deadwood(h)
            h[c // 13] ^= 1 << (c % 13)
            if d < best:
                best, pick = d, c
        return pick
    return legal[rng.below(len(legal))]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ri=st.integers(0, len(RULESETS) - 1))
@example(seed=0, ri=4)  # straight gin: a match must still end
def test_random_matches_scores_match_the_hand_history(seed, ri):
    rules = RULESETS[ri].copy(target=min(RULESETS[ri].target, 80))
    m = Match(rules, seed)
    rng = Rng(seed + 1)
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        m.apply(_greedy(m.round, rng))
        assert len(m.summaries) < 400
    won = [0, 0]
    for kind, w, _pts, _k in m.summaries:
        if kind != CANCELLED:
            won[w] += 1
    assert won == m.wins
    if not rules.hollywood:
        pts = [0, 0]
        for kind, w, p, _k in m.summaries:
            if kind != CANCELLED:
                pts[w] += p
        assert pts == m.totals
        assert max(m.totals) >= rules.target
    restored = Match.restore(rules, seed, m.summaries, b"")
    assert [c.totals for c in restored.columns] == [c.totals for c in m.columns]
    assert restored.winner == m.winner
