"""Helpers for tests: stacked decks and state fingerprints."""

from gin.cards import parse_card, parse_cards


def stacked_deck(nondealer, dealer, upcard, stock_top=""):
    """A deck (top first) that deals exactly these hands, this upcard and these first stock cards."""
    nd = parse_cards(nondealer)
    d = parse_cards(dealer)
    up = parse_card(upcard)
    st = parse_cards(stock_top)
    used = nd + d + [up] + st
    assert len(nd) == 10 and len(d) == 10
    assert len(set(used)) == len(used), "a card is stacked twice"
    deck = []
    for i in range(10):
        deck += [nd[i], d[i]]
    deck.append(up)
    deck += st
    deck += [c for c in range(52) if c not in used]
    return deck


def fingerprint(rnd):
    """Everything that defines a Round's state, for 'nothing changed' checks."""
    return (
        rnd.phase,
        rnd.player,
        tuple(rnd.hands[0]),
        tuple(rnd.hands[1]),
        tuple(rnd.pile),
        rnd.stock_pos,
        rnd.taken,
        rnd.turns,
        bytes(rnd.actions),
        rnd.stock_only,
        tuple(tuple(x) for x in rnd.took),
        tuple(tuple(x) for x in rnd.passed),
        tuple(tuple(x) for x in rnd.threw),
        rnd.knocker,
        rnd.result is None,
    )
