"""The computer players under MicroPython: every level plays seeded hands
legally and makes exactly the decisions it makes on CPython.

The expected action lists were computed on CPython (see _play); MicroPython
must reproduce them action for action.
"""

from gin import rules as gin_rules
from gin.ai import hint as ai_hint
from gin.ai import make_player
from gin.round import OVER, Round
from ui.hintwords import card_name, reason


def hint(obs, expert=False):
    """gin.ai.hint with its reason in the words the message line shows."""
    a, facts = ai_hint(obs, expert)
    return a, reason(a, facts)


def _play(level_a, level_b, seed, rules):
    """One hand: level_a in seat 0, level_b in seat 1, dealer seed % 2."""
    rnd = Round(rules, seed % 2, seed)
    players = (make_player(level_a, seed), make_player(level_b, seed + 1))
    actions = []
    while rnd.phase != OVER:
        p = rnd.player
        obs = rnd.observation(p)
        a = players[p].choose(obs)
        assert a in obs.legal, (level_a, level_b, seed, a)
        rnd.apply(a)
        actions.append(a)
    return actions


def _cases():
    classic = gin_rules.RuleSet()
    modern_ok = gin_rules.RuleSet.preset_rules("modern", oklahoma=True)
    return [
        ("hard", "baseline", 11, classic),
        ("baseline", "hard", 12, modern_ok),
        ("normal", "easy", 13, classic),
        ("easy", "normal", 14, modern_ok),
        ("hard", "normal", 15, gin_rules.RuleSet(straight=True)),
        ("easy", "baseline", 16, gin_rules.RuleSet(gin_forced=True, big_gin=True)),
        ("hard", "hard", 17, classic),
        ("normal", "baseline", 18, gin_rules.RuleSet(upcard_offer=gin_rules.OFFER_DEALER_PLAYS)),
        ("expert", "hard", 19, classic),
        ("hard", "expert", 20, modern_ok),
        ("expert", "normal", 23, gin_rules.RuleSet(gin_forced=True, big_gin=True, oklahoma=True)),
        ("baseline", "expert", 24, gin_rules.RuleSet(straight=True, hollywood=True)),
        (
            "expert",
            "expert",
            25,
            gin_rules.RuleSet.preset_rules("20/25", oklahoma=True, oklahoma_spade_double=True),
        ),
    ]


def test_levels_play_the_cpython_hands():
    cases = _cases()
    for i in range(len(cases)):
        a, b, seed, rules = cases[i]
        got = _play(a, b, seed, rules)
        assert got == EXPECTED[i], (a, b, seed, got)


def test_expert_allocates_little_and_keeps_nothing():
    """Under MicroPython (gc off): at most 8 KB allocated per expert decision
    over a whole match.  CPython has no gc.mem_alloc: the match is still
    played, legally.  (That the player keeps nothing is checked on CPython in
    tests/test_ai_expert.py: this port's gc.collect() frees nothing until the
    run ends, so the live heap can't be compared here.)"""
    import gc

    from gin.match import GAME_OVER, HAND_OVER, Match

    measure = hasattr(gc, "mem_alloc")
    players = (make_player("expert", 3), make_player("hard", 4))
    m = Match(gin_rules.RuleSet(target=40), 77)
    worst = 0
    decisions = 0
    # a Match's usual turn loop (also in host_tools/bench/ai.py, on purpose: see there)
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
            continue
        p = m.round.player
        obs = m.observation(p)
        if p == 0 and measure:
            gc.collect()
            gc.disable()
            m0 = gc.mem_alloc()
            a = players[0].choose(obs)
            used = gc.mem_alloc() - m0
            gc.enable()
            if used > worst:
                worst = used
            decisions += 1
        else:
            a = players[p].choose(obs)
        assert a in obs.legal
        m.apply(a)
    if measure:
        assert decisions > 20
        assert worst <= 8192, worst


def test_hint_words_match_cpython():
    rnd = Round(gin_rules.RuleSet(), 0, 21)
    got = []
    while rnd.phase != OVER and len(got) < 12:
        obs = rnd.observation(rnd.player)
        a, why = hint(obs)
        assert a in obs.legal
        got.append(why)
        rnd.apply(a)
    assert got == EXPECTED_HINTS, got


def test_card_names():
    assert card_name(9) == "10\u2663"
    assert card_name(25) == "K\u2666"
    assert card_name(39) == "A\u2660"


# Computed on CPython by playing _cases() and the hint loop above.
# fmt: off
EXPECTED = [
    [105, 12, 104, 48, 105, 36, 104, 23, 104, 50, 104, 49, 104, 43, 104, 37, 104, 45, 104, 22, 105, 4, 105, 8, 104, 18, 104, 57],
    [106, 106, 104, 51, 104, 22, 105, 47, 104, 50, 104, 19, 105, 8, 104, 11, 104, 38, 104, 43, 105, 68],
    [106, 106, 104, 35, 104, 11, 104, 50, 104, 22, 104, 9, 104, 6, 104, 12, 104, 24, 104, 25, 104, 51, 104, 21, 104, 18, 104, 47, 104, 69],
    [106, 105, 9, 104, 35, 104, 48, 104, 24, 104, 73],
    [106, 106, 104, 11, 104, 12, 104, 34, 104, 37, 104, 33, 104, 35, 104, 46, 104, 22, 104, 24, 104, 10, 104, 5, 104, 48, 104, 18, 104, 50, 104, 17, 105, 8, 104, 21, 104, 36, 104, 38, 104, 7, 104, 51, 104, 20, 104, 23, 104, 47, 104, 40, 105, 32, 105, 79],
    [106, 106, 104, 9, 104, 23, 104, 12, 104, 11, 104, 35, 104, 47, 104, 24, 104, 8, 104, 49, 104, 20, 104, 34, 104, 33, 104, 98],
    [105, 12, 104, 25, 104, 8, 104, 48, 105, 30, 105, 5, 105, 68],
    [106, 104, 25, 104, 22, 104, 23, 104, 9, 104, 36, 104, 10, 104, 51, 104, 43, 105, 47, 104, 38, 104, 33, 104, 34, 104, 70],
    [106, 105, 20, 104, 22, 104, 37, 104, 46, 104, 45, 104, 32, 104, 6, 104, 24, 104, 49, 104, 5, 104, 48, 104, 31, 104, 19, 104, 3, 105, 18, 104, 35, 104, 23, 104, 17, 104, 36, 104, 33, 104, 43, 104, 42, 105, 53],
    [106, 106, 104, 25, 104, 21, 104, 34, 105, 51, 104, 6, 104, 50, 104, 7, 104, 8, 104, 46, 104, 5, 104, 48, 104, 69],
    [106, 106, 104, 38, 104, 10, 104, 51, 104, 34, 104, 37, 104, 20, 104, 22, 104, 50, 104, 48, 104, 8, 104, 19, 104, 7, 104, 67],
    [105, 33, 105, 25, 104, 21, 104, 48, 105, 18, 104, 11, 104, 8, 104, 50, 104, 47, 104, 37, 104, 12, 104, 51, 104, 7, 105, 45, 104, 5, 104, 24, 104, 78],
    [105, 33, 105, 12, 105, 45, 104, 51, 104, 36, 104, 24, 104, 7, 104, 6, 104, 17, 104, 8, 104, 46, 105, 67],
]
EXPECTED_HINTS = [
    'take 3♣: deadwood down to 38',
    'discard J♥: keeps 38 deadwood (they may want it)',
    "draw: J♥ doesn't help enough",
    'discard 9♠: 47 deadwood, more ways to meld',
    "draw: 9♠ doesn't help enough",
    'discard K♠: keeps 28 deadwood and looks safe',
    "draw: K♠ doesn't help enough",
    'discard K♦: keeps 45 deadwood and looks safe',
    "draw: K♦ doesn't help enough",
    'discard K♣: keeps 25 deadwood and looks safe',
    "draw: K♣ doesn't help enough",
    'discard 10♦: keeps 45 deadwood (they may want it)',
]
# fmt: on
