"""Every word on the screen can be read whole (issue 13).

The app is driven through every screen, every menu row and value, the rules
of every preset and variant, every how-to-play page, results of every kind and
whole matches in each mode, on a ``CheckedCanvas`` (tests/textcheck.py) that
records any text that runs off the screen or over something already drawn.
Messages (the engine's refusals, the hints, the app's own) scroll when they
are long: checked here to start at their beginning and stay until shown whole,
in both fonts.
"""

from __future__ import annotations

import functools
import re
import sys

import pytest

import app as appmod
from gin.rules import PRESET_TITLES, RuleSet
from ui.rulelines import rule_lines
from ui.screens import HELP, RESULT, RULES, RULES_TEXT, SETTINGS, STATS, TITLE

from host_tools.hw.fake_hw import AutoPlayer
from test_ui_golden import LAYOFF, SCENES, boot, drawn_from_stock, stacked
from textcheck import CheckedCanvas


@pytest.fixture(autouse=True)
def checked(monkeypatch):
    """Every App draws on a CheckedCanvas."""
    made = []

    def canvas():
        c = CheckedCanvas()
        made.append(c)
        return c

    monkeypatch.setattr(appmod, "Canvas", canvas)
    return made


def problems(canvases):
    out = []
    for c in canvases:
        out.extend(c.problems)
    return "\n".join(sorted(set(out)))


def where(app, text):
    app.canvas.where = text


def test_every_golden_scene_reads_whole(checked):
    for name, fn in SCENES.items():
        if name in ("crash", "safe_mode"):
            continue
        fn()
    assert not problems(checked), problems(checked)


def test_main_py_screens_read_whole(monkeypatch):
    import launch as main
    from ui import canvas as canvas_mod

    monkeypatch.setattr(canvas_mod, "Canvas", CheckedCanvas)
    for c in (main.crash_frame("ValueError: x"), main.safe_frame()):
        assert c.problems == []


def test_menus_every_row_and_value(checked):
    h, app, d = boot(battery=3870)
    for mode in range(3):
        for level in range(3):
            app.settings["mode"] = mode
            app.settings["level"] = level
            app.goto(TITLE)
            where(app, "title")
            for _ in range(10):
                d.press("DOWN")
    app.goto(RULES)
    view = app.view
    where(app, "rules menu")
    for _row in range(len(view.rows(app))):
        for _ in range(12):  # every value of the row, and round again
            d.press("RIGHT")
        d.press("DOWN")
    app.goto(SETTINGS)
    where(app, "settings")
    for _ in range(len(app.view.rows(app))):
        for _ in range(7):
            d.press("RIGHT")
        d.press("DOWN")
    for level in range(3):
        app.goto(STATS)
        where(app, "stats")
        for _ in range(level):
            d.press("RIGHT")
        for _ in range(20):
            d.press("DOWN")
    app.goto(HELP)
    where(app, "how to play")
    for _ in range(12):
        d.press("RIGHT")
    assert not problems(checked), problems(checked)


def _rule_sets():
    for preset in range(len(PRESET_TITLES)):
        yield RuleSet(preset=preset)
        yield RuleSet(
            preset=preset,
            straight=True,
            oklahoma=True,
            oklahoma_spade_double=True,
            hollywood=True,
            gin_forced=True,
            upcard_offer=1,
            first_dealer=1,
            game_winner=1,
            next_dealer=2,
            target=10000,
        )
        yield RuleSet(preset=preset, big_gin=not RuleSet(preset=preset).big_gin, next_dealer=1)


def test_the_rules_of_every_preset_and_variant(checked):
    h, app, d = boot()
    for rs in _rule_sets():
        lines = rule_lines(rs)
        app.goto(RULES_TEXT, (rs, TITLE))
        assert app.view.lines == lines
        assert "ui.rulelines" not in sys.modules  # the words made, their code let go
        where(app, "rules " + lines[0])
        for _ in range(len(lines)):
            d.press("DOWN")
    assert not problems(checked), problems(checked)


def test_results_of_every_kind_and_whole_matches(checked):
    # the kinds, from stacked hands (see test_ui_golden), and the hand cancelled
    for fn in ("result_layoff", "result_knock", "result_undercut", "result_gin", "result_cancelled"):
        SCENES[fn]()
    # whole matches, each mode and a few rule sets, every frame checked
    for mode, rules in ((0, RuleSet()), (0, RuleSet(hollywood=True, oklahoma=True, oklahoma_spade_double=True)),
                        (1, RuleSet(preset=1)), (2, RuleSet(straight=True, target=50))):  # fmt: skip
        h, app, d = boot(settings={"mode": mode, "rules": rules.to_bytes()})
        app.new_game(seed=77 + mode)
        where(app, "match, mode %d, %s" % (mode, rule_lines(rules)[0]))
        AutoPlayer(d).play_match(6000)
    assert not problems(checked), problems(checked)


# --- messages: they scroll, from their beginning, until shown whole -------------------------------


@functools.lru_cache(maxsize=1)
def engine_messages():
    """Every refusal the engine gives, from many states of seeded hands (each action tried)."""
    from gin.cards import GinError
    from gin.match import Match

    seen = set()
    for rules in (
        RuleSet(),
        RuleSet(straight=True),
        RuleSet(preset=1),
        RuleSet(oklahoma=True, gin_forced=True),
    ):
        for seed in range(12):
            m = Match(rules, seed)
            rnd = m.round
            steps = 0
            while rnd.phase != 4 and steps < 60:
                for a in range(0, 200):
                    if rnd.is_legal(a):
                        continue
                    try:
                        rnd.apply(a)  # refused: the hand stays as it was
                    except GinError as e:
                        seen.add(str(e))
                    else:
                        raise AssertionError("illegal action %d accepted" % a)
                legal = rnd.legal_actions()
                rnd_a = legal[(seed * 7 + steps) % len(legal)]
                m.apply(rnd_a)
                steps += 1
    return tuple(sorted(seen))


def test_engine_refusals_are_known_and_say_who_does_what():
    msgs = engine_messages()
    assert len(msgs) >= 8, msgs
    for m in msgs:
        # a person's reason, addressed to the player: no "you has", "you lays", "you deals"
        for bad in ("you has", "you lays", "you deals", "you draws", "you knocks"):
            assert bad not in m.lower(), m


@pytest.mark.parametrize("font_name", ["SMALL", "NORMAL"])
def test_a_long_message_starts_at_its_beginning_and_stays_until_shown_whole(font_name):
    from ui import font as fonts
    from ui.canvas import PyCanvas
    from ui.draw import banner, scroll_ms

    f = getattr(fonts, font_name)
    msgs = list(engine_messages()) + ["Hint: discard K\u2663: keeps 14 deadwood and looks safe"]
    for m in msgs:
        c = PyCanvas()
        t_all = scroll_ms(c, m, f)
        w = c.text_width(m, f)
        if w <= 126:
            assert t_all == 0
            continue
        first = PyCanvas()
        banner(first, m, 20, 0, False, f)
        ref = PyCanvas()
        ref.text(m, 2, 21, 1, f)
        assert first.buf == ref.buf, m  # at first the line shows its beginning
        last = PyCanvas()
        banner(last, m, 20, t_all - 1, False, f)
        ref = PyCanvas()
        ref.text(m, 2 - (w - 124), 21, 1, f)
        assert last.buf == ref.buf, m  # by the end of t_all it has reached its end


def test_the_app_keeps_a_scrolling_message_until_it_was_shown_whole_and_any_key_skips_it():
    from ui.draw import scroll_ms

    h, app, d = drawn_from_stock(LAYOFF)
    long = "Hint: discard K\u2663: keeps 14 deadwood and looks safe, and more words to scroll"
    need = scroll_ms(app.canvas, long)
    assert need > 4000
    app.say(long, False, 4000)
    d.run(need - 100)
    assert app.msg == long  # still scrolling: not gone at 4 s
    d.run(200)
    assert app.msg is None
    app.say(long, False, 4000)
    d.run(300)
    d.press("UP")  # any key: the message goes
    assert app.msg != long


def test_the_hint_is_shown_whole(checked):
    h, app, d = drawn_from_stock(LAYOFF)
    d.press("DOWN")  # the hint
    msg = app.msg
    assert msg and msg.startswith("Hint: ")
    from ui.draw import scroll_ms

    start = app.msg_at
    while app.msg == msg and h.clock.now() - start < 20000:
        d.run(50)
    assert h.clock.now() - start >= max(scroll_ms(app.canvas, msg), 4000)


# --- person and number ----------------------------------------------------------------------------

BAD_GRAMMAR = re.compile(r"\bYou (lays|deals|draws|knocks|takes|passes|wins|has|is|was|discards|spreads)\b")


def test_every_string_drawn_agrees_with_its_subject(checked):
    """Whatever the walkers above drew, and a hand where the computer knocks and you lay off."""
    from gin.cards import parse_card
    from gin.round import KNOCK

    h, app, d = boot()
    # the computer (non-dealer) gets the melds and knocks; you lay off 7H 8H on its hearts
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106, 104, KNOCK + parse_card("JH")], dealer=0)
    d.run(1500)
    d.press("DRAW")  # you pass the upcard
    d.run(2500)
    assert app.view.sid == RESULT
    d.run(3000)
    for fn in ("pass_device", "result_layoff", "game_over", "sheet"):
        SCENES[fn]()
    drawn = set()
    for c in checked:
        drawn |= c.drawn
    assert any("You lay off" in s for s in drawn), sorted(s for s in drawn if "lay" in s)
    bad = sorted(s for s in drawn if BAD_GRAMMAR.search(s))
    assert not bad, bad


def test_the_replay_transcript_says_you_deal(tmp_path):
    from host_tools.simulator import replay
    from host_tools.simulator.keys import parse_script
    from host_tools.simulator.session import ScriptRunner, Session

    for seed in (21, 22, 23, 24):  # either dealer
        s = Session(tmp_path / str(seed), virtual=True, seed=seed)
        ScriptRunner(s).run(parse_script("s auto auto"))
        text = replay.transcript(replay.load(tmp_path / str(seed) / "game.sav"))
        bad = [line for line in text if BAD_GRAMMAR.search(line)]
        assert not bad, bad
        assert any(
            line.startswith("Hand 1: You deal,") or line.startswith("Hand 1: CPU deals,") for line in text
        )


# --- what stays up: the hint until the next key, the lay-offs while the result is up -------------


def test_a_hint_stays_until_the_next_key():
    from ui.draw import scroll_ms

    h, app, d = drawn_from_stock(LAYOFF)
    d.press("DOWN")  # the hint
    hint = app.msg
    assert hint and hint.startswith("Hint: ")
    d.run(25000)  # a slow read: long past the 4 s a hint used to last
    assert app.msg == hint
    whole = scroll_ms(app.canvas, hint)
    if whole:  # a long one goes on scrolling
        frames = set()
        for _ in range(whole // 100):
            d.run(100)
            frames.add(h.display.frame)
        assert len(frames) > 5
    d.run(75000)  # looked away: the screen dims; the press that wakes it acts on nothing
    d.press("RIGHT")
    assert app.msg == hint
    d.press("RIGHT")  # acting: the hint goes
    assert app.msg is None


def _top_bar(text):
    """The inverted title bar ui.draw.header draws, as the display's first 128 bytes (rows 0-7)."""
    from ui.canvas import PyCanvas
    from ui.draw import header

    c = PyCanvas()
    header(c, text)
    return bytes(c.buf[:128])


def test_the_result_names_the_lay_offs_as_long_as_it_is_up(checked):
    from gin.cards import parse_card
    from gin.round import KNOCK

    # you knock; the computer lays off three cards on your melds
    h, app, d = drawn_from_stock(LAYOFF)
    from test_ui_golden import to_card

    to_card(d, "JH")
    d.press("KNOCK")
    assert app.view.sid == RESULT
    d.run(60000)
    assert h.display.frame[:128] == _top_bar("CPU LAID OFF 7\u2661 8\u2661 Q\u2660")
    # the computer knocks; you lay off 7H 8H on its hearts, QS on its spades
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106, 104, KNOCK + parse_card("JH")], dealer=0)
    d.run(1500)
    d.press("DRAW")  # you pass the upcard
    d.run(2500)
    assert app.view.sid == RESULT
    d.press("DRAW")  # skip to the end
    d.run(60000)
    assert h.display.frame[:128] == _top_bar("YOU LAID OFF 7\u2661 8\u2661 Q\u2660")
    assert not problems(checked), problems(checked)
