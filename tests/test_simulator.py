"""The host simulator: the firmware App on simulated hardware, played head-less.

The full-match test is the issue's acceptance test: a scripted match played
through the keys, every frame the firmware drew compared byte for byte with
what came out of Adafruit's driver and the SSD1306 model.
"""

import hashlib
import json

import pytest
from PIL import Image

from device.buttons import DOWN, DRAW, LEFT, LONG, MENU, PRESS, RELEASE, REPEAT, RIGHT, UP, ticks_diff
from gin.match import GAME_OVER, PLAYING
from gin.rules import LOSER_DEALS
from ui.screens import OVER_SCREEN, PASS_SCREEN, RESULT, SHEET, TABLE

from host_tools.hw.fake_hw import Buttons, Clock, Display, FakeHw, FakeReset
from host_tools.hw.host_display import HostDisplay
from host_tools.simulator import autoplay as pilot
from host_tools.simulator import cli as simulator
from host_tools.simulator import keys as keymap
from host_tools.simulator import replay
from host_tools.simulator.cli import check_save
from host_tools.simulator.keys import (
    LONG_HOLD_MS,
    TAP_MS,
    Auto,
    Command,
    KeyDecoder,
    Press,
    ScriptError,
    Shot,
    Wait,
    parse_script,
)
from host_tools.simulator.options import OptionError, parse_rules
from host_tools.simulator.session import ScriptRunner, Session


class FrameCheck:
    """Every frame shown: the app's canvas at that moment, and the glass the model shows."""

    def __init__(self, session):
        self.session = session
        self.frames = 0
        self.mismatches = []
        self.digest = hashlib.sha256()
        self.screens = set()
        session.display.listeners.append(self)

    def __call__(self, display, frame):
        if frame is None:  # contrast or power change: no new pixels
            return
        self.frames += 1
        app = self.session.app
        self.screens.add(app.view.sid)
        if frame != bytes(app.canvas.buf):
            self.mismatches.append((self.frames, "not the canvas the firmware drew"))
        if display.glass().to_frame() != frame:
            self.mismatches.append((self.frames, "glass differs from the frame"))
        self.digest.update(frame)


def play_full_match(tmp_path, seed=7):
    session = Session(tmp_path / "saves", virtual=True, seed=seed)
    check = FrameCheck(session)
    runner = ScriptRunner(session, shots_dir=tmp_path)
    runner.run(parse_script("s auto:match"))  # DISCARD picks "New game" on the title
    return session, check


# ---------------------------------------------------------------- full match
def test_scripted_full_match_frames_equal_the_firmware_framebuffer(tmp_path):
    session, check = play_full_match(tmp_path)
    m = session.app.match
    assert m.state == GAME_OVER
    assert m.winner in (0, 1, -1) and len(m.summaries) >= 2
    assert session.app.view.sid == OVER_SCREEN
    assert {TABLE, RESULT, SHEET, OVER_SCREEN} <= check.screens
    assert check.frames > 100
    assert check.mismatches == []
    # the person's moves really went through the keys: presses reached the debouncer
    presses = [e for _, e in session.buttons.history if e & 3 == PRESS]
    assert len(presses) > 20


def test_head_less_play_is_deterministic(tmp_path):
    _, a = play_full_match(tmp_path / "a", seed=11)
    _, b = play_full_match(tmp_path / "b", seed=11)
    _, c = play_full_match(tmp_path / "c", seed=12)
    assert a.digest.hexdigest() == b.digest.hexdigest()
    assert a.digest.hexdigest() != c.digest.hexdigest()


def test_the_match_is_autosaved_and_resumes(tmp_path):
    save_dir = tmp_path / "saves"
    s = Session(save_dir, virtual=True, seed=3)
    runner = ScriptRunner(s)
    runner.run(parse_script("s auto auto auto"))
    live = bytes(s.app.match.round.actions)
    assert (save_dir / "game.sav").exists() and live
    again = Session(save_dir, virtual=True, resume=True)
    again.run_for(200)
    assert again.app.match is not None
    assert bytes(again.app.match.round.actions) == live


# ---------------------------------------------------------------- players
def test_watch_mode_plays_itself_without_keys(tmp_path):
    s = Session(tmp_path, virtual=True, overrides={"mode": 2, "level": 0}, new_game=True, seed=5)
    s.run_for(20_000)
    m = s.app.match
    assert s.app.mode == 2
    assert not s.app.is_human(0) and not s.app.is_human(1)
    assert len(m.round.actions) + len(m.summaries) > 6
    assert s.buttons.history == []


def test_level_choice_reaches_the_computer_player(tmp_path):
    s = Session(tmp_path, virtual=True, overrides={"level": 2}, new_game=True)
    assert s.app.level == 2 and s.app.settings["level"] == 2
    assert s.app.play.seats[0] is None and s.app.play.seats[1] is not None


def test_pass_mode_hides_the_hand_between_turns(tmp_path):
    s = Session(tmp_path, virtual=True, overrides={"mode": 1}, new_game=True, seed=9)
    s.run_for(300)
    assert s.app.view.sid == PASS_SCREEN
    hidden = s.display.glass()
    s.tap(Press(DRAW))
    s.run_for(300)
    assert s.app.view.sid == TABLE
    seat = s.app.seat
    assert s.display.glass() != hidden
    p = pilot.pilot(s)
    p.run("move")  # the first player's decision, made with the keys
    for _ in range(3):
        if s.app.view.sid == PASS_SCREEN:
            break
        p.run("move")
    assert s.app.view.sid == PASS_SCREEN and s.app.seat != seat  # the other person's turn
    # the hand is hidden: the glass is the same whatever either player holds
    shown = s.display.glass().to_frame()
    assert shown != hidden
    rnd = s.app.match.round
    hands = rnd.hands
    for other in ([[0, 0, 0, 0], [0x1FFF, 0, 0, 0]], [[0x1FFF, 0x1FFF, 0, 0], [0, 0, 0, 0x1FFF]]):
        rnd.hands = other
        s.app.dirty = True
        s.run_for(50)
        assert s.display.glass().to_frame() == shown
    rnd.hands = hands
    s.tap(Press(DRAW))
    s.run_for(300)
    assert s.app.view.sid == TABLE and s.display.glass().to_frame() != shown  # and shown when asked


def test_seed_fixes_the_deal_of_the_first_match_only(tmp_path):
    a = Session(tmp_path / "a", virtual=True, seed=42, new_game=True)
    b = Session(tmp_path / "b", virtual=True, seed=42, new_game=True, start_ms=5000)
    c = Session(tmp_path / "c", virtual=True, seed=43, new_game=True)
    assert a.app.match.seed == b.app.match.seed == 42
    assert a.app.match.round.hands == b.app.match.round.hands
    assert c.app.match.round.hands != a.app.match.round.hands
    a.app.quit_to_title()
    a.run_for(777)
    a.app.new_game()
    assert a.app.match.seed != 42  # later matches draw their own seeds again


def test_rules_spec():
    r = parse_rules("modern,oklahoma,target=150,next_dealer=loser")
    assert r.preset == 1 and r.gin_bonus == 25 and r.oklahoma and r.target == 150
    assert r.next_dealer == LOSER_DEALS
    assert parse_rules("hollywood").hollywood
    assert parse_rules("straight,big_gin=off").big_gin is False
    with pytest.raises(OptionError, match="unknown rule"):
        parse_rules("classic,jokers")
    with pytest.raises(OptionError, match="knock_limit"):
        parse_rules("knock_limit=40")


def test_rules_option_reaches_the_new_game(tmp_path):
    code = simulator.main(
        [
            "--save-dir",
            str(tmp_path),
            "--rules",
            "modern,target=150",
            "--new",
            "--keys",
            "wait:100",
            "--screenshot",
            str(tmp_path / "x.png"),
        ]
    )
    assert code == 0
    s = Session(tmp_path, virtual=True, resume=True)
    assert s.app.match.rules.target == 150 and s.app.match.rules.gin_bonus == 25


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "content",
    [b"GINg\x01\x00\x05hello\x00\x00\x00\x00", b"\x89PNG\r\n\x1a\n" + bytes(200), b""],
    ids=["corrupt", "foreign", "empty"],
)
def test_bad_save_is_reported_in_one_line_and_a_new_game_starts(tmp_path, capsys, content):
    (tmp_path / "game.sav").write_bytes(content)
    line, unusable = check_save(tmp_path)
    assert unusable and line is not None and "\n" not in line and "new game" in line
    code = simulator.main(
        ["--save-dir", str(tmp_path), "--keys", "auto", "--screenshot", str(tmp_path / "o.png")]
    )
    assert code == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [line]
    s = Session(tmp_path, virtual=True, resume=True)
    assert s.app.match is not None and s.app.match.state == PLAYING  # the new game was saved over it


def test_bad_replay_file_is_an_error_and_the_saves_are_untouched(tmp_path, capsys):
    # issue 12: a replay is a viewer; a file it can't use is an error with a non-zero exit,
    # never "starting a new game instead" over the player's save and its backup.
    saves = tmp_path / "saves"
    saves.mkdir()
    bad = tmp_path / "notes.txt"
    bad.write_text("shopping list\n")
    for target in (bad, tmp_path / "no-such-file.sav"):
        code = simulator.main(
            [
                "--save-dir",
                str(saves),
                "--replay",
                str(target),
                "--keys",
                "auto",
                "--screenshot",
                str(tmp_path / "o.png"),
            ]
        )
        assert code != 0
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and target.name in err[0] and "new game" not in err[0]
        assert list(saves.iterdir()) == []


def test_script_errors_name_the_token_and_line():
    with pytest.raises(ScriptError, match=r"line 2: unknown key 'x'"):
        parse_script("d s\n x")
    with pytest.raises(ScriptError, match="not a number"):
        parse_script("wait:soon")
    with pytest.raises(ScriptError, match="auto:hand"):
        parse_script("auto:forever")


# ---------------------------------------------------------------- keys
def test_script_language():
    steps = parse_script("d S # comment\nleft*2 wait:1500 hold:right:900 long:m shot:t shot auto:hand quit")
    assert steps == [
        Press(DRAW),
        Press(5, LONG_HOLD_MS),
        Press(LEFT),
        Press(LEFT),
        Wait(1500),
        Press(RIGHT, 900),
        Press(MENU, LONG_HOLD_MS),
        Shot("t"),
        Shot(None),
        Auto("hand"),
        Command("quit-now"),
    ]
    assert parse_script("draw discard knock menu up space enter esc") == [
        Press(4),
        Press(5),
        Press(6),
        Press(7),
        Press(UP),
        Press(5),
        Press(5),
        Press(7),
    ]


def test_terminal_decoder():
    d = KeyDecoder()
    assert d.feed(b"\x1b[A\x1b[B\x1bOC\x1b[D") == ["up", "down", "right", "left"]
    assert d.feed(b"\x1b[1;2A\x1b[1;2D") == ["S-up", "S-left"]
    assert d.feed(b"dDq? \r\x7f\x03") == ["d", "D", "q", "?", "space", "enter", "backspace", "C-c"]
    assert d.feed(b"\x1b") == [] and d.pending  # a lone Esc waits for what follows
    assert d.feed(b"[C") == ["right"]  # ... which can be the rest of a sequence
    assert d.feed(b"\x1b") == [] and d.flush() == ["esc"]
    assert d.feed("é".encode()[:1]) == [] and d.feed("é".encode()[1:]) == ["é"]
    assert d.feed(b"\x1b[15~") == ["key-15"]
    assert [keymap.lookup(t) for t in ("up", "S-up", "s", "K")] == [
        Press(UP),
        Press(UP, LONG_HOLD_MS),
        Press(5),
        Press(6, LONG_HOLD_MS),
    ]
    assert keymap.lookup("x") is None and keymap.lookup("key-15") is None


# ---------------------------------------------------------------- simulated hardware
def _events(buttons):
    return [(e >> 2, e & 3) for e in buttons.events()]


def test_a_tap_is_a_press_and_a_release():
    clock = Clock()
    b = Buttons(clock)
    b.press(DRAW, TAP_MS)
    clock.advance_to(TAP_MS + 50)
    assert _events(b) == [(DRAW, PRESS), (DRAW, RELEASE)]
    assert b.held() == 0 and not b.busy()


def test_a_long_hold_gives_long_and_repeats():
    clock = Clock()
    b = Buttons(clock)
    b.press(RIGHT, LONG_HOLD_MS)
    clock.advance_to(LONG_HOLD_MS + 50)
    ev = _events(b)
    assert ev[0] == (RIGHT, PRESS) and ev[-1] == (RIGHT, RELEASE)
    assert (RIGHT, LONG) in ev and ev.count((RIGHT, REPEAT)) >= 2


def test_terminal_auto_repeat_reads_as_one_held_button():
    clock = Clock()
    b = Buttons(clock)
    for t in range(0, 900, 30):  # key repeat every 30 ms for 0.9 s
        clock.advance_to(t)
        b.press(DOWN, TAP_MS)
    clock.advance_to(1200)
    ev = _events(b)
    assert ev.count((DOWN, PRESS)) == 1 and ev.count((DOWN, RELEASE)) == 1
    assert (DOWN, LONG) in ev


def test_buttons_work_across_the_ticks_wrap():
    clock = Clock(start_ms=(1 << 30) - 40)
    b = Buttons(clock)
    b.press(UP, 700)
    clock.advance_to((1 << 30) + 800)
    ev = _events(b)
    assert ev[0] == (UP, PRESS) and (UP, LONG) in ev and ev[-1] == (UP, RELEASE)
    assert clock.ticks_ms() < 1000 and ticks_diff(clock.ticks_ms(), (1 << 30) - 40) == 840


def test_real_time_clock_follows_the_wall_clock():
    clock = Clock(virtual=False)
    t0 = clock.ticks_ms()
    clock.sleep_ms(30)
    assert 25 <= ticks_diff(clock.ticks_ms(), t0) < 1000
    with pytest.raises(RuntimeError):
        clock.advance_to(10)


def test_display_contract():
    d = Display(controller=HostDisplay())
    frame = bytes(range(256)) * 4
    assert d.show(bytearray(frame)) is True
    assert d.glass().to_frame() == frame and d.shows == 1
    d.contrast(7)
    assert d.glass().contrast == 7
    d.power(False)
    assert d.glass().lit_count() == 0
    d.power(True)
    assert d.glass().to_frame() == frame
    absent = Display(present=False)
    assert absent.show(frame) is False and absent.shows == 0


def test_hw_storage_log_and_reset(tmp_path):
    hw = FakeHw(save_dir=tmp_path / "flash")
    assert hw.name == "host" and hw.battery_mv() is None
    hw.storage.write_atomic("x.sav", b"abc")
    assert (tmp_path / "flash" / "x.sav").read_bytes() == b"abc"
    hw.log("boom")
    assert (tmp_path / "flash" / "crash.log").read_text() == "boom\n"
    with pytest.raises(FakeReset):
        hw.reset()


def test_reset_restarts_the_app(tmp_path):
    s = Session(tmp_path, virtual=True, new_game=True)
    first = s.app
    first.step = lambda: s.hw.reset()
    s.run_for(50)
    assert s.app is not first and s.hw.resets == 1


# ---------------------------------------------------------------- pictures
def test_screenshot_and_frames(tmp_path):
    code = simulator.main(
        [
            "--save-dir",
            str(tmp_path / "s"),
            "--seed",
            "4",
            "--palette",
            "blue-yellow",
            "--keys",
            "s wait:500 d shot:drew",
            "--shots-dir",
            str(tmp_path / "shots"),
            "--frames-dir",
            str(tmp_path / "frames"),
            "--screenshot",
            str(tmp_path / "last.png"),
            "--scale",
            "3",
        ]
    )
    assert code == 0
    frames = sorted((tmp_path / "frames").glob("frame-*.png"))
    assert len(frames) >= 3 and frames[0].name == "frame-00001.png"
    with Image.open(tmp_path / "shots" / "drew.png") as im:
        assert im.size == (128 * 3, 64 * 3)
        px = im.convert("RGB").load()
        colours = {px[x, y] for x in range(0, 384, 1) for y in (1, 2, 100, 101)}
    yellow = [c for c in colours if c[0] > 150 and c[2] < 100]
    blue = [c for c in colours if c[2] > 150 and c[0] < 100]
    assert yellow and blue  # the two-colour module: yellow band on top, blue below
    with Image.open(tmp_path / "last.png") as last, Image.open(frames[-1]) as f:
        assert last.size == (384, 192) and f.size == (384, 192)


def test_readme_script_makes_the_pictures(tmp_path):
    from host_tools.simulator import screenshot

    shots = screenshot.make_readme_shots(tmp_path)
    assert len(shots) >= 4
    for s in shots:
        with Image.open(s) as im:
            assert im.size[0] > 512 and im.getbbox() is not None


# ---------------------------------------------------------------- replay
def _saved_game(tmp_path, moves=4):
    s = Session(tmp_path, virtual=True, seed=21)
    ScriptRunner(s).run(parse_script("s " + "auto " * moves))
    return s, tmp_path / "game.sav"


def test_replay_a_save_step_by_step(tmp_path):
    s, path = _saved_game(tmp_path)
    rec = replay.load(path)
    live = bytes(s.app.match.round.actions)
    assert rec.tapes[-1].actions == live
    text = replay.transcript(rec)
    assert sum(1 for line in text if line.startswith("  ") and ". " in line) == len(live)
    rs = replay.ReplaySession(rec)
    rs.run_for(50)
    start = rs.display.glass()
    rs.tap(Press(RIGHT))
    rs.run_for(200)
    assert rs.view.step == 1 and rs.display.glass() != start
    rs.tap(Press(5))  # DISCARD: to the end of the hand
    rs.run_for(200)
    assert rs.view.step == len(live)
    rnd, _ = rec.state(len(rec.tapes) - 1, rs.view.step)
    assert rnd.hands == s.app.match.round.hands
    rs.tap(Press(MENU))
    rs.run_for(200)
    assert rs.finished  # the front end leaves the replay


def test_the_replay_takes_the_view_options_as_the_game_does(tmp_path, monkeypatch):
    """One path from the command line to the terminal for both: --replay honours NO_COLOR too."""
    from host_tools.simulator import cli, term

    _, path = _saved_game(tmp_path)
    got = []
    monkeypatch.setattr(term, "run", lambda session, **kw: got.append((type(session).__name__, kw)) or 0)
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli.main(["--replay", str(path), "--ascii", "--palette", "blue-yellow", "--size", "compact"]) == 0
    view = {"palette": "blue-yellow", "ascii": True, "size": "compact", "color": False, "bell": False}
    assert got == [("ReplaySession", view)]
    monkeypatch.delenv("NO_COLOR")
    assert cli.main(["--replay", str(path)]) == 0
    assert got[1][1]["color"] is True and got[1][1]["palette"] == "white"


def test_replay_records_round_trip_and_refuse_junk(tmp_path):
    _, path = _saved_game(tmp_path)
    rec = replay.load(path)
    out = tmp_path / "rec.json"
    assert replay.main([str(path), "--export", str(out)]) == 0
    again = replay.load(out)
    assert [t.actions for t in again.tapes] == [t.actions for t in rec.tapes]
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({"rules": "classic", "dealer": 1, "seed": 5, "actions": [106, 106, 104]}))
    one = replay.load(hand)
    assert replay.describe_step(one, 0, 3) == "3. P1: draw"
    for junk, why in (
        ({"seed": 5, "actions": [200]}, "does not replay"),
        ({"hands": [[1]]}, "seed"),
        ([1, 2], "JSON object"),
    ):
        hand.write_text(json.dumps(junk))
        with pytest.raises(replay.ReplayError, match=why):
            replay.load(hand)
    hand.write_bytes(b"GINg\x01garbage")
    with pytest.raises(replay.ReplayError, match="not a usable save"):
        replay.load(hand)
