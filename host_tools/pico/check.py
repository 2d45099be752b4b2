"""The Pico check: the deployed files on the emulated Pico, every mode, against the memory budget.

    python -m host_tools.pico            # the full run (make pico): every mode, minutes of play each
    python -m host_tools.pico --quick    # boot, a few presses, link play to the first moves (make test)
    python -m host_tools.pico --only link,expert --minutes 10

Each scenario boots the files `make deploy` copies on the official MicroPython firmware (emulated
RP2040, ../shared/pico), with main.py swapped for host_tools/pico/probe_main.py (compiled), which
runs the real main.py and samples the heap after gc.collect() every second (free bytes and the
largest free block), times the computer's decisions, and can fill the heap to show the crash path.  Buttons are
pressed on a timeline of emulated time.  A scenario fails on a traceback, a MemoryError, a line in
crash.log, a run that never reached its game, or a heap sample under the budget.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from host_tools.deploy.titlecard import title_card as deploy_title_card
from host_tools.pico import emulator as emu

# The budget of issue 21: every sample of every mode, on the stock firmware.
MIN_FREE = 96 * 1024
MIN_BLOCK = 16 * 1024
MAX_BOOT_MS = 450  # boot -> the title menu whole on the glass
MAX_DECISION_MS = 1000
MAX_PRESS_MS = 20

VS_CPU, TWO_PEOPLE, WATCH, LINK = 0, 1, 2, 3  # ui.screens' play modes (the saves keep these numbers)
LEVELS = ("easy", "normal", "hard", "expert")  # gin/levels.py
BLOCK = 16  # bytes in a MicroPython heap block (mem_info's "max free sz" counts blocks)


def settings_record(mode: int, level: int = 1) -> bytes:
    """settings.sav as the firmware writes it, with this play mode and computer level."""
    from device.storage import FileStorage, MemFS
    from prefs import DEFAULT_SETTINGS
    from savegame import SETTINGS_FILE, SaveManager

    fs = MemFS()
    s = dict(DEFAULT_SETTINGS)
    s["mode"], s["level"] = mode, level
    SaveManager(FileStorage("", fs)).save_settings(s)
    return fs.files[SETTINGS_FILE]


def game_record(mode: int, level: int, seed: int = 2021, moves: int = 24) -> bytes:
    """game.sav as the firmware writes it: a match of this mode and level, ``moves`` actions into
    its first hand (each the first legal one), as a power cut mid-hand leaves it."""
    from device.storage import FileStorage, MemFS
    from gin.match import PLAYING, Match
    from gin.rules import RuleSet
    from savegame import GAME_FILE, SaveManager, snapshot_of

    m = Match(RuleSet(), seed)
    for _ in range(moves):
        acts = m.legal_actions()
        if m.state != PLAYING or not acts:
            break
        m.apply(acts[0])
    fs = MemFS()
    SaveManager(FileStorage("", fs)).save_game(snapshot_of(m, mode, level))
    return fs.files[GAME_FILE]


def title_card(settings: bytes) -> bytes:
    """title.card as the app keeps it once it has drawn its title on a flash holding these
    settings: what the next boot shows before the app is loaded (firmware/ui/titlecard.py)."""
    from savegame import SETTINGS_FILE

    return deploy_title_card({SETTINGS_FILE: settings})


# --- button timelines (emulated ms since power-on) ----------------------------------------------


def blind_play(start: int, until: int, step: int = 600, first: str = "DRAW") -> list[str]:
    """DRAW, DISCARD, RIGHT, again and again: always legal or refused, so hands get played to the
    end (DRAW draws, or passes the upcard; DISCARD throws the cursor card, or takes the pile's top
    card; both move past a result).  RIGHT moves the cursor: without it, a card just taken from
    the pile stays under the cursor, its discard is refused for good, and play stops there."""
    out = [f"{start} {first} tap"]
    t = start + step
    keys = ("DRAW", "DISCARD", "RIGHT")
    i = 0
    while t < until:
        out.append(f"{t} {keys[i % 3]} tap")
        i += 1
        t += step
    return out


def cursor_timeline(until: int) -> list[str]:
    """A new game, then the cursor five cards right and five back, every 350 ms: it moves at any
    turn, so every press changes the glass and press -> glass times the cursor alone."""
    out = ["1500 DRAW tap"]
    t = 5000
    i = 0
    while t < until:
        out.append(f"{t} {'RIGHT' if i % 10 < 5 else 'LEFT'} tap")
        i += 1
        t += 350
    return out


def menus_timeline() -> list[str]:
    """Every page the title reaches, then a game's pause menu and score sheet."""
    t = 1500
    out = []

    def tap(key, gap=500):
        nonlocal t
        out.append(f"{t} {key} tap")
        t += gap

    # title rows: New game, Play, CPU, Rules, Stats, Settings, How to play, Demo
    for row in (3, 4, 5, 6):  # Rules, Stats, Settings, How to play: open, look, page, back
        for _ in range(row):
            tap("DOWN")
        tap("DRAW", 800)
        for _ in range(3):
            tap("DOWN")
        tap("RIGHT")
        tap("MENU", 800)
        for _ in range(row):
            tap("UP")
    tap("DRAW", 2500)  # New game
    tap("MENU", 800)  # the pause menu
    for _ in range(4):
        tap("DOWN")
        tap("DRAW", 800)  # open each entry, then back
        tap("MENU", 800)
    tap("MENU", 800)
    out += blind_play(t, t + 20000)
    return out


@dataclass
class Scenario:
    name: str
    ms: int  # emulated run time
    mode: int = VS_CPU
    level: int = 1
    buttons: list[str] = field(default_factory=list)
    fill_heap: bool = False  # the probe fills the heap and raises: the crash path must still work
    probe: bool = True  # False: main.py as deployed (boot timing), no heap samples
    link_faults: list[str] | None = None  # for a link run: run_link.mjs's fault options
    link: bool = False
    resume: bool = False  # boot with a match saved mid-hand (game_record): the start after a power cut
    # boot with the title the app kept last time (title_card) for settings of the player's own;
    # without, the flash is as make deploy leaves a blank board (the card it draws included)
    kept_title: bool = False
    blank: bool = False  # no settings file: the flash as make deploy leaves a blank board


def scenarios(quick: bool, minutes: float) -> list[Scenario]:
    play_ms = int(minutes * 60000)
    if quick:
        return [
            Scenario("boot", 3000, probe=False, blank=True),
            Scenario("boot-kept", 3000, probe=False, kept_title=True),
            Scenario("hard", 20000, level=2, buttons=blind_play(1500, 20000)),
            Scenario("crash", 14000, buttons=blind_play(1500, 4000), fill_heap=True),
            Scenario("link", 45000, LINK, link=True),
        ]
    out = [
        Scenario("boot", 3000, probe=False, blank=True),
        Scenario("boot-kept", 3000, probe=False, kept_title=True),
    ]
    quarter = max(play_ms // 4, 60000)
    for i, lv in enumerate(LEVELS):
        ms = play_ms if lv == "expert" else quarter
        out.append(Scenario(lv, ms, level=i, buttons=blind_play(1500, ms)))
    out += [
        Scenario("watch", play_ms, WATCH, 2, buttons=["1500 DRAW tap"]),
        Scenario("pass", 120000, TWO_PEOPLE, buttons=blind_play(1500, 120000, 500)),
        Scenario("menus", 90000, buttons=menus_timeline()),
        # the cursor along the hand and back, again and again: press -> glass of cursor moves
        Scenario("cursor", 30000, level=0, buttons=cursor_timeline(30000)),
        Scenario("demo", 150000, buttons=[]),  # the demo starts after a minute on the title
        # switched off mid-hand, on again: the game resumes at the table (and plays on)
        Scenario("resume", quarter, level=2, buttons=blind_play(1500, quarter), resume=True),
        Scenario("crash", 14000, buttons=blind_play(1500, 4000), fill_heap=True),
        Scenario("link", play_ms, LINK, link=True),
        Scenario("link-faults", 180000, LINK, link=True, link_faults=["--drop", "0.01", "--corrupt", "0.01"]),
        Scenario("link-cut", 120000, LINK, link=True, link_faults=["--cable-cut", "40000-52000"]),
        Scenario("link-power-a", 120000, LINK, link=True, link_faults=["--power-cut", "A@45000+1500"]),
        Scenario("link-power-b", 120000, LINK, link=True, link_faults=["--power-cut", "B@50000+1500"]),
    ]
    return out


def link_timelines(ms: int) -> tuple[str, str]:
    """A connects, B connects and accepts A's rules, then both play blind."""
    a = ["1500 DRAW tap"] + blind_play(9000, ms, 800)
    b = ["3000 DRAW tap", "6500 DRAW tap"] + blind_play(9400, ms, 800)
    return "\n".join(a) + "\n", "\n".join(b) + "\n"


# --- reading a run --------------------------------------------------------------------------------

_SAMPLE = re.compile(r"^PROBE (?:heap|loop) (\d+) (\d+)\s*$")
_MAXFREE = re.compile(r"max free sz: (\d+)")
_DECIDE = re.compile(r"^PROBE decide (\d+) (\d+)\s*$")


@dataclass
class Figures:
    name: str
    samples: list[tuple[int, int, int]] = field(default_factory=list)  # (ms, free, largest block)
    decisions: list[int] = field(default_factory=list)
    presses: list[float] = field(default_factory=list)  # press -> the glass changes, ms
    probed: int = 0  # presses not timed: the probe sampled the heap before their frame
    boot_ms: float | None = None
    problems: list[str] = field(default_factory=list)
    crash_log: str = ""
    reboots: int = 0

    def min_free(self) -> int | None:
        return min(s[1] for s in self.samples) if self.samples else None

    def min_block(self) -> int | None:
        return min(s[2] for s in self.samples) if self.samples else None


def read_run(name: str, run: emu.Run, press_times: list[int]) -> Figures:
    f = Figures(name, reboots=run.reboots)
    pending = None
    for line in run.serial.splitlines():
        line = re.sub(r"^[AB]?\s*[\d.]*\|\s?", "", line) if "|" in line[:14] else line
        m = _SAMPLE.match(line)
        if m:
            pending = (int(m.group(1)), int(m.group(2)))
            continue
        m = _MAXFREE.search(line)
        if m and pending is not None:
            f.samples.append((pending[0], pending[1], int(m.group(1)) * BLOCK))
            pending = None
            continue
        m = _DECIDE.match(line)
        if m:
            f.decisions.append(int(m.group(2)))
        if "Traceback" in line or "MemoryError" in line:
            f.problems.append("serial: " + line.strip())
    log = run.file("crash.log")
    if log:
        f.crash_log = log.decode("utf-8", "replace")
    frames = [fr for fr in run.frames if fr.get("on")]
    lit = [fr for fr in frames if fr.get("lit")]
    if lit:
        first_press = press_times[0] if press_times else None
        before = [fr["tMs"] for fr in lit if first_press is None or fr["tMs"] < first_press]
        f.boot_ms = max(before) if before else None  # the title, whole: its last change before a press
    times = [fr["tMs"] for fr in frames]
    sampled = [s[0] for s in f.samples]
    for t in press_times:
        after = [x for x in times if x > t]
        if not after:
            continue
        if any(t <= s <= after[0] for s in sampled):
            # the probe's own sample (a collection, mem_info over the serial port) came between
            # the press and the glass: that's the instrument's time, not the game's
            f.probed += 1
            continue
        f.presses.append(after[0] - t)
    return f


def press_times(buttons: list[str] | str) -> list[int]:
    lines = buttons.splitlines() if isinstance(buttons, str) else buttons
    return [int(ln.split()[0]) for ln in lines if ln.strip() and not ln.startswith("#")]


def judge(sc: Scenario, f: Figures, budget: bool) -> None:
    """Add to f.problems what breaks the rules of the check (and the budget, if asked)."""
    if sc.fill_heap:
        if "the heap is full" not in f.crash_log:
            f.problems.append("crash with the heap full: no crash.log line")
        if f.reboots < 1:
            f.problems.append("crash with the heap full: the board did not restart")
        crashes = f.crash_log.split("--- crash at")[1:]
        if len(crashes) > 1:  # the restart resumes the game: it must play on, not crash again
            f.problems.append("after the restart: " + crashes[-1].strip().splitlines()[-1][:200])
    elif f.crash_log.strip():
        f.problems.append("crash.log: " + f.crash_log.strip().splitlines()[-1][:200])
    if sc.probe and not f.samples:
        f.problems.append("no heap sample: the loop never ran")
    if not sc.probe and not f.boot_ms:
        f.problems.append("the title never showed")
    if budget and f.samples and not sc.fill_heap:
        if f.min_free() < MIN_FREE:
            f.problems.append(f"heap: {f.min_free()} B free at worst, budget {MIN_FREE}")
        if f.min_block() < MIN_BLOCK:
            f.problems.append(f"heap: largest free block {f.min_block()} B at worst, budget {MIN_BLOCK}")
        if f.decisions and max(f.decisions) > MAX_DECISION_MS:
            f.problems.append(f"a computer decision took {max(f.decisions)} ms, budget {MAX_DECISION_MS}")
    # The budget is for a boot like every one but the first after a deploy: with the title kept.
    if budget and not sc.probe and (f.boot_ms is None or f.boot_ms > MAX_BOOT_MS):
        f.problems.append(f"boot -> title {f.boot_ms} ms, budget {MAX_BOOT_MS}")


def run_scenario(sc: Scenario, fs_root: Path, budget: bool) -> list[Figures]:
    if sc.link:
        a_btn, b_btn = link_timelines(sc.ms)
        rec = settings_record(LINK)
        fa = emu.build_fs(fs_root / (sc.name + "-A"), settings=rec)
        fb = emu.build_fs(fs_root / (sc.name + "-B"), settings=rec)
        ra, rb = emu.run_link(sc.name, fa, fb, sc.ms, a_btn, b_btn, sc.link_faults)
        out = []
        for chip, run, btn in (("A", ra, a_btn), ("B", rb, b_btn)):
            f = read_run(f"{sc.name}:{chip}", run, press_times(btn))
            judge(sc, f, budget)
            if not any(d for d in f.samples if d[0] > 12000):
                f.problems.append("the link match never ran past its start")
            out.append(f)
        return out
    files = {"PROBE_FILL": b"1"} if sc.fill_heap else {}
    if sc.resume:
        files["game.sav"] = game_record(sc.mode, sc.level)
    if sc.kept_title:
        from ui.titlecard import CARD_FILE

        files[CARD_FILE] = title_card(settings_record(sc.mode, sc.level))
    settings = None if sc.blank else settings_record(sc.mode, sc.level)
    fs = emu.build_fs(fs_root / sc.name, settings=settings, files=files, probe=sc.probe)
    text = "\n".join(sc.buttons) + "\n"
    run = emu.run_one(sc.name, fs, sc.ms, text)
    f = read_run(sc.name, run, press_times(sc.buttons))
    judge(sc, f, budget)
    return [f]


def kb(n: int | None) -> str:
    return "-" if n is None else f"{n / 1024:.1f}"


def table(figs: list[Figures]) -> str:
    rows = [
        "| run | samples | min free KB | min largest block KB | decisions (median / worst ms) "
        "| press -> glass (median / worst ms) | boot -> title ms | result |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in figs:
        dec = f"{statistics.median(f.decisions):.0f} / {max(f.decisions)}" if f.decisions else "-"
        pr = f"{statistics.median(f.presses):.1f} / {max(f.presses):.1f}" if f.presses else "-"
        if f.probed:
            pr += f" ({f.probed} with a sample, untimed)"
        boot = f"{f.boot_ms:.0f}" if f.boot_ms is not None and f.name.startswith("boot") else "-"
        res = "ok" if not f.problems else "; ".join(f.problems)[:300]
        rows.append(
            f"| {f.name} | {len(f.samples)} | {kb(f.min_free())} | {kb(f.min_block())} | {dec} | {pr} | {boot} | {res} |"
        )
    return "\n".join(rows)
