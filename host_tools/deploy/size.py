"""make size: the deployed bytes, the flash they take, and the RAM the game uses.

The flash part needs no board; with a board attached it adds what the board holds and its heap
after importing every game module; the RAM part runs the deployed .mpy files under the real
MicroPython 1.27 (WebAssembly port, 32-bit objects like the RP2040) on the fake board.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import tempfile
from pathlib import Path

from host_tools.deploy import DEFAULT_BUILD, ROOT, DeployError
from host_tools.deploy.board import Board, program
from host_tools.deploy.closure import import_closure
from host_tools.deploy.commands import blocks_of, survey
from host_tools.deploy.compile import build, compile_mpy, folded_sources
from host_tools.deploy.rp2 import BLOCK, DRIVER, PICO_FS_BYTES, PICO_HEAP_FREE

# The host tests' fake hardware runs the app on the emulated board: no display or pins needed.
FAKE_HW = "host_tools.hw.fake_hw"


def _mem_lines(out: str) -> dict[str, tuple[int, int]]:
    """{label: (alloc, free)}; a label measured several times keeps its smallest reading."""
    res: dict[str, tuple[int, int]] = {}
    for line in out.splitlines():
        m = re.match(r"MEM (\S+) (\d+) (-?\d+)$", line.strip())
        if m:
            v = (int(m.group(2)), int(m.group(3)))
            if m.group(1) not in res or v[0] < res[m.group(1)][0]:
                res[m.group(1)] = v
    return res


def _measure(label: str, times: int = 3) -> list[str]:
    # The collector scans the stack conservatively: a stale word there can keep garbage
    # alive for a collection or two.  The smallest of a few readings is the live heap.
    cmds: list[str] = []
    for _ in range(times):
        cmds += ["exec", program("measure", f"measure({label!r})"), "+"]
    return cmds


def _play_commands(samples: int, step_ms: int) -> list[str]:
    """mpremote exec commands: boot the app on a fake hw, then let it play itself."""
    cmds = _measure("empty")
    cmds += [
        "exec",
        "from fake_hw import FakeHw, Driver\nimport app\nhw = FakeHw()\na = app.App(hw)\nd = Driver(a, hw)\nd.run(500)",
        "+",
    ]
    cmds += _measure("boot")
    cmds += ["exec", "import sys\nprint('MODS', *sorted(sys.modules))", "+"]
    cmds += ["exec", "a.new_game(True)\nd.run(100)", "+"]
    for i in range(samples):
        cmds += ["exec", f"d.run({step_ms})", "+"] + _measure(f"play{i}", 2)
    return cmds[:-1]


def emulated_ram(build_dir: Path, entries: list, samples: int = 30, step_ms: int = 2000) -> dict:
    """RAM of the deployed .mpy set under MicroPython 1.27 (WebAssembly, 32-bit like the RP2040)."""
    from host_tools.micropython.fake_board import FakeBoard  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        shutil.copytree(build_dir, flash)
        fake = Path(importlib.util.find_spec(FAKE_HW).origin).read_text()
        src = Path(tmp) / "fake_hw.py"
        src.write_text(folded_sources(entries, {"fake_hw": fake})["fake_hw"])
        compile_mpy(src, flash / "fake_hw.mpy", "fake_hw.py")
        with FakeBoard(flash_dir=flash) as fake:
            out = Board(fake.url).run(*_play_commands(samples, step_ms))
    mem = _mem_lines(out)
    mods = re.search(r"^MODS (.*)$", out, re.M)
    if "empty" not in mem or "boot" not in mem:
        raise DeployError("the emulated run did not report memory:\n" + out[-2000:])
    play = [v[0] for k, v in mem.items() if k.startswith("play")]
    res: dict = {"empty": mem["empty"][0], "boot": mem["boot"][0]}
    res["boot_modules"] = mods.group(1).split() if mods else []
    if play:
        res["play_peak"] = max(play)
        res["play_last"] = play[-1]
        res["play_samples"] = len(play)
    return res


def board_ram(board: Board, modules: list[str]) -> dict[str, tuple[int, int]]:
    """On the board itself: heap after a soft reset, and after importing the game's modules."""
    imports = "\n".join(f"import {m}" for m in modules)
    out = board.run(*_measure("empty"), "exec", imports, "+", *_measure("imported")[:-1])
    return _mem_lines(out)


def size_report(
    board: Board | None, *, root: Path = ROOT, build_dir: Path = DEFAULT_BUILD, emulate: bool = True
) -> str:
    entries = import_closure(root)
    build(entries, build_dir, quiet=True)
    lines = ["Flash: the deployed files (littlefs stores each in whole 4 KiB blocks, at least one)", ""]
    rows = []
    total = total_src = blocks = 0
    for e in entries:
        n = (build_dir / e.device).stat().st_size
        s = e.source.stat().st_size
        rows.append((n, e.device, s))
        total += n
        total_src += s
        blocks += blocks_of(n)
    width = max(len(r[1]) for r in rows)
    lines.append(f"  {'file':<{width}}  {'bytes':>7}  {'source':>7}")
    for n, dev, s in sorted(rows, reverse=True):
        lines.append(f"  {dev:<{width}}  {n:>7}  {s:>7}")
    dirs = {e.device.rsplit("/", 1)[0] for e in entries if "/" in e.device}
    used = (blocks + 2 * len(dirs)) * BLOCK
    lines += [
        "",
        f"  deployed: {len(entries)} files, {total} bytes ({total_src} bytes of source); "
        f"about {used // 1024} KiB of flash in blocks, of {PICO_FS_BYTES // 1024} KiB on an RP2040 Pico",
        f"  plus the {DRIVER} driver in /lib (a few KiB), the saves and the crash log.",
    ]
    if board is not None:
        s = survey(board)
        on_board = sum(s.sizes.get(e.device, 0) for e in entries)
        lines += [
            "",
            f"On the board ({board.port}, MicroPython {s.version}): our files take {on_board} bytes",
        ]
        kib = s.block_size // 1024
        lines.append(f"  flash: {s.blocks * kib} KiB, {s.free_blocks * kib} KiB free")
        stale = [e.device for e in entries if s.sizes.get(e.device) != (build_dir / e.device).stat().st_size]
        if stale:
            lines.append(
                f"  RAM not measured: {len(stale)} files differ from this build (run `make deploy` first)"
            )
        else:
            mem = board_ram(board, sorted(e.module for e in entries if e.module))
            if "empty" in mem and "imported" in mem:
                a0, f0 = mem["empty"]
                a1, f1 = mem["imported"]
                lines += [
                    f"  RAM after a soft reset: {a0} bytes used, {f0} free",
                    f"  RAM with every game module imported: {a1} bytes used, {f1} free",
                ]
    ram = None
    if emulate:
        from host_tools.micropython.fake_board import FakeBoardError  # noqa: PLC0415

        try:
            ram = emulated_ram(build_dir, entries)
        except FakeBoardError as e:
            lines += ["", f"RAM under MicroPython: not measured ({e})"]
    if ram is not None:
        lines += [
            "",
            "RAM measured under MicroPython 1.27 (WebAssembly port, 32-bit objects like the RP2040),",
            "the deployed .mpy files on host_tools/micropython/fake_board.py, the app on the host tests' fake hw",
            "(so without the ssd1306 driver and its 1 KiB buffer, pins and timers of a real Pico):",
            "",
            f"  interpreter alone:                 {ram['empty']:>7} bytes",
            f"  after boot (title screen):         {ram['boot']:>7} bytes (+{ram['boot'] - ram['empty']})",
        ]
        if "play_peak" in ram:
            lines.append(
                f"  during play (peak of {ram['play_samples']} samples): {ram['play_peak']:>7} bytes "
                f"(+{ram['play_peak'] - ram['empty']})"
            )
        lines.append(
            f"  (live heap, measured between steps; a freshly booted RP2040 Pico has about "
            f"{PICO_HEAP_FREE // 1000} KB free: the game's peak leaves about "
            f"{(PICO_HEAP_FREE - ram.get('play_peak', ram['boot']) + ram['empty']) // 1000} KB)"
        )
    return "\n".join(lines)
