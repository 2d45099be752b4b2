"""main.py on a fake `machine`: the crash-proof boot, and a log that names only real hangs."""

import pytest

import savegame as sg
from device import bootguard
from device.bootguard import BootGuard
from device.storage import FileStorage, MemFS
from gin.match import Match
from gin.rules import RuleSet

from test_device_glue import board as machine  # noqa: F401  (the fake `machine` fixture, by this name)


def _saved_game(tmp_path):
    rec = sg.encode_game(sg.snapshot_of(Match(RuleSet(), 77)))
    (tmp_path / sg.GAME_FILE).write_bytes(rec)
    return rec


def power_on(machine, monkeypatch, run_ms=0):  # noqa: F811 (the fixture)
    """One power-on of main.main(): 'reset' when it restarts, else the App it ran (stopped by Ctrl-C)."""
    import app as appmod
    import launch as main

    seen = {}
    real_init = appmod.App.__init__

    def init(self, hw, resume=False):
        real_init(self, hw, resume)
        seen["app"] = self
        real_step = self.step
        t0 = machine.clock["ms"]

        def step():
            if machine.clock["ms"] - t0 >= run_ms:
                raise KeyboardInterrupt  # the test's way out of the loop
            return real_step()

        self.step = step

    monkeypatch.setattr(appmod.App, "__init__", init)
    try:
        main.main()
    except SystemExit:
        return "reset", seen.get("app")
    finally:
        monkeypatch.setattr(appmod.App, "__init__", real_init)
    return "ran", seen["app"]


def test_a_save_that_crashes_the_resume_twice_is_set_aside(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    import app as appmod

    rec = _saved_game(tmp_path)

    def broken(self):
        raise RuntimeError("injected: resume fails")

    monkeypatch.setattr(appmod.App, "continue_game", broken)
    assert power_on(machine, monkeypatch)[0] == "reset"  # the first failure restarts into the same save
    machine.cause = machine.WDT_RESET  # machine.reset() is a watchdog reset on the RP2040
    assert power_on(machine, monkeypatch)[0] == "reset"  # the second too
    outcome, a = power_on(machine, monkeypatch, run_ms=bootguard.STABLE_MS + 500)
    assert outcome == "ran"  # the third boot comes up: no loop
    assert a.match is None and a.view.sid == 0  # at the title
    assert a.msg == bootguard.MSG_SET_ASIDE and len(a.msg) <= 21
    assert not (tmp_path / sg.GAME_FILE).exists()
    assert (tmp_path / "game.bad").read_bytes() == rec  # kept for make logs and the replay tool
    log = (tmp_path / "crash.log").read_bytes()
    assert b"injected: resume fails" in log and b"set aside game.bad" in log
    assert b"hung" not in log  # those resets were the crash handler's own
    # running past the first moments forgets the strikes: the next boot is an ordinary one
    assert not (tmp_path / bootguard.STRIKES_FILE).exists()


def test_one_failure_is_not_enough_and_a_good_boot_forgets_it(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    import app as appmod

    _saved_game(tmp_path)
    calls = {"n": 0}
    real = appmod.App.continue_game

    def flaky(self):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("once")
        return real(self)

    monkeypatch.setattr(appmod.App, "continue_game", flaky)
    assert power_on(machine, monkeypatch)[0] == "reset"
    outcome, a = power_on(machine, monkeypatch, run_ms=bootguard.STABLE_MS + 500)
    assert outcome == "ran" and a.match is not None  # resumed: one failure sets nothing aside
    assert (tmp_path / sg.GAME_FILE).exists() and not (tmp_path / "game.bad").exists()
    assert not (tmp_path / bootguard.STRIKES_FILE).exists()


def test_a_crash_after_the_first_moments_does_not_count():
    st = FileStorage("", MemFS())
    for _ in range(5):
        g = BootGuard(st)
        g.start(False)
        g.tick(bootguard.STABLE_MS)  # ran fine for a while
        g.failed()  # then crashed: a bug to log, not a boot loop
    assert BootGuard(st).strikes == 0


def test_power_cuts_while_starting_count_nothing_but_hangs_do():
    fs = MemFS({sg.GAME_FILE: b"x"})
    st = FileStorage("", fs)
    for _ in range(4):  # switched off and on again and again during the first seconds
        g = BootGuard(st)
        g.start(hung=False)
        g.arm()  # the first frame is on the glass (main.py's order)
    assert BootGuard(st).strikes == 0 and sg.GAME_FILE in fs.files
    g = BootGuard(st)
    g.start(hung=True)  # the last boot hung while starting: the watchdog fired
    g.arm()
    g = BootGuard(st)
    assert g.strikes == 1
    g.start(hung=True)
    assert sg.GAME_FILE not in fs.files and fs.files["game.bad"] == b"x"


def test_the_settings_and_stats_go_aside_when_the_game_was_not_the_cause():
    fs = MemFS({sg.SETTINGS_FILE: b"s", sg.STATS_FILE: b"t"})
    st = FileStorage("", fs)
    msg = None
    for _ in range(5):
        g = BootGuard(st)
        msg = g.start(False) or msg
        g.failed()
    assert sg.SETTINGS_FILE not in fs.files and fs.files["settings.bad"] == b"s"
    assert fs.files["stats.bad"] == b"t" and msg == bootguard.MSG_RESET
    assert bootguard.GAME_FILE == sg.GAME_FILE and bootguard.PROFILE_FILES == (
        sg.SETTINGS_FILE,
        sg.STATS_FILE,
    )


def test_a_garbage_strikes_file_is_ignored():
    for junk in (b"", b"\xff\xff", b"\x01" * 5000, b"\x02\x01"):
        st = FileStorage("", MemFS({bootguard.STRIKES_FILE: junk}))
        g = BootGuard(st)
        assert g.strikes == 0
        assert g.start(False) is None


# --- the watchdog and the log ---------------------------------------------------------------------


def test_a_deliberate_restart_is_not_logged_as_a_hang(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    import launch as main
    from device import pico

    with pytest.raises(SystemExit):
        pico.restart()  # what the crash handler and hw.reset() do
    machine.cause = machine.WDT_RESET  # and the RP2040 reports it as the watchdog's
    outcome, _a = power_on(machine, monkeypatch, run_ms=100)
    assert outcome == "ran"
    log = (tmp_path / pico.LOG_FILE).read_bytes() if (tmp_path / pico.LOG_FILE).exists() else b""
    assert b"hung" not in log
    # Ctrl-C (mpremote stopping the game before its reset) flags the coming reset too
    machine.cause = machine.WDT_RESET
    power_on(machine, monkeypatch, run_ms=100)
    log = (tmp_path / pico.LOG_FILE).read_bytes() if (tmp_path / pico.LOG_FILE).exists() else b""
    assert b"hung" not in log
    del main


def test_a_real_hang_is_logged(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    from device import pico

    machine.cause = machine.WDT_RESET  # no flag: the watchdog fired by itself
    outcome, _a = power_on(machine, monkeypatch, run_ms=100)
    assert b"watchdog reset: the loop hung" in (tmp_path / pico.LOG_FILE).read_bytes()


def test_without_the_display_driver_the_log_also_goes_to_the_console(machine, tmp_path, monkeypatch, capsys):  # noqa: F811 (the fixture)
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "ssd1306", None)
    from device import pico

    hw = pico.build()
    capsys.readouterr()
    hw.log("--- watchdog reset: the loop hung")
    assert "watchdog reset: the loop hung" in capsys.readouterr().out
    assert b"the loop hung" in hw.storage.read(pico.LOG_FILE)


def test_a_huge_crash_log_is_not_read_whole(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    from device import pico

    (tmp_path / pico.LOG_FILE).write_bytes(b"x" * (3 * 1024 * 1024))
    hw = pico.build()
    hw.log("after")
    data = (tmp_path / pico.LOG_FILE).read_bytes()
    assert data == b"after\n"


# --- the path to the title, and a crash with no memory left -------------------------------------


def test_an_ordinary_boot_writes_nothing_before_its_first_frame():
    """The guard's flag costs an erase and writes on a Pico: arm() puts it down after the title."""
    fs = MemFS({sg.GAME_FILE: b"x"})
    g = BootGuard(FileStorage("", fs))
    assert g.start(hung=False) is None
    assert bootguard.STRIKES_FILE not in fs.files  # nothing on the flash yet
    g.arm()
    assert fs.files[bootguard.STRIKES_FILE] == b"\x01\x00"  # early, no strikes


def test_the_first_frame_comes_before_the_guards_flag(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    from device import pico

    seen = []
    real_write = pico.FileStorage.write_atomic

    def write_atomic(self, name, data, keep=True):
        seen.append(("write", name))
        return real_write(self, name, data, keep)

    monkeypatch.setattr(pico.FileStorage, "write_atomic", write_atomic)
    real_show = pico.Display.show

    def show(self, buf):
        seen.append(("frame", None))
        return real_show(self, buf)

    monkeypatch.setattr(pico.Display, "show", show)
    power_on(machine, monkeypatch, run_ms=100)
    kinds = [k for k, name in seen if k == "frame" or name == bootguard.STRIKES_FILE]
    assert "write" in kinds and kinds.index("write") >= 2, seen  # the splash and the title menu first


def test_an_out_of_memory_crash_says_so_on_the_glass(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    import launch
    from device import pico

    hw = pico.build()
    frames = []
    monkeypatch.setattr(hw.display, "show", lambda buf: frames.append(bytes(buf)) or True)
    e = MemoryError("memory allocation failed, allocating 8193 bytes")
    monkeypatch.setattr(launch, "crash_reserve", bytearray(launch.RESERVE_BYTES))  # as main() holds it
    with pytest.raises(SystemExit):
        launch.crash(hw, e, pico.restart)
    assert b"MemoryError: memory allocation failed" in hw.storage.read(pico.LOG_FILE)
    oom = bytes(launch.crash_frame(launch.one_line(e), 0, None, True).buf)
    assert frames[0] == oom != bytes(launch.crash_frame(launch.one_line(e)).buf)
    assert launch.crash_reserve is None  # the reserve went to the crash path


def test_the_running_loop_holds_nothing_of_the_modules_the_start_let_go(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    # main() never returns: whatever its frame names stays alive, and on the Pico a function, a
    # class or an instance keeps its whole module (code, constants) in the heap after
    # drop_module.  Once the first moments are over, the splash and the boot guard are done.
    import inspect
    import sys

    import app as appmod
    import launch

    monkeypatch.chdir(tmp_path)  # the board's flash: saves, strikes, reset.flag
    held = []
    real_init = appmod.App.__init__

    def init(self, hw, resume=False):
        real_init(self, hw, resume)
        real_step = self.step
        t0 = machine.clock["ms"]

        def step():
            if machine.clock["ms"] - t0 >= bootguard.STABLE_MS + 500:
                frame = inspect.currentframe().f_back  # launch.main's, which calls step()
                assert frame.f_code.co_name == "main"
                for name, v in frame.f_locals.items():
                    home = getattr(v, "__module__", None) or type(v).__module__
                    if home in ("ui.splash", "device.bootguard"):
                        held.append(name)
                raise KeyboardInterrupt
            return real_step()

        self.step = step

    monkeypatch.setattr(appmod.App, "__init__", init)
    launch.main()
    assert held == [], held
    assert "device.bootguard" not in sys.modules and "ui.splash" not in sys.modules
