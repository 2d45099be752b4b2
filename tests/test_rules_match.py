"""Every rule of docs/RULES.md, each test named after the rule it proves: the match (the next hand, the
game and its bonuses, presets and variants). One hand's rules are in test_rules.py.
"""

import pytest

from gin import rules as gin_rules
from gin.cards import GinError
from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
from gin.round import DRAW_STOCK, GIN, PASS, Round

from deal import stacked_deck
from rule_examples import DEALER, EX1, EX2, EX3, knock, pass_both_and_draw, stacked_round

# --- the next hand --------------------------------------------------------------


def _finish_with_knock(m, example):
    """Play a stacked knock example as the match's hand (knocker = non-dealer)."""
    nd, d, up, stock, discard = example
    dealer = m.round.dealer
    rnd = Round(m.rules, dealer, 0, deck=stacked_deck(nd, d, up, stock))
    m.round = rnd
    for a in (PASS, PASS, DRAW_STOCK, knock(discard)):
        m.apply(a)
    return m


@pytest.mark.parametrize(
    "option,expect",
    [
        (gin_rules.WINNER_DEALS, "winner"),
        (gin_rules.LOSER_DEALS, "loser"),
        (gin_rules.ALTERNATE, "alternate"),
    ],
)
def test_next_dealer_options(option, expect):
    m = Match(gin_rules.RuleSet(next_dealer=option), 1)
    first = m.dealer
    _finish_with_knock(m, EX1)  # the non-dealer (1 - first) wins
    winner = 1 - first
    want = {"winner": winner, "loser": 1 - winner, "alternate": 1 - first}[expect]
    assert m.dealer == want


# --- the game -----------------------------------------------------------------


def test_game_reaching_target_wins_with_game_and_box_bonuses():
    m = Match(gin_rules.RuleSet(target=40), 1)
    # Two knocks of 22 by the non-dealer of each hand. Winner deals, so the loser knocks next time:
    _finish_with_knock(m, EX1)
    w1 = m.summaries[-1][1]
    assert m.totals[w1] == 22 and m.state == HAND_OVER
    m.next_hand()
    _finish_with_knock(m, EX1)
    w2 = m.summaries[-1][1]
    assert w2 != w1  # the other player, as non-dealer, knocked
    m.next_hand()
    _finish_with_knock(m, EX3)  # +43 to the non-dealer = w1 (w2 dealt)
    assert m.state == GAME_OVER
    col = m.columns[0]
    assert m.winner == col.winner
    w = m.winner
    assert col.totals[w] >= 40
    assert col.game_bonus[w] == 100 and col.game_bonus[1 - w] == 0
    assert col.box_bonus[w] == 20 * 2 and col.box_bonus[1 - w] == 20
    assert m.final_tally(w) == col.totals[w] + 100 + 40


def test_game_shutout_doubles_the_game_bonus():
    m = Match(gin_rules.RuleSet(target=40), 1)
    _finish_with_knock(m, EX3)  # +43, game over at once, loser won no hand
    assert m.state == GAME_OVER
    w = m.winner
    assert m.columns[0].shutout and m.columns[0].game_bonus[w] == 200
    assert m.final_tally(w) == 43 + 200 + 20
    assert m.final_tally(1 - w) == 0


def test_game_bonuses_do_not_count_toward_the_target():
    m = Match(gin_rules.RuleSet(target=100), 1)
    _finish_with_knock(m, EX3)
    assert m.state == HAND_OVER and m.score_of(m.summaries[-1][1]) == 43


def test_option_higher_final_tally_wins():
    m = Match(gin_rules.RuleSet(target=40, game_winner=gin_rules.HIGHER_TALLY), 1)
    _finish_with_knock(m, EX1)  # A +22
    a = m.summaries[-1][1]
    m.next_hand()
    _finish_with_knock(m, EX1)  # B +22 (B knocks as non-dealer)
    m.next_hand()
    _finish_with_knock(m, EX1)  # A +22 -> 44 reaches 40
    assert m.state == GAME_OVER and m.columns[0].winner == a
    # A: 44 + 100 + 40 = 184; B: 22 + 20 = 42 -> A wins either way
    assert m.winner == a


def test_apply_after_hand_over_is_refused_until_next_hand():
    m = Match(gin_rules.RuleSet(), 2)
    _finish_with_knock(m, EX1)
    with pytest.raises(GinError, match="next one"):
        m.apply(DRAW_STOCK)
    m.next_hand()
    assert m.state == PLAYING


# --- presets and variants -------------------------------------------------------


def test_presets_table():
    table = {
        "classic": (10, 20, 10, False, 20, 100, 200, gin_rules.WINNER_DEALS),
        "modern": (10, 25, 25, True, 25, 100, 200, gin_rules.WINNER_DEALS),
        "10/20": (10, 20, 10, False, 25, 100, 200, gin_rules.ALTERNATE),
        "20/25": (10, 25, 20, False, 25, 100, 200, gin_rules.ALTERNATE),
    }
    for name, row in table.items():
        rs = gin_rules.RuleSet.preset_rules(name)
        got = (
            rs.knock_limit,
            rs.gin_bonus,
            rs.undercut_bonus,
            rs.big_gin,
            rs.box_bonus,
            rs.game_bonus,
            rs.shutout_bonus,
            rs.next_dealer,
        )
        assert got == row, name
        assert rs.big_gin_bonus == 31
    assert gin_rules.RuleSet() == gin_rules.RuleSet.preset_rules("classic")


def test_variant_straight_gin_only():
    rs = gin_rules.RuleSet(straight=True)
    rnd = pass_both_and_draw(stacked_round(*EX1[:4], rules=rs))
    assert rnd.knock_limit == 0
    with pytest.raises(GinError, match="only gin"):
        rnd.apply(knock("9H"))
    rnd2 = pass_both_and_draw(stacked_round(*EX3[:4], rules=rs))
    rnd2.apply(knock("2D"))
    assert rnd2.result.kind == GIN


@pytest.mark.parametrize("up,limit", [("5D", 5), ("TD", 10), ("KS", 10), ("JD", 10), ("AD", 0), ("2S", 2)])
def test_variant_oklahoma_upcard_sets_the_knock_limit(up, limit):
    rnd = Round(gin_rules.RuleSet(oklahoma=True), DEALER, 0, deck=stacked_deck(EX1[0], EX1[1], up, "9H"))
    assert rnd.knock_limit == limit


def test_variant_oklahoma_with_straight_the_lower_limit_applies():
    rnd = Round(
        gin_rules.RuleSet(oklahoma=True, straight=True),
        DEALER,
        0,
        deck=stacked_deck(EX1[0], EX1[1], "5D", "9H"),
    )
    assert rnd.knock_limit == 0


def test_variant_oklahoma_refuses_knock_above_the_upcard_limit():
    rnd = pass_both_and_draw(
        Round(gin_rules.RuleSet(oklahoma=True), DEALER, 0, deck=stacked_deck(EX2[0], EX2[1], "5D", "KD"))
    )
    with pytest.raises(GinError, match="above the knock limit 5"):
        rnd.apply(knock("KD"))  # deadwood 8


def test_oklahoma_spade_double_doubles_hand_points_including_bonuses():
    rs = gin_rules.RuleSet(oklahoma=True, oklahoma_spade_double=True)
    rnd = pass_both_and_draw(Round(rs, DEALER, 0, deck=stacked_deck(EX3[0], EX3[1], "TS", "2D")))
    rnd.apply(knock("2D"))
    assert rnd.result.multiplier == 2 and rnd.result.points == 2 * 43
    rnd = pass_both_and_draw(Round(rs, DEALER, 0, deck=stacked_deck(EX3[0], EX3[1], "9D", "2D")))
    rnd.apply(knock("2D"))
    assert rnd.result.points == 43


def test_spade_double_off_by_default():
    rnd = pass_both_and_draw(
        Round(gin_rules.RuleSet(oklahoma=True), DEALER, 0, deck=stacked_deck(EX3[0], EX3[1], "TS", "2D"))
    )
    rnd.apply(knock("2D"))
    assert rnd.result.points == 43


def test_hollywood_entries_and_columns():
    rs = gin_rules.RuleSet(hollywood=True, target=50)
    m = Match(rs, 1)
    assert len(m.columns) == 3
    a = 1 - m.dealer  # the first knocker
    _finish_with_knock(m, EX1)  # a +22: game 1 only
    assert [c.totals[a] for c in m.columns] == [22, 0, 0]
    m.next_hand()
    # winner deals, so b is the non-dealer now and knocks
    b = 1 - a
    _finish_with_knock(m, EX1)  # b's first win: game 1
    assert [c.totals[b] for c in m.columns] == [22, 0, 0]
    m.next_hand()
    _finish_with_knock(m, EX1)  # a's second win: games 1 and 2
    assert [c.totals[a] for c in m.columns] == [44, 22, 0]
    m.next_hand()
    _finish_with_knock(m, EX1)  # b's second: games 1, 2
    m.next_hand()
    _finish_with_knock(m, EX1)  # a's third: 66 (closes game 1), 44, 22
    assert [c.totals[a] for c in m.columns] == [66, 44, 22]
    g1 = m.columns[0]
    assert g1.closed and g1.winner == a and g1.game_bonus[a] == 100
    assert g1.box_bonus[a] == 20 * 3 and g1.box_bonus[b] == 20 * 2
    assert m.state == HAND_OVER
    m.next_hand()
    _finish_with_knock(m, EX1)  # b's third: game 2 (has an entry) and game 3 (lowest open without one)
    assert [c.totals[b] for c in m.columns] == [44, 44, 22]
    assert not m.columns[1].closed
    m.next_hand()
    _finish_with_knock(m, EX1)  # a's fourth: game 2 reaches 66 and closes, game 3 44
    assert [c.totals[a] for c in m.columns] == [66, 66, 44]
    g2 = m.columns[1]
    assert g2.closed and g2.winner == a and not g2.shutout and g2.game_bonus[a] == 100
    assert g2.box_bonus[a] == 20 * 3 and g2.box_bonus[b] == 20 * 2
    assert m.state == HAND_OVER


def test_hollywood_shutout_column_and_match_end():
    rs = gin_rules.RuleSet(hollywood=True, target=40)
    m = Match(rs, 1)
    a = 1 - m.dealer
    _finish_with_knock(m, EX3)  # a +43: closes game 1 with a shutout
    assert m.columns[0].closed and m.columns[0].shutout and m.columns[0].game_bonus[a] == 200
    m.next_hand()
    _finish_with_knock(
        m, EX3
    )  # winner deals, so b knocks gin +43: b's first win goes to game 1? closed -> game 2
    b = 1 - a
    assert m.columns[1].totals[b] == 43 and m.columns[1].closed and m.columns[1].winner == b
    m.next_hand()
    _finish_with_knock(
        m, EX3
    )  # a's second win: a has an entry in game 1 (closed); lowest open without: game 3? game 2 is closed
    assert m.columns[2].totals[a] == 43 and m.state == GAME_OVER
    assert m.final_tally(a) == 2 * (43 + 200 + 20) and m.final_tally(b) == 43 + 200 + 20
    assert m.winner == a
    assert m.final_tally(0) + m.final_tally(1) == sum(c.final(0) + c.final(1) for c in m.columns)


def test_target_any_positive_number():
    assert gin_rules.RuleSet(target=1).target == 1
    with pytest.raises(GinError):
        gin_rules.RuleSet(target=0)
