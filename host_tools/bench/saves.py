"""Save sizes, load times and flash wear: the numbers behind docs/SAVES.md.

    python -m host_tools.bench.saves             # everything (about a minute)
    python -m host_tools.bench.saves --matches 8 --no-wear

Sections:
1. Sizes: every save of computer-vs-computer matches (hard against easy,
   normal and hard) under four rule sets, encoded as the app saves them after
   each action.  Typical = median.  Plus a pathological case built on purpose:
   a legal 99-turn hand (both players taking from the pile over and over) in
   the 41st hand of an undecided Hollywood match.
2. Times: loading (read, check, decode, rebuild the match by replaying the
   live hand, check its invariants) and saving (encode, write, two renames)
   on CPython and under the MicroPython WebAssembly port (a Pico is ~25x slower).
3. Flash wear, when littlefs-python is installed: the real littlefs C code on
   a model of the Pico's flash (352 blocks of 4 KB, progsize 256, readsize 32,
   lookahead 32, cache 1024, block_cycles 100: MicroPython's rp2 settings)
   holding this firmware, counting every erase while games are saved.
"""

from __future__ import annotations

import argparse
import binascii
import os
import statistics
import sys
import time

import savegame as sg
from device.storage import FileStorage, MemFS
from gin import ai
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import DRAW, DRAW_STOCK, PASS, TAKE_DISCARD
from gin.rules import RuleSet

from host_tools import FIRMWARE, ROOT
from host_tools.bench.soak_saves import RULE_MIX, STATS_RECORD

PICO_FACTOR = 25  # the wasm port runs about 25x faster than an RP2040
FLASH_BLOCKS = 352  # 1408 KB of the Pico's 2 MB flash is the file system
BLOCK = 4096
ERASE_CYCLES = 100_000


# --- games ------------------------------------------------------------------------------


def played(rules: RuleSet, seed: int, level: str, on_save) -> Match:
    m = Match(rules, seed)
    players = [ai.make_player("hard", seed), ai.make_player(level, seed + 1)]
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        else:
            p = m.round.player
            m.apply(players[p].choose(m.observation(p)))
        on_save(m)
    return m


def pathological() -> Match:
    """A legal 99-turn live hand after 40 finished hands of an undecided Hollywood match."""
    rules = RuleSet(hollywood=True)
    summaries = [(0, i % 2, 4, i % 2) for i in range(40)]  # 20 small wins each: no game closes
    m = Match.restore(rules, 99, summaries, b"")
    r = m.round
    m.apply(PASS)
    m.apply(PASS)
    m.apply(DRAW_STOCK)
    while r.turns < 99 or r.phase != DRAW:
        if r.phase == DRAW:
            m.apply(TAKE_DISCARD)
        else:
            legal = [a for a in r.legal_actions() if a < 52 and a != r.taken]
            m.apply(legal[-1])
    return m


def sizes_section(matches: int) -> dict:
    out: dict = {
        "rules": {},
        "all": [],
        "hands": 0,
        "per_hand": [],
        "per_match": [],
        "max_hands": 0,
        "records": {},
    }
    biggest = (0, b"")
    first: list[bytes] = []
    for k in range(matches):
        name, rules = RULE_MIX[k % len(RULE_MIX)]
        level = ai.LEVELS[k % 3]
        sizes: list[int] = []
        hand = [0]
        per_hand: list[int] = []

        def on_save(m, sizes=sizes, hand=hand, per_hand=per_hand):
            nonlocal biggest
            rec = sg.encode_game(sg.snapshot_of(m))
            if not out["per_match"]:
                first.append(rec)
            sizes.append(len(rec))
            hand[0] += len(rec)
            if len(rec) > biggest[0]:
                biggest = (len(rec), rec)
            if m.state != 0:  # the hand just ended
                per_hand.append(hand[0])
                hand[0] = 0

        m = played(rules, 2000 + k, level, on_save)
        out["rules"].setdefault(name, []).extend(sizes)
        out["all"].extend(sizes)
        out["hands"] += len(m.summaries)
        out["per_hand"].extend(per_hand)
        out["per_match"].append(sum(sizes))
        out["max_hands"] = max(out["max_hands"], len(m.summaries))
        if k == 0:
            out["records"]["typical"] = sorted(first, key=len)[len(first) // 2]  # a median-size save
    out["records"]["largest seen"] = biggest[1]
    out["records"]["pathological"] = sg.encode_game(sg.snapshot_of(pathological()))
    return out


# --- times --------------------------------------------------------------------------------

_MP_TIMING = """
import time, binascii
import savegame as sg
from device.storage import FileStorage, MemFS
RECS = %r
n = %d
# The wasm port's clock ticks in whole milliseconds: time batches of n calls, keep the best batch.
for name, hexrec in RECS:
    rec = binascii.unhexlify(hexrec)
    load = save = 10 ** 9
    for rep in range(5):
        mgrs = [sg.SaveManager(FileStorage("", MemFS({"game.sav": rec}))) for i in range(n)]
        t0 = time.ticks_us()
        for mgr in mgrs:
            snap, msg = mgr.load_game()
        load = min(load, time.ticks_diff(time.ticks_us(), t0))
        assert snap is not None and msg is None, msg
        snap2 = sg.snapshot_of(snap["match"])
        t0 = time.ticks_us()
        for mgr in mgrs:
            mgr.save_game(snap2)
        save = min(save, time.ticks_diff(time.ticks_us(), t0))
    print("%%s %%d %%d" %% (name, load, save))
"""


def cpython_times(records: dict[str, bytes], n: int = 200) -> dict[str, tuple[float, float]]:
    out = {}
    for name, rec in records.items():
        best = float("inf")
        for _ in range(n):
            t0 = time.perf_counter()
            snap, msg = sg.SaveManager(FileStorage("", MemFS({"game.sav": rec}))).load_game()
            best = min(best, time.perf_counter() - t0)
            assert snap is not None and msg is None
        snap2 = sg.snapshot_of(snap["match"])
        sbest = float("inf")
        for _ in range(n):
            mgr = sg.SaveManager(FileStorage("", MemFS({"game.sav": rec})))
            t0 = time.perf_counter()
            mgr.save_game(snap2)
            sbest = min(sbest, time.perf_counter() - t0)
        out[name] = (best * 1e3, sbest * 1e3)
    return out


def micropython_times(records: dict[str, bytes], n: int = 40) -> dict[str, tuple[float, float]] | str:
    try:
        from host_tools.micropython.runner import MicroPythonError, run
    except ImportError as e:  # pragma: no cover
        return "runner missing: %s" % e
    recs = [(name, binascii.hexlify(rec).decode()) for name, rec in records.items()]
    try:
        text = run(_MP_TIMING % (recs, n))
    except MicroPythonError as e:
        return "MicroPython failed: %s" % str(e).splitlines()[-1]
    out = {}
    for line in text.splitlines():
        name, load, save = line.rsplit(" ", 2)
        out[name] = (int(load) / 1000 / n, int(save) / 1000 / n)
    return out


# --- flash wear ---------------------------------------------------------------------------------


class _LfsFS:
    """The FileStorage interface over littlefs-python."""

    def __init__(self, lfs):
        self.lfs = lfs

    def read(self, path):
        try:
            with self.lfs.open(path, "rb") as f:
                return f.read()
        except Exception as e:
            raise OSError(2, str(e)) from None

    def write(self, path, data):
        with self.lfs.open(path, "wb") as f:
            f.write(data)

    def rename(self, old, new):
        try:
            self.lfs.rename(old, new)
        except Exception as e:
            raise OSError(2, str(e)) from None

    def remove(self, path):
        try:
            self.lfs.remove(path)
        except Exception as e:
            raise OSError(2, str(e)) from None

    def exists(self, path):
        try:
            self.lfs.stat(path)
        except Exception:
            return False
        return True

    def mkdir(self, path):
        pass


def wear_section(matches: int) -> dict | str:
    try:
        from littlefs import LittleFS, UserContext
    except ImportError:
        return "littlefs-python not installed (pip install littlefs-python): wear not simulated"

    class Counting(UserContext):
        def __init__(self):
            super().__init__(buffsize=BLOCK * FLASH_BLOCKS)
            self.erases = [0] * FLASH_BLOCKS
            self.progs = 0

        def prog(self, cfg, block, off, data):
            self.progs += len(data)
            return super().prog(cfg, block, off, data)

        def erase(self, cfg, block):
            self.erases[block] += 1
            return super().erase(cfg, block)

    ctx = Counting()
    lfs = LittleFS(
        ctx, block_size=BLOCK, block_count=FLASH_BLOCKS, read_size=32, prog_size=256,
        cache_size=1024, lookahead_size=32, block_cycles=100,
    )  # fmt: skip
    # the device's flash holds the firmware: boot.py, main.py and firmware/ at the root
    root = ROOT
    for top in ("boot.py", "main.py"):
        if (root / top).exists():
            with lfs.open("/" + top, "wb") as f:
                f.write((root / top).read_bytes())
    fw = FIRMWARE
    for dirpath, dirnames, files in os.walk(fw):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        rel = os.path.relpath(dirpath, fw)
        if rel != ".":
            lfs.mkdir("/" + rel)
        for f in files:
            if f.endswith(".py"):
                dst = "/" + (f if rel == "." else rel + "/" + f)
                with lfs.open(dst, "wb") as out, open(os.path.join(dirpath, f), "rb") as src:
                    out.write(src.read())
    used = lfs.used_block_count
    erases0 = list(ctx.erases)
    progs0 = ctx.progs
    mgr = sg.SaveManager(FileStorage("/", _LfsFS(lfs)))
    saves = 0
    from prefs import Stats

    stats = Stats()
    for k in range(matches):
        rules = RuleSet()

        def on_save(m):
            nonlocal saves
            if mgr.save_game(sg.snapshot_of(m)):
                saves += 1
            if m.state != 0:
                stats.record_hand(1, m.summaries[-1])
                mgr.save_stats(stats)  # as the app does after each hand against the computer

        played(rules, 3000 + k, "normal", on_save)
        mgr.clear_game()
    erases = [a - b for a, b in zip(ctx.erases, erases0, strict=True)]
    return {
        "matches": matches,
        "saves": saves,
        "used_blocks": used,
        "free_blocks": FLASH_BLOCKS - used,
        "erases": sum(erases),
        "erases_per_save": sum(erases) / saves,
        "prog_per_save": (ctx.progs - progs0) / saves,
        "max_block": max(erases),
        "mean_free_block": sum(erases) / (FLASH_BLOCKS - used),
        "superblock": max(erases[0], erases[1]),
    }


# --- report ------------------------------------------------------------------------------------


def years(saves_per_day: float, erases_per_save: float, blocks: int) -> float:
    return blocks * ERASE_CYCLES / (erases_per_save * saves_per_day) / 365


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.bench.saves", description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=24, help="matches for the size statistics")
    ap.add_argument("--wear-matches", type=int, default=20)
    ap.add_argument("--no-wear", action="store_true")
    ap.add_argument("--no-micropython", action="store_true")
    ns = ap.parse_args(argv)

    sz = sizes_section(ns.matches)
    allsz = sz["all"]
    print(
        "Save sizes (bytes per save, %d saves in %d matches, %d hands)"
        % (len(allsz), ns.matches, sz["hands"])
    )
    print("%-18s %7s %7s %7s %7s" % ("rules", "median", "mean", "p99", "max"))
    for name, s in list(sz["rules"].items()) + [("all", allsz)]:
        q = sorted(s)
        print(
            "%-18s %7d %7.1f %7d %7d"
            % (name, statistics.median(q), statistics.mean(q), q[int(len(q) * 0.99)], q[-1])
        )
    print(
        "pathological (99-turn hand, 41st hand of Hollywood): %d bytes" % len(sz["records"]["pathological"])
    )
    per_match_saves = len(allsz) / ns.matches
    print(
        "saves per hand %.1f, per match %.0f; game-save bytes per hand %.0f, per match %.0f; most hands in a match %d"
        % (
            len(allsz) / sz["hands"],
            per_match_saves,
            statistics.mean(sz["per_hand"]),
            statistics.mean(sz["per_match"]),
            sz["max_hands"],
        )
    )
    print("(against the computer each hand also rewrites the %d-byte stats file)" % STATS_RECORD)
    print()

    recs = sz["records"]
    cp = cpython_times(recs)
    mp = None if ns.no_micropython else micropython_times(recs)
    print("Load (read+check+decode+replay) and save (encode+write+renames), ms")
    print(
        "%-14s %6s %8s %8s %9s %9s %9s"
        % ("save", "bytes", "CPy load", "CPy save", "wasm load", "wasm save", "Pico load")
    )
    for name, rec in recs.items():
        c = cp[name]
        if isinstance(mp, dict):
            w = mp[name]
            print(
                "%-14s %6d %8.3f %8.3f %9.2f %9.2f %9.0f"
                % (name, len(rec), c[0], c[1], w[0], w[1], w[0] * PICO_FACTOR)
            )
        else:
            print("%-14s %6d %8.3f %8.3f" % (name, len(rec), c[0], c[1]))
    if isinstance(mp, str):
        print(mp)
    print(
        "(CPython: best of 200; wasm: mean of the best of 5 batches of 40; Pico: wasm x %d, an estimate)"
        % PICO_FACTOR
    )
    print()

    if not ns.no_wear:
        w = wear_section(ns.wear_matches)
        if isinstance(w, str):
            print(w)
        else:
            print(
                "Flash wear (littlefs model of the Pico, %d classic matches, %d saves, firmware uses %d of %d blocks)"
                % (w["matches"], w["saves"], w["used_blocks"], FLASH_BLOCKS)
            )
            print(
                "erases per save %.3f, flash bytes programmed per save %.0f; erases: busiest block %d,"
                " mean over the free blocks %.1f, superblock %d"
                % (
                    w["erases_per_save"],
                    w["prog_per_save"],
                    w["max_block"],
                    w["mean_free_block"],
                    w["superblock"],
                )
            )
            spm = w["saves"] / w["matches"]
            # littlefs moves a metadata pair after block_cycles (100) erases, so the busiest block
            # tells the long-run rate only once the wear has gone round the free blocks.
            wrapped = w["erases"] > w["free_blocks"] * 100
            for per_day in (3, 10, 30):
                spread = years(per_day * spm, w["erases_per_save"], w["free_blocks"])
                line = "%2d matches a day (%5.0f saves): %5.0f years with the erases spread evenly" % (
                    per_day,
                    per_day * spm,
                    spread,
                )
                if wrapped:
                    busiest = ERASE_CYCLES * w["saves"] / w["max_block"] / (per_day * spm) / 365
                    line += ", %5.0f at the busiest block's rate" % busiest
                print(line)
            if not wrapped:
                print("(run --wear-matches 400 for the busiest block's long-run rate)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
