"""Host stand-in for the device display: our frame -> real Adafruit driver -> model.

Pushing frames through ``adafruit_ssd1306`` (rather than poking the model's
GDDRAM) means the simulator exercises a real driver's command and data
traffic, so the glass shows what a real module would.

Adafruit's ``SSD1306_I2C`` keeps ``buffer`` = 1 + 1024 bytes: ``buffer[0]`` is
the 0x40 control byte (Co=0, D/C#=1) and ``buffer[1:]`` is the MONO_VLSB frame
(byte (y//8)*128 + x, bit y%8), the same layout as our firmware's Canvas, so a
frame is copied in verbatim. ``show()`` sends 0x21 0 127, 0x22 0 7 as single
commands, then the whole buffer as one write.
"""

from __future__ import annotations

import adafruit_ssd1306

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

    def show_frame(self, buf: bytes | bytearray | memoryview) -> None:
        if len(buf) != FRAME_BYTES:
            raise ValueError(f"frame must be {FRAME_BYTES} bytes, got {len(buf)}")
        self.driver.buffer[1:] = buf
        self.driver.show()

    def contrast(self, value: int) -> None:
        self.driver.contrast(value)

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
