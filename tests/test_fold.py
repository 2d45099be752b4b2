"""The deploy's link step (host_tools/deploy/fold.py): constants written into the code that reads
them, the names left only where something still reads them, and the same game played."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from host_tools.deploy.closure import import_closure
from host_tools.deploy.compile import folded_sources
from host_tools.deploy.fold import MAX_TEXT, fold

ROOT = Path(__file__).resolve().parents[1]


def run_fold(entries=None, **sources):
    return fold({k.replace("__", "."): textwrap.dedent(v) for k, v in sources.items()}, entries)


def names_bound(src: str) -> set[str]:
    tree = ast.parse(src)
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.alias):
            out.add(n.asname or n.name)
    return out


def test_an_imported_constant_becomes_its_value_and_its_name_goes():
    out = run_fold(
        keys="DRAW = const(4)\nMENU = DRAW + 3\n",
        app="from keys import DRAW, MENU\n\ndef f(k):\n    return k == DRAW or k == MENU\n",
    )
    assert "DRAW" not in out["app"] and "MENU" not in out["app"]
    assert "k == 4 or k == 7" in out["app"]
    assert "import" not in out["app"]  # the import brought only constants: the module isn't loaded
    assert "DRAW" not in out["keys"] and "MENU" not in out["keys"]


def test_reads_through_a_module_and_in_its_own_module_fold_too():
    out = run_fold(
        ui="",
        ui__keys="UP = 1\nSEQ = (UP, 2, 'x')\n\ndef first():\n    return SEQ[0]\n",
        app="from ui import keys\n\ndef f():\n    return keys.UP, keys.SEQ\n",
    )
    assert "return (1, (1, 2, 'x'))" in out["app"]
    assert "from ui import keys" in out["app"]  # the module itself is still read
    assert "return (1, 2, 'x')[0]" in out["ui.keys"]
    assert "UP" not in out["ui.keys"] and "SEQ" not in out["ui.keys"]


def test_a_name_bound_in_an_inner_scope_is_left_alone():
    out = run_fold(
        m="""\
        W = 128
        X = 5

        def param(W):
            return W

        def local():
            W = 3
            return W + X

        def comp(items):
            return [W for W in items]

        class C:
            W = 7
            V = W

            def meth(self):
                return W
        """
    )
    src = out["m"]
    assert "def param(W):\n    return W" in src
    assert "W = 3\n    return W + 5" in src
    assert "[W for W in items]" in src
    assert "V = W" in src  # the class body reads its own W
    assert "def meth(self):\n        return 128" in src  # a method sees the module's
    assert "W = 128" in src  # still read by name (the shadowing scopes): it stays defined
    assert "X = 5" not in src


def test_a_name_bound_twice_or_declared_global_or_assigned_from_outside_is_no_constant():
    out = run_fold(
        a="""\
        TWICE = 1
        TWICE = 2
        G = 1
        R = 1

        def bump():
            global G
            G += 1
        """,
        b="import a\nfrom a import TWICE, G, R\n\ndef f():\n    a.R = 3\n    return TWICE, G, R\n",
    )
    assert "return (TWICE, G, R)" in out["b"]
    assert "TWICE = 2" in out["a"] and "G = 1" in out["a"] and "R = 1" in out["a"]


def test_only_small_values_are_copied_into_their_readers():
    big = "x" * (MAX_TEXT + 1)
    out = run_fold(
        t=f"TABLE = b'{big}'\nNAMES = (1, 2, 3, 4, 5, 6, 7, 8, 9)\nNEST = ((1, 2), (3, 4))\nF = 1.5\n",
        u="from t import TABLE, NAMES, NEST, F\n\ndef f():\n    return TABLE, NAMES, NEST, F\n",
    )
    assert "return (TABLE, NAMES, NEST, F)" in out["u"]
    assert {"TABLE", "NAMES", "NEST", "F"} <= names_bound(out["t"])


@pytest.mark.parametrize(
    "reader",
    [
        "import m\n\ndef f(x):\n    return x.KEEP\n",  # an attribute the pass can't resolve
        "def f(mod):\n    return getattr(mod, 'KEEP')\n",  # the name as a string
    ],
)
def test_a_constant_read_at_run_time_keeps_its_definition(reader):
    out = run_fold(m="KEEP = 9\nGO = 8\n", r=reader)
    assert "KEEP = 9" in out["m"]
    assert "GO" not in out["m"]


def test_names_an_entry_file_mentions_stay_defined():
    out = run_fold({"main.py": "from m import SAFE\nprint(SAFE)\n"}, m="SAFE = 3\nOTHER = 4\n")
    assert "SAFE = 3" in out["m"] and "OTHER" not in out["m"]


def test_a_constant_passed_on_by_another_module_folds_at_both():
    out = run_fold(
        events="DRAW = 4\n",
        buttons="from events import DRAW\n\ndef f():\n    return DRAW\n",
        app="from buttons import DRAW\n\ndef g():\n    return DRAW\n",
    )
    assert "return 4" in out["buttons"] and "return 4" in out["app"]
    assert "import" not in out["buttons"] + out["app"]
    assert "DRAW" not in out["events"]


def test_a_passed_on_name_still_imported_elsewhere_stays_importable():
    out = run_fold(
        events="DRAW = 4\n",
        buttons="from events import DRAW\n",
        app="import buttons\n\ndef g(b):\n    return b.DRAW\n",  # unresolvable: must find it
    )
    assert "from events import DRAW" in out["buttons"]
    assert "DRAW = 4" in out["events"]


def test_an_import_inside_a_function_folds_in_that_function_only():
    out = run_fold(
        k="A = 1\n",
        m="def f():\n    from k import A\n    return A\n\ndef g(A):\n    return A\n",
    )
    assert "def f():\n    return 1" in out["m"] or "def f():\n    pass\n    return 1" in out["m"]
    assert "def g(A):\n    return A" in out["m"]


# --- the real firmware ------------------------------------------------------------------------


def _deployed():
    entries = import_closure(ROOT)
    return entries, folded_sources(entries)


def test_every_name_the_folded_firmware_imports_is_defined_where_it_comes_from():
    entries, folded = _deployed()
    trees = {m: ast.parse(src) for m, src in folded.items()}
    for e in entries:
        if not e.compiled:
            trees[e.device] = ast.parse(e.source.read_text())
    defined = {}
    for m, tree in trees.items():
        names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        names |= names_bound(
            ast.unparse(
                ast.Module([s for s in tree.body if not isinstance(s, ast.FunctionDef | ast.ClassDef)], [])
            )
        )
        defined[m] = names
    missing = []
    for m, tree in trees.items():
        for n in ast.walk(tree):
            if (
                isinstance(n, ast.ImportFrom)
                and n.module in folded
                and "__getattr__" not in defined[n.module]
            ):
                for a in n.names:
                    sub = f"{n.module}.{a.name}"
                    if a.name not in defined[n.module] and sub not in folded:
                        missing.append(f"{m}: from {n.module} import {a.name}")
    assert missing == []


def test_the_folding_takes_most_of_the_firmwares_constant_names_off_the_board():
    entries, folded = _deployed()
    before = after = 0
    for e in entries:
        if e.compiled:
            before += sum(1 for n in names_bound(e.source.read_text()) if n.isupper() and len(n) > 1)
            after += sum(1 for n in names_bound(folded[e.module]) if n.isupper() and len(n) > 1)
    assert after < before / 2, (before, after)


PLAY = """
import json, sys, zlib
import host_tools  # puts firmware/ on sys.path: the folded tree goes in front of it
sys.path.insert(0, sys.argv[1])
from host_tools.hw.fake_hw import session
import app
assert app.__file__.startswith(sys.argv[1]), app.__file__
hw, a = session(app.App)
print(json.dumps([hw.display.crcs, {k: zlib.crc32(v) for k, v in sorted(hw.fs.files.items())}]))
"""


def test_the_folded_firmware_plays_the_same_game(tmp_path):
    # The whole session of the host's session(): every menu and page, then a match to its end,
    # frame by frame and file by file.  The definitions stay (the fake hardware imports them).
    entries = import_closure(ROOT)
    sources = {e.module: e.source.read_text() for e in entries if e.compiled}
    folded = fold(sources, keep_definitions=True)
    assert folded != {m: ast.unparse(ast.parse(s)) + "\n" for m, s in sources.items()}
    by_module = {e.module: e for e in entries if e.compiled}
    for m, src in folded.items():
        rel = Path(by_module[m].device).with_suffix(".py")
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(src)
    runs = []
    for tree in (str(tmp_path), str(ROOT / "firmware")):
        r = subprocess.run([sys.executable, "-c", PLAY, tree], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0, r.stderr[-3000:]
        runs.append(json.loads(r.stdout))
    assert len(runs[0][0]) > 300
    assert runs[0] == runs[1]
