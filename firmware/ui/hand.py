"""Where the cards of a hand go on screen: meld groups, sort order, x positions.

Pure logic (no canvas): the table and the result screens share it, and the
tests check it directly.
"""

from gin.melds import arrangement

BY_SUIT = 0
BY_RANK = 1

SCREEN_W = 128
CARD_W = 11


def _key(c, sort):
    # suit order clubs, diamonds, hearts, spades; rank ace low
    if sort == BY_RANK:
        return (c % 13) * 4 + c // 13
    return c


def _sorted(cards, sort):
    return sorted(cards, key=lambda c: _key(c, sort))


def groups_of(melds_list, deadwood, sort):
    """[(cards, is_meld)] in display order: melds first, then the deadwood."""
    out = []
    ms = []
    for m in melds_list:
        ms.append(sorted(m))  # ascending ids: a run by rank, a set by suit
    ms.sort(key=lambda m: _key(m[0], sort))
    for m in ms:
        out.append((m, True))
    if deadwood:
        out.append((_sorted(deadwood, sort), False))
    return out


def hand_groups(h, sort):
    """Groups of a hand (four suit masks) arranged to the least deadwood."""
    ms, dw = arrangement(h)
    return groups_of(ms, dw, sort)


def flatten(groups):
    out = []
    for g, _m in groups:
        out.extend(g)
    return out


def place(groups, width=SCREEN_W, card_w=CARD_W, max_step=11, gap=3):
    """(x of each card in display order, step) so the row fits ``width``.

    Cards overlap (step < card width) only as much as needed; meld groups keep
    a gap between them so they read as groups.
    """
    n = 0
    for g, _m in groups:
        n += len(g)
    if n == 0:
        return [], max_step
    ng = len(groups)
    step = max_step
    while step > 6:
        total = step * (n - 1) + card_w + gap * (ng - 1)
        if total <= width:
            break
        step -= 1
    if step * (n - 1) + card_w + gap * (ng - 1) > width:
        gap = 1
    total = step * (n - 1) + card_w + gap * (ng - 1)
    x = (width - total) // 2
    xs = []
    for gi in range(ng):
        if gi:
            x += gap
        for _c in groups[gi][0]:
            xs.append(x)
            x += step
    return xs, step
