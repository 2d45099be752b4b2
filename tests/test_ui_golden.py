"""Golden snapshots: every screen of the app, driven by buttons on the fake hardware.

Each scene boots the real App on host_tools.hw.fake_hw, presses buttons (and,
for the game states a test needs, stacks the deck and scripts the computer so
that no snapshot depends on the computer players' judgement), and compares
the frame with tests/golden/<scene>.txt: 64 lines of 128 characters, '#' lit,
'.' dark.  Any pixel difference fails.

Regenerate after an intended change of the screens, then look at the PNGs:

    GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_ui_golden.py
    .venv/bin/python tests/test_ui_golden.py --png /tmp/golden   # x4 PNGs of every scene
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from ui import screens

from deal import stacked_deck
from host_tools.hw.fake_hw import Driver, FakeHw

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"


# --- frames as text ------------------------------------------------------------------------


def frame_text(buf: bytes) -> str:
    rows = []
    for y in range(64):
        page = (y >> 3) * 128
        bit = 1 << (y & 7)
        rows.append("".join("#" if buf[page + x] & bit else "." for x in range(128)))
    return "\n".join(rows) + "\n"


def text_frame(text: str) -> bytes:
    buf = bytearray(1024)
    for y, row in enumerate(text.splitlines()):
        for x, ch in enumerate(row):
            if ch == "#":
                buf[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(buf)


def save_png(buf: bytes, path: Path, scale: int = 4) -> None:
    from PIL import Image

    img = Image.new("L", (128, 64))
    img.putdata([255 if buf[(y >> 3) * 128 + x] >> (y & 7) & 1 else 0 for y in range(64) for x in range(128)])
    img.resize((128 * scale, 64 * scale), Image.NEAREST).save(path)


# --- building scenes -----------------------------------------------------------------------


class Scripted:
    """A computer player that plays a fixed list of actions, then the first legal one."""

    def __init__(self, actions=()):
        self.actions = list(actions)

    def choose(self, obs):
        if self.actions:
            return self.actions.pop(0)
        return obs.legal[0]


def boot(start_ms=5000, settings=None, **hw):
    from app import App

    h = FakeHw(start_ms=start_ms, **hw)
    app = App(h)
    if settings:
        app.settings.update(settings)
    d = Driver(app, h)
    d.run(300)
    return h, app, d


def stacked(app, nd, dl, up, stock="", cpu=(), rules=None, dealer=1, mode=0):
    """A match whose first hand deals these cards; the computer plays ``cpu``."""
    if rules is not None:
        app.settings["rules"] = rules.to_bytes()
    app.settings["mode"] = mode
    app.new_game(seed=1001, deck=stacked_deck(nd, dl, up, stock), dealer=dealer)
    if mode == 0:
        app.play.seats[1].player = Scripted(cpu)
    return app


def seeded(app, cpu=(), seed=1001):
    """A match dealt from ``seed`` (1001: player 1 deals), so it is saved as it goes; the
    computer plays ``cpu``.  (A stacked deal is never saved: a save rebuilds the deal from its seed.)"""
    app.new_game(seed=seed)
    app.play.seats[1].player = Scripted(cpu)
    return app


def card(text):
    from gin.cards import parse_card

    return parse_card(text)


def to_card(d, text):
    """Move the cursor onto a card with LEFT/RIGHT presses."""
    app = d.app
    c = card(text)
    for _ in range(12):
        if app.cursor == c:
            return
        d.press("RIGHT")
    raise AssertionError("cursor never reached " + text)


# Hands: player 0 (you) is the non-dealer and acts first.
LAYOFF = ("4H 5H 6H 9S TS JS KC KD KH 2C", "7H 8H 3S 3D 3C QS QD AC 5D 9C", "TD", "JH")
SPREAD = ("3H 4H 5H 6H 6C 6D 6S AC 2D 3C", "KC KD 2H 2S QD 4D 8C AD 9D 5C", "TC", "QH")
UNDERCUT = ("4C 4D 4H 7S 8S 9S TS JS QS 8H", "9C 9D 9H JH QH KH 4S 6S KS AD", "2C", "KD")
GIN = ("AS 2S 3S 4S 9C TC JC 7H 7S 7D", "KC KH 2H 2D QD 4D 8C AD 9D 5C", "TD", "KD")


def pass_pass_draw(d):
    d.press("DRAW")  # you pass the upcard
    d.run(600)  # the computer passes too
    d.press("DRAW")  # you draw from the stock


def drawn_from_stock(deal):
    """(hw, app, driver) at the table with ``deal`` (nondealer, dealer, upcard, stock) stacked:
    both passed the upcard (the computer's 106) and you drew the stock's top card."""
    h, app, d = boot()
    stacked(app, *deal[:3], stock=deal[3], cpu=[106])
    pass_pass_draw(d)
    return h, app, d


def scene_title():
    h, app, d = boot()
    return h


def scene_title_continue():
    h, app, d = boot()
    app.new_game(seed=1001)  # a stacked deal is never saved: this one is dealt from its seed
    d.press("MENU")
    for _ in range(6):
        d.press("DOWN")
    d.press("DRAW")  # save and quit
    assert app.view.sid == screens.TITLE
    return h


def scene_rules_menu():
    h, app, d = boot()
    d.keys("DOWN DOWN DOWN DRAW")
    assert app.view.sid == screens.RULES
    d.keys("DOWN DOWN DOWN RIGHT")  # Oklahoma on
    return h


def scene_rules_text():
    h, app, d = boot()
    d.keys("DOWN DOWN DOWN DRAW UP DRAW")
    assert app.view.sid == screens.RULES_TEXT
    return h


def scene_settings():
    h, app, d = boot(battery=3870)
    d.keys("DOWN DOWN DOWN DOWN DOWN DRAW")
    assert app.view.sid == screens.SETTINGS
    d.keys("DOWN")
    return h


def scene_stats():
    h, app, d = boot()
    d.keys("DOWN DOWN DOWN DOWN DRAW")
    assert app.view.sid == screens.STATS
    return h


def scene_help():
    h, app, d = boot()
    d.keys("UP UP DRAW")
    assert app.view.sid == screens.HELP
    return h


def scene_help_buttons():
    h, app, d = boot()
    d.keys("UP UP DRAW LEFT")
    return h


def scene_table_offer():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3])
    d.run(100)
    return h


def scene_table_draw():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    d.press("DRAW")
    d.run(600)
    assert app.match.round.phase == 1
    return h


def scene_table_discard():
    h, app, d = drawn_from_stock(LAYOFF)
    d.keys("LEFT LEFT")
    return h


def scene_table_by_rank():
    h, app, d = drawn_from_stock(LAYOFF)
    d.keys("UP")  # sort by rank
    d.run(3000)  # the "sorted" note fades
    return h


def scene_table_refused():
    h, app, d = boot()
    stacked(app, *UNDERCUT[:3], stock="5H", cpu=[106])
    pass_pass_draw(d)
    to_card(d, "5H")
    d.press("LEFT")
    d.press("KNOCK")  # above the limit
    assert app.msg_err
    return h


def scene_table_thinking():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3] + " 2S", cpu=[106, 104, 3 * 13 + 1])
    pass_pass_draw(d)
    to_card(d, "JH")
    app.play.seats[1].slow = True
    d.press("DISCARD")
    for _ in range(100):
        if app.thinking:
            break
        d.run(10)
    assert app.thinking
    return h


def scene_table_cpu_took():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106, 105, card("QS")])
    pass_pass_draw(d)
    to_card(d, "JH")
    d.press("DISCARD")
    d.run(2000)
    assert app.match.round.player == 0
    return h


def scene_table_spread():
    h, app, d = boot()
    stacked(app, *SPREAD[:3], stock=SPREAD[3], cpu=[106])
    pass_pass_draw(d)
    to_card(d, "QH")
    d.press("KNOCK")
    assert app.match.round.phase == 3
    d.press("RIGHT")
    return h


def scene_pause_menu():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3])
    d.press("MENU")
    return h


def scene_pile():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3] + " 2S", cpu=[106, 105, card("QS")])
    pass_pass_draw(d)
    to_card(d, "JH")
    d.press("DISCARD")
    d.run(2000)
    d.keys("MENU DOWN DOWN DOWN DRAW")
    assert app.view.sid == screens.PILE
    return h


def scene_pass_device():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], mode=1)
    d.run(50)
    assert app.view.sid == screens.PASS_SCREEN
    return h


def scene_result_layoff():
    h, app, d = drawn_from_stock(LAYOFF)
    to_card(d, "JH")
    d.press("KNOCK")
    assert app.view.sid == screens.RESULT
    d.run(1000)  # the first lay-off is shown
    return h


def scene_result_knock():
    h, app, d = drawn_from_stock(LAYOFF)
    to_card(d, "JH")
    d.press("KNOCK")
    d.press("DRAW")  # skip to the end
    return h


def scene_result_undercut():
    h, app, d = boot()
    stacked(app, *UNDERCUT[:3], stock=UNDERCUT[3], cpu=[106])
    pass_pass_draw(d)
    to_card(d, "KD")
    d.press("KNOCK")
    d.press("DRAW")
    return h


def scene_result_gin():
    h, app, d = boot()
    stacked(app, *GIN[:3], stock=GIN[3], cpu=[106])
    pass_pass_draw(d)
    to_card(d, "KD")
    d.press("KNOCK")
    return h


def scene_result_cancelled():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    app.match.round.stock_pos = 49  # three cards left: this draw leaves two
    pass_pass_draw(d)
    d.press("DISCARD")
    assert app.view.sid == screens.RESULT
    return h


def _restored(app, summaries, hollywood=False, sid=screens.SHEET):
    from gin.match import Match
    from gin.rules import RuleSet

    app.new_game(seed=1001)
    app.play.seats[1].player = Scripted()
    app.play.match = Match.restore(RuleSet(hollywood=hollywood), 1001, summaries, b"")
    app.goto(sid)


HANDS = [
    (2, 0, 43, 0),
    (0, 1, 12, 1),
    (4, -1, 0, -1),
    (1, 0, 17, 1),
    (0, 0, 9, 0),
    (3, 1, 48, 1),
    (0, 0, 22, 0),
]


def scene_sheet():
    h, app, d = boot()
    _restored(app, HANDS)
    d.run(50)
    return h


def scene_sheet_hollywood():
    h, app, d = boot()
    _restored(app, HANDS, hollywood=True)
    d.run(50)
    return h


def scene_game_over():
    h, app, d = boot()
    _restored(app, HANDS + [(2, 0, 35, 0)], sid=screens.SHEET)
    assert app.match.state == 2
    d.press("DRAW")
    assert app.view.sid == screens.OVER_SCREEN
    return h


def scene_demo():
    h, app, d = boot()
    d.run(60000)  # a minute idle on the title; the computers have not moved yet
    assert app.demo and app.view.sid == screens.TABLE and not app.match.round.actions
    return h


def scene_hint_message():
    h, app, d = drawn_from_stock(LAYOFF)
    app.say("Hint: discard KC: keeps 14 deadwood and looks safe", False, 4000)
    d.run(10)
    return h


class _Shown:
    """A frame drawn outside the App (main.py's screens), shaped like FakeHw for the scene table."""

    def __init__(self, canvas):
        self.display = type("D", (), {"frame": bytes(canvas.buf)})()


def scene_crash():
    import launch as main

    return _Shown(
        main.crash_frame(main.one_line(ValueError("bad card 'ZZ': rank must be one of A23456789TJQK")))
    )


def scene_safe_mode():
    import launch as main

    return _Shown(main.safe_frame())


def scene_watch():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], mode=2)
    d.run(50)
    return h


def scene_pile_opponent_known():
    h, app, d = boot()
    stacked(app, *LAYOFF[:3], stock=LAYOFF[3], cpu=[105, card("2C")], dealer=0)
    d.run(2000)
    d.keys("MENU DOWN DOWN DOWN DRAW")
    assert app.view.sid == screens.PILE
    return h


SCENES = {name[6:]: fn for name, fn in sorted(globals().items()) if name.startswith("scene_")}


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_matches_golden(name):
    h = SCENES[name]()
    got = frame_text(h.display.frame)
    path = GOLDEN / (name + ".txt")
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no golden for {name}: run GOLDEN_UPDATE=1 pytest {__file__}")
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got)
    want = path.read_text()
    if got != want:
        diff = sum(a != b for a, b in zip(got, want))
        pytest.fail(f"{name}: {diff} pixels differ from {path.name} (GOLDEN_UPDATE=1 to accept)")


def test_frame_text_round_trips():
    buf = bytes((i * 37) & 0xFF for i in range(1024))
    assert text_frame(frame_text(buf)) == buf


def test_every_golden_file_has_a_scene():
    names = {p.stem for p in GOLDEN.glob("*.txt")}
    assert names <= set(SCENES), names - set(SCENES)


if __name__ == "__main__":
    out = Path(sys.argv[sys.argv.index("--png") + 1] if "--png" in sys.argv else "/tmp/golden")
    out.mkdir(parents=True, exist_ok=True)
    for name, fn in SCENES.items():
        save_png(fn().display.frame, out / (name + ".png"))
        print(out / (name + ".png"))
