"""prefs.py: settings and per-level statistics, their bytes, and their files."""

import pytest

import savegame as sg
from device.storage import FileStorage, MemFS
from gin.match import GAME_OVER, Match
from gin.round import BIG_GIN_WIN, CANCELLED, GIN, KNOCK_WIN, UNDERCUT
from gin.rules import RuleSet
from prefs import (
    DEFAULT_SETTINGS,
    LEVELS,
    STAT_FIELDS,
    STATS_VERSION,
    Stats,
    default_settings,
    settings_from_bytes,
    settings_to_bytes,
)

from savecheck import play

CONTRACT_KEYS = {"contrast", "dim_s", "off_s", "sound", "left", "hints", "level", "rules", "mode"}


def test_default_settings_follow_the_contract():
    assert set(DEFAULT_SETTINGS) == CONTRACT_KEYS
    d = default_settings()
    assert d == DEFAULT_SETTINGS and d is not DEFAULT_SETTINGS
    assert RuleSet.from_bytes(d["rules"]) == RuleSet()
    assert 0 <= d["contrast"] <= 255 and d["level"] in (0, 1, 2) and d["mode"] in (0, 1, 2)


def test_settings_round_trip():
    rules = RuleSet.preset_rules("20/25", oklahoma=True, hollywood=True, target=250).to_bytes()
    s = {
        "contrast": 255,
        "dim_s": 15,
        "off_s": 600,
        "sound": False,
        "left": True,
        "hints": False,
        "level": 2,
        "rules": rules,
        "mode": 1,
    }
    back = settings_from_bytes(settings_to_bytes(s))
    assert back == s
    assert RuleSet.from_bytes(back["rules"]).hollywood is True


def test_settings_missing_keys_take_defaults():
    assert settings_from_bytes(settings_to_bytes({"contrast": 3})) == dict(default_settings(), contrast=3)


@pytest.mark.parametrize(
    "change",
    [
        {"contrast": 256},
        {"level": LEVELS},  # one past the last level (gin/levels.py)
        {"mode": -1},
        {"dim_s": 70000},
        {"rules": b"\x00\x01"},
        {"contrast": "x"},
    ],
)
def test_settings_refuse_bad_values(change):
    with pytest.raises(ValueError):
        settings_to_bytes(dict(default_settings(), **change))


def test_every_level_is_a_setting_and_expert_is_the_last():
    from gin.levels import LEVELS as NAMES

    assert NAMES[-1] == "expert" and len(NAMES) == LEVELS
    for lv in range(LEVELS):
        s = dict(default_settings(), level=lv)
        assert settings_from_bytes(settings_to_bytes(s))["level"] == lv
    raw = bytearray(settings_to_bytes(default_settings()))
    raw[7] = LEVELS  # the level byte (after the head's length), one past the last level
    with pytest.raises(ValueError):
        settings_from_bytes(bytes(raw))


def test_settings_bytes_are_checked_on_the_way_in():
    good = settings_to_bytes(default_settings())
    for bad in (
        good[:4],
        good[:7] + b"\x00" * (len(good) - 7),
        bytes([8, 0, 0, 30, 0, 120, 8, 1, 0]) + good[9:],  # an unknown flag
        bytes([7]) + good[1:],  # a head shorter than any firmware wrote
        good + b"\x00\x01",  # a newer firmware's rule, on: this one can't play it
    ):
        with pytest.raises(ValueError):
            settings_from_bytes(bad)
    # A newer firmware's rule left off (0) is skipped, as is a longer head.
    assert settings_from_bytes(good + b"\x00\x00") == default_settings()
    assert settings_from_bytes(bytes([9]) + good[1:9] + b"\x05" + good[9:]) == default_settings()


def _stats_after(results, level=1, me=0):
    st = Stats()
    for r in results:
        st.record_hand(level, r, me)
    return st.levels[level]


def test_hand_counters_from_the_players_side():
    results = [
        (GIN, 0, 40, 0),
        (GIN, 1, 40, 1),
        (BIG_GIN_WIN, 0, 50, 0),
        (UNDERCUT, 0, 15, 1),  # I undercut the computer
        (UNDERCUT, 1, 12, 0),  # the computer undercut me
        (UNDERCUT, 1, 12, 0),
        (KNOCK_WIN, 0, 9, 0),
        (CANCELLED, -1, 0, -1),
    ]
    s = _stats_after(results)
    assert (s.hands, s.gins, s.big_gins, s.undercuts_given, s.undercuts_taken) == (8, 1, 1, 1, 2)
    s1 = _stats_after(results, me=1)
    assert (s1.gins, s1.big_gins, s1.undercuts_given, s1.undercuts_taken) == (1, 0, 2, 1)


def test_hand_result_objects_count_too():
    m = Match(RuleSet(), 5)
    results = []

    def grab(mm):
        if mm.round.result is not None and (not results or results[-1] is not mm.round.result):
            results.append(mm.round.result)

    play(m, 5, grab)
    st_obj, st_tup = Stats(), Stats()
    for r in results:
        st_obj.record_hand(0, r)
        st_tup.record_hand(0, r.summary())
    assert st_obj.to_bytes() == st_tup.to_bytes()
    assert st_obj.levels[0].hands == len(m.summaries)


def _finished(seed, rules=None):
    m = Match(rules or RuleSet(target=50), seed)
    play(m, seed)
    assert m.state == GAME_OVER
    return m


def test_match_counters_streaks_and_best_win():
    st = Stats()
    wins = losses = 0
    best = 0
    streak = longest = 0
    for seed in range(12):
        m = _finished(seed)
        st.record_match(2, m)
        if m.winner == 0:
            wins += 1
            streak += 1
            longest = max(longest, streak)
            best = max(best, m.final_tally(0) - m.final_tally(1))
        else:
            losses += 1
            streak = 0
    s = st.levels[2]
    assert (s.matches, s.wins, s.streak, s.best_streak, s.best_match) == (12, wins, streak, longest, best)
    assert wins and losses  # the seeds give both outcomes, so both branches ran
    assert st.levels[0].matches == 0 and st.levels[1].matches == 0


def test_keys_make_recording_idempotent():
    st = Stats()
    assert st.record_hand(1, (GIN, 0, 30, 0), key=(77, 1)) is True
    assert st.record_hand(1, (GIN, 0, 30, 0), key=(77, 1)) is False  # replayed after a power cut
    assert st.record_hand(1, (GIN, 0, 30, 0), key=(77, 2)) is True
    assert st.record_hand(1, (GIN, 0, 30, 0), key=(78, 1)) is True  # another match
    m = _finished(3)
    assert st.record_match(1, m, key=m.seed) is True
    assert st.record_match(1, m, key=m.seed) is False
    assert st.levels[1].gins == 3 and st.levels[1].matches == 1
    back = Stats.from_bytes(st.to_bytes())
    assert back.record_hand(1, (GIN, 0, 30, 0), key=(78, 1)) is False  # the marks survive a reboot
    assert back.record_match(1, m, key=m.seed) is False


def test_reset_one_level_or_all():
    st = Stats()
    for lv in range(LEVELS):
        st.record_hand(lv, (GIN, 0, 30, 0))
    st.reset(1)
    assert [st.levels[i].hands for i in range(3)] == [1, 0, 1]
    st.reset()
    assert st.to_bytes() == Stats().to_bytes()


def test_stats_bytes_round_trip_and_checks():
    st = Stats()
    for lv in range(LEVELS):
        for i, name in enumerate(STAT_FIELDS):
            setattr(st.levels[lv], name, 1000 * lv + 10 * i + 100)
        s = st.levels[lv]
        s.wins = s.matches - lv  # consistent: streak <= best streak <= wins <= matches
        s.best_streak = s.wins - 1
        s.streak = 2
        s.hands = s.gins + s.big_gins + s.undercuts_given + s.undercuts_taken + 7  # no more gins than hands
    st.hand_mark = (4000000000, 12)
    st.match_mark = 99
    data = st.to_bytes()
    back = Stats.from_bytes(data)
    assert back.to_bytes() == data
    assert back.levels[2].gins == st.levels[2].gins and back.hand_mark == (4000000000, 12)
    for bad in (data[:-1], data + b"\x00", bytes((STATS_VERSION + 1,)) + data[1:], b"\x01" + data[1:]):
        with pytest.raises(ValueError):
            Stats.from_bytes(bad)
    inconsistent = Stats()
    inconsistent.levels[0].wins = 5  # more wins than matches played
    with pytest.raises(ValueError):
        Stats.from_bytes(inconsistent.to_bytes())


def test_version_1_stats_still_load_with_the_expert_at_zero():
    """Version 1 stored three levels (easy, normal, hard); the expert came with version 2."""
    import struct

    old_levels = 3
    vals = []
    for lv in range(old_levels):
        vals.extend([10 + lv, 5 + lv, 40, 2, 1, 3, 4, 25, 1, 2 + lv])
    v1 = struct.pack(">BIHIB%dI" % (len(STAT_FIELDS) * old_levels), 1, 77, 3, 0, 0, *vals)
    st = Stats.from_bytes(v1)
    assert [st.levels[lv].matches for lv in range(old_levels)] == [10, 11, 12]
    assert st.levels[2].best_streak == 4 and st.hand_mark == (77, 3) and st.match_mark == -1
    assert LEVELS == 4 and st.levels[3].values() == [0] * len(STAT_FIELDS)
    again = st.to_bytes()
    assert again[0] == STATS_VERSION and len(again) > len(
        v1
    )  # saved again as today's, with the expert's counters
    assert Stats.from_bytes(again).levels[1].wins == 6
    with pytest.raises(ValueError):
        Stats.from_bytes(b"\x02" + v1[1:])  # a version-2 mark on a version-1 length
    with pytest.raises(ValueError):
        Stats.from_bytes(v1[:-1])


def test_stat_lines_fit_the_screen():
    st = Stats()
    for name in STAT_FIELDS:
        setattr(st.levels[1], name, 9999)
    lines = st.lines(1)
    assert len(lines) >= 6
    for line in lines:
        assert len(line) <= 21, line
    assert lines[0] == "Played 9999  Won 9999"


def test_profile_files_round_trip_and_fall_back():
    fs = MemFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    settings, stats, msg = mgr.load_profile()
    assert (settings, msg) == (default_settings(), None) and stats.to_bytes() == Stats().to_bytes()
    first = dict(default_settings(), contrast=10)
    mgr.save_settings(first)
    second = dict(default_settings(), contrast=20, sound=False)
    mgr.save_settings(second)
    stats.record_hand(0, (GIN, 0, 25, 0))
    mgr.save_stats(stats)
    s2, st2, msg = sg.SaveManager(FileStorage("", fs)).load_profile()
    assert s2 == second and st2.levels[0].gins == 1 and msg is None
    # damaged settings: the backup; both damaged: defaults, and the screen says so
    fs.files["settings.sav"] = fs.files["settings.sav"][:-1]
    s3, _st, msg = sg.SaveManager(FileStorage("", fs)).load_profile()
    assert s3 == first and msg == sg.MSG_SETTINGS_BACKUP  # not "Backup save loaded": there's no game
    fs.files["settings.sav.bak"] = b"GINs" + b"\x00" * 20
    s4, _st, msg = sg.SaveManager(FileStorage("", fs)).load_profile()
    assert s4 == default_settings() and msg == sg.MSG_SETTINGS
    fs.files["stats.sav"] = sg.pack_record(sg.MAGIC_GAME, b"")  # a file of another kind
    _s, st5, msg = sg.SaveManager(FileStorage("", fs)).load_profile()
    assert st5.levels[0].gins == 0 and msg == sg.MSG_STATS
