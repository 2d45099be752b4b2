"""Shared pytest setup.

pyproject.toml puts the repository root and firmware/ on sys.path, so ``from gin import cards``
and ``from host_tools import ...`` work in every test.
"""

import sys
from pathlib import Path

MP_TESTS = Path(__file__).resolve().parent / "mp"

# tests/mp/ modules are imported by bare name, as MicroPython imports them from /tests_mp.
if str(MP_TESTS) not in sys.path:
    sys.path.insert(0, str(MP_TESTS))

# They are not pytest modules: tests/test_on_micropython.py runs them under both interpreters.
collect_ignore = ["mp"]
