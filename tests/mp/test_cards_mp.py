"""gin.cards on CPython and MicroPython alike: card text round trip and the portable shuffle.

The expected deals were computed once on CPython; MicroPython must deal the very same cards.
"""

from gin.cards import GinError, card_text, parse_card, parse_cards, shuffled_deck

# shuffled_deck(seed)[:10] as computed on CPython 3.11.
EXPECTED_FIRST_TEN = {
    1: [11, 8, 15, 28, 3, 32, 16, 21, 14, 1],  # QC 9C 3D 3H 4C 7H 4D 9D 2D 2C
    2: [2, 14, 24, 27, 33, 49, 17, 29, 44, 7],
}


def test_card_text_round_trip_for_all_52_cards():
    seen = []
    for c in range(52):
        text = card_text(c)
        assert len(text) == 2, text
        assert parse_card(text) == c, (c, text)
        assert parse_card(text.lower()) == c, (c, text)
        seen.append(text)
    assert len(set(seen)) == 52


def test_card_text_examples():
    assert card_text(0) == "AC"
    assert card_text(51) == "KS"
    assert parse_card("10h") == parse_card("TH")
    assert parse_cards("7H, 8H 9H") == [parse_card("7H"), parse_card("8H"), parse_card("9H")]


def test_bad_card_text_raises_gin_error():
    for bad in ("", "1H", "7X", "HH", "7HH", "77"):
        try:
            parse_card(bad)
        except GinError:
            continue
        raise AssertionError("parse_card(%r) did not raise" % bad)


def test_shuffled_deck_is_a_permutation():
    for seed in (0, 1, 7, 12345):
        deck = shuffled_deck(seed)
        assert sorted(deck) == list(range(52)), seed


def test_shuffled_deck_matches_the_cpython_deal():
    for seed in sorted(EXPECTED_FIRST_TEN):
        assert shuffled_deck(seed)[:10] == EXPECTED_FIRST_TEN[seed], seed


def test_shuffled_deck_is_repeatable_and_seed_dependent():
    assert shuffled_deck(99) == shuffled_deck(99)
    assert shuffled_deck(99) != shuffled_deck(100)
