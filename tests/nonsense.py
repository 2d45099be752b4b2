"""CRC-valid nonsense: records that pass the checksum and say things no game can say.

``raw_game(...)`` writes a game record field by field with none of
``savegame.encode_game``'s checks (any flags byte, any varint, any rule count
and values, any summary byte and points, any action bytes), so a test can
build exactly the hostile file it needs.  ``cases(rng)`` yields thousands of
them: every field at and around its boundaries, one field at a time on top of
a real save, and a few fields at once.  ``settings_cases`` and ``stats_cases``
do the same for the profile records.
"""

import struct

import savegame as sg
from gin.rules import FIELDS, RuleSet
from prefs import LEVELS, SETTINGS_FMT, STAT_FIELDS, STATS_FMT, STATS_VERSION

VARINT_EDGES = (0, 1, 51, 52, 63, 64, 127, 128, 0xFFFF, 0x10000, (1 << 21) - 1, (1 << 28) - 1)
U32_EDGES = (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(v):
    return (v << 1) if v >= 0 else ((-v) << 1) - 1


def rules_bytes(values):
    """The record's rules part from a list of field values (any count, any value)."""
    out = bytearray([len(values) & 0xFF])
    for v in values:
        out += varint(v)
    return bytes(out)


def summary_bytes(kind, winner, points, knocker, wide=None):
    """One hand summary as the record stores it (winner/knocker -1..2, points up to 0xFFFF)."""
    if wide is None:
        wide = points > 0xFF
    b = (kind & 7) | (((winner + 1) & 3) << 3) | (((knocker + 1) & 3) << 5) | (0x80 if wide else 0)
    return bytes([b]) + (bytes([points >> 8 & 0xFF, points & 0xFF]) if wide else bytes([points & 0xFF]))


def raw_game(
    flags=0,
    screen=1,
    cursor=0,
    seed=1,
    aiseed=0,
    rules=None,
    summaries=b"",
    count=None,
    actions=b"",
    version=sg.VERSION,
    magic=sg.MAGIC_GAME,
):
    """A CRC-valid game record; summaries are bytes (see summary_bytes), count defaults to theirs."""
    if rules is None:
        rules = rules_bytes(_rule_values(RuleSet()))
    if count is None:
        count = _count(summaries)
    payload = (
        bytes([flags & 0xFF])
        + varint(zigzag(screen))
        + varint(zigzag(cursor))
        + struct.pack(">II", seed & 0xFFFFFFFF, aiseed & 0xFFFFFFFF)
        + rules
        + varint(count)
        + summaries
        + actions
    )
    return sealed(magic, payload, version)


def sealed(magic, payload, version=sg.VERSION):
    n = len(payload) & 0xFFFF
    body = magic + bytes([version & 0xFF, n >> 8, n & 0xFF]) + payload
    return body + struct.pack(">I", sg.crc32(body) & 0xFFFFFFFF)


def _count(summaries):
    n = 0
    i = 0
    while i < len(summaries):
        i += 3 if summaries[i] & 0x80 else 2
        n += 1
    return n


def _rule_values(rs):
    return [int(getattr(rs, f)) for f in FIELDS]


def split_game(rec):
    """The fields of a well-formed record (as raw_game takes them), for changing one at a time."""
    snap = sg.decode_game(rec)
    summaries = b"".join(summary_bytes(k, w, p, kn) for (k, w, p, kn) in snap["summaries"])
    return {
        "flags": snap["mode"] | snap["level"] << 2 | snap["sort"] << 4 | (0x20 if snap["over"] else 0),
        "screen": 0,  # the reserved byte
        "cursor": snap["cursor"],
        "seed": snap["seed"],
        "aiseed": snap["aiseed"],
        "rules": rules_bytes(
            [(snap["rules"][2 * i] << 8) | snap["rules"][2 * i + 1] for i in range(len(FIELDS))]
        ),
        "summaries": summaries,
        "actions": sg.pack_actions(snap["actions"]),
    }


def _rule_edges():
    """Per field: values at and around its limits (and beyond what a varint field may hold)."""
    from gin.rules import BOOL_FIELDS, LIMITS

    out = []
    for i, f in enumerate(FIELDS):
        if f in BOOL_FIELDS:
            vals = (0, 1, 2, 255, 0xFFFF, 0x10000)
        else:
            lo, hi = LIMITS[f]
            vals = (0, lo - 1 if lo else 0, lo, hi, hi + 1, 0xFFFF, 0x10000)
        for v in sorted(set(vals)):
            out.append((i, v))
    return out


def cases(rng, bases, n_random=2000):
    """(label, record bytes) for the hostile-file tests.

    ``bases`` are real records (well-formed saves of real matches): each field
    is set to each boundary value on top of one of them, then ``n_random``
    records change several fields at once.
    """
    from gin.round import ACTION_LIMIT

    fields = [split_game(b) for b in bases]
    out = []

    def base():
        return dict(fields[rng.randrange(len(fields))])

    for flags in range(256):
        out.append(("flags %d" % flags, raw_game(**dict(base(), flags=flags))))
    for v in (-(1 << 27), -2, -1, 0, 1, 2, 12, 13, 51, 52, 53, 127, 128, (1 << 27) - 1):
        out.append(("screen %d" % v, raw_game(**dict(base(), screen=v))))
        for f in fields:  # the cursor on every base: some are the player's discard turn
            out.append(("cursor %d" % v, raw_game(**dict(f, cursor=v))))
    for v in U32_EDGES:
        out.append(("seed %d" % v, raw_game(**dict(base(), seed=v))))
        out.append(("aiseed %d" % v, raw_game(**dict(base(), aiseed=v))))
    good_rules = _rule_values(RuleSet())
    for i, v in _rule_edges():
        vals = list(good_rules)
        vals[i] = v
        out.append(("rule %s=%d" % (FIELDS[i], v), raw_game(**dict(base(), rules=rules_bytes(vals)))))
    for n in (0, 1, len(FIELDS) - 1, len(FIELDS) + 1, 255):
        vals = (good_rules * 20)[:n]
        out.append(("rule count %d" % n, raw_game(**dict(base(), rules=rules_bytes(vals)))))
    for n in VARINT_EDGES:
        out.append(("hand count %d" % n, raw_game(**dict(base(), count=n))))
    for b in range(256):
        for pts in (0, 1, 2, 10, 20, 98, 99, 255):
            f = base()
            s = bytes([b & 0x7F, pts])  # narrow points
            out.append(
                ("summary byte %d pts %d" % (b, pts), raw_game(**dict(f, summaries=f["summaries"] + s)))
            )
        f = base()
        s = bytes([b | 0x80, 0xFF, 0xFF])  # wide points: 65,535
        out.append(("summary byte %d wide" % b, raw_game(**dict(f, summaries=f["summaries"] + s))))
    for t in range(256):
        f = base()
        out.append(("action %d appended" % t, raw_game(**dict(f, actions=f["actions"] + bytes([t])))))
        out.append(("action %d alone" % t, raw_game(**dict(f, actions=bytes([t])))))
    for _ in range(n_random):
        f = base()
        for _k in range(rng.randrange(1, 4)):
            which = rng.randrange(7)
            if which == 0:
                f["flags"] = rng.randrange(256)
            elif which == 1:
                f["cursor"] = rng.choice((-1, 0, 51, 52, rng.randrange(-300, 300)))
            elif which == 2:
                f["seed"] = rng.choice(U32_EDGES + (rng.randrange(1 << 32),))
            elif which == 3:
                vals = list(good_rules)
                i, v = rng.choice(_rule_edges())
                vals[i] = v
                f["rules"] = rules_bytes(vals)
            elif which == 4:
                f["summaries"] = bytes(
                    rng.randrange(256)
                    if rng.random() < 0.3
                    else rng.choice((0x08, 0x11, 0x3F, 0x4C, 0x2A, 0x14))
                    for _ in range(rng.randrange(0, 12))
                )
            elif which == 5:
                acts = bytearray(f["actions"])
                for _j in range(rng.randrange(1, 4)):
                    if acts and rng.random() < 0.5:
                        acts[rng.randrange(len(acts))] = rng.randrange(256)
                    else:
                        acts.append(rng.randrange(ACTION_LIMIT) if rng.random() < 0.7 else rng.randrange(256))
                f["actions"] = bytes(acts)
            else:
                f["count"] = rng.choice(VARINT_EDGES)
        out.append(("random", raw_game(**f)))
    return out


def _settings(head, rules):
    """A settings record of today's version (the head's length first), and the same under version 2."""
    new = sealed(sg.MAGIC_SETTINGS, bytes((len(head),)) + head + rules, sg.PROFILE_VERSION)
    return new, sealed(sg.MAGIC_SETTINGS, head + rules, 2)


def _stats(version, hs, hn, ms, mset, vals):
    """A stats record of today's layout, with every level's counters."""
    payload = struct.pack(STATS_FMT, version, hs, hn, ms, mset, LEVELS, len(STAT_FIELDS), *vals)
    return sealed(sg.MAGIC_STATS, payload, sg.PROFILE_VERSION)


def settings_cases(rng):
    """CRC-valid settings records: every field at its edges, rules at theirs, wrong sizes."""
    good = _rule_values(RuleSet())
    out = []
    edges = {
        "contrast": (0, 1, 255),
        "dim": (0, 1, 15, 0xFFFF),
        "off": (0, 1, 60, 0xFFFF),
        "flags": (0, 7, 8, 255),
        "level": (0, 2, 3, 255),
        "mode": (0, 2, 3, 255),
    }
    names = ("contrast", "dim", "off", "flags", "level", "mode")
    base = [127, 30, 120, 5, 1, 0]
    for k, name in enumerate(names):
        for v in edges[name]:
            vals = list(base)
            vals[k] = v
            rules = b"".join(struct.pack(">H", x) for x in good)
            for rec in _settings(struct.pack(SETTINGS_FMT, *vals), rules):
                out.append(("settings %s=%d" % (name, v), rec))
    for i, v in _rule_edges():
        vals = list(good)
        vals[i] = v & 0xFFFF
        rules = b"".join(struct.pack(">H", x) for x in vals)
        for rec in _settings(struct.pack(SETTINGS_FMT, *base), rules):
            out.append(("settings rule %s=%d" % (FIELDS[i], v), rec))
    for n in (0, 1, 7, 20, 45, 47, 200):
        junk = bytes(rng.randrange(256) for _ in range(n))
        for version in (2, sg.PROFILE_VERSION):
            out.append(("settings size %d" % n, sealed(sg.MAGIC_SETTINGS, junk, version)))
    return out


def stats_cases(rng):
    """CRC-valid stats records: counters at 0, 1, 2**31, 2**32-1; marks at their edges; contradictions."""
    out = []
    n = len(STAT_FIELDS) * LEVELS
    for edge in (0, 1, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF):
        for i in range(n):
            vals = [0] * n
            vals[i] = edge
            out.append(("stat %d=%d" % (i, edge), _stats(STATS_VERSION, 0, 0, 0, 0, vals)))
        out.append(("every stat=%d" % edge, _stats(STATS_VERSION, 0, 0, 0, 0, [edge] * n)))
    for hs, hn, ms, mset in ((0xFFFFFFFF, 0xFFFF, 0xFFFFFFFF, 1), (0, 0, 0, 2), (5, 3, 0, 255)):
        out.append(("marks", _stats(STATS_VERSION, hs, hn, ms, mset, [0] * n)))
    for _ in range(200):
        vals = [rng.choice((0, 1, 5, 0xFFFFFFFF, rng.randrange(1 << 32))) for _ in range(n)]
        out.append(("random stats", _stats(STATS_VERSION, 0, 0, 0, rng.randrange(2), vals)))
    for v in (0, STATS_VERSION + 1, 255):
        out.append(("stats version %d" % v, _stats(v, 0, 0, 0, 0, [0] * n)))
    return out
