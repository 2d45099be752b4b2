"""Play the page from Python: read its canvas as a frame, press keys and buttons, wait for a frame.

Shared by the browser tests, ``make screenshots`` and the measurements.  A frame
is the App's 1024 bytes (MONO_VLSB, as the SSD1306 takes them), read back from
the canvas's pixels: any pixel that is not the unlit colour is lit.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from host_tools.hw.oled_view import UNLIT, frame_to_text_art

ROOT = Path(__file__).resolve().parents[2]
KEY_UP = "\ue013"  # Selenium's codes for the arrow keys
KEY_DOWN = "\ue015"
KEY_LEFT = "\ue012"
KEY_RIGHT = "\ue014"

_READ_CANVAS = """
const c = document.getElementById("screen"), s = window.gin.scale, u = arguments[0];
const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
const out = new Array(1024).fill(0);
for (let y = 0; y < 64; y++) {
  for (let x = 0; x < 128; x++) {
    const i = ((y * s + (s >> 1)) * c.width + x * s + (s >> 1)) * 4;
    if (d[i] !== u[0] || d[i + 1] !== u[1] || d[i + 2] !== u[2]) out[(y >> 3) * 128 + x] |= 1 << (y & 7);
  }
}
return out;
"""


class PageError(AssertionError):
    pass


def wait_ready(drv, timeout: float = 15.0) -> None:
    """Until the page has drawn its first frame (the App is running and takes keys)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = drv.execute_script("return window.gin ? [window.gin.frames, window.gin.error] : [0, null]")
        if state[1]:
            raise PageError(f"the page failed: {state[1]}")
        if state[0]:
            return
        time.sleep(0.02)
    raise PageError(f"the page drew nothing in {timeout:.0f} s")


def canvas(drv) -> bytes:
    """The frame the page's canvas shows now."""
    return bytes(drv.execute_script(_READ_CANVAS, list(UNLIT)))


def wait_for(drv, want: bytes, what: str, timeout: float = 8.0) -> None:
    """Poll the canvas until it shows ``want``; PageError with both pictures when it does not."""
    end = time.monotonic() + timeout
    got = None
    while time.monotonic() < end:
        err = drv.execute_script("return window.gin && window.gin.error")
        if err:
            raise PageError(f"{what}: the page failed: {err}")
        if drv.execute_script("return !!(window.gin && window.gin.frames)"):
            got = canvas(drv)
            if got == want:
                return
        time.sleep(0.05)
    shown = frame_to_text_art(got) if got else "(nothing drawn)"
    raise PageError(
        f"{what}: the page never showed the simulator's frame\n"
        f"wanted:\n{frame_to_text_art(want)}\nshown:\n{shown}"
    )


def key(drv, k: str) -> None:
    """Type ``k`` (a character or a Selenium key code): key down, key up."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(drv).send_keys(k).perform()


def button(drv, name: str):
    """The on-screen button labelled ``name`` (DRAW, KNOCK, ... or an arrow's label)."""
    from selenium.webdriver.common.by import By

    return drv.find_element(By.XPATH, f"//button[@data-button and normalize-space()='{name}']")


def stored(drv, name: str) -> bytes | None:
    """A file of the game's storage in the page's localStorage."""
    v = drv.execute_script("return localStorage.getItem(arguments[0])", "gin-handheld/" + name)
    return None if v is None else bytes.fromhex(v)


def png_frame(path: Path) -> bytes:
    """A simulator picture at scale 1 -> the frame it shows."""
    from PIL import Image

    with Image.open(path) as im:
        im = im.convert("RGB")
        if im.size != (128, 64):
            raise ValueError(f"{path}: {im.size}, not a scale-1 picture")
        px = im.load()
        out = bytearray(1024)
        for y in range(64):
            for x in range(128):
                if px[x, y] != UNLIT:
                    out[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(out)


def simulate(keys: str, seed: int, save_dir: Path, shots_dir: Path) -> dict[str, bytes]:
    """The simulator's head-less mode (--seed --keys --save-dir); returns {shot name: frame}."""
    cmd = [sys.executable, "-m", "host_tools.simulator", "--seed", str(seed), "--keys", keys]
    cmd += ["--save-dir", str(save_dir), "--shots-dir", str(shots_dir), "--scale", "1"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"the simulator failed: {r.stderr.strip()}")
    return {p.stem: png_frame(p) for p in Path(shots_dir).glob("*.png")}
