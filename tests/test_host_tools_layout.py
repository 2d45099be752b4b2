"""host_tools/ is a set of packages by job: no import circles, one place that puts firmware/ on sys.path."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "host_tools"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(HOST.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """Every host_tools module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module] + [node.module + "." + a.name for a in node.names]
        else:
            continue
        for t in targets:
            if t in known and t != name:
                found.add(t)
    return found


def test_host_tools_modules_import_no_circle():
    mods = _modules()
    graph = {name: _imports(path, name, set(mods)) for name, path in mods.items()}
    # A package's __init__ is imported by everything below it: only real module edges count.
    graph = {n: {t for t in ts if not n.startswith(t + ".")} for n, ts in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> None:
        state[n] = 1
        stack.append(n)
        for t in sorted(graph[n]):
            if state.get(t) == 1:
                cycle = stack[stack.index(t) :] + [t]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)


def test_an_import_circle_would_be_found(tmp_path, monkeypatch):
    """The check above sees function-level imports (the kind the old circle used)."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from host_tools.simulator import cli\n")
    assert "host_tools.simulator.cli" in _imports(a, "host_tools.x", {"host_tools.simulator.cli"})


def _patches_sys_path(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("insert", "append", "extend"):
            v = node.value
            if isinstance(v, ast.Attribute) and v.attr == "path" and getattr(v.value, "id", "") == "sys":
                return True
    return False


def test_only_the_package_root_puts_firmware_on_sys_path():
    patchers = sorted(str(p.relative_to(ROOT)) for p in _modules().values() if _patches_sys_path(p))
    assert patchers == ["host_tools/__init__.py"]


def test_every_host_tools_package_says_what_it_is_for():
    for init in sorted(HOST.rglob("__init__.py")):
        if "node_modules" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and doc.strip(), f"{init.relative_to(ROOT)} has no docstring"
