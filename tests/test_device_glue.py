"""The device glue on a fake `machine`: the Pico's hw, its buttons, display, piezo and log, main.py
and boot.py, the watchdog, safe mode, and the title on the glass before the game's code loads.

The ``board`` fixture (a fake ``machine``, ``ssd1306`` and clock) is shared: tests/test_power.py,
test_sh1106.py and test_boot_guard.py use it too.
"""

import os
import sys
from pathlib import Path

import pytest

import app as appmod
from device.buttons import KNOCK, PRESS, event

from host_tools.hw.fake_hw import FakeHw

ROOT = Path(__file__).resolve().parent.parent

# --- the device glue, on a fake `machine` ---------------------------------------------------------


class _Machine:
    """Just enough of MicroPython's `machine` for device/, boot.py and main.py."""

    PWRON_RESET = 1
    WDT_RESET = 3

    def __init__(self):
        m = self
        self.levels = {}
        self.timers = []
        self.i2c_present = True
        self.i2c_fail = False
        self.i2c_writes = []
        self.resets = 0
        self.wdt = None
        self.mem32 = {0x40058000: 1 << 30}
        self.cause = 1

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, id, mode=None, pull=None, value=None):
                self.id = id
                if value is not None:
                    m.levels[id] = value

            def value(self, v=None):
                if v is None:
                    return m.levels.get(self.id, 1)
                m.levels[self.id] = v

        class Timer:
            PERIODIC, ONE_SHOT = 1, 0

            def __init__(self, id=-1):
                self.cb = None

            def init(self, period=0, mode=1, callback=None):
                self.cb = callback
                self.period = period
                m.timers.append(self)

            def deinit(self):
                if self in m.timers:
                    m.timers.remove(self)

        class I2C:
            def __init__(self, id, sda=None, scl=None, freq=0):
                pass

            def scan(self):
                return [0x3C] if m.i2c_present else []

            def writeto(self, addr, buf):
                if m.i2c_fail or not m.i2c_present:
                    raise OSError(5)

            def writevto(self, addr, bufs):
                if m.i2c_fail or not m.i2c_present:
                    raise OSError(5)
                m.i2c_writes.append(bytes(bufs[1]))

        class PWM:
            def __init__(self, pin):
                self.duty = 0

            def freq(self, f):
                self.f = f

            def duty_u16(self, d):
                self.duty = d

        class ADC:
            def __init__(self, ch):
                pass

            def read_u16(self):
                return 26000  # about 3.92 V on VSYS through the 1:3 divider

        class WDT:
            def __init__(self, timeout):
                m.wdt = self
                self.fed = 0

            def feed(self):
                self.fed += 1

        self.Pin, self.Timer, self.I2C, self.PWM, self.ADC, self.WDT = Pin, Timer, I2C, PWM, ADC, WDT

    def reset(self):
        self.resets += 1
        raise SystemExit("machine.reset")

    def reset_cause(self):
        return self.cause


class _Ssd1306:
    """micropython-lib's driver as far as device/display.py uses it."""

    def __init__(self):
        class SSD1306_I2C:
            def __init__(self, w, h, i2c, addr=0x3C):
                self.i2c = i2c
                self.addr = addr
                self.buffer = bytearray(w * h // 8)
                i2c.writeto(addr, b"\x00\xae")  # init_display talks to the panel

            def show(self):
                self.i2c.writeto(self.addr, b"\x00\x21")
                self.i2c.writevto(self.addr, [b"\x40", self.buffer])

            def write_cmd(self, cmd):
                self.i2c.writeto(self.addr, bytes((0x80, cmd)))

            def write_data(self, buf):
                self.i2c.writevto(self.addr, [b"\x40", buf])

            def contrast(self, v):
                self.i2c.writeto(self.addr, bytes((0, 0x81, v)))

            def poweroff(self):
                self.i2c.writeto(self.addr, b"\x00\xae")

            def poweron(self):
                self.i2c.writeto(self.addr, b"\x00\xaf")

        self.SSD1306_I2C = SSD1306_I2C


@pytest.fixture
def board(monkeypatch):
    import time as _time
    import types

    m = _Machine()
    mod = types.ModuleType("machine")
    for k in dir(m):
        if not k.startswith("_"):
            setattr(mod, k, getattr(m, k))
    mod.mem32 = m.mem32
    monkeypatch.setitem(sys.modules, "machine", mod)
    drv = types.ModuleType("ssd1306")
    drv.SSD1306_I2C = _Ssd1306().SSD1306_I2C
    monkeypatch.setitem(sys.modules, "ssd1306", drv)
    clock = {"ms": 0}
    monkeypatch.setattr(_time, "ticks_ms", lambda: clock["ms"], raising=False)
    monkeypatch.setattr(_time, "ticks_add", lambda a, b: a + b, raising=False)
    monkeypatch.setattr(_time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.setattr(
        _time, "sleep_ms", lambda ms: clock.__setitem__("ms", clock["ms"] + ms), raising=False
    )
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico with RP2040", raising=False)
    import device

    for name in ("pico", "display"):
        # a fresh import binds the fake machine: forget the module and the package's attribute
        monkeypatch.delitem(sys.modules, "device." + name, raising=False)
        monkeypatch.delattr(device, name, raising=False)
    m.clock = clock
    return m


def test_the_pico_hw_shows_frames_and_survives_an_unplugged_display(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from device import pico

    hw = pico.build()
    assert hw.name == "pico" and hw.display.present
    frame = bytes(range(256)) * 4
    assert hw.display.show(bytearray(frame)) and board.i2c_writes[-1] == frame
    # the same frame again sends nothing; one changed byte sends a small window
    n = len(board.i2c_writes)
    assert hw.display.show(bytearray(frame)) and len(board.i2c_writes) == n
    frame2 = bytearray(frame)
    frame2[300] ^= 0xFF
    assert hw.display.show(frame2) and len(board.i2c_writes) == n + 1
    assert 1 <= len(board.i2c_writes[-1]) <= 4 and hw.display.sent < 30
    board.i2c_fail = True
    assert hw.display.show(bytearray(1024)) is False and not hw.display.present
    board.i2c_fail = False
    board.i2c_present = False
    board.clock["ms"] += 2000
    assert hw.display.show(bytearray(1024)) is False and hw.display.fault == "no answer"
    board.i2c_present = True
    assert hw.display.show(bytearray(1024)) is False, "retries wait a second"
    board.clock["ms"] += 1000
    assert hw.display.show(bytearray(frame)) and hw.display.present
    assert 3800 < hw.battery_mv() < 4000


def test_the_pico_buttons_sample_pins_from_a_timer(board):
    from device import pico, pins

    hw = pico.build()
    tick = [t for t in board.timers if t.period == 5][0].cb
    gp = pins.BUTTONS["KNOCK"]
    board.levels[gp] = 0  # pressed: active low
    for _ in range(5):
        board.clock["ms"] += 5
        tick(None)
    board.levels[gp] = 1
    for _ in range(5):
        board.clock["ms"] += 5
        tick(None)
    assert hw.buttons.events() == [event(KNOCK, PRESS), event(KNOCK, 3)]
    assert hw.buttons.held() == 0


def test_every_hardware_implementation_fulfils_the_contract_and_carries_nothing_dead(
    board, tmp_path, monkeypatch
):
    """device/contract.py: the Pico's hw, the host's (fake_hw, also as the link harnesses share its
    clock) and the web page's (webhw) offer every part; what each offers beyond it is read somewhere."""
    from device import contract, pico

    from contractcheck import STATIC, Page, Store, unread
    from host_tools.link.duo import Duo

    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(STATIC))
    import webhw

    duo = Duo(seed=1)
    hws = {
        "pico": pico.build(),
        "fake": FakeHw(),
        "fake on a folder, with the controller": FakeHw(save_dir=tmp_path / "s", controller=True),
        "link harness side": duo.sides[0].hw,
        "web": webhw.WebHw(Page(), Store()),
        "web without localStorage": webhw.WebHw(Page(), None),
    }
    assert {k: contract.missing(hw) for k, hw in hws.items()} == {k: [] for k in hws}
    assert {k: unread(contract.extra(hw)) for k, hw in hws.items()} == {k: [] for k in hws}
    assert duo.sides[0].hw.clock is duo.sides[1].hw.clock is duo.sides[1].hw.buttons.clock  # one time
    # and the checks can tell: a part missing, a method nothing calls
    assert "clock" in contract.missing(object())
    hw = FakeHw()
    hw.clock.diff = lambda a, b: a - b
    assert unread(contract.extra(hw)) == ["clock.diff"]


def test_the_piezo_stops_by_itself_and_the_log_stays_small(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from device import pico

    hw = pico.build()
    hw.sound.tone(880, 40)
    assert hw.sound.pwm.duty > 0
    board.timers[-1].cb(None)
    assert hw.sound.pwm.duty == 0
    for i in range(300):
        hw.log("line %d %s" % (i, "x" * 40))
    data = hw.storage.read(pico.LOG_FILE)
    assert len(data) <= pico.LOG_MAX + 100 and data.endswith(b"\n") and b"line 299" in data


def test_main_logs_a_crash_shows_it_and_restarts_into_the_game(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import launch as main
    from device import pico

    hw = pico.build()
    frames = []
    monkeypatch.setattr(hw.display, "show", lambda buf: frames.append(bytes(buf)) or True)
    with pytest.raises(SystemExit):
        main.crash(hw, ValueError("bad card 'ZZ'"), pico.restart)
    assert board.resets == 1
    assert b"ValueError: bad card" in hw.storage.read(pico.LOG_FILE)
    assert frames and frames[0] == bytes(main.crash_frame("ValueError: bad card 'ZZ'").buf)


def test_main_runs_the_app_with_a_watchdog_and_resumes_after_a_crash(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import launch as main
    from device import pico
    from device.storage import FileStorage

    seen = {}

    class Stop(Exception):
        pass

    import app as appmod

    real = appmod.App

    def fake_app(hw, resume):
        seen["resume"] = resume
        a = real(hw, resume)
        steps = [0]

        def step():
            steps[0] += 1
            if steps[0] > 3:
                raise Stop()
            return 10

        a.step = step
        return a

    monkeypatch.setattr(appmod, "App", fake_app)
    with pytest.raises(SystemExit):  # Stop is a crash: logged, then machine.reset()
        main.main()
    assert seen["resume"] is True  # every boot resumes the saved game, not only after a crash
    assert board.wdt is not None and board.wdt.fed >= 3
    assert b"Stop" in FileStorage("").read(pico.LOG_FILE)


def test_safe_mode_skips_the_app(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import launch as main
    from device import pins

    g = {"__name__": "boot"}
    board.levels[pins.SAFE_PIN] = 0
    exec(compile(open(ROOT / "boot.py").read(), "boot.py", "exec"), g)
    assert g["GIN_SAFE"] is True
    board.levels[pins.SAFE_PIN] = 1
    g2 = {"__name__": "boot"}
    exec(compile(open(ROOT / "boot.py").read(), "boot.py", "exec"), g2)
    assert g2["GIN_SAFE"] is False
    main.main(g["GIN_SAFE"])  # what main.py passes on: returns at once, no App, no watchdog
    assert board.wdt is None and board.i2c_writes


def test_ctrl_c_stops_the_watchdog_for_the_repl(board):
    from device import pico

    pico.stop_watchdog()
    assert board.mem32[0x40058000] & (1 << 30) == 0
    board.cause = board.WDT_RESET
    assert pico.woke_from_watchdog()


def test_a_missing_display_driver_is_logged_and_nothing_raises(board, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "ssd1306", None)  # `import ssd1306` fails
    from device import pico

    hw = pico.build()
    assert not hw.display.present and hw.display.fault == "driver"
    assert hw.display.show(bytearray(1024)) is False
    hw.display.contrast(40)
    hw.display.power(False)
    assert pico.NO_DRIVER.encode() in hw.storage.read(pico.LOG_FILE)
    # and on the serial console, once per boot: what `make play` / `make repl` shows
    assert capsys.readouterr().out.count(pico.NO_DRIVER) == 1
    assert "make deploy" in pico.NO_DRIVER


def test_no_watchdog_while_running_from_a_mounted_folder(board, monkeypatch, capsys):
    from device import pico

    board.wdt = None
    monkeypatch.setattr(os, "getcwd", lambda: "/remote")  # `mpremote mount` puts the PC's folder here
    feed = pico.start_watchdog(8000)
    feed()
    assert board.wdt is None and "no watchdog" in capsys.readouterr().out
    monkeypatch.setattr(os, "getcwd", lambda: "/")  # from the flash: armed
    pico.start_watchdog(8000)()
    assert board.wdt is not None and board.wdt.fed == 1


# --- boot: the title on the glass before the game's code loads (issue 13) -----------------------


def test_main_shows_the_title_before_it_imports_the_app(board, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import launch as main
    from ui.splash import title_frame

    frames_at_app = []

    def fake_app(hw, resume):
        frames_at_app.append(list(board.i2c_writes))
        raise KeyboardInterrupt  # main.py's way out to the REPL: no crash, no reset

    monkeypatch.setattr(appmod, "App", fake_app)
    main.main()
    assert frames_at_app, "main.py never built the app"
    shown = frames_at_app[0]
    assert shown and shown[0] == bytes(title_frame(False).buf)  # the first frame, before App()


def test_the_code_loaded_before_the_title_is_small_and_holds_no_game():
    import ast

    from host_tools.bench.ui import PRE_TITLE, import_closure, mpy_sizes

    # launch.main (what main.py runs) imports exactly PRE_TITLE's modules before the title is on
    # the glass: its own imports up to the title (the kept card, else the splash), and theirs
    tree = ast.parse((ROOT / "firmware" / "launch.py").read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    nodes = []
    for node in funcs["main"].body:
        nodes.append(node)
        if "_splash(" in ast.unparse(node):
            break
    nodes += [funcs["_kept_title"], funcs["_splash"]]
    imported = []
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and sub.module:
                imported.extend(sub.module + "." + a.name for a in sub.names)
    assert sorted(imported) == ["device.pico", "ui.splash.show_title", "ui.titlecard.show"], imported
    closure = import_closure(PRE_TITLE)
    for heavy in ("app", "gin.round", "gin.melds", "gin.ai", "savegame", "prefs", "ui.table", "ui.menus"):
        assert heavy not in closure
    assert sum(mpy_sizes(closure).values()) <= 40 * 1024
