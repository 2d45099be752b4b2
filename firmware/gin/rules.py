"""The rule set: every number and option of docs/RULES.md as a field.

Presets (Classic, Modern, 10/20, 20/25) fill the scoring fields; variants
(Straight, Oklahoma, Hollywood) and options combine with any preset.
"""

from gin.cards import GinError, value_of

# The value names below (*_NAMES, by value) are the one source of what each value of a field is
# called: identifiers, as docs/RULES.md and the simulator's --rules write them (lower case, "_"
# for a space). The rules menu shows each "_" as a space (ui/options.py).

# next_dealer
WINNER_DEALS = 0
LOSER_DEALS = 1
ALTERNATE = 2
DEALER_NAMES = ("winner", "loser", "alternate")

# upcard_offer
OFFER_STANDARD = 0  # non-dealer, then dealer, then non-dealer draws from stock
OFFER_DEALER_PLAYS = 1  # [004]: after the non-dealer passes, the dealer plays a normal first turn
OFFER_NAMES = ("standard", "dealer_plays")

# first_dealer
CUT = 0
RANDOM = 1
FIRST_DEALER_NAMES = ("cut", "random")

# game_winner
REACH_TARGET = 0  # [000, 003]: the player who reaches the target wins
HIGHER_TALLY = 1  # [001]: the higher final tally wins
GAME_WINNER_NAMES = ("target", "higher")

PRESET_NAMES = ("classic", "modern", "10/20", "20/25")
PRESET_TITLES = ("Classic", "Modern", "10/20", "20/25")

# Field order of the compact encoding (saves and the link cable).  A new field goes at the end,
# and its default and its 0 must both mean "the rules as they were": saves that lack it read as
# the default, and an older firmware skips it when it is 0 (docs/SAVES.md, "Compatibility").
FIELDS = (
    "preset",
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "big_gin",
    "big_gin_bonus",
    "box_bonus",
    "game_bonus",
    "shutout_bonus",
    "target",
    "next_dealer",
    "upcard_offer",
    "first_dealer",
    "game_winner",
    "gin_forced",
    "straight",
    "oklahoma",
    "oklahoma_spade_double",
    "hollywood",
)
# The fields a preset sets, in the order of each _PRESETS row: knock_limit .. shutout_bonus and
# next_dealer (FIELDS only grows at its end, so these places hold).
PRESET_FIELDS = FIELDS[1:9] + FIELDS[10:11]
_PRESETS = (
    (10, 20, 10, False, 31, 20, 100, 200, WINNER_DEALS),
    (10, 25, 25, True, 31, 25, 100, 200, WINNER_DEALS),
    (10, 20, 10, False, 31, 25, 100, 200, ALTERNATE),
    (10, 25, 20, False, 31, 25, 100, 200, ALTERNATE),
)
BOOL_FIELDS = ("big_gin", "gin_forced", "straight", "oklahoma", "oklahoma_spade_double", "hollywood")
LIMITS = {
    "preset": (0, 3),
    "knock_limit": (0, 10),
    "gin_bonus": (0, 255),
    "undercut_bonus": (0, 255),
    "big_gin_bonus": (0, 255),
    "box_bonus": (0, 255),
    "game_bonus": (0, 1000),
    "shutout_bonus": (0, 1000),
    "target": (1, 10000),
    "next_dealer": (0, 2),
    "upcard_offer": (0, 1),
    "first_dealer": (0, 1),
    "game_winner": (0, 1),
}


class RuleSet:
    """All rule fields. Build with ``RuleSet()`` (Classic) or ``RuleSet.preset(name, **options)``."""

    def __init__(self, **fields):
        self.preset = 0
        self._apply_preset(0)
        self.target = 100
        self.upcard_offer = OFFER_STANDARD
        self.first_dealer = CUT
        self.game_winner = REACH_TARGET
        self.gin_forced = False
        self.straight = False
        self.oklahoma = False
        self.oklahoma_spade_double = False
        self.hollywood = False
        if "preset" in fields:
            self._apply_preset(_preset_index(fields["preset"]))
        for name in FIELDS:
            if name in fields and name != "preset":
                setattr(self, name, fields[name])
        for name in fields:
            if name not in FIELDS:
                raise GinError("unknown rule %r" % name)
        self.validate()

    def _apply_preset(self, i):
        p = _PRESETS[i]
        self.preset = i
        for k in range(len(PRESET_FIELDS)):
            setattr(self, PRESET_FIELDS[k], p[k])

    @classmethod
    def preset_rules(cls, name, **options):
        """A preset by name ('classic', 'modern', '10/20', '20/25') plus options."""
        options["preset"] = name
        return cls(**options)

    def validate(self):
        for name in FIELDS:
            v = getattr(self, name)
            if name in BOOL_FIELDS:
                if v is not True and v is not False:
                    raise GinError("rule %s must be on or off" % name)
            else:
                lo, hi = LIMITS[name]
                if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
                    raise GinError("rule %s must be a whole number from %d to %d" % (name, lo, hi))
        return self

    def clone(self):
        """An equal, independent RuleSet (cheap: no validation, the fields are already valid)."""
        r = object.__new__(RuleSet)
        for name in FIELDS:
            setattr(r, name, getattr(self, name))
        return r

    def copy(self, **changes):
        fields = self.as_dict()
        preset_changed = "preset" in changes
        for k in changes:
            fields[k] = changes[k]
        if preset_changed:
            # A new preset resets the scoring fields it owns; other changes still apply.
            for k in PRESET_FIELDS:
                if k not in changes:
                    del fields[k]
        return RuleSet(**fields)

    def as_dict(self):
        d = {}
        for name in FIELDS:
            d[name] = getattr(self, name)
        return d

    def __eq__(self, other):
        if not isinstance(other, RuleSet):
            return False
        for name in FIELDS:
            if getattr(self, name) != getattr(other, name):
                return False
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    # --- per-hand rules ---------------------------------------------------

    def hand_knock_limit(self, upcard):
        """The knock limit of one hand: Straight gin 0, Oklahoma the upcard's value (ace: gin only)."""
        limit = self.knock_limit
        if self.oklahoma:
            ok = 0 if upcard % 13 == 0 else value_of(upcard)
            if ok < limit:
                limit = ok
        if self.straight:
            limit = 0
        return limit

    def hand_multiplier(self, upcard):
        """Oklahoma's optional spade doubling: 2 when the upcard is a spade."""
        if self.oklahoma and self.oklahoma_spade_double and upcard // 13 == 3:
            return 2
        return 1

    # --- compact encoding --------------------------------------------------

    def to_bytes(self):
        """Two bytes per field, big-endian: small, stable, versioned by FIELDS order."""
        out = bytearray()
        for name in FIELDS:
            v = int(getattr(self, name))
            out.append((v >> 8) & 0xFF)
            out.append(v & 0xFF)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data):
        """The RuleSet of to_bytes() output, of this firmware or of any other.

        Fields the bytes lack (written before they existed) keep their defaults; fields after
        the last one known here (a newer firmware's) are skipped when 0 and refused otherwise:
        this firmware can't play a rule it doesn't know.
        """
        n = len(data) >> 1
        if len(data) != 2 * n or not n:
            raise GinError("rule data has the wrong size")
        known = len(FIELDS)
        for i in range(2 * known, 2 * n):
            if data[i]:
                raise GinError("rules of a newer firmware")
        fields = {}
        for i in range(n if n < known else known):
            name = FIELDS[i]
            v = (data[2 * i] << 8) | data[2 * i + 1]
            if name in BOOL_FIELDS:
                if v > 1:
                    raise GinError("rule data is corrupt")
                v = v == 1
            fields[name] = v
        preset = fields["preset"]
        rs = cls(preset=preset)
        for name in fields:
            setattr(rs, name, fields[name])
        return rs.validate()

    # --- words ------------------------------------------------------------

    def title(self):
        t = PRESET_TITLES[self.preset]
        if self.straight:
            t += " Straight"
        if self.oklahoma:
            t += " Oklahoma"
        if self.hollywood:
            t += " Hollywood"
        return t


def _preset_index(name):
    if isinstance(name, int) and not isinstance(name, bool):
        if 0 <= name < len(PRESET_NAMES):
            return name
    else:
        key = str(name).lower()
        for i in range(len(PRESET_NAMES)):
            if PRESET_NAMES[i] == key or PRESET_TITLES[i].lower() == key:
                return i
    raise GinError("unknown preset %r: use classic, modern, 10/20 or 20/25" % (name,))


def classic(**options):
    return RuleSet.preset_rules("classic", **options)


def modern(**options):
    return RuleSet.preset_rules("modern", **options)
