"""Facts about the target: the stock rp2 MicroPython firmware on a Raspberry Pi Pico.

The one list of the modules that firmware provides: deploy's import closure refuses anything
else, and tests/test_portability.py checks every firmware file against the same list.
"""

# Built into the stock RPI_PICO firmware (ports/rp2 with MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES
# and its manifest), as `help("modules")` lists them on MicroPython 1.27.
RP2_MODULES = frozenset(
    """
    _thread array asyncio binascii builtins cmath collections deflate errno framebuf gc hashlib heapq io
    json machine math micropython os platform random re rp2 select struct sys time uctypes vfs
    """.split()
)
# MicroPython's collections has only these.
COLLECTIONS_NAMES = frozenset({"deque", "namedtuple", "OrderedDict"})

# The display driver: micropython-lib's SSD1306 driver, not part of the firmware.  deploy puts it in
# /lib (mpremote mip install ssd1306, or a file given with DRIVER=).
DRIVER = "ssd1306"
DRIVER_DIR = "lib"
DEFAULT_INDEX = "https://micropython.org/pi/v2"  # mip's package index (mpremote's default)

# Everything a firmware module may import on the board.
DEVICE_MODULES = RP2_MODULES | {DRIVER}

# .mpy files: version 6 is what MicroPython 1.19 and newer load (mpy-cross 1.29 writes 6.3; the
# sub-version only matters for native code, which we do not emit).
MPY_VERSION = 6
MPY_FIRST_RELEASE = "1.19"

# A Pico's littlefs: 4 KiB blocks; an RP2040 Pico has 1408 KiB of them.
BLOCK = 4096
PICO_FS_BYTES = 1408 * 1024
# gc.mem_free() on a freshly booted RPI_PICO 1.27 board at its REPL, measured (issue 16): ~229 KB.
PICO_HEAP_FREE = 229 * 1000

# USB ids: MicroPython on a Pico (RP2040 and RP2350) enumerates as 2e8a:0005; a Pico held in
# BOOTSEL (no MicroPython yet, the RPI-RP2 drive) as 2e8a:0003 (RP2040) or 2e8a:000f (RP2350).
PICO_USB_VID = 0x2E8A
PICO_MICROPYTHON_PID = 0x0005
PICO_BOOTSEL_PIDS = (0x0003, 0x000F)
