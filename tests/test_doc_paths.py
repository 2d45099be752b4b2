"""Docs that tell the truth: every repository path named in the docs, docstrings and comments exists,
and nothing in the product refers to anything outside the repository."""

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPS = ("firmware", "host_tools", "tests", "docs", "hardware", "mk", ".ci")
# a path: one of the top folders, then name characters (a trailing . or , ends the sentence)
PATH = re.compile(r"(?<![\w./~-])((?:%s)/[\w./*-]*[\w*/])" % "|".join(re.escape(t) for t in TOPS))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")  # a Markdown link's target
# ../shared/pico alone may be named: the emulated Pico that `make pico` runs where it exists (beside
# the repository in CI), skipped with one line elsewhere (host_tools/pico/emulator.py).
OUTSIDE = re.compile(r"\.\./shared(?!/pico)|\bshared/RULES|HELPERS_CONTEXT|/work/|(?<![\w.])\.\./\.\./")


def _prose_of_python(text):
    """The docstrings and comments of a Python file: what it tells a reader (not its data)."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append(doc)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out.append(tok.string)
    return "\n".join(out)


def _texts(prose=True):
    """(file, text) of everything that points a reader somewhere: the docs, the build files,
    and the docstrings and comments of the source (prose=False: the whole source)."""
    for pattern in ("*.md", "docs/*.md", "hardware/*.md", "tests/*/README.md", "host_tools/*/README.md"):
        for p in sorted(ROOT.glob(pattern)):
            yield p, p.read_text(encoding="utf-8")
    for name in ("Makefile", ".ci/run", "pyproject.toml"):
        yield ROOT / name, (ROOT / name).read_text(encoding="utf-8")
    for p in sorted(ROOT.glob("mk/*.mk")):
        yield p, p.read_text(encoding="utf-8")
    for top in ("firmware", "host_tools", "tests"):
        for p in sorted((ROOT / top).rglob("*.py")):
            if "node_modules" not in p.parts:
                text = p.read_text(encoding="utf-8")
                yield p, _prose_of_python(text) if prose else text
    for name in ("main.py", "boot.py"):
        text = (ROOT / name).read_text(encoding="utf-8")
        yield ROOT / name, _prose_of_python(text) if prose else text


def _exists(path):
    path = path.rstrip("/")
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


# made by the tools, not tracked: a fresh clone has them only after `make setup` / a run
GENERATED_AT_RUN_TIME = ("tests/golden/", "docs/screenshots/", "host_tools/mpwasm/node_modules")


def test_every_repository_path_named_in_docs_and_source_exists():
    missing = []
    for f, text in _texts():
        rel = f.relative_to(ROOT).as_posix()
        for m in PATH.finditer(text):
            p = m.group(1)
            if (
                "<" in p
                or "{" in p
                or p.endswith(".tmp")
                or p.startswith(GENERATED_AT_RUN_TIME)
                and "*" not in p
            ):
                continue
            if not _exists(p):
                missing.append("%s: %s" % (rel, p))
        if f.suffix == ".md":
            for m in LINK.finditer(text):
                target = m.group(1)
                if ":" in target:  # http:, https:, mailto:
                    continue
                dest = (f.parent / target).resolve()
                if not dest.exists() or ROOT.resolve() not in (dest, *dest.parents):
                    missing.append("%s: link to %s" % (rel, target))
    assert not missing, "\n".join(missing)


def test_nothing_refers_outside_the_repository():
    bad = []
    for f, text in _texts(prose=False):
        if f == Path(__file__):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append("%s:%d: %s" % (f.relative_to(ROOT).as_posix(), i, line.strip()))
    assert not bad, "\n".join(bad)


def _how_it_is_built(readme):
    """The README's "How it is built" tree as {entry path: its text}: 'firmware/gin/' -> 'the rules core: ...'.

    An entry is a line that starts with names (``gin/``, ``app.py``, ``savegame.py, prefs.py``)
    at some indent; deeper-indented lines without a name continue it; an entry indented under a
    folder belongs to that folder.
    """
    block = readme.split("## How it is built", 1)[1].split("```", 2)[1]
    out = {}
    parents = []  # (indent, folder)
    last = None
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        m = re.match(r"((?:[\w.]+/?(?:, )?)+)(?:\s{2,}|$)(.*)", line.strip())
        if last is not None and (m is None or indent > last[0] + 2 or indent >= 15):
            out[last[1]] += " " + line.strip()
            continue
        while parents and parents[-1][0] >= indent:
            parents.pop()
        base = parents[-1][1] if parents else ""
        names = [n for n in m.group(1).split(", ") if n]
        for n in names:
            out[base + n] = m.group(2)
        if len(names) == 1 and names[0].endswith("/"):
            parents.append((indent, base + names[0]))
        last = (indent, base + names[-1])
    return out


def test_the_readmes_how_it_is_built_matches_the_tree():
    """Every entry exists; every top folder, firmware package, host_tools package and tests/mp is
    an entry; and each firmware package's entry names each of its modules."""
    tree = _how_it_is_built((ROOT / "README.md").read_text(encoding="utf-8"))
    problems = ["named but not in the tree: " + p for p in tree if not (ROOT / p).exists()]
    folders = [p.name + "/" for p in ROOT.iterdir() if p.is_dir() and p.name in TOPS]
    folders += [
        "firmware/%s/" % p.name for p in (ROOT / "firmware").iterdir() if (p / "__init__.py").exists()
    ]
    folders += ["host_tools/%s/" % p.parent.name for p in (ROOT / "host_tools").glob("*/__init__.py")]
    folders += ["tests/mp/"]
    problems += ["not in How it is built: " + f for f in sorted(folders) if f not in tree]
    for pkg in sorted((ROOT / "firmware").glob("*/__init__.py")):
        text = tree.get("firmware/%s/" % pkg.parent.name, "")
        words = set(re.findall(r"\w+", text.replace(".py", "")))
        for mod in sorted(pkg.parent.glob("*.py")):
            if mod.stem != "__init__" and mod.stem not in words:
                problems.append("firmware/%s/: %s.py not named" % (pkg.parent.name, mod.stem))
    for mod in sorted((ROOT / "firmware").glob("*.py")):
        if "firmware/" + mod.name not in tree:
            problems.append("not in How it is built: firmware/" + mod.name)
    assert not problems, "\n".join(problems)
