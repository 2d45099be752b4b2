"""The README's pictures of the simulated glass, made anew from a key script.

    python -m host_tools.simulator.screenshot            # regenerate docs/screenshots/*.png
    python -m host_tools.simulator.screenshot --check    # fail if the committed pictures are stale

The README pictures come from ``docs/screenshots/readme.keys``: a key script
played head-less on a virtual clock with a fixed seed, so the same firmware
always gives the same pictures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS_DIR = ROOT / "docs" / "screenshots"
README_SCRIPT = SHOTS_DIR / "readme.keys"
README_SEED = 2020
README_PALETTE = "blue-yellow"
README_SCALE = 4
README_BEZEL = 12


def make_readme_shots(out_dir: Path, *, script: Path = README_SCRIPT) -> list[Path]:
    """Play the README script in a fresh save folder; returns the pictures written."""
    from host_tools.simulator import keys as keymap
    from host_tools.simulator.session import ScriptRunner, Session

    steps = keymap.parse_script(script.read_text())
    with tempfile.TemporaryDirectory(prefix="gin-shots-") as tmp:
        session = Session(tmp, virtual=True, seed=README_SEED)
        runner = ScriptRunner(
            session, shots_dir=out_dir, palette=README_PALETTE, scale=README_SCALE, bezel=README_BEZEL
        )
        runner.run(steps)
        return runner.shots


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m host_tools.simulator.screenshot", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--out", type=Path, default=SHOTS_DIR, help="output folder (default docs/screenshots)")
    p.add_argument("--script", type=Path, default=README_SCRIPT)
    p.add_argument(
        "--check", action="store_true", help="compare with the pictures in --out instead of writing"
    )
    args = p.parse_args(argv)
    if not args.check:
        shots = make_readme_shots(args.out, script=args.script)
        for s in shots:
            print(s.relative_to(ROOT) if s.is_relative_to(ROOT) else s)
        return 0
    from PIL import Image, ImageChops

    with tempfile.TemporaryDirectory() as tmp:
        fresh = make_readme_shots(Path(tmp), script=args.script)
        stale = []
        for f in fresh:
            old = args.out / f.name
            if not old.exists():
                stale.append(f"{old}: missing")
                continue
            with Image.open(f) as a, Image.open(old) as b:
                if a.size != b.size or ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox():
                    stale.append(f"{old}: differs")
    for s in stale:
        print(s, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
