"""``python -m host_tools.bench``: every benchmark table, one after the other (what ``make bench`` prints).

Each also runs alone: ``python -m host_tools.bench.melds`` (the meld search), ``.ai`` (the computer
players), ``.draw`` (canvas primitives), ``.ui`` (screens and memory), ``.saves`` (saves and flash wear);
``python -m host_tools.link.bench`` (the link cable) lives with the link's host code.
"""

import sys

from host_tools.bench import ai, draw, melds, saves, ui
from host_tools.link import bench as link

# (module, its arguments): the UI runs from .mpy files, as deployed.
BENCHMARKS = ((melds, []), (ai, []), (draw, []), (ui, ["--mpy"]), (saves, []), (link, []))


def main() -> int:
    worst = 0
    for module, argv in BENCHMARKS:
        print("== python -m %s %s" % (module.__name__, " ".join(argv)), flush=True)
        worst = max(worst, module.main(argv) or 0)
        print(flush=True)
    return worst


sys.exit(main())
