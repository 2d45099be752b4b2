"""Saves on MicroPython: the same bytes as CPython, a real file round trip, and a power-cut sweep.

Plain functions and bare asserts: the project's runner executes this file
under the MicroPython WebAssembly port, and pytest runs it on CPython.
"""

import os

import savegame as sg
from device.storage import FileStorage, MemFS, OsFS
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import BIG_GIN, KNOCK
from gin.rules import RuleSet
from prefs import Stats, default_settings

# encode_game of _sample_state() on CPython: MicroPython must write the very same bytes.
SAMPLE_LEN = 62
SAMPLE_CRC = 0x4AF3EA72  # save version 2


class PowerCut(Exception):
    pass


class CutFS:
    """MemFS that dies during its Nth operation or at its Nth written byte (a torn write keeps a prefix)."""

    def __init__(self, base, op=0, byte=0):
        self.base = base
        self.op = op
        self.byte = byte
        self.ops = 0
        self.nbytes = 0
        self.dead = False

    def _tick(self):
        if self.dead:
            raise PowerCut()
        self.ops += 1
        return self.ops == self.op

    def read(self, path):
        return self.base.read(path)

    def exists(self, path):
        return self.base.exists(path)

    def mkdir(self, path):
        pass

    def write(self, path, data):
        keep = len(data)
        cut = self._tick()
        if cut:
            keep = len(data) // 2
        if self.byte and self.nbytes + keep >= self.byte:
            keep = self.byte - 1 - self.nbytes
            cut = True
        self.nbytes += keep
        if cut:
            self.base.write(path, data[:keep])
            self.dead = True
            raise PowerCut()
        self.base.write(path, data)

    def rename(self, old, new):
        if self._tick():
            self.dead = True
            raise PowerCut()
        self.base.rename(old, new)

    def remove(self, path):
        if self._tick():
            self.dead = True
            raise PowerCut()
        self.base.remove(path)


def _policy(m):
    legal = m.legal_actions()
    for a in legal:
        if KNOCK <= a < KNOCK + 52 or a == BIG_GIN:
            return a
    return legal[0]


def _play(m, n):
    """n deterministic actions (knock when allowed, else the first legal action)."""
    for _ in range(n):
        if m.state == GAME_OVER:
            break
        if m.state == HAND_OVER:
            m.next_hand()
        else:
            m.apply(_policy(m))
    return m


def _sample_state():
    return _play(Match(RuleSet(hollywood=True), 4242), 150)


def _fp(m):
    cols = [(c.totals[0], c.totals[1], c.wins[0], c.wins[1], c.closed) for c in m.columns]
    r = m.round
    return (
        m.state,
        m.dealer,
        list(m.summaries),
        cols,
        bytes(r.actions),
        list(r.hands[0]),
        list(r.hands[1]),
        list(r.pile),
    )


def test_crc32_matches_cpython():
    assert sg.crc32(b"123456789") & 0xFFFFFFFF == 0xCBF43926


def test_encoding_is_byte_identical_to_cpython():
    data = sg.encode_game(sg.snapshot_of(_sample_state(), 0, 2, 1, 5, 123456789))
    assert len(data) == SAMPLE_LEN
    assert sg.crc32(data) & 0xFFFFFFFF == SAMPLE_CRC


def test_round_trip_through_real_files():
    root = "/tmp/mp_saves_test"
    st = FileStorage(root, OsFS())
    for name in ("game.sav", "settings.sav", "stats.sav"):
        st.remove(name)  # what a failed earlier run may have left
    mgr = sg.SaveManager(st)
    a = _play(Match(RuleSet(), 77), 40)
    b = _play(Match(RuleSet(), 77), 55)
    assert mgr.save_game(sg.snapshot_of(a, 0, 1, 0, 3, 9)) > 0
    assert mgr.save_game(sg.snapshot_of(b, 0, 1, 0, 4, 9)) > 0
    snap, msg = sg.SaveManager(FileStorage(root, OsFS())).load_game()
    assert msg is None
    assert _fp(snap["match"]) == _fp(b)
    assert snap["cursor"] == 4 and snap["aiseed"] == 9
    assert st.read_backup("game.sav") == sg.encode_game(sg.snapshot_of(a, 0, 1, 0, 3, 9))
    stats = Stats()
    stats.record_hand(2, (2, 0, 30, 0))
    mgr.save_stats(stats)
    mgr.save_settings(dict(default_settings(), contrast=200, left=True))
    settings, stats2, msg = sg.SaveManager(FileStorage(root, OsFS())).load_profile()
    assert msg is None and settings["contrast"] == 200 and settings["left"] is True
    assert stats2.levels[2].gins == 1
    for name in ("game.sav", "settings.sav", "stats.sav"):
        st.remove(name)
    assert sorted(os.listdir(root)) == []
    os.rmdir(root)


def test_damaged_file_falls_back():
    fs = MemFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    a = _play(Match(RuleSet(), 5), 20)
    b = _play(Match(RuleSet(), 5), 30)
    mgr.save_game(sg.snapshot_of(a))
    mgr.save_game(sg.snapshot_of(b))
    data = bytearray(fs.files["game.sav"])
    data[20] ^= 0x40
    fs.files["game.sav"] = bytes(data)
    snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
    assert msg == sg.MSG_BACKUP and _fp(snap["match"]) == _fp(a)
    fs.files["game.sav.bak"] = b"nonsense"
    snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
    assert snap is None and msg == sg.MSG_LOST


def test_power_cut_sweep():
    old = _play(Match(RuleSet(hollywood=True), 31), 60)
    new = _play(Match(RuleSet(hollywood=True), 31), 61)
    want = (_fp(old), _fp(new))
    snap_new = sg.snapshot_of(new)
    size = len(sg.encode_game(snap_new))
    cuts = [(k, 0) for k in range(1, 5)] + [(0, k) for k in range(1, size + 1, 3)]
    for op, byte in cuts:
        base = MemFS()
        mgr = sg.SaveManager(FileStorage("", base))
        mgr.save_game(sg.snapshot_of(_play(Match(RuleSet(hollywood=True), 31), 59)))
        mgr.save_game(sg.snapshot_of(old))
        mgr.storage = FileStorage("", CutFS(base, op, byte))
        try:
            mgr.save_game(snap_new)
        except PowerCut:
            pass
        snap, msg = sg.SaveManager(FileStorage("", base)).load_game()
        assert snap is not None
        assert _fp(snap["match"]) in want


def test_a_file_bigger_than_the_heap_is_refused_without_reading_it():
    # A 200 KB game.sav (the Pico has about 100 KB free mid-match): the load looks at the
    # file's size and never opens it, so it allocates next to nothing.
    import gc

    root = "/tmp/mp_big_test"
    st = FileStorage(root, OsFS())
    f = open(root + "/game.sav", "wb")
    chunk = b"GINg" + bytes(1020)
    for _ in range(200):
        f.write(chunk)
    f.close()
    mem_alloc = getattr(gc, "mem_alloc", None)  # MicroPython only
    gc.collect()
    gc.disable()
    try:
        before = mem_alloc() if mem_alloc else 0
        mgr = sg.SaveManager(st)
        assert mgr.has_game()
        snap, msg = mgr.load_game()
        used = (mem_alloc() - before) if mem_alloc else 0
    finally:
        gc.enable()
    assert snap is None and msg == sg.MSG_LOST
    assert used < 4096, used
    st.remove("game.sav")
    os.rmdir(root)
