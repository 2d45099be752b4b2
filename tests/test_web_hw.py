"""The browser's hardware (host_tools/web/static/webhw.py) and the site build, without a browser.

webhw.py runs in the page under MicroPython; the checks below run on CPython and,
the very same code, under the MicroPython WebAssembly port.
"""

import json

import pytest

from contractcheck import page_calls, page_methods
from host_tools.micropython.runner import DEFAULT_PATHS, run
from host_tools.simulator import keys as keymap
from host_tools.web import build

STATIC = build.STATIC

# Plain Python that both interpreters run: webhw's storage and buttons against the firmware's own classes.
CHECKS = r"""
from device.buttons import DISCARD, DRAW, KNOCK, LONG, PRESS, RELEASE, UP
from device.storage import FileStorage
from webhw import MIN_HOLD_MS, Buttons, LocalStorageFS


class Store:
    # window.localStorage's three methods, over a dict
    def __init__(self, full=False):
        self.items = {}
        self.full = full

    def getItem(self, k):
        return self.items.get(k)

    def setItem(self, k, v):
        if self.full:
            raise RuntimeError("QuotaExceededError")
        self.items[k] = v

    def removeItem(self, k):
        self.items.pop(k, None)


class FakeClock:
    def __init__(self):
        self.now = 1000

    def ticks_ms(self):
        return self.now % (1 << 30)


def storage_checks():
    store = Store()
    st = FileStorage("", fs=LocalStorageFS(store))
    assert st.read("game.sav") is None
    st.write_atomic("game.sav", b"first\x00\xff")
    st.write_atomic("game.sav", b"second")
    assert st.read("game.sav") == b"second"
    assert st.read_backup("game.sav") == b"first\x00\xff"  # the replaced copy is the backup
    assert st.read_temp("game.sav") is None
    assert sorted(store.items) == ["gin-handheld/game.sav", "gin-handheld/game.sav.bak"], store.items
    store.items["gin-handheld/game.sav"] = "not hex at all"  # edited by hand: bytes, no crash
    assert st.read("game.sav") is not None
    store.full = True
    try:
        st.write_atomic("game.sav", b"third")
        raise AssertionError("a full storage must refuse")
    except OSError:
        pass
    assert st.read_backup("game.sav") == b"first\x00\xff"  # nothing lost
    store.full = False
    st.remove("game.sav")
    assert store.items == {}, store.items


def run_until(clock, b, t):
    out = []
    while clock.now < t:
        clock.now += 1
        out.extend((clock.now, e) for e in b.events())
    return out


def button_checks():
    clock = FakeClock()
    b = Buttons(clock)
    # a click of 2 ms (shorter than the debounce) still makes one press and one release
    b.change(DRAW, True)
    clock.now += 2
    b.change(DRAW, False)
    evs = run_until(clock, b, clock.now + 100)
    assert [e for _t, e in evs] == [DRAW * 4 + PRESS, DRAW * 4 + RELEASE], evs
    # Shift+k: a long press of its own length
    b.change(KNOCK, True, 700)
    evs = [e for _t, e in run_until(clock, b, clock.now + 800)]
    assert evs == [KNOCK * 4 + PRESS, KNOCK * 4 + LONG, KNOCK * 4 + RELEASE], evs
    # a held key (mouse button down) repeats the d-pad until released
    b.change(UP, True)
    evs = [e & 3 for _t, e in run_until(clock, b, clock.now + 1000)]
    assert evs[0] == PRESS and evs.count(2) >= 4, evs
    b.change(UP, False)
    run_until(clock, b, clock.now + 50)
    assert b.held() == 0
    # a tab in the background for an hour: no hour of samples replayed, nothing invented
    clock.now += 3600 * 1000
    assert b.events() == []
    b.change(DISCARD, True)
    b.release_all()  # the page lost the focus mid-press
    evs = [e for _t, e in run_until(clock, b, clock.now + 100)]
    assert evs == [DISCARD * 4 + PRESS, DISCARD * 4 + RELEASE], evs
    assert MIN_HOLD_MS > 15


def contract_checks():
    # the whole WebHw, on a page object with gin.mjs's methods (PAGE_METHODS, added below)
    from device.contract import missing
    from webhw import WebHw

    class Page:
        def __init__(self):
            self.calls = []

    for name in PAGE_METHODS:
        setattr(Page, name, lambda self, *a, _n=name: self.calls.append(_n))
    for store in (Store(), None):
        page = Page()
        hw = WebHw(page, store)
        assert missing(hw) == [], missing(hw)
        hw.display.show(bytes(1024))
        hw.display.contrast(10)
        hw.led.set(True)
        hw.sound.tone(440, 50)
        assert page.calls == ["show", "contrast", "led", "tone"], page.calls
        hw.log("a line")
        assert hw.storage.read("crash.log") == b"a line\n"


"""
# The page's methods as gin.mjs defines them, then the checks.
CHECKS += "\nPAGE_METHODS = %r\nstorage_checks()\nbutton_checks()\ncontract_checks()\nprint('webhw ok')\n" % (
    page_methods(),
)


def test_webhw_keeps_the_storage_contract_and_the_debouncer_on_cpython(monkeypatch):
    import time

    monkeypatch.syspath_prepend(str(STATIC))
    # MicroPython's clock, which WebHw's Clock reads
    monkeypatch.setattr(time, "ticks_ms", lambda: int(time.monotonic() * 1000) % (1 << 30), raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    ns = {"__name__": "checks"}
    exec(compile(CHECKS, "webhw-checks", "exec"), ns)


def test_webhw_does_the_same_under_micropython():
    out = run(CHECKS, paths=list(DEFAULT_PATHS) + [(STATIC, "/web")])
    assert out.strip().endswith("webhw ok"), out


def test_webhw_calls_exactly_the_methods_of_the_pages_object():
    """webhw.py's side of the browser (``self._page.x(...)``) and gin.mjs's ``page`` object agree:
    nothing webhw calls is missing from the page, nothing on the page goes uncalled."""
    assert page_calls() == page_methods() == ["contrast", "led", "power", "reload", "show", "tone"]
    # and the readers can tell
    js = (STATIC / "gin.mjs").read_text()
    assert "reload" not in page_methods(js.replace("  reload() {", "  reloaded() {"))
    assert "vibrate" in page_calls((STATIC / "webhw.py").read_text() + "\nself._page.vibrate(1)\n")


def test_the_site_holds_the_firmware_compiled_and_the_wasm_port(tmp_path):
    site = build.build_site(tmp_path / "web")
    for name in ("index.html", "gin.mjs", "style.css", "micropython.mjs", "micropython.wasm", "fw.bin"):
        assert (site.out / name).is_file(), name
    wanted = {"/fw/main.mpy", "/web/webhw.mpy"} | {
        "/fw/" + p.relative_to(build.FIRMWARE).with_suffix(".mpy").as_posix()
        for p in build.FIRMWARE.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    got = {path for path, _o, _n in site.modules}
    assert got == wanted
    bundle = (site.out / "fw.bin").read_bytes()
    assert sum(n for _p, _o, n in site.modules) == len(bundle)
    for path, offset, size in site.modules:
        assert bundle[offset] == ord("M"), path  # an .mpy file, not a source copy
        assert size > 0
    html = (site.out / "index.html").read_text()
    info = json.loads(html.split('id="gin-build">', 1)[1].split("</script>", 1)[0])
    # the page's keys are the terminal simulator's keys
    assert info["keys"]["d"] == [keymap.DRAW, keymap.TAP_MS]
    assert info["keys"]["K"] == [keymap.KNOCK, keymap.LONG_HOLD_MS]
    assert info["keys"]["S-left"] == [keymap.LEFT, keymap.LONG_HOLD_MS]
    assert info["commands"]["?"] == "help"
    for name, meta in info["files"].items():
        assert meta["size"] == site.files[name]
        if name != "fw.bin":
            assert f"{name}?v={meta['v']}" in html or name not in ("gin.mjs", "style.css")
    # no copy of the firmware among the page's sources
    assert not any(p.name in {"app.py", "savegame.py"} for p in STATIC.rglob("*"))


def test_the_build_refuses_a_template_it_cannot_fill(tmp_path, monkeypatch):
    fake = tmp_path / "static"
    fake.mkdir()
    for p in STATIC.iterdir():
        (fake / p.name).write_bytes(p.read_bytes())
    (fake / "index.html").write_text("<p>{{V:nothing.js}}</p>")
    monkeypatch.setattr(build, "STATIC", fake)
    with pytest.raises(build.BuildError, match="placeholder"):
        build.build_site(tmp_path / "out")


def test_make_web_builds_serves_and_prints_the_address(tmp_path):
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools.web", "--port", "0", "--out", str(tmp_path / "web")],
        cwd=build.ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        assert lines[0].startswith("Built "), lines
        assert lines[1].startswith("Play at http://127.0.0.1:"), lines
        url = lines[1].split()[2]
        with urllib.request.urlopen(url) as r:
            assert b'id="gin-build"' in r.read()
        with urllib.request.urlopen(url + "micropython.wasm") as r:
            assert r.headers["Content-Type"] == "application/wasm"
            assert r.read(4) == b"\0asm"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Stopped." in out


def test_a_missing_browser_is_named_with_the_command_that_installs_it(monkeypatch):
    from host_tools.web import browser

    monkeypatch.setattr(browser, "find", lambda: (None, "/usr/bin/chromedriver"))
    msg = browser.missing()
    assert msg is not None and "chromium" in msg and "apt-get install -y chromium chromium-driver" in msg
    with pytest.raises(browser.BrowserMissing, match="chromium"):
        with browser.chromium():
            pass
    monkeypatch.setattr(browser, "find", lambda: ("/usr/bin/chromium", "/usr/bin/chromedriver"))
    assert browser.missing() is None


def test_a_client_that_hangs_up_mid_file_prints_no_traceback(tmp_path, capsys):
    """A browser that cancels a download (or a test that reads 4 bytes) is not an error."""
    import urllib.request

    from host_tools.web.serve import serve

    (tmp_path / "big.wasm").write_bytes(b"\0asm" + bytes(4_000_000))
    with serve(tmp_path, 0) as s:
        for _ in range(10):
            with urllib.request.urlopen(s.url + "big.wasm") as r:
                assert r.read(4) == b"\0asm"
    assert "Traceback" not in capsys.readouterr().err
