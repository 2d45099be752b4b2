"""The seams between the parts (docs/ARCHITECTURE.md), checked on the source and by behaviour.

- The App <-> screen contract: screens name screens, modes and engine states by
  their constants, and ask the App through its methods (never ``app.hw`` or
  ``app.saves``).
- No module reaches for another's private names (``from m import _x``, ``obj._x``).
- A chosen deal: ``Match(..., deck=, dealer=)`` and ``App.new_game(seed=, deck=, dealer=)``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from deal import stacked_deck
from host_tools.hw.fake_hw import Driver, FakeHw

ROOT = Path(__file__).resolve().parent.parent
UI = sorted((ROOT / "firmware" / "ui").glob("*.py"))


def _py_files():
    for top in ("firmware", "host_tools", "tests"):
        for p in sorted((ROOT / top).rglob("*.py")):
            if "node_modules" not in p.parts:
                yield p
    for p in ("main.py", "boot.py"):
        yield ROOT / p


# --- the App <-> screen contract -------------------------------------------------------------

BARE = re.compile(r"goto\(\s*\d|\bmode\s*[!=]=\s*\d|\bstate\s*[!=]=\s*\d|\bsid\s*=\s*\d")


@pytest.mark.parametrize("path", UI, ids=lambda p: p.name)
def test_screens_name_screens_modes_and_states_by_their_constants(path):
    bad = [
        "%s:%d: %s" % (path.name, i, line.strip())
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if BARE.search(line)
    ]
    assert not bad, bad


@pytest.mark.parametrize("path", UI, ids=lambda p: p.name)
def test_screens_ask_the_app_instead_of_reaching_into_its_hardware_or_saves(path):
    tree = ast.parse(path.read_text())
    bad = [
        "%s:%d: %s" % (path.name, n.lineno, ast.unparse(n))
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute)
        and n.attr in ("hw", "saves")
        and isinstance(n.value, ast.Name)
        and n.value.id == "app"
    ]
    assert not bad, bad


def test_the_battery_is_read_at_most_once_per_period_however_often_screens_ask():
    from app import BATTERY_MS, App
    from ui.screens import SETTINGS

    hw = FakeHw(start_ms=1000, battery=3900)
    reads = []
    real = hw.battery_mv
    hw.battery_mv = lambda: reads.append(1) or real()
    a = App(hw)
    d = Driver(a, hw)
    a.goto(SETTINGS)
    d.run(200)
    for _ in range(5):
        d.press("DOWN")  # a frame each, and every frame lists the rows
    assert hw.display.shows >= 6
    assert a.battery_mv() == 3900
    assert len(reads) <= 1 + (hw.clock.now() - 1000) // BATTERY_MS, reads
    hw.battery = 3700
    d.run(BATTERY_MS)
    assert a.battery_mv() == 3700  # and it does follow the gauge


# --- private names stay private ------------------------------------------------------------------

# (file name, the expression) that may touch a private name, and why
ALLOWED = {
    ("pico.py", "sys.implementation._machine"),  # MicroPython's documented board name
    ("match.py", "m._record"),  # Match.restore, a classmethod of the same class
    ("fake_board.py", "board._proc"),  # its own main() (the deploy helper's split reshapes it)
    ("test_ai.py", "gin.ai_hard._match_point"),  # unit test of a helper the expert work reshapes
}


def test_no_module_uses_another_modules_private_names():
    bad = []
    for path in _py_files():
        rel = path.relative_to(ROOT).as_posix()
        name = path.name
        tree = ast.parse(path.read_text())
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module and n.module != "__future__":
                for a in n.names:
                    if a.name.startswith("_") and (name, n.module + "." + a.name) not in ALLOWED:
                        bad.append("%s:%d: from %s import %s" % (rel, n.lineno, n.module, a.name))
            elif isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__"):
                v = n.value
                if isinstance(v, ast.Name) and v.id in ("self", "cls"):
                    continue
                text = ast.unparse(n)
                if (name, text) not in ALLOWED:
                    bad.append("%s:%d: %s" % (rel, n.lineno, text))
    assert not bad, bad


# --- a chosen deal --------------------------------------------------------------------------------

HANDS = ("4H 5H 6H 9S TS JS KC KD KH 2C", "7H 8H 3S 3D 3C QS QD AC 5D 9C", "TD", "JH")


def test_a_match_deals_a_chosen_deck_and_dealer():
    from gin.cards import hand_of, parse_card
    from gin.match import Match
    from gin.rules import RuleSet

    deck = stacked_deck(*HANDS[:3], HANDS[3])
    for dealer in (0, 1):
        m = Match(RuleSet(), 5, deck, dealer)
        assert m.stacked and m.dealer == dealer and m.round.dealer == dealer
        assert m.round.hands[1 - dealer] == hand_of(HANDS[0])  # the non-dealer gets the first card
        assert m.round.hands[dealer] == hand_of(HANDS[1])
        assert m.round.pile == [parse_card("TD")]
    plain = Match(RuleSet(), 5)
    assert not plain.stacked and plain.round.hands == Match(RuleSet(), 5).round.hands


def test_new_game_with_a_seed_deals_that_seed_and_a_stacked_deal_is_never_saved():
    from app import App
    from gin.cards import hand_of
    from gin.match import Match
    from gin.rules import RuleSet

    hw = FakeHw(start_ms=1000)
    a = App(hw)
    a.new_game(seed=1234)
    assert a.match.seed == 1234 and not a.match.stacked
    assert a.match.round.hands == Match(RuleSet(), 1234).round.hands
    assert a.has_save and hw.storage.read("game.sav") is not None
    a.games.clear_save()

    a.new_game(seed=77, deck=stacked_deck(*HANDS[:3], HANDS[3]), dealer=1)
    assert a.match.stacked and a.match.round.hands[0] == hand_of(HANDS[0])
    assert a.view.sid == 1  # the table, ready to play: nothing to patch afterwards
    Driver(a, hw).press("DRAW")  # a move: the App would save now
    assert hw.storage.read("game.sav") is None and not a.has_save


def test_next_seed_deals_the_next_match_only():
    from app import App

    hw = FakeHw(start_ms=1000)
    a = App(hw)
    a.games.next_seed = 42
    a.new_game()
    assert a.match.seed == 42 and a.games.next_seed is None
    a.quit_to_title()
    hw.clock.advance(1234)
    a.new_game()
    assert a.match.seed != 42


# --- the four nevers (docs/ARCHITECTURE.md) ---------------------------------------------------


def _imports(path):
    """The modules a file imports (absolute names; ``from x import y`` gives x and x.y)."""
    out = set()
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Import):
            out.update(a.name for a in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module:
            out.add(n.module)
            out.update(n.module + "." + a.name for a in n.names)
        elif isinstance(n, ast.Call) and getattr(n.func, "id", None) == "__import__" and n.args:
            arg = n.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.add(arg.value)
    return out


def _under(names, top):
    return sorted(n for n in names if n == top or n.startswith(top + "."))


def test_the_screens_never_import_device_code():
    bad = {p.name: _under(_imports(p), "device") for p in UI}
    assert not {k: v for k, v in bad.items() if v}, bad


def test_the_settings_and_save_formats_never_import_a_screen():
    fw = ROOT / "firmware"
    bad = {
        name: _under(_imports(fw / name), "ui")
        for name in ("prefs.py", "savegame.py", "migrate.py", "modes.py")
    }
    assert not {k: v for k, v in bad.items() if v}, bad


GIN = sorted((ROOT / "firmware" / "gin").glob("*.py"))
GLYPH = re.compile(r"[^\x00-\x7f]")


@pytest.mark.parametrize("path", GIN, ids=lambda p: p.name)
def test_the_rules_core_has_no_screens_and_no_screen_words(path):
    """gin/ imports nothing above it, and no string of it holds a glyph: the words a player
    reads are the screens' (a hint comes as facts, ui/hintwords.py says them).  cards.py's
    suit letters are card notation (parse_card reads them), not words on the glass."""
    names = _imports(path)
    above = [
        n for n in names if n.split(".")[0] in ("ui", "device", "app", "play", "link", "savegame", "prefs")
    ]
    assert not above, above
    if path.name == "cards.py":
        return
    glyphs = [
        "%d: %r" % (n.lineno, n.value)
        for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and GLYPH.search(n.value)
    ]
    assert not glyphs, glyphs


def _class_source(path, name):
    tree = ast.parse(path.read_text())
    for n in tree.body:
        if isinstance(n, ast.ClassDef) and n.name == name:
            return n
    raise AssertionError("no class %s in %s" % (name, path))


def test_the_host_auto_player_knows_no_screen_and_no_key_mapping():
    """It plays through the screens' own ``keys_for`` and ``proceed`` (ui/screens.py): it imports
    no screen ids, no key numbers and no action numbers, and reads no screen id."""
    cls = _class_source(ROOT / "host_tools" / "hw" / "fake_hw.py", "AutoPlayer")
    names = set()
    for n in ast.walk(cls):
        if isinstance(n, ast.ImportFrom) and n.module:
            names.update(n.module + "." + a.name for a in n.names)
    bad = [n for n in names if n.startswith(("ui.", "gin.round.", "device.", "events."))]
    assert not bad, bad
    sids = [ast.unparse(n) for n in ast.walk(cls) if isinstance(n, ast.Attribute) and n.attr == "sid"]
    assert not sids, sids


def test_a_new_screen_mid_match_does_not_stop_the_auto_player():
    """A screen the auto-player has never heard of, shown between two hands, is passed by its
    ``proceed`` button like any other."""
    from app import App
    from ui import keys

    from host_tools.hw.fake_hw import AutoPlayer

    class Interlude:  # a screen a contributor might add after each result
        sid = 99
        msg_y = -1
        proceed = keys.DRAW

        def __init__(self, app, arg):
            pass

        def key(self, app, b, kind):
            if kind == keys.PRESS and b == keys.DRAW:
                app.next_hand()

        def draw(self, app, c, now):
            return 0

    hw = FakeHw(start_ms=1000)
    a = App(hw)
    a.new_game(seed=5)
    d = Driver(a, hw)
    ap = AutoPlayer(d, "normal", 3)
    ap.run("hand")
    assert a.view.sid == 2  # the result
    a.view = Interlude(a, None)  # as goto would show it
    ap.run("move")
    assert a.view.sid == 1 and len(a.match.summaries) == 1  # on to the next hand


# --- screens read the App's documented names and change it through its methods ---------------


@pytest.mark.parametrize("path", UI, ids=lambda p: p.name)
def test_screens_read_and_call_only_what_ui_screens_lists(path):
    from ui.screens import APP_CALLS, APP_READS

    tree = ast.parse(path.read_text())
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    bad = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "app":
            ok = APP_CALLS if id(n) in calls else APP_READS
            if n.attr not in ok or not isinstance(n.ctx, ast.Load):
                bad.append("%d: %s" % (n.lineno, ast.unparse(n)))
        elif isinstance(n, (ast.Assign, ast.AugAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                while isinstance(t, ast.Subscript):
                    t = t.value
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "app":
                    bad.append("%d: writes %s" % (n.lineno, ast.unparse(t)))
    assert not bad, bad


def test_what_ui_screens_lists_is_there_on_the_app():
    from app import App
    from ui.screens import APP_CALLS, APP_READS

    a = App(FakeHw(start_ms=1000))
    for name in APP_READS:
        assert hasattr(a, name), name
    for name in APP_CALLS:
        assert callable(getattr(a, name, None)), name


# --- the App uses of the hardware only what the contract lists --------------------------------


HW = ("hw", "self.hw", "app.hw", "self.app.hw")  # how the App and its helpers name the hardware


def test_the_app_uses_only_what_the_hardware_contract_lists():
    from device import contract

    parts = dict(contract.PARTS)
    allowed = set(contract.CALLS) | set(contract.FIELDS) | set(contract.OPTIONAL) | set(parts)
    bad = []
    for name in ("app.py", "games.py", "play.py", "play_computer.py", "play_cable.py", "savegame.py"):
        tree = ast.parse((ROOT / "firmware" / name).read_text())
        for n in ast.walk(tree):
            # hw.<x>, self.hw.<x>, and what the App keeps of it: d = self.hw.display ...
            if isinstance(n, ast.Attribute) and ast.unparse(n.value) in HW:
                if n.attr not in allowed:
                    bad.append("%s:%d: %s" % (name, n.lineno, ast.unparse(n)))
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute):
                inner = n.value
                if ast.unparse(inner.value) in HW and inner.attr in parts:
                    if n.attr not in parts[inner.attr]:
                        bad.append("%s:%d: %s" % (name, n.lineno, ast.unparse(n)))
    # the display and storage the App and the saves keep under a short name
    app = ast.parse((ROOT / "firmware" / "app.py").read_text())
    for n in ast.walk(app):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "d":
            if n.attr not in parts["display"]:
                bad.append("app.py:%d: %s" % (n.lineno, ast.unparse(n)))
    saves = ast.parse((ROOT / "firmware" / "savegame.py").read_text())
    for n in ast.walk(saves):
        v = n.value if isinstance(n, ast.Attribute) else None
        if v is not None and ast.unparse(v) in ("st", "self.storage", "storage"):
            if n.attr not in parts["storage"] and not n.attr.startswith("_"):
                bad.append("savegame.py:%d: %s" % (n.lineno, ast.unparse(n)))
    assert not bad, bad


def test_play_changes_the_game_and_answers_with_outcomes_only():
    """play.py and the computer's seat never draw, beep, save or change screens: the App and
    Games turn their outcomes into those."""
    bad = []
    for name in ("play.py", "play_computer.py", "modes.py"):
        tree = ast.parse((ROOT / "firmware" / name).read_text())
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute) and n.attr in ("goto", "say", "beep", "autosave", "hw", "saves"):
                bad.append("%s:%d: %s" % (name, n.lineno, ast.unparse(n)))
            if (
                isinstance(n, ast.ImportFrom)
                and n.module
                and n.module.split(".")[0] in ("ui", "device", "app")
            ):
                bad.append("%s:%d: from %s" % (name, n.lineno, n.module))
    assert not bad, bad
