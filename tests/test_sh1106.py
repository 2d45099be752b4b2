"""The SH1106 1.3" panel (firmware/device/sh1106.py) against its host model
(host_tools/hw/sh1106_model.py): page addressing with the 2-column offset gives the glass of
the frame, whole or in changed windows; the SSD1306 path on this chip does not; the Display
wrapper's contrast, power and recovery work the same."""

import random
import sys

import pytest

from device.display import FrameSender
from device.display import Panel as SSD1306Panel
from device.sh1106 import OFFSET, PageSender, Panel

from host_tools.hw.i2c_bus import I2CBus
from host_tools.hw.sh1106_model import RAM_COLS, SH1106Model
from host_tools.hw.ssd1306_model import FRAME_BYTES, Glass
from test_device_glue import board  # noqa: F401  (the fake Pico: machine, ssd1306, the clock)


def rig():
    model = SH1106Model()
    bus = I2CBus({0x3C: model})
    panel = Panel(bus, 0x3C, 128, 64)
    return model, bus, panel


def edit(frame, rng):
    """Change a random rectangle (sometimes nothing, sometimes everything)."""
    k = rng.random()
    if k < 0.1:
        return
    if k < 0.2:
        frame[:] = bytes(rng.getrandbits(8) for _ in range(FRAME_BYTES))
        return
    p0 = rng.randrange(8)
    p1 = rng.randrange(p0, 8)
    c0 = rng.randrange(128)
    c1 = rng.randrange(c0, min(128, c0 + 40))
    for p in range(p0, p1 + 1):
        for c in range(c0, c1 + 1):
            frame[p * 128 + c] = rng.getrandbits(8)


def wire_bytes(bus):
    return sum(len(t.data) + 1 for t in bus.transactions)


@pytest.mark.parametrize("seed", range(8))
def test_changed_windows_give_the_glass_of_the_frame(seed):
    rng = random.Random(seed)
    model, bus, panel = rig()
    sender = PageSender(128, 64, panel.buffer)
    frame = bytearray(FRAME_BYTES)
    for _ in range(15):
        edit(frame, rng)
        bus.clear_log()
        sender.send(panel, frame)
        assert model.glass().pixels == Glass.from_frame(frame).pixels
        assert sender.sent == wire_bytes(bus)
    assert model.warnings == []


def test_the_glass_starts_two_columns_into_the_ram():
    model, bus, panel = rig()
    sender = PageSender(128, 64, panel.buffer)
    frame = bytearray(FRAME_BYTES)
    frame[0] = 0xFF  # glass column 0, page 0
    frame[127] = 0x81  # glass column 127
    sender.send(panel, frame)
    assert model.ram[OFFSET] == 0xFF and model.ram[OFFSET + 127] == 0x81
    assert model.ram[0] == model.ram[1] == 0 and model.ram[RAM_COLS - 1] == 0


def test_a_small_change_sends_a_small_window():
    model, bus, panel = rig()
    sender = PageSender(128, 64, panel.buffer)
    frame = bytearray(FRAME_BYTES)
    sender.send(panel, frame)
    frame[3 * 128 + 60] = 0x18
    bus.clear_log()
    n = sender.send(panel, frame)
    assert n < 20 and len(bus.transactions) == 2
    assert model.glass().pixels == Glass.from_frame(frame).pixels


def test_the_ssd1306_path_garbles_this_panel():
    """What the BOM warned about: windows by 0x21/0x22 are not SH1106 commands."""
    model, bus, panel = rig()
    sender = FrameSender(128, 64)
    frame = bytearray(random.Random(1).getrandbits(8) for _ in range(FRAME_BYTES))
    sender.send(SSD1306Panel(panel, bus, 0x3C), frame)
    assert model.glass().pixels != Glass.from_frame(frame).pixels
    assert 0x21 in model.unknown_commands and 0x22 in model.unknown_commands


@pytest.fixture
def clock(monkeypatch):
    import time as _time

    import device

    t = {"ms": 0}
    monkeypatch.setattr(_time, "ticks_ms", lambda: t["ms"], raising=False)
    monkeypatch.setattr(_time, "ticks_add", lambda a, b: a + b, raising=False)
    monkeypatch.setattr(_time, "ticks_diff", lambda a, b: a - b, raising=False)
    for name in ("display", "sh1106"):
        monkeypatch.delitem(sys.modules, "device." + name, raising=False)
        monkeypatch.delattr(device, name, raising=False)
    return t


def test_the_display_wrapper_drives_an_sh1106(clock):
    from device.sh1106 import SH1106Display

    model = SH1106Model()
    bus = I2CBus({0x3D: model})
    d = SH1106Display(bus, (0x3C, 0x3D))
    assert d.present and d.addr == 0x3D and model.display_on and model.dc_dc
    frame = bytearray(random.Random(2).getrandbits(8) for _ in range(FRAME_BYTES))
    assert d.show(frame)
    assert model.glass().pixels == Glass.from_frame(frame).pixels
    d.contrast(9)
    assert model.contrast == 9
    d.power(False)
    assert not model.display_on
    d.power(True)
    assert model.display_on
    # unplugged: show says so; plugged back in, it comes back by itself and sends all again
    bus.detach(0x3D)
    frame[100] ^= 0xFF
    assert d.show(frame) is False and not d.present
    bus.attach(0x3D, model)
    model.reset()
    clock["ms"] += 1000
    assert d.show(frame) and d.present
    assert model.glass().pixels == Glass.from_frame(frame).pixels
    assert model.contrast == 9


def test_the_pico_uses_the_sh1106_when_the_pin_map_says_so(board, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    from device import pins

    monkeypatch.setattr(pins, "OLED_CONTROLLER", "SH1106")
    from device import pico

    hw = pico.build()
    assert type(hw.display).__name__ == "SH1106Display" and hw.display.present
    assert hw.display.show(bytearray(FRAME_BYTES))
