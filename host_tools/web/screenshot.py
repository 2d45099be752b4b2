"""The README's picture of the web page: the page in Chromium, a game dealt, the blue-yellow glass.

    python -m host_tools.web.screenshot [--out docs/screenshots/web.png]

The page is built and served from a temporary folder, opened in a fresh head-less
Chromium (Debian's; nothing is downloaded) with the README's seed, and a new game
is started from the keyboard.  The picture is taken once the canvas shows the very
frame the simulator shows for the same keys, so the game part of it never drifts.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from host_tools.simulator.screenshot import README_SEED, SHOTS_DIR
from host_tools.web import browser
from host_tools.web.build import build_site
from host_tools.web.driving import PageError, key, simulate, wait_for, wait_ready
from host_tools.web.serve import serve

OUT = SHOTS_DIR / "web.png"
KEYS = "wait:300 d wait:2500 shot:table"
WINDOW = (760, 900)


def take(out: Path = OUT) -> Path:
    with tempfile.TemporaryDirectory(prefix="gin-webshot-") as tmp:
        tmp = Path(tmp)
        want = simulate(KEYS, README_SEED, tmp / "saves", tmp / "shots")["table"]
        site = build_site(tmp / "web")
        with serve(site.out, 0) as server, browser.chromium(width=WINDOW[0], height=WINDOW[1]) as drv:
            drv.get(f"{server.url}?seed={README_SEED}&palette=blue-yellow")
            wait_ready(drv)
            key(drv, "d")
            wait_for(drv, want, "the README's deal", timeout=15)
            out.parent.mkdir(parents=True, exist_ok=True)
            from selenium.webdriver.common.by import By

            drv.find_element(By.ID, "device").screenshot(str(out))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m host_tools.web.screenshot", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    why = browser.missing()
    if why:
        print(f"can't take the web page's picture: {why}", file=sys.stderr)
        return 1
    try:
        path = take(args.out)
    except PageError as e:
        print(f"the web page's picture failed: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
