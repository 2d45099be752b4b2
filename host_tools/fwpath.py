"""Put firmware/ on sys.path, as the device's flash root is: ``import gin``, ``import ui``, ``import app``.

pytest does this from its configuration; ``python -m host_tools.simulator``
needs it done here.  Import this module before any firmware module.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"

if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
