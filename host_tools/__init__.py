"""Host-side (CPython) tools: the simulator, hardware models, MicroPython runner, benchmarks, deploy, generators.

Importing any of them puts firmware/ on sys.path, as the device's flash root is
(``import gin``, ``import ui``, ``import app``): this is the one place that does.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"

if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
