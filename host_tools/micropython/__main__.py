"""``python -m host_tools.micropython``: see host_tools/micropython/runner.py."""

import sys

from host_tools.micropython.runner import main

sys.exit(main())
