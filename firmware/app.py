"""The loop: buttons -> the screen -> play -> save -> draw, and the power, the sound and the messages.

``App(hw)`` runs on the Pico (device/pico.py builds ``hw``) and on the PC
(the simulator and the tests hand it a fake), always the same code.  Events
flow one way: a button event goes to the current screen's ``key``, which
calls an App method (an action, a menu choice); the match changes in
``play.Play``, whose methods answer with an outcome the App turns into
screens, sounds and saves; ``draw`` turns the state into pixels.

A seat that isn't a person with the buttons makes its moves here too: a
computer (play_computer.py) when its pause is over, the other handheld
(play_cable.py) through the news its ``poll`` returns, the one channel from a
seat to the screen.

The screens read the App (the names listed in ui/screens.py) and change it
only through its methods.

RAM is the Pico's scarcest resource, so the rules core, the computer players
and the link are imported when a match needs them, and a screen's module is
loaded when it is shown and dropped when another takes its place.
"""

from device.sleep import AWAKE, DIM, DIM_CONTRAST, OFF, Idle
from events import ticks_diff
from games import Games
from launch import drop_module
from modes import has
from play import Play
from ui import screens
from ui.canvas import Canvas
from ui.draw import banner, scroll_ms
from ui.screens import TITLE

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port without it keeps no title card
    _crc32 = None

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


GAME_FILE = "game.sav"  # savegame.GAME_FILE

DEMO_AFTER_MS = const(60000)  # idle on the title before the demo starts
MSG_MS = const(2600)
LED_PERIOD_MS = const(2000)  # display missing: three short blinks every two seconds
RETRY_MS = const(500)  # display missing: how often a frame is offered again
BATTERY_MS = const(2000)  # the battery gauge is read at most this often
LINK_POLL_MS = const(10)  # the loop's longest sleep while linked (the UART buffers the rest)
LINK_BUSY_MS = const(4)  # ... while a frame of ours waits for its acknowledgement
LINK_PATIENCE_S = const(300)  # waiting for the other player: dim only after this long idle

# Left-handed swap: the d-pad and the action diamond trade places
# (UP<->MENU, LEFT<->DRAW, DOWN<->DISCARD, RIGHT<->KNOCK).
_LEFTY = b"\x07\x05\x04\x06\x02\x01\x03\x00"

SOUND_ERROR = (220, 90)


class App:
    def __init__(self, hw, resume=False):

        self.hw = hw
        self.canvas = Canvas()
        self.idle = Idle(hw.clock.ticks_ms())
        self.level_shown = AWAKE
        from savegame import SaveManager

        self.saves = SaveManager(hw.storage)
        self.settings, self.stats, msg = self.saves.load_profile()
        self.play = Play(self.settings["mode"], self.settings["level"])
        self._lstats = None  # prefs.LinkStats, loaded when first needed
        self.has_save = False
        self.has_kept = False  # a match that a new one replaced can be brought back
        self._battery = (None, 0)  # (mV, when read): a gauge read at most every BATTERY_MS
        # the screen
        self.view = None
        self.view_mod = None
        self._keying = False  # a screen's key is running: a new screen waits until it returns
        self._next_view = None
        self.dirty = True
        self.redraw_at = None
        self.msg = None
        self.msg_err = False
        self.msg_until = 0
        self.msg_at = 0  # when the message appeared: a scrolling one starts at its beginning
        self.standing = None  # the link's standing line, while it is the message shown
        self.frames = 0
        self._drawn = None  # the view whose full frame the canvas holds
        self._card_crc = None  # the title frame last kept for the next boot (ui/titlecard.py)
        self.led_on = False
        self.games = Games(self)  # the matches: started, continued, saved, left (games.py)
        self.apply_contrast()
        self.peek_save()
        self.goto(TITLE)
        if msg:
            self.say(msg)
        if resume and self.has_save:
            self.continue_game()

    # --- what the screens read of the play (ui/screens.py lists them) ---------------------------

    @property
    def match(self):
        return self.play.match

    @property
    def mode(self):
        return self.play.mode

    @property
    def level(self):
        return self.play.level

    @property
    def demo(self):
        return self.play.demo

    @property
    def seat(self):
        return self.play.seat

    @property
    def sort(self):
        return self.play.sort

    @property
    def cursor(self):
        return self.play.cursor

    @property
    def notes(self):
        return self.play.notes

    @property
    def names(self):
        return self.play.names

    @property
    def thinking(self):
        return self.play.thinking

    @property
    def link(self):
        """The link session (link.session.LinkPlay) while a link match is set up or played."""
        cable = self.games.cable
        return None if cable is None else cable.session

    def is_human(self, p):
        return self.play.is_human(p)

    def mode_has(self, flag):
        """Does the mode being played do this (modes.py: HINTS, WATCHING...)?"""
        return has(self.play.mode, flag)

    # --- what the screens change, through these -------------------------------------------------

    def refresh(self):
        """The screen's state changed: draw it again."""
        self.dirty = True

    def set_cursor(self, card):
        self.play.set_cursor(card)
        self.dirty = True

    def toggle_sort(self):
        """Sort the hand the other way; the new order (1: by rank)."""
        self.dirty = True
        return self.play.toggle_sort()

    def set_setting(self, name, value):
        """Change one setting and keep it on flash (a power cut in a menu keeps it)."""
        self.settings[name] = value
        if name == "contrast":
            self.apply_contrast()
        self.save_settings()

    # --- settings and saves ------------------------------------------------

    def peek_save(self):
        """Is there a saved game?  Only looks at the files' sizes: loading waits for Continue."""
        self.has_save = self.saves.has_game()
        self.has_kept = self.saves.has_kept()

    def report_save_error(self):
        """Say a failed save once; again only after a save succeeded in between."""
        err = self.saves.take_error()
        if err:
            self.say(err, True)

    def save_settings(self):
        self.saves.save_settings(self.settings)
        self.report_save_error()

    def reset_stats(self, level):
        """Zero the statistics against one computer level, on flash too."""
        self.stats.reset(level)
        self.saves.save_stats(self.stats)
        self.report_save_error()

    def reset_link_stats(self):
        """Zero the link-cable statistics, on flash too."""
        ls = self.link_stats()
        ls.reset()
        self.saves.save_link_stats(ls)
        self.say("Link stats reset")

    def link_stats(self):
        if self._lstats is None:
            from prefs import LinkStats

            st = self.saves.load_link_stats()
            self._lstats = st if st is not None else LinkStats()
        return self._lstats

    def apply_contrast(self):
        self.hw.display.contrast(DIM_CONTRAST if self.level_shown == DIM else self.settings["contrast"])

    # --- the matches (games.py); the screens ask the App ---------------------------------------

    def new_game(self, demo=False, seed=None, deck=None, dealer=None):
        self.games.new_game(demo, seed, deck, dealer)

    def continue_game(self):
        self.games.continue_game()

    def previous_game(self):
        self.games.previous_game()

    def saved_match_line(self):
        return self.games.saved_match_line()

    def act(self, a):
        return self.games.act(a)

    def hint(self):
        return self.games.hint()

    def show_hint(self):
        self.games.show_hint()

    def next_hand(self):
        self.games.next_hand()

    def end_match(self):
        self.games.end_match()

    def quit_to_title(self):
        self.games.quit_to_title()

    def link_start(self):
        self.games.link_start()

    def link_accept(self):
        self.games.link_accept()

    def link_cancel(self):
        self.games.link_cancel()

    # --- screens --------------------------------------------------------------

    def goto(self, sid, arg=None):
        """Show screen sid (its module loaded, the last one's dropped).  Asked from a screen's own
        ``key``, the change waits until that key returns: a screen never runs on replaced."""
        if self._keying:
            self._next_view = (sid, arg)
            return
        mod = screens.module_of(sid)
        old = self.view_mod
        self.view = None
        if old is not None and old != mod:
            drop_module(old)
        cls = screens.load(sid)
        self.view_mod = mod
        self.view = cls(self, arg)
        self.dirty = True
        self.redraw_at = None

    def _key(self, b, kind):
        self._keying = True
        try:
            self.view.key(self, b, kind)
        finally:
            self._keying = False
        nxt = self._next_view
        if nxt is not None:
            self._next_view = None
            self.goto(nxt[0], nxt[1])

    def say(self, text, err=False, ms=MSG_MS):
        """A one-line message (an error is inverted and beeps) until ms pass or a button acts.

        A line too long for the screen scrolls from its beginning and stays at least until it
        has been shown whole once (and held at its end), however short ms is.
        """
        now = self.hw.clock.ticks_ms()
        whole = scroll_ms(self.canvas, text)  # ends with the line held at its end
        self.msg = text
        self.msg_err = err
        self.msg_at = now
        self.msg_until = now + (ms if ms > whole else whole)
        self.standing = None
        self.dirty = True
        if err:
            self.beep(SOUND_ERROR)

    def ticks_ms(self):
        """The clock the screens time their animations by."""
        return self.hw.clock.ticks_ms()

    def battery_mv(self):
        """The battery's voltage in mV, or None without a gauge (read at most every BATTERY_MS)."""
        mv, at = self._battery
        now = self.hw.clock.ticks_ms()
        if at == 0 or ticks_diff(now, at) >= BATTERY_MS:
            mv = self.hw.battery_mv()
            self._battery = (mv, now if now else 1)
        return mv

    def beep(self, tone):
        if self.settings["sound"] and not self.play.demo:
            self.hw.sound.tone(tone[0], tone[1])

    def message_line(self, c, y, now):
        """Draw the pending message at row y; returns ms until its next frame (0: none or static)."""
        if self.msg is None:
            return 0
        if self.msg_err:
            return banner(c, self.msg, y, ticks_diff(now, self.msg_at), True)
        # plain messages: a frame, not a block, so they don't shout (drawn without XOR, which
        # framebuf lacks: it would load the pure-Python canvas into a Pico's heap)
        r = banner(c, self.msg, y, ticks_diff(now, self.msg_at), False)
        c.rect(0, y, 128, 7, 1)
        return r

    def clear_msg(self):
        self.msg = None
        self.standing = None
        self.dirty = True

    # --- the match --------------------------------------------------------------------------

    # --- the link cable (play_cable.py: the seat and the App's side of link play) ----------------

    def link_status(self):
        """What the link is doing, in one line (None: nothing to say, or no link)."""
        lk = self.link
        return None if lk is None else lk.status()

    def link_paused(self):
        """A link match that can't go on right now (lost, or the other is not in step)."""
        lk = self.link
        return lk is not None and self.play.match is not None and not lk.in_step()

    # --- the computer's turn -------------------------------------------------------

    # --- the loop ----------------------------------------------------------------

    def step(self):
        """One loop iteration; returns the ms the loop may sleep."""
        hw = self.hw
        now = hw.clock.ticks_ms()
        evs = hw.buttons.events()
        if evs:
            evs = self.idle.filter(evs, now)
            if self.level_shown != AWAKE:
                self._set_level(AWAKE)
            lefty = self.settings["left"]
            for ev in evs:
                if lefty:
                    ev = _LEFTY[ev >> 2] * 4 + (ev & 3)
                if ev & 3 == 0 and self.msg is not None and not self.msg_err:
                    self.clear_msg()
                self._key(ev >> 2, ev & 3)
        games = self.games
        games.step(now)
        dim_s = self.settings["dim_s"]
        off_s = self.settings["off_s"]
        if games.cable is not None and games.cable.waiting(self.play):
            # the other player is thinking: stay lit unless nobody has touched this one for long
            if dim_s and dim_s < LINK_PATIENCE_S:
                dim_s = LINK_PATIENCE_S
            if off_s and off_s < 2 * LINK_PATIENCE_S:
                off_s = 2 * LINK_PATIENCE_S
        demo = self.play.demo
        level = self.idle.update(now, dim_s, off_s, not demo)
        if level != self.level_shown:
            self._set_level(level)
        if level == OFF and demo:
            games.end_match()
        elif self.view.sid == TITLE and level != OFF and self.idle.idle_ms(now) >= DEMO_AFTER_MS:
            games.new_game(True)
        games.computer_turn(now)
        tick = getattr(self.view, "tick", None)
        if tick is not None:
            tick(self, now)
        if self.msg is not None and ticks_diff(now, self.msg_until) >= 0:
            self.clear_msg()
        if self.redraw_at is not None and ticks_diff(now, self.redraw_at) >= 0:
            self.dirty = True
        if self.dirty and self.level_shown != OFF:
            self.draw(now)
        games.save_if_due()
        self._led(now)
        return self._sleep_ms(now)

    def _set_level(self, level):
        d = self.hw.display
        old = self.level_shown
        self.level_shown = level
        if level == OFF:
            d.power(False)
            return
        if old == OFF:
            d.power(True)
            self.dirty = True
        self.apply_contrast()

    def _sleep_ms(self, now):
        if self.level_shown == OFF:
            return 50
        seat = self.play.computer()
        if seat is not None and seat.thinking:
            return 1
        ms = 20
        lk = self.link
        if lk is not None:
            ms = LINK_BUSY_MS if lk.busy() else LINK_POLL_MS
        for t in (None if seat is None else seat.due, self.redraw_at):
            if t is not None:
                d = ticks_diff(t, now)
                if d < ms:
                    ms = d
        return ms if ms > 0 else 1

    def draw(self, now):
        c = self.canvas
        v = self.view
        upd = getattr(v, "update", None)
        # A view with ``update`` may redraw only what a cursor move or a message changes, when
        # the canvas still holds its own last frame; it says False when more has changed, and
        # else where it drew (``damage``), which the display only needs to compare
        # (the contract's ``display.damage``).
        damage = None
        if upd is None or self._drawn is not v or not upd(self, c, now):
            c.fill(0)
            ms = v.draw(self, c, now)
            self._drawn = v
        else:
            ms = 0
            damage = v.damage
        y = v.msg_y
        if y >= 0:
            m2 = self.message_line(c, y, now)
            if m2 and (not ms or m2 < ms):
                ms = m2
        self.dirty = False
        self.frames += 1
        d = self.hw.display
        if damage is not None:
            d.damage = damage
        if not d.show(c.buf):
            ms = RETRY_MS  # offer the frame again: the display may come back
            self._drawn = None  # and whole: the panel didn't get this one
        elif v.sid == TITLE and not v.sel and self.msg is None and not self.has_save:
            self._keep_title(c.buf)
        self.redraw_at = now + ms if ms else None

    def _keep_title(self, frame):
        """The title as a boot without a match in progress first draws it: kept on the flash,
        so that boot shows it at once (ui/titlecard.py).  Read and written only when it changes."""
        if _crc32 is None:
            return
        crc = _crc32(frame)
        if crc == self._card_crc:
            return
        self._card_crc = crc
        from ui.titlecard import keep

        try:
            keep(self.hw.storage, frame)
        except Exception:  # noqa: BLE001 - a full flash, a full heap: the card is only a shortcut
            pass  # (the title is on the glass already; the next boot says "Loading" first)
        drop_module("ui.titlecard")

    def _led(self, now):
        if self.hw.display.present:
            on = False
        else:
            t = now % LED_PERIOD_MS
            on = t < 900 and (t % 300) < 120
        if on != self.led_on:
            self.led_on = on
            self.hw.led.set(on)
