"""Readers of the save formats that earlier firmware wrote, as today's layouts.

Imported only when an old file is read (RAM on the Pico): each function turns an
old payload into the current one, so that one reader checks both.  The history
these numbers come from is in docs/SAVES.md ("Compatibility"); tests/mp/corpus/ keeps
files each version wrote.
"""

# Settings records of versions 1 and 2 (the firmware of 2026-11-29 to 2026-12-01) held the
# 8-byte head and the rules, with no length before the head.
_OLD_SETTINGS_HEAD = 8

# Stats payloads of versions 1 and 2: version, marks (12 bytes), then ten counters per level
# with no counts: version 1 had three levels (easy, normal, hard), version 2 four (and expert);
# link stats (version 2 only) one.
_OLD_STATS_HEAD = 12
_OLD_COUNTERS = 10


def settings_v3(payload):
    """A settings payload of record version 1 or 2, as version 3's."""
    return bytes((_OLD_SETTINGS_HEAD,)) + bytes(payload)


def stats_v3(data, link):
    """A stats payload of version 1 or 2, as version 3's; ValueError when its size is not theirs."""
    v = data[0]
    levels = 1 if link else (3 if v == 1 else 4)
    if (link and v != 2) or len(data) != _OLD_STATS_HEAD + 4 * _OLD_COUNTERS * levels:
        raise ValueError("stats have the wrong size")
    return (
        bytes((3,))
        + bytes(data[1:_OLD_STATS_HEAD])
        + bytes((levels, _OLD_COUNTERS))
        + bytes(data[_OLD_STATS_HEAD:])
    )
