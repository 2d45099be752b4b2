"""The link to the board: finding the port, waiting out restarts, running mpremote, plain messages.

Every board command goes through ``Board``: it finds the Pico (or takes ``PORT``), waits for a
port that is missing for a moment (a Pico drops off USB for a second or more at each reset and
comes back under the same name), runs the unmodified ``mpremote`` as a child process, and turns
its failures into one line of host_tools/deploy/messages.py: no scripts, no tracebacks.  The
programs that run on the board are the files in onboard/, sent with a call appended.
"""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from host_tools.deploy import DeployError, messages
from host_tools.deploy.rp2 import PICO_BOOTSEL_PIDS, PICO_MICROPYTHON_PID, PICO_USB_VID

ONBOARD = Path(__file__).resolve().parent / "onboard"
SYSFS_USB = Path(os.environ.get("PICO_SYSFS_USB", "/sys/bus/usb/devices"))  # tests point it elsewhere

ABSENT_WAIT_S = 3.0  # a named port missing at the start: a Pico restarting is back within ~2 s
GONE_WAIT_S = 3.0  # after a reset: the port drops within this (else the link survives resets)
BACK_WAIT_S = 15.0  # ... and comes back within this
POLL_S = 0.1


def program(name: str, call: str) -> str:
    """The text of onboard/NAME.py with a call appended: what `mpremote exec` sends."""
    return (ONBOARD / f"{name}.py").read_text(encoding="utf-8") + "\n" + call + "\n"


def find_pico(comports=None) -> str | None:
    """The first USB serial port of a Pico running MicroPython, or None."""
    if comports is None:
        try:
            from serial.tools import list_ports  # noqa: PLC0415

            comports = list_ports.comports()
        except ImportError:
            return None
    for p in sorted(comports, key=lambda p: p.device):
        if p.vid == PICO_USB_VID and getattr(p, "pid", None) in (PICO_MICROPYTHON_PID, None):
            return p.device
    return None


def bootsel_pico(sysfs: Path | None = None) -> bool:
    """Is a Pico plugged in in BOOTSEL mode (USB mass storage, no MicroPython)?  Linux only."""
    sysfs = SYSFS_USB if sysfs is None else sysfs
    try:
        devices = list(sysfs.iterdir())
    except OSError:
        return False
    for d in devices:
        try:
            vid = int((d / "idVendor").read_text().strip(), 16)
            pid = int((d / "idProduct").read_text().strip(), 16)
        except (OSError, ValueError):
            continue
        if vid == PICO_USB_VID and pid in PICO_BOOTSEL_PIDS:
            return True
    return False


def no_pico_message() -> str:
    return messages.BOOTSEL if bootsel_pico() else messages.NO_PICO


def mpremote_cmd(port: str) -> list[str]:
    return [sys.executable, "-m", "mpremote", "connect", port]


def _tcp_address(port: str) -> tuple[str, int] | None:
    """(host, port) of socket:// and rfc2217:// ports."""
    if not port.startswith(("socket://", "rfc2217://")):
        return None
    rest = port.split("://", 1)[1].split("/")[0].split("?")[0]
    host, _, num = rest.rpartition(":")
    try:
        return host or "localhost", int(num)
    except ValueError:
        return None


def present(port: str) -> bool:
    """Is the port there right now (a Pico restarting is not)?"""
    addr = _tcp_address(port)
    if addr is not None:
        try:
            socket.create_connection(addr, timeout=1).close()
        except OSError:
            return False
        return True
    if port.startswith("id:") or os.name == "nt" or not port.startswith("/"):
        try:
            from serial.tools import list_ports  # noqa: PLC0415
        except ImportError:
            return True
        ports = list_ports.comports()
        if port.startswith("id:"):
            return any(p.serial_number == port[3:] for p in ports)
        return any(p.device == port for p in ports)
    return os.path.exists(port)


def open_problem(port: str) -> str | None:
    """Why a present serial port cannot be opened: messages.BUSY / NO_PERMISSION, or None."""
    if _tcp_address(port) is not None or port.startswith("id:"):
        return None
    try:
        import serial  # noqa: PLC0415
    except ImportError:
        return None
    try:
        serial.Serial(port, exclusive=True).close()
    except (serial.SerialException, OSError) as e:
        code = getattr(e, "errno", None)
        text = str(e)
        if code == errno.EACCES or "Permission denied" in text:
            return messages.NO_PERMISSION.format(port=port)
        if code == errno.EBUSY or "exclusively lock" in text or "busy" in text.lower():
            return messages.BUSY.format(port=port)
    return None


class Board:
    """One board command's link: PORT (or the first Pico), waiting, mpremote, messages."""

    def __init__(self, port: str | None, *, say=None) -> None:
        self.auto = not port
        self._port = port or None
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))

    # ------------------------------------------------------------ the port
    @property
    def port(self) -> str:
        """The port, found now if none was named; waits for a named one that is missing."""
        if self._port is None:
            found = find_pico()
            if found is None:
                raise DeployError(no_pico_message())
            self._port = found
        elif not self.auto and not present(self._port):
            # Nothing there, or a Pico restarting: wait quietly, so that with nothing plugged in
            # the one line that says so comes first and alone.
            t0 = time.monotonic()
            if not self.wait_back(ABSENT_WAIT_S, quiet=True):
                raise DeployError(messages.NO_SUCH_PORT.format(port=self._port))
            self.say(messages.WAITED.format(seconds=time.monotonic() - t0))
        return self._port

    def _here(self) -> bool:
        if self.auto:
            found = find_pico()
            if found is not None:
                self._port = found
            return found is not None
        return present(self._port)

    def wait_back(self, timeout: float, quiet: bool = False) -> bool:
        """Say the one waiting line (unless quiet), then poll until the port is there; False on
        timeout."""
        if not quiet:
            self.say(messages.WAITING)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._here():
                return True
            time.sleep(POLL_S)
        return self._here()

    def wait_restart(self) -> None:
        """After a reset: wait for the port to drop, then for it to come back."""
        end = time.monotonic() + GONE_WAIT_S
        while time.monotonic() < end and self._here():
            time.sleep(POLL_S)
        if not self.wait_back(BACK_WAIT_S):
            raise DeployError(messages.NO_RETURN.format(seconds=int(BACK_WAIT_S)))

    def soft_reset(self) -> None:
        """Ctrl-D at the friendly REPL, where mpremote leaves the board: MicroPython restarts
        (boot.py, then main.py: the game) and the USB link stays up, so nothing is waited for."""
        import serial  # noqa: PLC0415

        port = self.port
        if port.startswith("id:"):  # mpremote's name for a board by serial number
            from serial.tools import list_ports  # noqa: PLC0415

            port = next((p.device for p in list_ports.comports() if p.serial_number == port[3:]), port)
        try:
            with serial.serial_for_url(port, baudrate=115200, timeout=1) as s:
                s.write(b"\x03\x04")  # drop a half-typed line, then the soft reset
                s.flush()
        except (serial.SerialException, OSError, ValueError) as e:
            raise DeployError(self.explain(f"failed to access {port}: {e}")) from None

    # ------------------------------------------------------------ mpremote
    def run(self, *args: str) -> str:
        """Run mpremote on the board; its output, or DeployError with a plain message."""
        port = self.port
        for attempt in range(2):
            r = subprocess.run(mpremote_cmd(port) + list(args), capture_output=True, text=True)
            if r.returncode == 0:
                return r.stdout
            text = (r.stdout or "") + (r.stderr or "")
            if "failed to access" in text and attempt == 0:
                if not present(port):
                    if self.wait_back(ABSENT_WAIT_S):
                        port = self.port
                        continue
                    raise DeployError(messages.LOST)
                problem = open_problem(port)
                if problem:
                    raise DeployError(problem)
                time.sleep(0.5)  # there, but not ready yet (a port node appears before its permissions)
                continue
            break
        raise DeployError(self.explain(text))

    def explain(self, text: str) -> str:
        """One plain line for what mpremote said when it failed."""
        port = self._port or "the port"
        if "failed to access" in text:
            return open_problem(port) or messages.LOST
        if "could not enter raw repl" in text:
            return messages.NOT_MICROPYTHON.format(port=port)
        if "no device found" in text:
            return no_pico_message()
        if "No space left" in text or "ENOSPC" in text or "[Errno 28]" in text:
            return messages.FLASH_FULL_DURING
        if any(s in text for s in ("disconnected", "Input/output error", "[Errno 5]", "read failed")):
            return messages.LOST
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        last = lines[-1] if lines else "no reason given"
        return messages.BOARD_SAID.format(line=last.removeprefix("mpremote: "))

    def exec(self, name: str, call: str) -> str:
        """Run onboard/NAME.py with `call` appended; its output."""
        return self.run("exec", program(name, call))
