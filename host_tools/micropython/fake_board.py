"""An emulated MicroPython board on a local TCP port, for mpremote and make deploy.

    python -m host_tools.micropython.fake_board                  # prints socket://127.0.0.1:PORT, serves until Ctrl-C
    mpremote connect socket://127.0.0.1:PORT ls
    make deploy PORT=socket://127.0.0.1:PORT DRIVER=path/to/ssd1306.py

mpremote 1.29 opens any device name through pyserial's ``serial_for_url``, so
``socket://host:port`` (and ``rfc2217://``, which the Wokwi simulator serves)
works as a port with no change to mpremote, for every command but ``repl``:
its terminal select()s on the port's ``fd``, which socket ports lack.
``make repl`` (host_tools/deploy/commands.py ``console``) works around that.  Behind the socket runs the real
MicroPython 1.27 (the WebAssembly port, in Node: host_tools/micropython/fake_board.mjs)
speaking the REPL protocols a Pico speaks over USB: friendly REPL, raw REPL,
raw-paste, soft reset with Ctrl-D, hard reset with ``machine.reset()`` (which
drops the connection, as a Pico's USB link drops), and ``sys.stdin`` reads
during execution (so ``mpremote mount`` works).  The flash is in memory and
survives resets; ``--flash DIR`` starts it from a folder.

Like a Pico at a reset, the port goes away: for ``reset_gap`` seconds after a hard reset
nothing listens (a connection is refused, as opening a vanished /dev/ttyACM0 fails), then it
is back on the same address.  Other boards a user may plug in: ``flash_blocks`` makes a small
or full flash (writes past it fail with ENOSPC, as littlefs does), ``version`` an older
MicroPython (``sys.implementation`` says so), ``micropython=False`` a serial device that
answers, but not as MicroPython.  A fresh board has no display driver, as a Pico just flashed.

It is a board for the tools, not a Pico emulator: ``machine`` has inert
``Pin``/``I2C``/``PWM``/``ADC``/``Timer`` stand-ins (an I2C scan finds no
display), time runs at the host's pace, Ctrl-C cannot interrupt running code,
and ``main.py`` runs after a reset only with ``--run-main`` (the game would
otherwise loop forever with nothing to show).  ``os.statvfs`` reports a Pico's
1408 KiB littlefs, with the used blocks estimated from the file sizes.

From Python (tests)::

    with FakeBoard() as board:
        subprocess.run(["mpremote", "connect", board.url, "ls"])
        board.files()        # {"boot.py": b"...", "lib/": None, ...}
        board.events         # ["boot power-on", "exec 43 import os", ...]
"""

from __future__ import annotations

import argparse
import base64
import json
import queue
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ENGINE = Path(__file__).resolve().parent / "fake_board.mjs"
_WASM_REL = Path("node_modules") / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
# The project's install (make setup) first, then the scratch one some machines have.
WASM_CANDIDATES = (ROOT / "host_tools" / "mpwasm" / _WASM_REL, Path("/tmp/mpwasm") / _WASM_REL)


class FakeBoardError(RuntimeError):
    pass


def find_wasm() -> Path:
    for p in WASM_CANDIDATES:
        if p.is_file():
            return p
    raise FakeBoardError(
        "MicroPython WebAssembly port not found; run `make setup` (looked in: "
        + ", ".join(str(p) for p in WASM_CANDIDATES)
        + ")"
    )


class FakeBoard:
    """One emulated board: a Node engine and a TCP listener on 127.0.0.1."""

    def __init__(
        self,
        *,
        port: int = 0,
        flash_dir: str | Path | None = None,
        run_main: bool = False,
        heapsize: int | None = None,
        node: str = "node",
        reset_gap: float = 0.0,
        flash_blocks: int | None = None,
        version: str | None = None,
        micropython: bool = True,
    ) -> None:
        self.port = port
        self.reset_gap = reset_gap
        self.flash_blocks = flash_blocks
        self.version = version
        self.micropython = micropython
        self.gone = False  # True while the port is away (a reset)
        self.flash_dir = Path(flash_dir) if flash_dir else None
        self.run_main = run_main
        self.heapsize = heapsize
        self.node = node
        self.events: list[str] = []
        self.hard_resets = 0
        self.connections = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._client: socket.socket | None = None
        self._gen = 0  # bumps at each hard reset: input of the old link is dropped
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._snapshots: queue.Queue[dict] = queue.Queue()
        self._synced: queue.Queue[bytes] = queue.Queue()
        self._stopping = False
        self._threads: list[threading.Thread] = []

    # ------------------------------------------------------------ lifecycle
    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def start(self) -> FakeBoard:
        if not self.micropython:
            return self._start_listener(self._serve_other)
        if shutil.which(self.node) is None:
            raise FakeBoardError(f"{self.node!r} not found: the fake board needs Node.js")
        cmd = [self.node, str(ENGINE), str(find_wasm())]
        if self.run_main:
            cmd.append("--run-main")
        if self.heapsize:
            cmd += ["--heapsize", str(self.heapsize)]
        if self.flash_dir:
            cmd += ["--flash", str(self.flash_dir)]
        if self.flash_blocks:
            cmd += ["--flash-blocks", str(self.flash_blocks)]
        if self.version:
            cmd += ["--version", self.version]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        t = threading.Thread(target=self._pump_engine, name="fake-board-engine", daemon=True)
        t.start()
        self._threads.append(t)
        self._start_listener(self._serve)
        self.wait_event("boot power-on", timeout=30)
        return self

    def _listen(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", self.port))
        self._sock.listen(4)
        self.port = self._sock.getsockname()[1]

    def _start_listener(self, serve) -> FakeBoard:
        self._listen()
        t = threading.Thread(target=serve, name="fake-board-serve", daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def stop(self) -> None:
        self._stopping = True
        self._drop_client()
        for t in self._threads:
            if t.name == "fake-board-serve":
                t.join(timeout=5)  # before the listening socket goes: see _clients
        if self._proc and self._proc.poll() is None:
            try:
                self._send("Q")
            except OSError:
                pass
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        if self._sock:
            self._sock.close()

    def __enter__(self) -> FakeBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ what tests ask
    def files(self, timeout: float = 10) -> dict[str, bytes | None]:
        """The flash now: {"dir/": None, "dir/file": contents}."""
        self._send("S")
        try:
            snap = self._snapshots.get(timeout=timeout)
        except queue.Empty:
            raise FakeBoardError("the board did not answer a snapshot request") from None
        return {k: (None if v is None else base64.b64decode(v)) for k, v in snap.items()}

    def power_cycle(self) -> None:
        """Unplug and plug in again: a hard reset that keeps the flash."""
        self._send("P")

    def wait_event(self, prefix: str, timeout: float = 10, after: int = 0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                for e in self.events[after:]:
                    if e.startswith(prefix):
                        return e
            if self._proc and self._proc.poll() is not None:
                raise FakeBoardError(f"the board's engine exited ({self._proc.returncode})")
            time.sleep(0.01)
        raise FakeBoardError(f"no board event {prefix!r} within {timeout}s; events: {self.events[-10:]}")

    def execs(self) -> list[str]:
        """The code the raw REPL ran, one line each ("exec LEN first-line")."""
        with self._lock:
            return [e for e in self.events if e.startswith("exec ")]

    # ------------------------------------------------------------ plumbing
    def _send(self, kind: str, payload: bytes = b"") -> None:
        assert self._proc and self._proc.stdin
        with self._write_lock:
            self._proc.stdin.write(kind.encode() + struct.pack("<I", len(payload)) + payload)
            self._proc.stdin.flush()

    def _read_exact(self, n: int) -> bytes | None:
        assert self._proc and self._proc.stdout
        buf = b""
        while len(buf) < n:
            chunk = self._proc.stdout.read(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf

    def _pump_engine(self) -> None:
        while True:
            head = self._read_exact(5)
            if head is None:
                return
            kind = chr(head[0])
            n = struct.unpack("<I", head[1:])[0]
            payload = self._read_exact(n) if n else b""
            if payload is None:
                return
            if kind == "D":
                with self._lock:
                    client = self._client
                if client is not None:
                    try:
                        client.sendall(payload)
                    except OSError:
                        pass
            elif kind == "E":
                with self._lock:
                    self.events.append(payload.decode("utf-8", "replace"))
            elif kind == "H":
                with self._lock:
                    self.hard_resets += 1
                    self._gen += 1
                    if self.reset_gap > 0:
                        self.gone = True  # off USB: _serve closes the port, then opens it again
                self._drop_client()
            elif kind == "F":
                self._snapshots.put(json.loads(payload))
            elif kind == "Y":
                self._synced.put(payload)

    def _drop_client(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            client.close()

    def _clients(self):
        """Each client that connects, until the board stops or its port is closed for good.

        accept() with the port's timeout: a thread blocked in accept() on a socket that another
        thread closes can wake up on a new socket that reused the descriptor number.  While
        the board is ``gone`` (a reset), the port is away (``_away``) between clients.
        """
        while not self._stopping:
            if self.gone:
                self._away()
                continue
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self._stopping:
                conn.close()
                return
            yield conn

    def _serve(self) -> None:
        assert self._sock
        self._sock.settimeout(0.05 if self.reset_gap else 0.2)
        for conn in self._clients():
            conn.settimeout(None)
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            _quickack(conn)
            with self._lock:
                self._client = conn
                gen = self._gen
                self.connections += 1
                self.events.append(f"link {self.connections} up")
            sent = False
            while True:
                try:
                    data = conn.recv(65536)
                except OSError:
                    break
                if not data:
                    break
                # ACK at once: the client's next small write (mpremote sends code, then
                # Ctrl-D) would otherwise wait out Nagle + delayed ACK, ~40 ms a command.
                _quickack(conn)
                with self._lock:
                    stale = gen != self._gen
                if stale:
                    with self._lock:
                        self.events.append(f"link {self.connections} input after a hard reset dropped")
                    break
                sent = True
                try:
                    self._send("D", data)
                except OSError:
                    return
            with self._lock:
                if self._client is conn:
                    self._client = None
                self.events.append(f"link {self.connections} down")
            try:
                conn.close()
            except OSError:
                pass
            with self._lock:
                reset = gen != self._gen
            # A client that only looked (is the port there?) leaves nothing to finish; after a hard
            # reset the old link's input is void and the board is booting (maybe into a long main.py).
            if sent and not reset:
                self._settle(gen)

    def _away(self) -> None:
        """A reset: nothing listens for reset_gap seconds (a Pico off USB), then the same port again."""
        assert self._sock
        self._sock.close()
        with self._lock:
            self.events.append(f"port gone for {self.reset_gap}s")
        end = time.monotonic() + self.reset_gap
        while time.monotonic() < end and not self._stopping:
            time.sleep(0.02)
        if self._stopping:
            self._sock = None
            return
        self._listen()
        self._sock.settimeout(0.05)
        with self._lock:
            self.gone = False
            self.events.append("port back")

    def _serve_other(self) -> None:
        """A serial device that is not running MicroPython: it talks, but no REPL answers."""
        assert self._sock
        self._sock.settimeout(0.2)
        for conn in self._clients():
            with self._lock:
                self.connections += 1
                self.events.append(f"link {self.connections} up")
            conn.settimeout(0.2)
            while not self._stopping:
                try:
                    data = conn.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not data:
                    break
                try:
                    conn.sendall(b"Hello from a board without MicroPython\r\n")
                except OSError:
                    break
            conn.close()

    def _settle(self, gen: int, timeout: float = 30) -> None:
        """Let the board finish what the last client sent before the next one connects.

        `mpremote reset` sends machine.reset() and leaves at once; the reset comes ~100 ms
        later.  A Pico is gone from USB by then, so no new link can be caught by it; here,
        waiting for the engine to echo a sync frame gives the same order.
        """
        token = str(time.monotonic()).encode()
        try:
            self._send("Y", token)
        except OSError:
            return

        end = time.monotonic() + timeout
        while time.monotonic() < end and not self._stopping:
            with self._lock:
                if gen != self._gen:
                    return  # the last client's work ended in a hard reset: the board is off USB now
            try:
                if self._synced.get(timeout=0.05) == token:
                    return
            except queue.Empty:
                continue


def _quickack(conn: socket.socket) -> None:
    quickack = getattr(socket, "TCP_QUICKACK", None)  # Linux only; elsewhere just slower
    if quickack is not None:
        try:
            conn.setsockopt(socket.IPPROTO_TCP, quickack, 1)
        except OSError:
            pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default: any free one)")
    ap.add_argument("--flash", help="start the flash from this folder (it is not written back)")
    ap.add_argument("--run-main", action="store_true", help="run main.py after a reset, as a Pico does")
    ap.add_argument("--save", help="on exit, write the flash into this folder")
    ap.add_argument(
        "--reset-gap",
        type=float,
        default=1.5,
        help="seconds the port is gone after a reset (a Pico: a second or more)",
    )
    ap.add_argument("--flash-blocks", type=int, help="flash size in 4 KiB blocks (a Pico: 352); small = full")
    ap.add_argument("--version", help="pretend to run this older MicroPython, e.g. 1.18.0")
    args = ap.parse_args(argv)
    board = FakeBoard(
        port=args.port,
        flash_dir=args.flash,
        run_main=args.run_main,
        reset_gap=args.reset_gap,
        flash_blocks=args.flash_blocks,
        version=args.version,
    )
    board.start()
    print(board.url, flush=True)
    try:
        while board._proc and board._proc.poll() is None:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        if args.save:
            out = Path(args.save)
            for name, data in sorted(board.files().items()):
                if data is None:
                    (out / name).mkdir(parents=True, exist_ok=True)
                else:
                    (out / name).parent.mkdir(parents=True, exist_ok=True)
                    (out / name).write_bytes(data)
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
