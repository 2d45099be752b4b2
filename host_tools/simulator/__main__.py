"""``python -m host_tools.simulator``: see host_tools/simulator/cli.py."""

import sys

from host_tools.simulator.cli import main

sys.exit(main())
