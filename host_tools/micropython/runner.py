"""Run code under the real MicroPython 1.27 (the WebAssembly port, in Node) from CPython.

    from host_tools.micropython.runner import run, MicroPythonError
    out = run("from gin import cards; print(cards.card_text(0))")   # 'AC\\n'

By default firmware/ is copied in at /fw and tests/mp/ at /tests_mp, both on sys.path, so
``import gin`` works as it does on the device and ``import test_cards_mp`` as in the tests.

CLI, with the exit status of the Python code:

    python -m host_tools.micropython script.py [ARG...]
    python -m host_tools.micropython -c "import sys; print(sys.implementation)"
    python -m host_tools.micropython --heapsize 192k script.py

Things this port does differently from a Pico (they matter when you measure memory):
- It collects garbage only when control returns to JavaScript: at the end of a run, or at an
  ``await`` in code started with ``asyncio.run()``. ``gc.collect()`` inside a plain script frees
  nothing, and ``gc.mem_alloc()`` deltas therefore count every byte allocated, garbage included.
- Without ``heapsize`` the heap grows on demand (up to 512 MB). With it the heap is fixed, as on
  a device, and a plain script must fit all its allocations, garbage included, in it.
  ``gc.mem_free()`` always adds 128 MB of "could grow" headroom; use ``gc.mem_alloc()`` or
  ``micropython.mem_info()`` instead.
- It runs about 25x faster than an RP2040.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MPWASM_DIR = ROOT / "host_tools" / "mpwasm"
RUNNER_JS = MPWASM_DIR / "run.mjs"
WASM_MODULE = (
    MPWASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
)

# (host directory, mount point inside MicroPython); mount points go on sys.path in this order.
DEFAULT_PATHS: tuple[tuple[Path, str], ...] = (
    (ROOT / "firmware", "/fw"),
    (ROOT / "tests" / "mp", "/tests_mp"),
)

PICO_HEAP = "192k"  # roughly what gc.mem_free() reports on a freshly booted RP2040 Pico
DEFAULT_TIMEOUT = 300.0

SETUP_HINT = "run `make setup` in the repository root (needs node >= 18 and npm)"


class MicroPythonError(RuntimeError):
    """The MicroPython code raised, exited non-zero, timed out, or Node could not run it."""

    def __init__(self, message: str, *, returncode: int | None = None, stdout: str = "", stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        raise MicroPythonError(f"node not found on PATH: {SETUP_HINT}")
    return node


def ensure_node_deps() -> None:
    """Install the wasm port into host_tools/mpwasm/node_modules if it is missing.

    A file lock keeps parallel pytest workers from running npm at the same time.
    """
    if WASM_MODULE.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise MicroPythonError(f"MicroPython wasm port missing and npm not found: {SETUP_HINT}")
    # The lock lives outside the tree: `npm ci` deletes node_modules, and git should not see it.
    tag = hashlib.sha1(str(MPWASM_DIR).encode()).hexdigest()[:12]
    lock_path = Path(tempfile.gettempdir()) / f"gin-mpwasm-{tag}.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if WASM_MODULE.exists():
            return
        cmd = [
            npm,
            "ci" if (MPWASM_DIR / "package-lock.json").exists() else "install",
            "--no-audit",
            "--no-fund",
        ]
        proc = subprocess.run(cmd, cwd=MPWASM_DIR, capture_output=True, text=True)
        if proc.returncode != 0 or not WASM_MODULE.exists():
            raise MicroPythonError(
                f"`{' '.join(cmd)}` in {MPWASM_DIR} failed: {SETUP_HINT}\n{proc.stdout}{proc.stderr}",
                returncode=proc.returncode,
            )


def command(
    *,
    paths: Iterable[tuple[Path | str, str]] = DEFAULT_PATHS,
    heapsize: int | str | None = None,
) -> list[str]:
    """The node command line up to (not including) the script, ``-c CODE`` or ``-``."""
    cmd = [_node(), str(RUNNER_JS)]
    if heapsize is not None:
        cmd += ["--heapsize", str(heapsize)]
    for host_dir, mp_dir in paths:
        cmd += ["--path", f"{Path(host_dir).resolve()}:{mp_dir}"]
    return cmd


def _execute(
    tail: Sequence[str],
    *,
    stdin: str | None,
    paths: Iterable[tuple[Path | str, str]],
    heapsize: int | str | None,
    timeout: float | None,
) -> str:
    ensure_node_deps()
    cmd = command(paths=paths, heapsize=heapsize) + list(tail)
    try:
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        raise MicroPythonError(
            f"MicroPython run timed out after {timeout} s", stdout=out, stderr=err
        ) from None
    if proc.returncode != 0:
        raise MicroPythonError(
            f"MicroPython exited with status {proc.returncode}:\n{proc.stderr.rstrip()}",
            returncode=proc.returncode,
            stdout=proc.stdout,
            stderr=proc.stderr,
        )
    return proc.stdout


def run(
    code: str,
    *,
    paths: Iterable[tuple[Path | str, str]] = DEFAULT_PATHS,
    heapsize: int | str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> str:
    """Run ``code`` under MicroPython and return its stdout.

    ``paths``: (host dir, mount point) pairs copied in and put on sys.path.
    ``heapsize``: bytes or "192k"-style text; fixes the heap at that size (see the module doc).
    Raises MicroPythonError (with .stdout, .stderr, .returncode) when the code raises or exits
    non-zero; its message carries the MicroPython traceback.
    """
    return _execute(["-"], stdin=code, paths=paths, heapsize=heapsize, timeout=timeout)


def run_file(
    script: Path | str,
    *args: str,
    paths: Iterable[tuple[Path | str, str]] = DEFAULT_PATHS,
    heapsize: int | str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> str:
    """Like run(), for a script file on the host; ``args`` become sys.argv[1:]."""
    return _execute([str(script), *args], stdin=None, paths=paths, heapsize=heapsize, timeout=timeout)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.micropython",
        description="Run Python code under the real MicroPython 1.27 (WebAssembly port). "
        "firmware/ is mounted at /fw and tests/mp/ at /tests_mp, both on sys.path.",
    )
    parser.add_argument("-c", dest="code", help="program passed in as a string")
    parser.add_argument(
        "--heapsize",
        help=f"fixed heap size, e.g. {PICO_HEAP} (about a Pico); default: grows on demand",
    )
    parser.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="HOSTDIR:MPDIR",
        help="copy HOSTDIR in at MPDIR and put it on sys.path (repeatable)",
    )
    parser.add_argument(
        "--no-default-paths", action="store_true", help="do not mount firmware/ and tests/mp/"
    )
    parser.add_argument("script", nargs="?", help="script file ('-' for stdin)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    ns = parser.parse_args(argv)
    if ns.code is None and ns.script is None:
        parser.error("give a script file, '-' or -c CODE")

    paths: list[tuple[Path | str, str]] = [] if ns.no_default_paths else list(DEFAULT_PATHS)
    for spec in ns.path:
        host_dir, sep, mp_dir = spec.rpartition(":")
        if not sep or not host_dir or not mp_dir.startswith("/"):
            parser.error(f"--path wants HOSTDIR:/MPDIR, got {spec!r}")
        paths.append((host_dir, mp_dir))
    try:
        ensure_node_deps()
        cmd = command(paths=paths, heapsize=ns.heapsize)
    except MicroPythonError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if ns.code is not None:
        # argparse put anything after -c CODE into script/args: they are the program's argv.
        cmd += ["-c", ns.code] + ([ns.script] if ns.script else []) + ns.args
    else:
        cmd += [ns.script, *ns.args]
    # Output streams straight through: long runs (bench, arena) show progress as they go.
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
