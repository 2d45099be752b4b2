"""The deploy's link step: every firmware constant written into the code that reads it.

On a Pico every module-level name is heap for good: its interned string (a qstr, never freed),
an entry in its module's dict, and one more in the dict of every module that imports it.  The
firmware has a few hundred named constants (button numbers, screen ids, file names, record
layouts), most of them read by other modules, which ``micropython.const`` can't fold: it works
inside one file only.  So before mpy-cross, this pass does for the whole firmware what a linker
would:

* a **constant** is a module-level ``NAME = value`` (an upper-case name bound once, at the top
  of its module and nowhere else) whose value is an int, a bool, None, a short str or bytes, or
  a small tuple of those, written out or computed from other constants (``const()`` included);
* every read of it (``NAME`` after ``from mod import NAME``, ``mod.NAME``, in its own module) is
  replaced by the value, except where a function, class body or comprehension binds the same
  name for itself;
* the imports that brought only constants are dropped (so a module read only for its constants
  is no longer loaded), and so is the definition, unless something still reads the name at run
  time: an entry file (boot.py and main.py stay source), an attribute read the pass can't
  resolve, or the name written as a string anywhere in the firmware (``getattr``).

The sources stay as they are; only what mpy-cross compiles changes.  tests/test_fold.py holds
the pass to its rules, and checks that the folded firmware plays the same game on CPython.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

CONST_NAME = re.compile(r"[A-Z][A-Z0-9_]*\Z")
MAX_TEXT = 24  # a str or bytes longer than this stays a name: folding copies it into each reader
MAX_TUPLE = 8  # items; the same, for tuples


class _NotConst(Exception):
    pass


def _small(v) -> bool:
    if isinstance(v, bool) or v is None or isinstance(v, int):
        return True
    if isinstance(v, (str, bytes)):
        return len(v) <= MAX_TEXT
    if isinstance(v, tuple):
        return len(v) <= MAX_TUPLE and all(_small(x) and not isinstance(x, tuple) for x in v)
    return False


_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitXor: lambda a, b: a ^ b,
}
_UNOPS = {ast.USub: lambda a: -a, ast.UAdd: lambda a: +a, ast.Invert: lambda a: ~a, ast.Not: lambda a: not a}


def _value(node: ast.AST, env: dict):
    """The value of a constant expression, names looked up in env; _NotConst when it isn't one."""
    if isinstance(node, ast.Constant):
        v = node.value
        if v is None or isinstance(v, (bool, int, str, bytes)):
            return v
        raise _NotConst
    if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load):
        return tuple(_value(e, env) for e in node.elts)
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise _NotConst
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const":
        if len(node.args) == 1 and not node.keywords:
            return _value(node.args[0], env)
        raise _NotConst
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        return _checked(_UNOPS[type(node.op)](_value(node.operand, env)))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _value(node.left, env), _value(node.right, env)
        if isinstance(a, tuple) or isinstance(b, tuple):
            raise _NotConst  # tuple sums and repeats: leave to the module
        try:
            return _checked(_BINOPS[type(node.op)](a, b))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            raise _NotConst from None
    raise _NotConst


def _checked(v):
    if isinstance(v, float):
        raise _NotConst
    return v


def _literal(v) -> ast.expr:
    if isinstance(v, tuple):
        return ast.Tuple([_literal(x) for x in v], ast.Load())
    if isinstance(v, int) and not isinstance(v, bool) and v < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-v))
    return ast.Constant(v)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)  # fmt: skip


def _walk_scope(node: ast.AST):
    """node and the nodes under it that belong to its scope: a nested def, lambda, class or
    comprehension is yielded (it binds its name here) but not entered."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if n is not node and isinstance(n, _SCOPES):
            continue
        todo.extend(ast.iter_child_nodes(n))


def _bindings(scope: ast.AST) -> dict[str, list[ast.AST]]:
    """{name: [the nodes binding it]} in one scope: a module's top level and the blocks under it,
    or a function's parameters and body, a class body, a comprehension's targets."""
    if isinstance(scope, ast.Module):
        roots = [scope]
    elif isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        body = scope.body if isinstance(scope.body, list) else [scope.body]
        roots = [a for a in ast.walk(scope.args) if isinstance(a, ast.arg)] + body
    elif isinstance(scope, ast.ClassDef):
        roots = list(scope.body)
    else:
        roots = [g.target for g in scope.generators] + [g for g in scope.generators]
    out: dict[str, list[ast.AST]] = {}
    for root in roots:
        for n in _walk_scope(root):
            if n is scope:
                continue
            names: list[str] = []
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                names = [n.id]
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [n.name]
            elif isinstance(n, ast.alias):
                names = [(n.asname or n.name).split(".")[0]]
            elif isinstance(n, ast.ExceptHandler) and n.name:
                names = [n.name]
            elif isinstance(n, ast.arg):
                names = [n.arg]
            for x in names:
                out.setdefault(x, []).append(n)
    return out


def _declared_global(tree: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            out.update(n.names)
    return out


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}


@dataclass
class Module:
    """One firmware module as the pass sees it: its import name, its tree, its constants."""

    name: str
    tree: ast.Module
    consts: dict = field(default_factory=dict)  # NAME -> value, for the constants it defines
    dropped_aliases: set = field(default_factory=set)  # id() of the import aliases folded away


def _collect(modules: dict[str, Module], rebound: set[str]) -> None:
    """Each module's constants, to a fixed point (a constant may be made of imported ones)."""
    changed = True
    while changed:
        changed = False
        for mod in modules.values():
            binds = _bindings(mod.tree)
            glob = _declared_global(mod.tree)
            env = dict(mod.consts)
            parent = _parents(mod.tree)
            for name, nodes in binds.items():
                if len(nodes) == 1 and isinstance(nodes[0], ast.alias) and name not in glob:
                    imp = parent[id(nodes[0])]
                    if isinstance(imp, ast.ImportFrom) and imp.level == 0 and imp.module in modules:
                        src = modules[imp.module]
                        if nodes[0].name in src.consts and name not in mod.consts:
                            # read as mod.NAME, or imported from mod, it folds too
                            mod.consts[name] = env[name] = src.consts[nodes[0].name]
                            changed = True
            for stmt in mod.tree.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                    continue
                t = stmt.targets[0]
                if not isinstance(t, ast.Name) or not CONST_NAME.match(t.id) or t.id in mod.consts:
                    continue
                if len(binds.get(t.id, ())) != 1 or t.id in glob or t.id in rebound:
                    continue
                try:
                    v = _value(stmt.value, env)
                except _NotConst:
                    continue
                if _small(v):
                    mod.consts[t.id] = env[t.id] = v
                    changed = True


class _Folder(ast.NodeTransformer):
    """Replaces the reads of constants in one module, scope by scope."""

    def __init__(self, mod: Module, modules: dict[str, Module]):
        self.mod = mod
        self.modules = modules
        self.glob = _declared_global(mod.tree)
        self.parent = _parents(mod.tree)
        self.scopes: list[dict] = []  # {name: ("value", v) | ("module", name) | None (opaque)}

    def _table(self, scope: ast.AST) -> dict:
        table: dict = {}
        for name, nodes in _bindings(scope).items():
            entry = None
            if name not in self.glob and len(nodes) == 1:
                n = nodes[0]
                if isinstance(n, ast.alias):
                    entry = self._imported(n)
                elif isinstance(scope, ast.Module) and name in self.mod.consts:
                    entry = ("value", self.mod.consts[name])
            table[name] = entry
        return table

    def _imported(self, alias: ast.alias):
        imp = self.parent[id(alias)]
        if not isinstance(imp, ast.ImportFrom) or imp.level != 0 or not imp.module:
            return None
        src = self.modules.get(imp.module)
        if src is not None and alias.name in src.consts:
            self.mod.dropped_aliases.add(id(alias))
            return ("value", src.consts[alias.name])
        if f"{imp.module}.{alias.name}" in self.modules:
            return ("module", f"{imp.module}.{alias.name}")
        return None

    def _lookup(self, name: str):
        for i in range(len(self.scopes) - 1, -1, -1):
            table = self.scopes[i]
            if "<class>" in table and i != len(self.scopes) - 1:
                continue  # a class body's names are not seen by the functions inside it
            if name in table:
                return table[name]
        return None

    def _enter(self, scope, visit_body):
        table = self._table(scope)
        if isinstance(scope, ast.ClassDef):
            table["<class>"] = None
        self.scopes.append(table)
        try:
            visit_body()
        finally:
            self.scopes.pop()
        return scope

    def visit_Module(self, node):
        return self._enter(node, lambda: self.generic_visit(node))

    def visit_FunctionDef(self, node):
        # decorators and defaults are read in the enclosing scope, the body in its own
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        self.visit(node.args)

        def body():
            node.body = [self.visit(s) for s in node.body]

        return self._enter(node, body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arguments(self, node):
        node.defaults = [self.visit(d) for d in node.defaults]
        node.kw_defaults = [None if d is None else self.visit(d) for d in node.kw_defaults]
        return node

    def visit_Lambda(self, node):
        self.visit(node.args)

        def body():
            node.body = self.visit(node.body)

        return self._enter(node, body)

    def visit_ClassDef(self, node):
        node.bases = [self.visit(b) for b in node.bases]
        node.decorator_list = [self.visit(d) for d in node.decorator_list]

        def body():
            node.body = [self.visit(s) for s in node.body]

        return self._enter(node, body)

    def _comprehension(self, node):
        return self._enter(node, lambda: self.generic_visit(node))

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            e = self._lookup(node.id)
            if e is not None and e[0] == "value":
                return ast.copy_location(_literal(e[1]), node)
        return node

    def visit_Attribute(self, node):
        if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
            e = self._lookup(node.value.id)
            if e is not None and e[0] == "module" and node.attr in self.modules[e[1]].consts:
                return ast.copy_location(_literal(self.modules[e[1]].consts[node.attr]), node)
        self.generic_visit(node)
        return node


def _prune(tree: ast.AST, drop) -> None:
    """Removes the statements drop(stmt) says to, in every body; an emptied body gets a pass."""
    for n in ast.walk(tree):
        for attr in ("body", "orelse", "finalbody"):
            body = getattr(n, attr, None)
            if not isinstance(body, list) or not body or not isinstance(body[0], ast.stmt):
                continue
            kept = [s for s in body if not drop(s)]
            if len(kept) != len(body):
                setattr(n, attr, kept or [ast.Pass()])


def fold(
    sources: dict[str, str], entries: dict[str, str] | None = None, *, keep_definitions: bool = False
) -> dict[str, str]:
    """{module name: source} -> {module name: folded source}.

    entries: the sources that stay source on the board (boot.py, main.py), by file name: every
    name they mention keeps its definition.  keep_definitions: every constant keeps its
    definition (for host code that imports the folded firmware by name: the tests)."""
    modules = {name: Module(name, ast.parse(src)) for name, src in sources.items()}
    rebound = set()  # NAME assigned as an attribute anywhere (mod.NAME = ...): never folded
    for mod in modules.values():
        for n in ast.walk(mod.tree):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del)):
                rebound.add(n.attr)
    _collect(modules, rebound)
    for mod in modules.values():
        _Folder(mod, modules).visit(mod.tree)
    # What still reads a constant by name once the reads are folded: it keeps its definition.
    read = set()
    for mod in modules.values():
        for n in ast.walk(mod.tree):
            if isinstance(n, ast.Attribute):
                read.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) and CONST_NAME.match(n.value):
                read.add(n.value)
    for src in (entries or {}).values():
        read.update(re.findall(r"\b[A-Z][A-Z0-9_]*\b", src))
    # An import stays when it is not folded, or when its module passes the name on (another
    # module still reads it from there); what it imports is then read in turn.
    mod_level = {}
    for mod in modules.values():
        for n in _walk_scope(mod.tree):
            if isinstance(n, ast.alias):
                mod_level[id(n)] = mod
    aliases = [(mod, a) for mod in modules.values() for a in ast.walk(mod.tree) if isinstance(a, ast.alias)]
    kept_alias: set[int] = set()
    while True:
        more = False
        for mod, a in aliases:
            if id(a) in kept_alias:
                continue
            passed_on = id(a) in mod_level and (keep_definitions or (a.asname or a.name) in read)
            if id(a) not in mod.dropped_aliases or passed_on:
                kept_alias.add(id(a))
                if a.name not in read:
                    read.add(a.name)
                    more = True
        if not more:
            break
    out = {}
    for name, mod in modules.items():

        def drop_import(s, mod=mod):
            if isinstance(s, ast.ImportFrom):
                s.names = [a for a in s.names if id(a) in kept_alias]
                return not s.names
            return False

        _prune(mod.tree, drop_import)
        own_reads = {
            n.id for n in ast.walk(mod.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }

        def drop_def(s, mod=mod, own_reads=own_reads):
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                t = s.targets[0].id
                return t in mod.consts and t not in read and t not in own_reads and not keep_definitions
            return False

        mod.tree.body = [s for s in mod.tree.body if not drop_def(s)] or [ast.Pass()]
        out[name] = ast.unparse(ast.fix_missing_locations(mod.tree)) + "\n"
    return out
