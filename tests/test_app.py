"""The app end to end on the fake hardware: buttons in, frames, saves and sounds out."""

import sys
from pathlib import Path

import pytest

import app as appmod
import modes
from app import App
from device.buttons import DOWN, DRAW, LEFT, MENU, PRESS, RIGHT, UP, event
from gin import match as gmatch
from gin import round as ground
from gin.rules import RuleSet
from ui import screens

from host_tools.hw.fake_hw import AutoPlayer, Driver, FakeHw
from test_ui_golden import (
    LAYOFF,
    boot,
    card,
    seeded,
    stacked,
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

    assert games.PLAYING == gmatch.PLAYING and games.GAME_OVER == gmatch.GAME_OVER
    assert play.PLAYING == play_cable.PLAYING == gmatch.PLAYING
    assert play.DISCARD_PHASE == ground.DISCARD_PHASE
    assert play.OVER == ground.OVER
    for name in ("KNOCK", "DRAW_STOCK", "TAKE_DISCARD", "BIG_GIN"):
        assert getattr(play, name) == getattr(ground, name)
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


def _hands_played(a, d, n):
    for _ in range(2000):
        if len(a.match.summaries) >= n or a.match.state == gmatch.GAME_OVER:
            break
        d.run(500)
    return [bool(acts) for _d, acts in a.match.records]


def test_the_app_keeps_only_the_last_finished_hands_actions_in_memory():
    """A long match must not grow the heap hand by hand (a Pico's link run lost ~1.5 KB in 10
    minutes): only the hand the cable may have to resend keeps its actions, here and after a
    restart from the save."""
    import play as playmod

    hw, a, d = new_app(4242)
    a.settings["mode"] = modes.WATCH
    a.settings["rules"] = RuleSet(target=500).to_bytes()
    d.press("DRAW")
    assert _hands_played(a, d, 3)[-3:] == [False, False, True]
    assert playmod.HANDS_KEPT == a.match.kept == 1
    b = App(hw, resume=True)  # a restart mid-match: the match comes from the save
    db = Driver(b, hw)
    assert b.match.kept == 1
    n = len(b.match.summaries)
    assert _hands_played(b, db, n + 2)[-3:] == [False, False, True]


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


def test_an_illegal_move_by_a_computer_player_is_logged_not_fatal():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[card("QS")])  # a discard during the upcard offer
    d.run(2000)
    assert h.logs and "upcard or pass" in h.logs[0]
    assert a.match.round.actions, "the game went on"


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
