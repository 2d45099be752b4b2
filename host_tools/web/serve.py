"""A static file server for the built page, on localhost (the page itself needs no server code).

``serve(folder, port)`` returns a running ``http.server`` in a background thread:
``make web`` and the browser tests use it.  It sends the types browsers insist on
(``application/wasm``, JavaScript for ``.mjs``) and ``Cache-Control: no-cache``,
so a reload revalidates (a 304 for what did not change) instead of playing an old build.
"""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".svg": "image/svg+xml",
        ".bin": "application/octet-stream",
    }
    quiet = True

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002  (the base class's name)
        if not self.quiet:
            super().log_message(format, *args)


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        import sys

        # a browser (or a test) that hangs up mid-file is not an error worth a traceback
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


class Server:
    """A running server: ``url``, ``stop()``; also a context manager."""

    def __init__(self, folder: Path, host: str = DEFAULT_HOST, port: int = 0, *, quiet: bool = True) -> None:
        handler = functools.partial(type("Handler", (_Handler,), {"quiet": quiet}), directory=str(folder))
        self.httpd = _Quiet((host, port), handler)
        self.httpd.daemon_threads = True
        self.host, self.port = self.httpd.server_address[:2]
        self.url = f"http://{self.host}:{self.port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="gin-web-server", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(folder: Path, port: int = DEFAULT_PORT, host: str = DEFAULT_HOST, *, quiet: bool = True) -> Server:
    """Serve ``folder``; port 0 picks a free one.  OSError when the port is taken."""
    return Server(Path(folder), host, port, quiet=quiet)
