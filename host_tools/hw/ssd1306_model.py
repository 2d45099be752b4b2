"""Model of an SSD1306 128x64 OLED controller, fed by I2C write transactions.

The model decodes the byte stream the way the Solomon Systech SSD1306 datasheet
(Rev 1.1, sections 8.1.5 and 10; command table 9) describes it, keeps the 1 KB
GDDRAM, and computes what the glass of a common 0.96" 128x64 module shows.

Panel wiring assumed (that of the common 128x64 modules, which need COM pins
config 0xDA 0x12): glass rows are wired alternately to the two COM pad banks,
and the panel is mounted so that the usual driver init (segment remap 0xA1 and
COM scan 0xC8) shows GDDRAM column x / row y at glass x / y. Any other setting
then flips, shifts or interlaces the glass as the real module does.

Power-on GDDRAM content is random on silicon; the model starts at zero so runs
are reproducible.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import NamedTuple

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES

MODE_HORIZONTAL = 0
MODE_VERTICAL = 1
MODE_PAGE = 2

_MAX_WARNINGS = 1000

# opcode -> (name, argument byte count) for the single-opcode commands.
_FIXED = {
    0x81: ("SET_CONTRAST", 1),
    0xA4: ("ENTIRE_ON_RESUME", 0),
    0xA5: ("ENTIRE_ON", 0),
    0xA6: ("NORMAL_DISPLAY", 0),
    0xA7: ("INVERSE_DISPLAY", 0),
    0xAE: ("DISPLAY_OFF", 0),
    0xAF: ("DISPLAY_ON", 0),
    0x20: ("SET_MEMORY_MODE", 1),
    0x21: ("SET_COLUMN_ADDRESS", 2),
    0x22: ("SET_PAGE_ADDRESS", 2),
    0xA0: ("SEG_REMAP_OFF", 0),
    0xA1: ("SEG_REMAP_ON", 0),
    0xA8: ("SET_MULTIPLEX", 1),
    0xC0: ("COM_SCAN_NORMAL", 0),
    0xC8: ("COM_SCAN_REMAPPED", 0),
    0xD3: ("SET_DISPLAY_OFFSET", 1),
    0xDA: ("SET_COM_PINS", 1),
    0xD5: ("SET_CLOCK_DIV", 1),
    0xD9: ("SET_PRECHARGE", 1),
    0xDB: ("SET_VCOMH", 1),
    0x8D: ("SET_CHARGE_PUMP", 1),
    # Internal IREF selection: absent from datasheet Rev 1.1, documented for the
    # SSD1306B; both the Adafruit and micropython-lib drivers send 0xAD 0x30.
    0xAD: ("SET_IREF_SELECT", 1),
    0x26: ("SCROLL_RIGHT_SETUP", 6),
    0x27: ("SCROLL_LEFT_SETUP", 6),
    0x29: ("SCROLL_VERTICAL_RIGHT_SETUP", 5),
    0x2A: ("SCROLL_VERTICAL_LEFT_SETUP", 5),
    0x2E: ("SCROLL_DEACTIVATE", 0),
    0x2F: ("SCROLL_ACTIVATE", 0),
    0xA3: ("SET_VERTICAL_SCROLL_AREA", 2),
    0xE3: ("NOP", 0),
}


def command_name(opcode: int) -> str:
    """Datasheet-style name of a command opcode (``UNKNOWN`` if not decoded)."""
    if opcode in _FIXED:
        return _FIXED[opcode][0]
    if opcode <= 0x0F:
        return "SET_LOWER_COLUMN"
    if opcode <= 0x1F:
        return "SET_HIGHER_COLUMN"
    if 0x40 <= opcode <= 0x7F:
        return "SET_START_LINE"
    if 0xB0 <= opcode <= 0xB7:
        return "SET_PAGE_START"
    return "UNKNOWN"


def _arg_count(opcode: int) -> int:
    entry = _FIXED.get(opcode)
    return entry[1] if entry else 0


class Command(NamedTuple):
    opcode: int
    args: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class Glass:
    """What the panel shows: 64 rows x 128 pixels, 1 = lit, plus the contrast."""

    pixels: bytes  # row-major, index y * 128 + x, values 0 or 1
    contrast: int  # 0..255, the 0x81 register; renderers dim with it
    width: int = WIDTH
    height: int = HEIGHT

    @classmethod
    def from_frame(cls, buf: bytes | bytearray | memoryview, contrast: int = 0xFF) -> Glass:
        """The glass of a correctly set-up panel showing a MONO_VLSB frame."""
        if len(buf) != FRAME_BYTES:
            raise ValueError(f"frame must be {FRAME_BYTES} bytes, got {len(buf)}")
        out = bytearray(WIDTH * HEIGHT)
        for y in range(HEIGHT):
            base = (y >> 3) * WIDTH
            shift = y & 7
            row = y * WIDTH
            for x in range(WIDTH):
                out[row + x] = (buf[base + x] >> shift) & 1
        return cls(bytes(out), contrast)

    def pixel(self, x: int, y: int) -> int:
        return self.pixels[y * self.width + x]

    def rows(self) -> list[bytes]:
        w = self.width
        return [self.pixels[y * w : (y + 1) * w] for y in range(self.height)]

    def lit_count(self) -> int:
        return sum(self.pixels)

    def to_frame(self) -> bytes:
        """The glass as a MONO_VLSB frame (byte (y//8)*128 + x, bit y%8)."""
        out = bytearray(FRAME_BYTES)
        w = self.width
        px = self.pixels
        for y in range(self.height):
            base = (y >> 3) * w
            bit = 1 << (y & 7)
            row = y * w
            for x in range(w):
                if px[row + x]:
                    out[base + x] |= bit
        return bytes(out)


class SSD1306Model:
    """An SSD1306 as an I2C target: ``i2c_write`` / ``i2c_read`` per transaction."""

    def __init__(self, *, external_vcc: bool = False, command_log: int = 4096) -> None:
        # With internal VCC the panel is driven by the charge pump; with an
        # external supply the pump being off is the normal state.
        self.external_vcc = external_vcc
        self.commands: collections.deque[Command] = collections.deque(maxlen=command_log)
        self.warnings: list[str] = []
        self.unknown_commands: list[int] = []
        self.transactions = 0
        self.data_bytes = 0
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Power-on/RES# state per the datasheet's reset values (section 8.9)."""
        self.gddram = bytearray(FRAME_BYTES)
        self.display_on = False
        self.entire_on = False
        self.inverse = False
        self.contrast = 0x7F
        self.mode = MODE_PAGE
        self.col_start, self.col_end = 0, WIDTH - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.page_mode_col_start = 0
        self.col = 0
        self.page = 0
        self.start_line = 0
        self.seg_remap = False
        self.com_remap = False
        self.mux = HEIGHT
        self.display_offset = 0
        self.com_pins = 0x12
        self.clock_div = 0x80
        self.precharge = 0x22
        self.vcomh = 0x20
        self.charge_pump = False
        self.iref = 0x00
        self.scroll_active = False
        self.scroll_setup: Command | None = None
        self.vertical_scroll_area = (0, HEIGHT)
        self._pending: list[int] | None = None
        self._pending_left = 0
        self._scroll_write_warned = False

    def warn(self, message: str) -> None:
        if len(self.warnings) < _MAX_WARNINGS:
            self.warnings.append(message)

    # ---------------------------------------------------------------- I2C side
    def i2c_write(self, data: bytes) -> None:
        """One I2C write transaction (bytes after the slave address)."""
        self.transactions += 1
        n = len(data)
        i = 0
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                self.warn(f"control byte 0x{ctrl:02X} has non-zero low bits")
            is_data = bool(ctrl & 0x40)
            if ctrl & 0x80:
                # Co=1: exactly one byte, then another control byte.
                if i >= n:
                    self.warn(f"control byte 0x{ctrl:02X} ends the transaction")
                    return
                self._feed(is_data, data[i : i + 1])
                i += 1
            else:
                # Co=0: everything up to STOP is data (or commands).
                self._feed(is_data, data[i:])
                return

    def i2c_read(self, nbytes: int) -> bytes:
        """Status byte reads: D6 = 1 while the display is off."""
        status = 0x00 if self.display_on else 0x40
        return bytes([status]) * nbytes

    def _feed(self, is_data: bool, chunk: bytes) -> None:
        if is_data:
            self.write_data(chunk)
        else:
            for b in chunk:
                self.write_command_byte(b)

    # ------------------------------------------------------------------ GDDRAM
    def write_data(self, chunk: bytes) -> None:
        if self.scroll_active and chunk and not self._scroll_write_warned:
            # Datasheet 10.2.1: RAM access while scrolling may corrupt data.
            self.warn("GDDRAM written while scrolling is active")
            self._scroll_write_warned = True
        ram = self.gddram
        for b in chunk:
            ram[self.page * WIDTH + self.col] = b
            self._advance()
        self.data_bytes += len(chunk)

    def _advance(self) -> None:
        if self.mode == MODE_HORIZONTAL:
            if self.col == self.col_end:
                self.col = self.col_start
                self.page = self._next_page()
            else:
                self.col = (self.col + 1) & 0x7F
        elif self.mode == MODE_VERTICAL:
            if self.page == self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col == self.col_end else (self.col + 1) & 0x7F
            else:
                self.page = (self.page + 1) & 0x07
        else:
            # Page mode (datasheet 10.1.3): wrap to the column start, page unchanged.
            if self.col == WIDTH - 1:
                self.col = self.page_mode_col_start
            else:
                self.col += 1

    def _next_page(self) -> int:
        if self.page == self.page_end:
            return self.page_start
        return (self.page + 1) & 0x07

    # ---------------------------------------------------------------- commands
    def write_command_byte(self, b: int) -> None:
        if self._pending is not None:
            self._pending.append(b)
            self._pending_left -= 1
            if self._pending_left == 0:
                opcode, *args = self._pending
                self._pending = None
                self._execute(opcode, tuple(args))
            return
        nargs = _arg_count(b)
        if nargs:
            self._pending = [b]
            self._pending_left = nargs
        else:
            self._execute(b, ())

    @property
    def pending_command(self) -> tuple[int, ...] | None:
        """Opcode and arguments received so far of an unfinished command."""
        return tuple(self._pending) if self._pending is not None else None

    def _execute(self, op: int, args: tuple[int, ...]) -> None:
        name = command_name(op)
        self.commands.append(Command(op, args, name))
        if name == "UNKNOWN":
            self.unknown_commands.append(op)
            self.warn(f"unknown command 0x{op:02X}")
            return
        handler = getattr(self, "_cmd_" + name.lower())
        handler(op, args)

    def _cmd_set_contrast(self, op: int, a: tuple[int, ...]) -> None:
        self.contrast = a[0]

    def _cmd_entire_on_resume(self, op: int, a: tuple[int, ...]) -> None:
        self.entire_on = False

    def _cmd_entire_on(self, op: int, a: tuple[int, ...]) -> None:
        self.entire_on = True

    def _cmd_normal_display(self, op: int, a: tuple[int, ...]) -> None:
        self.inverse = False

    def _cmd_inverse_display(self, op: int, a: tuple[int, ...]) -> None:
        self.inverse = True

    def _cmd_display_off(self, op: int, a: tuple[int, ...]) -> None:
        self.display_on = False

    def _cmd_display_on(self, op: int, a: tuple[int, ...]) -> None:
        self.display_on = True

    def _cmd_set_memory_mode(self, op: int, a: tuple[int, ...]) -> None:
        mode = a[0] & 0x03
        if mode == 0x03:
            self.warn("memory addressing mode 0b11 is invalid; ignored")
            return
        self.mode = mode

    def _cmd_set_column_address(self, op: int, a: tuple[int, ...]) -> None:
        self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
        self.col = self.col_start

    def _cmd_set_page_address(self, op: int, a: tuple[int, ...]) -> None:
        self.page_start, self.page_end = a[0] & 0x07, a[1] & 0x07
        self.page = self.page_start

    # The page-mode pointer commands are defined for page mode only; they act
    # on the shared address counters in every mode, which is why Adafruit's
    # page_addressing option (it sends 0x20 0x10, i.e. horizontal) still works.
    def _cmd_set_lower_column(self, op: int, a: tuple[int, ...]) -> None:
        self.page_mode_col_start = (self.page_mode_col_start & 0x70) | (op & 0x0F)
        self.col = self.page_mode_col_start

    def _cmd_set_higher_column(self, op: int, a: tuple[int, ...]) -> None:
        self.page_mode_col_start = ((op & 0x07) << 4) | (self.page_mode_col_start & 0x0F)
        self.col = self.page_mode_col_start

    def _cmd_set_page_start(self, op: int, a: tuple[int, ...]) -> None:
        self.page = op & 0x07

    def _cmd_set_start_line(self, op: int, a: tuple[int, ...]) -> None:
        self.start_line = op & 0x3F

    def _cmd_seg_remap_off(self, op: int, a: tuple[int, ...]) -> None:
        self.seg_remap = False

    def _cmd_seg_remap_on(self, op: int, a: tuple[int, ...]) -> None:
        self.seg_remap = True

    def _cmd_set_multiplex(self, op: int, a: tuple[int, ...]) -> None:
        value = a[0] & 0x3F
        if value < 15:
            self.warn(f"multiplex ratio {value + 1} is invalid (16..64); ignored")
            return
        self.mux = value + 1

    def _cmd_com_scan_normal(self, op: int, a: tuple[int, ...]) -> None:
        self.com_remap = False

    def _cmd_com_scan_remapped(self, op: int, a: tuple[int, ...]) -> None:
        self.com_remap = True

    def _cmd_set_display_offset(self, op: int, a: tuple[int, ...]) -> None:
        self.display_offset = a[0] & 0x3F

    def _cmd_set_com_pins(self, op: int, a: tuple[int, ...]) -> None:
        self.com_pins = a[0] & 0x32

    def _cmd_set_clock_div(self, op: int, a: tuple[int, ...]) -> None:
        self.clock_div = a[0]

    def _cmd_set_precharge(self, op: int, a: tuple[int, ...]) -> None:
        self.precharge = a[0]

    def _cmd_set_vcomh(self, op: int, a: tuple[int, ...]) -> None:
        self.vcomh = a[0]

    def _cmd_set_charge_pump(self, op: int, a: tuple[int, ...]) -> None:
        self.charge_pump = bool(a[0] & 0x04)

    def _cmd_set_iref_select(self, op: int, a: tuple[int, ...]) -> None:
        self.iref = a[0]

    def _scroll_setup(self, op: int, a: tuple[int, ...]) -> None:
        if self.scroll_active:
            # Datasheet 10.2.1: 0x2E must precede a new scroll setup.
            self.warn(f"scroll setup 0x{op:02X} while scrolling is active")
        self.scroll_setup = Command(op, a, command_name(op))

    _cmd_scroll_right_setup = _scroll_setup
    _cmd_scroll_left_setup = _scroll_setup
    _cmd_scroll_vertical_right_setup = _scroll_setup
    _cmd_scroll_vertical_left_setup = _scroll_setup

    def _cmd_scroll_deactivate(self, op: int, a: tuple[int, ...]) -> None:
        self.scroll_active = False

    def _cmd_scroll_activate(self, op: int, a: tuple[int, ...]) -> None:
        if self.scroll_setup is None:
            self.warn("scroll activated without a scroll setup command")
        else:
            self.warn("scroll activated: the model shows the glass unscrolled")
        self.scroll_active = True
        self._scroll_write_warned = False

    def _cmd_set_vertical_scroll_area(self, op: int, a: tuple[int, ...]) -> None:
        self.vertical_scroll_area = (a[0] & 0x3F, a[1] & 0x7F)

    def _cmd_nop(self, op: int, a: tuple[int, ...]) -> None:
        pass

    # ------------------------------------------------------------------ glass
    @property
    def lit(self) -> bool:
        """True when the panel emits light at all (on, and powered)."""
        powered = self.external_vcc or self.charge_pump
        return self.display_on and powered

    def ram_pixel(self, col: int, row: int) -> int:
        return (self.gddram[(row >> 3) * WIDTH + col] >> (row & 7)) & 1

    def glass_row_sources(self) -> list[int | None]:
        """For each glass row (top to bottom), the GDDRAM row it shows, or None."""
        sources: list[int | None] = [None] * HEIGHT
        alternative = bool(self.com_pins & 0x10)
        lr_remap = bool(self.com_pins & 0x20)
        for r in range(self.mux):
            ram_row = (r + self.start_line) % HEIGHT
            com = (r - self.display_offset) % HEIGHT
            if self.com_remap:
                com = (self.mux - 1 - com) % HEIGHT
            if alternative:
                pad = com >> 1 if com % 2 == 0 else 32 + (com >> 1)
            else:
                pad = com
            if lr_remap:
                pad ^= 32
            # Panel wiring: pads 0..31 drive every other row, 32..63 the rest;
            # the panel is mounted upside down relative to COM0.
            wired = 2 * pad if pad < 32 else 2 * (pad - 32) + 1
            sources[HEIGHT - 1 - wired] = ram_row
        return sources

    def glass(self) -> Glass:
        out = bytearray(WIDTH * HEIGHT)
        if self.lit:
            # SEG0 sits at the right edge of the glass (see module docstring).
            cols = range(WIDTH) if self.seg_remap else range(WIDTH - 1, -1, -1)
            ram = self.gddram
            for y, src in enumerate(self.glass_row_sources()):
                if src is None:
                    continue
                row = y * WIDTH
                if self.entire_on:
                    out[row : row + WIDTH] = b"\x01" * WIDTH
                    continue
                base = (src >> 3) * WIDTH
                shift = src & 7
                flip = 1 if self.inverse else 0
                for x, col in enumerate(cols):
                    out[row + x] = ((ram[base + col] >> shift) & 1) ^ flip
        return Glass(bytes(out), self.contrast)
