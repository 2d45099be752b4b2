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
OUTSIDE = re.compile(r"\.\./shared|\bshared/RULES|HELPERS_CONTEXT|/work/|(?<![\w.])\.\./\.\./")


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
    for pattern in ("*.md", "docs/*.md", "hardware/*.md", "tests/*/README.md"):
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
