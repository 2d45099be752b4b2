"""savegame.py: the record format, loading with fallbacks, power cuts at every point, fuzzing, endurance."""

import random
import struct
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import savegame as sg
from device.storage import FileStorage, MemFS
from gin import ai
from gin.cards import GinError
from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
from gin.round import DRAW_STOCK, KNOCK, TAKE_DISCARD
from gin.rules import RuleSet
from prefs import LEVELS, Stats, default_settings

from flakyfs import FlakyFS, PowerCut
from savecheck import check_invariants, match_fingerprint, play, states

HOLLY = RuleSet(hollywood=True)
MODERN_OK = RuleSet.preset_rules("modern", oklahoma=True, oklahoma_spade_double=True)


def snap_of(m, **kw):
    return sg.snapshot_of(m, **kw)


def loaded(st_or_fs):
    storage = st_or_fs if isinstance(st_or_fs, FileStorage) else FileStorage("", st_or_fs)
    return sg.SaveManager(storage).load_game()


@pytest.fixture(scope="module")
def sample_states():
    out = []
    for rules, seed in (
        (RuleSet(), 11),
        (HOLLY, 12),
        (MODERN_OK, 13),
        (RuleSet(straight=True, target=50), 14),
    ):
        out += states(rules, seed)
    return out


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


def _fix_crc(rec):
    rec = bytes(rec)
    return rec[:-4] + struct.pack(">I", zlib.crc32(rec[:-4]))


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


# --- power cuts --------------------------------------------------------------------------------------


def _cut_during_save(prev_snaps, new_snap, **flaky):
    """Save prev_snaps normally, then new_snap with a power cut; return the fs after the 'reboot'."""
    base = MemFS()
    mgr = sg.SaveManager(FileStorage("", base))
    for s in prev_snaps:
        mgr.save_game(s)
    fs = FlakyFS(base, **flaky)
    mgr.storage = FileStorage("", fs)
    try:
        mgr.save_game(new_snap)
    except PowerCut:
        pass
    return base, fs


def test_power_cut_at_every_op_and_byte_of_a_save(sample_states):
    picks = sample_states[1:40:3]
    checked = 0
    for i in range(1, len(picks)):
        prev = [snap_of(picks[i - 2])] if i >= 2 else []
        prev.append(snap_of(picks[i - 1]))
        new = snap_of(picks[i])
        want = {match_fingerprint(picks[i - 1]), match_fingerprint(picks[i])}
        n = len(sg.encode_game(new))
        cuts = [{"fail_op": k, "torn": t, "seed": k} for k in range(1, 5) for t in ("truncate", "garble")]
        cuts += [
            {"fail_byte": k, "torn": t, "seed": k} for k in range(1, n + 1) for t in ("truncate", "garble")
        ]
        for cut in cuts:
            base, fs = _cut_during_save(prev, new, **cut)
            snap, msg = loaded(base)
            assert snap is not None, cut
            assert match_fingerprint(snap["match"]) in want, cut
            check_invariants(snap["match"])
            checked += 1
    assert checked > 1500


def test_power_cut_during_the_first_save_starts_fresh_or_resumes():
    m = Match(RuleSet(), 9)
    new = snap_of(m)
    for k in range(1, 4):
        base, fs = _cut_during_save([], new, fail_op=k)
        snap, msg = loaded(base)
        assert snap is None or match_fingerprint(snap["match"]) == match_fingerprint(m)
    for k in range(1, len(sg.encode_game(new)) + 1):
        base, fs = _cut_during_save([], new, fail_byte=k, torn="garble", seed=k)
        snap, msg = loaded(base)
        assert snap is None and msg in (None, sg.MSG_LOST)


def test_power_cut_anywhere_in_a_played_hand():
    """Autosave after every action of a whole match; cut the power at every op of the first hands."""
    record = []

    def keep(m):
        record.append((snap_of(m), match_fingerprint(m)))

    play(Match(HOLLY, 21), 21, keep)
    # the op count of an uninterrupted run, if the cuts reach past its end
    total_ops = None
    cut_saves = set()  # which save each cut interrupted
    for n in range(1, 400):
        base = MemFS()
        fs = FlakyFS(base, fail_op=n, torn="garble", seed=n)
        mgr = sg.SaveManager(FileStorage("", fs))
        done = -1
        try:
            for i, (snap, _fp) in enumerate(record):
                mgr.save_game(snap)
                done = i
        except PowerCut:
            pass
        if not fs.dead:
            total_ops = fs.ops
            break
        cut_saves.add(done + 1)
        snap, msg = loaded(base)
        got = match_fingerprint(snap["match"]) if snap else None
        ok = {record[done][1]} if done >= 0 else {None}
        if done + 1 < len(record):
            ok.add(record[done + 1][1])
        assert got in ok, (n, done)
    # every op of the first saves was cut once: the cuts fell in the first save, in saves of the
    # hand in play and beyond (a write and up to two renames per save: about 130 saves)
    assert total_ops is not None or len(cut_saves) > 100, sorted(cut_saves)
    assert 0 in cut_saves and len(cut_saves) >= min(100, len(record)), len(cut_saves)


def test_power_cut_while_saving_settings_and_stats():
    stats = Stats()
    stats.levels[1].hands = 5
    settings = dict(default_settings(), contrast=9, hints=False)
    for target in ("settings", "stats"):
        for k in range(1, 200):
            base = MemFS()
            mgr = sg.SaveManager(FileStorage("", base))
            mgr.save_settings(default_settings())
            mgr.save_stats(Stats())
            mgr.storage = FileStorage("", FlakyFS(base, fail_byte=k, torn="garble", seed=k))
            try:
                if target == "settings":
                    mgr.save_settings(settings)
                else:
                    mgr.save_stats(stats)
            except PowerCut:
                pass
            s2, st2, msg = sg.SaveManager(FileStorage("", base)).load_profile()
            assert s2 in (default_settings(), settings)
            assert st2.to_bytes() in (Stats().to_bytes(), stats.to_bytes())


# --- fuzzing -------------------------------------------------------------------------------------------


def _corrupt(rng, valid, kind):
    rec = bytearray(valid)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
    if kind == 1:
        return bytes(rec[: rng.randrange(len(rec))])
    if kind == 2:
        for _ in range(rng.randrange(1, 5)):
            rec[rng.randrange(len(rec))] ^= rng.randrange(1, 256)
        return bytes(rec)
    if kind == 3:
        # damage behind a valid checksum: only decoding and the replay can catch it
        for _ in range(rng.randrange(1, 4)):
            rec[sg.HEAD + rng.randrange(len(rec) - sg.OVERHEAD)] = rng.randrange(256)
        return _fix_crc(rec)
    if kind == 4:
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(120)))
        return sg.pack_record(sg.MAGIC_GAME, body)
    if kind == 5:
        # a payload cut short or lengthened, with a consistent header and checksum
        payload = bytes(rec[sg.HEAD : -4])
        cut = rng.randrange(len(payload) + 8)
        payload = payload[:cut] + bytes(rng.randrange(256) for _ in range(max(0, cut - len(payload))))
        return sg.pack_record(sg.MAGIC_GAME, payload)
    if kind == 6:
        return bytes(rec) + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    rec[4] = rng.choice((0, sg.VERSION + 1, 255))
    return _fix_crc(rec)


def test_fuzz_ten_thousand_damaged_saves(sample_states):
    rng = random.Random(20240)
    pool = [(sg.encode_game(snap_of(m)), match_fingerprint(m)) for m in sample_states]
    outcomes = {"fresh": 0, "backup": 0, "decoded": 0}
    for i in range(10000):
        kind = i % 8
        valid, _fp = pool[rng.randrange(len(pool))]
        bad = _corrupt(rng, valid, kind)
        fs = MemFS()
        fs.files["game.sav"] = bad
        backup = rng.randrange(3)  # 0: none, 1: a good backup, 2: a damaged backup
        good, good_fp = pool[rng.randrange(len(pool))]
        if backup == 1:
            fs.files["game.sav.bak"] = good
        elif backup == 2:
            fs.files["game.sav.bak"] = _corrupt(rng, good, rng.randrange(8))
        snap, msg = loaded(fs)  # must not raise
        if snap is None:
            assert msg == sg.MSG_LOST
            outcomes["fresh"] += 1
            continue
        check_invariants(snap["match"])
        if msg is None:
            # the damaged file itself decoded to a consistent game (possible only behind a valid CRC)
            assert kind in (3, 4, 5)
            outcomes["decoded"] += 1
        else:
            assert msg == sg.MSG_BACKUP
            if backup == 1:
                assert match_fingerprint(snap["match"]) == good_fp
            outcomes["backup"] += 1
    assert outcomes["fresh"] > 1000 and outcomes["backup"] > 1000


@given(st.binary(max_size=350), st.binary(max_size=350))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_bytes_load_without_raising(main, backup):
    fs = MemFS({"game.sav": main, "game.sav.bak": backup, "settings.sav": main, "stats.sav": backup})
    mgr = sg.SaveManager(FileStorage("", fs))
    snap, msg = mgr.load_game()
    if snap is None:
        assert msg in (None, sg.MSG_LOST)  # nothing there, or one line saying the save was lost
    else:
        check_invariants(snap["match"])  # whatever loads is a consistent, playable match
        assert snap["match"].seed == snap["seed"] and msg in (None, sg.MSG_BACKUP)
    settings_, stats, msg2 = mgr.load_profile()
    assert set(settings_) == set(default_settings())
    assert isinstance(stats, Stats) and len(stats.levels) == LEVELS


# --- endurance -------------------------------------------------------------------------------------------


def _players(seed):
    return [ai.make_player("hard", seed), ai.make_player("normal", seed + 1)]


def _choose(players, m):
    p = m.round.player
    return players[p].choose(m.observation(p))


def endurance(n_matches, first_seed=1000):
    """Play computer vs computer twice per seed: straight through, and saving, reloading and
    rebuilding everything from the save after every action. Returns (identical count, save sizes)."""
    same = 0
    sizes = []
    for k in range(n_matches):
        seed = first_seed + k
        rules = (RuleSet(), HOLLY, MODERN_OK, RuleSet(target=150))[k % 4]
        # straight through
        m = Match(rules, seed)
        players = _players(seed)
        while m.state != GAME_OVER:
            if m.state == HAND_OVER:
                m.next_hand()
                continue
            m.apply(_choose(players, m))
        straight = match_fingerprint(m)
        # with a save and a full reload after every action
        fs = MemFS()
        m2 = Match(rules, seed)
        while m2.state != GAME_OVER:
            if m2.state == HAND_OVER:
                m2.next_hand()
            else:
                m2.apply(_choose(_players(seed), m2))  # players made anew, as after a reboot
            n = sg.SaveManager(FileStorage("", fs)).save_game(snap_of(m2))
            if n:
                sizes.append(n)
            snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
            assert msg is None
            m2 = snap["match"]
            check_invariants(m2)
        same += match_fingerprint(m2) == straight
    return same, sizes


def test_endurance_at_the_match_level():
    # The app-level run (test_saves_app.py) plays 50 matches; this one needs no app or screens.
    same, sizes = endurance(16)
    assert same == 16
    assert max(sizes) <= 300


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
