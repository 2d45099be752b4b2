"""Formats that evolve: records with fewer or more fields than this firmware's still load.

An older firmware wrote fewer rules, settings, levels or counters (what is missing takes its
default); a newer one writes more (what this firmware doesn't know is skipped, or refused when it
would change the game).  docs/SAVES.md, "Compatibility", states the rule these tests hold.
"""

import struct

import pytest

import savegame as sg
from device.storage import FileStorage, MemFS
from gin.cards import GinError
from gin.match import Match
from gin.rules import FIELDS, RuleSet
from prefs import (
    STAT_FIELDS,
    STATS_HEAD,
    STATS_VERSION,
    LinkStats,
    Stats,
    default_settings,
    settings_to_bytes,
)


def _load(name, data):
    fs = MemFS()
    fs.files[name] = data
    return sg.SaveManager(FileStorage("", fs))


def test_rules_with_fewer_fields_take_the_defaults():
    rs = RuleSet.preset_rules("modern", oklahoma=True)
    short = rs.to_bytes()[: 2 * FIELDS.index("hollywood")]  # written before Hollywood existed
    back = RuleSet.from_bytes(short)
    assert back == rs and back.hollywood is False
    assert RuleSet.from_bytes(rs.to_bytes()[:2]) == RuleSet(preset="modern")  # the preset alone


def test_rules_a_newer_firmware_adds_are_skipped_when_off_and_refused_when_on():
    rs = RuleSet.preset_rules("10/20", hollywood=True, target=150)
    assert RuleSet.from_bytes(rs.to_bytes() + b"\x00\x00\x00\x00") == rs
    with pytest.raises(GinError):
        RuleSet.from_bytes(rs.to_bytes() + b"\x00\x00\x00\x01")  # a rule this firmware can't play
    with pytest.raises(GinError):
        RuleSet.from_bytes(b"")


def _game_with_rules(nfields, extra=b""):
    """A real game record whose rules section holds nfields fields (plus the extra bytes' fields)."""
    m = Match(RuleSet(target=50), 4242)
    for _ in range(6):
        m.apply(m.legal_actions()[0])
    snap = sg.snapshot_of(m, mode=0, level=2, cursor=5, aiseed=9)
    snap["rules"] = snap["rules"][: 2 * nfields] + extra  # the rules' count is their length
    return sg.encode_game(snap), m


def test_a_game_saved_with_fewer_rules_loads_with_their_defaults():
    rec, m = _game_with_rules(len(FIELDS) - 2)  # before oklahoma_spade_double and hollywood
    snap, msg = _load(sg.GAME_FILE, rec).load_game()
    assert msg is None and snap is not None
    assert snap["match"].rules == m.rules and snap["rules"] == m.rules.to_bytes()
    assert snap["match"].round.actions == m.round.actions and snap["level"] == 2


def test_a_game_from_a_newer_firmware_with_a_rule_left_off_loads():
    rec, m = _game_with_rules(len(FIELDS), extra=b"\x00\x00\x00\x00")
    snap, msg = _load(sg.GAME_FILE, rec).load_game()
    assert msg is None and snap["match"].rules == m.rules
    rec, _m = _game_with_rules(len(FIELDS), extra=b"\x00\x01")
    snap, msg = _load(sg.GAME_FILE, rec).load_game()
    assert snap is None and msg == sg.MSG_LOST  # a rule it can't play: refused, said in one line


def _stats_bytes(nlevels, ncounters, fill):
    vals = [fill(lv, k) for lv in range(nlevels) for k in range(ncounters)]
    return struct.pack(STATS_HEAD + "%dI" % len(vals), STATS_VERSION, 7, 2, 9, 1, nlevels, ncounters, *vals)


def _fill(lv, k):
    # consistent, with or without the last counter: matches 10+lv, wins 5, hands 40, gins 3,
    # ..., streak 0, best streak 2; then a counter this firmware doesn't know
    return (10 + lv, 5, 40, 3, 1, 2, 1, 30 + lv, 0, 2, 77)[k]


def test_stats_of_a_newer_firmware_keep_every_known_level_and_counter():
    st = Stats.from_bytes(_stats_bytes(len(Stats().levels) + 1, len(STAT_FIELDS) + 1, _fill))
    for lv in range(len(st.levels)):
        assert st.levels[lv].values() == [_fill(lv, k) for k in range(len(STAT_FIELDS))]
    assert st.hand_mark == (7, 2) and st.match_mark == 9


def test_stats_of_an_older_firmware_start_what_they_lack_at_zero():
    n = len(STAT_FIELDS) - 1
    st = Stats.from_bytes(_stats_bytes(2, n, _fill))
    assert [st.levels[lv].matches for lv in range(2)] == [10, 11]
    assert st.levels[0].values()[-1] == 0  # the counter it didn't have
    assert all(s.values() == [0] * len(STAT_FIELDS) for s in st.levels[2:])  # the levels it didn't have
    with pytest.raises(ValueError):
        Stats.from_bytes(_stats_bytes(2, n, _fill) + b"\x00")


def test_link_stats_of_version_2_and_3_load():
    ls = LinkStats()
    ls.levels[0].matches = 3
    ls.levels[0].wins = 1
    ls.levels[0].streak = ls.levels[0].best_streak = 1
    now = ls.to_bytes()
    assert LinkStats.from_bytes(now).levels[0].values() == ls.levels[0].values()
    v2 = b"\x02" + now[1:12] + now[14:]  # version 2: no counts
    assert LinkStats.from_bytes(v2).levels[0].values() == ls.levels[0].values()


def test_settings_of_version_2_load_and_are_saved_again_as_today_s():
    s = dict(default_settings(), contrast=9, level=3, mode=2, rules=RuleSet(target=150).to_bytes())
    now = settings_to_bytes(s)
    old = sg.pack_record(sg.MAGIC_SETTINGS, now[1:], version=2)  # version 2: no head length
    mgr = _load(sg.SETTINGS_FILE, old)
    settings, _stats, msg = mgr.load_profile()
    assert msg is None and settings == s
