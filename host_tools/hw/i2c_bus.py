"""An emulated I2C bus that both SSD1306 drivers we care about can drive.

Two calling conventions meet here:

* CircuitPython ``busio.I2C`` as used by ``adafruit_bus_device.I2CDevice``:
  ``try_lock()``/``unlock()``, ``writeto(addr, buf, *, start, end)``,
  ``readfrom_into(addr, buf, *, start, end)``, ``writeto_then_readfrom(...)``,
  ``scan()``. I2CDevice probes with an empty ``writeto`` and falls back to a
  one-byte read.
* MicroPython ``machine.I2C`` as used by micropython-lib's ``ssd1306``:
  ``writeto(addr, buf, stop=True)``, ``writevto(addr, vector, stop=True)``
  (it sends ``[b"\\x40", framebuffer]`` as one transaction), ``scan()``.

A missing device raises ``OSError`` as a real controller does on an address
NACK: EIO by default (the RP2040 hardware I2C port), ENODEV if asked
(SoftI2C and CircuitPython's busio).
"""

from __future__ import annotations

import collections
import errno
from collections.abc import Iterable
from typing import NamedTuple, Protocol, Self

SSD1306_ADDR = 0x3C


class I2CTarget(Protocol):
    def i2c_write(self, data: bytes) -> None: ...

    def i2c_read(self, nbytes: int) -> bytes: ...


class Transaction(NamedTuple):
    addr: int
    kind: str  # "write" or "read"
    data: bytes  # bytes written, or bytes returned by the read
    acked: bool


class I2CBus:
    def __init__(
        self,
        devices: dict[int, I2CTarget] | None = None,
        *,
        nack_errno: int = errno.EIO,
        log_limit: int | None = 10000,
    ) -> None:
        self.devices: dict[int, I2CTarget] = dict(devices or {})
        self.nack_errno = nack_errno
        self.transactions: collections.deque[Transaction] = collections.deque(maxlen=log_limit)
        self._locked = False

    # ------------------------------------------------------------ bus setup
    def attach(self, addr: int, device: I2CTarget) -> None:
        if not 0x08 <= addr <= 0x77:
            raise ValueError(f"0x{addr:02X} is not a 7-bit device address")
        self.devices[addr] = device

    def detach(self, addr: int) -> None:
        self.devices.pop(addr, None)

    def clear_log(self) -> None:
        self.transactions.clear()

    def writes_to(self, addr: int) -> list[bytes]:
        """Payloads of the acknowledged writes to ``addr``, oldest first."""
        return [t.data for t in self.transactions if t.addr == addr and t.kind == "write" and t.acked]

    # -------------------------------------------------------- busio locking
    def try_lock(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    @property
    def locked(self) -> bool:
        return self._locked

    def deinit(self) -> None:
        self._locked = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.deinit()

    # ------------------------------------------------------------ transfers
    def scan(self) -> list[int]:
        return sorted(self.devices)

    def _target(self, addr: int, kind: str, data: bytes) -> I2CTarget:
        device = self.devices.get(addr)
        if device is None:
            self.transactions.append(Transaction(addr, kind, data, False))
            raise OSError(self.nack_errno, f"no ACK from I2C address 0x{addr:02X}")
        return device

    def _write(self, addr: int, data: bytes) -> int:
        device = self._target(addr, "write", data)
        self.transactions.append(Transaction(addr, "write", data, True))
        device.i2c_write(data)
        return len(data)

    def _read(self, addr: int, nbytes: int) -> bytes:
        device = self._target(addr, "read", b"")
        data = bytes(device.i2c_read(nbytes))
        self.transactions.append(Transaction(addr, "read", data, True))
        return data

    def writeto(
        self,
        addr: int,
        buf: bytes | bytearray | memoryview,
        stop: bool = True,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> int:
        """busio and machine.I2C ``writeto``; returns the ACK count like machine.I2C."""
        return self._write(addr, bytes(memoryview(buf)[start:end]))

    def writevto(
        self,
        addr: int,
        vector: Iterable[bytes | bytearray | memoryview],
        stop: bool = True,
    ) -> int:
        return self._write(addr, b"".join(bytes(part) for part in vector))

    def writeto_mem(
        self,
        addr: int,
        memaddr: int,
        buf: bytes | bytearray | memoryview,
        *,
        addrsize: int = 8,
    ) -> None:
        prefix = memaddr.to_bytes(addrsize // 8, "big")
        self._write(addr, prefix + bytes(buf))

    def readfrom(self, addr: int, nbytes: int, stop: bool = True) -> bytes:
        return self._read(addr, nbytes)

    def readfrom_into(
        self,
        addr: int,
        buf: bytearray | memoryview,
        stop: bool = True,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None:
        view = memoryview(buf)[start:end]
        view[:] = self._read(addr, len(view))

    def writeto_then_readfrom(
        self,
        addr: int,
        out_buffer: bytes | bytearray | memoryview,
        in_buffer: bytearray | memoryview,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        self.writeto(addr, out_buffer, False, start=out_start, end=out_end)
        self.readfrom_into(addr, in_buffer, start=in_start, end=in_end)


def bus_with_ssd1306(model: I2CTarget, addr: int = SSD1306_ADDR, **kwargs: object) -> I2CBus:
    """A bus with ``model`` attached at ``addr`` (0x3C unless the module's SA0 is high)."""
    bus = I2CBus(**kwargs)  # type: ignore[arg-type]
    bus.attach(addr, model)
    return bus
