"""The loop: input -> ui -> game/ai -> save -> draw.

``App(hw)`` runs on the Pico (device/pico.py builds ``hw``) and on the PC
(the simulator and the tests hand it a fake), always the same code.  Events
flow one way: a button event goes to the current screen's ``key``, which
calls an App method (an action, a menu choice); the App changes the game and
marks the frame dirty; ``draw`` turns the state into pixels.

RAM is the Pico's scarcest resource, so the rules core and the computer
players are imported when a game needs them, and a screen's module is loaded
when it is shown and dropped when another takes its place.
"""

import gc
import sys

from device.buttons import ticks_diff
from device.sleep import AWAKE, DIM, DIM_CONTRAST, OFF, Idle
from ui import screens
from ui.canvas import Canvas
from ui.draw import banner, scroll_ms
from ui.screens import (
    LINK,
    LINK_RULES,
    LINK_WAIT,
    OVER_SCREEN,
    PASS_SCREEN,
    RESULT,
    TABLE,
    TEXT,
    TITLE,
    TWO_PEOPLE,
    VS_CPU,
    WATCH,
)

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Mirrors of gin.match / gin.round numbers, so that booting to the title
# needs no rules core (a test holds them equal).
PLAYING = const(0)
GAME_OVER = const(2)
DISCARD_PHASE = const(2)
OVER = const(4)
KNOCK = const(52)
DRAW_STOCK = const(104)
TAKE_DISCARD = const(105)
PASS = const(106)
BIG_GIN = const(107)

GAME_FILE = "game.sav"  # savegame.GAME_FILE

NAMES = (("You", "CPU"), ("P1", "P2"), ("North", "South"), ("You", "Other"))  # by play mode

DEMO_AFTER_MS = const(60000)  # idle on the title before the demo starts
PACE_MS = (const(450), const(700))  # the computer's pause before a draw, before a discard
WATCH_PACE_MS = const(900)
THINK_MS = const(80)  # a move slower than this shows the thinking mark before the next one
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
SOUND_TURN = (880, 40)
SOUND_WIN = (1320, 120)


def _drop_module(name):
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


# The computer players' code: loaded by the level that needs it, let go when the match ends.
_AI_MODULES = ("gin.ai_hint", "gin.ai_expert", "gin.ai_hard", "gin.ai", "gin.ai_eval")


def _drop_ai(names):
    for name in names:
        _drop_module(name)


class App:
    def __init__(self, hw, resume=False):

        self.hw = hw
        self.canvas = Canvas()
        self.idle = Idle(hw.clock.ticks_ms())
        self.level_shown = AWAKE
        from savegame import SaveManager

        self.saves = SaveManager(hw.storage)
        self.settings, self.stats, msg = self.saves.load_profile()
        # the game
        self.match = None
        self.mode = self.settings["mode"]
        self.level = self.settings["level"]
        self.players = [None, None]
        self.aiseed = 0
        self.seat = 0  # whose hand the table shows
        self.sort = 0
        self.cursor = -1  # card id under the cursor
        self.notes = ["", ""]  # each player's last visible move, in words
        self.demo = False
        self.link = None  # link.session.LinkPlay while a link match is set up or played
        self.thinking = False
        self.ai_due = None
        self.slow = [False, False]  # per seat: was its last decision slow? (the thinking mark)
        self.hand_recorded = -1
        self._lstats = None  # prefs.LinkStats, loaded when first needed
        self.has_save = False
        self.has_kept = False  # a match that a new one replaced can be brought back
        self.save_due = False
        self.next_seed = None  # the next new game deals from this seed (the simulator's --seed)
        self._battery = (None, 0)  # (mV, when read): a gauge read at most every BATTERY_MS
        # the screen
        self.view = None
        self.view_mod = None
        self.dirty = True
        self.redraw_at = None
        self.msg = None
        self.msg_err = False
        self.msg_until = 0
        self.msg_at = 0  # when the message appeared: a scrolling one starts at its beginning
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
        if not self.has_save or self.settings["mode"] == WATCH:
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

    def apply_contrast(self):
        self.hw.display.contrast(DIM_CONTRAST if self.level_shown == DIM else self.settings["contrast"])

    def autosave(self):
        m = self.match
        if self.demo or m is None or m.state == GAME_OVER or m.stacked:
            return  # a stacked deal (tests, tools) can't be rebuilt from its seed: never saved
        from savegame import snapshot_of

        cur = self.cursor if self.cursor >= 0 else 0
        snap = snapshot_of(m, self.mode, self.level, self.sort, cur, self.aiseed)
        if self.mode == LINK:
            snap["seat"] = self.seat
            snap["prev"] = self._link_prev()
        self.saves.save_game(snap)
        self.report_save_error()
        self.has_save = self.saves.has_game()

    def clear_save(self):
        m = self.match
        self.saves.clear_game(None if m is None else m.seed)  # only this match: a watched one ends
        self.report_save_error()
        self.has_save = False

    # --- screens --------------------------------------------------------------

    def goto(self, sid, arg=None):
        mod = screens.module_of(sid)
        old = self.view_mod
        self.view = None
        if old is not None and old != mod:
            _drop_module(old)
        cls = screens.load(sid)
        self.view_mod = mod
        self.view = cls(self, arg)
        self.dirty = True
        self.redraw_at = None

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
        if self.settings["sound"] and not self.demo:
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

    # --- the game ---------------------------------------------------------------

    @property
    def names(self):
        if self.mode == LINK and self.seat == 1:
            return ("Other", "You")
        return NAMES[self.mode]

    def is_human(self, p):
        """A person plays p on this device (on a link, the other device's player is not)."""
        return self.players[p] is None and (self.mode != LINK or p == self.seat)

    def _make_players(self):
        self.players = [None, None]
        if self.mode == TWO_PEOPLE or self.mode == LINK:
            return
        from gin import ai
        from gin.cards import mix_seed

        level = ai.LEVELS[2 if self.demo else self.level]
        self.players[1] = ai.make_player(level, self.aiseed)
        if self.mode == WATCH:
            self.players[0] = ai.make_player(level, mix_seed(self.aiseed, 7))

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

        self.demo = demo
        if demo:
            self.mode = WATCH
        else:
            self.mode = self.settings["mode"]
            self.level = self.settings["level"]
            if self.mode == LINK:
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
            self.aiseed = self._fresh_seed(2)
        else:
            seed &= 0x7FFFFFFF
            self.aiseed = mix_seed(seed, 2) & 0x7FFFFFFF
        self.match = None
        gc.collect()
        self.match = Match(rules, seed, deck, dealer)
        self.hand_recorded = -1
        self._make_players()
        self._start_hand()
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
        self.demo = False
        self.mode = snap["mode"]
        self.level = snap["level"]
        self.aiseed = snap["aiseed"]
        self.sort = snap["sort"]
        self.match = snap["match"]
        self.hand_recorded = len(self.match.summaries)
        if self.mode == LINK and not self._link_resume(snap):
            self.match = None
            self.mode = self.settings["mode"]
            return
        self._make_players()
        self.notes = ["", ""]
        self.thinking = False
        self.ai_due = None
        if self.match.round.phase != OVER:
            self._start_view()
            c = snap["cursor"]
            # a card of the shown hand, or none (the table then picks one)
            h = self.match.round.hands[self.seat]
            self.cursor = c if 0 <= c < 52 and h[c // 13] >> (c % 13) & 1 else -1
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

    def _start_hand(self):
        self.notes = ["", ""]
        self.cursor = -1
        self.thinking = False
        self.ai_due = None
        self._start_view()

    def _start_view(self):
        if self.mode == TWO_PEOPLE:
            self.seat = self.match.round.player
            self.goto(PASS_SCREEN)
        elif self.mode == LINK:
            self.goto(TABLE)  # this device's seat, fixed for the match
        else:
            self.seat = 0
            self.goto(TABLE)

    def next_hand(self):
        m = self.match
        if m.state == GAME_OVER:
            self.goto(OVER_SCREEN)
            return
        m.next_hand()
        self._start_hand()
        if self.link is not None:
            # the other's first moves of this hand may have come while the result was shown
            self._link_events(self.link.flush(self._remote_move))
        self.autosave()

    def _leave_match(self):
        self.save_due = False
        self._link_close()
        self.match = None
        self.players = [None, None]
        self.demo = False
        self.view = None
        _drop_ai(_AI_MODULES)
        if sys.implementation.name == "micropython":  # a host's harnesses keep (and patch) theirs
            for name in list(sys.modules):
                if name.startswith("link."):
                    _drop_module(name)  # a link match's code: loaded again by the next one
        gc.collect()

    def end_match(self):
        """Leave a finished match (or the demo) for the title; stats were counted as it ended."""
        if not self.demo and self.match is not None and self.match.state == GAME_OVER:
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

        m = self.match
        if m is None or m.state != PLAYING:
            return False
        if not self.is_human(m.round.player):
            self.say("Wait: %s is playing" % self.names[m.round.player], True)
            return False
        lk = self.link
        if lk is not None and not lk.in_step():
            self.say(lk.status() or "Link: wait", True)
            return False
        hand = len(m.summaries)
        index = len(m.round.actions)
        try:
            self._apply(a)
        except GinError as e:
            self.say(str(e), True)
            return False
        if lk is not None:
            lk.sent(hand, index, a)
        if not self.msg_err:
            self.msg = None
        return True

    def _apply(self, a):
        m = self.match
        rnd = m.round
        p = rnd.player
        before = list(rnd.hands[p])
        m.apply(a)
        # Saved at the end of this step, once the frame is out: the flash write
        # (tens of ms on a Pico) doesn't delay what the press shows.
        self.save_due = True
        self.msg = None
        self.dirty = True
        self._note(p, a, rnd)
        if (a == DRAW_STOCK or a == TAKE_DISCARD) and p == self.seat:
            # the cursor goes to the card that just arrived
            h = rnd.hands[p]
            for s in range(4):
                new = h[s] & ~before[s]
                if new:
                    r = 0
                    while not new >> r & 1:
                        r += 1
                    self.cursor = s * 13 + r
        if rnd.phase == OVER:
            self._hand_over()
            return
        if self.mode == TWO_PEOPLE and rnd.player != self.seat:
            self.seat = rnd.player
            self.goto(PASS_SCREEN)
            return
        if self.mode == VS_CPU and p == 1 and rnd.player == 0:
            self.beep(SOUND_TURN)

    # --- the link cable ------------------------------------------------------------------

    def link_start(self):
        """Play menu -> Link cable: wait for the other handheld (a new match)."""
        port = self.hw.link
        if port is None:
            self.say("No link port here", True)
            return
        from link.session import LinkPlay

        self._link_close()
        self.match = None
        self.mode = LINK
        self.seat = 0
        self.link = LinkPlay(port, self.hw.clock.ticks_ms(), self._random_bytes)
        self.link.propose(self.settings["rules"])
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
        from link.session import LinkPlay

        self._link_close()
        self.seat = snap.get("seat", 0)
        self.link = LinkPlay(port, self.hw.clock.ticks_ms(), self._random_bytes)
        self.link.resume(self.match, self.seat, snap.get("prev", b""))
        return True

    def link_cancel(self):
        """MENU while waiting for the other handheld, or a declined proposal: back to the title."""
        if self.link is not None and self.link.rules is not None and self.view.sid == LINK_RULES:
            self.link.decline()
        self._leave_match()
        self._peek_save()
        self.goto(TITLE)

    def link_accept(self):
        if self.link is not None:
            self.link.accept()
            self.goto(LINK_WAIT)

    def link_paused(self):
        """A link match that can't go on right now (lost, or the other is not in step)."""
        return self.link is not None and self.match is not None and not self.link.in_step()

    def link_stats(self):
        if self._lstats is None:
            from prefs import LinkStats

            st = self.saves.load_link_stats()
            self._lstats = st if st is not None else LinkStats()
        return self._lstats

    def _link_prev(self):
        """The actions of the hand before the live one: the other may need them to catch up."""
        m = self.match
        if m.state == PLAYING and m.records and m.records[-1][1]:
            return m.records[-1][1]
        if m.state == PLAYING and self.link is not None:
            return self.link.prev
        return b""

    def _link_close(self):
        if self.link is not None:
            self.link.close(self.hw.clock.ticks_ms())
            self.link = None

    def _remote_move(self, a):
        """The other handheld's move: None when applied, else why it is refused (nothing changed)."""
        from gin.cards import GinError

        m = self.match
        if m is None or m.state != PLAYING:
            return "no hand is being played"
        if m.round.player == self.seat:  # (the session refuses it first: this is the App's own rule)
            return "it is not the other's turn"
        try:
            self._apply(a)
        except GinError as e:
            return str(e)
        self.idle.last = self.hw.clock.ticks_ms()  # the other moved: show it, don't dim now
        return None

    def _link_events(self, evs):
        for kind, arg in evs:
            if kind == "rules":
                self.goto(LINK_RULES, arg)
            elif kind == "start":
                self._link_match(arg)
            elif kind == "stop":
                self._link_stopped(arg)
                return
            elif kind == "note" and arg is not None:
                self.say(arg, self.match is not None)
            self.dirty = True

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
        self.mode = LINK
        self.seat = seat
        self.match = None
        gc.collect()
        self.match = Match(rules, seed)
        self.hand_recorded = -1
        self.aiseed = 0
        self.link.playing(self.match)
        self._make_players()
        self._start_hand()
        self.autosave()  # the deal on flash before anyone sees it

    def _link_stopped(self, text):
        """The link match can't go on: say why; the save stays as it was before the refused move."""
        self.save_due = False
        if self.match is not None:
            self.autosave()
        self._link_close()
        self.match = None
        self.players = [None, None]
        self.view = None
        gc.collect()
        self._peek_save()
        self.mode = self.settings["mode"]
        from ui.link import wrap

        self.goto(TEXT, ("LINK STOPPED", wrap(text), TITLE))

    def _link_step(self, now):
        lk = self.link
        self._link_events(lk.poll(now, self._remote_move))
        lk = self.link
        if lk is None or self.match is None:
            return
        st = lk.status()
        if st is not None:
            if self.msg != st:
                self.say(st, not lk.up, 60000)
            else:
                self.msg_until = now + 60000
        elif self.msg is not None and (self.msg.startswith("Link") or self.msg.startswith("Catching")):
            self.msg = None
            self.dirty = True

    def _waiting_for_other(self):
        """Waiting for the other handheld: its answer, or its move."""
        lk = self.link
        if lk is None:
            return False
        m = self.match
        if m is None or m.state != PLAYING:
            return m is None
        return m.round.player != self.seat or not lk.in_step()

    def _note(self, p, a, rnd):
        from ui.draw import card_str

        if a == TAKE_DISCARD:
            self.notes[p] = "took " + card_str(rnd.took[p][-1])
        elif a == DRAW_STOCK:
            self.notes[p] = "drew"
        elif a == PASS:
            self.notes[p] = "passed"
        elif a == BIG_GIN:
            self.notes[p] = "big gin!"
        elif KNOCK <= a < KNOCK + 52:
            self.notes[p] = "knocked"

    def _hand_over(self):
        m = self.match
        n = len(m.summaries)
        if self.mode == VS_CPU and not self.demo and self.hand_recorded < n:
            self.hand_recorded = n
            self.stats.record_hand(self.level, m.summaries[-1], 0, (m.seed, n))
            if m.state == GAME_OVER:
                self.stats.record_match(self.level, m, 0, m.seed)
            self.saves.save_stats(self.stats)
            self.report_save_error()
        elif self.mode == LINK and self.hand_recorded < n:
            self.hand_recorded = n
            ls = self.link_stats()
            ls.record_hand(0, m.summaries[-1], self.seat, (m.seed, n))
            if m.state == GAME_OVER:
                ls.record_match(0, m, self.seat, m.seed)
            self.saves.save_link_stats(ls)
            self.report_save_error()
        r = m.round.result
        if r.winner >= 0 and self.is_human(r.winner) and self.mode != WATCH:
            self.beep(SOUND_WIN)
        if m.state == GAME_OVER:
            if not self.demo:
                self.clear_save()
            self.save_due = False
        self.thinking = False
        self.ai_due = None
        self.goto(RESULT)

    def hint(self):
        """The suggested (action, reason) for the person to act, or None: the
        hard player's, or the expert's against the expert (whose players wait
        for its search anyway)."""
        m = self.match
        if m is None or m.state != PLAYING or not self.is_human(m.round.player):
            return None
        from gin import ai

        level = ai.LEVELS[self.level]
        h = ai.hint(m.observation(m.round.player), level == "expert")
        if level != "hard" and level != "expert":
            _drop_ai(("gin.ai_hint", "gin.ai_hard"))  # hard's code was loaded for this hint alone
        return h

    # --- the computer's turn -------------------------------------------------------

    def _autoplay(self, now):
        m = self.match
        if m is None or m.state != PLAYING or self.view.sid != TABLE:
            return
        rnd = m.round
        p = rnd.player
        pl = self.players[p]
        if pl is None:
            return
        if self.ai_due is None:
            if self.mode == WATCH:
                pace = WATCH_PACE_MS
            else:
                pace = PACE_MS[1 if rnd.phase == DISCARD_PHASE else 0]
            self.ai_due = now + pace
            return
        if ticks_diff(now, self.ai_due) < 0:
            return
        if self.slow[p] and not self.thinking:
            self.thinking = True  # drawn this step; the move comes next step
            self.dirty = True
            return
        feed = self.hw.feed
        if feed is not None:
            feed()  # a slow decision must not look like a hang to the watchdog
        clock = self.hw.clock
        t0 = clock.ticks_ms()
        a = pl.choose(m.observation(p))
        self.slow[p] = ticks_diff(clock.ticks_ms(), t0) >= THINK_MS
        self.thinking = False
        self.ai_due = None
        if self.mode == WATCH and not self.demo:
            self.idle.last = now  # someone is watching: no dimming while the computers play
        from gin.cards import GinError

        try:
            self._apply(a)
        except GinError as e:
            # a computer player's bug must not end the game: note it, play the first legal move
            self.hw.log("computer %d chose %d: %s" % (p, a, e))
            self._apply(m.round.legal_actions()[0])

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
                    self.msg = None
                    self.dirty = True
                self.view.key(self, ev >> 2, ev & 3)
        if self.link is not None:
            self._link_step(now)
        dim_s = self.settings["dim_s"]
        off_s = self.settings["off_s"]
        if self._waiting_for_other():
            # the other player is thinking: stay lit unless nobody has touched this one for long
            if dim_s and dim_s < LINK_PATIENCE_S:
                dim_s = LINK_PATIENCE_S
            if off_s and off_s < 2 * LINK_PATIENCE_S:
                off_s = 2 * LINK_PATIENCE_S
        level = self.idle.update(now, dim_s, off_s, not self.demo)
        if level != self.level_shown:
            self._set_level(level)
        if level == OFF and self.demo:
            self.end_match()
        elif self.view.sid == TITLE and level != OFF and self.idle.idle_ms(now) >= DEMO_AFTER_MS:
            self.new_game(True)
        self._autoplay(now)
        tick = getattr(self.view, "tick", None)
        if tick is not None:
            tick(self, now)
        if self.msg is not None and ticks_diff(now, self.msg_until) >= 0:
            self.msg = None
            self.dirty = True
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
        if self.thinking:
            return 1
        ms = 20
        if self.link is not None:
            ms = LINK_BUSY_MS if self.link.busy() else LINK_POLL_MS
        for t in (self.ai_due, self.redraw_at):
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
        # else where it drew (``damage``), which the display only needs to compare.
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
        if damage is not None and hasattr(d, "damage"):
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
