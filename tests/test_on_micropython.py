"""The tests/mp/ modules under the real MicroPython (wasm port) and under CPython, plus checks of
the harness itself: host_tools.micropython.runner, host_tools.micropython.mptest and tests/mp/mp_runner.py.
"""

import importlib
import subprocess
import sys
import textwrap

import pytest

import mp_runner
from host_tools.micropython import mptest as mp_unittest
from host_tools.micropython.runner import ROOT, MicroPythonError, run

MODULES = mp_unittest.discover()
CASES = [(m, f) for m in MODULES for f in mp_unittest.list_test_functions(m)]


def test_there_are_micropython_test_modules():
    assert "test_cards_mp" in MODULES
    assert all(mp_unittest.list_test_functions(m) for m in MODULES), "a tests/mp module without tests"


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_under_micropython(module):
    r = mp_unittest.run_under_micropython(module)
    assert r.ok, r.report()
    # Every test_* function ran: none silently skipped by the runner.
    assert r.passed == len(mp_unittest.list_test_functions(module)), r.report()


@pytest.mark.parametrize(("module", "func"), CASES, ids=[f"{m}.{f}" for m, f in CASES])
def test_function_passes_under_cpython(module, func):
    getattr(importlib.import_module(module), func)()


# --- the harness ------------------------------------------------------------------------------


def test_run_is_really_micropython_and_sees_the_firmware():
    out = run("import sys\nfrom gin import cards\nprint(sys.implementation.name, cards.card_text(51))")
    assert out == "micropython KS\n"


def test_run_raises_with_the_micropython_traceback():
    with pytest.raises(MicroPythonError) as info:
        run("def f():\n    return 1 // 0\nf()\n")
    assert info.value.returncode == 1
    assert "ZeroDivisionError" in info.value.stderr
    assert "ZeroDivisionError" in str(info.value)


def test_exit_status_passes_through():
    assert run("import sys\nprint('bye')\nsys.exit(0)") == "bye\n"
    with pytest.raises(MicroPythonError) as info:
        run("import sys\nsys.exit(3)")
    assert info.value.returncode == 3


def test_timeout_stops_a_runaway_script():
    with pytest.raises(MicroPythonError, match="timed out"):
        run("while True:\n    pass\n", timeout=1)


def test_heapsize_is_a_hard_limit():
    code = textwrap.dedent(
        """
        try:
            b = bytearray(100000)
            print("allocated", len(b))
        except MemoryError:
            print("MemoryError")
        """
    )
    assert run(code, heapsize="64k") == "MemoryError\n"
    assert run(code) == "allocated 100000\n"


def test_a_growing_heap_still_stops_at_512_mb():
    code = "try:\n    bytearray(600 * 1024 * 1024)\nexcept MemoryError:\n    print('MemoryError')\n"
    assert run(code) == "MemoryError\n"


def test_garbage_is_collected_at_asyncio_awaits_under_a_fixed_heap():
    # 10 x 30 KB of garbage in a 64 KB heap: only fits if the GC runs at each await.
    code = textwrap.dedent(
        """
        import asyncio
        async def main():
            for i in range(10):
                b = bytearray(30000)
                b = None
                await asyncio.sleep_ms(0)
            print("done")
        asyncio.run(main())
        """
    )
    assert run(code, heapsize="64k") == "done\n"


def test_cli_runs_code_and_returns_its_status():
    cmd = [sys.executable, "-m", "host_tools.micropython"]
    ok = subprocess.run(cmd + ["-c", "print(6 * 7)"], capture_output=True, text=True, cwd=ROOT)
    assert (ok.returncode, ok.stdout) == (0, "42\n")
    bad = subprocess.run(cmd + ["-c", "raise ValueError('boom')"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1
    assert "ValueError: boom" in bad.stderr


SELF_TEST_MODULE = """
def helper_not_a_test():
    raise AssertionError("helpers must not run")

def test_passes():
    assert 1 + 1 == 2

def test_fails():
    assert 1 + 1 == 3, "arithmetic"

def test_raises():
    {}["missing"]
"""


@pytest.fixture
def bad_module(tmp_path, monkeypatch):
    name = "selfcheck_tmp_mp"
    (tmp_path / f"{name}.py").write_text(SELF_TEST_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path, name


def test_runner_reports_each_failure_under_micropython(bad_module):
    folder, name = bad_module
    r = mp_unittest.run_under_micropython(name, extra_paths=[(folder, "/selfcheck")])
    assert (r.passed, r.failed, r.returncode) == (1, 2, 1), r.report()
    assert f"FAIL {name}.test_fails: AssertionError: arithmetic" in r.stdout
    assert f"FAIL {name}.test_raises: KeyError" in r.stdout
    assert r.stdout.rstrip().endswith("1 passed, 2 failed")
    assert not r.ok


def test_runner_reports_each_failure_under_cpython(bad_module, capsys):
    _, name = bad_module
    assert mp_runner.main([name]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {name}.test_fails: AssertionError: arithmetic" in out
    assert out.rstrip().endswith("1 passed, 2 failed")


def test_runner_still_reports_after_a_test_fills_the_heap(tmp_path):
    (tmp_path / "hog_tmp_mp.py").write_text(
        "def test_hog():\n    keep = []\n    while True:\n        keep.append(bytearray(100))\n"
    )
    r = mp_unittest.run_under_micropython(
        "hog_tmp_mp", heapsize="64k", extra_paths=[(tmp_path, "/selfcheck")]
    )
    assert (r.passed, r.failed, r.returncode) == (0, 1, 1), r.report()
    assert "FAIL hog_tmp_mp.test_hog: MemoryError" in r.stdout


def test_runner_counts_an_import_error_and_refuses_an_empty_run(tmp_path):
    (tmp_path / "broken_tmp_mp.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "empty_tmp_mp.py").write_text("X = 1\n")
    broken = mp_unittest.run_under_micropython("broken_tmp_mp", extra_paths=[(tmp_path, "/selfcheck")])
    assert (broken.passed, broken.failed, broken.returncode) == (0, 1, 1), broken.report()
    assert "FAIL broken_tmp_mp (import): ImportError" in broken.stdout
    empty = mp_unittest.run_under_micropython("empty_tmp_mp", extra_paths=[(tmp_path, "/selfcheck")])
    assert (empty.passed, empty.failed, empty.returncode) == (0, 0, 1), empty.report()
    assert not empty.ok
