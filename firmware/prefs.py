"""The player's settings and statistics, and their compact byte forms.

savegame.SaveManager wraps these bytes in a checked file; this module only
knows what the fields are and how to pack them.
"""

import struct

from gin import levels
from gin.rules import FIELDS as RULE_FIELDS
from gin.rules import RuleSet
from modes import MODES

LEVELS = len(levels.LEVELS)  # statistics are kept per computer level

DEFAULT_SETTINGS = {
    "contrast": 127,
    "dim_s": 30,
    "off_s": 120,
    "sound": True,
    "left": False,
    "hints": True,
    "level": 1,  # normal
    "rules": RuleSet().to_bytes(),
    "mode": 0,
}

SETTINGS_KEYS = ("contrast", "dim_s", "off_s", "sound", "left", "hints", "level", "rules", "mode")

# The settings payload (docs/SAVES.md): the length of the head, the head, then the rules
# (RuleSet.to_bytes(), the rest).  New settings go at the end of the head: a firmware reads the
# head as far as it knows it and skips the rest, so a newer firmware's settings still load.
SETTINGS_FMT = ">BHHBBB"  # the head: contrast, dim_s, off_s, flags (sound, left, hints), level, mode
_SETTINGS_HEAD = struct.calcsize(SETTINGS_FMT)
SETTINGS_SIZE = 1 + _SETTINGS_HEAD + 2 * len(RULE_FIELDS)  # what this firmware writes


def default_settings():
    d = {}
    for k in SETTINGS_KEYS:
        d[k] = DEFAULT_SETTINGS[k]
    return d


def settings_to_bytes(settings):
    """Pack a settings dict; missing keys take their defaults, out-of-range values raise ValueError."""
    s = default_settings()
    for k in SETTINGS_KEYS:
        if k in settings:
            s[k] = settings[k]
    for k, hi in (
        ("contrast", 255),
        ("dim_s", 65535),
        ("off_s", 65535),
        ("level", LEVELS - 1),
        ("mode", MODES - 1),
    ):
        v = s[k]
        if not isinstance(v, int) or v < 0 or v > hi:
            raise ValueError("setting %s out of range" % k)
    rules = bytes(s["rules"])
    if len(rules) != 2 * len(RULE_FIELDS):
        raise ValueError("rules must be this firmware's RuleSet.to_bytes()")  # read tolerantly, written whole
    RuleSet.from_bytes(rules)  # refuse to store rules that could not be read back
    flags = (1 if s["sound"] else 0) | (2 if s["left"] else 0) | (4 if s["hints"] else 0)
    head = struct.pack(SETTINGS_FMT, s["contrast"], s["dim_s"], s["off_s"], flags, s["level"], s["mode"])
    return bytes((_SETTINGS_HEAD,)) + head + rules


def settings_from_bytes(data):
    """The settings dict of packed bytes; ValueError (GinError for rules) when they don't make sense.

    The rules come back as this firmware's RuleSet.to_bytes(): fields an older firmware
    didn't write take their defaults.
    """
    n = data[0] if len(data) else 0
    if n < _SETTINGS_HEAD or len(data) < 1 + n:
        raise ValueError("settings have the wrong size")
    contrast, dim_s, off_s, flags, level, mode = struct.unpack(SETTINGS_FMT, data[1 : 1 + _SETTINGS_HEAD])
    if flags > 7 or level >= LEVELS or mode >= MODES:
        raise ValueError("settings out of range")
    return {
        "contrast": contrast,
        "dim_s": dim_s,
        "off_s": off_s,
        "sound": flags & 1 == 1,
        "left": flags & 2 == 2,
        "hints": flags & 4 == 4,
        "level": level,
        "rules": RuleSet.from_bytes(bytes(data[1 + n :])).to_bytes(),
        "mode": mode,
    }


# --- statistics ----------------------------------------------------------------

STAT_FIELDS = (
    "matches",
    "wins",
    "hands",
    "gins",
    "big_gins",
    "undercuts_given",
    "undercuts_taken",
    "best_match",
    "streak",
    "best_streak",
)
_NF = len(STAT_FIELDS)
# Version 3 says how many levels and counters it holds, so that a new level or a new counter
# (at the end of gin/levels.py, of STAT_FIELDS) needs no new version: what a file lacks starts
# at zero, what this firmware doesn't know is skipped.  Versions 1 and 2 load through migrate.py.
STATS_VERSION = 3
# version, hand mark (seed, hands), match mark (seed, set), levels, counters per level
STATS_HEAD = ">BIHIBBB"
_HEAD_SIZE = struct.calcsize(STATS_HEAD)
STATS_FMT = STATS_HEAD + "%dI" % (_NF * LEVELS)  # what this firmware writes
STATS_SIZE = struct.calcsize(STATS_FMT)
# Counters stop here instead of overflowing their 32-bit field: a stats file
# at the limit keeps loading and saving (and the game keeps counting nothing more).
STAT_MAX = 0xFFFFFFFF


def _up(v, by=1):
    """v + by, saturating at STAT_MAX."""
    v += by
    return v if v < STAT_MAX else STAT_MAX


class LevelStats:
    """The counters of one opponent level."""

    def __init__(self):
        for name in STAT_FIELDS:
            setattr(self, name, 0)

    def values(self):
        return [getattr(self, name) for name in STAT_FIELDS]

    def consistent(self):
        """Counters that recording can produce: no more wins than matches, no more gins,
        big gins and undercuts together than hands, streaks within the wins, and no
        best margin without a win."""
        return (
            self.wins <= self.matches
            and self.streak <= self.best_streak <= self.wins
            and self.gins + self.big_gins + self.undercuts_given + self.undercuts_taken <= self.hands
            and (self.wins > 0 or self.best_match == 0)
        )


def _field(result, i, name):
    # A HandResult, or its summary tuple (kind, winner, points, knocker).
    if isinstance(result, tuple):
        return result[i]
    return getattr(result, name)


class Stats:
    """Per opponent level: matches played and won, hands, gins, big gins, undercuts, best match, streaks.

    ``key`` arguments make recording idempotent across a power cut: the app
    saves the stats before the game, so after a cut between the two writes the
    player redoes the last action and the app records the same key again,
    which is ignored.  Use key=(match.seed, len(match.summaries)) for a hand
    and key=match.seed for a match.
    """

    NLEVELS = LEVELS

    def __init__(self):
        self.levels = [LevelStats() for _ in range(self.NLEVELS)]
        self.hand_mark = (0, 0)  # (match seed, hand count) of the last hand recorded with a key
        self.match_mark = -1  # seed of the last match recorded with a key

    def reset(self, level=None):
        """Zero one level's counters, or every level's (level=None)."""
        if level is None:
            self.levels = [LevelStats() for _ in range(self.NLEVELS)]
            self.hand_mark = (0, 0)
            self.match_mark = -1
        else:
            self.levels[level] = LevelStats()

    def record_hand(self, level, hand_result, me=0, key=None):
        """Count a finished hand seen from player ``me``; False when ``key`` was already counted."""
        if key is not None:
            if key[0] == self.hand_mark[0] and key[1] <= self.hand_mark[1]:
                return False
            self.hand_mark = (key[0], key[1])
        from gin.round import BIG_GIN_WIN, CANCELLED, GIN, UNDERCUT  # loaded by then: a hand just ended

        s = self.levels[level]
        kind = _field(hand_result, 0, "kind")
        winner = _field(hand_result, 1, "winner")
        knocker = _field(hand_result, 3, "knocker")
        if s.hands == STAT_MAX:
            return True  # saturated: the per-kind counters must not pass the hands either
        s.hands += 1
        if kind == CANCELLED:
            return True
        if kind == GIN and winner == me:
            s.gins += 1
        elif kind == BIG_GIN_WIN and winner == me:
            s.big_gins += 1
        elif kind == UNDERCUT:
            if knocker == me:
                s.undercuts_taken += 1
            else:
                s.undercuts_given += 1
        return True

    def record_match(self, level, match, me=0, key=None):
        """Count a finished match (gin.match.Match); False when ``key`` was already counted."""
        if key is not None:
            if key == self.match_mark:
                return False
            self.match_mark = key
        s = self.levels[level]
        if s.matches == STAT_MAX:
            return True  # saturated (wins <= matches must keep holding)
        s.matches += 1
        if match.winner == me:
            s.wins += 1
            s.streak += 1
            if s.streak > s.best_streak:
                s.best_streak = s.streak
            margin = match.final_tally(me) - match.final_tally(1 - me)
            if margin > s.best_match:
                s.best_match = margin if margin < STAT_MAX else STAT_MAX
        else:
            s.streak = 0  # a loss or a drawn Hollywood match ends the run of wins
        return True

    def lines(self, level):
        """Short lines for the stats screen (each fits 21 columns)."""
        s = self.levels[level]
        return [
            "Played %d  Won %d" % (s.matches, s.wins),
            "Hands %d" % s.hands,
            "Gins %d" % s.gins,
            "Big gins %d" % s.big_gins,
            "Undercut them %d" % s.undercuts_given,
            "Undercut by %d" % s.undercuts_taken,
            "Best win +%d" % s.best_match,
            "Win streak %d" % s.streak,
            "Best streak %d" % s.best_streak,
        ]

    def to_bytes(self):
        vals = []
        for s in self.levels:
            for v in s.values():
                vals.append(0 if v < 0 else v if v < STAT_MAX else STAT_MAX)
        match_set = 1 if self.match_mark >= 0 else 0
        match_seed = self.match_mark if match_set else 0
        return struct.pack(
            STATS_HEAD + "%dI" % len(vals),
            STATS_VERSION,
            self.hand_mark[0],
            self.hand_mark[1],
            match_seed,
            match_set,
            self.NLEVELS,
            _NF,
            *vals,
        )

    @classmethod
    def from_bytes(cls, data):
        """Stats from their bytes, of any version and of any firmware (see STATS_VERSION)."""
        if len(data) and 0 < data[0] < STATS_VERSION:
            from migrate import stats_v3  # only when an old file is read: RAM

            data = stats_v3(data, cls.NLEVELS == 1)
        if len(data) < _HEAD_SIZE or data[0] != STATS_VERSION:
            raise ValueError("stats version unknown")
        _v, hseed, hands, mseed, mset, nlevels, ncounters = struct.unpack(STATS_HEAD, data[:_HEAD_SIZE])
        if len(data) != _HEAD_SIZE + 4 * nlevels * ncounters or mset > 1:
            raise ValueError("stats have the wrong size or marks")
        st = cls()
        st.hand_mark = (hseed, hands)
        st.match_mark = mseed if mset else -1
        for lv in range(nlevels if nlevels < cls.NLEVELS else cls.NLEVELS):
            s = st.levels[lv]
            at = _HEAD_SIZE + 4 * lv * ncounters
            for k in range(ncounters if ncounters < _NF else _NF):
                setattr(s, STAT_FIELDS[k], struct.unpack(">I", data[at + 4 * k : at + 4 * k + 4])[0])
            if not s.consistent():
                raise ValueError("stats are inconsistent")
        return st


class LinkStats(Stats):
    """Link-cable matches, from this device's seat: one block of the same counters, its own file."""

    NLEVELS = 1
