"""Cards, hands as per-suit bitmasks, card text, and a portable PRNG.

A card is an int 0..51: ``suit * 13 + rank`` with rank 0 = ace, 12 = king and
suits in the order clubs, diamonds, hearts, spades.  A hand is a list of four
13-bit masks, one per suit, so every hot-path int stays far below 2**30 (on
the RP2040 larger ints are heap-allocated bignums).
"""

SUITS = "CDHS"
RANKS = "A23456789TJQK"
SUIT_GLYPHS = "\u2663\u2666\u2665\u2660"  # ♣ ♦ ♥ ♠, for terminals and docs

# Deadwood value by rank: A = 1, 2..10 = pips, J Q K = 10.
RANK_VALUES = b"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0a\x0a\x0a"


class GinError(ValueError):
    """The one exception of the rules core: bad card text or an illegal move.

    Its message is meant for a person and fits on one line of the screen.
    """


def value_of(card):
    return RANK_VALUES[card % 13]


def cards_value(cards):
    """The points of these cards as deadwood: aces 1, number cards their number, faces 10."""
    t = 0
    for c in cards:
        t += RANK_VALUES[c % 13]
    return t


def card_text(card):
    """``7H``, ``TS``, ``AC``: rank letter then suit letter."""
    return RANKS[card % 13] + SUITS[card // 13]


def cards_text(cards):
    return " ".join([card_text(c) for c in cards])


def parse_card(text):
    """Parse ``7H``, ``10h``, ``T♠`` and the like; raise GinError on bad text."""
    if not isinstance(text, str):
        raise GinError("a card is text like 7H, not %r" % (text,))
    t = text.strip().upper()
    if len(t) < 2 or len(t) > 3:
        raise GinError("bad card %r: write rank then suit, like 7H or TS" % text)
    r, s = t[:-1], t[-1]
    if r == "10":
        r = "T"
    if len(r) != 1 or RANKS.find(r) < 0:
        raise GinError("bad card %r: rank must be one of A23456789TJQK" % text)
    suit = SUITS.find(s)
    if suit < 0:
        suit = SUIT_GLYPHS.find(s)
        if suit < 0:
            suit = "\u2667\u2662\u2661\u2664".find(s)  # outline glyphs ♧ ♢ ♡ ♤
    if suit < 0:
        raise GinError("bad card %r: suit must be one of C D H S" % text)
    return suit * 13 + RANKS.find(r)


def parse_cards(text):
    """Parse space- or comma-separated cards; duplicates are refused."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    cards = []
    seen = [0, 0, 0, 0]
    for p in parts:
        c = p if isinstance(p, int) else parse_card(p)
        if not 0 <= c < 52:
            raise GinError("bad card id %r: ids are 0..51" % (c,))
        bit = 1 << (c % 13)
        if seen[c // 13] & bit:
            raise GinError("duplicate card %s" % card_text(c))
        seen[c // 13] |= bit
        cards.append(c)
    return cards


# --- hands as four suit masks ------------------------------------------------


def hand_of(cards):
    """A hand (four suit masks) from card ids or card text; refuses duplicates."""
    h = [0, 0, 0, 0]
    for c in parse_cards(cards):
        h[c // 13] |= 1 << (c % 13)
    return h


def hand_has(h, card):
    return (h[card // 13] >> (card % 13)) & 1 == 1


def hand_cards(h):
    """Card ids of a hand, ascending (by suit, then rank)."""
    out = []
    for s in range(4):
        m = h[s]
        r = 0
        while m:
            if m & 1:
                out.append(s * 13 + r)
            m >>= 1
            r += 1
    return out


# --- portable PRNG -----------------------------------------------------------
# xorshift32: the same numbers on CPython and MicroPython, so one seed deals the
# same cards everywhere.  The 32-bit state is kept as two 16-bit halves and
# every intermediate stays below 2**30: on the RP2040 a larger int is a heap
# bignum, and a deal with whole 32-bit words allocated about 45 KB of garbage.
# The numbers are exactly xorshift32's (tests pin them), so every seed deals
# what it always dealt and saved games replay unchanged.

_M16 = 0xFFFF


def _mul16(h, lw, k):
    """(h, lw) * k mod 2**32 for a 16-bit k, in halves (products stay below 2**24)."""
    kh = k >> 8
    kl = k & 0xFF
    b = lw * kh
    lo = lw * kl + ((b & 0xFF) << 8)
    hi = ((b >> 8) + (lo >> 16) + h * kl + ((h * kh & 0xFF) << 8)) & _M16
    return hi, lo & _M16


def _add(h, lw, h2, lw2):
    lo = lw + lw2
    return (h + h2 + (lo >> 16)) & _M16, lo & _M16


def _xorshift(h, lw):
    # x ^= x << 13; x ^= x >> 17; x ^= x << 5 (mod 2**32), on the halves
    h ^= ((h << 13) | (lw >> 3)) & _M16
    lw ^= (lw << 13) & _M16
    lw ^= h >> 1
    h ^= ((h << 5) | (lw >> 11)) & _M16
    lw ^= (lw << 5) & _M16
    return h, lw


def _mix(seed, salt):
    """mix_seed's value as (high, low) 16-bit halves."""
    h, lw = _mul16((seed >> 16) & _M16, seed & _M16, 0x9E37)
    h2, lw2 = _mul16((salt >> 16) & _M16, salt & _M16, 0x85EB)
    h, lw = _add(h, lw, h2, lw2)
    h, lw = _add(h, lw, 0, 0x6A09)
    for _ in range(3):
        h, lw = _xorshift(h, lw)
        h, lw = _add(h, lw, 0x2545, 0xF491)
    if h == 0 and lw == 0:
        return 0x123, 0x4567
    return h, lw


def mix_seed(seed, salt=0):
    """Derive a well-spread nonzero 32-bit seed from any int and a salt."""
    h, lw = _mix(seed, salt)
    return (h << 16) | lw


class Rng:
    __slots__ = ("hi", "lo")

    def __init__(self, seed):
        self.hi, self.lo = _mix(seed, 0)

    @property
    def state(self):
        """The 32-bit xorshift state (a bignum on the RP2040: for tests and tools)."""
        return (self.hi << 16) | self.lo

    def _step(self):
        # _xorshift inlined: a returned tuple would be heap garbage on every number
        h = self.hi
        lw = self.lo
        h ^= ((h << 13) | (lw >> 3)) & _M16
        lw ^= (lw << 13) & _M16
        lw ^= h >> 1
        h ^= ((h << 5) | (lw >> 11)) & _M16
        self.hi = h
        self.lo = lw ^ ((lw << 5) & _M16)

    def next32(self):
        """The next 32-bit number (tools and tests: the game itself uses below)."""
        self._step()
        return (self.hi << 16) | self.lo

    def below(self, n):
        """Uniform int in 0..n-1 for 0 < n <= 2**15 (rejection sampling, no modulo bias)."""
        # 2**32 = q * n + rem: numbers from 2**32 - rem up are rejected
        m = 0x10000 % n
        rem = m * m % n
        while True:
            self._step()
            h = self.hi
            lo = self.lo
            if rem == 0 or h != _M16 or lo < 0x10000 - rem:
                return ((h % n) * m + lo) % n

    def shuffle(self, items):
        """Fisher-Yates in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1


def shuffled_deck(seed):
    deck = list(range(52))
    Rng(seed).shuffle(deck)
    return deck
