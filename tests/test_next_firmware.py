"""The next firmware: one more rule and one more level, and every save written so far still loads.

The test writes that firmware from this one the way docs/SAVES.md ("Compatibility") says a
developer would: a rule appended to gin/rules.py's FIELDS, off by default, and a level appended
to gin/levels.py. Then it runs tests/mp/test_corpus_mp.py with it, under CPython and under
MicroPython: today's files and every older firmware's must load with nothing lost, the new rule
at its default and the new level's statistics empty, and save again.
"""

import shutil
import subprocess
import sys

from host_tools.micropython import mptest
from host_tools.micropython.runner import ROOT, command, ensure_node_deps

FIRMWARE = ROOT / "firmware"
MP_TESTS = ROOT / "tests" / "mp"
MODULE = "test_corpus_mp"

# (file, text, replacement): the next firmware's edits, each text found exactly once.
NEXT = (
    ("gin/rules.py", '    "hollywood",\n)', '    "hollywood",\n    "aces_high",\n)'),
    ("gin/rules.py", 'BOOL_FIELDS = ("big_gin",', 'BOOL_FIELDS = ("aces_high", "big_gin",'),
    (
        "gin/rules.py",
        "        self.hollywood = False\n",
        "        self.hollywood = False\n        self.aces_high = False\n",
    ),
    ("gin/levels.py", '"expert")', '"expert", "master")'),
)

# Runs in the next firmware, under either interpreter: it is that firmware, then the corpus test.
SCRIPT = (
    """
import sys
from gin.rules import FIELDS, RuleSet
from gin.levels import LEVELS
import prefs
assert FIELDS[-1] == "aces_high" and RuleSet().aces_high is False, FIELDS
assert LEVELS[-1] == "master" and len(prefs.Stats().levels) == 5, LEVELS
import mp_runner
sys.exit(mp_runner.main(["%s"]))
"""
    % MODULE
)


def next_firmware(into):
    fw = into / "firmware"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    for name, old, new in NEXT:
        path = fw / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    (into / "next.py").write_text(SCRIPT, encoding="utf-8")
    return fw


def _passed(out):
    return "%d passed, 0 failed" % len(mptest.list_test_functions(MODULE)) in out


def test_the_next_firmware_loads_every_save_under_cpython(tmp_path):
    fw = next_firmware(tmp_path)
    code = "import sys; sys.path[:0] = [%r, %r]; exec(open(%r).read())" % (
        str(fw),
        str(MP_TESTS),
        str(tmp_path / "next.py"),
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0 and _passed(r.stdout), r.stdout + r.stderr


def test_the_next_firmware_loads_every_save_under_micropython(tmp_path):
    fw = next_firmware(tmp_path)
    ensure_node_deps()
    cmd = command(paths=[(fw, "/fw"), (MP_TESTS, "/tests_mp")]) + [str(tmp_path / "next.py")]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and _passed(r.stdout), r.stdout + r.stderr
