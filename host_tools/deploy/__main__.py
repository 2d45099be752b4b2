"""The command line of host_tools/deploy (mk/deploy.mk's targets call it): python -m host_tools.deploy."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from host_tools.deploy import ROOT, DeployError, commands, messages
from host_tools.deploy.board import Board, bootsel_pico, find_pico
from host_tools.deploy.closure import import_closure
from host_tools.deploy.compile import build
from host_tools.deploy.package_json import package_json_text
from host_tools.deploy.size import size_report

COMMANDS = "files build find deploy play check mount repl reset logs wipe size package-json".split()


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.deploy",
        description="Putting the game on a Pico: import closure, compiling, the board link, the make targets.",
    )
    ap.add_argument("command", choices=COMMANDS)
    ap.add_argument(
        "--port",
        default=os.environ.get("PORT") or None,
        help="what `mpremote connect` takes; default: the first Pico",
    )
    ap.add_argument("--root", type=Path, default=ROOT, help="the tree holding boot.py, main.py, firmware/")
    ap.add_argument("--build", type=Path, default=None, help="build folder (default: ROOT/build/mpy)")
    ap.add_argument(
        "--no-mip", action="store_true", help="deploy: never ask the package index for the driver"
    )
    ap.add_argument("--mip-index", help="deploy: package index for the driver (default: micropython.org)")
    ap.add_argument(
        "--driver", type=Path, help="deploy: copy this ssd1306.py (or .mpy) as the display driver"
    )
    ap.add_argument("--no-reset", action="store_true", help="deploy: leave the board at the REPL")
    ap.add_argument("--dry-run", action="store_true", help="deploy: say what would change, change nothing")
    ap.add_argument("--yes", action="store_true", help="wipe: do not ask")
    ap.add_argument("--no-emulate", action="store_true", help="size: skip the emulated RAM run")
    ap.add_argument("--check", action="store_true", help="package-json: fail if package.json is stale")
    return ap.parse_args(argv)


def run(a: argparse.Namespace) -> int:
    root = a.root.resolve()
    build_dir = (a.build or root / "build" / "mpy").resolve()
    board = Board(a.port)
    deploy_args = dict(
        root=root,
        build_dir=build_dir,
        mip=not a.no_mip,
        mip_index=a.mip_index,
        driver=a.driver.resolve() if a.driver else None,
        reset=not a.no_reset,
    )
    if a.command == "files":
        for e in import_closure(root):
            print(f"{e.device:<28} {e.reason}")
    elif a.command == "build":
        entries = import_closure(root)
        made = build(entries, build_dir)
        print(f"build: {len(entries)} files in {build_dir} ({len(made)} rebuilt)")
    elif a.command == "find":
        port = a.port or find_pico()
        if port is None:  # make play starts the simulator: only a Pico without MicroPython is worth a word
            if bootsel_pico():
                print(messages.BOOTSEL, file=sys.stderr)
            return 1
        print(port)
    elif a.command == "deploy":
        commands.deploy(board, dry_run=a.dry_run, **deploy_args)
    elif a.command == "play":
        return commands.play(board, **deploy_args)
    elif a.command == "check":
        res = commands.check(board, root)
        for m, r in sorted(res.items()):
            print(f"{m:<24} {r}")
        failed = sorted(m for m, r in res.items() if r.startswith("FAIL"))
        if "ssd1306" in failed:
            print(
                "check: the display driver ssd1306 is missing on the board: make deploy installs it "
                "(or make deploy DRIVER=path/to/ssd1306.py)",
                file=sys.stderr,
            )
        if failed or not res:
            print(
                f"check: {len(failed)} of {len(res)} modules failed to import on the board", file=sys.stderr
            )
            return 1
        print(f"check: all {len(res)} modules import on the board")
    elif a.command == "mount":
        entries = import_closure(root)
        build(entries, build_dir)
        return commands.mount(board, build_dir)
    elif a.command == "repl":
        return commands.console(board)
    elif a.command == "reset":
        commands.reset(board)
    elif a.command == "logs":
        print(commands.logs(board), end="")
    elif a.command == "wipe":
        commands.wipe(board, a.yes)
    elif a.command == "size":
        attached = a.port or find_pico()
        print(
            size_report(
                Board(attached) if attached else None,
                root=root,
                build_dir=build_dir,
                emulate=not a.no_emulate,
            )
        )
    elif a.command == "package-json":
        text = package_json_text(root)
        target = root / "package.json"
        if a.check:
            if not target.is_file() or target.read_text() != text:
                print("package.json is stale: run `make package-json`", file=sys.stderr)
                return 1
            print("package.json is up to date")
        else:
            target.write_text(text)
            print(f"wrote {target}")
    return 0


def main(argv: list[str] | None = None) -> int:
    a = parse(argv)
    try:
        return run(a)
    except DeployError as e:
        print(f"{a.command}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{a.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
