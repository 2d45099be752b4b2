"""Device entry: MicroPython runs this file by name, from source, after boot.py.

The code is in firmware/launch.py, which ships compiled like the rest of the game (no compile
at every boot).  boot.py and main.py share one global namespace: boot.py's reading of the
safe-mode button comes over in GIN_SAFE.
"""

from launch import main

if __name__ == "__main__":
    main(globals().get("GIN_SAFE"))
