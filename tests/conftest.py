"""Shared pytest setup.

pyproject.toml puts the repository root and firmware/ on sys.path, so ``from gin import cards``
and ``from host_tools import ...`` work in every test.
"""

import sys
from pathlib import Path

import pytest

MP_TESTS = Path(__file__).resolve().parent / "mp"

# tests/mp/ modules are imported by bare name, as MicroPython imports them from /tests_mp.
if str(MP_TESTS) not in sys.path:
    sys.path.insert(0, str(MP_TESTS))

# They are not pytest modules: tests/test_on_micropython.py runs them under both interpreters.
collect_ignore = ["mp"]


@pytest.fixture(scope="session")
def stub_driver(tmp_path_factory):
    """A stand-in for micropython-lib's ssd1306.py, for `make deploy DRIVER=` on the fake board."""
    p = tmp_path_factory.mktemp("driver") / "ssd1306.py"
    p.write_text(
        "class SSD1306_I2C:\n    def __init__(self, w, h, i2c, addr=0x3C):\n        self.addr = addr\n"
    )
    return p
