"""The files the game needs on the board: the import closure of boot.py and main.py.

The list is computed, never written down: read with ``ast``, following imports of firmware/ modules
wherever they appear (module level, inside functions, ``__import__`` with a constant or a constant
prefix plus names found in the same module).  Other imports must be modules of the stock rp2
firmware or the ``ssd1306`` driver (host_tools/deploy/rp2.py), unless they sit in a ``try`` that
catches ImportError (host-only fallbacks).  boot.py and main.py stay source, since MicroPython runs
those two by name; every other module is deployed as .mpy.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from host_tools.deploy import ROOT, DeployError
from host_tools.deploy.rp2 import DEVICE_MODULES
from host_tools.deploy.titlecard import CARD_FILE

ENTRY_FILES = ("boot.py", "main.py")  # run by name by MicroPython: deployed as source
TITLE_CARD_MODULE = "ui.titlecard"  # a firmware that keeps its title gets one drawn by the deploy


@dataclass(frozen=True)
class Entry:
    """One file on the board."""

    device: str  # path on the board: "gin/cards.mpy", "main.py"
    source: Path  # where it comes from
    module: str | None  # import name ("gin.cards"), None for boot.py/main.py and the title card
    reason: str  # who imports it first: "main.py:12"
    drawn: bool = False  # made by the deploy, not copied: the title card (host_tools/deploy/titlecard.py)

    @property
    def compiled(self) -> bool:
        return self.device.endswith(".mpy")


@dataclass
class _Import:
    name: str  # absolute or relative module name ("" for `from . import x`)
    names: tuple[str, ...]  # from-list
    level: int
    guarded: bool  # inside a try that catches ImportError
    line: int


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(
        isinstance(n, ast.Name) and n.id in ("ImportError", "Exception", "BaseException") for n in names
    )


def _const_prefix(node: ast.AST, scope: ast.AST) -> str:
    """The constant string a dynamic module-name expression starts with, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _const_prefix(node.left, scope)
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        return ""
    if isinstance(node, ast.Name):
        # `mod = "ui." + mod; __import__(mod)`: look at what the name is assigned in this scope.
        found = ""
        for sub in ast.walk(scope):
            if isinstance(sub, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in sub.targets
            ):
                p = _const_prefix(sub.value, scope)
                if p:
                    found = p
        return found
    return ""


def _scan(tree: ast.Module) -> tuple[list[_Import], list[tuple[str, ast.AST, int]], set[str]]:
    """Imports, dynamic __import__ calls (prefix, call, line) and string constants of one module."""
    imports: list[_Import] = []
    dynamic: list[tuple[str, ast.AST, int]] = []
    strings: set[str] = set()

    def visit(node: ast.AST, guarded: bool, scope: ast.AST) -> None:
        if isinstance(node, ast.Try):
            g = guarded or any(_catches_import_error(h) for h in node.handlers)
            for child in node.body:
                visit(child, g, scope)
            for part in (node.handlers, node.orelse, node.finalbody):
                for child in part:
                    visit(child, guarded, scope)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scope = node
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.append(_Import(a.name, (), 0, guarded, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            names = tuple(a.name for a in node.names)
            imports.append(_Import(node.module or "", names, node.level, guarded, node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            if node.args:
                arg = node.args[0]
                fromlist: tuple[str, ...] = ()
                if len(node.args) >= 4 and isinstance(node.args[3], (ast.Tuple, ast.List)):
                    fromlist = tuple(
                        e.value
                        for e in node.args[3].elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    )
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    imports.append(_Import(arg.value, fromlist, 0, guarded, node.lineno))
                else:
                    dynamic.append((_const_prefix(arg, scope), node, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        for child in ast.iter_child_nodes(node):
            visit(child, guarded, scope)

    visit(tree, False, tree)
    return imports, dynamic, strings


class _Firmware:
    """Module lookup inside firmware/ (the device's flash root)."""

    def __init__(self, fw: Path) -> None:
        self.fw = fw

    def is_local(self, name: str) -> bool:
        first = name.split(".")[0]
        return bool(first) and ((self.fw / first).is_dir() or (self.fw / (first + ".py")).is_file())

    def file_of(self, name: str) -> Path | None:
        """The file that `import name` loads (a package's __init__.py), or None."""
        parts = name.split(".")
        d = self.fw.joinpath(*parts)
        if d.is_dir():
            init = d / "__init__.py"
            return init if init.is_file() else None  # a namespace package: nothing to load
        f = self.fw.joinpath(*parts[:-1], parts[-1] + ".py")
        return f if f.is_file() else None

    def exists(self, name: str) -> bool:
        parts = name.split(".")
        return self.fw.joinpath(*parts).is_dir() or self.fw.joinpath(*parts[:-1], parts[-1] + ".py").is_file()

    def module_name(self, path: Path) -> str:
        rel = path.relative_to(self.fw).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def package_of(self, path: Path) -> str:
        name = self.module_name(path)
        return name if path.name == "__init__.py" else name.rpartition(".")[0]


@dataclass
class Closure:
    entries: list[Entry]  # sorted by device path
    device_modules: set[str] = field(default_factory=set)  # rp2 and driver modules imported

    def needs(self, module: str) -> bool:
        return module in self.device_modules


def import_closure(root: Path = ROOT) -> list[Entry]:
    """Everything boot.py and main.py need on the board, sorted by device path."""
    return closure(root).entries


def closure(root: Path = ROOT) -> Closure:
    """The files boot.py and main.py need, and the firmware and driver modules they import."""
    root = Path(root)
    fw = _Firmware(root / "firmware")
    if not (root / "main.py").is_file():
        raise DeployError(f"{root / 'main.py'} not found: nothing would start the game")
    entries: dict[str, Entry] = {}
    todo: list[tuple[Path, str | None, str]] = []
    for name in ENTRY_FILES:
        if (root / name).is_file():
            entries[name] = Entry(name, root / name, None, "entry point")
            todo.append((root / name, None, name))
    problems: list[str] = []
    device_modules: set[str] = set()

    def need(name: str, why: str) -> None:
        """Queue module `name` and its parent packages."""
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            sub = ".".join(parts[:i])
            f = fw.file_of(sub)
            if f is None:
                if not fw.exists(sub):
                    problems.append(
                        f"{why}: imports {name}, but firmware/ has no {sub.replace('.', '/')}(.py)"
                    )
                    return
                continue
            dev = str(f.relative_to(fw.fw).with_suffix(".mpy")).replace(os.sep, "/")
            if dev not in entries:
                entries[dev] = Entry(dev, f, sub, why)
                todo.append((f, sub, dev))

    while todo:
        path, modname, dev = todo.pop()
        where = dev if modname is None else str(path.relative_to(fw.fw)).replace(os.sep, "/")
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as e:
            raise DeployError(f"{path}: {e}") from None
        imports, dynamic, strings = _scan(tree)
        package = fw.package_of(path) if modname is not None else ""
        for imp in imports:
            why = f"{where}:{imp.line}"
            if imp.level:
                base = package.split(".") if package else []
                if imp.level - 1 > len(base):
                    problems.append(f"{why}: relative import beyond the top of firmware/")
                    continue
                base = base[: len(base) - (imp.level - 1)]
                target = ".".join(base + ([imp.name] if imp.name else []))
            else:
                target = imp.name
            if target and not fw.is_local(target):
                top = target.split(".")[0]
                known = top in DEVICE_MODULES or (top.startswith("u") and top[1:] in DEVICE_MODULES)
                if known:
                    device_modules.add(top[1:] if top not in DEVICE_MODULES else top)
                if not known and not imp.guarded:
                    problems.append(f"{why}: imports {target}, which a stock rp2 MicroPython does not have")
                continue
            if target:
                need(target, why)
            for n in imp.names:
                sub = f"{target}.{n}" if target else n
                if n != "*" and fw.exists(sub):
                    need(sub, why)
        for prefix, _call, line in dynamic:
            why = f"{where}:{line}"
            found = [
                prefix + s for s in sorted(strings) if s and fw.exists(prefix + s) and fw.is_local(prefix + s)
            ]
            if not found:
                problems.append(
                    f"{why}: __import__ of a computed name that no string constant of this module completes"
                    " into a firmware/ module"
                )
            for name in found:
                need(name, why + " (dynamic)")
    if problems:
        raise DeployError("the import closure has problems:\n  " + "\n  ".join(sorted(set(problems))))
    if any(e.module == TITLE_CARD_MODULE for e in entries.values()):
        entries[CARD_FILE] = Entry(
            CARD_FILE,
            Path(__file__).with_name("titlecard.py"),
            None,
            "the title for a blank flash: the first boot shows it at once",
            drawn=True,
        )
    return Closure([entries[k] for k in sorted(entries)], device_modules)
