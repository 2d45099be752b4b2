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
    a.clear_save()

    a.new_game(seed=77, deck=stacked_deck(*HANDS[:3], HANDS[3]), dealer=1)
    assert a.match.stacked and a.match.round.hands[0] == hand_of(HANDS[0])
    assert a.view.sid == 1  # the table, ready to play: nothing to patch afterwards
    Driver(a, hw).press("DRAW")  # a move: the App would save now
    assert hw.storage.read("game.sav") is None and not a.has_save


def test_next_seed_deals_the_next_match_only():
    from app import App

    hw = FakeHw(start_ms=1000)
    a = App(hw)
    a.next_seed = 42
    a.new_game()
    assert a.match.seed == 42 and a.next_seed is None
    a.quit_to_title()
    hw.clock.advance(1234)
    a.new_game()
    assert a.match.seed != 42
