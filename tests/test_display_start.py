"""The SSD1306 starts dark (issue 21: boot -> title): no clearing frame, display-on after our first.

micropython-lib's driver clears the panel in its init (a whole 1 KB frame: 26 ms of I2C at
400 kHz, before the title) and turns the display on before that.  device/display.py's driver
leaves the clearing frame out (the first frame FrameSender sends is whole anyway) and holds the
display-on back until that first frame is in the panel's RAM, so the glass never shows the RAM's
power-on noise.  The driver here restates micropython-lib's bus traffic (tests/test_ssd1306_model.py
holds the same restatement against its source).
"""

import sys
import types

import pytest

DISPLAY_ON = 0xAF


class Bus:
    def __init__(self):
        self.writes = []

    def scan(self):
        return [0x3C]

    def writeto(self, addr, buf):
        self.writes.append(bytes(buf))

    def writevto(self, addr, bufs):
        self.writes.append(b"".join(bytes(b) for b in bufs))


class SSD1306_I2C:
    """micropython-lib's ssd1306.SSD1306_I2C as far as the bus sees it."""

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        self.init_display()

    def init_display(self):
        for cmd in (
            0xAE,
            0x20,
            0x00,
            0x40,
            0xA1,
            0xA8,
            63,
            0xC8,
            0xD3,
            0,
            0xDA,
            0x12,
            0x81,
            0xFF,
            DISPLAY_ON,
        ):
            self.write_cmd(cmd)
        self.buffer[:] = bytes(len(self.buffer))
        self.show()

    def write_cmd(self, cmd):
        self.i2c.writeto(self.addr, bytes((0x80, cmd)))

    def write_data(self, buf):
        self.i2c.writevto(self.addr, [b"\x40", buf])

    def show(self):
        for cmd in (0x21, 0, 127, 0x22, 0, 7):
            self.write_cmd(cmd)
        self.write_data(self.buffer)

    def contrast(self, v):
        self.write_cmd(0x81)
        self.write_cmd(v)

    def poweroff(self):
        self.write_cmd(0xAE)

    def poweron(self):
        self.write_cmd(DISPLAY_ON)


@pytest.fixture
def display(monkeypatch):
    mod = types.ModuleType("ssd1306")
    mod.SSD1306_I2C = SSD1306_I2C
    monkeypatch.setitem(sys.modules, "ssd1306", mod)
    import time

    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)  # MicroPython's clock
    from device.display import Display

    bus = Bus()
    return Display(bus, (0x3C, 0x3D)), bus


def test_the_panel_stays_dark_and_unwritten_until_the_first_frame(display):
    d, bus = display
    assert d.present
    assert bytes((0x80, DISPLAY_ON)) not in bus.writes, "display-on waits for the first frame"
    assert all(len(w) <= 3 for w in bus.writes), "no clearing frame at start"
    frame = bytes(range(256)) * 4
    n = len(bus.writes)
    assert d.show(bytearray(frame))
    sent = bus.writes[n:]
    data = [i for i, w in enumerate(sent) if w == b"\x40" + frame]
    on = [i for i, w in enumerate(sent) if w == bytes((0x80, DISPLAY_ON))]
    assert data and on == [len(sent) - 1] and data[0] < on[0], "the frame first, then display-on"
    n = len(bus.writes)
    frame2 = bytearray(frame)
    frame2[5] ^= 1
    assert d.show(frame2)
    assert bytes((0x80, DISPLAY_ON)) not in bus.writes[n:], "display-on once"


def test_a_display_switched_off_before_the_first_frame_stays_off(display):
    d, bus = display
    d.power(False)
    assert d.show(bytearray(1024))
    assert bytes((0x80, DISPLAY_ON)) not in bus.writes
    d.power(True)
    assert bus.writes[-1] == bytes((0x80, DISPLAY_ON))
