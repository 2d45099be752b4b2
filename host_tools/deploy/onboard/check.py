"""On the board: import every module the game needs, from the flash; say where each came from."""

import sys


def check(modules):
    for m in modules:
        try:
            __import__(m)
            print("OK", m, getattr(sys.modules[m], "__file__", "(built in)"))
        except Exception as e:
            print("FAIL", m, repr(e))
    print("END")
