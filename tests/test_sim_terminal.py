"""The simulator's terminal front end, driven in real terminals: a pty, and tmux.

Each test starts ``python -m host_tools.simulator`` as a person would, types
keys, and checks what the terminal shows and that it is handed back intact.
"""

import fcntl
import os
import pty
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from gin.round import DISCARD_PHASE, DRAW

from host_tools.simulator import replay
from host_tools.simulator.term import ENTER_SCREEN, LEAVE_SCREEN

ROOT = Path(__file__).resolve().parent.parent
SIM = [sys.executable, "-m", "host_tools.simulator"]


def _my_moves(save_dir):
    """What player 0 ('You') did in the saved live hand, as words."""
    rec = replay.load(save_dir / "game.sav")
    n = len(rec.tapes[-1].actions)
    steps = [replay.describe_step(rec, len(rec.tapes) - 1, i) for i in range(1, n + 1)]
    return [s.split(": ", 1)[1] for s in steps if ": " in s and s.split(". ", 1)[1].startswith("You:")]


def wait_my_turn(save_dir, phase, timeout=20.0):
    """Until the autosave says player 0 is to act in ``phase`` (the app saves after every move).

    Keys sent while the computer plays are refused with a message, as on the
    device; syncing on the save keeps the test independent of the machine's speed.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            rec = replay.load(save_dir / "game.sav")
            rnd, _ = rec.state(len(rec.tapes) - 1, len(rec.tapes[-1].actions))
            if rnd.player == 0 and rnd.phase == phase:
                time.sleep(0.2)  # the save comes just before the frame
                return
        except replay.ReplayError:
            pass  # not written yet, or being replaced right now
        time.sleep(0.05)
    raise AssertionError(f"player 0 never got to phase {phase}")


# ---------------------------------------------------------------- pty
class PtyRun:
    """The simulator on a pseudo-terminal of a chosen size."""

    def __init__(self, args, cols=140, rows=40):
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.before = termios.tcgetattr(self.slave)
        self.proc = subprocess.Popen(
            SIM + args,
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            cwd=ROOT,
            env={**os.environ, "TERM": "xterm-256color"},
            start_new_session=True,
        )
        self.out = b""

    def read_until(self, pattern, timeout=15.0):
        end = time.monotonic() + timeout
        rx = re.compile(pattern)
        while time.monotonic() < end:
            if rx.search(self.out):
                return True
            self._pump(0.05)
        raise AssertionError(f"never saw {pattern!r}; last output: {self.out[-600:]!r}")

    def _pump(self, wait):
        import select

        r, _, _ = select.select([self.master], [], [], wait)
        if r:
            try:
                self.out += os.read(self.master, 65536)
            except OSError:
                pass

    def send(self, data, pause=0.25):
        os.write(self.master, data)
        end = time.monotonic() + pause
        while time.monotonic() < end:
            self._pump(0.02)

    def wait(self, timeout=10.0):
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._pump(0.05)
        self._pump(0.1)
        return self.proc.wait(timeout=1)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def ptyrun():
    runs = []

    def start(args, **kw):
        r = PtyRun(args, **kw)
        runs.append(r)
        return r

    yield start
    for r in runs:
        r.close()


def test_play_a_few_moves_and_quit_in_a_pty(tmp_path, ptyrun):
    t = ptyrun(["--save-dir", str(tmp_path), "--seed", "7"])
    t.read_until(rb"Gin Rummy \xc2\xb7 vs computer")
    t.read_until(rb"d draw  s discard  k knock  m menu .* q quit")  # the key letters under the panel
    assert t.out.startswith(ENTER_SCREEN.encode())  # alternate screen, cursor hidden
    t.send(b"\r")  # Enter = DISCARD: "New game" (seed 7: the computer moves first)
    wait_my_turn(tmp_path, DRAW)
    t.send(b"d")  # draw from the stock
    wait_my_turn(tmp_path, DISCARD_PHASE)
    t.send(b"s")  # discard the card under the cursor
    wait_my_turn(tmp_path, DRAW)  # the computer has replied
    t.send(b"x")
    t.read_until(rb"'x' is not a key here: \? shows the keys")
    t.send(b"?")
    t.read_until(rb"Any key closes this help")
    t.send(b"z")  # closes the help, and is no button
    t.send(b"q")
    t.read_until(rb"Quit\? The game is saved")
    t.send(b"y")
    assert t.wait() == 0
    tail = t.out[t.out.rindex(LEAVE_SCREEN.encode()) :]
    assert b"Game saved in" in tail
    assert termios.tcgetattr(t.slave) == t.before  # raw mode undone
    moves = _my_moves(tmp_path)
    assert moves.count("draw") >= 1 and any(m.startswith("discard") for m in moves)


def test_sigterm_restores_the_terminal(tmp_path, ptyrun):
    t = ptyrun(["--save-dir", str(tmp_path), "--size", "compact"], cols=80, rows=24)
    t.read_until(rb"Gin Rummy")
    assert "\u2800".encode() in t.out or re.search(rb"\xe2[\xa0-\xa3]", t.out)  # braille cells
    t.proc.send_signal(signal.SIGTERM)
    assert t.wait() == 128 + signal.SIGTERM
    assert t.out.rindex(LEAVE_SCREEN.encode()) > t.out.rindex(ENTER_SCREEN.encode())
    assert termios.tcgetattr(t.slave) == t.before


def test_a_small_terminal_gets_a_message_not_a_mess(tmp_path, ptyrun):
    t = ptyrun(["--save-dir", str(tmp_path), "--size", "full"], cols=60, rows=20)
    t.read_until(rb"the full view needs 130x36")
    t.read_until(rb"q quits")
    t.send(b"q")
    assert t.wait() == 0
    assert termios.tcgetattr(t.slave) == t.before


def test_without_a_terminal_it_says_so(tmp_path):
    r = subprocess.run(
        SIM + ["--save-dir", str(tmp_path)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2
    assert "needs a terminal" in r.stderr and "--script" in r.stderr


# ---------------------------------------------------------------- tmux
TMUX = shutil.which("tmux")


class Tmux:
    def __init__(self, socket):
        self.socket = socket

    def __call__(self, *args, check=True):
        return subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, check=check, timeout=10
        ).stdout

    def pane(self):
        return self("capture-pane", "-p", "-t", "sim")

    def wait_for(self, text, timeout=15.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.pane()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"never saw {text!r} in:\n{self.pane()}")


def test_play_in_tmux_and_the_terminal_comes_back(tmp_path):
    assert TMUX, "tmux is needed for this test (apt-get install tmux)"
    tm = Tmux(f"gin-sim-test-{os.getpid()}")
    cmd = (
        f"cd {ROOT} && {sys.executable} -m host_tools.simulator --save-dir {tmp_path} --seed 7; "
        "echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)'; echo STTY-SHOWN; sleep 60"
    )
    tm("-f", "/dev/null", "new-session", "-d", "-s", "sim", "-x", "140", "-y", "42", cmd)
    try:
        shown = tm.wait_for("Gin Rummy \u00b7 vs computer")
        assert "d draw  s discard  k knock  m menu" in shown
        assert tm("display", "-p", "-t", "sim", "#{alternate_on}").strip() == "1"
        tm("send-keys", "-t", "sim", "Enter")
        wait_my_turn(tmp_path, DRAW)
        before = tm.pane()
        tm("send-keys", "-t", "sim", "d")
        wait_my_turn(tmp_path, DISCARD_PHASE)
        tm("send-keys", "-t", "sim", "s")
        wait_my_turn(tmp_path, DRAW)
        assert tm.pane() != before  # the cards moved
        tm("send-keys", "-t", "sim", "F5")  # a key that means nothing here
        tm.wait_for("is not a key here")
        tm("send-keys", "-t", "sim", "q")
        tm.wait_for("Quit?")
        tm("send-keys", "-t", "sim", "y")
        # the terminal's modes come a moment after EXIT=0 (a loaded machine: not yet on the pane)
        shown = tm.wait_for("STTY-SHOWN")
        assert "Game saved in" in shown and "EXIT=0" in shown
        lines = shown.split("EXIT=0", 1)[1]
        assert re.search(r"(?m)^icanon$", lines) and re.search(r"(?m)^echo$", lines)
        assert tm("display", "-p", "-t", "sim", "#{alternate_on} #{cursor_flag}").split() == ["0", "1"]
    finally:
        tm("kill-server", check=False)
    moves = _my_moves(tmp_path)
    assert "draw" in moves and any(m.startswith("discard") for m in moves)


# ---------------------------------------------------------------- pieces
def test_braille_keeps_the_aspect_and_every_pixel():
    from host_tools.hw.ssd1306_model import Glass
    from host_tools.simulator.term import render_braille

    frame = bytearray(1024)
    frame[1] = 0x08  # pixel (1, 3): the braille dot 8 of the first cell
    frame[127 + 7 * 128] = 0x80  # pixel (127, 63): dot 8 of the last cell
    lines = render_braille(Glass.from_frame(bytes(frame)))
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    assert lines[0][0] == chr(0x2880) and lines[15][63] == chr(0x2880)
    assert sum(ch != chr(0x2800) for line in lines for ch in line) == 2


def test_unknown_keys_get_a_hint_and_press_nothing(tmp_path):
    from host_tools.simulator.session import Session
    from host_tools.simulator.term import TerminalFrontEnd

    s = Session(tmp_path, virtual=True)
    fe = TerminalFrontEnd(s, fd=0, color=False)
    for tok in ("x", "F", "key-15", "\u00e9"):
        fe.handle_token(tok)
        screen = "\n".join(fe.screen_lines(140, 40))
        assert "is not a key here: ? shows the keys" in screen
    assert fe.unknown_keys == 4 and s.buttons.next_change() is None
    fe.handle_token("?")
    screen = "\n".join(fe.screen_lines(140, 40))
    assert "long press (Shift = hold the button 0.7 s)" in screen and "quit (the game is saved" in screen
    fe.handle_token("d")  # closes the help without pressing DRAW
    assert not fe.help and s.buttons.next_change() is None
    fe.handle_token("d")
    assert s.buttons.next_change() is not None


def test_quit_asks_only_during_a_game(tmp_path):
    from host_tools.simulator.session import Session
    from host_tools.simulator.term import TerminalFrontEnd

    title = TerminalFrontEnd(Session(tmp_path / "a", virtual=True), fd=0, color=False)
    title.handle_token("q")
    assert not title.running
    game = TerminalFrontEnd(Session(tmp_path / "b", virtual=True, new_game=True), fd=0, color=False)
    game.handle_token("q")
    assert game.running and game.confirm_quit
    game.handle_token("n")
    assert game.running and not game.confirm_quit
    game.handle_token("q")
    game.handle_token("y")
    assert not game.running


def test_window_keys_map_like_the_terminal_keys():
    from host_tools.simulator.window import token_for

    assert token_for("up", "", False) == "up"
    assert token_for("left", "", True) == "S-left"
    assert token_for("d", "d", False) == "d" and token_for("d", "D", True) == "D"
    assert token_for("return", "\r", False) == "enter" and token_for("escape", "\x1b", False) == "esc"
    assert token_for("left shift", "", True) is None


def test_held_keys_of_a_window_hold_the_button():
    from device.buttons import DRAW, LONG, PRESS, RELEASE, RIGHT

    from host_tools.hw.fake_hw import Buttons as SimButtons
    from host_tools.hw.fake_hw import Clock as SimClock

    clock = SimClock()
    b = SimButtons(clock)
    b.down(DRAW)
    clock.advance_to(1000)
    b.up(DRAW)
    b.down(RIGHT)
    b.up(RIGHT)  # released at once: still long enough to count as a press
    clock.advance_to(1200)
    ev = [(e >> 2, e & 3) for e in b.events()]
    assert [k for btn, k in ev if btn == DRAW] == [PRESS, LONG, RELEASE]
    assert [k for btn, k in ev if btn == RIGHT] == [PRESS, RELEASE]
