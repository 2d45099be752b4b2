"""PNG pictures of the simulated glass: single shots, numbered frames, the README set.

    python -m host_tools.screenshot            # regenerate docs/screenshots/*.png
    python -m host_tools.screenshot --check    # fail if the committed pictures are stale

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

from host_tools.oled_view import save_png
from host_tools.ssd1306_model import Glass

ROOT = Path(__file__).resolve().parent.parent
SHOTS_DIR = ROOT / "docs" / "screenshots"
README_SCRIPT = SHOTS_DIR / "readme.keys"
README_SEED = 2020
README_PALETTE = "blue-yellow"
README_SCALE = 4
README_BEZEL = 12


def save_glass(
    glass: Glass,
    path: str | Path,
    *,
    palette: str = "white",
    scale: int = 4,
    bezel: int = 0,
) -> None:
    """The glass as a PNG that looks like the module (pixel gaps, unlit pixels dark)."""
    save_png(glass, str(path), scale=scale, palette_name=palette, gaps=scale >= 3, bezel=bezel)


class FrameRecorder:
    """Writes DIR/frame-00001.png ... for every change of the glass a SimDisplay reports.

    Contrast and power changes count too (dimming is visible on the glass);
    a frame identical to the previous picture is not written twice.
    """

    def __init__(self, display, directory: str | Path, *, palette: str = "white", scale: int = 4) -> None:
        self.display = display
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("frame-*.png"):
            old.unlink()
        self.palette = palette
        self.scale = scale
        self.count = 0
        self._last: Glass | None = None
        display.listeners.append(self._on_change)

    def _on_change(self, display, frame) -> None:
        glass = display.glass()
        if glass == self._last:
            return
        self._last = glass
        self.count += 1
        save_glass(glass, self.dir / f"frame-{self.count:05d}.png", palette=self.palette, scale=self.scale)

    def close(self) -> None:
        if self._on_change in self.display.listeners:
            self.display.listeners.remove(self._on_change)


def make_readme_shots(out_dir: Path, *, script: Path = README_SCRIPT) -> list[Path]:
    """Play the README script in a fresh save folder; returns the pictures written."""
    from host_tools import keymap
    from host_tools.simulator import ScriptRunner, Session

    steps = keymap.parse_script(script.read_text())
    with tempfile.TemporaryDirectory(prefix="gin-shots-") as tmp:
        session = Session(tmp, virtual=True, seed=README_SEED)
        runner = ScriptRunner(
            session, shots_dir=out_dir, palette=README_PALETTE, scale=README_SCALE, bezel=README_BEZEL
        )
        runner.run(steps)
        return runner.shots


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m host_tools.screenshot", description=__doc__.split("\n\n")[0])
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
