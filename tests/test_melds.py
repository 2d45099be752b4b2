"""The meld engine against plain brute force, plus named rule edge cases.

The brute force below shares nothing with gin.melds: it lists every meld the
cards allow (every 3/4-subset of a rank, every consecutive stretch of 3+ in a
suit) and tries every disjoint combination.  Lay-offs are brute-forced over
every subset of the defender's cards, each card tried on every knocker meld.

Example counts are set by HYPO_SCALE (default 1: the whole file runs in about
a minute on one core); HYPO_SCALE=10 for a long soak.
"""

import itertools
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gin import melds
from gin.cards import RANK_VALUES, GinError, hand_cards, hand_of, parse_cards
from gin.meldtables import GAIN_OFFSET, SUIT

ROOT = Path(__file__).resolve().parent.parent
SCALE = float(os.environ.get("HYPO_SCALE", "1"))


def examples(n: int) -> settings:
    return settings(
        max_examples=max(1, int(n * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# --- brute force --------------------------------------------------------------


def value(cards) -> int:
    return sum(RANK_VALUES[c % 13] for c in cards)


def all_melds(cards) -> list[tuple[int, int]]:
    """Every legal meld inside `cards` as (52-bit card mask, value)."""
    have = set(cards)
    out = []
    for r in range(13):
        same = [s * 13 + r for s in range(4) if s * 13 + r in have]
        for k in (3, 4):
            for combo in itertools.combinations(same, k):
                out.append(combo)
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                run = [s * 13 + r for r in range(lo, hi + 1)]
                if all(c in have for c in run):
                    out.append(tuple(run))
    return [(sum(1 << c for c in m), value(m)) for m in out]


def brute_deadwood(cards) -> int:
    cands = all_melds(cards)
    best = 0

    def search(start: int, used: int, melded: int) -> None:
        nonlocal best
        if melded > best:
            best = melded
        for i in range(start, len(cands)):
            mask, v = cands[i]
            if not mask & used:
                search(i + 1, used | mask, melded + v)

    search(0, 0, 0)
    return value(cards) - best


def discard_values(cards) -> dict[int, int]:
    return {x: brute_deadwood([c for c in cards if c != x]) for x in cards}


def kind(cards) -> str | None:
    """'set' / 'run' / None, written independently of melds.meld_kind."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    if len(cards) <= 4 and len({c % 13 for c in cards}) == 1:
        return "set"
    ranks = sorted(c % 13 for c in cards)
    if len({c // 13 for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards))):
        return "run"
    return None


def layoff_targets(card, knocker_melds) -> list[int]:
    """Knocker melds this card might go on: a run of its suit, a 3-set of its rank."""
    out = []
    for i, m in enumerate(knocker_melds):
        if kind(m) == "run" and m[0] // 13 == card // 13:
            out.append(i)
        if kind(m) == "set" and len(m) == 3 and m[0] % 13 == card % 13:
            out.append(i)
    return out


def legal_layoff_set(cards, knocker_melds) -> bool:
    """Can all of `cards` be laid off together?  Tries every card on every
    meld it might fit; a final meld that is legal can be built inner card
    first, so only the end result is checked."""
    options = [layoff_targets(c, knocker_melds) for c in cards]
    for assign in itertools.product(*options):
        grown = [list(m) for m in knocker_melds]
        for c, i in zip(cards, assign, strict=True):
            grown[i].append(c)
        if all(kind(grown[i]) is not None for i in set(assign)):
            return True
    return False


def brute_layoff(defender_cards, knocker_melds) -> int:
    maybe = [c for c in defender_cards if layoff_targets(c, knocker_melds)]
    best = brute_deadwood(defender_cards)
    for k in range(1, len(maybe) + 1):
        for lay in itertools.combinations(maybe, k):
            if legal_layoff_set(lay, knocker_melds):
                best = min(best, brute_deadwood([c for c in defender_cards if c not in lay]))
    return best


def check_arrangement(cards, ms, dead) -> None:
    used = [c for m in ms for c in m]
    assert sorted(used + dead) == sorted(cards)
    assert len(set(used)) == len(used)
    for m in ms:
        assert m == sorted(m) and kind(m) is not None
    assert dead == sorted(dead)


# --- strategies ----------------------------------------------------------------


def random_cards(n: int):
    return st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)


@st.composite
def rich_cards(draw, n: int):
    """n cards from the 4 * width cards of `width` consecutive ranks (3..5):
    dense in both sets and runs, where the engine has to branch."""
    width = draw(st.integers(3, 5))
    lo = draw(st.integers(0, 13 - width))
    pool = [s * 13 + r for s in range(4) for r in range(lo, lo + width)]
    return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))


# --- deadwood -----------------------------------------------------------------


@examples(7000)
@given(random_cards(10))
def test_deadwood_random_10(cards):
    h = hand_of(cards)
    assert melds.deadwood(h) == brute_deadwood(cards) == melds.deadwood4(*h)


@examples(2000)
@given(rich_cards(10))
def test_deadwood_meld_rich_10(cards):
    h = hand_of(cards)
    assert melds.deadwood(h) == brute_deadwood(cards) == melds.deadwood4(*h)


@examples(500)
@given(st.integers(0, 14).flatmap(random_cards))
def test_deadwood_any_size(cards):
    assert melds.deadwood(hand_of(cards)) == brute_deadwood(cards)


def check_after_discard(cards):
    """The least deadwood after one discard of 11 cards, and the discards reaching it, as brute force says."""
    h = hand_of(cards)
    per = discard_values(cards)
    best = min(per.values())
    assert melds.deadwood_after_discard(h) == best == melds.deadwood_after_discard4(*h)
    assert melds.best_discards(h) == sorted(x for x in cards if per[x] == best)


@examples(3000)
@given(random_cards(11))
def test_after_discard_random_11(cards):
    check_after_discard(cards)


@examples(1500)
@given(rich_cards(11))
def test_after_discard_meld_rich_11(cards):
    check_after_discard(cards)


@examples(300)
@given(
    st.sampled_from([1, 2, 3, 5, 6, 8, 9, 12]).flatmap(lambda n: st.one_of(random_cards(n), rich_cards(n)))
)
def test_after_discard_other_sizes(cards):
    # sizes divisible by 3 take the try-every-discard path
    assert melds.deadwood_after_discard(hand_of(cards)) == min(discard_values(cards).values())


# --- arrangements --------------------------------------------------------------


def brute_min_arrangements(cards):
    """Every least-deadwood arrangement, canonical: runs merged per suit into
    maximal segments of the meld cards."""
    cands = all_melds(cards)
    target = brute_deadwood(cards)
    found = set()

    def canon(chosen):
        sets = [tuple(sorted(c for c in range(52) if m >> c & 1)) for m in chosen]
        sets = [m for m in sets if kind(m) == "set"]
        run_cards = sorted(
            c for m in chosen for c in range(52) if m >> c & 1 and not any(c in s for s in sets)
        )
        runs = []
        for c in run_cards:
            if runs and runs[-1][-1] + 1 == c and c % 13:
                runs[-1].append(c)
            else:
                runs.append([c])
        return frozenset(sets + [tuple(r) for r in runs])

    def search(start, used, chosen, melded):
        if value(cards) - melded == target:
            found.add(canon(chosen))
        for i in range(start, len(cands)):
            mask, v = cands[i]
            if not mask & used:
                search(i + 1, used | mask, chosen + [mask], melded + v)

    search(0, 0, [], 0)
    return found


@examples(1000)
@given(st.one_of(random_cards(10), rich_cards(10), rich_cards(11)))
def test_arrangement_is_minimal_and_valid(cards):
    h = hand_of(cards)
    ms, dead = melds.arrangement(h)
    check_arrangement(cards, ms, dead)
    assert value(dead) == melds.deadwood(h)
    assert (ms, dead) == melds.min_arrangements(h)[0]


@examples(600)
@given(st.one_of(rich_cards(10), rich_cards(11), random_cards(10)))
def test_min_arrangements_are_all_the_minimal_ones(cards):
    h = hand_of(cards)
    arrs = melds.min_arrangements(h, limit=1000)
    for ms, dead in arrs:
        check_arrangement(cards, ms, dead)
        assert value(dead) == melds.deadwood(h)
    got = {frozenset(tuple(m) for m in ms) for ms, _ in arrs}
    assert len(got) == len(arrs)
    assert got == brute_min_arrangements(cards)
    keys = [(len(dead), dead, ms) for ms, dead in arrs]
    assert keys == sorted(keys)
    assert melds.min_arrangements(h, limit=2) == arrs[:2]


# --- lay-offs ------------------------------------------------------------------


def split_runs(knocker_melds, cut):
    """Present long runs in pieces sometimes: lay-offs must not care."""
    out = []
    for m in knocker_melds:
        if cut and len(m) >= 6 and kind(m) == "run":
            out += [m[:3], m[3:]]
        else:
            out.append(m)
    return out


def check_layoff_result(defender_cards, knocker_melds, result):
    dv, dmelds, lays, dead = result
    laid = [c for c, _ in lays]
    check_arrangement([c for c in defender_cards if c not in laid], dmelds, dead)
    assert dv == value(dead)
    grown = [list(m) for m in knocker_melds]
    for c, i in lays:  # in the order given, each card must extend its meld
        grown[i].append(c)
        assert kind(grown[i]) is not None, (c, i, grown[i])


@st.composite
def knock_deals(draw):
    width = draw(st.integers(4, 7))
    lo = draw(st.integers(0, 13 - width))
    pool = [s * 13 + r for s in range(4) for r in range(lo, lo + width)]
    cards = draw(st.permutations(pool))
    n_def = draw(st.integers(4, 10))
    return cards[:10], cards[10 : 10 + n_def], draw(st.booleans()), draw(st.integers(0, 15))


@examples(700)
@given(knock_deals())
def test_layoff_matches_brute_force(deal):
    knocker, defender, cut, pick = deal
    arrs = melds.min_arrangements(hand_of(knocker))
    km = split_runs(arrs[pick % len(arrs)][0], cut)
    result = melds.layoff(hand_of(defender), km)
    assert result[0] == brute_layoff(defender, km)
    check_layoff_result(defender, km, result)


# --- tables ----------------------------------------------------------------------


def test_tables_are_generated_and_current():
    r = subprocess.run([sys.executable, "-m", "host_tools.gen.meldtables", "--check"], cwd=ROOT)
    assert r.returncode == 0


def run_dw(m):
    return SUIT[m & 511] + SUIT[m >> 5 | 512]


def discard_gain(m):
    return max(SUIT[m & 1023 | 1024], SUIT[m >> 2 | 2048])


def test_run_table_matches_a_rank_by_rank_dp():
    # best[i] = least deadwood of ranks < i, each rank either deadwood or the
    # top of a run of 3+ ending there
    for m in range(8192):
        best = [0] * 14
        for i in range(1, 14):
            r = i - 1
            best[i] = best[i - 1] + (RANK_VALUES[r] if m >> r & 1 else 0)
            k = i
            while k > 0 and m >> (k - 1) & 1:
                if i - k + 1 >= 3:
                    best[i] = min(best[i], best[k - 1])
                k -= 1
        assert run_dw(m) == best[13], m
    for m in range(1, 8192):
        drops = [run_dw(m & ~(1 << r)) for r in range(13) if m >> r & 1]
        assert discard_gain(m) - GAIN_OFFSET == run_dw(m) - min(drops), m
    assert discard_gain(0) < min(discard_gain(m) for m in range(1, 8192))


def test_the_suit_table_is_4_kb_and_its_gap_unused():
    # the point of splitting each suit in halves: 4 KB of the Pico's heap, not 16
    assert len(SUIT) == 4096
    assert not any(SUIT[768:1024])


# --- device frames ---------------------------------------------------------------

_FRAMES = """
import micropython
from gin import melds
from gin.meldtables import SUIT


class Probe:
    # a stand-in table that notes the pystack depth while a function indexes it
    def __init__(self, t):
        self.t = t
        self.seen = 0

    def __getitem__(self, i):
        self.seen = micropython.pystack_use()
        return self.t[i]


def r11(x0, x1, x2, x3, x4, x5, x6, x7, _t):  # 9 locals + 2 stack = 11 words
    return _t[0]


def r12(x0, x1, x2, x3, x4, x5, x6, x7, x8, _t):  # 12 words
    return _t[0]


h = [7, 8, 16, 32]  # no rank held 3 times: the common path
probes = [Probe(SUIT) for _ in range(6)]
r11(0, 0, 0, 0, 0, 0, 0, 0, probes[0])
r12(0, 0, 0, 0, 0, 0, 0, 0, 0, probes[1])
melds.deadwood(h, probes[2])
melds.deadwood4(7, 8, 16, 32, probes[3])
melds.deadwood_after_discard(h, probes[4])
melds.deadwood_after_discard4(7, 8, 16, 32, probes[5])
print(" ".join([str(x.seen) for x in probes]))
"""


def test_entry_frames_fit_on_the_c_stack():
    # MicroPython without a pystack (the rp2 port) heap-allocates any frame over
    # 11 words at every call.  The wasm port has a pystack, so read the frame
    # sizes off it: each entry point must use no more than an 11-word reference.
    from host_tools.micropython.runner import run

    at11, at12, *entries = (int(x) for x in run(_FRAMES).split())
    assert at12 > at11  # the probe tells 11 words from 12
    assert entries and all(e <= at11 for e in entries), (at11, entries)


# --- named edge cases --------------------------------------------------------------


def h(text):
    return hand_of(text)


def c(text):
    """Card ids, ascending (the engine's order for melds and deadwood)."""
    return sorted(parse_cards(text))


def test_ace_two_three_is_a_run():
    assert melds.meld_kind(c("AH 2H 3H")) == "run"
    assert melds.meld_kind(parse_cards("3H AH 2H")) == "run"
    assert melds.deadwood(h("AH 2H 3H")) == 0


def test_no_wrap_around_the_king():
    assert melds.meld_kind(c("QH KH AH")) is None
    assert melds.meld_kind(c("KH AH 2H")) is None
    assert melds.deadwood(h("QH KH AH")) == 21
    assert melds.deadwood(h("KH AH 2H")) == 13
    assert melds.deadwood(h("JH QH KH")) == 0


def test_meld_kind_rejects_non_melds():
    assert melds.meld_kind(c("7C 7D 7H 7S")) == "set"
    assert melds.meld_kind(c("7C 7D 7H")) == "set"
    assert melds.meld_kind(c("7C 7D")) is None
    assert melds.meld_kind([20, 20, 20]) is None  # the same card thrice
    assert melds.meld_kind(c("4H 5H 7H")) is None  # a gap
    assert melds.meld_kind(c("4H 5H 6D")) is None  # two suits
    assert melds.meld_kind(c("4H 5H 6H 7H 8H 9H TH JH QH KH")) == "run"
    assert not melds.is_meld(c("5S 6S"))


def test_four_set_against_the_run_through_it():
    # 7♠7♥7♦7♣ 8♥ 9♥: the 4-set would strand 8♥ 9♥ (17); 7♣7♦7♠ + 7♥8♥9♥ is gin
    hand = h("7S 7H 7D 7C 8H 9H")
    assert melds.deadwood(hand) == 0
    assert melds.arrangement(hand) == ([c("7C 7D 7S"), c("7H 8H 9H")], [])
    assert melds.min_arrangements(hand) == [([c("7C 7D 7S"), c("7H 8H 9H")], [])]


def test_best_discard_is_not_the_highest_deadwood_card():
    # As 11 cards the best is 4♣4♦4♥, A♦2♦3♦, A♥2♥3♥ with A♣ A♠ left over, so
    # "drop the highest deadwood card" keeps 1.  Discarding the melded 4♣ is
    # right: 2♦3♦4♦, 2♥3♥4♥ and A♣A♦A♥A♠ leave nothing.
    hand = h("AC AD AH AS 2D 2H 3D 3H 4C 4D 4H")
    assert melds.arrangement(hand) == ([c("4C 4D 4H"), c("AD 2D 3D"), c("AH 2H 3H")], c("AC AS"))
    assert melds.deadwood_after_discard(hand) == 0
    assert melds.best_discards(hand) == c("4C")


def test_tie_break_prefers_fewer_then_lower_deadwood_cards():
    # 8♣8♦8♥ 7♥ 9♥: the set strands 7♥ 9♥ (16), the run strands 8♣ 8♦ (16)
    hand = h("8C 8D 8H 7H 9H")
    arrs = melds.min_arrangements(hand)
    assert arrs == [([c("7H 8H 9H")], c("8C 8D")), ([c("8C 8D 8H")], c("7H 9H"))]
    assert melds.arrangement(hand) == arrs[0]


def test_gin_eleven_all_melded():
    hand = h("AC AD AH AS 2C 3C 4C 5C 9S TS JS")
    assert melds.deadwood(hand) == 0
    assert melds.deadwood_after_discard(hand) == 0


def test_empty_and_tiny_hands():
    assert melds.deadwood([0, 0, 0, 0]) == 0
    assert melds.deadwood(h("KS")) == 10
    assert melds.deadwood_after_discard(h("KS")) == 0
    assert melds.deadwood_after_discard(h("KS AC")) == 1
    assert melds.arrangement([0, 0, 0, 0]) == ([], [])


def test_layoff_chain_onto_a_run():
    # 7♥ then 8♥ onto the knocker's 4-5-6♥: the 7 must go first
    km = [c("4H 5H 6H"), c("KC KD KS")]
    dv, dmelds, lays, dead = melds.layoff(h("7H 8H 2C 9S"), km)
    assert lays == [(c("7H")[0], 0), (c("8H")[0], 0)]
    assert dv == 11 and dead == c("2C 9S") and dmelds == []


def test_layoff_chains_at_both_ends_and_onto_a_set():
    km = [c("5D 6D 7D"), c("QC QH QS")]
    dv, dmelds, lays, dead = melds.layoff(h("3D 4D 8D QD 2S"), km)
    assert lays == [(c("4D")[0], 0), (c("3D")[0], 0), (c("8D")[0], 0), (c("QD")[0], 1)]
    assert dv == 2 and dead == c("2S")


def test_a_card_better_laid_off_than_in_own_meld():
    # Alone, the defender's best is 4♠5♠6♠ with 4♣ 4♦ 7♣ left (15).  Laying 6♠ on
    # the knocker's 6-set frees 4♠ for 4♣4♦4♠, leaving 5♠ 7♣ (12).
    km = [c("3C 3D 3H"), c("6C 6D 6H")]
    defender = h("4C 4D 4S 5S 6S 7C")
    assert melds.arrangement(defender) == ([c("4S 5S 6S")], c("4C 4D 7C"))
    dv, dmelds, lays, dead = melds.layoff(defender, km)
    assert dv == 12
    assert lays == [(c("6S")[0], 1)]
    assert dmelds == [c("4C 4D 4S")] and dead == c("5S 7C")


def test_the_fourth_card_goes_where_the_chain_continues():
    # 7♥ fits the knocker's 7-set and his 4-5-6♥; only on the run can 8♥ follow
    km = [c("7C 7D 7S"), c("4H 5H 6H")]
    dv, _, lays, dead = melds.layoff(h("7H 8H KC"), km)
    assert dv == 10 and lays == [(c("7H")[0], 1), (c("8H")[0], 1)] and dead == c("KC")


def test_nothing_is_laid_off_on_deadwood():
    # the knocker kept 5♠ 6♠ as deadwood: the defender's 7♠ has nowhere to go
    km = [c("9C 9D 9H 9S"), c("AH 2H 3H")]
    dv, dmelds, lays, dead = melds.layoff(h("7S 4S KH"), km)
    assert lays == [] and dv == 21 and dead == c("7S 4S KH") and dmelds == []
    # and deadwood can't be passed off as a meld
    try:
        melds.layoff(h("7S"), [c("5S 6S")])
    except GinError:
        pass
    else:
        raise AssertionError("a 2-card 'meld' was accepted")


def test_no_layoff_past_the_ends_of_the_suit():
    km = [c("AS 2S 3S"), c("JD QD KD")]
    dv, _, lays, _ = melds.layoff(h("4S KS TD AD"), km)
    assert lays == [(c("4S")[0], 0), (c("TD")[0], 1)]
    assert dv == 11  # K♠ and A♦ stay


def test_a_card_between_two_runs_is_laid_once():
    km = [c("2H 3H 4H"), c("6H 7H 8H")]
    dv, _, lays, dead = melds.layoff(h("5H 9H"), km)
    assert dv == 0 and [x for x, _ in lays] == c("5H 9H") and dead == []


def test_hand_cards_round_trip_of_arrangement():
    hand = h("5H 6H 7H 8H 9C 9D 9S 2C 3C KD")
    ms, dead = melds.arrangement(hand)
    assert sorted([x for m in ms for x in m] + dead) == hand_cards(hand)
    assert ms == [c("9C 9D 9S"), c("5H 6H 7H 8H")] and dead == c("2C 3C KD")
