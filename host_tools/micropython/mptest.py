"""Run the test modules of tests/mp/ under the real MicroPython, through tests/mp/mp_runner.py.

    python -m host_tools.micropython.mptest                    # every tests/mp/test_*.py
    python -m host_tools.micropython.mptest test_cards_mp      # some of them
    python -m host_tools.micropython.mptest --heapsize 192k    # on a fixed, Pico-sized heap

Each module runs in its own MicroPython process. pytest runs the same modules through
tests/test_on_micropython.py, under MicroPython and under CPython.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from host_tools.micropython.runner import (
    DEFAULT_PATHS,
    DEFAULT_TIMEOUT,
    MicroPythonError,
    command,
    ensure_node_deps,
)

ROOT = Path(__file__).resolve().parents[2]
MP_TESTS = ROOT / "tests" / "mp"
RUNNER = MP_TESTS / "mp_runner.py"
# the one host hardware (fake_hw.py) is importable by tests/mp modules under MicroPython too
HOST_HW = (ROOT / "host_tools" / "hw", "/hw")

_SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$", re.MULTILINE)


@dataclass
class MpResult:
    module: str
    passed: int
    failed: int
    returncode: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.failed == 0 and self.passed > 0

    def report(self) -> str:
        return f"{self.module}: exit {self.returncode}\n--- stdout\n{self.stdout}--- stderr\n{self.stderr}"


def discover() -> list[str]:
    """Module names of tests/mp/test_*.py, sorted."""
    return sorted(p.stem for p in MP_TESTS.glob("test_*.py"))


def list_test_functions(module: str) -> list[str]:
    """The module's top-level ``test_*`` functions, found without importing it."""
    tree = ast.parse((MP_TESTS / f"{module}.py").read_text(encoding="utf-8"))
    return sorted(n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


def run_under_micropython(
    module: str,
    *,
    heapsize: int | str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    extra_paths: Sequence[tuple[Path | str, str]] = (),
) -> MpResult:
    """Run one test module through mp_runner under MicroPython; never raises for test failures."""
    ensure_node_deps()
    cmd = command(paths=[*DEFAULT_PATHS, HOST_HW, *extra_paths], heapsize=heapsize) + [str(RUNNER), module]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise MicroPythonError(f"{module} timed out after {timeout} s under MicroPython") from e
    found = _SUMMARY.findall(proc.stdout)
    passed, failed = (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)
    return MpResult(module, passed, failed, proc.returncode, proc.stdout, proc.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.micropython.mptest", description=__doc__.split("\n")[0]
    )
    parser.add_argument("modules", nargs="*", help="test module names (default: all of tests/mp/test_*.py)")
    parser.add_argument("--heapsize", help="fixed heap size, e.g. 192k")
    ns = parser.parse_args(argv)
    modules = ns.modules or discover()
    passed = failed = 0
    for module in modules:
        r = run_under_micropython(module, heapsize=ns.heapsize)
        body = _SUMMARY.sub("", r.stdout).strip("\n")
        if body:
            print(body)
        if not r.ok:
            sys.stdout.write(r.stderr)
            if r.passed + r.failed == 0:
                r.failed = 1  # crashed before its summary line: count the module as one failure
        print(f"  {module}: {r.passed} passed, {r.failed} failed")
        passed += r.passed
        failed += r.failed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
