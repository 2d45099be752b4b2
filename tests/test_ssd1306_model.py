"""SSD1306 model, emulated I2C bus and HostDisplay against real drivers and the datasheet."""

import errno
import random
from pathlib import Path

import adafruit_ssd1306
import pytest

from host_tools.hw.host_display import HostDisplay
from host_tools.hw.i2c_bus import I2CBus, bus_with_ssd1306
from host_tools.hw.oled_view import glass_to_text_art
from host_tools.hw.ssd1306_model import FRAME_BYTES, Glass, SSD1306Model, command_name

FIXTURES = Path(__file__).parent / "fixtures" / "ssd1306"

# Source: micropython-lib, micropython/drivers/display/ssd1306/ssd1306.py at commit
# 2fcfb294f69ef97d8eb2cb463b69a1a73bacee19
# (https://github.com/micropython/micropython-lib/blob/2fcfb294f69ef97d8eb2cb463b69a1a73bacee19/micropython/drivers/display/ssd1306/ssd1306.py):
# SSD1306.init_display() for width=128, height=64, external_vcc=False, each byte
# sent by SSD1306_I2C.write_cmd as its own [0x80, cmd] write. That version sends
# SET_IREF_SELECT 0xAD 0x30 before the charge pump; older ones (see
# micropython-lib issue #1025) lacked it and were otherwise the same.
# The class below was checked once against that file run on this bus: identical
# traffic for 128x64, 128x32, 64x48 and 72x40, internal and external VCC.
MPLIB_INIT_128X64 = (
    0xAE,
    0x20, 0x00,
    0x40,
    0xA1,
    0xA8, 63,
    0xC8,
    0xD3, 0x00,
    0xDA, 0x12,
    0xD5, 0x80,
    0xD9, 0xF1,
    0xDB, 0x30,
    0x81, 0xFF,
    0xA4,
    0xA6,
    0xAD, 0x30,
    0x8D, 0x14,
    0xAF,
)  # fmt: skip
MPLIB_SHOW_128X64 = (0x21, 0, 127, 0x22, 0, 7)


class MicroPythonLibSSD1306I2C:
    """Re-statement of micropython-lib's SSD1306_I2C bus traffic (same source and
    commit as above): write_cmd() is machine.I2C.writeto(addr, [0x80, cmd]),
    write_data() is writevto(addr, [b"\\x40", buffer]); init_display() ends with
    fill(0) and show(). Drawing primitives (framebuf) are left out: tests write
    ``buffer`` directly."""

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width, self.height, self.pages = width, height, height // 8
        self.i2c, self.addr, self.external_vcc = i2c, addr, external_vcc
        self.buffer = bytearray(self.pages * width)
        self.init_display()

    def init_display(self):
        for cmd in (
            0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, self.height - 1, 0xC8, 0xD3, 0x00,
            0xDA, 0x02 if self.width > 2 * self.height else 0x12,
            0xD5, 0x80, 0xD9, 0x22 if self.external_vcc else 0xF1, 0xDB, 0x30,
            0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x10 if self.external_vcc else 0x14, 0xAF,
        ):  # fmt: skip
            self.write_cmd(cmd)
        self.buffer[:] = bytes(len(self.buffer))
        self.show()

    def poweroff(self):
        self.write_cmd(0xAE)

    def poweron(self):
        self.write_cmd(0xAF)

    def contrast(self, contrast):
        self.write_cmd(0x81)
        self.write_cmd(contrast)

    def invert(self, invert):
        self.write_cmd(0xA6 | (invert & 1))

    def rotate(self, rotate):
        self.write_cmd(0xC0 | ((rotate & 1) << 3))
        self.write_cmd(0xA0 | (rotate & 1))

    def show(self):
        x0 = (128 - self.width) // 2
        for cmd in (0x21, x0, x0 + self.width - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(cmd)
        self.write_data(self.buffer)

    def write_cmd(self, cmd):
        self.i2c.writeto(self.addr, bytearray([0x80, cmd]))

    def write_data(self, buf):
        self.i2c.writevto(self.addr, [b"\x40", buf])


# ----------------------------------------------------------------- helpers
def cmds(model, *opcodes):
    model.i2c_write(bytes([0x00, *opcodes]))


def data(model, payload):
    model.i2c_write(b"\x40" + bytes(payload))


def standard_model(**kwargs):
    model = SSD1306Model(**kwargs)
    cmds(model, *MPLIB_INIT_128X64)
    return model


def frame_with(pixels):
    buf = bytearray(FRAME_BYTES)
    for x, y in pixels:
        buf[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(buf)


def lit_pixels(glass):
    return {(x, y) for y in range(64) for x in range(128) if glass.pixel(x, y)}


def lit_rows(glass):
    return [y for y in range(64) if glass.pixel(0, y)]


def random_frame(rng):
    return bytes(rng.getrandbits(8) for _ in range(FRAME_BYTES))


def ram_row_frame(rows):
    """A frame with whole GDDRAM rows lit."""
    return frame_with((x, y) for y in rows for x in range(128))


def load_frame(model, frame):
    cmds(model, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7)
    data(model, frame)


# ------------------------------------------------------- Adafruit driver
def test_adafruit_init_sequence_decodes_without_warnings():
    display = HostDisplay()
    model = display.model
    assert model.warnings == []
    assert model.unknown_commands == []
    decoded = [(c.opcode, *c.args) for c in model.commands]
    # poweron() sends 0xAF first, then init_display() mirrors micropython-lib's
    # sequence, then show() sets the full column/page window.
    flat = [b for cmd in decoded for b in cmd]
    assert flat == [0xAF, *MPLIB_INIT_128X64, *MPLIB_SHOW_128X64]
    assert model.display_on and model.charge_pump and model.seg_remap and model.com_remap
    assert model.mode == 0 and model.contrast == 0xFF and model.iref == 0x30
    assert model.glass().lit_count() == 0


def test_adafruit_traffic_on_the_bus():
    display = HostDisplay()
    bus = display.bus
    bus.clear_log()
    frame = frame_with([(5, 9)])
    display.show_frame(frame)
    writes = bus.writes_to(0x3C)
    # the window's six commands in one write (control byte 0x00: a command stream), then the data
    assert writes[0] == bytes([0x00, *MPLIB_SHOW_128X64])
    assert len(writes) == 2
    assert writes[1] == b"\x40" + frame
    assert display.model.warnings == [] and display.glass().pixels == Glass.from_frame(frame).pixels


EXPECTED_SHAPES = (
    {(x, y) for x in range(10, 30) for y in range(5, 13)}  # fill_rect(10, 5, 20, 8)
    | {(x, y) for x in range(40, 70) for y in (20, 34)}  # rect(40, 20, 30, 15) outline
    | {(x, y) for x in (40, 69) for y in range(20, 35)}
    | {(x, 63) for x in range(128)}  # hline(0, 63, 128)
    | {(127, y) for y in range(64)}  # vline(127, 0, 64)
    | {(80 + i, 30 + i) for i in range(21)}  # line(80, 30, 100, 50): 45 degrees
    | {(0, 0), (64, 40)}
)


def test_adafruit_drawing_lands_on_the_right_glass_pixels():
    display = HostDisplay()
    drv = display.driver
    drv.fill_rect(10, 5, 20, 8, 1)
    drv.rect(40, 20, 30, 15, 1)
    drv.hline(0, 63, 128, 1)
    drv.vline(127, 0, 64, 1)
    drv.line(80, 30, 100, 50, 1)
    drv.pixel(0, 0, 1)
    drv.pixel(64, 40, 1)
    drv.show()
    glass = display.glass()
    assert lit_pixels(glass) == EXPECTED_SHAPES
    assert glass_to_text_art(glass) == (FIXTURES / "adafruit_shapes.txt").read_text()
    assert display.warnings == []


def test_show_frame_round_trip_is_bit_exact():
    display = HostDisplay()
    rng = random.Random(0x5EED)
    for _ in range(12):
        frame = random_frame(rng)
        display.show_frame(frame)
        assert display.glass().to_frame() == frame
        assert Glass.from_frame(frame) == display.glass()
    assert display.warnings == []


def test_show_frame_rejects_wrong_size():
    with pytest.raises(ValueError):
        HostDisplay().show_frame(bytes(1023))


def test_passthroughs_change_the_glass():
    display = HostDisplay()
    frame = frame_with([(3, 4)])
    display.show_frame(frame)
    display.contrast(0x10)
    assert display.glass().contrast == 0x10
    display.invert(True)
    assert display.glass().lit_count() == 128 * 64 - 1
    assert display.glass().pixel(3, 4) == 0
    display.invert(False)
    display.poweroff()
    assert display.glass().lit_count() == 0
    display.poweron()
    assert lit_pixels(display.glass()) == {(3, 4)}
    display.rotate(False)  # Adafruit: C0 + A0, the panel turned by 180 degrees
    display.show_frame(frame)
    assert lit_pixels(display.glass()) == {(124, 59)}


def test_adafruit_probe_of_missing_device_fails_like_hardware():
    bus = I2CBus()
    with pytest.raises(ValueError, match="No I2C device"):
        adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=0x3D)
    # The probe tried an empty write, then a one-byte read, both NACKed.
    assert [(t.addr, t.kind, t.acked) for t in bus.transactions] == [
        (0x3D, "write", False),
        (0x3D, "read", False),
    ]
    assert not bus.locked


# ------------------------------------------------------------------ the bus
def test_bus_nack_raises_oserror_with_configured_errno():
    with pytest.raises(OSError) as info:
        I2CBus().writeto(0x3C, b"\x00\xaf")
    assert info.value.errno == errno.EIO
    with pytest.raises(OSError) as info:
        I2CBus(nack_errno=errno.ENODEV).writevto(0x3C, [b"\x40", b"\x01"])
    assert info.value.errno == errno.ENODEV


def test_bus_busio_and_machine_conventions():
    model = SSD1306Model()
    bus = bus_with_ssd1306(model)
    assert bus.scan() == [0x3C]
    assert bus.try_lock() and not bus.try_lock()
    bus.unlock()
    assert bus.try_lock()
    bus.unlock()
    # busio slice arguments select the bytes sent.
    bus.writeto(0x3C, b"junk\x80\xaf", start=4)
    assert model.display_on
    assert bus.writeto(0x3C, bytearray([0x80, 0xAE])) == 2  # machine.I2C: ACK count
    status = bytearray(3)
    bus.readfrom_into(0x3C, status, start=1, end=2)
    assert status == b"\x00\x40\x00"  # D6 set: display off
    bus.writeto_mem(0x3C, 0x80, b"\xaf")
    assert bus.readfrom(0x3C, 1) == b"\x00"
    inbuf = bytearray(1)
    bus.writeto_then_readfrom(0x3C, b"\x80\xae", inbuf)
    assert inbuf == b"\x40"
    assert [t.kind for t in bus.transactions] == [
        "write",
        "write",
        "read",
        "write",
        "read",
        "write",
        "read",
    ]


def test_bus_log_limit_bounds_memory():
    bus = bus_with_ssd1306(SSD1306Model(), log_limit=3)
    for _ in range(10):
        bus.writeto(0x3C, b"\x80\xe3")
    assert len(bus.transactions) == 3


# ------------------------------------------------------ micropython-lib driver
def test_micropython_lib_driver_sequence_and_frames():
    model = SSD1306Model()
    bus = bus_with_ssd1306(model)
    oled = MicroPythonLibSSD1306I2C(128, 64, bus)
    writes = bus.writes_to(0x3C)
    n_cmd = len(MPLIB_INIT_128X64) + len(MPLIB_SHOW_128X64)
    assert writes[:n_cmd] == [bytes([0x80, b]) for b in MPLIB_INIT_128X64 + MPLIB_SHOW_128X64]
    assert writes[n_cmd] == b"\x40" + bytes(FRAME_BYTES)
    assert len(writes) == n_cmd + 1
    assert model.warnings == []

    rng = random.Random(7)
    for _ in range(4):
        oled.buffer[:] = random_frame(rng)
        oled.show()
        assert model.glass().to_frame() == bytes(oled.buffer)
    oled.rotate(0)
    oled.show()
    flipped = model.glass()
    src = Glass.from_frame(bytes(oled.buffer))
    assert all(flipped.pixel(x, y) == src.pixel(127 - x, 63 - y) for y in range(64) for x in range(128))
    oled.poweroff()
    assert model.glass().lit_count() == 0
    assert model.warnings == []


# ------------------------------------------------------ command stream decode
def test_control_bytes_co_bit_and_data_flag():
    model = SSD1306Model()
    # Co=1 command, Co=1 data byte, then Co=0 command stream to the end.
    model.i2c_write(bytes([0x80, 0xAF, 0xC0, 0x55, 0x00, 0xA7, 0xA5]))
    assert model.display_on and model.inverse and model.entire_on
    assert model.gddram[0] == 0x55 and model.col == 1
    model.i2c_write(bytes([0x40, 0xAE, 0xA6]))  # Co=0 data: these are pixels
    assert model.display_on and model.inverse
    assert model.gddram[1:3] == b"\xae\xa6"
    assert model.warnings == []


def test_arguments_may_span_transactions():
    model = SSD1306Model()
    model.i2c_write(b"\x80\x81")
    assert model.pending_command == (0x81,)
    model.i2c_write(b"\x80\x10")
    assert model.contrast == 0x10 and model.pending_command is None


def test_malformed_control_bytes_are_warnings():
    model = SSD1306Model()
    model.i2c_write(b"\x80\xaf\x80")
    model.i2c_write(b"\x01\xa7")
    assert len(model.warnings) == 2
    assert model.display_on and model.inverse


def test_unknown_command_is_recorded_and_decoding_continues():
    model = SSD1306Model()
    cmds(model, 0xFF, 0xB9, 0xAF)
    assert model.unknown_commands == [0xFF, 0xB9]
    assert any("0xFF" in w for w in model.warnings)
    assert model.display_on
    assert command_name(0xFF) == "UNKNOWN"


def test_invalid_arguments_warn_and_are_ignored():
    model = SSD1306Model()
    cmds(model, 0xA8, 5, 0x20, 0x03)
    assert model.mux == 64 and model.mode == 2
    assert len(model.warnings) == 2


def test_reset_defaults():
    model = SSD1306Model()
    assert (
        model.display_on,
        model.mode,
        model.contrast,
        model.mux,
        model.com_pins,
    ) == (False, 2, 0x7F, 64, 0x12)
    assert not model.charge_pump and not model.seg_remap and not model.com_remap


# ----------------------------------------------------------- write pointer
def test_horizontal_mode_wraps_within_window():
    model = standard_model()
    cmds(model, 0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3)
    data(model, [1, 2, 3, 4, 5, 6, 7])
    ram = model.gddram
    assert ram[2 * 128 + 10] == 7  # the 7th byte wrapped to the window start
    assert ram[2 * 128 + 11 : 2 * 128 + 13] == bytes([2, 3])
    assert ram[3 * 128 + 10 : 3 * 128 + 13] == bytes([4, 5, 6])
    assert sum(ram) == 2 + 3 + 4 + 5 + 6 + 7
    assert (model.page, model.col) == (2, 11)


def test_vertical_mode_wraps_within_window():
    model = standard_model()
    cmds(model, 0x20, 0x01, 0x21, 5, 6, 0x22, 6, 7)
    data(model, [1, 2, 3, 4, 5])
    ram = model.gddram
    assert [ram[6 * 128 + 5], ram[7 * 128 + 5], ram[6 * 128 + 6], ram[7 * 128 + 6]] == [
        5,
        2,
        3,
        4,
    ]
    assert sum(ram) == 5 + 2 + 3 + 4
    assert (model.page, model.col) == (7, 5)


def test_page_mode_ignores_window_and_stays_on_its_page():
    model = standard_model()
    cmds(model, 0x21, 0, 3, 0x20, 0x02, 0xB3, 0x0E, 0x17)  # page 3, column 0x7E
    assert (model.page, model.col) == (3, 126)
    data(model, [1, 2, 3])
    ram = model.gddram
    assert ram[3 * 128 + 126] == 3 and ram[3 * 128 + 127] == 2
    assert sum(ram) == 5 and model.page == 3


def test_address_commands_reset_the_pointer():
    model = standard_model()
    data(model, [0] * 300)
    cmds(model, 0x21, 20, 30)
    assert model.col == 20
    cmds(model, 0x22, 4, 5)
    assert model.page == 4


# --------------------------------------------------------------- the glass
def test_segment_remap_and_com_scan_flip_the_glass():
    model = standard_model()
    load_frame(model, frame_with([(2, 5)]))
    assert lit_pixels(model.glass()) == {(2, 5)}
    cmds(model, 0xA0)
    assert lit_pixels(model.glass()) == {(125, 5)}
    cmds(model, 0xC0)
    assert lit_pixels(model.glass()) == {(125, 58)}
    cmds(model, 0xA1)
    assert lit_pixels(model.glass()) == {(2, 58)}


def test_invert_entire_on_and_display_off():
    model = standard_model()
    load_frame(model, frame_with([(7, 7)]))
    cmds(model, 0xA7)
    glass = model.glass()
    assert glass.lit_count() == 128 * 64 - 1 and glass.pixel(7, 7) == 0
    cmds(model, 0xA6, 0xA5)
    assert model.glass().lit_count() == 128 * 64
    cmds(model, 0xA4)
    assert lit_pixels(model.glass()) == {(7, 7)}
    cmds(model, 0xAE)
    assert model.glass().lit_count() == 0
    cmds(model, 0xA5)
    assert model.glass().lit_count() == 0  # off wins over entire-on


def test_charge_pump_off_is_dark_unless_external_vcc():
    for external, lit in ((False, 0), (True, 1)):
        model = standard_model(external_vcc=external)
        load_frame(model, frame_with([(1, 1)]))
        cmds(model, 0x8D, 0x10)
        assert model.glass().lit_count() == lit


def test_start_line_scrolls_ram_rows_up():
    model = standard_model()
    load_frame(model, ram_row_frame([8, 20]))
    cmds(model, 0x48)  # start line 8
    rows = lit_rows(model.glass())
    assert rows == [0, 12]
    assert model.glass_row_sources()[56] == 0


def test_display_offset_shifts_com_rows():
    model = standard_model()
    load_frame(model, ram_row_frame([0, 10]))
    cmds(model, 0xD3, 8)
    rows = lit_rows(model.glass())
    assert rows == [2, 56]


def test_multiplex_ratio_limits_driven_rows():
    model = standard_model()
    load_frame(model, ram_row_frame(range(64)))
    cmds(model, 0xA8, 31)
    sources = model.glass_row_sources()
    shown = [s for s in sources if s is not None]
    assert shown == list(range(32))  # RAM rows 0..31, top to bottom, in order
    assert model.glass().lit_count() == 32 * 128


def test_sequential_com_pins_interlace_a_64_row_panel():
    # 0xDA 0x02 is for 128x32 modules; on a 128x64 panel each half of the
    # image lands on every other line.
    model = standard_model()
    load_frame(model, ram_row_frame(range(32)))
    cmds(model, 0xDA, 0x02)
    rows = lit_rows(model.glass())
    assert rows == list(range(0, 64, 2))


def test_scroll_commands_consume_their_arguments():
    model = standard_model()
    cmds(model, 0x2E, 0x26, 0x00, 0x00, 0x07, 0x07, 0x00, 0xFF)
    assert model.scroll_setup.opcode == 0x26 and model.scroll_setup.args == (
        0,
        0,
        7,
        7,
        0,
        0xFF,
    )
    cmds(model, 0xA3, 0, 64, 0x29, 0x00, 0x00, 0x00, 0x07, 0x01, 0xE3)
    assert model.vertical_scroll_area == (0, 64)
    assert model.scroll_setup.args == (0, 0, 0, 7, 1)
    assert model.commands[-1].name == "NOP"  # 0xE3 was not taken as an argument
    assert model.warnings == [] and model.unknown_commands == []
    cmds(model, 0x2F)
    assert model.scroll_active and len(model.warnings) == 1
    data(model, [1])
    assert len(model.warnings) == 2  # RAM write while scrolling
    cmds(model, 0x2E)
    assert not model.scroll_active
