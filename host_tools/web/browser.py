"""Debian's Chromium, driven by Selenium through Debian's chromedriver: nothing is downloaded.

``chromium()`` starts a head-less browser with a fresh profile in a temporary
folder; the tests, ``make screenshots`` and the measurements use it.  Selenium
is handed the chromedriver path, so its Selenium Manager never looks for (or
fetches) a browser or a driver.  ``missing()`` says in one line what to install.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager

CHROMIUM_NAMES = ("chromium", "chromium-browser")
DRIVER_NAMES = ("chromedriver",)
DEBIAN_DIRS = ("/usr/bin", "/usr/lib/chromium")
INSTALL_HINT = "apt-get install -y chromium chromium-driver  (as root; Debian's packages)"
WINDOW = (900, 1000)
FLAGS = (
    "--headless=new",
    "--no-sandbox",  # CI containers run as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--autoplay-policy=no-user-gesture-required",
)


class BrowserMissing(RuntimeError):
    pass


def _find(names: tuple[str, ...]) -> str | None:
    for n in names:
        found = shutil.which(n)
        if found:
            return found
    for d in DEBIAN_DIRS:
        for n in names:
            p = os.path.join(d, n)
            if os.access(p, os.X_OK):
                return p
    return None


def find() -> tuple[str | None, str | None]:
    """(chromium binary, chromedriver binary); None for what is not installed."""
    return _find(CHROMIUM_NAMES), _find(DRIVER_NAMES)


def missing() -> str | None:
    """One line saying what is missing for the browser tests, or None when all is there."""
    browser, driver = find()
    lacking = [n for n, p in (("chromium", browser), ("chromium-driver", driver)) if p is None]
    try:
        import selenium  # noqa: F401
    except ImportError:
        lacking.append("selenium (make setup)")
    if not lacking:
        return None
    return f"the web page's tests need {', '.join(lacking)}: {INSTALL_HINT}"


@contextmanager
def chromium(*, width: int = WINDOW[0], height: int = WINDOW[1]):
    """A head-less Chromium (a Selenium WebDriver) with a throw-away profile."""
    why = missing()
    if why:
        raise BrowserMissing(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver_path = find()
    with tempfile.TemporaryDirectory(prefix="gin-chromium-") as profile:
        opts = webdriver.ChromeOptions()
        opts.binary_location = browser
        for f in FLAGS:
            opts.add_argument(f)
        opts.add_argument(f"--user-data-dir={profile}")
        opts.add_argument(f"--window-size={width},{height}")
        drv = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
        try:
            yield drv
        finally:
            drv.quit()
