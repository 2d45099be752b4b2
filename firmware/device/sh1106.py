"""The SH1106 (the usual 1.3" 128x64 module), for pins.OLED_CONTROLLER = "SH1106".

Imported only when that panel is chosen: the SSD1306 path pays nothing for it.  The SH1106 has
132 columns of RAM, of which the glass shows columns 2-129, and only page addressing: no
horizontal mode and no column/page window commands (SH1106 datasheet, command table).  So each
changed window goes one page at a time: page, column (plus the 2-column offset), then its bytes.
It needs no driver file (the ssd1306 one would init it wrongly): this is its driver.
"""

from device.display import Display, FrameSender

OFFSET = 2  # RAM column of the glass's first column
# display off; clock; multiplex 64; offset 0; start line 0; DC-DC on; segment remap; COM scan
# down; COM pins; contrast; precharge; VCOM deselect; RAM shown; not inverted; display on
INIT = b"\x00\xae\xd5\x80\xa8\x3f\xd3\x00\x40\xad\x8b\xa1\xc8\xda\x12\x81\x7f\xd9\x22\xdb\x35\xa4\xa6\xaf"


class Panel:
    """The SH1106 on I2C: just what Display and PageSender use."""

    def __init__(self, i2c, addr, width, height):
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(width * height // 8)  # the last frame sent, as the ssd1306 driver's
        i2c.writeto(addr, INIT)

    def write_cmds(self, buf):
        self.i2c.writeto(self.addr, buf)

    def write_data(self, buf):
        self.i2c.writevto(self.addr, (b"\x40", buf))

    def contrast(self, v):
        self.i2c.writeto(self.addr, bytes((0, 0x81, v)))

    def poweroff(self):
        self.i2c.writeto(self.addr, b"\x00\xae")

    def poweron(self):
        self.i2c.writeto(self.addr, b"\x00\xaf")


class PageSender(FrameSender):
    """FrameSender's windows, sent page by page with the SH1106's page and column commands."""

    def send(self, drv, buf, damage=None):
        W = self.width
        bv = memoryview(buf)
        lv = self._lv
        cb = memoryview(self._cmds)[:4]  # control byte 0x00, then page and column
        sent = 0
        for p0, p1, c0, c1 in self.windows(buf, damage):
            c = c0 + OFFSET
            for p in range(p0, p1 + 1):
                cb[1] = 0xB0 | p
                cb[2] = c & 15
                cb[3] = 0x10 | (c >> 4)
                drv.write_cmds(cb)
                i = p * W + c0
                data = bv[i : i + c1 - c0 + 1]
                lv[i : i + c1 - c0 + 1] = data
                drv.write_data(data)
                sent += 7 + len(data)  # address + 4 command bytes, address + 0x40 + the bytes
        self.valid = True
        self.sent = sent
        return sent


class SH1106Display(Display):
    """Display (never raises, retries, only the changed windows) on an SH1106."""

    def _driver(self):
        return _make

    def _wire(self, drv):
        return drv, PageSender(self.width, self.height, drv.buffer)


def _make(width, height, i2c, addr):
    return Panel(i2c, addr, width, height)
