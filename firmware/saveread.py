"""Reading a game record: decoded field by field, checked for meaning, replayed.

savegame.py documents the records, writes them and reads the small ones (settings, stats).  This
module is imported when a game file holds something to decode (a resume, Continue, Previous
match, the first save over a file from an earlier session) and let go after the read on the
device (savegame._let_go): a module costs the Pico about twice its .mpy in RAM, and play needs
only the writer (issue 21).
"""

import struct

from gin.levels import LEVELS
from gin.rules import RuleSet
from savegame import (
    CURSOR_NONE,
    MAGIC_GAME,
    MAX_GAME,
    MODE_LINK,
    TOKEN_DRAW_DISCARD,
    TOKEN_END,
    TOKEN_TAKE_DISCARD,
    SaveError,
    check_summary,
    unpack_record,
)

MAX_DEADWOOD = 98  # of ten cards: two of each ten-count rank (80) and two nines, nothing melds


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def u8(self):
        if self.pos >= len(self.data):
            raise SaveError("truncated")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def u32(self):
        if self.pos + 4 > len(self.data):
            raise SaveError("truncated")
        v = struct.unpack(">I", self.data[self.pos : self.pos + 4])[0]
        self.pos += 4
        return v

    def uint(self):
        v = 0
        shift = 0
        while True:
            b = self.u8()
            v |= (b & 0x7F) << shift
            if b < 0x80:
                return v
            shift += 7
            if shift >= 28:
                raise SaveError("bad number")

    def sint(self):
        v = self.uint()
        return -((v + 1) >> 1) if v & 1 else v >> 1

    def rest(self):
        r = self.data[self.pos :]
        self.pos = len(self.data)
        return r


def unpack_actions(tokens):
    from gin.round import ACTION_LIMIT, DRAW_STOCK, TAKE_DISCARD

    out = bytearray()
    for t in tokens:
        if t < ACTION_LIMIT:
            out.append(t)
        elif t < TOKEN_DRAW_DISCARD:
            raise SaveError("bad action")
        elif t < TOKEN_TAKE_DISCARD:
            out.append(DRAW_STOCK)
            out.append(t - TOKEN_DRAW_DISCARD)
        elif t < TOKEN_END:
            out.append(TAKE_DISCARD)
            out.append(t - TOKEN_TAKE_DISCARD)
        else:
            raise SaveError("bad action")
    return bytes(out)


def _get_rules(rd):
    n = rd.u8()  # any count: RuleSet.from_bytes gives missing fields their defaults
    raw = bytearray()
    for _ in range(n):
        v = rd.uint()
        if v > 0xFFFF:
            raise SaveError("bad rules")
        raw.append(v >> 8)
        raw.append(v & 0xFF)
    return bytes(raw)


def decode_game(data):
    """The snapshot dict of record bytes, checked field by field; SaveError when it isn't one.

    rebuild() checks the rest: the summaries against the rules, the replay.
    """
    payload = unpack_record(data, MAGIC_GAME, MAX_GAME)
    rd = _Reader(payload)
    flags = rd.u8()
    mode = flags & 3
    level = (flags >> 2) & 3
    if (mode == MODE_LINK and data[4] < 2) or level >= len(LEVELS) or flags & 0xC0:
        raise SaveError("bad flags")
    rd.sint()  # the reserved byte (see the module doc)
    snap = {
        "mode": mode,
        "level": level,
        "sort": (flags >> 4) & 1,
        "over": flags & 0x20 == 0x20,
        "cursor": rd.sint(),
        "seed": rd.u32(),
        "aiseed": rd.u32(),
        "rules": _get_rules(rd),
    }
    if not CURSOR_NONE <= snap["cursor"] < 52:
        raise SaveError("bad cursor")
    summaries = []
    count = rd.uint()
    if 2 * count > len(rd.data) - rd.pos:
        raise SaveError("truncated")  # each hand takes 2 bytes or more: don't loop on a huge count
    for _ in range(count):
        b = rd.u8()
        kind = b & 7
        winner = ((b >> 3) & 3) - 1
        knocker = ((b >> 5) & 3) - 1
        points = rd.u8()
        if b & 0x80:
            points = (points << 8) | rd.u8()
        check_summary(kind, winner, points, knocker)
        summaries.append((kind, winner, points, knocker))
    snap["summaries"] = summaries
    if mode == MODE_LINK:
        seat = rd.u8()
        if seat > 1:
            raise SaveError("bad seat")
        snap["seat"] = seat
        n = rd.uint()
        if n > len(payload) - rd.pos:
            raise SaveError("truncated")
        snap["prev"] = unpack_actions(payload[rd.pos : rd.pos + n])
        rd.pos += n
    snap["actions"] = unpack_actions(rd.rest())
    return snap


def check_summaries(rules, summaries):
    """SaveError unless each hand summary is a score these rules can produce.

    The bounds follow round.py's scoring: a knock wins its deadwood difference
    (at least 1), an undercut the difference plus the undercut bonus, gin and
    big gin their bonus plus the defender's deadwood (at most MAX_DEADWOOD),
    all times the Oklahoma spade multiplier where it is on.  With a knock limit
    of 0 (Straight gin) only gin ends a hand; big gin only where it is on.
    """
    from gin.round import BIG_GIN_WIN, CANCELLED, GIN, KNOCK_WIN, UNDERCUT

    limit = 0 if rules.straight else rules.knock_limit
    mult = 2 if rules.oklahoma and rules.oklahoma_spade_double else 1
    for s in summaries:
        kind, points = s[0], s[2]
        if kind == CANCELLED:
            lo, hi = 0, 0
        elif kind == KNOCK_WIN:
            lo, hi = (1, MAX_DEADWOOD * mult) if limit else (1, 0)
        elif kind == UNDERCUT:
            lo, hi = rules.undercut_bonus, (limit + rules.undercut_bonus) * mult
            if not limit:
                hi = -1
        elif kind == GIN:
            lo, hi = rules.gin_bonus, (rules.gin_bonus + MAX_DEADWOOD) * mult
        elif kind == BIG_GIN_WIN and rules.big_gin:
            lo, hi = rules.big_gin_bonus, (rules.big_gin_bonus + MAX_DEADWOOD) * mult
        else:
            lo, hi = 1, 0
        if not lo <= points <= hi:
            raise SaveError("impossible hand result")


def rebuild(snap):
    """The Match a snapshot describes, replayed and checked; SaveError (or GinError) when it can't be."""
    from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
    from gin.round import OVER

    rules = RuleSet.from_bytes(snap["rules"])
    seed = snap["seed"]
    summaries = snap["summaries"]
    actions = snap["actions"]
    n = len(summaries)
    check_summaries(rules, summaries)
    if snap.get("over"):
        if not n or not actions:
            raise SaveError("no finished hand")
        m = Match.restore(rules, seed, summaries[:-1], actions)
        if m.round.phase != OVER or len(m.summaries) != n or m.summaries[-1] != tuple(summaries[-1]):
            raise SaveError("hand result differs")
        if m.state != HAND_OVER and m.state != GAME_OVER:
            raise SaveError("hand result differs")
    else:
        m = Match.restore(rules, seed, summaries, actions)
        if len(m.summaries) != n:
            raise SaveError("hands after the end")
        if m.state == GAME_OVER:
            # The app clears a finished match; one saved without its result
            # screen would come back as a table where no button works.
            raise SaveError("finished match")
        if m.state != PLAYING:
            raise SaveError("live hand already over")
    m.round.check_invariants()
    return m


def _rebuild_any(snap):
    """rebuild(), also accepting a hand-result save whose 'over' flag the app left out."""
    try:
        return rebuild(snap)
    except Exception:
        if snap.get("over") or not snap["summaries"] or not snap["actions"]:
            raise
    snap["over"] = True
    return rebuild(snap)


def decode_game_checked(data):
    snap = decode_game(data)
    snap["match"] = m = _rebuild_any(snap)
    snap["rules"] = m.rules.to_bytes()  # this firmware's fields, whatever firmware wrote them
    return snap
