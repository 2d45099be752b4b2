"""Every bad save folder is one line and a non-zero exit: no hang, no traceback (issue 26).

A folder that is a file, one that can't be written (read-only, full), a FIFO, a device or a link
to /dev/zero in place of a save. Runs that could hang run in a child process with a time limit.
The tests run as root here, where permissions don't stop a write, so "read-only" and "full" are
the errors the file code gets (EROFS, ENOSPC), raised by the firmware's own OsFS.
"""

import errno
import os
import resource
import subprocess
import sys

import pytest

import savegame as sg
from app import App
from device.storage import FileStorage, OsFS

from host_tools.hw.fake_hw import FakeHw
from host_tools.micropython.runner import ROOT
from host_tools.simulator import cli as simulator

FIRMWARE = ROOT / "firmware"


def _one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
    return err[0]


def _small_heap():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # /dev/zero read whole: a MemoryError, soon


def _child(cmd, timeout):
    """A child process with a time limit and 2 GB of memory: a hang or a runaway read fails the test."""
    return subprocess.run(
        cmd,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        preexec_fn=_small_heap,
    )


def _cli(*args, timeout=120):
    """The simulator in a child process: (exit code, stderr lines)."""
    r = _child([sys.executable, "-m", "host_tools.simulator", *args], timeout)
    return r.returncode, r.stderr.strip().splitlines()


def test_a_save_folder_that_is_a_file_is_one_line(tmp_path, capsys):
    f = tmp_path / "saves"
    f.write_text("a file")
    assert simulator.main(["--save-dir", str(f), "--keys", "wait:100"]) != 0
    assert "save folder" in _one_line(capsys)


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_a_folder_that_refuses_writes_is_one_line(tmp_path, capsys, monkeypatch, code):
    def refuse(self, path, data):
        raise OSError(code, os.strerror(code), path)

    monkeypatch.setattr(OsFS, "write", refuse)
    assert simulator.main(["--save-dir", str(tmp_path), "--keys", "wait:100"]) != 0
    assert os.strerror(code) in _one_line(capsys)


def test_a_folder_that_fills_up_during_the_run_is_one_line(tmp_path, capsys, monkeypatch):
    real = OsFS.write

    def full_for_saves(self, path, data):
        if path.endswith(".tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        real(self, path, data)

    monkeypatch.setattr(OsFS, "write", full_for_saves)
    code = simulator.main(["--save-dir", str(tmp_path), "--keys", "d wait:2500 d s wait:500"])
    assert code != 0 and sg.MSG_NO_FLASH in _one_line(capsys)


@pytest.mark.parametrize("name", [sg.GAME_FILE, sg.GAME_FILE + ".tmp", sg.SETTINGS_FILE, sg.STATS_FILE])
def test_a_fifo_in_place_of_a_save_is_one_line_not_a_hang(tmp_path, name):
    os.mkfifo(tmp_path / name)
    code, err = _cli("--save-dir", str(tmp_path), "--keys", "d wait:500")
    assert code != 0 and len(err) == 1 and name in err[0] and "Traceback" not in err[0], err


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_link_to_a_device_in_place_of_a_save_is_one_line(tmp_path, target):
    os.symlink(target, tmp_path / sg.GAME_FILE)
    code, err = _cli("--save-dir", str(tmp_path), "--keys", "wait:100")
    assert code != 0 and len(err) == 1 and sg.GAME_FILE in err[0] and "Traceback" not in err[0], err


def test_the_firmware_never_opens_anything_but_a_regular_file(tmp_path):
    """On the device side too: a FIFO or /dev/zero as game.sav is no game, at once, not a hang."""
    os.mkfifo(tmp_path / sg.GAME_FILE)
    os.symlink("/dev/zero", tmp_path / sg.SETTINGS_FILE)
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from device.storage import FileStorage\n"
        "import savegame as sg\n"
        "m = sg.SaveManager(FileStorage(%r))\n"
        "print(m.load_game(), m.load_profile()[2])\n"
        "m.save_settings({})\n"
        "print('ok')\n"
    ) % (str(FIRMWARE), str(tmp_path))
    r = _child([sys.executable, "-c", code], 60)
    assert r.returncode == 0 and r.stdout.splitlines() == ["(None, None) None", "ok"], r.stdout + r.stderr
    with pytest.raises(OSError):
        OsFS().read(str(tmp_path / sg.GAME_FILE))
    assert FileStorage(str(tmp_path)).read_backup(sg.GAME_FILE) is None


def test_backup_save_loaded_only_when_a_game_backup_was_loaded():
    good = FakeHw(start_ms=1000)
    app = App(good)
    for contrast in (10, 20):  # a second save: settings.sav.bak now exists
        app.settings["contrast"] = contrast
        app.save_settings()
    files = dict(good.fs.files)
    files[sg.SETTINGS_FILE] = files[sg.SETTINGS_FILE][:-1]  # damaged: its backup loads
    app = App(FakeHw(start_ms=1000, files=files))
    assert app.match is None and not app.has_save
    assert app.msg != sg.MSG_BACKUP and app.msg == sg.MSG_SETTINGS_BACKUP


def test_headless_shots_never_go_into_the_current_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert simulator.main(["--keys", "wait:300 shot:knock"]) != 0
    assert "--shots-dir" in _one_line(capsys)
    assert list(tmp_path.iterdir()) == []
    frames = tmp_path / "frames"
    assert simulator.main(["--keys", "wait:300 shot:knock", "--frames-dir", str(frames)]) == 0
    assert (frames / "knock.png").exists() and not (tmp_path / "knock.png").exists()


def test_storage_refuses_to_open_a_fifo_for_writing(tmp_path):
    os.mkfifo(tmp_path / "x")
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from device.storage import OsFS\n"
        "try:\n    OsFS().write(%r, b'data')\nexcept OSError:\n    print('refused')\n"
    ) % (str(FIRMWARE), str(tmp_path / "x"))
    assert _child([sys.executable, "-c", code], 60).stdout == "refused\n"
