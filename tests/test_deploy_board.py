"""From a blank Pico to playing: the board commands against boards a user may really have.

The fake board (host_tools/micropython/fake_board.py: MicroPython 1.27 behind a socket) behaves like a Pico
at a reset: its port goes away for RESET_GAP seconds and comes back.  Other fakes: a board without
the display driver (every fresh one), one with a full flash, one running an older MicroPython, and a
serial device that is not MicroPython at all.  Each message of host_tools/deploy/messages.py is
provoked here, through the real make targets: one plain line, no script, no traceback, exit != 0.
"""

import fcntl
import os
import pty
import re
import select
import termios
import time

import pytest

from host_tools.deploy import DeployError, board, commands, messages
from host_tools.deploy.board import Board, bootsel_pico, open_problem
from host_tools.micropython.fake_board import FakeBoard
from test_deploy import MINI, make, mpremote, ok, said, write_tree, writes

RESET_GAP = 1.5  # a real Pico is off USB for a second or more after a reset


def clean(r):
    """Nothing of a board-side script or a Python traceback reached the user."""
    text = r.stdout + r.stderr
    for leak in ("Traceback", "def ", "import os", "print(", "mpremote:", "Interrupt"):
        assert leak not in text, f"{leak!r} leaked:\n{text}"


def fails_with(r, start):
    """The command failed with exit status != 0 and said exactly one line, starting so."""
    assert r.returncode != 0, r.stdout + r.stderr
    lines = [ln for ln in said(r) if ln != messages.WAITING]
    assert len(lines) == 1, r.stderr
    assert lines[0].split(": ", 1)[1].startswith(start), lines[0]
    clean(r)
    return lines[0]


@pytest.fixture(scope="module")
def pico():
    """One board that resets like a Pico, shared by the tests that leave it as they found it."""
    with FakeBoard(reset_gap=RESET_GAP) as b:
        yield b


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "tree", MINI)


# ------------------------------------------------------------------ the fake board itself
def test_the_fake_board_goes_away_at_a_reset_and_comes_back():
    with FakeBoard(reset_gap=1.0) as b:
        assert mpremote(b.url, "exec", "print(1)").returncode == 0
        b.power_cycle()
        b.wait_event("port gone")
        t0 = time.monotonic()
        r = mpremote(b.url, "exec", "print(1)")
        assert r.returncode != 0 and "failed to access" in r.stderr  # today's symptom, case 2
        b.wait_event("port back", timeout=5)
        assert time.monotonic() - t0 >= 0.8
        assert mpremote(b.url, "exec", "print(2)").stdout.strip() == "2"


# ------------------------------------------------------------------ 1: make play
def spawn(args, cwd):
    """Run `args` on a pseudo-terminal that is its controlling terminal, as a shell would."""
    master, slave = pty.openpty()

    def own_terminal():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    import subprocess

    p = subprocess.Popen(
        args, stdin=slave, stdout=slave, stderr=slave, close_fds=True, cwd=cwd, preexec_fn=own_terminal
    )
    os.close(slave)
    return p, master


class Screen:
    def __init__(self, master):
        self.master = master
        self.seen = b""

    def until(self, token, timeout=30):
        end = time.monotonic() + timeout
        while token not in self.seen and time.monotonic() < end:
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.master, 4096)
                except OSError:
                    break
        return token in self.seen

    def drain(self, timeout=5):
        """Everything the program wrote before it ended."""
        self.until(b"\x00never\x00", timeout)

    def raw_mode(self, timeout=10):
        """Wait until the program put the terminal in raw mode (mpremote's console, our mount)."""
        end = time.monotonic() + timeout
        while termios.tcgetattr(self.master)[3] & termios.ICANON and time.monotonic() < end:
            time.sleep(0.02)


def console(cmd, cwd, key, exit_timeout, at_tick=None):
    """Run a console command on a pty until the game prints 'tick', then type ``key`` the way a
    person does (once the console is in raw mode); it must exit 0.  ``at_tick()`` runs when the
    first tick is seen.  Returns everything it printed."""
    p, master = spawn(cmd, cwd)
    s = Screen(master)
    try:
        assert s.until(b"tick"), s.seen.decode(errors="replace")  # the game's output, live
        if at_tick is not None:
            at_tick()
        s.raw_mode()
        os.write(master, key)
        assert p.wait(timeout=exit_timeout) == 0, s.seen
        s.drain(timeout=1)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    return s.seen.decode(errors="replace")


# A main.py that runs for a while, printing (the fake board runs Python to its end: a game that
# loops for ever would hold it for good).
def ticks(n):
    return f"import time\nfrom app import run\nrun()\nfor i in range({n}):\n    print('tick', i)\n    time.sleep_ms(50)\n"


def test_make_play_deploys_waits_for_the_restart_attaches_and_leaves_the_game_running(tmp_path, stub_driver):
    from test_deploy import ROOT

    tree = write_tree(tmp_path / "tree", dict(MINI, **{"main.py": ticks(80)}))
    with FakeBoard(reset_gap=RESET_GAP, run_main=True) as b:
        cmd = ["make", "-s", "--no-print-directory", "play", f"PORT={b.url}", f"FW_ROOT={tree}"]
        attached = []
        text = console(  # Ctrl-]: leave the console
            cmd + [f"DRIVER={stub_driver}", f"BUILD_DIR={tree}/build/mpy"],
            ROOT,
            b"\x1d",
            20,
            at_tick=lambda: attached.append(len(b.events)),
        )
        assert "deploy: done" in text and messages.WAITING in text
        assert "No Pico connected" not in text  # PORT= is honoured
        assert "Error" not in text and "Traceback" not in text
        assert b.hard_resets == 1  # the deploy's reset; attaching and leaving reset nothing
        later = b.events[attached[0] :]
        assert not [e for e in later if e.startswith(("ctrl-C", "soft reset", "hard reset", "exec"))], later
        b.wait_event("run main.py")


# ------------------------------------------------------------------ 2: commands right after a reset
def test_board_commands_right_after_deploy_or_a_restart_wait_for_the_pico(tree, stub_driver):
    with FakeBoard(reset_gap=1.0) as b:
        r = make("deploy", f"DRIVER={stub_driver}", tree=tree, port=b.url)
        assert "deploy: done" in ok(r) and messages.WAITING in r.stderr
        assert "no crash.log" in ok(make("logs", port=b.url))  # at once: the deploy waited
        r = make("reset", port=b.url)
        assert "restarted" in ok(r) and messages.WAITING in r.stderr
        out = ok(make("size", "NO_EMULATE=1", tree=tree, port=b.url))
        assert "On the board" in out and "RAM with every game module imported" in out
        # A restart the command did not cause (a crash, the reset button): it waits too.  Off USB for
        # longer than make and Python take to start, so that a command that does not wait fails.
        b.reset_gap = 3.0
        b.power_cycle()
        b.wait_event("port gone")
        r = make("logs", port=b.url)
        assert "no crash.log" in ok(r)
        # it waited quietly and said so once the Pico was back
        assert len(said(r)) == 1 and said(r)[0].startswith(messages.WAITED.split("{")[0]), r.stderr
        assert b.hard_resets == 3


# ------------------------------------------------------------------ 3, 4: the driver
def test_deploy_check_imports_the_driver_and_catches_it_missing(pico, tree, stub_driver):
    ok(make("deploy", f"DRIVER={stub_driver}", tree=tree, port=pico.url))
    assert "ssd1306                  /lib/ssd1306.mpy" in ok(make("deploy-check", tree=tree, port=pico.url))
    assert mpremote(pico.url, "rm", ":lib/ssd1306.mpy").returncode == 0
    r = make("deploy-check", tree=tree, port=pico.url)
    assert r.returncode != 0 and re.search(r"^ssd1306 +FAIL ImportError", r.stdout, re.M), r.stdout
    assert "the display driver ssd1306 is missing on the board: make deploy installs it" in r.stderr
    clean(r)


def test_deploy_with_a_driver_file_installs_it_first(pico, tree, stub_driver, tmp_path):
    mark = len(pico.execs())
    out = ok(make("deploy", f"DRIVER={stub_driver}", tree=tree, port=pico.url))
    assert "driver: copy" in out
    assert writes(pico, mark)[0] == "lib/ssd1306.mpy"  # before any file of the game
    assert pico.files()["lib/ssd1306.mpy"][:2] == b"M\x06"  # compiled
    resets = pico.hard_resets
    out = ok(make("deploy", f"DRIVER={stub_driver}", tree=tree, port=pico.url))
    assert "deploy: up to date; no reset" in out and pico.hard_resets == resets  # the same file again
    bad = tmp_path / "notadriver.py"
    bad.write_text("print('hello')\n")
    fails_with(
        make("deploy", f"DRIVER={bad}", tree=tree, port=pico.url), f"DRIVER={bad}: not an SSD1306 driver"
    )
    fails_with(make("deploy", "DRIVER=/nonexistent/ssd1306.py", tree=tree, port=pico.url), "DRIVER=")


# ------------------------------------------------------------------ 5: messages
def test_no_pico_plugged_in(tmp_path, monkeypatch):
    monkeypatch.setenv("PICO_SYSFS_USB", str(tmp_path / "usb"))  # an empty USB bus
    r = make("logs")
    assert fails_with(r, "no Pico found").endswith(messages.NO_PICO)
    # A Pico held in BOOTSEL (no MicroPython yet) is named as such.
    dev = tmp_path / "usb" / "1-1"
    dev.mkdir(parents=True)
    (dev / "idVendor").write_text("2e8a\n")
    (dev / "idProduct").write_text("0003\n")
    assert bootsel_pico(tmp_path / "usb")
    fails_with(make("reset"), "a Pico is plugged in in BOOTSEL mode")


def test_a_port_that_does_not_exist(tree):
    import subprocess

    from test_deploy import ROOT

    play = ["make", "-s", "--no-print-directory", "play", "PORT=/dev/ttyACM_not_there", f"FW_ROOT={tree}"]
    for target in ("deploy", "play"):
        t0 = time.monotonic()
        if target == "play":  # the top Makefile's: a named port means the Pico, not the simulator
            r = subprocess.run(play, cwd=ROOT, capture_output=True, text=True, timeout=120)
        else:
            r = make(target, tree=tree, port="/dev/ttyACM_not_there")
        assert fails_with(r, "no port /dev/ttyACM_not_there")
        # the one line comes first and alone: no "waiting for the Pico to restart" before it ...
        assert said(r) == ["%s: %s" % (target, messages.NO_SUCH_PORT.format(port="/dev/ttyACM_not_there"))]
        assert r.stdout == ""
        # ... though it gave a restarting Pico its time first, quietly
        assert time.monotonic() - t0 >= board.ABSENT_WAIT_S


def test_a_busy_port():
    master, slave = pty.openpty()
    path = os.ttyname(slave)
    holder = open(path, "rb", buffering=0)  # another program has the port open, locked as pyserial does
    fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        fails_with(make("logs", port=path), f"{path} is in use by another program")
    finally:
        holder.close()
        os.close(master)
        os.close(slave)


def test_a_board_that_is_not_running_micropython():
    with FakeBoard(micropython=False) as b:
        fails_with(make("logs", port=b.url), f"the board at {b.url} does not answer like MicroPython")


def test_an_older_micropython_stops_deploy_before_any_change(tree):
    with FakeBoard(version="1.18.0") as b:
        before = b.files()
        line = fails_with(make("deploy", tree=tree, port=b.url), "the Pico runs MicroPython 1.18.0")
        assert "1.19 or newer" in line
        assert b.files() == before and b.hard_resets == 0


def test_a_full_flash_stops_deploy_before_any_change(tree, stub_driver):
    with FakeBoard(flash_blocks=14) as b:  # the mini game needs more than 14 - 2 blocks
        before = b.files()
        line = fails_with(
            make("deploy", f"DRIVER={stub_driver}", tree=tree, port=b.url), "the Pico's flash is full"
        )
        assert "make wipe" in line
        assert b.files() == before and b.hard_resets == 0
        # The fake's flash is really full: a write past it fails as littlefs does, and says so.
        big = tree / "big.bin"
        big.write_bytes(bytes(60 * 1024))
        with pytest.raises(DeployError) as info:
            Board(b.url, say=lambda _t: None).run("cp", str(big), ":big.bin")
        assert str(info.value) == messages.FLASH_FULL_DURING


# ------------------------------------------------------------------ 6: make mount
def test_make_mount_stops_cleanly_on_ctrl_c_and_arms_no_watchdog(tmp_path, pico):
    from test_deploy import ROOT

    # The real device/pico.py decides about the watchdog; main.py arms it as the game's does.
    files = {
        "main.py": "from device import pico\nfeed = pico.start_watchdog(8000)\n"
        + ticks(30).replace("run()\n", ""),
        "firmware/app.py": "def run():\n    print('app run')\n",
    }
    for p in (ROOT / "firmware" / "device").glob("*.py"):
        files[f"firmware/device/{p.name}"] = p.read_text()
    files["firmware/events.py"] = (ROOT / "firmware" / "events.py").read_text()  # device/ imports it
    tree = write_tree(tmp_path / "tree", files)
    mark = len(pico.events)
    cmd = ["make", "-s", "--no-print-directory", "-f", "mk/deploy.mk", "DEPLOY_SETUP=", "mount"]
    args = cmd + [f"PORT={pico.url}", f"FW_ROOT={tree}", f"BUILD_DIR={tree}/build/mpy"]
    text = console(args, ROOT, b"\x03", 30)  # Ctrl-C, as typed
    assert "mount: stopped" in text and "no watchdog" in text
    assert "Traceback" not in text and "Interrupt" not in text
    assert not [e for e in pico.events[mark:] if e.startswith("watchdog armed")]
    # The same main.py from the flash arms it (so the check above can fail).
    mark = len(pico.events)
    from_flash = "import os, sys\nsys.path.insert(0, '/remote')\nos.chdir('/')\nfrom device import pico\npico.start_watchdog(8000)"
    r = mpremote(pico.url, "mount", str(tree / "build" / "mpy"), "exec", from_flash)
    assert r.returncode == 0, r.stderr
    assert [e for e in pico.events[mark:] if e == "watchdog armed 8000"]


def test_the_game_without_a_driver_says_so_on_the_console_once(tmp_path):
    from test_deploy import ROOT

    files = {f"device/{p.name}": p.read_text() for p in (ROOT / "firmware" / "device").glob("*.py")}
    files["events.py"] = (ROOT / "firmware" / "events.py").read_text()  # the button numbers device/ shares
    tree = write_tree(tmp_path / "firmware", files)
    with FakeBoard() as fresh:  # just flashed: no driver
        r = mpremote(fresh.url, "mount", str(tree), "exec", "from device import pico\nhw = pico.build()")
    assert r.stdout.count("display: the ssd1306 driver is missing on this board; make deploy") == 1, (
        r.stdout + r.stderr
    )  # main.py builds it once a boot


# ------------------------------------------------------------------ the rest of the messages
def quiet(url):
    return Board(url, say=lambda _t: None)


def test_a_pico_that_does_not_come_back_after_its_reset(monkeypatch):
    monkeypatch.setattr(board, "BACK_WAIT_S", 1.0)
    with FakeBoard(reset_gap=3.0) as b:
        with pytest.raises(DeployError) as info:
            commands.reset(quiet(b.url), log=lambda _t: None)
        assert str(info.value) == messages.NO_RETURN.format(seconds=1)


def test_a_board_that_restarts_or_fails_during_a_command(pico):
    with pytest.raises(DeployError) as info:  # a crash restart in the middle of a command
        quiet(pico.url).run("exec", "import machine\nmachine.reset()")
    assert str(info.value) == messages.LOST
    pico.wait_event("port back", timeout=10)
    with pytest.raises(DeployError) as info:
        quiet(pico.url).run("exec", "raise ValueError('no room for the saves')")
    assert str(info.value) == messages.BOARD_SAID.format(line="ValueError: no room for the saves")


def test_a_port_without_permission(monkeypatch):
    import serial

    def refuse(port, **kw):
        raise serial.SerialException(13, f"could not open port {port}: [Errno 13] Permission denied")

    monkeypatch.setattr(serial, "Serial", refuse)
    assert open_problem("/dev/ttyACM0") == messages.NO_PERMISSION.format(port="/dev/ttyACM0")
    assert "dialout" in messages.NO_PERMISSION
