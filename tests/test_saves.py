"""savegame.py: the record format, sizes, loading with fallbacks, link matches' saves.

Power cuts at every point, fuzzing and endurance are in test_saves_survival.py.
"""

import random
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import savegame as sg
from device.storage import FileStorage, MemFS
from gin import ai
from gin.cards import GinError
from gin.match import HAND_OVER, PLAYING, Match
from gin.round import DRAW_STOCK, KNOCK, TAKE_DISCARD
from gin.rules import RuleSet
from prefs import default_settings

from savecheck import HOLLY, check_invariants, loaded, match_fingerprint, play, sample_matches, snap_of
from savecheck import fix_crc as _fix_crc  # the tests' own name for it


@pytest.fixture(scope="module")
def sample_states():
    return sample_matches()


# --- the record -------------------------------------------------------------------------


def test_crc32_is_the_standard_one():
    # binascii.crc32 on MicroPython and CPython is zlib's CRC-32 (checked on the wasm port in tests/mp)
    assert sg.crc32(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789")


def test_record_layout():
    rec = sg.pack_record(b"GINg", b"\x01\x02\x03")
    assert rec[:4] == b"GINg" and rec[4] == sg.VERSION and rec[5:7] == b"\x00\x03"
    assert rec[7:10] == b"\x01\x02\x03"
    assert struct.unpack(">I", rec[10:])[0] == zlib.crc32(rec[:10])
    assert sg.unpack_record(rec, b"GINg") == b"\x01\x02\x03"


@pytest.mark.parametrize(
    "damage,reason",
    [
        (lambda r: None, "missing"),
        (lambda r: r[:5], "truncated"),
        (lambda r: r[:-1], "truncated"),
        (lambda r: r + b"\x00", "wrong length"),
        (lambda r: b"GINs" + r[4:], "not a save"),
        (lambda r: r[:7] + bytes([r[7] ^ 1]) + r[8:], "checksum"),
        (lambda r: _fix_crc(r[:4] + b"\x09" + r[5:]), "version 9"),
    ],
)
def test_unpack_refuses(damage, reason):
    rec = sg.pack_record(b"GINg", b"\x01\x02\x03")
    with pytest.raises(sg.SaveError) as e:
        sg.unpack_record(damage(rec), b"GINg")
    assert str(e.value) == reason


def test_actions_pack_a_turn_per_byte():
    acts = bytes([106, 106, DRAW_STOCK, 5, TAKE_DISCARD, 40, DRAW_STOCK, KNOCK + 7, 108])
    packed = sg.pack_actions(acts)
    assert packed == bytes([106, 106, 124 + 5, 176 + 40, DRAW_STOCK, KNOCK + 7, 108])
    assert sg.unpack_actions(packed) == acts
    for bad in (bytes([228]), bytes([240]), bytes([5, 255])):
        with pytest.raises(sg.SaveError):
            sg.unpack_actions(bad)


@given(st.lists(st.integers(0, 123), max_size=260))
@settings(max_examples=300, deadline=None)
def test_actions_round_trip_any_sequence(acts):
    assert sg.unpack_actions(sg.pack_actions(bytes(acts))) == bytes(acts)


def test_round_trip_every_field(sample_states):
    seen = set()
    for i, m in enumerate(sample_states):
        mode = i % (sg.MODE_LINK + 1)  # every mode, the link's fields included
        level = (i // (sg.MODE_LINK + 1)) % len(ai.LEVELS)
        snap = snap_of(
            m,
            mode=mode,
            level=level,
            sort=i % 2,
            cursor=i % 53 - 1,  # a card id or -1 (none): the range a save may hold
            aiseed=i * 2654435761 % 2**32,
        )
        keys = ["mode", "level", "rules", "seed", "summaries", "actions", "sort", "cursor", "aiseed", "over"]
        if mode == sg.MODE_LINK:
            snap["seat"] = i // 4 % 2
            snap["prev"] = bytes(sample_states[i - 1].round.actions)  # the last hand, kept to resend
            keys += ["seat", "prev"]
        back = sg.decode_game(sg.encode_game(snap))
        for k in keys:
            assert back[k] == snap[k], k
        m2 = sg.rebuild(back)
        assert match_fingerprint(m2) == match_fingerprint(m)
        check_invariants(m2)
        seen.add((mode, level))
    assert {md for md, _ in seen} == set(range(sg.MODE_LINK + 1))
    assert {lv for _, lv in seen} == set(range(len(ai.LEVELS)))


def test_encode_refuses_what_it_cannot_store():
    m = Match(RuleSet(), 1)
    for change in (
        {"mode": 4},
        {"mode": 3, "seat": 2},
        {"level": -1},
        {"sort": 2},
        {"seed": 2**32},
        {"rules": b"\x00"},
        {"summaries": [(2, -1, 20, 0)]},
    ):
        snap = snap_of(m)
        snap.update(change)
        with pytest.raises((ValueError, struct.error)):
            sg.encode_game(snap)


def test_result_screen_save_brings_the_result_back():
    play_until = []

    def stop(mm):
        if mm.state == HAND_OVER and not play_until:
            play_until.append(mm.record())

    play(Match(RuleSet(), 3), 3, stop)
    seed, hands = play_until[0]
    m = Match.replay(RuleSet(), seed, hands)
    assert m.state == HAND_OVER
    snap = snap_of(m)
    assert snap["over"] is True
    m2 = sg.rebuild(sg.decode_game(sg.encode_game(snap)))
    assert m2.state == HAND_OVER and m2.round.result is not None
    assert vars(m2.round.result) == vars(m.round.result)
    assert match_fingerprint(m2) == match_fingerprint(m)
    # An app that saved Match.summaries and the finished hand's actions without 'over' still loads.
    del snap["over"]
    fs = MemFS()
    sg.SaveManager(FileStorage("", fs)).save_game(snap)
    back, msg = loaded(fs)
    assert msg is None and match_fingerprint(back["match"]) == match_fingerprint(m)


def test_inconsistent_saves_are_refused():
    m = Match(RuleSet(), 4)
    for a in (106, 106, DRAW_STOCK):
        m.apply(a)
    snap = snap_of(m)
    # the same moves on another deal: a discard of a card that is not there
    other = Match(RuleSet(), 5)
    missing = [
        c
        for c in range(52)
        if c not in other.round.cards_of(other.round.player) and c not in other.round.pile
    ]
    wrong = dict(snap, seed=5, actions=bytes([106, 106, DRAW_STOCK, missing[0]]))
    with pytest.raises(GinError):
        sg.rebuild(sg.decode_game(sg.encode_game(wrong)))
    for summ in ([(0, 1, 10, 0)], [(4, -1, 3, -1)], [(1, 0, 10, 0)], [(5, 0, 1, 0)]):
        bad = dict(snap, summaries=summ, actions=b"")
        with pytest.raises(sg.SaveError):
            sg.decode_game(sg.encode_game(bad))
    # more hands than the match could hold: the game ended before the last summaries
    many = dict(snap, summaries=[(2, 0, 200, 0)] * 3, actions=b"")
    with pytest.raises(sg.SaveError):
        sg.rebuild(sg.decode_game(sg.encode_game(many)))


# --- sizes ------------------------------------------------------------------------------------------


def test_sizes_of_real_games():
    worst = 0
    sizes = []
    for seed in range(6):

        def measure(m):
            sizes.append(len(sg.encode_game(snap_of(m))))

        play(Match(HOLLY if seed % 2 else RuleSet(), 100 + seed), seed, measure)
    worst = max(sizes)
    assert worst <= 300, worst
    assert sum(sizes) / len(sizes) < 150


def test_worst_case_size_is_bounded():
    # A 100-turn hand (both players taking from the pile over and over) late in a long Hollywood match.
    m = Match(HOLLY, 7)
    snap = snap_of(m)
    snap["summaries"] = [(0, i % 2, 300 if i % 5 == 0 else 25, i % 2) for i in range(40)]
    turns = bytes([106, 106]) + bytes([TAKE_DISCARD, 20, DRAW_STOCK, 30]) * 50
    snap["actions"] = turns + bytes([KNOCK + 3, 108])
    size = len(sg.encode_game(snap))
    # header 11, flags+reserved+cursor 3, seeds 8, rules 21 (shutout 200 takes 2 bytes), 40 hands 1 + 88,
    # actions 2 passes + 100 turns + knock + spread
    assert size == sg.OVERHEAD + 3 + 8 + (1 + 19 + 1) + 1 + 88 + (2 + 100 + 2), size
    assert size < 300


def test_the_benchmarks_pathological_save_is_legal_and_loads():
    from host_tools.bench.saves import pathological

    m = pathological()
    assert m.round.turns == 99 and len(m.summaries) == 40 and m.state == PLAYING
    rec = sg.encode_game(snap_of(m))
    assert len(rec) <= 300
    fs = MemFS({sg.GAME_FILE: rec})
    snap, msg = loaded(fs)
    assert msg is None and match_fingerprint(snap["match"]) == match_fingerprint(m)


# --- the manager -------------------------------------------------------------------------------------


def test_save_load_and_backup(sample_states):
    fs = MemFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    a, b = sample_states[3], sample_states[4]
    assert mgr.save_game(snap_of(a)) > 0
    assert mgr.save_game(snap_of(b)) > 0
    assert mgr.save_game(snap_of(b)) == 0  # unchanged: nothing written
    snap, msg = loaded(fs)
    assert msg is None and match_fingerprint(snap["match"]) == match_fingerprint(b)
    fs.files["game.sav"] = b"\x00" * 40
    snap, msg = loaded(fs)
    assert msg == sg.MSG_BACKUP and match_fingerprint(snap["match"]) == match_fingerprint(a)
    fs.files["game.sav.bak"] = fs.files["game.sav.bak"][:-3]
    snap, msg = loaded(fs)
    assert snap is None and msg == sg.MSG_LOST


def test_no_save_is_a_quiet_fresh_start():
    assert loaded(MemFS()) == (None, None)


def saved_twice(sample_states):
    """(flash, SaveManager) after saving sample states 1 then 2: 2 in the file, 1 its backup."""
    fs = MemFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    mgr.save_game(snap_of(sample_states[1]))
    mgr.save_game(snap_of(sample_states[2]))
    return fs, mgr


def test_damaged_file_never_becomes_the_backup(sample_states):
    fs, mgr = saved_twice(sample_states)
    good_backup = fs.files["game.sav.bak"]
    fs.files["game.sav"] = b"GINg junk"
    mgr2 = sg.SaveManager(FileStorage("", fs))
    snap, msg = mgr2.load_game()
    assert msg == sg.MSG_BACKUP
    mgr2.save_game(snap_of(sample_states[5]))
    assert fs.files["game.sav.bak"] == good_backup
    assert any("game.sav: " in line for line in mgr2.log)


def test_other_kinds_and_versions_fall_back(sample_states):
    for bad in (
        sg.pack_record(sg.MAGIC_SETTINGS, b"\x00" * 11),
        _fix_crc(
            sg.encode_game(snap_of(sample_states[2]))[:4]
            + bytes((sg.VERSION + 1,))
            + sg.encode_game(snap_of(sample_states[2]))[5:]
        ),
        b"PK\x03\x04 a zip file, not a save",
        b"",
    ):
        fs, mgr = saved_twice(sample_states)
        fs.files["game.sav"] = bad
        snap, msg = loaded(fs)
        assert msg == sg.MSG_BACKUP
        assert match_fingerprint(snap["match"]) == match_fingerprint(sample_states[1])


def test_complete_temp_copy_rescues_a_missing_file(sample_states):
    fs, mgr = saved_twice(sample_states)
    # power cut between "file -> .bak" and ".tmp -> file": the newest copy is the temporary one
    fs.files["game.sav.tmp"] = sg.encode_game(snap_of(sample_states[3]))
    fs.files["game.sav.bak"] = fs.files.pop("game.sav")
    snap, msg = loaded(fs)
    assert msg is None
    assert match_fingerprint(snap["match"]) == match_fingerprint(sample_states[3])


def test_clear_game_forgets_every_copy(sample_states):
    fs, mgr = saved_twice(sample_states)
    mgr.clear_game()
    assert fs.files == {}
    assert loaded(fs) == (None, None)
    assert mgr.save_game(snap_of(sample_states[2])) > 0  # not mistaken for "unchanged"


def test_flash_errors_are_reported_not_raised(sample_states):
    class FullFS(MemFS):
        def write(self, path, data):
            raise OSError(28)

    fs = FullFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    assert mgr.save_game(snap_of(sample_states[1])) == 0
    assert mgr.error == sg.MSG_NO_FLASH and len(mgr.error) <= 21
    assert mgr.save_settings(default_settings()) == 0


def test_a_storage_that_raises_on_read_is_survived():
    class Broken:
        def read(self, name):
            raise RuntimeError("bus error")

        read_backup = read_temp = read

    assert sg.SaveManager(Broken()).load_game() == (None, None)
    settings, stats, msg = sg.SaveManager(Broken()).load_profile()
    assert settings == default_settings() and msg is None


def test_messages_fit_one_line():
    for msg in (
        sg.MSG_BACKUP,
        sg.MSG_LOST,
        sg.MSG_SETTINGS,
        sg.MSG_STATS,
        sg.MSG_SETTINGS_BACKUP,
        sg.MSG_STATS_BACKUP,
        sg.MSG_NO_FLASH,
    ):
        assert 0 < len(msg) <= 21


# --- link matches (save version 2) -------------------------------------------------------------


def test_a_link_match_save_keeps_its_seat_and_the_hand_before():
    m = Match(RuleSet(), 5)
    rng = random.Random(5)
    while m.state == PLAYING:
        m.apply(rng.choice(m.legal_actions()))
    assert m.state == HAND_OVER
    prev = bytes(m.round.actions)
    m.next_hand()
    m.apply(m.round.legal_actions()[0])
    snap = snap_of(m)
    snap.update({"mode": sg.MODE_LINK, "seat": 1, "prev": prev})
    data = sg.encode_game(snap)
    back = sg.decode_game(data)
    assert back["mode"] == sg.MODE_LINK and back["seat"] == 1 and back["prev"] == prev
    assert back["actions"] == bytes(m.round.actions)
    assert match_fingerprint(sg.rebuild(back)) == match_fingerprint(m)


def test_version_1_saves_still_load_and_cannot_claim_a_link_match():
    m = Match(RuleSet(), 9)
    data = sg.encode_game(snap_of(m))
    v1 = _fix_crc(data[:4] + b"\x01" + data[5:])
    assert match_fingerprint(sg.rebuild(sg.decode_game(v1))) == match_fingerprint(m)
    snap = snap_of(m)
    snap.update({"mode": sg.MODE_LINK, "seat": 0})
    link = sg.encode_game(snap)
    with pytest.raises(sg.SaveError):
        sg.decode_game(_fix_crc(link[:4] + b"\x01" + link[5:]))
