"""Files built to be nasty: whatever passes the CRC, the boot path never raises, hangs or over-reads.

The generator is tests/nonsense.py: every field of every record at and around
its boundaries, on top of real saves, and random mixes.  Each case boots the
firmware's App over that flash exactly as the device does after a power-on
(``App(hw, resume=True)``), draws its first frames and presses a few buttons.
"""

import random
import time
import tracemalloc

import pytest

import savegame as sg
from app import TITLE, App
from device.storage import FileStorage, MemFS
from gin.match import Match
from gin.round import DISCARD_PHASE
from gin.rules import RuleSet
from prefs import Stats

from host_tools.hw.fake_hw import FakeHw
from nonsense import cases, raw_game, settings_cases, split_game, stats_cases, summary_bytes
from savecheck import check_invariants, states


class CountingFS(MemFS):
    """MemFS that remembers the most bytes a single read returned."""

    def __init__(self, files=None):
        super().__init__(files)
        self.biggest_read = 0

    def read(self, path, limit=-1):
        data = super().read(path, limit)
        self.biggest_read = max(self.biggest_read, len(data))
        return data


@pytest.fixture(scope="module")
def bases():
    out = []
    for rules, seed in (
        (RuleSet(), 31),
        (RuleSet(hollywood=True), 32),
        (RuleSet.preset_rules("modern", oklahoma=True, oklahoma_spade_double=True), 33),
    ):
        for m in states(rules, seed, 6):
            cur = m.round.cards_of(0)[0] if m.round.cards_of(0) else 0
            out.append(sg.encode_game(sg.snapshot_of(m, cursor=cur)))
    # and the player's own discard turn, where the table counts the hand without the cursor card
    m = Match(RuleSet(), 34)
    while not (m.round.phase == DISCARD_PHASE and m.round.player == 0):
        m.apply(m.round.legal_actions()[0])
    out.append(sg.encode_game(sg.snapshot_of(m, cursor=m.round.cards_of(0)[0])))
    return out


def boot(files, steps=4):
    """Power on over these files: App(hw, resume=True), frames, a few presses; returns (hw, app)."""
    hw = FakeHw(start_ms=777, files=files)
    app = App(hw, True)
    for i in range(steps):
        app.step()
        hw.buttons.push((i % 8) * 4)  # a press of each button in turn
        hw.clock.advance(30)
    app.step()
    return hw, app


def test_every_boundary_of_the_game_record_boots_without_raising(bases):
    rng = random.Random(1212)
    all_cases = cases(rng, bases, n_random=1500)
    assert len(all_cases) > 4000
    loaded = 0
    t_worst = 0.0
    for label, rec in all_cases:
        # every case through the manager (load, checks, replay) ...
        fs = CountingFS({sg.GAME_FILE: rec})
        t0 = time.perf_counter()
        snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
        t_worst = max(t_worst, time.perf_counter() - t0)
        assert fs.biggest_read <= len(rec), label
        if snap is not None:
            loaded += 1
            check_invariants(snap["match"])
            assert msg is None
        else:
            assert msg == sg.MSG_LOST, label
    assert t_worst < 2.0  # no case makes loading crawl (a hang would never get here)
    assert loaded > 100  # the cases near the real saves do load: the checks don't refuse everything


def test_the_boot_path_survives_a_sample_of_them(bases):
    rng = random.Random(3434)
    every = cases(rng, bases, n_random=600)
    # Every case of the fields the first frames read (flags, screen, cursor, seeds, rules,
    # counts), every other action case, every fourth summary case and random mix.
    sample = []
    for i, (label, rec) in enumerate(every):
        if label.startswith("action"):
            keep = i % 2 == 0
        elif label.startswith(("summary", "random")):
            keep = i % 4 == 0
        else:
            keep = True
        if keep:
            sample.append((label, rec))
    assert len(sample) > 1300 and sum(1 for lb, _ in sample if lb.startswith("cursor")) >= 200
    for label, rec in sample:
        backup = bases[rng.randrange(len(bases))] if rng.random() < 0.3 else None
        files = {sg.GAME_FILE: rec}
        if backup:
            files[sg.GAME_FILE + ".bak"] = backup
        try:
            hw, app = boot(files)
        except Exception as e:  # pragma: no cover - the failure report
            raise AssertionError("%s: %r" % (label, e)) from e
        if app.match is not None:
            check_invariants(app.match)


def test_every_boundary_of_the_profile_records_boots_without_raising():
    rng = random.Random(5656)
    for label, rec in settings_cases(rng) + stats_cases(rng):
        name = sg.SETTINGS_FILE if rec[:4] == sg.MAGIC_SETTINGS else sg.STATS_FILE
        hw, app = boot({name: rec}, steps=3)
        assert app.view is not None and app.frames > 0, label
        # whatever loaded can be saved again (a stat at 2**32-1 included) and reads back the same
        app.saves.save_stats(app.stats)
        assert app.saves.error is None, label
        _settings, again, _msg = sg.SaveManager(hw.storage).load_profile()
        assert [list(st.values()) for st in again.levels] == [list(st.values()) for st in app.stats.levels], (
            label
        )
        app.stats.record_hand(0, (2, 0, 30, 0))
        app.saves.save_stats(app.stats)
        assert app.saves.error is None, label


def test_a_game_file_bigger_than_the_heap_is_refused_without_reading_it():
    big = raw_game(actions=bytes(200)) + bytes(8 * 1024 * 1024)
    fs = CountingFS({sg.GAME_FILE: big})
    tracemalloc.start()
    try:
        hw = FakeHw(start_ms=5)
        hw.storage = FileStorage("", fs)
        app = App(hw, True)
        app.step()
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert fs.biggest_read <= sg.MAX_GAME + 1
    assert peak < 1024 * 1024  # the 8 MB file was never in memory
    assert app.view.sid == TITLE and app.msg == sg.MSG_LOST


def test_bounded_reads_never_open_a_file_longer_than_the_limit():
    opened = []

    class Spy(MemFS):
        def read(self, path, limit=-1):
            opened.append(path)
            return super().read(path, limit)

    st = FileStorage("", Spy({"a": bytes(100), "b": bytes(10)}))
    with pytest.raises(ValueError):
        st.read("a", 50)
    assert opened == []
    assert st.read("b", 50) == bytes(10) and opened == ["b"]
    assert st.read("missing", 50) is None


def test_a_record_at_the_size_limit_loads_and_the_next_move_does_not_crash():
    # Cancelled hands (2 bytes each) up to the largest record the firmware writes.
    rules = RuleSet()
    n = 0
    while len(raw_game(summaries=summary_bytes(4, -1, 0, -1) * (n + 1), seed=9)) <= sg.MAX_GAME:
        n += 1
    rec = raw_game(summaries=summary_bytes(4, -1, 0, -1) * n, actions=b"", seed=9, cursor=-1)
    assert sg.MAX_GAME - 1 <= len(rec) <= sg.MAX_GAME
    hw = FakeHw(start_ms=3, files={sg.GAME_FILE: rec})
    app = App(hw, True)
    assert app.match is not None and len(app.match.summaries) == n, app.msg
    m = app.match
    tones = len(hw.sound.tones)
    for _ in range(40):  # moves of either side: each grows the record past the limit
        if app.is_human(m.round.player):
            app.act(m.round.legal_actions()[0])
        hw.clock.advance(1000)  # the computer's pace
        app.step()
    assert app.saves.error == sg.MSG_TOO_LONG
    assert app.msg == sg.MSG_TOO_LONG or len(hw.sound.tones) > tones
    # and a record beyond the limit (as older firmware could write) is damaged, not loaded
    too_big = raw_game(summaries=summary_bytes(4, -1, 0, -1) * (n + 10), seed=9)
    assert sg.SaveManager(FileStorage("", MemFS({sg.GAME_FILE: too_big}))).load_game() == (None, sg.MSG_LOST)
    del rules


def test_records_that_pass_the_crc_but_mean_nothing_are_damaged():
    m = Match(RuleSet(), 4)
    good = sg.encode_game(sg.snapshot_of(m))
    f = split_game(good)
    classic = [int(getattr(RuleSet(), x)) for x in __import__("gin.rules").rules.FIELDS]
    straight = [int(getattr(RuleSet(straight=True), x)) for x in __import__("gin.rules").rules.FIELDS]
    from nonsense import rules_bytes

    bad = {
        "cursor 52": raw_game(**dict(f, cursor=52)),
        "a 0-point knock win": raw_game(**dict(f, summaries=summary_bytes(0, 0, 0, 0))),
        "big gin with big gin off": raw_game(**dict(f, summaries=summary_bytes(3, 1, 40, 1))),
        "a knock under straight gin": raw_game(
            **dict(f, rules=rules_bytes(straight), summaries=summary_bytes(0, 0, 12, 0))
        ),
        "65,535 points": raw_game(**dict(f, summaries=summary_bytes(2, 0, 0xFFFF, 0))),
        "an undercut above its bonus and the limit": raw_game(
            **dict(f, summaries=summary_bytes(1, 1, 200, 0))
        ),
        "a finished match without its over flag": raw_game(
            **dict(f, summaries=summary_bytes(2, 0, 120, 0), actions=b"", rules=rules_bytes(classic))
        ),
    }
    for why, rec in bad.items():
        fs = MemFS({sg.GAME_FILE: rec, sg.GAME_FILE + ".bak": good})
        snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
        assert msg == sg.MSG_BACKUP and snap["seed"] == 4, why
    # the same summaries where the rules allow them load
    ok = raw_game(**dict(f, summaries=summary_bytes(0, 0, 12, 0)))
    assert sg.SaveManager(FileStorage("", MemFS({sg.GAME_FILE: ok}))).load_game()[1] is None


def test_a_cursor_beyond_the_deck_boots_to_a_working_table():
    m = Match(RuleSet(), 8)
    f = split_game(sg.encode_game(sg.snapshot_of(m)))
    rec = raw_game(**dict(f, cursor=60))  # what encode_game used to write for a stray cursor
    hw, app = boot({sg.GAME_FILE: rec})
    assert app.view.sid == TITLE  # damaged: no backup, so the title with its line
    with pytest.raises(ValueError):
        sg.encode_game(dict(sg.snapshot_of(m), cursor=52))
    # a cursor that is not in the hand (a valid card id) is dropped on resume, not drawn
    snap = sg.snapshot_of(m, cursor=next(c for c in range(52) if c not in m.round.cards_of(0)))
    hw, app = boot({sg.GAME_FILE: sg.encode_game(snap)})
    assert app.match is not None and app.cursor in app.match.round.cards_of(0)


def test_stats_contradictions_are_damaged_and_counters_saturate():
    st = Stats()
    st.levels[1].gins = 3  # more gins than hands
    with pytest.raises(ValueError):
        Stats.from_bytes(st.to_bytes())
    top = Stats()
    s = top.levels[0]
    s.hands = s.matches = s.wins = s.streak = s.best_streak = 0xFFFFFFFF
    s.gins = 0xFFFFFFFF
    back = Stats.from_bytes(top.to_bytes())
    back.record_hand(0, (2, 0, 30, 0))
    back.record_match(0, type("M", (), {"winner": 0, "final_tally": lambda self, p: 500 if p == 0 else 0})())
    again = Stats.from_bytes(back.to_bytes())  # still saves and loads
    assert again.levels[0].hands == 0xFFFFFFFF and again.levels[0].gins == 0xFFFFFFFF
