"""Build the web page: a static folder that plays the firmware in any browser.

    python -m host_tools.web.build [--out build/web]

What goes in (nothing is a copy kept in git):

* ``micropython.mjs`` and ``micropython.wasm``: MicroPython's WebAssembly port,
  the npm package the tests run the firmware in (host_tools/mpwasm);
* ``fw.bin``: every module of firmware/ and main.py compiled with mpy-cross, as
  on the Pico, plus the browser's hardware (static/webhw.py), back to back; the
  page unpacks them into MicroPython's file system;
* the page itself from static/: index.html (with the build's facts filled in:
  file versions, the bundle's table of contents, the keys of host_tools/simulator/keys.py,
  the palettes of host_tools/hw/oled_view.py), gin.mjs, style.css, favicon.svg.

Every file name the page asks for carries ``?v=`` and a hash of its bytes, so a
static host's cache never mixes two builds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from host_tools.deploy import DeployError
from host_tools.deploy.compile import compile_mpy, mpy_cross_binary
from host_tools.deploy.fold import fold
from host_tools.hw.oled_view import PALETTES, UNLIT, contrast_level
from host_tools.micropython.runner import WASM_MODULE, MicroPythonError, ensure_node_deps
from host_tools.simulator import keys as keymap

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent / "static"
DEFAULT_OUT = ROOT / "build" / "web"
FIRMWARE = ROOT / "firmware"
WASM_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("gin.mjs", "style.css", "favicon.svg")
FW_DIR = "/fw"  # the firmware in MicroPython's file system, laid out as on the Pico's flash
WEB_DIR = "/web"  # the page's own Python (webhw)
HEAP_BYTES = 256 * 1024  # the first heap; the WebAssembly port grows it when it must
PYSTACK_WORDS = 16384  # as host_tools/mpwasm/run.mjs: the meld search recurses


class BuildError(Exception):
    pass


@dataclass
class Site:
    out: Path
    files: dict[str, int] = field(default_factory=dict)  # file name -> bytes
    modules: list[tuple[str, int, int]] = field(default_factory=list)  # (path, offset, size) in fw.bin

    @property
    def total_bytes(self) -> int:
        return sum(self.files.values())


def _sources() -> list[tuple[str, Path]]:
    """(path in MicroPython's file system, source) for every module the page needs."""
    out = [(f"{FW_DIR}/main.py", ROOT / "main.py")]
    for src in sorted(FIRMWARE.rglob("*.py")):
        if "__pycache__" in src.parts:
            continue
        out.append((f"{FW_DIR}/{src.relative_to(FIRMWARE).as_posix()}", src))
    out.append((f"{WEB_DIR}/webhw.py", STATIC / "webhw.py"))
    return out


def compile_modules(tmp: Path) -> list[tuple[str, bytes]]:
    """Every source compiled to .mpy as deploy does it, the firmware's constants folded into the
    code that reads them (host_tools/deploy/fold.py): (path in MicroPython's file system, bytes)."""
    try:
        tool = mpy_cross_binary()
        sources = _sources()
        modules = {_module(fs_path): src.read_text() for fs_path, src in sources}
        folded = fold(modules)
        out = []
        for fs_path, _src in sources:
            mpy_path = fs_path[: -len(".py")] + ".mpy"
            dst = tmp / mpy_path.lstrip("/")
            dst.parent.mkdir(parents=True, exist_ok=True)
            src = dst.with_suffix(".src.py")
            src.write_text(folded[_module(fs_path)])
            # the name tracebacks show, as on the device
            compile_mpy(src, dst, fs_path.rsplit("/", 1)[-1], tool)
            out.append((mpy_path, dst.read_bytes()))
    except DeployError as e:
        raise BuildError(str(e)) from None
    return out


def _module(fs_path: str) -> str:
    """The import name of a file of the page's file system: /fw/gin/cards.py -> gin.cards."""
    parts = fs_path.split("/")[2:]
    parts[-1] = parts[-1][: -len(".py")]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def key_table() -> tuple[dict[str, list[int]], dict[str, str]]:
    """The terminal simulator's keys (host_tools/simulator/keys.py) for the page: buttons and commands."""
    keys = {tok: [p.button, p.hold_ms] for tok, p in keymap.KEYMAP.items() if isinstance(p, keymap.Press)}
    page_commands = {"help": "help", "screenshot": "screenshot"}  # quit, redraw, ... mean nothing on a page
    commands = {
        tok: page_commands[c.name]
        for tok, c in keymap.KEYMAP.items()
        if isinstance(c, keymap.Command) and c.name in page_commands
    }
    return keys, commands


def _version(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def build_site(out: Path = DEFAULT_OUT) -> Site:
    """Write the site into ``out`` (emptied first); returns what was written."""
    out = Path(out)
    try:
        ensure_node_deps()
    except MicroPythonError as e:
        raise BuildError(str(e)) from None
    with tempfile.TemporaryDirectory(prefix="gin-web-") as tmp:
        modules = compile_modules(Path(tmp))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    site = Site(out)
    blobs: dict[str, bytes] = {}
    for name in WASM_FILES:
        blobs[name] = (WASM_MODULE.parent / name).read_bytes()
    bundle = bytearray()
    for path, data in modules:
        site.modules.append((path, len(bundle), len(data)))
        bundle += data
    blobs["fw.bin"] = bytes(bundle)
    for name in PAGE_FILES:
        blobs[name] = (STATIC / name).read_bytes()
    keys, commands = key_table()
    info = {
        "files": {name: {"size": len(data), "v": _version(data)} for name, data in blobs.items()},
        "modules": site.modules,
        "sys_path": [FW_DIR, WEB_DIR],
        "heap_bytes": HEAP_BYTES,
        "pystack_words": PYSTACK_WORDS,
        "keys": keys,
        "commands": commands,
        "tap_ms": keymap.TAP_MS,
        "palettes": {
            name: {"lit": list(p.lit), "top": list(p.top), "split_row": p.split_row}
            for name, p in PALETTES.items()
        },
        "unlit": list(UNLIT),
        "contrast": {"floor": contrast_level(0)},
    }
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for name, meta in info["files"].items():
        html = html.replace("{{V:%s}}" % name, meta["v"])
    # JSON inside <script>: "</" must not close the element early
    html = html.replace("{{BUILD}}", json.dumps(info, separators=(",", ":")).replace("</", "<\\/"))
    if "{{" in html:
        raise BuildError("index.html: a {{...}} placeholder the build does not fill")
    blobs["index.html"] = html.encode("utf-8")
    blobs[".nojekyll"] = b""  # GitHub Pages: serve the folder as it is
    for name, data in blobs.items():
        (out / name).write_bytes(data)
        site.files[name] = len(data)
    return site


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m host_tools.web.build", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default build/web)")
    args = p.parse_args(argv)
    try:
        site = build_site(args.out)
    except BuildError as e:
        print(f"web build failed: {e}", file=sys.stderr)
        return 1
    print(
        f"built {site.out} ({len(site.files)} files, {site.total_bytes / 1024:.0f} KB; "
        f"{len(site.modules)} MicroPython modules)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
