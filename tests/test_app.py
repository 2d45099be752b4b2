"""The app end to end on the fake hardware: buttons in, frames, saves and sounds out."""

import os
import sys
from pathlib import Path

import pytest

import app as appmod
import modes
from app import App
from device.buttons import DOWN, DRAW, KNOCK, LEFT, MENU, PRESS, RIGHT, UP, event
from gin import match as gmatch
from gin import round as ground
from gin.rules import RuleSet
from ui import screens

from host_tools.hw.fake_hw import AutoPlayer, Driver, FakeHw
from test_ui_golden import (
    GIN,
    LAYOFF,
    SPREAD,
    UNDERCUT,
    boot,
    card,
    drawn_from_stock,
    seeded,
    stacked,
    to_card,
)

ROOT = Path(__file__).resolve().parent.parent


def new_app(start_ms=1000, **kw):
    hw = FakeHw(start_ms=start_ms, **kw)
    a = App(hw)
    d = Driver(a, hw)
    d.run(200)
    return hw, a, d


def lit(buf):
    return sum(bin(b).count("1") for b in buf)


# --- wiring -----------------------------------------------------------------------------------


def test_the_mirrors_of_rules_numbers_match_the_core():
    import games
    import play
    import play_cable
    import play_computer
    from ui import hintwords

    assert games.PLAYING == gmatch.PLAYING and games.GAME_OVER == gmatch.GAME_OVER
    assert play.PLAYING == play_cable.PLAYING == gmatch.PLAYING
    assert play.DISCARD_PHASE == play_computer.DISCARD_PHASE == ground.DISCARD_PHASE
    assert play.OVER == ground.OVER
    for name in ("KNOCK", "DRAW_STOCK", "TAKE_DISCARD", "BIG_GIN"):
        assert getattr(play, name) == getattr(ground, name)
    assert (hintwords.KNOCK_ACTION, hintwords.PASS_ACTION, hintwords.ARRANGE_ACTION) == (
        ground.KNOCK,
        ground.PASS,
        ground.ARRANGE,
    )
    import savegame

    assert appmod.GAME_FILE == savegame.GAME_FILE


def test_screen_ids_are_what_each_screen_class_says():
    for sid, (mod, cls) in enumerate(screens.CLASSES):
        m = __import__("ui." + mod, None, None, (cls,))
        assert getattr(m, cls).sid == sid


def test_title_variant_marks_read_the_rule_bytes_where_rules_puts_them():
    from ui.menus import rules_short

    assert rules_short(RuleSet().to_bytes()) == "Classic"
    rs = RuleSet.preset_rules("modern", straight=True, oklahoma=True, hollywood=True)
    assert rules_short(rs.to_bytes()) == "Modern+SOH"
    assert rules_short(RuleSet(preset="20/25", hollywood=True).to_bytes()) == "20/25+H"


def test_booting_to_the_title_loads_no_rules_core_beyond_what_saves_need(monkeypatch):
    for name in list(sys.modules):  # other tests may have loaded them: boot as the device does
        if name.startswith("gin.ai") or name.startswith("ui.table"):
            pkg, _, attr = name.rpartition(".")
            monkeypatch.delattr(sys.modules[pkg], attr, raising=False)
            monkeypatch.delitem(sys.modules, name)
    hw, a, d = new_app()
    assert a.view.sid == screens.TITLE
    assert not [n for n in sys.modules if n.startswith("gin.ai")]
    a.new_game()
    assert "gin.ai" in sys.modules
    a.quit_to_title()
    assert "gin.ai" not in sys.modules and "gin.ai_eval" not in sys.modules


def test_a_screen_module_is_dropped_when_another_takes_its_place():
    hw, a, d = new_app()
    assert "ui.menus" in sys.modules
    a.new_game()
    assert "ui.table" in sys.modules and "ui.menus" not in sys.modules
    d.press("MENU")
    assert "ui.menus" in sys.modules and "ui.table" not in sys.modules


# --- whole matches with buttons only -------------------------------------------------------------


@pytest.mark.parametrize("start", [1000, 4321])
def test_a_whole_match_from_title_to_game_over_with_buttons_only(start):
    hw, a, d = new_app(start)
    d.press("DRAW")  # New game
    assert a.view.sid == screens.TABLE and a.mode == 0
    bot = AutoPlayer(d)
    seen = set()
    while a.view.sid != screens.TITLE:
        seen.add(a.view.sid)
        assert bot.step(to_title=True) is not None
    assert {screens.TABLE, screens.RESULT, screens.SHEET, screens.OVER_SCREEN} <= seen
    assert a.match is None and not a.has_save
    assert a.stats.levels[1].matches == 1
    assert a.stats.levels[1].hands >= 1
    # the stats reached the flash
    b = App(hw)
    assert b.stats.levels[1].matches == 1


def test_two_people_pass_the_device_and_never_see_each_other():
    hw, a, d = new_app(2222)
    a.settings["mode"] = modes.TWO_PEOPLE
    d.press("DRAW")
    assert a.view.sid == screens.PASS_SCREEN
    bot = AutoPlayer(d)
    passes = 0
    for _ in range(400):
        if a.view.sid == screens.TITLE:
            break
        if a.view.sid == screens.TABLE:
            rnd = a.match.round
            assert a.seat == rnd.player, "the table shows a hand that is not to play"
        if a.view.sid == screens.PASS_SCREEN:
            shown = bytes(hw.display.frame)
            passes += 1
            if passes == 1:
                # the pass screen hides the cards: other hands draw the same frame
                rnd = a.match.round
                hands = rnd.hands
                rnd.hands = [[0, 0, 0, 0], [0x1FFF, 0, 0, 0]]
                a.dirty = True
                d.run(10)
                rnd.hands = hands
                assert hw.display.frame == shown
        bot.step(to_title=True)
    assert passes >= 4
    assert a.play.seats == [None, None]


def test_watching_the_computer_play_itself_needs_no_button():
    hw, a, d = new_app(3333)
    a.settings["mode"] = modes.WATCH
    d.press("DRAW")
    for _ in range(1000):
        if a.view.sid == screens.OVER_SCREEN:
            break
        d.run(5000)
    assert a.view.sid == screens.OVER_SCREEN
    assert a.match.state == gmatch.GAME_OVER
    assert a.level_shown == 0, "the screen dimmed while the computers played"


# --- the table ------------------------------------------------------------------------------------


def test_the_cursor_moves_wraps_and_follows_the_drawn_card():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    order = a.view.layout(a)
    assert a.cursor == order[0]
    d.press("LEFT")
    assert a.cursor == order[-1]
    d.press("RIGHT")
    d.press("RIGHT")
    assert a.cursor == order[1]
    d.press("DRAW")  # pass
    d.run(600)
    d.press("DRAW")  # draw JH from the stock
    assert a.cursor == card("JH")


def test_holding_an_arrow_repeats():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3])
    d.press("RIGHT", hold_ms=700)
    order = a.view.layout(a)
    assert order.index(a.cursor) >= 3


def test_upcard_offer_take_and_pass_are_labelled_and_work():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    slots = a.view.legend_slots(a)
    assert slots[0] == ("DRAW", "pass") and slots[1][1].startswith("take ")
    d.press("DISCARD")
    rnd = a.match.round
    assert rnd.phase == ground.DISCARD_PHASE and card("TD") in rnd.cards_of(0)
    assert a.cursor == card("TD")


def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing():
    h, a, d = boot()
    stacked(a, *UNDERCUT[:3], stock="5H", cpu=[106])
    d.press("KNOCK")  # knock during the upcard offer
    assert a.msg_err and a.msg == "take the upcard or pass first"
    d.press("DRAW")
    d.run(600)
    d.press("DRAW")
    to_card(d, "5H")
    d.press("LEFT")
    acts = bytes(a.match.round.actions)
    d.press("KNOCK")
    assert a.msg_err and "above the knock limit" in a.msg
    assert bytes(a.match.round.actions) == acts
    assert h.sound.tones, "an error beeps"


def test_the_card_just_taken_cannot_be_thrown_back():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    d.press("DISCARD")  # take the upcard TD
    assert a.cursor == card("TD")
    assert a.view.legend_slots(a)[1] == ("DISC", None)
    d.press("DISCARD")
    assert a.msg_err and "just taken" in a.msg


def test_action_buttons_wait_for_the_computers_turn():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[106])
    assert a.match.round.player == 1
    d.press("DRAW")
    assert a.msg_err and a.msg.startswith("Wait")


def test_sort_toggles_and_melds_stay_grouped():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3])
    by_suit = list(a.view.layout(a))
    d.press("UP")
    assert a.sort == 1
    by_rank = list(a.view.layout(a))
    assert sorted(by_suit) == sorted(by_rank) and by_suit != by_rank
    groups = a.view.groups
    melds = [g for g, m in groups if m]
    assert sorted(map(sorted, melds)) == sorted(
        map(
            sorted,
            [
                [card(x) for x in "4H 5H 6H".split()],
                [card(x) for x in "9S TS JS".split()],
                [card(x) for x in "KC KD KH".split()],
            ],
        )
    )


def test_knocking_shows_the_spread_then_the_lay_offs_one_by_one():
    h, a, d = drawn_from_stock(LAYOFF)
    to_card(d, "JH")
    d.press("KNOCK")
    assert a.view.sid == screens.RESULT
    r = a.match.round.result
    assert len(r.layoffs) >= 2
    assert a.view.k == 0
    d.run(1000)
    assert a.view.k == 1
    d.run(900 * len(r.layoffs))
    assert a.view.done
    d.press("DRAW")
    assert a.view.sid == screens.SHEET
    d.press("DRAW")
    assert a.view.sid == screens.TABLE and a.match.hand_no == 1


def test_the_knocker_picks_among_equal_arrangements_on_screen():
    h, a, d = drawn_from_stock(SPREAD)
    to_card(d, "QH")
    d.press("KNOCK")
    rnd = a.match.round
    assert rnd.phase == ground.SPREAD
    arrs = list(rnd.arrangements)
    d.press("RIGHT")
    assert "2 of" in a.view.prompt(a)
    d.press("KNOCK")
    assert rnd.result.knocker_melds == arrs[1][0]


def test_gin_and_undercut_results_say_why():
    from ui.result import why

    h, a, d = drawn_from_stock(GIN)
    to_card(d, "KD")
    d.press("KNOCK")
    r = a.match.round.result
    assert r.kind == ground.GIN and why(r) == "gin: 20+%d" % r.defender_deadwood
    h, a, d = drawn_from_stock(UNDERCUT)
    to_card(d, "KD")
    d.press("KNOCK")
    r = a.match.round.result
    assert r.kind == ground.UNDERCUT and why(r) == "undercut: 8-1+10"


def test_big_gin_is_offered_on_the_draw_button():
    h, a, d = boot()
    # taking the upcard 5S makes AS-5S, 9C-JC and three 7s: all eleven cards in melds
    stacked(a, "AS 2S 3S 4S 9C TC JC 7H 7S 7D", GIN[1], "5S", stock="KD", rules=RuleSet(big_gin=True))
    d.press("DISCARD")
    assert a.view.legend_slots(a)[0] == ("DRAW", "big gin")
    d.press("DRAW")
    assert a.match.round.result.kind == ground.BIG_GIN_WIN


def test_the_hint_moves_the_cursor_and_says_why():
    h, a, d = drawn_from_stock(LAYOFF)
    action, reason = a.hint()
    card = action if action < 52 else action - ground.KNOCK
    assert 0 <= card < 52
    d.press("DOWN")
    assert a.msg == "Hint: " + reason and not a.msg_err
    assert a.cursor == card  # the cursor is on the card the hint throws


def test_the_thinking_mark_shows_before_a_slow_move():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[106])
    a.play.seats[1].slow = True
    frames = []
    for _ in range(80):
        d.run(10)
        if a.thinking:
            frames.append(bytes(h.display.frame))
    assert frames, "no frame with the mark"
    assert a.match.round.actions, "the computer moved after the mark"


def test_the_whole_pile_can_be_seen():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3] + " 2S", cpu=[106, 105, card("QS")])
    d.press("DRAW")
    d.run(600)
    d.press("DRAW")
    to_card(d, "JH")
    d.press("DISCARD")
    d.run(2000)
    d.keys("MENU DOWN DOWN DOWN DRAW")
    assert a.view.sid == screens.PILE
    d.press("DRAW")
    assert a.view.sid == screens.TABLE


# --- saves and restarts ------------------------------------------------------------------------


def test_the_game_is_saved_as_it_goes_and_continues_after_a_power_cut():
    h, a, d = boot()
    seeded(a, cpu=[106])
    d.press("DRAW")
    d.run(600)
    d.press("DRAW")
    acts = bytes(a.match.round.actions)
    b = App(h)  # power cut: a new app on the same flash
    assert b.has_save
    db = Driver(b, h)
    db.run(50)
    assert "Continue" in b.view.rows(b)[0]
    db.press("DRAW")
    assert b.view.sid == screens.TABLE
    assert bytes(b.match.round.actions) == acts


def test_a_crash_restart_resumes_the_game_directly():
    h, a, d = boot()
    seeded(a, cpu=[106])
    d.press("DRAW")
    b = App(h, resume=True)
    assert b.view.sid == screens.TABLE and b.match is not None
    assert (b.match.seed, bytes(b.match.round.actions)) == (a.match.seed, bytes(a.match.round.actions))


def test_quitting_keeps_the_save_and_game_over_clears_it():
    h, a, d = boot()
    seeded(a, cpu=[106])
    d.press("DRAW")
    d.keys("MENU UP DRAW")  # the last row: save and quit
    assert a.view.sid == screens.TITLE and a.has_save
    d.press("DRAW")  # Continue
    assert a.view.sid == screens.TABLE and a.match.seed == 1001
    AutoPlayer(d).play_match()  # to its end and back to the title
    assert a.view.sid == screens.TITLE and a.match is None and not a.has_save
    assert not [f for f in h.fs.files if f.startswith("game.sav")], sorted(h.fs.files)


def test_the_demo_starts_after_a_minute_and_any_button_ends_it_without_acting():
    h, a, d = new_app()
    d.run(59000)
    assert a.view.sid == screens.TITLE
    d.run(2000)
    assert a.demo and a.view.sid == screens.TABLE
    d.run(5000)
    assert a.match.round.actions, "the computers play"
    saved = dict(h.fs.files)
    d.press("KNOCK")
    assert a.view.sid == screens.TITLE and not a.demo
    assert "game.sav" not in h.fs.files and h.fs.files.keys() == saved.keys()


# --- sleep and the display ---------------------------------------------------------------------


def test_dim_then_off_and_the_waking_press_does_nothing_else():
    h, a, d = new_app()
    a.settings["dim_s"] = 10
    a.settings["off_s"] = 30
    d.run(11000)
    assert h.display.level == 1 and h.display.on
    d.run(20000)
    assert not h.display.on
    sel = a.view.sel
    d.press("DOWN")
    assert h.display.on and h.display.level == a.settings["contrast"]
    assert a.view.sel == sel, "the waking press moved the menu"
    d.press("DOWN")
    assert a.view.sel == sel + 1


def test_a_missing_display_blinks_the_led_and_nothing_crashes():
    h, a, d = new_app()
    h.display.present = False
    shows = h.display.shows
    d.run(3000)
    d.press("DRAW")  # a new game, unseen
    d.run(3000)
    assert h.led.changes >= 6
    assert h.display.shows == shows
    h.display.present = True
    d.run(1000)
    assert h.display.shows > shows and not h.led.on
    assert a.view.sid == screens.TABLE


def test_settings_apply_at_once_and_are_saved():
    h, a, d = new_app()
    d.keys("DOWN DOWN DOWN DOWN DOWN DRAW")
    assert a.view.sid == screens.SETTINGS
    d.press("RIGHT")  # brighter
    assert h.display.level == a.settings["contrast"] > 127
    d.keys("DOWN DOWN DOWN RIGHT")  # sound off
    assert a.settings["sound"] is False
    d.press("MENU")
    assert App(h).settings["sound"] is False


def test_left_handed_swap_trades_the_clusters():
    h, a, d = new_app()
    a.settings["left"] = True
    sel = a.view.sel
    d.press("DISCARD")  # DISCARD now acts as DOWN
    assert a.view.sel == sel + 1
    d.press("MENU")  # MENU acts as UP
    assert a.view.sel == sel


def test_rules_chosen_in_the_menu_shape_the_next_game():
    h, a, d = new_app()
    d.keys("DOWN DOWN DOWN DRAW")
    assert a.view.sid == screens.RULES
    for _ in range(5):
        d.press("DOWN")
    d.press("RIGHT")  # Hollywood on
    d.press("MENU")
    d.keys("UP UP UP DRAW")
    assert a.view.sid == screens.TABLE
    assert a.match.rules.hollywood and len(a.match.columns) == 3


def test_the_expert_is_chosen_on_the_title_and_has_its_own_stats():
    h, a, d = new_app()
    assert a.settings["level"] == 1  # normal
    d.keys("DOWN DOWN RIGHT RIGHT")  # the CPU row: normal -> hard -> expert
    assert a.settings["level"] == 3
    assert "Expert" in a.view.rows(a)[2]
    d.keys("RIGHT")
    assert a.settings["level"] == 0  # round again to easy
    d.keys("LEFT")
    assert a.settings["level"] == 3
    assert "gin.ai_expert" not in sys.modules or a.match is None
    d.keys("UP UP DRAW")
    assert a.view.sid == screens.TABLE and a.level == 3
    assert type(a.play.seats[1].player).__name__ == "ExpertPlayer"
    d.run(20000)  # the computer plays its turns
    assert a.match.round.actions or a.match.summaries
    # its own line in the stats, reached with LEFT/RIGHT from the level being played
    a.stats.levels[3].hands = 7
    a.quit_to_title()
    for _ in range(a.view.items(a).index("stats") - a.view.sel):
        d.press("DOWN")
    d.press("DRAW")
    assert a.view.sid == screens.STATS and a.view.level == 3
    assert a.stats.lines(3)[1] == "Hands 7"


def test_stats_reset_needs_a_long_press():
    h, a, d = new_app()
    a.stats.levels[1].hands = 5
    d.keys("DOWN DOWN DOWN DOWN DRAW")
    assert a.view.sid == screens.STATS
    d.press("KNOCK")
    assert a.stats.levels[1].hands == 5
    d.long("KNOCK")
    assert a.stats.levels[1].hands == 0


def test_every_screen_redraws_only_when_something_changed():
    """Left alone, no screen sends a frame; a press that changes it sends one."""
    h, a, d = boot()
    seeded(a, cpu=[106])
    d.press("DRAW")  # you pass; the computer passes; your draw is next: nothing moves by itself
    d.run(1500)
    setups = (
        (screens.TITLE, None, "DOWN"),
        (screens.RULES, None, "DOWN"),
        (screens.SETTINGS, None, "DOWN"),
        (screens.STATS, None, "RIGHT"),
        (screens.HELP, None, "RIGHT"),
        (screens.TEXT, ("T", ["line %d" % i for i in range(9)], screens.TITLE), "DOWN"),
        (screens.RULES_TEXT, (a.match.rules, screens.TITLE), "DOWN"),
        (screens.PAUSE, None, "DOWN"),
        (screens.SHEET, screens.FROM_MENU, "DOWN"),
        (screens.PILE, None, "DRAW"),
        (screens.TABLE, None, "RIGHT"),
    )
    for sid, arg, key in setups:
        a.goto(sid, arg)
        d.run(300)
        assert a.view.sid == sid
        n = h.display.shows
        d.run(5000)
        assert h.display.shows == n, "screen %d redrew by itself" % sid
        d.press(key)
        assert h.display.shows > n, "screen %d did not redraw after %s" % (sid, key)


# --- pieces ------------------------------------------------------------------------------------


def test_sheet_history_enters_hands_as_the_match_does():
    from gin.cards import Rng
    from ui.sheet import history

    rng = Rng(5)
    for holly in (False, True):
        for _ in range(60):
            rules = RuleSet(hollywood=holly, target=60)
            sums = []
            m = gmatch.Match(rules, 1)
            while m.state != gmatch.GAME_OVER and len(sums) < 40:
                k = rng.below(5)
                if k == 4:
                    s = (4, -1, 0, -1)
                else:
                    w = rng.below(2)
                    s = (k, w, 1 + rng.below(40), w if k != 1 else 1 - w)
                sums.append(s)
                m = gmatch.Match.restore(rules, 1, sums, b"")
            rows = history(rules, sums)
            assert [c for c in rows[-1][2]] == [list(col.totals) for col in m.columns]


def test_crash_screen_is_one_line_of_error():
    import launch as main

    e = ValueError("bad card 'ZZ'")
    assert main.one_line(e) == "ValueError: bad card 'ZZ'"
    assert lit(main.crash_frame(main.one_line(e)).buf) > 200
    assert main.one_line(MemoryError()) == "MemoryError"


def test_event_injection_drives_the_same_handlers():
    h, a, d = new_app()
    h.buttons.push(event(DOWN, PRESS))
    a.step()
    assert a.view.sel == 1
    h.buttons.push(event(UP, PRESS))
    a.step()
    assert a.view.sel == 0
    h.buttons.push(event(RIGHT, PRESS))  # the row under the cursor is "New game": no value to change
    h.buttons.push(event(DOWN, PRESS))
    h.buttons.push(event(RIGHT, PRESS))  # "Play": vs CPU -> 2 people
    a.step()
    assert a.settings["mode"] == modes.TWO_PEOPLE
    h.buttons.push(event(LEFT, PRESS))
    h.buttons.push(event(MENU, PRESS))  # back: the title goes to its first row
    a.step()
    assert a.settings["mode"] == modes.VS_CPU and a.view.sel == 0
    h.buttons.push(event(DRAW, PRESS))  # New game
    a.step()
    assert a.view.sid == screens.TABLE and a.match is not None


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


def test_an_illegal_move_by_a_computer_player_is_logged_not_fatal():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[card("QS")])  # a discard during the upcard offer
    d.run(2000)
    assert h.logs and "upcard or pass" in h.logs[0]
    assert a.match.round.actions, "the game went on"


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

    # launch.main (what main.py runs) imports exactly PRE_TITLE's modules before it calls show_title
    tree = ast.parse((ROOT / "firmware" / "launch.py").read_text())
    body = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main").body
    imported = []
    for node in body:
        if "show_title(" in ast.unparse(node) and not isinstance(node, ast.ImportFrom):
            break
        for sub in ast.walk(node):
            if isinstance(sub, ast.ImportFrom) and sub.module:
                imported.extend(sub.module + "." + a.name for a in sub.names)
    assert sorted(imported) == ["device.pico", "ui.splash.show_title"], imported
    closure = import_closure(PRE_TITLE)
    for heavy in ("app", "gin.round", "gin.melds", "gin.ai", "savegame", "prefs", "ui.table", "ui.menus"):
        assert heavy not in closure
    assert sum(mpy_sizes(closure).values()) <= 40 * 1024


def test_the_score_sheet_scrolls_within_its_rows():
    """UP at the first hand stays there (it used to jump to the last); DOWN stops at the last."""
    from gin.match import Match

    from test_ui_golden import HANDS

    h, a, d = boot()
    seeded(a)
    a.play.match = Match.restore(RuleSet(target=500), 1001, HANDS + HANDS, b"")
    a.goto(screens.SHEET, screens.FROM_MENU)
    d.run(100)
    sheet = a.view
    n = len(sheet.rows)
    assert n == 14
    for _ in range(n + 3):
        d.press("UP")
    assert sheet.top == 0
    d.press("UP")
    assert sheet.top == 0
    for _ in range(n + 3):
        d.press("DOWN")
    assert sheet.top == n - 6  # six rows show at once
