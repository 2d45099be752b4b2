"""Helpers for holding every implementation of the hardware contract to it (firmware/device/contract.py).

- ``code_reads()``: every attribute name the repository's code reads (``x.name``
  as a value, ``getattr(x, "name")``), in Python, in the Python that the tests
  and benches hand to MicroPython as strings, and in the web page's JavaScript.
  ``contract.extra(hw)`` names what an implementation offers beyond the
  contract; a name nobody reads is dead code.
- ``page_methods()``: the methods of the ``page`` object in gin.mjs, which is
  the web page's side of its hardware (host_tools/web/static/webhw.py calls
  them); ``page_calls()``: the ones webhw.py calls; ``Page``: a stand-in with
  exactly gin.mjs's methods, for building a ``WebHw`` without a browser.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "host_tools" / "web" / "static"


def _sources(suffixes):
    for top in ("firmware", "host_tools", "tests"):
        for p in sorted((ROOT / top).rglob("*")):
            if p.suffix in suffixes and "node_modules" not in p.parts:
                yield p
    if ".py" in suffixes:
        yield ROOT / "main.py"
        yield ROOT / "boot.py"


def _reads_in(tree, out):
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load):
            out.add(n.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr"):
            if len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str):
                out.add(n.args[1].value)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and "\n" in n.value:
            try:  # a program in a string (run under MicroPython by a test or a bench)
                inner = ast.parse(n.value)
            except SyntaxError:
                continue  # prose
            _reads_in(inner, out)


# ``x.name`` not followed by an assignment (``=``, ``+=``, ... but not ``==``)
JS_READ = re.compile(r"\.([A-Za-z_]\w*)\b(?!\s*(?:[-+*/|&]?=(?!=)|\+\+|--))")


@cache
def code_reads() -> frozenset[str]:
    out: set[str] = set()
    for p in _sources({".py"}):
        _reads_in(ast.parse(p.read_text(), str(p)), out)
    for p in _sources({".mjs", ".js"}):
        out.update(JS_READ.findall(p.read_text()))
    return frozenset(out)


def unread(names):
    """Those of ``contract.extra(hw)``'s 'part.name' strings whose name no code reads."""
    reads = code_reads()
    return [e for e in names if e.rsplit(".", 1)[-1] not in reads]


def page_methods(text: str | None = None) -> list[str]:
    """The methods of gin.mjs's ``const page = { ... };`` (``name(...) {`` or the shorthand ``name,``)."""
    if text is None:
        text = (STATIC / "gin.mjs").read_text()
    start = text.index("\nconst page = {\n")
    body = text[start : text.index("\n};\n", start)]
    return sorted(re.findall(r"^  ([A-Za-z_]\w*)(?:\(|,$)", body, re.M))


def page_calls(source: str | None = None) -> list[str]:
    """What webhw.py calls on the page object it keeps as ``._page``."""
    if source is None:
        source = (STATIC / "webhw.py").read_text()
    out = set()
    for n in ast.walk(ast.parse(source)):
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Attribute)
            and n.func.value.attr == "_page"
        ):
            out.add(n.func.attr)
    return sorted(out)


class Page:
    """gin.mjs's page object without a browser: its methods record the calls."""

    def __init__(self):
        self.calls = []


for _name in page_methods():
    setattr(Page, _name, lambda self, *a, _n=_name: self.calls.append((_n, a)))


class Store:
    """window.localStorage's three methods, over a dict."""

    def __init__(self):
        self.items = {}

    def getItem(self, k):  # the browser's names
        return self.items.get(k)

    def setItem(self, k, v):
        self.items[k] = v

    def removeItem(self, k):
        self.items.pop(k, None)
