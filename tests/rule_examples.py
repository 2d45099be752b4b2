"""Helpers of the rule tests (tests/test_rules*.py): stacked rounds, and the worked examples of source 000."""

from gin import rules as gin_rules
from gin.cards import parse_card
from gin.round import DRAW_STOCK, KNOCK, OVER, PASS, Round

from deal import stacked_deck

NONDEALER, DEALER = 0, 1


def card(t):
    return parse_card(t)


def knock(t):
    return KNOCK + card(t)


def stacked_round(nd, d, up, stock="", rules=None, dealer=DEALER):
    rules = rules or gin_rules.RuleSet()
    return Round(rules, dealer, 0, deck=stacked_deck(nd, d, up, stock))


def pass_both_and_draw(rnd):
    rnd.apply(PASS)
    rnd.apply(PASS)
    rnd.apply(DRAW_STOCK)
    return rnd


# --- the three worked examples of source 000 ------------------------------------

EX1 = ("3S 4S 5S 9C TC JC 7H 7S 7D 2D", "KC KD KH 6S QC 8D 4C 2H AC 9D", "TD", "9H", "9H")
EX2 = ("4C 4D 4H 7S 8S 9S TS JS QS 8H", "9C 9D 9H JH QH KH 4S 6S KS AD", "2C", "KD", "KD")
EX3 = ("5H 6H 7H 9C TC JC QC KD KH KS", "8H JD 4S AS 2C 3C 4C 6S 6D 6C", "3D", "2D", "2D")


def play_example(ex, rules):
    nd, d, up, stock, discard = ex
    rnd = pass_both_and_draw(stacked_round(nd, d, up, stock, rules))
    rnd.apply(knock(discard))
    assert rnd.phase == OVER
    return rnd.result
