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

import gc
import sys

from device.sleep import AWAKE, DIM, DIM_CONTRAST, OFF, Idle
from ui import screens
from ui.canvas import Canvas
from ui.draw import banner, scroll_ms
from ui.screens import LINK_RULES, LINK_WAIT, OVER_SCREEN, PASS_SCREEN, RESULT, TABLE, TEXT, TITLE

from events import ticks_diff
from modes import CONNECTS, LEVEL_STATS, LINK, LINK_STATS, WATCH, WATCHING, has
from play import HAND_OVER, OVER, PASS_ON, YOUR_TURN, Play

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Mirrors of gin.match numbers, so that booting to the title needs no rules core
# (a test holds them equal).
PLAYING = const(0)
GAME_OVER = const(2)

GAME_FILE = "game.sav"  # savegame.GAME_FILE

DEMO_AFTER_MS = const(60000)  # idle on the title before the demo starts
MSG_MS = const(2600)
STANDING_MS = const(60000)  # the link's standing line: until it changes or is cleared
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
SOUND_TURN = (880, 40)
SOUND_WIN = (1320, 120)


def drop_module(name):
    """Forget a module so the GC can take its code back."""
    if sys.modules.pop(name, None) is None:
        return
    cut = name.rfind(".")
    pkg = sys.modules.get(name[:cut]) if cut > 0 else None
    if pkg is not None:
        try:
            delattr(pkg, name[cut + 1 :])
        except (AttributeError, TypeError):
            pass


def drop_modules(names):
    for name in names:
        drop_module(name)


# The computer players' code: loaded by the level that needs it, let go when the match ends.
AI_MODULES = ("gin.ai_hint", "gin.ai_expert", "gin.ai_hard", "gin.ai", "gin.ai_eval", "play_computer")


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
        self.cable = None  # play_cable.CableSeat while a link match is set up or played
        self._lstats = None  # prefs.LinkStats, loaded when first needed
        self.has_save = False
        self.has_kept = False  # a match that a new one replaced can be brought back
        self.save_due = False
        self.next_seed = None  # the next new game deals from this seed (the simulator's --seed)
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
        self.led_on = False
        self.apply_contrast()
        self._peek_save()
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
        return None if self.cable is None else self.cable.session

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

    def _peek_save(self):
        """Is there a saved game?  Only looks at the files' sizes: loading waits for Continue."""
        self.has_save = self.saves.has_game()
        self.has_kept = self.saves.has_kept()

    def saved_match_line(self):
        """'37–12, hand 4': the saved match in a few words, or None when none loads.

        Asked before New game replaces it; a save that doesn't load is reported
        (its one-line message) and counts as none.
        """
        if not self.has_save or has(self.settings["mode"], WATCHING):
            return None  # watching replaces nothing (savegame keeps the player's match)
        from savegame import match_line

        snap, msg = self.saves.load_game()
        if snap is None:
            self.has_save = False
            if msg:
                self.say(msg)
            return None
        return match_line(snap)

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

    def autosave(self):
        play = self.play
        m = play.match
        if play.demo or m is None or m.state == GAME_OVER or m.stacked:
            return  # a stacked deal (tests, tools) can't be rebuilt from its seed: never saved
        from savegame import snapshot_of

        cur = play.cursor if play.cursor >= 0 else 0
        snap = snapshot_of(m, play.mode, play.level, play.sort, cur, play.aiseed)
        if self.cable is not None:
            snap["seat"] = play.seat
            snap["prev"] = self._link_prev()
        self.saves.save_game(snap)
        self.report_save_error()
        self.has_save = self.saves.has_game()

    def clear_save(self):
        m = self.play.match
        self.saves.clear_game(None if m is None else m.seed)  # only this match: a watched one ends
        self.report_save_error()
        self.has_save = False

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
        r = banner(c, self.msg, y, ticks_diff(now, self.msg_at), True)
        if not self.msg_err:
            # plain messages: a frame, not a block, so they don't shout
            c.fill_rect(1, y + 1, 126, 5, 2)
        return r

    def _clear_msg(self):
        self.msg = None
        self.standing = None
        self.dirty = True

    # --- the match --------------------------------------------------------------------------

    def _fresh_seed(self, salt):
        # The moment of the button press is the entropy a handheld has.
        from gin.cards import mix_seed

        return mix_seed(self.hw.clock.ticks_ms() + self.frames * 7919, salt) & 0x7FFFFFFF

    def new_game(self, demo=False, seed=None, deck=None, dealer=None):
        """Start a match.  seed: the deal (default: from the moment of the press, or
        ``next_seed``); deck (top first) and dealer stack the first hand for tests
        and tools: such a match is not saved (a save rebuilds the deal from the seed)."""
        from gin.cards import GinError, mix_seed
        from gin.match import Match
        from gin.rules import RuleSet

        play = self.play
        play.demo = demo
        if demo:
            play.mode = WATCH
        else:
            play.mode = self.settings["mode"]
            play.level = self.settings["level"]
            if has(play.mode, CONNECTS):
                self.link_start()
                return
        try:
            rules = RuleSet.from_bytes(self.settings["rules"])
        except GinError:
            rules = RuleSet()
        if seed is None and not demo:
            seed, self.next_seed = self.next_seed, None
        if seed is None:
            seed = self._fresh_seed(1)
            play.aiseed = self._fresh_seed(2)
        else:
            seed &= 0x7FFFFFFF
            play.aiseed = mix_seed(seed, 2) & 0x7FFFFFFF
        play.match = None
        gc.collect()
        play.seat = 0
        play.start_match(Match(rules, seed, deck, dealer))
        self._show_hand()
        self.autosave()  # the deal is on flash before anyone sees it: a power cut can't reshuffle

    def continue_game(self):
        snap, msg = self.saves.load_game()
        if msg:
            self.say(msg)
        if snap is None:
            self.has_save = False
            if self.msg is None:
                self.say("No saved game", True)
            return
        play = self.play
        play.demo = False
        play.mode = snap["mode"]
        play.level = snap["level"]
        play.aiseed = snap["aiseed"]
        play.sort = snap["sort"]
        play.match = snap["match"]
        play.hand_recorded = len(play.match.summaries)
        if has(play.mode, CONNECTS) and not self._link_resume(snap):
            play.match = None
            play.mode = self.settings["mode"]
            return
        play.seat_computers()
        play.notes = [None, None]
        if play.match.round.phase != OVER:
            if not has(play.mode, CONNECTS):
                play.seat = 0
            self._show_hand()
            c = snap["cursor"]
            # a card of the shown hand, or none (the table then picks one)
            h = play.match.round.hands[play.seat]
            play.cursor = c if 0 <= c < 52 and h[c // 13] >> (c % 13) & 1 else -1
        else:
            self.goto(RESULT)

    def previous_game(self):
        """Bring back the match the last new one replaced; the current one takes its place."""
        snap, msg = self.saves.load_kept()
        if snap is None:
            self.has_kept = False
            self.say(msg or "No previous match", True)
            return
        self.saves.save_game(snap)  # moves the match in progress to the kept slot first
        if self.saves.error:
            self.report_save_error()
            return
        self.has_save = True
        self.continue_game()

    def _show_hand(self):
        """The table, or first the pass screen when the handheld goes to the player to move."""
        play = self.play
        p = play.match.round.player
        if play.kind(p) == 2:  # modes.PASSER
            play.seat = p
            self.goto(PASS_SCREEN)
        else:
            self.goto(TABLE)

    def next_hand(self):
        play = self.play
        m = play.match
        if m.state == GAME_OVER:
            self.goto(OVER_SCREEN)
            return
        m.next_hand()
        play.start_hand()
        self._show_hand()
        if self.cable is not None:
            # the other's first moves of this hand may have come while the result was shown
            self._news(self.cable.flush(play))
        self.autosave()

    def _leave_match(self):
        self.save_due = False
        self._link_close()
        self.play.leave()
        self.view = None
        drop_modules(AI_MODULES)
        if sys.implementation.name == "micropython":  # a host's harnesses keep (and patch) theirs
            for name in list(sys.modules):
                if name.startswith("link."):
                    drop_module(name)  # a link match's code: loaded again by the next one
            drop_module("play_cable")
        gc.collect()

    def end_match(self):
        """Leave a finished match (or the demo) for the title; stats were counted as it ended."""
        play = self.play
        if not play.demo and play.match is not None and play.match.state == GAME_OVER:
            self.clear_save()
        self._leave_match()
        self._peek_save()
        self.goto(TITLE)

    def quit_to_title(self):
        self.autosave()
        self._leave_match()
        self._peek_save()
        self.goto(TITLE)

    def act(self, a):
        """A person's action; an illegal one is refused with the reason on one line."""
        from gin.cards import GinError

        play = self.play
        m = play.match
        if m is None or m.state != PLAYING:
            return False
        if not play.is_human(m.round.player):
            self.say("Wait: %s is playing" % play.names[m.round.player], True)
            return False
        lk = self.link
        if lk is not None and not lk.in_step():
            self.say(lk.status() or "Link: wait", True)
            return False
        hand = len(m.summaries)
        index = len(m.round.actions)
        try:
            outcome = play.apply(a)
        except GinError as e:
            self.say(str(e), True)
            return False
        if lk is not None:
            lk.sent(hand, index, a)
        self._moved(outcome)
        if not self.msg_err:
            self.msg = None
        return True

    def _moved(self, outcome):
        """What a move (anyone's) leads to on this handheld."""
        # Saved at the end of this step, once the frame is out: the flash write
        # (tens of ms on a Pico) doesn't delay what the press shows.
        self.save_due = True
        self.msg = None
        self.dirty = True
        if outcome == HAND_OVER:
            self._hand_over()
        elif outcome == PASS_ON:
            self.goto(PASS_SCREEN)
        elif outcome == YOUR_TURN:
            self.beep(SOUND_TURN)

    def _hand_over(self):
        play = self.play
        m = play.match
        n = len(m.summaries)
        if play.hand_recorded < n and not play.demo:
            st = None
            if has(play.mode, LEVEL_STATS):
                st = self.stats
                key = play.level
            elif has(play.mode, LINK_STATS):
                st = self.link_stats()
                key = 0
            if st is not None:
                play.hand_recorded = n
                st.record_hand(key, m.summaries[-1], play.seat, (m.seed, n))
                if m.state == GAME_OVER:
                    st.record_match(key, m, play.seat, m.seed)
                if st is self.stats:
                    self.saves.save_stats(st)
                else:
                    self.saves.save_link_stats(st)
                self.report_save_error()
        r = m.round.result
        if r.winner >= 0 and play.is_human(r.winner) and not has(play.mode, WATCHING):
            self.beep(SOUND_WIN)
        if m.state == GAME_OVER:
            if not play.demo:
                self.clear_save()
            self.save_due = False
        self.goto(RESULT)

    def hint(self):
        """The suggested (action, reason) for the person to act, or None."""
        h = self.play.hint()
        if self.play.level < 2:  # easy, normal: hard's code was loaded for this hint alone
            drop_modules(("gin.ai_hint", "gin.ai_hard"))
        if h is None:
            return None
        from ui.hintwords import reason

        return h[0], reason(h[0], h[1])

    def show_hint(self):
        """The hint on the table: the cursor on its card and the reason on the message line."""
        from ui.hintwords import HINT_MS, hint_card

        h = self.hint()
        if h is None:
            self.say("A hint comes on your turn")
            return
        c = hint_card(h[0])
        if c >= 0:
            self.set_cursor(c)
        self.say("Hint: " + h[1], False, HINT_MS)

    # --- the link cable (a CableSeat's news) ------------------------------------------------

    def link_start(self):
        """Play menu -> Link cable: wait for the other handheld (a new match)."""
        port = self.hw.link
        if port is None:
            self.say("No link port here", True)
            return
        from play_cable import CableSeat

        self._link_close()
        play = self.play
        play.match = None
        play.mode = LINK
        play.seat = 0
        self.cable = CableSeat(port, self.hw.clock.ticks_ms(), self._random_bytes)
        self.cable.session.propose(self.settings["rules"])
        self.goto(LINK_WAIT)

    def _random_bytes(self, n):
        rb = getattr(self.hw, "random_bytes", None)  # the tests' seeded source
        if rb is not None:
            return rb(n)
        import os

        return os.urandom(n)

    def _link_resume(self, snap):
        port = self.hw.link
        if port is None:
            self.say("No link port here", True)
            return False
        from play_cable import CableSeat

        self._link_close()
        self.play.seat = snap.get("seat", 0)
        self.cable = CableSeat(port, self.hw.clock.ticks_ms(), self._random_bytes)
        self.cable.session.resume(self.play.match, self.play.seat, snap.get("prev", b""))
        return True

    def link_cancel(self):
        """MENU while waiting for the other handheld, or a declined proposal: back to the title."""
        lk = self.link
        if lk is not None and lk.rules is not None and self.view.sid == LINK_RULES:
            lk.decline()
        self._leave_match()
        self._peek_save()
        self.goto(TITLE)

    def link_accept(self):
        if self.cable is not None:
            self.cable.session.accept()
            self.goto(LINK_WAIT)

    def link_status(self):
        """What the link is doing, in one line (None: nothing to say, or no link)."""
        return None if self.cable is None else self.cable.session.status()

    def link_paused(self):
        """A link match that can't go on right now (lost, or the other is not in step)."""
        return self.cable is not None and self.play.match is not None and not self.cable.session.in_step()

    def _link_prev(self):
        """The actions of the hand before the live one: the other may need them to catch up."""
        m = self.play.match
        if m.state == PLAYING and m.records and m.records[-1][1]:
            return m.records[-1][1]
        if m.state == PLAYING and self.cable is not None:
            return self.cable.session.prev
        return b""

    def _link_close(self):
        if self.cable is not None:
            self.cable.session.close(self.hw.clock.ticks_ms())
            self.cable = None

    def _news(self, news):
        """News from a seat, in the order it happened."""
        for kind, arg in news:
            if kind == "moved":
                self.idle.last = self.hw.clock.ticks_ms()  # the other moved: show it, don't dim now
                self._moved(arg)
            elif kind == "rules":
                self.goto(LINK_RULES, arg)
            elif kind == "start":
                self._link_match(arg)
            elif kind == "stop":
                self._link_stopped(arg)
                return
            elif kind == "note" and arg is not None:
                self.say(arg, self.play.match is not None)
            elif kind == "status":
                self._standing(arg)
            self.dirty = True

    def _standing(self, text):
        """The link's standing line: on the glass while it stands, gone the moment it is cleared
        (only that line: a message said since stays its own time)."""
        if text is None:
            if self.standing is not None and self.msg == self.standing:
                self._clear_msg()
            self.standing = None
            return
        if self.msg != text:
            self.say(text, not self.cable.session.up, STANDING_MS)
        else:
            self.msg_until = self.hw.clock.ticks_ms() + STANDING_MS
        self.standing = text

    def _link_match(self, arg):
        from gin.cards import GinError
        from gin.match import Match
        from gin.rules import RuleSet

        rule_bytes, seed, seat = arg
        try:
            rules = RuleSet.from_bytes(rule_bytes)
        except GinError as e:  # the joiner checked them before accepting: a starter's bug
            self._link_stopped("Rules refused: " + str(e))
            return
        play = self.play
        play.mode = LINK
        play.seat = seat
        play.match = None
        gc.collect()
        match = Match(rules, seed)
        play.aiseed = 0
        self.cable.session.playing(match)
        play.start_match(match)
        self._show_hand()
        self.autosave()  # the deal on flash before anyone sees it

    def _link_stopped(self, text):
        """The link match can't go on: say why; the save stays as it was before the refused move."""
        self.save_due = False
        play = self.play
        if play.match is not None:
            self.autosave()
        self._link_close()
        play.leave()
        self.view = None
        gc.collect()
        self._peek_save()
        play.mode = self.settings["mode"]
        from ui.link import wrap

        self.goto(TEXT, ("LINK STOPPED", wrap(text), TITLE))

    def _waiting_for_other(self):
        """Waiting for the other handheld: its answer, or its move."""
        if self.cable is None:
            return False
        m = self.play.match
        if m is None or m.state != PLAYING:
            return m is None
        return m.round.player != self.play.seat or not self.cable.session.in_step()

    # --- the computer's turn -------------------------------------------------------

    def _computer_turn(self, now):
        play = self.play
        m = play.match
        if m is None or m.state != PLAYING or self.view.sid != TABLE:
            return
        seat = play.computer()
        if seat is None:
            return
        hw = self.hw
        a = seat.turn(m, now, hw.clock, hw.feed)
        if a < 0:
            if seat.thinking:
                self.dirty = True  # the thinking mark, drawn this step
            return
        if has(play.mode, WATCHING) and not play.demo:
            self.idle.last = now  # someone is watching: no dimming while the computers play
        from gin.cards import GinError

        try:
            outcome = play.apply(a)
        except GinError as e:
            # a computer player's bug must not end the game: note it, play the first legal move
            hw.log("computer %d chose %d: %s" % (m.round.player, a, e))
            outcome = play.apply(m.round.legal_actions()[0])
        self._moved(outcome)

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
                    self._clear_msg()
                self._key(ev >> 2, ev & 3)
        if self.cable is not None:
            self._news(self.cable.poll(self.play, now))
            if self.cable is not None:
                self._news(self.cable.standing(self.play))
        dim_s = self.settings["dim_s"]
        off_s = self.settings["off_s"]
        if self._waiting_for_other():
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
            self.end_match()
        elif self.view.sid == TITLE and level != OFF and self.idle.idle_ms(now) >= DEMO_AFTER_MS:
            self.new_game(True)
        self._computer_turn(now)
        tick = getattr(self.view, "tick", None)
        if tick is not None:
            tick(self, now)
        if self.msg is not None and ticks_diff(now, self.msg_until) >= 0:
            self._clear_msg()
        if self.redraw_at is not None and ticks_diff(now, self.redraw_at) >= 0:
            self.dirty = True
        if self.dirty and self.level_shown != OFF:
            self.draw(now)
        if self.save_due:
            self.save_due = False
            self.autosave()
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
        if self.cable is not None:
            ms = LINK_BUSY_MS if self.cable.session.busy() else LINK_POLL_MS
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
        self.redraw_at = now + ms if ms else None

    def _led(self, now):
        if self.hw.display.present:
            on = False
        else:
            t = now % LED_PERIOD_MS
            on = t < 900 and (t % 300) < 120
        if on != self.led_on:
            self.led_on = on
            self.hw.led.set(on)
