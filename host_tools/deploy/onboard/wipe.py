"""On the board: delete every file and folder on the flash (make wipe, after asking)."""

import os


def _rm(d):
    for e in list(os.ilistdir(d) if d else os.ilistdir()):
        p = d + "/" + e[0] if d else e[0]
        if e[1] & 0x4000:
            _rm(p)
            os.rmdir(p)
        else:
            os.remove(p)
        print("removed", p)


def wipe():
    _rm("")
    print("END")
