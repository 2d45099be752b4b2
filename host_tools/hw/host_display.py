"""Host stand-in for the device display: our frame -> real Adafruit driver -> model.

Pushing frames through ``adafruit_ssd1306`` (rather than poking the model's
GDDRAM) means the simulator exercises a real driver's command and data
traffic, so the glass shows what a real module would.

Adafruit's ``SSD1306_I2C`` keeps ``buffer`` = 1 + 1024 bytes: ``buffer[0]`` is
the 0x40 control byte (Co=0, D/C#=1) and ``buffer[1:]`` is the MONO_VLSB frame
(byte (y//8)*128 + x, bit y%8), the same layout as our firmware's Canvas, so a
frame is copied in verbatim. ``show()`` sends 0x21 0 127, 0x22 0 7 as single
commands, then the whole buffer as one write.

``show_frame`` sends as the device does (issue 13): the firmware's own
``device.display.FrameSender`` works out the windows that changed since the
last frame and sends them through Adafruit's I2C device (each window's
commands in one write, as ``device.display.Panel`` does on the Pico); ``show_full`` is the driver's plain whole-frame ``show()``, the
reference the tests compare the glass with.
"""

from __future__ import annotations

import adafruit_ssd1306

from device.display import FrameSender

from host_tools.hw.i2c_bus import SSD1306_ADDR, I2CBus
from host_tools.hw.ssd1306_model import FRAME_BYTES, HEIGHT, WIDTH, Glass, SSD1306Model


class HostDisplay:
    def __init__(
        self,
        *,
        model: SSD1306Model | None = None,
        bus: I2CBus | None = None,
        addr: int = SSD1306_ADDR,
        external_vcc: bool = False,
    ) -> None:
        self.model = model if model is not None else SSD1306Model(external_vcc=external_vcc)
        self.bus = bus if bus is not None else I2CBus(log_limit=256)
        if addr not in self.bus.devices:
            self.bus.attach(addr, self.model)
        self.driver = adafruit_ssd1306.SSD1306_I2C(
            WIDTH, HEIGHT, self.bus, addr=addr, external_vcc=external_vcc
        )
        # The driver's buffer (after its 0x40 control byte) keeps the last frame sent.
        self.sender = FrameSender(WIDTH, HEIGHT, memoryview(self.driver.buffer)[1:])

    def write_cmd(self, cmd: int) -> None:
        self.driver.write_cmd(cmd)

    def write_cmds(self, buf: bytes | bytearray | memoryview) -> None:
        """One command transaction, as device.display.Panel on the Pico: 0x00 then the commands."""
        with self.driver.i2c_device as dev:
            dev.write(bytes(buf))

    def write_data(self, data: bytes | bytearray | memoryview) -> None:
        """One data transaction, as micropython-lib's ``write_data``: 0x40 then the bytes."""
        with self.driver.i2c_device as dev:
            dev.write(b"\x40" + bytes(data))

    def show_frame(self, buf: bytes | bytearray | memoryview, damage: list | None = None) -> int:
        """Send what changed since the last frame (``damage``: see FrameSender.windows); returns
        the bytes that went over the bus."""
        if len(buf) != FRAME_BYTES:
            raise ValueError(f"frame must be {FRAME_BYTES} bytes, got {len(buf)}")
        return self.sender.send(self, bytes(buf), damage)

    def show_full(self, buf: bytes | bytearray | memoryview) -> None:
        """The driver's own whole-frame ``show()`` (the next ``show_frame`` sends whole too)."""
        if len(buf) != FRAME_BYTES:
            raise ValueError(f"frame must be {FRAME_BYTES} bytes, got {len(buf)}")
        self.driver.buffer[1:] = buf
        self.driver.show()
        self.sender.invalidate()

    def contrast(self, value: int) -> None:
        self.driver.contrast(value)

    @property
    def sent(self) -> int:
        """Bytes on the wire of the last ``show_frame`` (addresses, commands and data)."""
        return self.sender.sent

    def invert(self, on: bool) -> None:
        self.driver.invert(on)

    def rotate(self, on: bool) -> None:
        self.driver.rotate(on)

    def poweroff(self) -> None:
        self.driver.poweroff()

    def poweron(self) -> None:
        self.driver.poweron()

    def glass(self) -> Glass:
        return self.model.glass()

    @property
    def warnings(self) -> list[str]:
        return self.model.warnings
