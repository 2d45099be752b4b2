"""The link cable over TCP: two simulators on one machine or two, the very same protocol bytes.

    python -m host_tools.simulator --link-listen 7600          # this one waits for the other
    python -m host_tools.simulator --link otherpc:7600         # this one calls it

``TcpPort`` has the contract of the device's UART port (``open``, ``close``,
``write(bytes)``, ``read()`` -> bytes or None; never blocking), so the
firmware's link code can't tell the difference.  TCP is a byte stream like
the cable: the frames, CRCs, acknowledgements and resends are the same, only
nothing gets lost on the way.  A dropped connection is a pulled cable: the
listener takes the next caller, the caller dials again every RETRY_S.
Bytes written while nobody is connected are lost, as on an unplugged cable.
"""

from __future__ import annotations

import errno
import socket
import time

RETRY_S = 1.0
MAX_READ = 4096
READ_LIMIT = 16 * MAX_READ  # one read() returns at most this: a peer sending without end can't stall the loop


class TcpPort:
    def __init__(
        self, *, listen: int | None = None, connect: tuple[str, int] | None = None, host: str = ""
    ) -> None:
        if (listen is None) == (connect is None):
            raise ValueError("a TCP link either listens or connects")
        self.listen_port = listen
        self.address = connect
        self.server: socket.socket | None = None
        self.sock: socket.socket | None = None
        self.pending = b""  # written but not yet taken by the socket
        self.next_dial = 0.0
        self.connections = 0
        if listen is not None:
            self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.server.bind((host, listen))
            self.server.listen(1)
            self.server.setblocking(False)
            self.listen_port = self.server.getsockname()[1]

    # --- the port contract -------------------------------------------------------------------
    def open(self) -> None:
        self._service()

    def close(self) -> None:
        """The game left the link: hang up (the other side sees a pulled cable)."""
        self._drop()

    def shutdown(self) -> None:
        self._drop()
        if self.server is not None:
            self.server.close()
            self.server = None

    def write(self, data: bytes) -> None:
        self._service()
        if self.sock is None:
            return
        self.pending += bytes(data)
        self._flush()

    def read(self) -> bytes | None:
        self._service()
        if self.sock is None:
            return None
        self._flush()
        out = bytearray()
        while len(out) < READ_LIMIT:
            try:
                chunk = self.sock.recv(min(MAX_READ, READ_LIMIT - len(out)))
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self._drop()
                break
            if not chunk:  # the other side hung up
                self._drop()
                break
            out += chunk
        return bytes(out) if out else None

    @property
    def connected(self) -> bool:
        return self.sock is not None

    def describe(self) -> str:
        if self.server is not None:
            return f"listening on port {self.listen_port}"
        host, port = self.address
        return f"calling {host}:{port}"

    # --- connections ---------------------------------------------------------------------------
    def _service(self) -> None:
        if self.sock is not None:
            return
        if self.server is not None:
            try:
                s, _addr = self.server.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            self._use(s)
            return
        now = time.monotonic()
        if now < self.next_dial:
            return
        self.next_dial = now + RETRY_S
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(0.2)  # localhost or a LAN answers at once; a silent host must not stall the game
        try:
            s.connect(self.address)
        except OSError:
            s.close()
            return
        self._use(s)

    def _use(self, s: socket.socket) -> None:
        s.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # a frame is a few bytes: send now
        self.sock = s
        self.pending = b""
        self.connections += 1

    def _flush(self) -> None:
        while self.pending and self.sock is not None:
            try:
                n = self.sock.send(self.pending)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                    return
                self._drop()
                return
            self.pending = self.pending[n:]

    def _drop(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None
        self.pending = b""


def parse_address(text: str) -> tuple[str, int]:
    """'HOST:PORT' (or ':PORT', or 'PORT': this machine) -> (host, port); ValueError otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    try:
        p = int(port)
    except ValueError:
        raise ValueError(f"{text!r}: give HOST:PORT, e.g. 192.168.1.20:7600") from None
    if not 0 < p < 65536:
        raise ValueError(f"{text!r}: the port must be 1..65535")
    return (host or "127.0.0.1"), p
