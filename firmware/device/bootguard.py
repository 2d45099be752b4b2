"""A crash-proof boot: no file on the flash can make the device restart for ever.

Every boot resumes the saved game.  If a save makes the app fail while it
starts, or in the first moments after it resumes (``STABLE_MS``), the crash
handler restarts the board into the same save, which fails again: a loop a
player can't leave.  main.py keeps a count of such early failures in a tiny
file (``boot.try``: the "early" flag and the count) and acts on it:

- at the start of a boot, ``start(hung)`` decides: a real watchdog hang of
  the previous boot while its flag was up (``hung``) counts as a failure, and
  a save that keeps failing is set aside before the app reads it; once the
  first frame is on the glass, ``arm()`` raises the early flag on flash (its
  erase and writes are kept off the path to the title);
- an exception while early: ``failed()`` counts it;
- after ``STABLE_MS`` of normal running: ``tick()`` forgets the count;
- a power cut counts nothing (the flag is up, but no hang and no exception).

At two failures in a row the saved game is moved aside (``game.sav`` and its
copies become ``game.bad``, ``game.bad.tmp``, ``game.bad.bak``, kept for
``make logs`` and the replay tool) and the boot comes up at the title with
``MSG_SET_ASIDE``.  Should the app still fail early twice more, the settings
and stats are moved aside too (``*.bad``): from then on nothing of ours on
the flash is read at start-up.

Everything here swallows its own errors: a full or failing flash must not
turn a crash into a crash loop.
"""

from device.storage import BAK, TMP

STRIKES_FILE = "boot.try"
STABLE_MS = 8000  # "the first moments": the first frames and the computer's first move
GAME_FILE = "game.sav"  # savegame.GAME_FILE (a test holds them equal)
PROFILE_FILES = ("settings.sav", "stats.sav")
BAD = ".bad"
MSG_SET_ASIDE = "Save set aside: crash"  # one screen line (21 columns)
MSG_RESET = "Settings set aside"


def bad_name(name):
    """'game.sav' -> 'game.bad'."""
    dot = name.rfind(".")
    return (name[:dot] if dot > 0 else name) + BAD


class BootGuard:
    def __init__(self, storage):
        self.storage = storage
        self.strikes = 0
        self.was_early = False
        self.early = False
        self.message = None  # one line for the title after something was set aside
        self.set_aside = []  # files moved aside by this boot
        try:
            data = storage.read(STRIKES_FILE, 2)
        except Exception:
            data = None
        if data and len(data) == 2 and data[0] <= 1 and data[1] <= 9:
            self.was_early = data[0] == 1
            self.strikes = data[1]

    def _write(self):
        try:
            if self.early or self.strikes:
                self.storage.write_atomic(STRIKES_FILE, bytes((1 if self.early else 0, self.strikes)), False)
            else:
                self.storage.remove(STRIKES_FILE)
        except Exception:
            pass

    def _move_aside(self, name):
        st = self.storage
        bad = bad_name(name)
        moved = False
        for suffix in ("", TMP, BAK):
            try:
                if st.exists(name + suffix) and st.move(name + suffix, bad + suffix):
                    self.set_aside.append(bad + suffix)
                    moved = True
            except Exception:
                pass
        return moved

    def start(self, hung=False):
        """The boot begins: count a hang of the last one, set files aside if they keep failing.

        Returns the line to show at the title, or None.
        """
        counted = self.strikes
        if hung and self.was_early:
            self.strikes += 1
        if self.strikes >= 2:
            if self._move_aside(GAME_FILE):
                self.message = MSG_SET_ASIDE
        if self.strikes >= 4:
            for name in PROFILE_FILES:
                if self._move_aside(name):
                    self.message = MSG_RESET
            self.strikes = 2  # the game is gone already; start counting towards the next step
        self.early = True  # in memory now, on flash at arm() (or at failed(), whichever first)
        if self.strikes != counted or self.set_aside:
            self._write()  # a counted hang must outlive a power cut before arm(): rare, not on every boot
        return self.message

    def arm(self):
        """Put the early flag on flash: a hang from now on is counted at the next boot."""
        if self.early:
            self._write()

    def failed(self):
        """An exception while starting or in the first moments: one more strike."""
        if self.early:
            self.strikes += 1
            self._write()

    def tick(self, ms_running):
        """Call from the loop: after STABLE_MS of running, the boot counts as good.

        Returns whether the boot is still in its first moments (False: done with the guard)."""
        if self.early and ms_running >= STABLE_MS:
            self.early = False
            self.strikes = 0
            self._write()
        return self.early
