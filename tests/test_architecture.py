"""docs/ARCHITECTURE.md held to the tree: the parts map, the hardware contract, the nevers and the
screen recipe (followed here with a screen of this test's own)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from device import contract

from host_tools.hw.fake_hw import Driver, FakeHw

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ARCHITECTURE.md").read_text()


def _section(title):
    start = DOC.index("\n## " + title)
    end = DOC.find("\n## ", start + 4)
    return DOC[start : end if end > 0 else len(DOC)]


def _parts_map():
    """The paths of the parts map, each with its parent folders (by indentation)."""
    block = _section("The parts").split("```")[1]
    paths = []
    stack = []  # (indent, folder)
    for line in block.splitlines():
        if not line.strip() or line.startswith(" " * 20):
            continue  # a description's next line
        indent = len(line) - len(line.lstrip())
        head = line.strip().split("  ")[0]
        while stack and stack[-1][0] >= indent:
            stack.pop()
        prefix = "".join(f for _i, f in stack)
        for name in head.split(", "):
            name = name.strip()
            paths.append(prefix + name)
            if name.endswith("/"):
                stack.append((indent, name))
    return paths


def test_every_path_on_the_parts_map_exists():
    missing = [p for p in _parts_map() if not (ROOT / p).exists()]
    assert not missing, missing


def test_every_firmware_module_and_host_tool_is_on_the_parts_map():
    listed = set(_parts_map())
    want = ["firmware/%s" % p.name for p in (ROOT / "firmware").glob("*.py")]
    want += ["firmware/%s/" % p.parent.name for p in (ROOT / "firmware").glob("*/__init__.py")]
    want += ["host_tools/%s/" % p.parent.name for p in (ROOT / "host_tools").glob("*/__init__.py")]
    absent = sorted(w for w in want if w not in listed)
    assert not absent, absent


def test_the_hardware_contract_on_the_page_is_the_one_the_code_checks():
    text = _section("The hardware contract").split("Three implementations")[0]
    text = " ".join(text.split())
    for part, names in contract.PARTS:
        m = re.search(r"`%s` \(([^)]*)\)" % part, text)
        assert m, part
        assert [n.strip() for n in m.group(1).split(",")] == list(names), part
    for name in contract.CALLS:
        assert "`%s()`" % name in text, name
    for name in contract.FIELDS + contract.OPTIONAL:
        assert "`%s`" % name in text, name


def test_each_never_names_a_test_that_exists():
    seams = (ROOT / "tests" / "test_seams.py").read_text()
    rows = [r for r in _section("The nevers").splitlines() if r.startswith("| ") and "`test_" in r]
    assert len(rows) >= 6
    for row in rows:
        for name in re.findall(r"`(test_\w+)`", row):
            assert "def %s(" % name in seams, name


# --- the recipe for a screen, followed ----------------------------------------------------------

TIP = '''
"""A tip of the day: the recipe's screen (tests/test_architecture.py)."""

from ui import keys
from ui.draw import center, header
from ui.font import NORMAL
from ui.screens import TITLE

TIPS = ("Knock low, gin high.", "Watch the discards.")


class Tip:
    sid = %d
    msg_y = 56

    def __init__(self, app, arg):
        self.i = 0

    def key(self, app, b, kind):
        if kind != keys.PRESS:
            return
        if b == keys.RIGHT:
            self.i = (self.i + 1) %% len(TIPS)
            app.refresh()
        elif b == keys.MENU:
            app.goto(TITLE)

    def draw(self, app, c, now):
        header(c, "TIP")
        center(c, TIPS[self.i], 30, NORMAL)
        return 0
'''


def test_the_screen_recipe_works_as_written(tmp_path, monkeypatch):
    import ui
    from app import App
    from ui import screens

    from test_seams import test_screens_read_and_call_only_what_ui_screens_lists

    sid = len(screens.CLASSES)  # 1. a class in a ui module; 2. the next id and a row in CLASSES
    mod = tmp_path / "ui" / "tip.py"
    mod.parent.mkdir()
    mod.write_text(TIP % sid)
    monkeypatch.setattr(ui, "__path__", list(ui.__path__) + [str(mod.parent)])
    monkeypatch.setattr(screens, "CLASSES", screens.CLASSES + (("tip", "Tip"),))
    monkeypatch.delitem(sys.modules, "ui.tip", raising=False)
    test_screens_read_and_call_only_what_ui_screens_lists(mod)  # 4. the seams test reads it

    hw = FakeHw(start_ms=1000)
    a = App(hw)
    d = Driver(a, hw)
    d.run(100)
    a.goto(sid)  # 3. reached with goto
    d.run(100)
    first = hw.display.frame
    assert a.view.sid == sid and "ui.tip" in sys.modules
    d.press("RIGHT")
    assert hw.display.frame != first  # the next tip, drawn because the screen asked
    d.press("MENU")
    assert a.view.sid == screens.TITLE and "ui.tip" not in sys.modules  # dropped when left
