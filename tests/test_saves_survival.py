"""savegame.py survives: a power cut at every op and byte of a save, ten thousand damaged saves and
random bytes, and whole matches saved, reloaded and rebuilt after every action. The format itself is
in test_saves.py.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import savegame as sg
from device.storage import FileStorage, MemFS
from gin import ai
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.rules import RuleSet
from prefs import LEVELS, Stats, default_settings

from flakyfs import FlakyFS, PowerCut
from savecheck import (
    HOLLY,
    MODERN_OK,
    check_invariants,
    loaded,
    match_fingerprint,
    play,
    sample_matches,
    snap_of,
)
from savecheck import fix_crc as _fix_crc  # the tests' own name for it


@pytest.fixture(scope="module")
def sample_states():
    return sample_matches()


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
