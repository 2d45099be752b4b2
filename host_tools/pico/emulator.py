"""The emulated Pico of ../shared/pico: set it up once, build the device's files, run one or two chips.

../shared/pico (beside the repository in CI and on the team's machines, not in a user's clone) holds
rp2040js and the official MicroPython v1.27.0 RPI_PICO image; its README says how it works.  This
module copies its emulator into build/pico (the shared folder may be read-only), installs rp2040js
from npm there once, and drives its runners.  Nothing of it is copied into the repository.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from host_tools.deploy.compile import mpy_cross_binary

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "build" / "pico"
PROBE_MAIN = Path(__file__).with_name("probe_main.py")
PROBE_ENTRY = "from gin_probe import run\nrun()\n"  # main.py of a probed run
FIRMWARE = "RPI_PICO-20251209-v1.27.0.uf2"
BOOTROM = "bootrom_b1.ts"
PINS = "UP=2,DOWN=3,LEFT=4,RIGHT=5,DRAW=6,DISCARD=7,KNOCK=8,MENU=9"  # device/pins.py's BUTTONS


class NoPico(RuntimeError):
    """The emulated Pico is not on this machine (a clone without ../shared/pico)."""


def shared_pico() -> Path:
    """Where ../shared/pico is (PICO_SHARED overrides), or NoPico saying why it isn't here."""
    p = Path(os.environ.get("PICO_SHARED", ROOT.parent / "shared" / "pico"))
    if not (p / "emu" / "run_on_pico.mjs").is_file() or not (p / "firmware" / FIRMWARE).is_file():
        raise NoPico(f"no emulated Pico at {p}: it lives beside the repository in CI (../shared/pico)")
    return p


def setup(log=print) -> Path:
    """build/pico/emu with rp2040js installed, and the firmware beside it; returns build/pico."""
    src = shared_pico()
    emu = WORK / "emu"
    stamp = emu / "node_modules" / ".gin-installed"
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / ".setup.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest's workers may both arrive here first
        _install(src, emu, stamp, log)
    return WORK


def _install(src: Path, emu: Path, stamp: Path, log) -> None:
    if not stamp.exists():
        log("pico: installing the emulator (rp2040js from npm) into build/pico/emu ...")
        if emu.exists():
            shutil.rmtree(emu)
        shutil.copytree(src / "emu", emu, ignore=shutil.ignore_patterns("node_modules"))
        for f in emu.rglob("*"):
            f.chmod(f.stat().st_mode | 0o200)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=emu, check=True)
        stamp.touch()
    for name in (FIRMWARE, BOOTROM, "ssd1306.py"):
        shutil.copyfile(src / "firmware" / name, WORK / name)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PICO_EMU_PYTHON"] = sys.executable  # littlefs-python is in the project's .venv
    return env


def build_fs(
    out: Path, *, settings: bytes | None = None, files: dict[str, bytes] | None = None, probe: bool = True
) -> Path:
    """The files `make deploy` copies (shared/pico's build_fs.sh), main.py swapped for the probe
    (probe=False: exactly as deployed, for timings the probe's own start would lengthen).

    settings: a settings.sav record to put on the flash (the mode and level a run starts in)."""
    script = shared_pico() / "handheld" / "build_fs.sh"
    out.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(
        ["bash", str(script), str(ROOT), str(WORK / "ssd1306.py"), str(out)], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise RuntimeError("build_fs.sh failed:\n" + r.stdout + r.stderr)
    if probe:
        # The probe compiled (gin_probe.mpy) and a two-line main.py: a main.py of its size would be
        # compiled on the chip at every boot, and the compiler's peak charged to the game's heap.
        (out / "main.py").rename(out / "gin_main.py")
        subprocess.run([mpy_cross_binary(), "-o", str(out / "gin_probe.mpy"), str(PROBE_MAIN)], check=True)
        (out / "main.py").write_text(PROBE_ENTRY)
    if settings is not None:
        (out / "settings.sav").write_bytes(settings)
    for name, data in (files or {}).items():
        (out / name).write_bytes(data)
    return out


@dataclass
class Run:
    """What one chip did: its serial output, its glass (frames.jsonl) and its flash at the end."""

    out: Path
    serial: str
    frames: list[dict]
    reboots: int

    def file(self, name: str) -> bytes | None:
        """A file of the chip's flash at the end of the run (crash.log, game.sav), or None."""
        img = self.out / "flash.img"
        if not img.exists():
            return None
        r = subprocess.run(
            [sys.executable, str(WORK / "emu" / "mklfs.py"), "cat", str(img), name], capture_output=True
        )
        return r.stdout if r.returncode == 0 else None


def _frames(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run_one(name: str, fs: Path, duration_ms: int, buttons: str, timeout_s: int = 3600) -> Run:
    """Boot fs on one chip for duration_ms of emulated time, pressing the buttons of the timeline."""
    out = WORK / "out" / name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "buttons.txt").write_text(buttons)
    cmd = [
        "node", str(WORK / "emu" / "run_on_pico.mjs"), "--firmware", str(WORK / FIRMWARE),
        "--bootrom", str(WORK / BOOTROM), "--fs", str(fs), "--duration", str(duration_ms),
        "--oled", "--i2c-bus", "1", "--sda", "26", "--scl", "27", "--pin-names", PINS,
        "--buttons", str(out / "buttons.txt"), "--snap-prefix", str(out / "s"),
        "--frames-log", str(out / "frames.jsonl"), "--fs-dump", str(out / "flash.img"),
        "--json", str(out / "run.json"), "--timeout", str(timeout_s),
    ]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, env=_env())
    (out / "stdout.txt").write_text(r.stdout)
    (out / "stderr.txt").write_text(r.stderr)
    info = json.loads((out / "run.json").read_text()) if (out / "run.json").exists() else {}
    return Run(out, r.stdout, _frames(out / "frames.jsonl"), len(info.get("reboots") or []))


def run_link(
    name: str, fs_a: Path, fs_b: Path, duration_ms: int, buttons_a: str, buttons_b: str,
    faults: list[str] | None = None, timeout_s: int = 7200,
) -> tuple[Run, Run]:  # fmt: skip
    """Two chips on the link cable (faults: run_link.mjs's --drop/--corrupt/--cable-cut/--power-cut)."""
    out = WORK / "out" / name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "a.txt").write_text(buttons_a)
    (out / "b.txt").write_text(buttons_b)
    cmd = [
        "node", str(WORK / "emu" / "run_link.mjs"), "--firmware", str(WORK / FIRMWARE),
        "--bootrom", str(WORK / BOOTROM), "--a-fs", str(fs_a), "--b-fs", str(fs_b),
        "--duration", str(duration_ms), "--out", str(out), "--oled", "--i2c-bus", "1", "--sda", "26",
        "--scl", "27", "--pin-names", PINS, "--a-buttons", str(out / "a.txt"),
        "--b-buttons", str(out / "b.txt"), "--json", str(out / "link.json"), "--stamp",
        "--timeout", str(timeout_s), *(faults or []),
    ]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, env=_env())
    (out / "stdout.txt").write_text(r.stdout)
    (out / "stderr.txt").write_text(r.stderr)
    runs = []
    for chip in ("A", "B"):
        d = out / chip
        serial = (d / "serial.txt").read_text(errors="replace") if (d / "serial.txt").exists() else ""
        info = json.loads((d / "run.json").read_text()) if (d / "run.json").exists() else {}
        runs.append(Run(d, serial, _frames(d / "frames.jsonl"), len(info.get("reboots") or [])))
    return runs[0], runs[1]
