"""Rules-core checks that run unchanged on CPython and on MicroPython.

The expected digests were computed on CPython; MicroPython must reproduce them
exactly (same seed, same deal, same game).
"""

from gin import melds
from gin import rules as gin_rules
from gin.cards import GinError, Rng, card_text, hand_of, mix_seed, parse_card, parse_cards, shuffled_deck
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import DRAW_STOCK, GIN, KNOCK, KNOCK_WIN, PASS, UNDERCUT, Round


def _deck(nd, d, up, stock):
    nd = parse_cards(nd)
    d = parse_cards(d)
    up = parse_card(up)
    st = parse_cards(stock)
    used = nd + d + [up] + st
    deck = []
    for i in range(10):
        deck.append(nd[i])
        deck.append(d[i])
    deck.append(up)
    deck.extend(st)
    for c in range(52):
        if c not in used:
            deck.append(c)
    return deck


def _example(nd, d, up, stock, rules):
    rnd = Round(rules, 1, 0, deck=_deck(nd, d, up, stock))
    rnd.apply(PASS)
    rnd.apply(PASS)
    rnd.apply(DRAW_STOCK)
    rnd.apply(KNOCK + parse_card(stock))
    return rnd.result


EX1 = ("3S 4S 5S 9C TC JC 7H 7S 7D 2D", "KC KD KH 6S QC 8D 4C 2H AC 9D", "TD", "9H")
EX2 = ("4C 4D 4H 7S 8S 9S TS JS QS 8H", "9C 9D 9H JH QH KH 4S 6S KS AD", "2C", "KD")
EX3 = ("5H 6H 7H 9C TC JC QC KD KH KS", "8H JD 4S AS 2C 3C 4C 6S 6D 6C", "3D", "2D")


def test_worked_examples_classic():
    r = _example(*EX1, rules=gin_rules.RuleSet())
    assert r.kind == KNOCK_WIN and r.points == 22
    r = _example(*EX2, rules=gin_rules.RuleSet())
    assert r.kind == UNDERCUT and r.points == 17
    r = _example(*EX3, rules=gin_rules.RuleSet())
    assert r.kind == GIN and r.points == 43


def test_worked_examples_modern():
    pts = [_example(*ex, rules=gin_rules.RuleSet.preset_rules("modern")).points for ex in (EX1, EX2, EX3)]
    assert pts == [22, 32, 48]


def test_card_text_round_trip():
    for c in range(52):
        assert parse_card(card_text(c)) == c
    assert parse_card("10h") == parse_card("TH")


def test_bad_card_text_raises_gin_error():
    for bad in ("", "1H", "7X", "77H"):
        try:
            parse_card(bad)
        except GinError:
            continue
        raise AssertionError("accepted %r" % bad)


def test_deal_is_the_same_as_on_cpython():
    assert shuffled_deck(1)[:10] == EXPECTED_DECK_1


def test_the_generator_is_xorshift32_as_before_on_small_ints():
    # Written from the 32-bit implementation the game shipped with: every seed deals what it
    # always dealt, so saved games and replays stay valid (docs/SAVES.md).
    r = Rng(2**31 - 5)
    assert [r.next32() for _ in range(4)] == [1245581803, 2288355498, 392844882, 3920046274]
    assert [r.below(n) for n in (52, 51, 7, 2, 32768, 1000)] == [5, 1, 4, 1, 13238, 753]
    cases = ((0, 0), (1, 2), (2**31 - 1, 99), (-5, 3), (123456789012, 7))
    expect = [4222021304, 1417220138, 1726847526, 1217589484, 2222193804]
    assert [mix_seed(s, t) for s, t in cases] == expect


def test_a_deal_makes_almost_no_garbage():
    # Issue 13: a deal must not force a collection on the Pico (a 32-bit state made ~45 KB of
    # bignums there).  Under MicroPython every allocation counts; the deal's own lists are ~1 KB.
    import gc

    if not hasattr(gc, "mem_alloc"):
        return
    from gin.match import hand_seed
    from gin.round import Round
    from gin.rules import RuleSet

    rules = RuleSet()
    for seed in (1, 77, 2**31 - 16):
        hs = hand_seed(seed, 3)
        gc.collect()
        before = gc.mem_alloc()
        shuffled_deck(hs)
        mid = gc.mem_alloc()
        Round(rules, 0, hs)
        after = gc.mem_alloc()
        assert mid - before <= 1024, (seed, mid - before)
        assert after - mid <= 2048, (seed, after - mid)


def test_meld_search_known_hands():
    assert melds.deadwood(hand_of("7H 8H 9H 7S 7D 7C 2C 3C 4C 5D")) == 5
    assert melds.deadwood(hand_of("QH KH AH 2D 3D 4S 5S 6C 7C 8D")) == 56
    assert melds.deadwood_after_discard(hand_of("7H 8H 9H 7S 7D 7C 2C 3C 4C KD QS")) == 10


def test_illegal_action_keeps_state():
    rnd = Round(gin_rules.RuleSet(), 0, 5)
    before = list(rnd.hands[0]) + list(rnd.hands[1])
    try:
        rnd.apply(DRAW_STOCK)
    except GinError as e:
        assert "upcard" in str(e)
    else:
        raise AssertionError("draw accepted during the upcard offer")
    assert list(rnd.hands[0]) + list(rnd.hands[1]) == before


def _play_match(seed, rules):
    m = Match(rules, seed)
    rng = Rng(seed + 17)
    acc = 0
    n = 0
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        legal = m.legal_actions()
        knocks = [a for a in legal if 52 <= a < 104]
        a = knocks[0] if knocks and rng.below(4) != 0 else legal[rng.below(len(legal))]
        m.apply(a)
        acc = (acc * 31 + a + 1) % 1000000007
        n += 1
    return (acc, n, m.winner, m.final_tally(0), m.final_tally(1), len(m.summaries))


def match_digest():
    return [
        _play_match(11, gin_rules.RuleSet(target=30)),
        _play_match(12, gin_rules.RuleSet.preset_rules("modern", oklahoma=True, target=30)),
        _play_match(13, gin_rules.RuleSet(hollywood=True, target=20)),
    ]


def test_seeded_full_games_match_cpython():
    assert match_digest() == EXPECTED_DIGEST


EXPECTED_DECK_1 = [11, 8, 15, 28, 3, 32, 16, 21, 14, 1]
EXPECTED_DIGEST = [
    (635322254, 3117, 0, 268, 0, 28),
    (20792591, 971, 1, 0, 276, 9),
    (261238508, 3460, 1, 253, 557, 31),
]
