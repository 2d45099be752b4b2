"""The PC's ``hw`` object: what firmware/app.py gets instead of a Pico.

Same contract as firmware/device/pico.py (see docs/HELPERS_CONTEXT.md):
``display``, ``buttons``, ``clock``, ``storage``, ``sound``, ``led``,
``battery_mv()``, ``reset()``, ``log()``, ``name == "sim"``.

* ``SimClock`` follows real time (interactive) or is virtual and moves only
  when told (scripts, tests): the same key script always gives the same frames.
* ``SimButtons`` runs the device's own ``Debouncer`` on a raw mask that the
  front end schedules (down at t, up at t + hold), sampled on the device's
  5 ms grid, so debounce, long press and auto-repeat behave as on the Pico.
* ``SimDisplay`` sends every frame through Adafruit's SSD1306 driver into the
  controller model (host_tools.hw.host_display); the glass is what a module shows.
* ``storage`` is the firmware's own ``FileStorage`` on a folder of the PC.
"""

from __future__ import annotations

import bisect
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path

from device.buttons import BUTTON_NAMES, SAMPLE_MS, Debouncer, event_text, ticks_diff
from device.storage import FileStorage, MemFS

from host_tools.hw.host_display import HostDisplay
from host_tools.hw.ssd1306_model import Glass

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here
DEFAULT_SAVE_DIR = Path.home() / ".gin-handheld"


class SimReset(Exception):
    """hw.reset() was called: the simulator starts the app again, as the Pico would reboot."""


# -------------------------------------------------------------------- clock
class SimClock:
    """Milliseconds since 'power on'; ``ticks_ms`` wraps at 2**30 like the device.

    ``now()`` is the unwrapped count the simulator schedules with.
    """

    def __init__(self, *, virtual: bool = True, start_ms: int = 0) -> None:
        self.virtual = virtual
        self._start = start_ms
        self._virtual_now = start_ms
        self._t0 = time.monotonic()

    def now(self) -> int:
        if self.virtual:
            return self._virtual_now
        return self._start + int((time.monotonic() - self._t0) * 1000)

    def ticks_ms(self) -> int:
        return self.now() % TICKS_PERIOD

    @staticmethod
    def diff(a: int, b: int) -> int:
        return ticks_diff(a, b)

    @staticmethod
    def add(t: int, delta: int) -> int:
        return (t + delta) % TICKS_PERIOD

    def sleep_ms(self, ms: int) -> None:
        if ms <= 0:
            return
        if self.virtual:
            self._virtual_now += int(ms)
        else:
            time.sleep(ms / 1000)

    def advance_to(self, t: int) -> None:
        """Virtual clocks only: jump forward to absolute time t (never back)."""
        if not self.virtual:
            raise RuntimeError("a real-time clock cannot be moved")
        self._virtual_now = max(self._virtual_now, t)


# ------------------------------------------------------------------ buttons
def keymap_min_hold() -> int:
    """The shortest press the debouncer accepts, with a sample of margin."""
    from device.buttons import DEBOUNCE_MS

    return DEBOUNCE_MS + 2 * SAMPLE_MS


class SimButtons:
    """Scheduled raw button levels -> the device's debouncer -> queued events."""

    def __init__(self, clock: SimClock) -> None:
        self.clock = clock
        self._deb = Debouncer(clock.ticks_ms())
        self._raw = 0
        self._last = clock.now()  # time of the last debouncer sample
        self._changes: list[tuple[int, int, int, bool]] = []  # (t, seq, button, down)
        self._seq = itertools.count()
        self._queue: list[int] = []
        self.history: list[tuple[int, int]] = []  # (time, event) of every event delivered
        self.history_limit = 100000

    # ---- front-end side
    def press(self, button: int, hold_ms: int, *, at: int | None = None) -> None:
        """Button down at ``at`` (default now) and up ``hold_ms`` later.

        A press of a button that is still down (or scheduled to be) extends
        the hold instead: terminal auto-repeat then reads as a held button.
        """
        if not 0 <= button < len(BUTTON_NAMES):
            raise ValueError(f"no button {button}")
        if at is None:
            self.pump()  # bring the raw levels up to date before deciding
        t = self.clock.now() if at is None else at
        release = self._pending_release(button)
        if release is not None and release[0] > t:
            self._changes.remove(release)
            self._schedule(max(t + hold_ms, release[0]), button, False)
            return
        self._schedule(t, button, True)
        self._schedule(t + max(hold_ms, 1), button, False)

    def down(self, button: int) -> None:
        """Hold ``button`` from now until ``up``: front ends that see key releases (a window)."""
        self.pump()
        rel = self._pending_release(button)
        if rel is not None:
            self._changes.remove(rel)
        if not self._raw & (1 << button):
            self._schedule(self.clock.now(), button, True)

    def up(self, button: int) -> None:
        self.pump()
        t = self.clock.now()
        pending_down = [c for c in self._changes if c[2] == button and c[3]]
        if pending_down:
            # the press has not reached a sample yet: keep it long enough to debounce
            t = max(t, pending_down[-1][0] + keymap_min_hold())
        self._schedule(t, button, False)

    def _pending_release(self, button: int) -> tuple[int, int, int, bool] | None:
        for ch in self._changes:
            if ch[2] == button and not ch[3]:
                return ch
        return None

    def _schedule(self, t: int, button: int, down: bool) -> None:
        bisect.insort(self._changes, (t, next(self._seq), button, down))

    def next_change(self) -> int | None:
        return self._changes[0][0] if self._changes else None

    def busy(self) -> bool:
        """True while a press is in progress: the simulator then steps the app at sample pace."""
        d = self._deb
        return bool(self._raw or d.stable or d.settling() or self._changes)

    def settled_at(self) -> int | None:
        """Time by which every scheduled change has been debounced into events."""
        if not self._changes:
            return None
        return self._changes[-1][0] + 4 * SAMPLE_MS

    # ---- the device's sampling timer
    def pump(self) -> None:
        now = self.clock.now()
        t = self._last
        deb = self._deb
        while t + SAMPLE_MS <= now:
            if not (self._raw or deb.stable or deb.settling()):
                # Quiet: no sample can produce an event until the next change.
                nxt = self._changes[0][0] if self._changes else now
                if nxt > t + SAMPLE_MS:
                    t += ((min(nxt, now) - t) // SAMPLE_MS) * SAMPLE_MS
                    if t + SAMPLE_MS > now:
                        break
                    continue
            t += SAMPLE_MS
            while self._changes and self._changes[0][0] <= t:
                _, _, b, down = self._changes.pop(0)
                if down:
                    self._raw |= 1 << b
                else:
                    self._raw &= ~(1 << b)
            evs = deb.sample(self._raw, t % TICKS_PERIOD)
            if evs:
                self._queue.extend(evs)
                if len(self.history) < self.history_limit:
                    self.history.extend((t, e) for e in evs)
        self._last = t

    # ---- the app's side (contract)
    def events(self) -> list[int]:
        self.pump()
        out, self._queue = self._queue, []
        return out

    def held(self) -> int:
        self.pump()
        return self._deb.stable

    def history_text(self) -> list[str]:
        return [f"{t} {event_text(e)}" for t, e in self.history]


# ------------------------------------------------------------------ display
FrameListener = Callable[["SimDisplay", bytes | None], None]


class SimDisplay:
    """hw.display: frames go through adafruit_ssd1306 into the SSD1306 model."""

    def __init__(self, host: HostDisplay | None = None, *, present: bool = True) -> None:
        self.host = host if host is not None else HostDisplay()
        self.present = present
        self.frames = 0  # frames shown
        self.version = 0  # bumps whenever the glass may have changed
        self.last_frame: bytes | None = None
        self.powered = True
        self.contrast_value: int | None = None
        self.listeners: list[FrameListener] = []
        self.damage: list | None = None  # set by the app before a show, as on the device

    def _changed(self, frame: bytes | None) -> None:
        self.version += 1
        for fn in list(self.listeners):
            fn(self, frame)

    def show(self, buf: bytes | bytearray | memoryview) -> bool:
        damage, self.damage = self.damage, None
        if not self.present:
            self.host.sender.invalidate()  # this frame never reaches the panel: the next goes whole
            return False
        data = bytes(buf)
        try:
            self.host.show_frame(data, damage)
        except OSError:  # the bus NACKed: a display that fell off
            self.host.sender.invalidate()
            return False
        self.frames += 1
        self.last_frame = data
        self._changed(data)
        return True

    def contrast(self, value: int) -> None:
        if not self.present:
            return
        value = max(0, min(255, int(value)))
        self.contrast_value = value
        self.host.contrast(value)
        self._changed(None)

    def power(self, on: bool) -> None:
        if not self.present:
            return
        if on:
            self.host.poweron()
        else:
            self.host.poweroff()
        self.powered = bool(on)
        self._changed(None)

    def glass(self) -> Glass:
        return self.host.glass()


# ------------------------------------------------------- sound, led, misc
class SimSound:
    """Records tones; the terminal front end may ring the bell for them."""

    def __init__(self, clock: SimClock | None = None) -> None:
        self.tones: list[tuple[int, int, int]] = []  # (time, freq, ms)
        self.listeners: list[Callable[[int, int], None]] = []
        self._clock = clock

    def tone(self, freq_hz: int, ms: int) -> None:
        t = self._clock.now() if self._clock else 0
        if len(self.tones) < 10000:
            self.tones.append((t, int(freq_hz), int(ms)))
        for fn in self.listeners:
            fn(int(freq_hz), int(ms))


class SimLed:
    def __init__(self) -> None:
        self.on = False
        self.changes = 0

    def set(self, on: bool) -> None:
        on = bool(on)
        if on != self.on:
            self.changes += 1
        self.on = on


class SimHw:
    """Everything the app may touch, on a PC."""

    name = "sim"

    def __init__(
        self,
        save_dir: str | os.PathLike[str] | None = None,
        *,
        virtual_clock: bool = True,
        start_ms: int = 0,
        display: SimDisplay | None = None,
        battery_mv: int | None = None,
        in_memory: bool = False,
    ) -> None:
        self.save_dir = Path(save_dir) if save_dir is not None else DEFAULT_SAVE_DIR
        self.in_memory = in_memory
        if not in_memory:
            self.save_dir.mkdir(parents=True, exist_ok=True)
        self.clock = SimClock(virtual=virtual_clock, start_ms=start_ms)
        self.buttons = SimButtons(self.clock)
        self.display = display if display is not None else SimDisplay()
        # in_memory: a flash that forgets at exit (replays, tests that must not touch a folder)
        self.storage = FileStorage("", fs=MemFS()) if in_memory else FileStorage(str(self.save_dir))
        self.sound = SimSound(self.clock)
        self.led = SimLed()
        self._battery_mv = battery_mv
        self.logged: list[str] = []
        self.resets = 0
        self.feed = None  # the device's watchdog feed; the simulator has no watchdog

    def battery_mv(self) -> int | None:
        return self._battery_mv

    def reset(self) -> None:
        self.resets += 1
        raise SimReset()

    def log(self, text: str) -> None:
        """Append a line to the crash log (a file in the save folder, as on the device's flash)."""
        line = str(text).rstrip("\n")
        self.logged.append(line)
        if self.in_memory:
            return
        try:
            with open(self.save_dir / "crash.log", "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
        except OSError:
            pass
