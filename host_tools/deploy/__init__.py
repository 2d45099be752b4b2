"""Putting the game on a Pico: import closure, compiling, the board link, and the make targets.

    python -m host_tools.deploy files                 # what goes on the board, and why
    python -m host_tools.deploy deploy [--port P]     # driver first, then what changed, restart
    python -m host_tools.deploy play [--port P]       # deploy, wait for the restart, attach
    python -m host_tools.deploy size [--port P]       # flash and RAM report
    python -m host_tools.deploy mount|repl|reset|logs|wipe|check [--port P]
    python -m host_tools.deploy package-json [--check]

closure.py finds the files (the import closure of boot.py and main.py), compile.py builds them
(.mpy with mpy-cross), board.py talks to the board (ports, restarts, mpremote, plain messages),
commands.py and size.py are the commands, rp2.py holds the facts about the target, and onboard/
holds the programs that run on the board.  ``--port`` takes anything ``mpremote connect`` takes:
/dev/ttyACM0, COM5, id:SERIAL, rfc2217://localhost:4000 (the Wokwi simulator),
socket://127.0.0.1:PORT (host_tools/micropython/fake_board.py).  Without it, the first Pico plugged in.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_BUILD = ROOT / "build" / "mpy"
CRASH_LOG = "crash.log"  # device/storage.py LOG_FILE
RESET_FLAG = "reset.flag"  # device/pico.py RESET_FLAG: the coming reset is wanted, not a hang


class DeployError(Exception):
    """A command cannot go on; the text is one plain line (or a short list) for the user."""
