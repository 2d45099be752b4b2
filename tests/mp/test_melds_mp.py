"""Meld-engine checks that run unchanged on CPython and on MicroPython.

Plain functions and bare asserts.  The pseudo-random part deals from a
small seeded generator, so both interpreters see the same hands, and compares
the engine with a small brute force written here.
"""

import gc

from gin import melds
from gin.cards import RANK_VALUES, GinError, cards_value, hand_of, parse_cards


def _c(text):
    return sorted(parse_cards(text))


def _brute(cards):
    """Least deadwood: every meld as a bitmask over positions in `cards`
    (at most 2**12, a small int everywhere), then every disjoint pick.
    Lean on purpose: the wasm port only collects garbage between runs."""
    idx = [-1] * 52
    for i in range(len(cards)):
        idx[cards[i]] = i
    flat = []  # meld bits, meld value, meld bits, meld value, ...
    for r in range(13):
        have = 0
        n = 0
        for s in range(4):
            if idx[s * 13 + r] >= 0:
                have |= 1 << idx[s * 13 + r]
                n += 1
        if n >= 3:
            flat.append(have)
            flat.append(n * RANK_VALUES[r])
        if n == 4:
            for s in range(4):
                flat.append(have ^ (1 << idx[s * 13 + r]))
                flat.append(3 * RANK_VALUES[r])
    for s in range(4):
        for lo in range(11):
            bits = 0
            v = 0
            hi = lo
            while hi < 13 and idx[s * 13 + hi] >= 0:
                bits |= 1 << idx[s * 13 + hi]
                v += RANK_VALUES[hi]
                if hi - lo >= 2:
                    flat.append(bits)
                    flat.append(v)
                hi += 1
    return cards_value(cards) - _most_melded(flat, 0, 0, 0)


def _most_melded(flat, start, used, melded):
    best = melded
    i = start
    while i < len(flat):
        if not flat[i] & used:
            x = _most_melded(flat, i + 2, used | flat[i], melded + flat[i + 1])
            if x > best:
                best = x
        i += 2
    return best


def _hand(cards):
    h = [0, 0, 0, 0]
    for x in cards:
        h[x // 13] |= 1 << (x % 13)
    return h


class _Lcg:
    """The ZX81 generator: every value below 2**17, so no bignums (and no
    heap) on MicroPython, where cards.Rng's 32-bit steps allocate."""

    def __init__(self, seed):
        self.x = seed % 65537

    def below(self, n):
        self.x = (self.x * 75 + 74) % 65537
        return self.x % n


def _deal(rng, n, rich):
    if rich:
        lo = rng.below(9)
        pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 5)]
    else:
        pool = list(range(52))
    for i in range(n):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:n]


def test_seeded_deadwood_against_brute_force():
    rng = _Lcg(2024)
    for i in range(300):
        cards = _deal(rng, 10, i % 2 == 0)
        h = _hand(cards)
        assert melds.deadwood(h) == _brute(cards), cards
        assert melds.deadwood4(h[0], h[1], h[2], h[3]) == _brute(cards)


def test_seeded_after_discard_against_brute_force():
    rng = _Lcg(77)
    for i in range(60):
        cards = _deal(rng, 11, i % 2 == 0)
        h = _hand(cards)
        per = [_brute([x for x in cards if x != d]) for d in cards]
        best = min(per)
        assert melds.deadwood_after_discard(h) == best, cards
        assert melds.deadwood_after_discard4(h[0], h[1], h[2], h[3]) == best
        assert melds.best_discards(h) == sorted([cards[k] for k in range(11) if per[k] == best])


def test_seeded_arrangements_are_minimal():
    rng = _Lcg(5)
    for _ in range(40):
        cards = _deal(rng, 10, True)
        h = _hand(cards)
        best = melds.deadwood(h)
        arrs = melds.min_arrangements(h)
        assert arrs[0] == melds.arrangement(h)
        for ms, dead in arrs:
            assert cards_value(dead) == best
            used = []
            for m in ms:
                assert melds.is_meld(m)
                used += m
            assert sorted(used + dead) == sorted(cards)


def test_runs_ace_low_no_wrap():
    assert melds.meld_kind(_c("AH 2H 3H")) == "run"
    assert melds.meld_kind(_c("QH KH AH")) is None
    assert melds.meld_kind(_c("KH AH 2H")) is None
    assert melds.meld_kind(_c("7C 7D 7S")) == "set"
    assert melds.deadwood(hand_of("QH KH AH")) == 21
    assert melds.deadwood(hand_of("AH 2H 3H")) == 0


def test_four_set_against_the_run_through_it():
    h = hand_of("7S 7H 7D 7C 8H 9H")
    assert melds.deadwood(h) == 0
    assert melds.arrangement(h) == ([_c("7C 7D 7S"), _c("7H 8H 9H")], [])


def test_best_discard_can_be_a_melded_card():
    h = hand_of("AC AD AH AS 2D 2H 3D 3H 4C 4D 4H")
    assert cards_value(melds.arrangement(h)[1]) == 2
    assert melds.deadwood_after_discard(h) == 0
    assert melds.best_discards(h) == _c("4C")


def test_layoff_chain_and_better_than_own_meld():
    dv, dm, lays, dead = melds.layoff(hand_of("7H 8H 2C 9S"), [_c("4H 5H 6H"), _c("KC KD KS")])
    assert lays == [(_c("7H")[0], 0), (_c("8H")[0], 0)] and dv == 11
    dv, dm, lays, dead = melds.layoff(hand_of("4C 4D 4S 5S 6S 7C"), [_c("3C 3D 3H"), _c("6C 6D 6H")])
    assert dv == 12 and lays == [(_c("6S")[0], 1)] and dm == [_c("4C 4D 4S")]


def test_nothing_laid_on_deadwood():
    dv, dm, lays, dead = melds.layoff(hand_of("7S 4S KH"), [_c("9C 9D 9H 9S"), _c("AH 2H 3H")])
    assert lays == [] and dv == 21
    raised = False
    try:
        melds.layoff(hand_of("7S"), [_c("5S 6S")])
    except GinError:
        raised = True
    assert raised


def test_hot_path_results_and_no_allocation():
    rng = _Lcg(9)
    hands = []
    for i in range(60):
        hands.append(_hand(_deal(rng, 10 + i % 2, i % 3 != 0)))
    for h in hands:
        cards = _cards(h)
        assert melds.deadwood(h) == _brute(cards)
        if len(cards) == 11:
            assert melds.deadwood_after_discard(h) == min(
                [_brute([x for x in cards if x != d]) for d in cards]
            )
    if hasattr(gc, "mem_alloc"):  # MicroPython: the calls must not touch the heap
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc()
            _hot_loop(hands)
            after = gc.mem_alloc()
        finally:
            gc.enable()
        assert after == before, after - before


def _cards(h):
    out = []
    for s in range(4):
        for r in range(13):
            if h[s] >> r & 1:
                out.append(s * 13 + r)
    return out


def _hot_loop(hands):
    dw = melds.deadwood
    da = melds.deadwood_after_discard
    d4 = melds.deadwood4
    a4 = melds.deadwood_after_discard4
    for _ in range(3):
        for h in hands:
            dw(h)
            da(h)
            d4(h[0], h[1], h[2], h[3])
            a4(h[0], h[1], h[2], h[3])
