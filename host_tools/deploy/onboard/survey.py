"""On the board: what deploy needs to know before it changes anything.

Prints one fact a line: ``V major.minor.micro mpy`` (the firmware and the .mpy version it loads),
``S block_size blocks free_blocks`` (the flash), then ``D path`` / ``F path size`` for every
folder and file, and ``END``.  Hashes are left to ``mpremote cp``, which skips identical files.
"""

import os
import sys


def _walk(d):
    for e in os.ilistdir(d) if d else os.ilistdir():
        p = d + "/" + e[0] if d else e[0]
        if e[1] & 0x4000:
            print("D", p)
            _walk(p)
        else:
            print("F", p, os.stat(p)[6])


def survey():
    v = sys.implementation.version
    print("V", "%d.%d.%d" % (v[0], v[1], v[2]), getattr(sys.implementation, "_mpy", 0))
    s = os.statvfs("/")
    print("S", s[0], s[2], s[3])
    _walk("")
    print("END")
