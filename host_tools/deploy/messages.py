"""Every line a board command prints when something stands in the way, in one place.

Each says what happened and what to do; hardware/README.md ("When a command stops") explains them
and tests/test_deploy_board.py provokes each one.  No traceback, no board-side script: a command
that stops prints one of these to stderr and exits with status 1.
"""

NO_PICO = "no Pico found: plug it in, or name the port: PORT=/dev/ttyACM0 (Windows: PORT=COM5)"
BOOTSEL = (
    "a Pico is plugged in in BOOTSEL mode (the RPI-RP2 drive): it has no MicroPython yet; copy the "
    "MicroPython .uf2 onto that drive (hardware/README.md, Flashing), then retry"
)
NO_SUCH_PORT = "no port {port}: nothing is plugged in there (python -m mpremote devs lists the ports)"
BUSY = (
    "{port} is in use by another program (a serial terminal, Thonny, another mpremote or make repl): "
    "close it and retry"
)
NO_PERMISSION = (
    "no permission to open {port}: add yourself to the dialout group "
    "(sudo usermod -aG dialout $USER, then log in again)"
)
NOT_MICROPYTHON = (
    "the board at {port} does not answer like MicroPython: flash MicroPython onto it "
    "(hardware/README.md, Flashing); if it runs MicroPython, unplug it and plug it in again"
)
OLD_MICROPYTHON = (
    "the Pico runs MicroPython {version}, which cannot load the game's .mpy files (version {need}: "
    "MicroPython {first} or newer): flash the current MicroPython (hardware/README.md, Flashing)"
)
FLASH_FULL = (
    "the Pico's flash is full: the game needs {need} KiB more and {free} KiB are free; "
    "delete files you don't need (make wipe deletes everything, saves too), then retry"
)
FLASH_FULL_DURING = (
    "the Pico's flash filled up while copying: the game on it is incomplete; delete files you don't "
    "need (make wipe deletes everything, saves too), then make deploy again"
)
NO_DRIVER = (
    "the display driver ssd1306 is not on the Pico and the package index ({index}) cannot be "
    "reached{why}; nothing was changed on the board. Ways out: be online, or MIP_INDEX=URL "
    "(another package index), or make deploy DRIVER=path/to/ssd1306.py (a driver file you have)"
)
NO_DRIVER_OFFLINE = (
    "the display driver ssd1306 is not on the Pico and NO_MIP=1 keeps deploy off the package index; "
    "nothing was changed on the board. Ways out: drop NO_MIP=1 and be online, or MIP_INDEX=URL, or "
    "make deploy DRIVER=path/to/ssd1306.py (a driver file you have)"
)
DRIVER_FILE = "DRIVER={path}: {why}"
WAITING = "waiting for the Pico to restart…"
WAITED = "the Pico was restarting: waited {seconds:.1f} s for it"
NO_RETURN = (
    "the Pico did not come back within {seconds} s after its restart: unplug it, plug it in again, "
    "and retry (safe mode: hold MENU while plugging in)"
)
LOST = "the Pico went away during the command (unplugged, or restarted): plug it in and retry"
BOARD_SAID = "the board stopped the command: {line}"
