"""The board commands: deploy (driver first), play, check, logs, reset, wipe, repl, mount.

``deploy`` asks the board what it runs and holds (onboard/survey.py, one exec) and decides
everything before it changes anything: a MicroPython too old for the .mpy files, a flash too full,
or a display driver that can't be had (not on the board, the package index unreachable, no
DRIVER= file) stop it with the board untouched.  Then the driver goes on first, stale copies of our
own modules go (a leftover ``gin/cards.py`` would shadow ``gin/cards.mpy``), and ``mpremote cp``
sends every file, skipping those whose sha256 already matches.  It checks what landed, resets the
board into the game and waits for the Pico to come back on USB; when nothing changed it says
"up to date" and restarts the game in place (a soft reset: USB stays up, nothing to wait for).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from host_tools.deploy import CRASH_LOG, DEFAULT_BUILD, RESET_FLAG, ROOT, DeployError, messages
from host_tools.deploy.board import Board, mpremote_cmd, program
from host_tools.deploy.closure import ENTRY_FILES, Entry, closure
from host_tools.deploy.compile import build, compile_mpy
from host_tools.deploy.rp2 import (
    BLOCK,
    DEFAULT_INDEX,
    DRIVER,
    DRIVER_DIR,
    MPY_FIRST_RELEASE,
    MPY_VERSION,
)


# ==================================================================== what the board holds
@dataclass
class Survey:
    """onboard/survey.py's answer."""

    version: str
    mpy: int  # sys.implementation._mpy: low byte = the .mpy version it loads
    block_size: int
    blocks: int
    free_blocks: int
    dirs: set[str]
    sizes: dict[str, int]  # every file: path -> bytes

    def driver(self) -> str | None:
        for d in (DRIVER_DIR + "/", ""):
            for ext in ("mpy", "py"):
                if f"{d}{DRIVER}.{ext}" in self.sizes:
                    return f"{d}{DRIVER}.{ext}"
        return None


def parse_survey(out: str) -> Survey:
    s = Survey("?", 0, BLOCK, 0, 0, set(), {})
    done = False
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "V":
            s.version, s.mpy = parts[1], int(parts[2])
        elif len(parts) == 4 and parts[0] == "S":
            s.block_size, s.blocks, s.free_blocks = (int(x) for x in parts[1:])
        elif len(parts) == 2 and parts[0] == "D":
            s.dirs.add(parts[1])
        elif len(parts) == 3 and parts[0] == "F":
            s.sizes[parts[1]] = int(parts[2])
        elif parts == ["END"]:
            done = True
    if not done:
        lines = [ln for ln in out.splitlines() if ln.strip()]
        raise DeployError(messages.BOARD_SAID.format(line=lines[-1] if lines else "nothing"))
    return s


def survey(board: Board) -> Survey:
    return parse_survey(board.exec("survey", "survey()"))


def check_micropython(s: Survey) -> None:
    """Stop unless the board loads the .mpy version mpy-cross writes."""
    if s.mpy & 0xFF != MPY_VERSION:
        raise DeployError(
            messages.OLD_MICROPYTHON.format(version=s.version, need=MPY_VERSION, first=MPY_FIRST_RELEASE)
        )


# ==================================================================== the plan
def managed(entries: list[Entry], root: Path) -> tuple[list[str], list[str]]:
    """Package folders we own on the board, and the top-level names we own.

    Ours: every firmware/ package (shipped now or not: a package the closure dropped
    leaves stale files to delete) and, at the top, our module names as .py and .mpy.
    Everything else on the board (saves, crash.log, /lib) is never touched.
    """
    fw = root / "firmware"
    dirs = {e.device.split("/")[0] for e in entries if "/" in e.device}
    if fw.is_dir():
        dirs |= {p.name for p in fw.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    stems = {p.stem for p in fw.glob("*.py")} | {Path(n).stem for n in ENTRY_FILES}
    top = sorted({s + x for s in stems for x in (".py", ".mpy")})
    return sorted(dirs), top


def blocks_of(n: int) -> int:
    return max(1, -(-n // BLOCK))


@dataclass
class Plan:
    mkdirs: list[str]
    send: list[Entry]
    remove: list[str]
    rmdirs: list[str]
    need_blocks: int  # blocks the flash must have free, the copy-on-write of the largest file included


def plan(entries: list[Entry], build_dir: Path, s: Survey, root: Path, extra_bytes: int = 0) -> Plan:
    dirs, top = managed(entries, root)
    want = {e.device for e in entries}
    need_dirs: set[str] = set()
    for e in entries:
        parts = e.device.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            need_dirs.add("/".join(parts[:i]))
    mk = sorted(d for d in need_dirs if d not in s.dirs)
    ours = [p for p in s.sizes if p.split("/")[0] in dirs or ("/" not in p and p in top)]
    remove = sorted(p for p in ours if p not in want)
    rmdirs = sorted(
        (d for d in s.dirs if d.split("/")[0] in dirs and d not in need_dirs),
        key=lambda d: (-d.count("/"), d),
    )
    sizes = [(build_dir / e.device).stat().st_size for e in entries]
    new = sum(blocks_of(n) for n in sizes) + 2 * len(mk) + (blocks_of(extra_bytes) if extra_bytes else 0)
    old = sum(blocks_of(s.sizes[p]) for p in ours) + 2 * len(rmdirs)
    need = new - old + blocks_of(max(sizes, default=0))
    return Plan(mk, list(entries), remove, rmdirs, need)


# ==================================================================== the driver
@dataclass
class DriverStep:
    what: str  # for the log: "present", "not needed", "install from URL", "copy FILE"
    commands: list[str]  # mpremote commands, each ending in "+"
    bytes: int = 0  # flash it takes (an estimate for mip)


def index_problem(index: str, mpy: int) -> str | None:
    """Why the package index can't give us the driver, or None when it can."""
    url = f"{index.rstrip('/')}/package/{mpy}/{DRIVER}/latest.json"
    try:
        with urllib.request.urlopen(url, timeout=8) as r:
            meta = json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        return f"it answered HTTP {e.code} for {DRIVER}"
    except urllib.error.URLError as e:
        return str(getattr(e, "reason", e))
    except (OSError, ValueError) as e:
        return str(e) or type(e).__name__
    if not isinstance(meta, dict) or not (meta.get("hashes") or meta.get("urls")):
        return f"its {DRIVER} entry lists no files"
    return None


def driver_file(path: Path, build_dir: Path) -> Path:
    """DRIVER=path: the .mpy to copy (a .py is compiled), or DeployError saying what is wrong."""
    if not path.is_file():
        raise DeployError(messages.DRIVER_FILE.format(path=path, why="no such file"))
    if path.suffix == ".mpy":
        head = path.read_bytes()[:2]
        if head != b"M" + bytes([MPY_VERSION]):
            raise DeployError(
                messages.DRIVER_FILE.format(path=path, why=f"not a version {MPY_VERSION} .mpy file")
            )
        return path
    if "SSD1306_I2C" not in path.read_text(encoding="utf-8", errors="replace"):
        raise DeployError(
            messages.DRIVER_FILE.format(path=path, why="not an SSD1306 driver (it has no SSD1306_I2C)")
        )
    out = build_dir.parent / "driver" / f"{DRIVER}.mpy"
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        compile_mpy(path, out, f"{DRIVER}.py")
    except DeployError as e:
        raise DeployError(messages.DRIVER_FILE.format(path=path, why=str(e).splitlines()[-1])) from None
    return out


def driver_step(
    needed: bool, s: Survey, *, mip: bool, index: str | None, given: Path | None, mpy: Path | None
) -> DriverStep:
    """How the display driver gets onto the board; DeployError if it can't (nothing changed yet).

    given: the DRIVER= file, mpy: what driver_file made of it."""
    lib = [] if DRIVER_DIR in s.dirs else ["mkdir", ":" + DRIVER_DIR, "+"]
    if given is not None and mpy is not None:
        dest = f"{DRIVER_DIR}/{DRIVER}.mpy"
        stale = [p for p in (f"{DRIVER_DIR}/{DRIVER}.py", f"{DRIVER}.py", f"{DRIVER}.mpy") if p in s.sizes]
        cmds = lib + [c for p in stale for c in ("rm", ":" + p, "+")] + ["cp", str(mpy), ":" + dest, "+"]
        return DriverStep(f"copy {given}", cmds, mpy.stat().st_size)
    if not needed:
        return DriverStep("not needed", [])
    if s.driver():
        return DriverStep("present", [])
    if not mip:
        raise DeployError(messages.NO_DRIVER_OFFLINE)
    index = index or DEFAULT_INDEX
    why = index_problem(index, s.mpy & 0xFF)
    if why:
        raise DeployError(messages.NO_DRIVER.format(index=index, why=f" ({why})"))
    return DriverStep(f"install from {index}", ["mip", "install", "--index", index, DRIVER, "+"], 2 * BLOCK)


# ==================================================================== deploy
def deploy(
    board: Board,
    *,
    root: Path = ROOT,
    build_dir: Path = DEFAULT_BUILD,
    mip: bool = True,
    mip_index: str | None = None,
    driver: Path | None = None,
    reset: bool = True,
    dry_run: bool = False,
    log=print,
) -> Plan:
    cl = closure(root)
    entries = cl.entries
    build(entries, build_dir)
    mpy = driver_file(driver, build_dir) if driver is not None else None  # a bad file: stop before the board
    s = survey(board)
    check_micropython(s)
    step = driver_step(cl.needs(DRIVER), s, mip=mip, index=mip_index, given=driver, mpy=mpy)
    p = plan(entries, build_dir, s, root, step.bytes)
    if p.need_blocks > s.free_blocks:
        kib = s.block_size // 1024
        raise DeployError(messages.FLASH_FULL.format(need=p.need_blocks * kib, free=s.free_blocks * kib))
    log(
        f"deploy: MicroPython {s.version} on {board.port}; {len(p.send)} files to send, "
        f"{len(p.remove)} to remove; driver: {step.what}"
    )
    if dry_run:
        for f in p.remove:
            log(f"  remove {f}")
        return p
    cmds = list(step.commands)
    for d in p.mkdirs:
        cmds += ["mkdir", ":" + d, "+"]
    for f in p.remove:
        cmds += ["rm", ":" + f, "+"]
    for d in p.rmdirs:
        cmds += ["rmdir", ":" + d, "+"]
    for e in p.send:
        cmds += ["cp", str(build_dir / e.device), ":" + e.device, "+"]  # skips a file whose hash matches
    cmds += ["exec", program("survey", "survey()")]
    out = board.run(*cmds)
    kept = {
        line.split(":", 1)[1].strip().lstrip("/")
        for line in out.splitlines()
        if line.startswith("Up to date:")
    }
    same = sum(1 for e in p.send if e.device in kept)
    # the driver changes the board unless its one copy was up to date (mip always installs)
    driver_changed = bool(step.commands) and not (
        step.commands.count("cp") == 1
        and not {"rm", "mkdir", "mip"} & set(step.commands)
        and step.commands[-2].lstrip(":/") in kept
    )
    after = parse_survey(out)
    bad = [e.device for e in entries if after.sizes.get(e.device) != (build_dir / e.device).stat().st_size]
    if bad:
        raise DeployError("after copying, these differ on the board: " + ", ".join(bad))
    if cl.needs(DRIVER) and not after.driver():
        raise DeployError(f"the {DRIVER} driver is not on the board after installing it")
    log(
        f"deploy: {len(p.send) - same} copied, {same} already up to date, {len(p.remove)} removed"
        + (f"; driver: {'installed' if step.commands else step.what}")
    )
    if not (len(p.send) - same + len(p.remove) + len(p.mkdirs) + len(p.rmdirs) or driver_changed):
        # Nothing new to restart into: no reset, no wait for USB.  Asking the board stopped the
        # game (mpremote interrupts main.py), so a soft reset starts it again at once.
        if reset:
            board.soft_reset()
            log("deploy: up to date; no reset, the game is running")
        else:
            log("deploy: up to date; the board waits at its REPL (make reset starts the game)")
        return p
    if reset:
        restart_board(board)
        log("deploy: done; the game is starting on the Pico")
    else:
        log("deploy: done; the board waits at its REPL (make reset starts the game)")
    return p


# ==================================================================== other board commands
def check(board: Board, root: Path = ROOT) -> dict[str, str]:
    """Import every module the game needs on the board, the driver included.

    {module: the file it loaded from, or "FAIL reason"}."""
    cl = closure(root)
    mods = [e.module for e in cl.entries if e.module] + ([DRIVER] if cl.needs(DRIVER) else [])
    out = board.exec("check", f"check({tuple(mods)!r})")
    res: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if parts[0] in ("OK", "FAIL") and len(parts) == 3:
            res[parts[1]] = parts[2] if parts[0] == "OK" else "FAIL " + parts[2]
    if "END" not in out.split():
        raise DeployError(messages.BOARD_SAID.format(line=(out.strip().splitlines() or ["nothing"])[-1]))
    return res


def logs(board: Board) -> str:
    return board.exec("logs", f"logs({CRASH_LOG!r})")


def restart_board(board: Board) -> None:
    """Reset the board and wait for it.  On the RP2040 machine.reset() is a watchdog reset: the
    flag written first tells the game's next boot that nothing hung (device/pico.py)."""
    board.run("exec", f"open({RESET_FLAG!r}, 'w').write('1')", "+", "reset")
    board.wait_restart()


def reset(board: Board, log=print) -> None:
    restart_board(board)
    log("reset: the Pico restarted into the game")


def wipe(board: Board, yes: bool, log=print) -> bool:
    if not yes:
        try:
            answer = input("Delete EVERY file on the board (game, saves, crash log, /lib)? Type yes: ")
        except EOFError:
            answer = ""
        if answer.strip().lower() != "yes":
            log("wipe: cancelled, nothing deleted")
            return False
    out = board.exec("wipe", "wipe()")
    n = sum(1 for line in out.splitlines() if line.startswith("removed "))
    log(f"wipe: {n} files and folders removed; `make deploy` puts the game back")
    return True


def console(board: Board) -> int:
    """mpremote's terminal on the board; leaving it (Ctrl-]) leaves the game running.

    mpremote 1.29's terminal waits with select() on the port's ``fd``, which only real
    serial ports have (pyserial's socket and RFC 2217 ports lack it).  For those ports this
    runs mpremote in this process with that wait turned into a short poll.
    """
    port = board.port
    if "://" not in port:
        return subprocess.call(mpremote_cmd(port) + ["repl"])
    from mpremote import console as mp_console  # noqa: PLC0415
    from mpremote import main as mp_main  # noqa: PLC0415

    posix = getattr(mp_console, "ConsolePosix", None)
    if posix is not None:

        def waitchar(self, pyb_serial):
            fd = getattr(pyb_serial, "fd", None)
            select.select([self.infd] + ([fd] if fd is not None else []), [], [], 0.02)

        posix.waitchar = waitchar
    saved = sys.argv
    sys.argv = ["mpremote", "connect", port, "repl"]
    try:
        return mp_main.main()
    finally:
        sys.argv = saved


def play(board: Board, log=print, **deploy_args) -> int:
    """make play on a Pico: deploy, wait for the restart, attach the console."""
    deploy(board, log=log, **deploy_args)
    log("play: the console of the Pico; Ctrl-] leaves it (the game keeps running), Ctrl-C stops the game")
    return console(board)


@contextmanager
def _keys_as_bytes():
    """While running: Ctrl-C on a terminal arrives as a byte instead of a signal (so make, which
    shares the terminal, is not interrupted).  Yields a function: was Ctrl-C pressed?"""
    fd = sys.stdin.fileno() if sys.stdin is not None else -1
    try:
        import termios  # noqa: PLC0415  (not on Windows: there Ctrl-C stays a signal, forwarded below)
    except ImportError:
        termios = None
    if termios is None or fd < 0 or not os.isatty(fd):
        yield lambda: False
        return

    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ISIG | termios.ICANON | termios.ECHO)
    mode[6][termios.VMIN] = 0
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)

    def pressed() -> bool:
        if select.select([fd], [], [], 0)[0]:
            return b"\x03" in os.read(fd, 64)
        return False

    try:
        yield pressed
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def mount(board: Board, build_dir: Path, log=print) -> int:
    """Run the compiled tree from this PC (mpremote mount); Ctrl-C stops it and leaves cleanly."""
    port = board.port
    log(f"mount: running {build_dir} from this PC (nothing copied); Ctrl-C stops it.")
    proc = subprocess.Popen(
        mpremote_cmd(port) + ["mount", str(build_dir), "run", str(build_dir / "main.py")],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    stopped = False

    def forward(_sig, _frame):
        nonlocal stopped
        stopped = True
        proc.send_signal(signal.SIGINT)

    old = signal.signal(signal.SIGINT, forward)
    try:
        with _keys_as_bytes() as pressed:
            while proc.poll() is None:
                if pressed() and not stopped:
                    stopped = True
                    proc.send_signal(signal.SIGINT)
                time.sleep(0.05)
    finally:
        signal.signal(signal.SIGINT, old)
    err = proc.stderr.read() if proc.stderr else ""
    if stopped:
        log("mount: stopped; the board is at its REPL (make reset starts the game from its flash)")
        return 0
    if proc.returncode:
        raise DeployError(board.explain(err))
    return 0
