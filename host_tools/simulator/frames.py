"""PNG files of the simulated glass: one picture, or a numbered frame for every change."""

from __future__ import annotations

from pathlib import Path

from host_tools.hw.oled_view import save_png
from host_tools.hw.ssd1306_model import Glass


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
    """Writes DIR/frame-00001.png ... for every change of the glass the host display (fake_hw.Display) reports.

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
