"""The printable case: hardware/case/params.scad from the layout, then the STL files and pictures.

    python -m host_tools.hardware.case              # params.scad, build/case/*.stl, hardware/case/*.png
    python -m host_tools.hardware.case --check      # exit 1 if params.scad is stale
    python -m host_tools.hardware.case --fn 16      # coarser circles: faster (what the tests use)

The shells are drawn by hardware/case/case.scad (Debian's ``openscad``); every number it uses is
in params.scad, written here from host_tools/hardware/layout.py.  The pictures are drawn from the
STL files by host_tools/hardware/render.py (OpenSCAD's own PNG export needs an X display).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools.hardware import params as P
from host_tools.hardware.params import CASE_DIR, PARAMS

ROOT = Path(__file__).resolve().parents[2]
SCAD = CASE_DIR / "case.scad"
BUILD = ROOT / "build" / "case"
PARTS = ("front", "back")
NO_OPENSCAD = (
    "openscad is not installed: the case is drawn with Debian's openscad "
    "(as root: apt-get install -y openscad); `make case` and the case's tests need it"
)


def openscad() -> str:
    """The openscad program, or a SystemExit saying how to get it."""
    exe = shutil.which("openscad")
    if exe is None:
        raise SystemExit("ERROR: " + NO_OPENSCAD)
    return exe


def render_stl(part: str, out: Path, fn: int = 48) -> Path:
    """One shell as an STL, lying the way it prints."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [openscad(), "-q", "-D", f'part="{part}_print"', "-D", f"fn={fn}", "-o", str(out), str(SCAD)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not out.exists() or out.stat().st_size == 0:
        raise SystemExit(f"ERROR: openscad failed on the {part} shell:\n{r.stdout}{r.stderr}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if params.scad is stale")
    ap.add_argument("--fn", type=int, default=48, help="segments in a full circle")
    ap.add_argument("--out", type=Path, default=BUILD, help="where the STL files go")
    ap.add_argument("--no-png", action="store_true", help="skip the pictures")
    a = ap.parse_args(argv)
    text = P.params_text()
    if a.check:
        if PARAMS.read_text(encoding="utf-8") != text:
            print(f"{PARAMS}: stale; run `make case`", file=sys.stderr)
            return 1
        print(f"{PARAMS}: up to date")
        return 0
    from host_tools.hardware import fit

    problems = fit.problems(params=P.parse_params(text))  # the case about to be written
    if problems:
        print("the case does not fit:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    PARAMS.write_text(text, encoding="utf-8")
    stls = {p: render_stl(p, a.out / f"{p}.stl", a.fn) for p in PARTS}
    for path in stls.values():
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if not a.no_png:
        from host_tools.hardware import render

        for path in render.case_pictures(stls, CASE_DIR):
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
