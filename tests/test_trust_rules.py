"""Rules and fair play: gin forced means gin, observations can't reach the match, one target limit."""

import re
from pathlib import Path

import pytest

from gin.cards import GinError, parse_card, parse_cards
from gin.match import Match
from gin.round import BIG_GIN, DRAW_STOCK, KNOCK, PASS, SPREAD, Round
from gin.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def _deck(nondealer, dealer, upcard, stock_top):
    """A deck (top first) that deals these hands: one card at a time, the non-dealer first."""
    nd = parse_cards(nondealer)
    de = parse_cards(dealer)
    deck = []
    for i in range(10):
        deck += [nd[i], de[i]]
    deck += [parse_card(upcard), parse_card(stock_top)]
    deck += [c for c in range(52) if c not in deck]
    return deck


def test_gin_forced_refuses_a_knock_with_deadwood_while_gin_is_there():
    # The example: Classic + gin forced; pass, pass, draw 9H.
    deck = _deck("2C 3C 4C 5H 6H 7H 9S 9D 9C KD", "2S 3S 4S 6C 7C 8D JH QH KH AD", "QS", "9H")
    for big in (False, True):
        rnd = Round(RuleSet(gin_forced=True, big_gin=big), 1, 0, deck)
        for a in (PASS, PASS, DRAW_STOCK):
            rnd.apply(a)
        assert rnd.legal_actions() == [KNOCK + parse_card("KD")]  # gin; no big gin with KD dead
        with pytest.raises(GinError, match="gin is forced"):
            rnd.apply(KNOCK + parse_card("9H"))
        with pytest.raises(GinError, match="gin is forced"):
            rnd.apply(parse_card("KD"))  # a plain discard neither
        assert not rnd.is_legal(KNOCK + parse_card("9S"))
        rnd.apply(KNOCK + parse_card("KD"))
        assert rnd.result.kind == 2 and rnd.result.knocker_deadwood == 0  # gin
    # without the option the knock with 10 deadwood stays legal
    rnd = Round(RuleSet(), 1, 0, deck)
    for a in (PASS, PASS, DRAW_STOCK):
        rnd.apply(a)
    assert KNOCK + parse_card("9H") in rnd.legal_actions() and rnd.is_legal(parse_card("KD"))
    assert BIG_GIN not in rnd.legal_actions()


# A Classic match (seed 859) played to a knock with two equally low spreads to choose from.
SPREAD_SEED = 859
SPREAD_ACTIONS = bytes.fromhex(
    "690968336829681d691769006826691c692a691068186915680c692a6825693268216907691c6817690669266817"
    "690c680a6823691d68186807682568286817691e691b690169026931680f681b691e682f680168226906681f691b"
    "6814690569276914680368136804690e68056919690d683c"
)


def test_a_player_cannot_alter_the_match_through_its_observation():
    m = Match(RuleSet(), SPREAD_SEED)
    for a in SPREAD_ACTIONS:
        m.apply(a)
    rnd = m.round
    assert rnd.phase == SPREAD and len(rnd.arrangements) == 2
    p = rnd.player
    rules_before = m.rules.as_dict()
    arrangements_before = [(list(map(list, ms)), list(d)) for ms, d in rnd.arrangements]
    obs = m.observation(p)

    # A cheating player writes to everything its observation holds.
    obs.rules.knock_limit = 10
    obs.rules.gin_bonus = 500
    obs.rules.straight = True
    for thing in (obs.arrangements, obs.arrangements[0], obs.arrangements[0][1], obs.arrangements[0][0][0]):
        for attack in (lambda t: t.clear(), lambda t: t.append(0), lambda t: t.__setitem__(0, 0)):
            try:
                attack(thing)
            except (AttributeError, TypeError):
                pass
    obs.hand[0] = 0x1FFF
    obs.pile.append(0)
    obs.legal.append(KNOCK)

    assert m.rules.as_dict() == rules_before
    assert [(list(map(list, ms)), list(d)) for ms, d in rnd.arrangements] == arrangements_before
    m.apply(obs.legal[0])  # spread the first arrangement as it really is
    r = rnd.result
    assert r.knocker_deadwood == sum(min(c % 13 + 1, 10) for c in arrangements_before[0][1]) > 0
    assert r.points != 0 or r.kind == 1


def test_the_target_limit_is_the_one_rules_md_states():
    text = (ROOT / "docs" / "RULES.md").read_text()
    stated = re.findall(r"any whole number from 1 to ([\d,]+)", text)
    assert stated, "docs/RULES.md states the target's range"
    hi = int(stated[0].replace(",", ""))
    assert all(int(s.replace(",", "")) == hi for s in stated)
    assert RuleSet(target=hi).target == hi and RuleSet(target=1).target == 1
    for bad in (0, hi + 1):
        with pytest.raises(GinError, match="target"):
            RuleSet(target=bad)
    assert "any positive number" not in text
