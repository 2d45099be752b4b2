"""Every character the firmware can show has a glyph in its font (issue 25).

ui.font draws a character it lacks as a hollow box: the player reads "22□7".  The walks of
tests/test_readable.py draw on a ``CheckedCanvas`` that records such a character as a problem;
here: the texts those walks don't reach (the saved match's line with its numbers at their
widest, the link cable's messages, the engine's refusals, the save files' complaints), and every
string written in the firmware, in both fonts, whichever screen ends up drawing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import app as appmod
import savegame as sg
from gin.match import Match
from gin.rules import RuleSet
from link import messages
from ui.font import NORMAL, SMALL
from ui.screens import TITLE

from host_tools.hw.fake_hw import Driver, FakeHw
from test_readable import engine_messages
from textcheck import CheckedCanvas, lacking

ROOT = Path(__file__).resolve().parents[1]


def firmware_sources():
    yield from sorted((ROOT / "firmware").rglob("*.py"))
    yield ROOT / "main.py"
    yield ROOT / "boot.py"


def string_literals(path):
    """(line, text) of every str constant in a module but its docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            yield n.lineno, n.value


def undrawable(text):
    """The characters of text that one of the fonts lacks; control characters (log lines and
    file contents, never drawn: the walks would catch them) aside."""
    return {ch for ch in lacking(text, SMALL) | lacking(text, NORMAL) if ord(ch) >= 32}


def test_every_string_in_the_firmware_has_its_glyphs_in_both_fonts():
    bad = []
    for path in firmware_sources():
        for line, text in string_literals(path):
            if undrawable(text):
                bad.append(
                    "%s:%d %r lacks %r" % (path.relative_to(ROOT), line, text, sorted(undrawable(text)))
                )
    assert not bad, "\n".join(bad)


def test_the_link_cables_messages_and_the_engines_refusals_have_their_glyphs():
    texts = [v for k, v in vars(messages).items() if k.startswith("MSG_") and isinstance(v, str)]
    texts.append(messages.far_text(31, "move", "behind"))
    texts.append(messages.firmware_text((0, 2, 0), (0, 1, 0)))
    assert len(texts) >= 8, texts
    texts += list(engine_messages())
    bad = [(t, sorted(undrawable(t))) for t in texts if undrawable(t)]
    assert not bad, bad


def knocks(points, n):
    """n hands each player wins by knocking, ``points`` each (98 at most: MAX_DEADWOOD)."""
    return [(0, w, points, w) for _ in range(n) for w in (0, 1)]


@pytest.mark.parametrize("scores", [(37, 12), (9999, 9999)])
def test_new_game_over_a_saved_match_says_its_score_in_glyphs(monkeypatch, scores):
    """The title's 'Replace the match in progress?' shows the saved match's score, at its widest
    with the 10,000-point target: 9999 each, after 206 hands."""
    made = []

    def canvas():
        made.append(CheckedCanvas())
        return made[-1]

    monkeypatch.setattr(appmod, "Canvas", canvas)
    if scores == (37, 12):
        summaries = [(0, 0, 25, 0), (0, 1, 12, 1), (0, 0, 12, 0)]
        rules = RuleSet()
    else:
        summaries = knocks(98, 102) + knocks(3, 1)
        rules = RuleSet(target=10000)
    m = Match.restore(rules, 99, summaries, b"")
    assert (m.score_of(0), m.score_of(1)) == scores
    hw = FakeHw(start_ms=1000, files={sg.GAME_FILE: sg.encode_game(sg.snapshot_of(m))})
    app = appmod.App(hw)
    d = Driver(app, hw)
    d.run(200)
    d.keys("DOWN DRAW")  # New game: asks first, showing the saved match
    assert app.view.sid == TITLE and app.view.ask is not None, app.msg
    d.run(100)
    drawn = set().union(*(c.drawn for c in made))
    assert app.view.ask in drawn
    problems = [p for c in made for p in c.problems]
    assert not problems, problems
