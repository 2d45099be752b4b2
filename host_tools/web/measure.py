"""Measure the web page in Chromium: bytes on the first load, time to the title, frames in watch mode.

    python -m host_tools.web.measure [--watch-s 20] [--cached-runs 5]

* page weight: the bytes transferred on a first visit (fresh profile; Resource
  Timing's transferSize, headers included), and what a host that gzips would send;
* time to the title: navigation start to the first frame on the canvas, on a first
  visit (cold) and on later visits (cached: every file revalidated, 304s);
* the first key of a visit: the longest task of the page from that key on (the
  browser calls over 50 ms a long task) and the time from the key to the canvas;
* a tap: from a touch on an on-screen button (touch emulation; the event's time
  stamp) to the canvas drawn after it, the median of 20 taps;
* watch mode: the frames the page draws per second while the computer plays
  itself, and the time a step that draws a frame takes (the App's drawing, the
  hex hand-over and the canvas) -> the frame rate the page could sustain.

``--readme`` also writes the weight, load, tap and first-key figures into README.md,
between its two web-measure marker lines (tests/test_web_browser.py holds the weight there
to the page's build).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

from host_tools.web import browser
from host_tools.web.build import build_site
from host_tools.web.driving import KEY_DOWN, KEY_RIGHT, KEY_UP, key, wait_ready
from host_tools.web.serve import serve

TRANSFERRED = """
const nav = performance.getEntriesByType("navigation")[0];
let n = nav ? nav.transferSize : 0;
for (const r of performance.getEntriesByType("resource")) n += r.transferSize;
return n;
"""


LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push([e.startTime, e.duration]); })
  .observe({ type: "longtask", buffered: true });
"""
TAPS = 20


def _first_key(drv) -> tuple[float, float]:
    """(longest task from the first key on, key to canvas) in ms, after a person's pause on the title."""
    drv.execute_script(LONG_TASKS)
    time.sleep(1.5)
    t0 = drv.execute_script("return performance.now()")
    key(drv, KEY_DOWN)
    time.sleep(1.0)
    longest = max([d for s, d in drv.execute_script("return longTasks") if s + d >= t0], default=0.0)
    key(drv, KEY_UP)  # back to the first row
    return float(longest), float(drv.execute_script("return gin.inputToFrame[0]"))


def _taps(drv) -> list[float]:
    """Touch to canvas of TAPS taps on the on-screen arrows at the title (down, up, ...)."""
    where = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];"
    drv.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})
    drv.execute_script("gin.inputToFrame = []")
    for i in range(TAPS):
        x, y = drv.execute_script(where, '[aria-label="Down"]' if i % 2 == 0 else '[aria-label="Up"]')
        drv.execute_cdp_cmd(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        time.sleep(0.06)
        drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        time.sleep(0.25)
    drv.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    return [float(v) for v in drv.execute_script("return gin.inputToFrame")]


def _load(drv, url: str) -> tuple[float, int]:
    drv.get(url)
    wait_ready(drv, timeout=30)
    first = drv.execute_script("return window.gin.firstFrameMs")
    time.sleep(0.3)  # late resources (favicon) settle
    return float(first), int(drv.execute_script(TRANSFERRED))


def measure(watch_s: float = 20.0, cached_runs: int = 5) -> dict[str, object]:
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="gin-webmeasure-") as tmp:
        site = build_site(Path(tmp) / "web")
        out["files"] = dict(site.files)
        out["bytes"] = site.total_bytes
        out["gzip_bytes"] = sum(len(gzip.compress((site.out / n).read_bytes(), 9)) for n in site.files)
        with serve(site.out, 0) as server, browser.chromium() as drv:
            cold_ms, cold_bytes = _load(drv, server.url)
            out["first_key_longest_ms"], out["first_key_ms"] = _first_key(drv)
            cached = [_load(drv, server.url) for _ in range(cached_runs)]
            out["cold_ms"] = cold_ms
            out["cold_transferred"] = cold_bytes
            out["cached_ms"] = [round(c[0]) for c in cached]
            out["cached_transferred"] = cached[-1][1]
            out["tap_ms"] = _taps(drv)
            # watch mode: Play row -> Watch, then New game
            for k in (KEY_DOWN, KEY_RIGHT, KEY_RIGHT, KEY_UP, "d"):
                key(drv, k)
                time.sleep(0.2)
            time.sleep(1.0)
            probe = "return [gin.frames, gin.frameSteps, gin.frameStepMs, gin.renderMs]"
            s0 = drv.execute_script(probe)
            t0 = time.monotonic()
            time.sleep(watch_s)
            s1 = drv.execute_script(probe)
            dt = time.monotonic() - t0
            frames = s1[0] - s0[0]
            out["watch_fps"] = frames / dt
            steps = s1[1] - s0[1]
            out["frame_step_ms"] = (s1[2] - s0[2]) / steps if steps else float("nan")
            out["render_ms"] = (s1[3] - s0[3]) / frames if frames else float("nan")
            out["sustainable_fps"] = 1000.0 / out["frame_step_ms"] if steps else float("nan")
    return out


README = Path(__file__).resolve().parents[2] / "README.md"
README_BEGIN = "<!-- make web-measure writes the figures below (host_tools/web/measure.py --readme) -->"
README_END = "<!-- end of make web-measure's figures -->"


def readme_text(m: dict[str, object]) -> str:
    """The README's sentences of figures, from a measurement."""
    taps = m["tap_ms"]
    longest = m["first_key_longest_ms"]
    long = "no long task" if longest <= 50 else f"a long task of {longest:.0f} ms"
    text = (
        f"A first visit transfers about {m['cold_transferred'] / 1000:.0f} KB (about "
        f"{m['gzip_bytes'] / 1000:.0f} KB from a host that compresses); the title shows about "
        f"{m['cold_ms'] / 1000:.1f} s after the address is entered, "
        f"{statistics.median(m['cached_ms']) / 1000:.1f} s once cached. A tap on an on-screen button "
        f"reaches the canvas in {statistics.median(taps):.0f} ms (median of {len(taps)} taps), the first "
        f"key of a visit in {m['first_key_ms']:.0f} ms ({long}). Head-less Chromium on the development "
        "machine, `make web-measure`."
    )
    return textwrap.fill(text, 100)


def write_readme(m: dict[str, object], path: Path = README) -> None:
    text = path.read_text(encoding="utf-8")
    head, rest = text.split(README_BEGIN + "\n", 1)
    _old, tail = rest.split(README_END, 1)
    path.write_text(head + README_BEGIN + "\n" + readme_text(m) + "\n" + README_END + tail, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m host_tools.web.measure", description=__doc__.split("\n\n")[0])
    p.add_argument("--watch-s", type=float, default=20.0, help="seconds of watch mode to count frames over")
    p.add_argument("--cached-runs", type=int, default=5)
    p.add_argument("--readme", action="store_true", help="write the figures into README.md as well")
    args = p.parse_args(argv)
    why = browser.missing()
    if why:
        print(f"can't measure the web page: {why}", file=sys.stderr)
        return 1
    m = measure(args.watch_s, max(1, args.cached_runs))
    print("web page (head-less Chromium on this machine, served from localhost)")
    for name, n in sorted(m["files"].items(), key=lambda kv: -kv[1]):
        print(f"  {name:18s} {n:>8,d} bytes")
    print(
        f"page weight, first visit     {m['cold_transferred']:>9,d} bytes transferred "
        f"({m['bytes']:,d} in the folder; {m['gzip_bytes']:,d} if the host gzips)"
    )
    print(f"page weight, later visits    {m['cached_transferred']:>9,d} bytes transferred (304s)")
    print(f"time to the title, cold      {m['cold_ms']:>9.0f} ms")
    cached = m["cached_ms"]
    print(f"time to the title, cached    {statistics.median(cached):>9.0f} ms median of {cached}")
    taps = m["tap_ms"]
    print(
        f"a tap, touch to canvas       {statistics.median(taps):>9.1f} ms median of {len(taps)} "
        f"(min {min(taps):.1f}, max {max(taps):.1f})"
    )
    print(
        f"the first key of a visit     {m['first_key_ms']:>9.1f} ms to the canvas; longest task from it on "
        f"{m['first_key_longest_ms']:.0f} ms (long: over 50)"
    )
    print(f"watch mode                   {m['watch_fps']:>9.2f} frames/s drawn (the game's own pace)")
    print(
        f"a step that draws a frame    {m['frame_step_ms']:>9.2f} ms (the computer's move included) -> "
        f"{m['sustainable_fps']:.0f} frames/s sustainable"
    )
    print(
        f"  of which the canvas        {m['render_ms']:>9.2f} ms per frame (hex -> pixels -> scaled canvas)"
    )
    if args.readme:
        write_readme(m)
        print(f"wrote the figures into {README}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
