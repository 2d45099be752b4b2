"""The one host implementation of the hardware contract (firmware/device/contract.py), and the auto-player.

The simulator, the tests, the benchmarks and the soaks all run the firmware's
``App`` on this ``FakeHw``.  Deliberately plain Python that MicroPython runs
too (tests/mp, the cross-check of tests/test_ui_mp_frames.py, ``make size``
on a board): no type hints, no dataclasses, no f-strings.

* ``Clock`` is virtual by default: time moves only when told (``advance``,
  ``advance_to``, ``sleep_ms``), so a key script always gives the same frames.
  ``Clock(virtual=False)`` follows real time (the interactive simulator).
* ``Buttons`` runs the device's own ``Debouncer`` on a raw mask whose changes
  are scheduled (down at t, up at t + hold) and sampled on the device's 5 ms
  grid as time passes, so debounce, long press and repeat behave as on a Pico.
* ``Display`` keeps the last frame (and, when asked, a CRC of every frame);
  with ``controller=True`` (CPython) each frame also goes through Adafruit's
  SSD1306 driver into the controller model (host_tools.hw.host_display), and
  ``glass()`` is what a module would show.
* ``storage`` is the firmware's ``FileStorage``: in memory, or on a folder.
* ``Driver`` steps an App the way main.py's loop does; ``AutoPlayer`` plays the
  person's side with button presses only, its choices from a gin.ai player.
"""

try:
    from binascii import crc32
except ImportError:  # pragma: no cover
    from zlib import crc32

from device.buttons import BUTTON_NAMES, DEBOUNCE_MS, SAMPLE_MS, Debouncer
from device.storage import LOG_FILE, LOG_MAX, FileStorage, MemFS

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here
HISTORY_LIMIT = 100000


class FakeReset(Exception):
    """hw.reset() was called: the host starts the App again, as the Pico would reboot."""


def _monotonic_ms():
    import time

    if hasattr(time, "ticks_ms"):  # MicroPython
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


# -------------------------------------------------------------------- clock
class Clock:
    """Milliseconds since 'power on'; ``ticks_ms`` wraps at 2**30 like the device.

    ``now()`` is the unwrapped count the host schedules with.
    """

    def __init__(self, start_ms=0, virtual=True, speed=1.0):
        self.virtual = virtual
        self.speed = speed  # a real-time clock may run this many times faster (head-less link runs)
        self._start = start_ms
        self._now = start_ms
        self._t0 = 0 if virtual else _monotonic_ms()

    def now(self):
        if self.virtual:
            return self._now
        return self._start + int((_monotonic_ms() - self._t0) * self.speed)

    def ticks_ms(self):
        return self.now() % TICKS_PERIOD

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        if self.virtual:
            self._now += int(ms)
        else:
            import time

            time.sleep(ms / 1000 / self.speed)

    def advance(self, ms):
        """Virtual clocks only: let ``ms`` pass."""
        self.advance_to(self.now() + ms)

    def advance_to(self, t):
        """Virtual clocks only: jump forward to absolute time t (never back)."""
        if not self.virtual:
            raise RuntimeError("a real-time clock cannot be moved")
        if t > self._now:
            self._now = t


# ------------------------------------------------------------------ buttons
def min_hold_ms():
    """The shortest press the debouncer accepts, with a sample of margin."""
    return DEBOUNCE_MS + 2 * SAMPLE_MS


def button_index(b):
    """A button by number or by name ('DRAW', 'draw')."""
    if isinstance(b, int):
        return b
    return BUTTON_NAMES.index(b.upper())


class Buttons:
    """Scheduled raw button levels -> the device's debouncer -> queued events."""

    def __init__(self, clock):
        self.clock = clock
        self._deb = Debouncer(clock.ticks_ms())
        self._raw = 0
        self._last = clock.now()  # time of the last debouncer sample
        self._changes = []  # sorted [t, seq, button, down]
        self._seq = 0
        self._queue = []
        self.history = []  # (time, event) of every event delivered, up to HISTORY_LIMIT

    # ---- the host's side
    def press(self, button, hold_ms, at=None):
        """Button down at ``at`` (default now) and up ``hold_ms`` later.

        A press of a button that is still down (or scheduled to be) extends
        the hold instead: terminal auto-repeat then reads as a held button.
        """
        button = button_index(button)
        if not 0 <= button < len(BUTTON_NAMES):
            raise ValueError("no button %r" % (button,))
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

    def down(self, button):
        """Hold ``button`` from now until ``up``: front ends that see key releases (a window)."""
        self.pump()
        rel = self._pending_release(button)
        if rel is not None:
            self._changes.remove(rel)
        if not self._raw & (1 << button):
            self._schedule(self.clock.now(), button, True)

    def up(self, button):
        self.pump()
        t = self.clock.now()
        for ch in self._changes:
            if ch[2] == button and ch[3]:
                # the press has not reached a sample yet: keep it long enough to debounce
                t = max(t, ch[0] + min_hold_ms())
        self._schedule(t, button, False)

    def push(self, ev):
        """Inject an event directly, bypassing the debouncer."""
        self._queue.append(ev)

    def _pending_release(self, button):
        for ch in self._changes:
            if ch[2] == button and not ch[3]:
                return ch
        return None

    def _schedule(self, t, button, down):
        ch = [t, self._seq, button, down]
        self._seq += 1
        i = len(self._changes)
        while i > 0 and self._changes[i - 1][0] > t:
            i -= 1
        self._changes.insert(i, ch)

    def next_change(self):
        return self._changes[0][0] if self._changes else None

    def busy(self):
        """True while a press is in progress: the host then steps the app at sample pace."""
        d = self._deb
        return bool(self._raw or d.stable or d.settling() or self._changes)

    # ---- the device's sampling timer
    def pump(self):
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
                _t, _s, b, down = self._changes.pop(0)
                if down:
                    self._raw |= 1 << b
                else:
                    self._raw &= ~(1 << b)
            evs = deb.sample(self._raw, t % TICKS_PERIOD)
            if evs:
                self._queue.extend(evs)
                for e in evs:
                    if len(self.history) < HISTORY_LIMIT:
                        self.history.append((t, e))
        self._last = t

    # ---- the app's side (the contract)
    def events(self):
        self.pump()
        out = self._queue
        self._queue = []
        return out

    def held(self):
        self.pump()
        return self._deb.stable


# ------------------------------------------------------------------ display
class Display:
    """hw.display: keeps the last frame; with a controller, also the glass of a real module.

    ``listeners`` are called as fn(display, frame or None) whenever the glass may
    have changed (None: contrast or power); ``version`` counts those changes.
    """

    def __init__(self, present=True, record=False, controller=None):
        self.present = present
        self.damage = None  # the App's hint of where a frame changed: the whole frame goes anyway
        self.frame = bytes(1024)
        self.shows = 0  # frames shown
        self.version = 0
        self.level = 127  # contrast
        self.on = True
        self.crcs = [] if record else None
        self.controller = controller  # host_tools.hw.host_display.HostDisplay, or None
        self.listeners = []
        self.damage = None  # set by the App before a show: the windows it drew (as on the device)

    def _changed(self, frame):
        self.version += 1
        for fn in list(self.listeners):
            fn(self, frame)

    def show(self, buf):
        damage, self.damage = self.damage, None
        if not self.present:
            if self.controller is not None:
                self.controller.sender.invalidate()  # this frame never reaches the panel: the next goes whole
            return False
        data = bytes(buf)
        if self.controller is not None:
            try:
                self.controller.show_frame(data, damage)
            except OSError:  # the bus NACKed: a display that fell off
                self.controller.sender.invalidate()
                return False
        self.frame = data
        self.shows += 1
        if self.crcs is not None:
            self.crcs.append(crc32(data) & 0xFFFFFFFF)
        self._changed(data)
        return True

    def contrast(self, v):
        if not self.present:
            return
        self.level = max(0, min(255, int(v)))
        if self.controller is not None:
            self.controller.contrast(self.level)
        self._changed(None)

    def power(self, on):
        if not self.present:
            return
        self.on = bool(on)
        if self.controller is not None:
            if on:
                self.controller.poweron()
            else:
                self.controller.poweroff()
        self._changed(None)

    def glass(self):
        """What the module's glass shows (needs the controller)."""
        return self.controller.glass()


# ------------------------------------------------------- sound, led
class Sound:
    """Records tones (time, freq, ms); listeners (the terminal's bell) hear them."""

    def __init__(self, clock):
        self.clock = clock
        self.tones = []
        self.listeners = []

    def tone(self, freq_hz, ms):
        if len(self.tones) < 10000:
            self.tones.append((self.clock.now(), int(freq_hz), int(ms)))
        for fn in self.listeners:
            fn(int(freq_hz), int(ms))


class Led:
    def __init__(self):
        self.on = False
        self.changes = 0

    def set(self, on):
        on = bool(on)
        if on != self.on:
            self.changes += 1
        self.on = on


# ------------------------------------------------------------------ the whole
class FakeHw:
    """Everything the App may touch, on a host.

    save_dir: a folder for the saves and crash.log (None: an in-memory flash,
    ``files`` its starting contents, e.g. another FakeHw's ``fs.files`` to
    reboot on the same flash).  controller: frames also go through the SSD1306
    driver and model (CPython only).
    """

    name = "host"

    def __init__(
        self,
        start_ms=0,
        record=False,
        files=None,
        battery=None,
        save_dir=None,
        virtual=True,
        controller=False,
        present=True,
        link=None,
        speed=1.0,
        clock=None,
    ):
        # clock: another FakeHw's Clock, shared (two handhelds on one virtual time: the link harnesses)
        self.clock = clock if clock is not None else Clock(start_ms, virtual, speed)
        self.buttons = Buttons(self.clock)
        ctl = None
        if controller:
            from host_tools.hw.host_display import HostDisplay

            ctl = HostDisplay()
        self.display = Display(present, record, ctl)
        self.save_dir = save_dir
        if save_dir is None:
            self.fs = MemFS(files)
            self.storage = FileStorage("", self.fs)
        else:
            self.fs = None
            self.storage = FileStorage(str(save_dir))
        self.sound = Sound(self.clock)
        self.led = Led()
        self.battery = battery
        self.logs = []
        self.resets = 0
        self.feed = None  # the watchdog's feed on the device; no watchdog here
        self.link = link  # the link cable's port (host_tools.link.tcp.TcpPort), or None: no cable

    def battery_mv(self):
        return self.battery

    def reset(self):
        self.resets += 1
        raise FakeReset()

    def log(self, text):
        """Append a line to the crash log (crash.log in the save folder, kept small as on the device)."""
        line = str(text).rstrip("\n")
        self.logs.append(line)
        if self.save_dir is not None:
            self.storage.append_line(LOG_FILE, line, LOG_MAX)


# --- driving an App ---------------------------------------------------------------


class Driver:
    """Steps an App as main.py's loop does; presses buttons through the debouncer."""

    def __init__(self, app, hw):
        self.app = app
        self.hw = hw

    def run(self, ms):
        clock = self.hw.clock
        end = clock.now() + ms
        while True:
            sleep = self.app.step()
            now = clock.now()
            if now >= end:
                return
            d = sleep if sleep > 0 else 1  # as the device: presses wait in the queue meanwhile
            clock.advance_to(min(now + d, end))

    def press(self, b, hold_ms=60, gap_ms=40):
        self.hw.buttons.press(b, hold_ms)
        self.run(hold_ms + gap_ms)

    def long(self, b):
        self.press(b, 700, 40)

    def keys(self, names):
        """Press buttons named in a space-separated string, e.g. 'DOWN DOWN DRAW'."""
        for n in names.split():
            self.press(n)

    def wait(self, ms):
        self.run(ms)


# --- a player made of button presses ------------------------------------------------------


class AutoPlayerError(RuntimeError):
    pass


WAIT = -1  # AutoPlayer.decide: nothing to press, the computer is to play
WAIT_MS = 100
MAX_WAIT_MS = 60000  # the computer never takes a minute of virtual time for one move


class AutoPlayer:
    """Plays the person's side through the buttons, as a person would.

    It reads the App's state only to decide (which screen, whose turn, where
    the cursor is) and acts only by pressing buttons, so a match it plays
    exercises the same screens, keys and frames as a person's.  Its choices
    come from the firmware's own computer player (gin.ai), seeded, hence
    deterministic.  ``driver`` has ``app``, ``press(button)`` and ``wait(ms)``
    (a ``Driver``, or the simulator's session adapter); ``decide()`` alone
    serves a caller that presses the buttons itself.
    """

    def __init__(self, driver, level="normal", seed=99):
        from gin import ai

        self.d = driver
        self.player = ai.make_player(level, seed)
        self.moves = 0
        self.presses = 0
        self._plan = None  # (position, action) of the move being keyed in
        self._sent = None  # the position whose last key has been pressed

    @property
    def app(self):
        return self.d.app

    def _my_turn(self):
        """A move of this handheld's person is wanted, on a screen that takes moves."""
        from gin.match import PLAYING

        app = self.app
        m = app.match
        if m is None or m.state != PLAYING or getattr(app.view, "keys_for", None) is None:
            return False
        if app.link_paused():
            return False  # the other handheld can't hear us now, or we are catching up
        p = m.round.player
        return app.is_human(p) and p == app.seat

    def decide(self, to_title=False):
        """The button to press now; WAIT: another player is to move; None: the match is over
        (at its last screen, or with to_title back at the title).

        It knows no screen: a screen that takes moves has ``keys_for`` (the table's own
        mapping read backwards), one that moves a match along says which button does with
        ``proceed`` (ui/screens.py)."""
        from gin.match import GAME_OVER

        app = self.app
        v = app.view
        if getattr(v, "keys_for", None) is not None and app.match is not None:
            return self._key() if self._my_turn() else WAIT
        proceed = getattr(v, "proceed", None)
        if proceed is not None:
            if getattr(v, "last", False):
                return proceed if to_title else None
            return WAIT if proceed < 0 else proceed
        if app.match is None:
            return None  # nothing being played: the match is over
        if app.match.state == GAME_OVER:
            return None
        raise AutoPlayerError("the auto-player can't go on from %s: it has no proceed" % type(v).__name__)

    def _key(self):
        app = self.app
        m = app.match
        rnd = m.round
        pos = (len(m.summaries), len(rnd.actions))
        if self._plan is None or self._plan[0] != pos:
            obs = m.observation(rnd.player)
            a = self.player.choose(obs)
            if a not in obs.legal:
                raise AutoPlayerError("the computer chose an illegal action %d" % a)
            self._plan = (pos, a)
        elif self._sent == pos:
            raise AutoPlayerError(
                "pressed the keys for %d but nothing happened (%r)" % (self._plan[1], app.msg)
            )
        a = self._plan[1]
        b = app.view.keys_for(app, a)
        if b < 0:
            raise AutoPlayerError("no keys for action %d" % a)
        if app.view.action_for(app, b) == a:
            self._sent = pos  # the last key of this move
        return b

    def step(self, to_title=False):
        """Press the next button (or wait for the computer); returns it, WAIT, or None when over."""
        b = self.decide(to_title)
        if b is None:
            return None
        if b == WAIT:
            self.d.wait(WAIT_MS)
        else:
            self.presses += 1
            pos = self._plan[0] if self._plan is not None else None
            self.d.press(b)
            m = self.app.match
            if pos is not None and m is not None and (len(m.summaries), len(m.round.actions)) != pos:
                self.moves += 1
                self._plan = None
        return b

    def run(self, scope="move", limit=5000, to_title=False):
        """Until one move is made (scope 'move'), the hand's result ('hand'), or the match is over
        ('match': at the final tally; with to_title, back at the title)."""
        from gin.match import GAME_OVER

        app = self.app
        start_hand = len(app.match.summaries) if app.match is not None else 0
        moves = self.moves
        waited = 0
        progress = None
        for _ in range(limit):
            m = app.match
            now = (len(m.summaries), len(m.round.actions)) if m is not None else None
            if now != progress:
                progress = now
                waited = 0
            if scope == "move" and self.moves > moves:
                return
            if scope == "hand" and m is not None and (len(m.summaries) > start_hand or m.state == GAME_OVER):
                return
            b = self.step(to_title)
            if b is None:
                return
            if b == WAIT:
                waited += WAIT_MS
                if waited > MAX_WAIT_MS:
                    raise AutoPlayerError("waited a minute for a turn that never came")
        raise AutoPlayerError("no end after %d steps" % limit)

    def play_match(self, limit=5000):
        """Play to the end of the match and back to the title; returns the presses used."""
        self.run("match", limit, True)
        return self.presses


# --- the scripted session both interpreters play (tests/test_ui_mp_frames.py) ----------------


def session(App, start_ms=4242, whole_match=True):
    """Boot, visit every menu and page, then play a match with the AutoPlayer; returns (hw, app).

    hw.display.crcs holds the CRC-32 of every frame shown, in order.
    """
    hw = FakeHw(start_ms=start_ms, record=True)
    app = App(hw)
    d = Driver(app, hw)
    d.run(300)
    d.keys("DOWN DOWN DOWN DRAW")  # title -> rules
    d.keys("RIGHT DOWN DOWN DOWN RIGHT UP UP UP")  # Modern, Oklahoma on
    d.keys("UP DRAW DOWN DOWN MENU MENU")  # show all rules, back, back to the title
    d.keys("DOWN DOWN DRAW DOWN RIGHT LEFT MENU")  # settings
    d.keys("UP DRAW RIGHT LEFT MENU")  # stats
    d.keys("DOWN DOWN DRAW RIGHT RIGHT LEFT MENU")  # how to play
    d.keys("UP UP UP UP UP UP DRAW")  # new game
    player = AutoPlayer(d)
    if whole_match:
        player.play_match()
    else:
        for _ in range(40):
            player.step()
    d.run(500)
    return hw, app
