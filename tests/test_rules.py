"""Every rule of docs/RULES.md, each test named after the rule it proves: one hand, from the deal to its end.

The match (next hand, game, presets and variants) is in test_rules_match.py; bad input and records in
test_rules_records.py.
"""

import pytest

from gin import rules as gin_rules
from gin.cards import GinError, card_text, hand_cards, parse_cards
from gin.match import HAND_OVER, Match
from gin.round import (
    ARRANGE,
    BIG_GIN,
    BIG_GIN_WIN,
    CANCELLED,
    DISCARD_PHASE,
    DRAW,
    DRAW_STOCK,
    GIN,
    KNOCK,
    KNOCK_WIN,
    OFFER,
    OVER,
    PASS,
    SPREAD,
    TAKE_DISCARD,
    UNDERCUT,
    Round,
)

from deal import fingerprint
from rule_examples import (
    DEALER,
    EX1,
    EX2,
    EX3,
    NONDEALER,
    card,
    knock,
    pass_both_and_draw,
    play_example,
    stacked_round,
)

# --- the three worked examples of source 000 ------------------------------------


def test_worked_example_knock_2_against_24_scores_22():
    r = play_example(EX1, gin_rules.RuleSet())
    assert r.kind == KNOCK_WIN and r.winner == NONDEALER
    assert r.knocker_deadwood == 2 and r.defender_deadwood == 24
    assert sorted(c for c, _ in r.layoffs) == sorted(parse_cards("6S QC"))
    assert r.points == 22


def test_worked_example_knock_8_against_1_is_undercut_17():
    r = play_example(EX2, gin_rules.RuleSet())
    assert r.kind == UNDERCUT and r.winner == DEALER
    assert r.knocker_deadwood == 8 and r.defender_deadwood == 1
    assert sorted(c for c, _ in r.layoffs) == sorted(parse_cards("4S 6S KS"))
    assert [card_text(c) for c in r.defender_deadwood_cards] == ["AD"]
    assert r.points == 17


def test_worked_example_gin_against_23_scores_43_and_nothing_is_laid_off():
    r = play_example(EX3, gin_rules.RuleSet())
    assert r.kind == GIN and r.winner == NONDEALER
    assert r.layoffs == []
    assert card("8H") in r.defender_deadwood_cards  # it would extend the heart run, but not against gin
    assert r.defender_deadwood == 23
    assert r.points == 43


@pytest.mark.parametrize(
    "preset,points",
    [("classic", (22, 17, 43)), ("modern", (22, 32, 48)), ("10/20", (22, 17, 43)), ("20/25", (22, 27, 48))],
)
def test_worked_examples_under_every_preset(preset, points):
    rs = gin_rules.RuleSet.preset_rules(preset)
    got = tuple(play_example(ex, rs).points for ex in (EX1, EX2, EX3))
    assert got == points


# --- cards ----------------------------------------------------------------------


def test_cards_one_deck_52_cards_ace_low_values():
    from gin.cards import value_of

    assert [value_of(card(t)) for t in "AH 2H 9H TH JH QH KH".split()] == [1, 2, 9, 10, 10, 10, 10]
    assert len({card_text(c) for c in range(52)}) == 52


# --- dealing ------------------------------------------------------------------


def test_first_dealer_by_cut_lower_rank_deals():
    for seed in range(200):
        m = Match(gin_rules.RuleSet(), seed)
        a, b = m.cuts[-1]
        assert a % 13 != b % 13
        assert m.dealer == (0 if a % 13 < b % 13 else 1)


def test_first_dealer_equal_cut_ranks_cut_again():
    recut = [s for s in range(500) if len(Match(gin_rules.RuleSet(), s).cuts) > 1]
    assert recut, "some seed in 500 must produce an equal cut"
    m = Match(gin_rules.RuleSet(), recut[0])
    for a, b in m.cuts[:-1]:
        assert a % 13 == b % 13


def test_first_dealer_random_option_uses_no_cut():
    dealers = {Match(gin_rules.RuleSet(first_dealer=gin_rules.RANDOM), s).dealer for s in range(40)}
    assert dealers == {0, 1}
    assert Match(gin_rules.RuleSet(first_dealer=gin_rules.RANDOM), 3).cuts == []


def test_deal_ten_each_one_at_a_time_nondealer_first_then_upcard():
    deck = list(range(52))
    rnd = Round(gin_rules.RuleSet(), DEALER, 0, deck=deck)
    assert hand_cards(rnd.hands[NONDEALER]) == list(range(0, 20, 2))
    assert hand_cards(rnd.hands[DEALER]) == list(range(1, 20, 2))
    assert rnd.upcard == 20 and rnd.pile == [20]
    assert rnd.stock_size() == 31


def test_same_seed_deals_same_cards():
    a = Round(gin_rules.RuleSet(), 0, 12345)
    b = Round(gin_rules.RuleSet(), 0, 12345)
    assert a.hands == b.hands and a.deck == b.deck
    assert Round(gin_rules.RuleSet(), 0, 12346).deck != a.deck


# --- the first turn -----------------------------------------------------------


def test_upcard_offer_nondealer_then_dealer_then_nondealer_draws_from_stock():
    rnd = Round(gin_rules.RuleSet(), DEALER, 7)
    assert rnd.phase == OFFER and rnd.player == NONDEALER
    assert rnd.legal_actions() == [TAKE_DISCARD, PASS]
    rnd.apply(PASS)
    assert rnd.phase == OFFER and rnd.player == DEALER
    rnd.apply(PASS)
    assert rnd.phase == DRAW and rnd.player == NONDEALER
    assert rnd.legal_actions() == [DRAW_STOCK]
    with pytest.raises(GinError, match="draw from the stock"):
        rnd.apply(TAKE_DISCARD)
    rnd.apply(DRAW_STOCK)
    assert rnd.phase == DISCARD_PHASE


def test_taking_the_upcard_is_the_draw_then_discard_then_other_player():
    rnd = Round(gin_rules.RuleSet(), DEALER, 7)
    up = rnd.upcard
    rnd.apply(TAKE_DISCARD)
    assert rnd.phase == DISCARD_PHASE and rnd.player == NONDEALER
    other = [c for c in hand_cards(rnd.hands[NONDEALER]) if c != up][0]
    rnd.apply(other)
    assert rnd.phase == DRAW and rnd.player == DEALER
    assert rnd.legal_actions() == [DRAW_STOCK, TAKE_DISCARD]


def test_dealer_takes_upcard_after_nondealer_passes():
    rnd = Round(gin_rules.RuleSet(), DEALER, 7)
    rnd.apply(PASS)
    rnd.apply(TAKE_DISCARD)
    assert rnd.player == DEALER and rnd.phase == DISCARD_PHASE
    c = [c for c in hand_cards(rnd.hands[DEALER]) if c != rnd.upcard][0]
    rnd.apply(c)
    assert rnd.player == NONDEALER and rnd.phase == DRAW


def test_option_upcard_offer_dealer_plays_a_normal_first_turn():
    rs = gin_rules.RuleSet(upcard_offer=gin_rules.OFFER_DEALER_PLAYS)
    rnd = Round(rs, DEALER, 7)
    rnd.apply(PASS)
    assert rnd.player == DEALER and rnd.phase == DRAW
    assert rnd.legal_actions() == [DRAW_STOCK, TAKE_DISCARD]
    rnd.apply(DRAW_STOCK)
    assert rnd.phase == DISCARD_PHASE and rnd.player == DEALER


# --- a turn -------------------------------------------------------------------


def test_card_taken_from_pile_cannot_be_discarded_or_knocked_same_turn():
    rnd = stacked_round("3S 4S 5S 9C TC JC 7H 7S 2D 3D", EX1[1], "7D")
    rnd.apply(TAKE_DISCARD)
    with pytest.raises(GinError, match="just taken"):
        rnd.apply(card("7D"))
    with pytest.raises(GinError, match="just taken"):
        rnd.apply(knock("7D"))
    assert card("7D") not in rnd.legal_actions()
    assert knock("7D") not in rnd.legal_actions()


def test_another_card_of_the_same_rank_as_the_taken_card_can_be_discarded():
    rnd = stacked_round("3S 4S 5S 9C TC JC 7H 2C 2D 3D", EX1[1], "7D")
    rnd.apply(TAKE_DISCARD)
    rnd.apply(card("7H"))
    assert rnd.pile[-1] == card("7H")


# --- knocking -----------------------------------------------------------------


def test_knock_refused_above_the_knock_limit_with_the_reason():
    rnd = stacked_round("3S 4S 5S 9C TC JC 7H 7S QH 4D", EX1[1], "TD", "9H")
    pass_both_and_draw(rnd)
    before = fingerprint(rnd)
    with pytest.raises(GinError) as e:
        rnd.apply(knock("9H"))  # keeps QH + 4D + 7H + 7S: 28
    assert "above the knock limit 10" in str(e.value)
    assert str(e.value).startswith("deadwood 28")
    assert fingerprint(rnd) == before


def test_knock_at_exactly_the_limit_is_allowed_10_or_less():
    rnd = stacked_round("3S 4S 5S 9C TC JC 7H 7S 7D TD", EX1[1], "2C", "9H")
    pass_both_and_draw(rnd)
    assert knock("9H") in rnd.legal_actions()
    rnd.apply(knock("9H"))
    assert rnd.result.knocker_deadwood == 10


def test_knock_on_the_very_first_turn_taking_the_upcard():
    rnd = stacked_round("3S 4S 5S 9C TC JC 7H 7S 2D 3D", EX1[1], "7D")
    rnd.apply(TAKE_DISCARD)
    rnd.apply(knock("3D"))
    assert rnd.phase == OVER and rnd.result.knocker == NONDEALER and rnd.result.knocker_deadwood == 2


def test_knock_discard_goes_face_down_not_to_the_pile():
    rnd = pass_both_and_draw(stacked_round(*EX1[:4]))
    pile = list(rnd.pile)
    rnd.apply(knock("9H"))
    assert rnd.pile == pile and rnd.knock_card == card("9H")
    assert rnd.check_invariants()


def test_nobody_is_forced_to_knock_by_default():
    rnd = pass_both_and_draw(stacked_round(*EX3[:4]))
    assert card("2D") in rnd.legal_actions()  # may discard instead of going gin
    rnd.apply(card("2D"))
    assert rnd.phase == DRAW


def test_option_gin_forced_makes_a_plain_discard_illegal_when_gin_is_there():
    rnd = pass_both_and_draw(stacked_round(*EX3[:4], rules=gin_rules.RuleSet(gin_forced=True)))
    assert card("2D") not in rnd.legal_actions()
    with pytest.raises(GinError, match="gin is forced"):
        rnd.apply(card("2D"))
    assert knock("2D") in rnd.legal_actions()


def test_gin_forced_does_not_bind_when_no_gin_is_available():
    rnd = pass_both_and_draw(stacked_round(*EX1[:4], rules=gin_rules.RuleSet(gin_forced=True)))
    rnd.apply(card("9H"))
    assert rnd.phase == DRAW


# --- big gin ------------------------------------------------------------------

BIG = ("5H 6H 7H 9C TC JC QC KD KH KS", "8H JD 4S AS 2C 3C 4C 6S 6D 6C", "3D", "8C")


def test_big_gin_off_by_default():
    rnd = pass_both_and_draw(stacked_round(*BIG))
    assert BIG_GIN not in rnd.legal_actions()
    with pytest.raises(GinError, match="big gin is off"):
        rnd.apply(BIG_GIN)


def test_big_gin_all_eleven_melded_scores_31_plus_deadwood():
    rnd = pass_both_and_draw(stacked_round(*BIG, rules=gin_rules.RuleSet.preset_rules("modern")))
    legal = rnd.legal_actions()
    assert BIG_GIN in legal
    assert knock("8C") in legal or knock("QC") in legal  # may instead discard and knock for plain gin
    rnd.apply(BIG_GIN)
    r = rnd.result
    assert r.kind == BIG_GIN_WIN and r.points == 31 + 23 and r.layoffs == []


def test_big_gin_bonus_is_31_whenever_on():
    rnd = pass_both_and_draw(stacked_round(*BIG, rules=gin_rules.RuleSet(big_gin=True)))
    rnd.apply(BIG_GIN)
    assert rnd.result.points == 31 + 23


def test_big_gin_refused_without_all_eleven_in_melds():
    rnd = pass_both_and_draw(stacked_round(*EX1[:4], rules=gin_rules.RuleSet(big_gin=True)))
    with pytest.raises(GinError, match="all 11"):
        rnd.apply(BIG_GIN)


def test_big_gin_by_taking_the_upcard_on_the_first_turn():
    rnd = stacked_round(BIG[0], BIG[1], "8C", rules=gin_rules.RuleSet(big_gin=True))
    rnd.apply(TAKE_DISCARD)
    assert BIG_GIN in rnd.legal_actions()


# --- laying off ---------------------------------------------------------------


def test_knocker_chooses_among_equally_low_arrangements():
    # 6H ends the run 3H-6H or completes the set of four 6s: both leave AC 2D 3C = 6
    nd = "3H 4H 5H 6H 6C 6D 6S AC 2D 3C"
    rnd = pass_both_and_draw(stacked_round(nd, "KC KD 2H 2S QD 4D 8C AD 9D 5C", "TC", "QH"))
    rnd.apply(knock("QH"))
    assert rnd.phase == SPREAD and rnd.player == NONDEALER
    n = len(rnd.arrangements)
    assert n >= 2
    assert rnd.legal_actions() == [ARRANGE + i for i in range(n)]
    for arr in rnd.arrangements:
        assert sum(min(c % 13 + 1, 10) for c in arr[1]) == 6
    rnd.apply(ARRANGE + 1)
    assert rnd.phase == OVER and rnd.result.knocker_melds == rnd.arrangements[1][0]


def test_defender_lays_off_chains_on_a_run():
    nd = "4H 5H 6H 9S TS JS KC KD KH 2C"
    d = "7H 8H 3S 3D 3C QS QD AC 5D 9C"
    rnd = pass_both_and_draw(stacked_round(nd, d, "TD", "JH"))
    rnd.apply(knock("JH"))
    r = rnd.result
    laid = [c for c, _ in r.layoffs]
    assert laid.index(card("7H")) < laid.index(card("8H"))  # the chain goes in order
    assert card("QS") in laid
    assert r.defender_deadwood == 10 + 1 + 5 + 9


def test_nothing_is_laid_off_onto_deadwood():
    # knocker's deadwood 2C, 3C: the defender's AC would "continue" them but they are not a meld
    nd = "4H 5H 6H 9S TS JS KC KD KH 2C"
    d = "AC 3D 3S 3H QD QC 8D 9C 5D 7C"
    rnd = pass_both_and_draw(stacked_round(nd, d, "TD", "JH"))
    rnd.apply(knock("JH"))
    assert card("AC") not in [c for c, _ in rnd.result.layoffs]


def test_a_card_may_serve_better_as_a_layoff_than_in_the_defenders_meld():
    # defender: 7H 8H 9H run, plus 9C 9D. Knocker has a set of 9s? no: knocker run 4H5H6H.
    # Laying 7H 8H 9H off the knocker's heart run and keeping 9C 9D 9H? The device finds the best split.
    nd = "4H 5H 6H JS QS KS 2C 2D 2S AD"
    d = "7H 8H 9H 9C 9S TD TC 5C 5S 3C"
    rnd = pass_both_and_draw(stacked_round(nd, d, "KC", "KH"))
    rnd.apply(knock("KH"))
    r = rnd.result
    # Best: lay off 7H, 8H onto 4-6H and keep 9H 9C 9S as a set: deadwood TD TC 5C 5S 3C = 33
    assert r.defender_deadwood == 33
    assert sorted(c for c, _ in r.layoffs) == sorted(parse_cards("7H 8H"))


def test_undercut_on_a_tie_defender_scores_difference_plus_bonus():
    nd = "3S 4S 5S 9C TC JC 7H 7S 7D 5D"
    d = "KC KD KH QS QD QH 2C 3C 4C 5H"  # deadwood 5H = 5 (5H lays off on nothing)
    rnd = pass_both_and_draw(stacked_round(nd, d, "TD", "9H"))
    rnd.apply(knock("9H"))
    r = rnd.result
    assert r.knocker_deadwood == 5 and r.defender_deadwood == 5
    assert r.kind == UNDERCUT and r.winner == DEALER and r.points == 0 + 10


def test_undercut_when_defender_reaches_zero_by_laying_off():
    nd = "3S 4S 5S 9C TC JC 7H 7S 7D 5D"
    d = "KC KD KH QS QD QH 2C 3C 4C 6S"  # 6S lays off on 3-5S: D = 0
    rnd = pass_both_and_draw(stacked_round(nd, d, "TD", "9H"))
    rnd.apply(knock("9H"))
    r = rnd.result
    assert r.defender_deadwood == 0 and r.kind == UNDERCUT and r.points == 5 + 10


def test_gin_is_never_undercut_even_against_zero():
    d = "QD QH QS 2C 3C 4C 5C 6S 6D 6C"  # all ten in melds: 0 deadwood
    rnd = pass_both_and_draw(stacked_round(EX3[0], d, "3D", "2D"))
    rnd.apply(knock("2D"))
    r = rnd.result
    assert r.defender_deadwood == 0
    assert r.kind == GIN and r.winner == NONDEALER and r.points == 20


# --- the stock runs out -------------------------------------------------------


def _play_to_stock(rnd, left):
    """Both players draw from the stock and throw the drawn card back until `left` remain."""
    while rnd.stock_size() > left:
        if rnd.phase == OFFER:
            rnd.apply(PASS)
            continue
        rnd.apply(DRAW_STOCK)
        drawn = rnd.deck[rnd.stock_pos - 1]
        rnd.apply(drawn)
    return rnd


def test_discard_leaving_two_in_stock_cancels_the_hand():
    rnd = stacked_round(*EX1[:4])
    _play_to_stock(rnd, 3)
    assert rnd.phase == DRAW
    rnd.apply(DRAW_STOCK)
    assert rnd.stock_size() == 2
    rnd.apply(rnd.deck[rnd.stock_pos - 1])
    assert rnd.phase == OVER and rnd.result.kind == CANCELLED and rnd.result.winner == -1


def test_the_player_whose_draw_left_two_may_still_knock():
    rnd = stacked_round(*EX1[:4])  # the non-dealer holds 2 deadwood all along
    _play_to_stock(rnd, 3)
    assert rnd.player == NONDEALER
    rnd.apply(DRAW_STOCK)
    assert rnd.stock_size() == 2
    drawn = rnd.deck[rnd.stock_pos - 1]
    assert KNOCK + drawn in rnd.legal_actions()
    rnd.apply(KNOCK + drawn)
    assert rnd.result.kind == KNOCK_WIN


def test_cancelled_hand_same_dealer_deals_again_under_every_dealer_option():
    for nd in (gin_rules.WINNER_DEALS, gin_rules.LOSER_DEALS, gin_rules.ALTERNATE):
        m = Match(gin_rules.RuleSet(next_dealer=nd), 5)
        dealer = m.dealer
        _play_to_stock(m.round, 3)
        m.apply(DRAW_STOCK)
        m.apply(m.round.deck[m.round.stock_pos - 1])
        assert m.state == HAND_OVER and m.summaries[-1][0] == CANCELLED
        assert m.dealer == dealer
        assert m.totals == [0, 0]
        m.next_hand()
        assert m.round.dealer == dealer


def test_device_rule_100_turns_cancel_the_hand():
    rnd = Round(gin_rules.RuleSet(), DEALER, 4)
    rnd.apply(PASS)
    rnd.apply(PASS)
    rnd.apply(DRAW_STOCK)
    rnd.apply(rnd.deck[rnd.stock_pos - 1])
    # from here both players take the top discard and throw another card back
    while rnd.phase != OVER:
        assert rnd.turns < 100
        rnd.apply(TAKE_DISCARD)
        me = rnd.player
        throw = [c for c in hand_cards(rnd.hands[me]) if c != rnd.taken][0]
        rnd.apply(throw)
    assert rnd.turns == 100 and rnd.result.kind == CANCELLED
    assert "100 turns" in rnd.result.reason
