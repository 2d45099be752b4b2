"""The matches this handheld plays: started, continued, brought back, saved, left; and what
each move leads to on it (the next screen, a sound, a save, the statistics).

``Games`` sits between the loop (app.py, which owns the screen, the messages and
the power) and the match in play (play.py, which changes the game and answers with
outcomes): a person's action from a screen, a computer's move when its pause is
over (play_computer.py) and the other handheld's news (play_cable.py) all come
here, and become screens, sounds and saves through the App.
"""

import gc
import sys

from launch import drop_module, drop_modules  # the start drops its own modules alike
from modes import CONNECTS, LEVEL_STATS, LINK_STATS, PASSER, WATCH, WATCHING, has
from play import HAND_OVER, KNOCK, OVER, PASS_ON, YOUR_TURN
from ui.screens import LINK_RULES, LINK_WAIT, OVER_SCREEN, PASS_SCREEN, RESULT, TABLE, TITLE

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Mirrors of gin.match numbers, so that booting to the title needs no rules core
# (a test holds them equal).
PLAYING = const(0)
GAME_OVER = const(2)

# A hint stays until the player acts: the next press clears a plain message (App.step), and
# an hour is longer than anyone reads one (a scrolling hint goes round again meanwhile).
HINT_MS = 3600000
SOUND_TURN = (880, 40)
SOUND_WIN = (1320, 120)


# The computer players' code: loaded by the level that needs it, let go when the match ends.
AI_MODULES = ("gin.ai_hint", "gin.ai_expert", "gin.ai_hard", "gin.ai", "gin.ai_eval", "play_computer")


class Games:
    def __init__(self, app):
        self.app = app
        self.play = app.play
        self.cable = None  # play_cable.CableSeat while a link match is set up or played
        self.save_due = False  # a move waits to be saved at the end of this loop step
        self.next_seed = None  # the next new game deals from this seed (the simulator's --seed)

    def step(self, now):
        """The loop's turn for the seats that aren't this handheld's person: the cable's news."""
        cable = self.cable
        if cable is not None:
            self.news(cable.poll(self.play, now))
            if self.cable is not None:
                self.news(self.cable.standing(self.play))

    def save_if_due(self):
        if self.save_due:
            self.save_due = False
            self.autosave()

    def saved_match_line(self):
        """'37–12, hand 4': the saved match in a few words, or None when none loads.

        Asked before New game replaces it; a save that doesn't load is reported
        (its one-line message) and counts as none.
        """
        if not self.app.has_save or has(self.app.settings["mode"], WATCHING):
            return None  # watching replaces nothing (savegame keeps the player's match)
        from savegame import match_line

        snap, msg = self.app.saves.load_game()
        if snap is None:
            self.app.has_save = False
            if msg:
                self.app.say(msg)
            return None
        return match_line(snap)

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
            snap["prev"] = self.cable.prev(play)
        self.app.saves.save_game(snap)
        self.app.report_save_error()
        self.app.has_save = self.app.saves.has_game()

    def clear_save(self):
        m = self.play.match
        self.app.saves.clear_game(None if m is None else m.seed)  # only this match: a watched one ends
        self.app.report_save_error()
        self.app.has_save = False

    def _fresh_seed(self, salt):
        # The moment of the button press is the entropy a handheld has.
        from gin.cards import mix_seed

        return mix_seed(self.app.hw.clock.ticks_ms() + self.app.frames * 7919, salt) & 0x7FFFFFFF

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
            play.mode = self.app.settings["mode"]
            play.level = self.app.settings["level"]
            if has(play.mode, CONNECTS):
                self.link_start()
                return
        try:
            rules = RuleSet.from_bytes(self.app.settings["rules"])
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
        self.show_hand()
        self.autosave()  # the deal is on flash before anyone sees it: a power cut can't reshuffle

    def continue_game(self):
        snap, msg = self.app.saves.load_game()
        if msg:
            self.app.say(msg)
        if snap is None:
            self.app.has_save = False
            if self.app.msg is None:
                self.app.say("No saved game", True)
            return
        play = self.play
        play.demo = False
        play.mode = snap["mode"]
        play.level = snap["level"]
        play.aiseed = snap["aiseed"]
        play.sort = snap["sort"]
        play.hold(snap["match"])
        play.hand_recorded = len(play.match.summaries)
        if has(play.mode, CONNECTS) and not self._resume_link(snap):
            play.match = None
            play.mode = self.app.settings["mode"]
            return
        play.seat_computers()
        play.notes = [None, None]
        if play.match.round.phase != OVER:
            if not has(play.mode, CONNECTS):
                play.seat = 0
            self.show_hand()
            c = snap["cursor"]
            # a card of the shown hand, or none (the table then picks one)
            h = play.match.round.hands[play.seat]
            play.cursor = c if 0 <= c < 52 and h[c // 13] >> (c % 13) & 1 else -1
        else:
            self.app.goto(RESULT)

    def previous_game(self):
        """Bring back the match the last new one replaced; the current one takes its place."""
        snap, msg = self.app.saves.load_kept()
        if snap is None:
            self.app.has_kept = False
            self.app.say(msg or "No previous match", True)
            return
        self.app.saves.save_game(snap)  # moves the match in progress to the kept slot first
        if self.app.saves.error:
            self.app.report_save_error()
            return
        self.app.has_save = True
        self.continue_game()

    def _resume_link(self, snap):
        from play_cable import resume

        return resume(self, snap)

    def show_hand(self):
        """The table, or first the pass screen when the handheld goes to the player to move."""
        play = self.play
        p = play.match.round.player
        if play.kind(p) == PASSER:
            play.seat = p
            self.app.goto(PASS_SCREEN)
        else:
            self.app.goto(TABLE)

    def next_hand(self):
        play = self.play
        m = play.match
        if m.state == GAME_OVER:
            self.app.goto(OVER_SCREEN)
            return
        m.next_hand()
        play.start_hand()
        self.show_hand()
        if self.cable is not None:
            # the other's first moves of this hand may have come while the result was shown
            self.news(self.cable.flush(play))
        self.autosave()

    def leave_match(self):
        self.save_due = False
        self.close_link()
        self.play.leave()
        self.app.view = None
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
        self.leave_match()
        self.app.peek_save()
        self.app.goto(TITLE)

    def quit_to_title(self):
        self.autosave()
        self.leave_match()
        self.app.peek_save()
        self.app.goto(TITLE)

    def act(self, a):
        """A person's action; an illegal one is refused with the reason on one line."""
        from gin.cards import GinError

        play = self.play
        m = play.match
        if m is None or m.state != PLAYING:
            return False
        if not play.is_human(m.round.player):
            self.app.say("Wait: %s is playing" % play.names[m.round.player], True)
            return False
        lk = self.app.link
        if lk is not None and not lk.in_step():
            self.app.say(lk.status() or "Link: wait", True)
            return False
        hand = len(m.summaries)
        index = len(m.round.actions)
        try:
            outcome = play.apply(a)
        except GinError as e:
            self.app.say(str(e), True)
            return False
        if lk is not None:
            lk.sent(hand, index, a)
        self.moved(outcome)
        if not self.app.msg_err:
            self.app.msg = None
        return True

    def moved(self, outcome):
        """What a move (anyone's) leads to on this handheld."""
        # Saved at the end of this step, once the frame is out: the flash write
        # (tens of ms on a Pico) doesn't delay what the press shows.
        self.save_due = True
        self.app.msg = None
        self.app.dirty = True
        if outcome == HAND_OVER:
            self._hand_over()
        elif outcome == PASS_ON:
            self.app.goto(PASS_SCREEN)
        elif outcome == YOUR_TURN:
            self.app.beep(SOUND_TURN)

    def _hand_over(self):
        play = self.play
        m = play.match
        n = len(m.summaries)
        if play.hand_recorded < n and not play.demo:
            st = None
            if has(play.mode, LEVEL_STATS):
                st = self.app.stats
                key = play.level
            elif has(play.mode, LINK_STATS):
                st = self.app.link_stats()
                key = 0
            if st is not None:
                play.hand_recorded = n
                st.record_hand(key, m.summaries[-1], play.seat, (m.seed, n))
                if m.state == GAME_OVER:
                    st.record_match(key, m, play.seat, m.seed)
                if st is self.app.stats:
                    self.app.saves.save_stats(st)
                else:
                    self.app.saves.save_link_stats(st)
                self.app.report_save_error()
        r = m.round.result
        if r.winner >= 0 and play.is_human(r.winner) and not has(play.mode, WATCHING):
            self.app.beep(SOUND_WIN)
        if m.state == GAME_OVER:
            if not play.demo:
                self.clear_save()
            self.save_due = False
        self.app.goto(RESULT)

    def hint(self):
        """The suggested (action, reason) for the person to act, or None."""
        h = self.play.hint()
        if self.play.level < 2:  # easy, normal: hard's code was loaded for this hint alone
            drop_modules(("gin.ai_hint", "gin.ai_hard"))
        if h is None:
            return None
        from ui.hintwords import reason

        words = reason(h[0], h[1])
        drop_module("ui.hintwords")  # a hint is rare: its words needn't stay in RAM
        return h[0], words

    def show_hint(self):
        """The hint on the table: the cursor on its card and the reason on the message line."""
        h = self.hint()
        if h is None:
            self.app.say("A hint comes on your turn")
            return
        a = h[0]
        if 0 <= a < 52:
            self.app.set_cursor(a)  # the card to discard
        elif KNOCK <= a < KNOCK + 52:
            self.app.set_cursor(a - KNOCK)  # the card to knock with
        self.app.say("Hint: " + h[1], False, HINT_MS)

    def link_start(self):
        """Play menu -> Link cable: wait for the other handheld (a new match)."""
        from play_cable import start

        start(self)

    def link_cancel(self):
        """MENU while waiting for the other handheld, or a declined proposal: back to the title."""
        lk = self.app.link
        if lk is not None and lk.rules is not None and self.app.view.sid == LINK_RULES:
            lk.decline()
        self.leave_match()
        self.app.peek_save()
        self.app.goto(TITLE)

    def link_accept(self):
        if self.cable is not None:
            self.cable.session.accept()
            self.app.goto(LINK_WAIT)

    def close_link(self):
        if self.cable is not None:
            self.cable.session.close(self.app.hw.clock.ticks_ms())
            self.cable = None

    def news(self, news):
        """News from a seat, in the order it happened (play_cable.py lists the kinds)."""
        for kind, arg in news:
            if kind == "moved":
                self.app.idle.last = self.app.hw.clock.ticks_ms()  # the other moved: show it, don't dim now
                self.moved(arg)
            else:
                from play_cable import news as cable_news

                cable_news(self, kind, arg)
                if kind == "stop":
                    return
            self.app.dirty = True

    def computer_turn(self, now):
        play = self.play
        m = play.match
        if m is None or m.state != PLAYING or self.app.view.sid != TABLE:
            return
        seat = play.computer()
        if seat is None:
            return
        hw = self.app.hw
        a = seat.turn(m, now, hw.clock, hw.feed)
        if a < 0:
            if seat.thinking:
                self.app.dirty = True  # the thinking mark, drawn this step
            return
        if has(play.mode, WATCHING) and not play.demo:
            self.app.idle.last = now  # someone is watching: no dimming while the computers play
        from gin.cards import GinError

        try:
            outcome = play.apply(a)
        except GinError as e:
            # a computer player's bug must not end the game: note it, play the first legal move
            hw.log("computer %d chose %d: %s" % (m.round.player, a, e))
            outcome = play.apply(m.round.legal_actions()[0])
        self.moved(outcome)
