"""make pico's scenarios as data (host_tools/pico/check.py): what they put on the flash and press.

These need no emulator: they hold the inputs the runs on the emulated Pico are built from.
"""

import gc
import sys
import types
import weakref

import savegame as sg
from gin.match import PLAYING

from host_tools.pico import check


def test_a_resume_boots_a_match_saved_mid_hand_of_its_mode_and_level():
    rec = check.game_record(check.VS_CPU, 2)
    snap = sg.decode_game(rec)
    assert (snap["mode"], snap["level"]) == (check.VS_CPU, 2)
    assert len(snap["actions"]) == 24 and not snap["over"]
    m = sg.rebuild(snap)
    assert m.state == PLAYING and not m.summaries, "mid-hand: the first hand still being played"


def test_the_full_run_resumes_a_game_and_presses_through_every_scenario():
    full = check.scenarios(False, 10)
    resume = [s for s in full if s.resume]
    assert [s.name for s in resume] == ["resume"]
    for sc in full:
        times = check.press_times(sc.buttons)
        assert all(0 <= t < sc.ms for t in times), sc.name
        if sc.name in check.LEVELS + ("pass", "resume"):  # played by blind presses to the end
            assert max(times) > sc.ms - 2000, (sc.name, "presses stop long before the run ends")


def test_blind_play_moves_the_cursor_between_discards():
    keys = [line.split()[1] for line in check.blind_play(0, 6000)]
    assert keys[:4] == ["DRAW", "DRAW", "DISCARD", "RIGHT"]
    assert {"DRAW", "DISCARD", "RIGHT"} == set(keys)


def test_the_probe_times_each_matchs_players_without_keeping_them_alive(monkeypatch, capsys):
    # The game drops the computer players' modules when a match ends and loads them anew for
    # the next one; a probe holding the classes it timed kept every old copy alive, and the
    # check charged those 19 KB to the game from the second match on.
    from host_tools.pico import probe_main

    clock = types.SimpleNamespace(ticks_us=lambda: 0, ticks_ms=lambda: 0, ticks_diff=lambda a, b: a - b)
    monkeypatch.setattr(probe_main, "time", clock)  # MicroPython's clock, for the timer

    def a_match(calls):
        class HardPlayer:
            def choose(self, obs):
                calls.append(obs)
                return 7

        # only this match's players where the probe looks: the real ones stay as they are
        with monkeypatch.context() as m:
            m.setitem(sys.modules, "gin.ai", types.SimpleNamespace())
            m.setitem(sys.modules, "gin.ai_expert", types.SimpleNamespace())
            m.setitem(sys.modules, "gin.ai_hard", types.SimpleNamespace(HardPlayer=HardPlayer))
            probe_main.time_players()
            probe_main.time_players()  # once a step: wrapped once
        return HardPlayer

    calls = []
    cls = a_match(calls)
    assert cls().choose("obs") == 7 and calls == ["obs"]  # still the player's choice
    assert capsys.readouterr().out.startswith("PROBE decide")  # and timed
    first = weakref.ref(cls)
    del cls
    second = a_match([])
    gc.collect()
    assert first() is None, "the probe keeps the last match's players alive"
    assert second().choose("obs") == 7 and capsys.readouterr().out.startswith("PROBE decide")


def test_a_press_whose_frame_waited_for_the_probes_heap_sample_is_not_timed(tmp_path):
    """The probe's sample (a collection, mem_info over the serial port) took 20 ms of a cursor
    move's step now and then: press -> glass times the game, so such a press is left out."""
    from host_tools.pico import emulator as emu

    serial = "\n".join(
        ["PROBE heap 1008 100000", " No. of 1-blocks: 1, 2-blocks: 1, max blk sz: 9, max free sz: 3000"]
    )
    frames = [{"tMs": 500.0, "on": True, "lit": 900}, {"tMs": 1031.0, "on": True, "lit": 901}]
    frames.append({"tMs": 2012.5, "on": True, "lit": 902})
    run = emu.Run(out=tmp_path, serial=serial, frames=frames, reboots=0)
    f = check.read_run("cursor", run, [1000, 2000])
    assert f.presses == [12.5] and f.probed == 1
    assert f.samples == [(1008, 100000, 3000 * check.BLOCK)]
    assert "12.5 / 12.5 (1 with a sample, untimed)" in check.table([f])
