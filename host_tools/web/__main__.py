"""``make web``: build the page into build/web and serve it on localhost.

python -m host_tools.web [--port 8000] [--out build/web] [--no-serve]
"""

from __future__ import annotations

import argparse
import errno
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from host_tools.web.build import DEFAULT_OUT, BuildError, build_site
from host_tools.web.serve import DEFAULT_PORT, serve


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m host_tools.web",
        description="Build the web page of the game and serve it on localhost.",
    )
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the site goes (default build/web)")
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to serve on (default {DEFAULT_PORT})"
    )
    p.add_argument("--no-serve", action="store_true", help="only build")
    p.add_argument("--verbose", action="store_true", help="log every request")
    args = p.parse_args(argv)
    if not 0 <= args.port <= 65535:
        p.error("--port must be 0..65535")
    try:
        site = build_site(args.out)
    except BuildError as e:
        print(f"web build failed: {e}", file=sys.stderr)
        return 1
    print(f"Built {site.out} ({site.total_bytes / 1024:.0f} KB): copy this folder to any static host.")
    if args.no_serve:
        return 0
    try:
        server = serve(site.out, args.port, quiet=not args.verbose)
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            print(f"can't serve on port {args.port}: {e.strerror}", file=sys.stderr)
            return 1
        server = serve(site.out, 0, quiet=not args.verbose)
        print(f"Port {args.port} is taken; using {server.port}.")
    print(f"Play at {server.url}  (Ctrl-C stops the server)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        print("\nStopped.")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
