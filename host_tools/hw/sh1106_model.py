"""Model of an SH1106 132x64 OLED controller on a 128x64 glass, fed by I2C write transactions.

Decoded the way the Sino Wealth SH1106 datasheet (V2.3, the command table) describes it: the
same control bytes as the SSD1306, 8 pages of 132 columns, and only page addressing (set page
0xB0-0xB7, column low 0x00-0x0F and high 0x10-0x1F); a data byte goes to the current column,
which then moves on by one (it stops at the last column), the page never changes by itself.
The SSD1306's horizontal mode and window commands (0x20, 0x21, 0x22) and its charge pump (0x8D)
are not SH1106 commands: they are logged as unknown, and their argument bytes, taken as
commands, do what those opcodes do (why an SSD1306 driver garbles this panel).

The 1.3" modules wire glass column x to RAM column x + 2 (with segment remap 0xA1 and COM scan
0xC8, as the usual init sends): the 2-column offset.  Power-on RAM is random on silicon; the
model starts at zero.
"""

from __future__ import annotations

from host_tools.hw.ssd1306_model import HEIGHT, PAGES, WIDTH, Glass

RAM_COLS = 132
OFFSET = 2
_MAX_WARNINGS = 1000

# opcode -> argument bytes, for the SH1106's commands that take one
_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SINGLE = {
    0xA0,
    0xA1,
    0xA4,
    0xA5,
    0xA6,
    0xA7,
    0xAE,
    0xAF,
    0xC0,
    0xC8,
    0xE0,
    0xE3,
    0xEE,
    0x30,
    0x31,
    0x32,
    0x33,
}


class SH1106Model:
    """An SH1106 as an I2C target: ``i2c_write`` / ``i2c_read`` per transaction."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.unknown_commands: list[int] = []
        self.reset()

    def reset(self) -> None:
        self.ram = bytearray(RAM_COLS * PAGES)
        self.display_on = False
        self.contrast = 0x80
        self.page = 0
        self.col = 0
        self.seg_remap = False
        self.com_remap = False
        self.start_line = 0
        self.inverse = False
        self.entire_on = False
        self.dc_dc = False
        self._pending: list[int] | None = None

    def warn(self, message: str) -> None:
        if len(self.warnings) < _MAX_WARNINGS:
            self.warnings.append(message)

    def i2c_write(self, data: bytes) -> None:
        n, i = len(data), 0
        while i < n:
            ctrl = data[i]
            i += 1
            is_data = bool(ctrl & 0x40)
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                if i < n:
                    self._feed(is_data, data[i : i + 1])
                i += 1
            else:
                self._feed(is_data, data[i:])
                return

    def i2c_read(self, nbytes: int) -> bytes:
        return bytes([0x00 if self.display_on else 0x40]) * nbytes

    def _feed(self, is_data: bool, chunk: bytes) -> None:
        if is_data:
            for b in chunk:
                if self.col < RAM_COLS:
                    self.ram[self.page * RAM_COLS + self.col] = b
                    self.col += 1
                else:
                    self.warn("data past the last column")
            return
        for b in chunk:
            self._command(b)

    def _command(self, b: int) -> None:
        if self._pending is not None:
            op = self._pending[0]
            self._pending = None
            self._execute(op, b)
            return
        if b in _ARGS:
            self._pending = [b]
        elif b <= 0x0F:
            self.col = (self.col & 0xF0) | b
        elif b <= 0x1F:
            self.col = ((b & 0x0F) << 4) | (self.col & 0x0F)
        elif 0x40 <= b <= 0x7F:
            self.start_line = b & 0x3F
        elif 0xB0 <= b <= 0xB7:
            self.page = b & 0x07
        elif b in _SINGLE:
            self._execute(b, None)
        else:
            self.unknown_commands.append(b)
            self.warn(f"unknown command 0x{b:02X}")

    def _execute(self, op: int, arg: int | None) -> None:
        if op == 0x81:
            self.contrast = arg
        elif op == 0xAD:
            self.dc_dc = bool(arg & 1)
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xC0, 0xC8):
            self.com_remap = op == 0xC8
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5

    def glass(self) -> Glass:
        """What the 128x64 glass shows (all dark while the display is off)."""
        out = bytearray(WIDTH * HEIGHT)
        if self.display_on:
            for y in range(HEIGHT):
                ry = (y if self.com_remap else HEIGHT - 1 - y) + self.start_line
                ry %= HEIGHT
                base = (ry >> 3) * RAM_COLS
                bit = ry & 7
                for x in range(WIDTH):
                    col = x + OFFSET if self.seg_remap else RAM_COLS - 1 - OFFSET - x
                    v = (self.ram[base + col] >> bit) & 1
                    if self.entire_on:
                        v = 1
                    out[y * WIDTH + x] = v ^ self.inverse
        return Glass(bytes(out), self.contrast)
