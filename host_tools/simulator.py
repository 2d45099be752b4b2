"""Play the handheld on a PC: the firmware's own App on simulated hardware.

    python -m host_tools.simulator                 # play in this terminal
    python -m host_tools.simulator --mode watch --level hard
    python -m host_tools.simulator --keys "m wait:500 d s" --screenshot out.png
    python -m host_tools.simulator --script session.keys --frames-dir frames/
    python -m host_tools.simulator --replay ~/.gin-handheld/game.sav

What runs is firmware/app.py, unchanged: its frames go through Adafruit's
SSD1306 driver into a model of the controller (host_tools.host_display), and
the terminal shows the model's glass.  With ``--script``/``--keys`` nothing is
drawn in the terminal: the keys play on a virtual clock, head-less and
deterministic, and frames or screenshots go to PNG files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import host_tools.fwpath  # noqa: F401  (firmware on sys.path)

# isort: split
from device.buttons import SAMPLE_MS
from gin.cards import GinError, mix_seed
from gin.rules import (
    DEALER_NAMES,
    FIELDS,
    FIRST_DEALER_NAMES,
    GAME_WINNER_NAMES,
    OFFER_NAMES,
    PRESET_NAMES,
    RuleSet,
)

from host_tools import keymap
from host_tools.oled_view import PALETTES
from host_tools.sim_hw import DEFAULT_SAVE_DIR, SimHw, SimReset

MODES = {"vs": 0, "pass": 1, "watch": 2}
MODE_TITLES = ("vs computer", "two people", "watch")
LEVELS = {"easy": 0, "normal": 1, "hard": 2}
LEVEL_TITLES = ("easy", "normal", "hard")

_ENUM_VALUES = {
    "next_dealer": DEALER_NAMES,
    "upcard_offer": OFFER_NAMES,
    "first_dealer": FIRST_DEALER_NAMES,
    "game_winner": GAME_WINNER_NAMES,
}
_ON = ("on", "yes", "true", "1")
_OFF = ("off", "no", "false", "0")


class OptionError(ValueError):
    pass


def parse_rules(spec: str) -> RuleSet:
    """``"modern,oklahoma,target=150"``: an optional preset first, then variants and fields.

    A bare name turns a variant on (``straight``, ``oklahoma``, ``hollywood``,
    ``big_gin``, ``gin_forced``, ``oklahoma_spade_double``); ``name=value``
    sets any field of gin.rules.FIELDS (numbers, on/off, or a value's name
    such as ``next_dealer=loser``).
    """
    fields: dict[str, object] = {}
    for i, raw in enumerate(p.strip() for p in spec.split(",")):
        if not raw:
            continue
        key, eq, value = raw.partition("=")
        key = key.strip().lower().replace("-", "_")
        value = value.strip().lower()
        if i == 0 and not eq and key in PRESET_NAMES:
            fields["preset"] = key
            continue
        if key == "preset":
            fields["preset"] = value
            continue
        if key not in FIELDS:
            raise OptionError(
                f"unknown rule {key!r}; presets: {', '.join(PRESET_NAMES)}; fields: {', '.join(FIELDS[1:])}"
            )
        if not eq:
            fields[key] = True
        elif value in _ON and key not in _ENUM_VALUES:
            fields[key] = True if key in _bool_fields() else int(value in _ON)
        elif value in _OFF and key not in _ENUM_VALUES:
            fields[key] = False if key in _bool_fields() else 0
        elif key in _ENUM_VALUES and value in _ENUM_VALUES[key]:
            fields[key] = _ENUM_VALUES[key].index(value)
        else:
            try:
                fields[key] = int(value)
            except ValueError:
                raise OptionError(f"rule {key}: {value!r} is not a value it takes") from None
    try:
        return RuleSet(**fields)
    except GinError as e:
        raise OptionError(str(e)) from None


def _bool_fields() -> set[str]:
    default = RuleSet()
    return {f for f in FIELDS if isinstance(getattr(default, f), bool)}


# ------------------------------------------------------------------ session
class Session:
    """The firmware App on a SimHw, with the knobs the front ends need.

    ``overrides`` are settings applied before the title screen (mode, level,
    rules); ``new_game`` skips the title and deals at once; ``seed`` fixes the
    first match's deal.
    """

    def __init__(
        self,
        save_dir: str | os.PathLike[str] | None = None,
        *,
        virtual: bool = True,
        start_ms: int = 0,
        overrides: dict[str, object] | None = None,
        new_game: bool = False,
        resume: bool = False,
        seed: int | None = None,
    ) -> None:
        self.hw = SimHw(save_dir, virtual_clock=virtual, start_ms=start_ms)
        self.clock = self.hw.clock
        self.buttons = self.hw.buttons
        self.display = self.hw.display
        self.overrides = dict(overrides or {})
        self.seed = seed
        self.startup_message: str | None = None
        self.app = self._boot(new_game=new_game, resume=resume)

    # ---- the app's lifetime
    def _boot(self, *, new_game: bool = False, resume: bool = False):
        from app import App

        app = App(self.hw, resume=resume)
        msg = getattr(app, "msg", None)
        if msg and self.startup_message is None:
            self.startup_message = msg
        if self.overrides:
            app.settings.update(self.overrides)
            if "mode" in self.overrides:
                app.mode = self.overrides["mode"]
            if "level" in self.overrides:
                app.level = self.overrides["level"]
        if self.seed is not None:
            self._fix_seed(app, self.seed)
        if new_game:
            app.new_game()
        return app

    @staticmethod
    def _fix_seed(app, seed: int) -> None:
        """The next match deals from ``seed`` (the app's seeds come from the clock).

        App.new_game draws two seeds from ``_fresh_seed`` (salt 1: the deal,
        salt 2: the computer's own randomness); both follow the fixed seed once.
        """
        original = app._fresh_seed
        used: set[int] = set()

        def fixed(salt: int) -> int:
            if salt in used:
                return original(salt)
            used.add(salt)
            if len(used) == 2:
                del app._fresh_seed  # back to the class's method for later matches
            return seed & 0x7FFFFFFF if salt == 1 else mix_seed(seed, salt) & 0x7FFFFFFF

        app._fresh_seed = fixed

    def step(self) -> int:
        """One app loop iteration; returns the ms it would like to sleep."""
        try:
            return self.app.step()
        except SimReset:
            # as main.py on the device: every boot resumes the saved game
            self.app = self._boot(resume=True)
            return 0

    # ---- virtual time
    def run_for(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass, stepping the app as the device loop would."""
        clock = self.clock
        end = clock.now() + max(0, ms)
        while True:
            sleep = self.step()
            now = clock.now()
            if now >= end:
                return
            nxt = now + max(1, sleep)
            if self.buttons.busy():
                nxt = min(nxt, now + SAMPLE_MS)
            clock.advance_to(min(nxt, end))

    def tap(self, press: keymap.Press) -> None:
        self.buttons.press(press.button, press.hold_ms)

    # ---- what front ends ask
    def in_game(self) -> bool:
        """A match is being played (quitting then deserves a confirmation)."""
        from gin.match import GAME_OVER

        m = getattr(self.app, "match", None)
        return m is not None and m.state != GAME_OVER and not getattr(self.app, "demo", False)

    def save_now(self) -> None:
        autosave = getattr(self.app, "autosave", None)
        if autosave is not None:
            autosave()

    def describe(self) -> str:
        app = self.app
        mode = getattr(app, "mode", 0)
        level = getattr(app, "level", 1)
        text = MODE_TITLES[mode] if 0 <= mode < 3 else "?"
        if mode != 1 and 0 <= level < 3:
            text += " \u00b7 " + LEVEL_TITLES[level]
        return text


# ------------------------------------------------------------------ head-less
class ScriptRunner:
    """Plays parsed script steps on a virtual-clock Session; PNGs on request."""

    def __init__(
        self,
        session: Session,
        *,
        shots_dir: Path | None = None,
        frames_dir: Path | None = None,
        palette: str = "white",
        scale: int = 4,
        bezel: int = 0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        from host_tools.screenshot import FrameRecorder

        self.session = session
        self.shots_dir = shots_dir or Path(".")
        self.palette = palette
        self.scale = scale
        self.bezel = bezel
        self.log = log
        self.shots: list[Path] = []
        self._shot_no = 0
        self._pilot = None
        self.recorder = (
            FrameRecorder(session.display, frames_dir, palette=palette, scale=scale) if frames_dir else None
        )

    def run(self, steps: Sequence[keymap.Step], settle_ms: int = 300) -> None:
        s = self.session
        s.run_for(settle_ms)  # the title screen's first frame
        for step in steps:
            if self.log:
                self.log(keymap.step_text(step))
            if isinstance(step, keymap.Press):
                s.tap(step)
                s.run_for(step.hold_ms + keymap.SCRIPT_GAP_MS)
            elif isinstance(step, keymap.Wait):
                s.run_for(step.ms)
            elif isinstance(step, keymap.Shot):
                self.shot(step.name)
            elif isinstance(step, keymap.Auto):
                self.pilot().run(step.scope)
            elif isinstance(step, keymap.Command) and step.name == "quit-now":
                break
        s.run_for(keymap.SCRIPT_GAP_MS)

    def pilot(self):
        from host_tools.pilot import Pilot

        if self._pilot is None:
            self._pilot = Pilot(self.session)
        return self._pilot

    def shot(self, name: str | None = None, path: Path | None = None) -> Path:
        from host_tools.screenshot import save_glass

        if path is None:
            self._shot_no += 1
            stem = name or f"shot-{self._shot_no:03d}"
            path = self.shots_dir / (stem if stem.endswith(".png") else stem + ".png")
        path.parent.mkdir(parents=True, exist_ok=True)
        save_glass(
            self.session.display.glass(), path, palette=self.palette, scale=self.scale, bezel=self.bezel
        )
        self.shots.append(path)
        return path

    def close(self) -> None:
        if self.recorder:
            self.recorder.close()


# ------------------------------------------------------------------ CLI
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m host_tools.simulator",
        description="Play the Gin Rummy handheld in a terminal: the real firmware on simulated hardware.",
        epilog="Keys: arrows move, d draw, s/space discard, k knock, m/Esc menu, "
        "capital letter or Shift+arrow = long press, ? help, q quit.",
    )
    g = p.add_argument_group("game")
    g.add_argument(
        "--mode",
        choices=list(MODES),
        help="vs: you against the computer; "
        "watch: computer against computer; pass: two people share the keyboard",
    )
    g.add_argument("--level", choices=sorted(LEVELS, key=LEVELS.get), help="the computer's level")
    g.add_argument(
        "--rules",
        metavar="SPEC",
        help=f'preset and variants, e.g. "modern,oklahoma,target=150" (presets: {", ".join(PRESET_NAMES)})',
    )
    g.add_argument("--new", action="store_true", help="skip the title screen and deal a new game")
    g.add_argument("--seed", type=int, help="deal the first new game from this seed")
    g.add_argument("--save-dir", type=Path, help=f"where saves live (default {DEFAULT_SAVE_DIR})")
    g.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="step through a saved game (game.sav) or a recorded hand/match (.json)",
    )
    v = p.add_argument_group("view")
    v.add_argument("--palette", choices=sorted(PALETTES), default="white")
    v.add_argument("--ascii", action="store_true", help="plain ASCII instead of Unicode blocks")
    v.add_argument(
        "--size",
        choices=("auto", "full", "compact"),
        default="auto",
        help="full: 1 character per pixel column (needs 130x36); compact: braille, fits 80x24",
    )
    v.add_argument("--no-color", action="store_true", help="no ANSI colours")
    v.add_argument("--bell", action="store_true", help="ring the terminal bell for the device's beeps")
    v.add_argument(
        "--window", action="store_true", help="a graphical window (needs pygame) instead of the terminal"
    )
    h = p.add_argument_group("head-less (no terminal UI; virtual clock)")
    h.add_argument(
        "--script", metavar="FILE", type=Path, help="key script to play (see host_tools/keymap.py)"
    )
    h.add_argument("--keys", metavar="KEYS", help='key script inline, e.g. "m wait:1500 d s D"')
    h.add_argument("--frames-dir", type=Path, help="write every frame shown as DIR/frame-00001.png ...")
    h.add_argument("--shots-dir", type=Path, help="where the script's shot:NAME pictures go (default .)")
    h.add_argument("--screenshot", metavar="OUT.png", type=Path, help="write the last frame here")
    h.add_argument(
        "--scale", type=int, help="pixels per panel pixel: PNG files (default 4), the window (default 6)"
    )
    h.add_argument("--verbose", action="store_true", help="print each script step")
    return p


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    out: dict[str, object] = {}
    if args.mode:
        out["mode"] = MODES[args.mode]
    if args.level:
        out["level"] = LEVELS[args.level]
    if args.rules:
        out["rules"] = parse_rules(args.rules).to_bytes()
    return out


def check_save(save_dir: Path) -> tuple[str | None, bool]:
    """(one line about a save that can't be used, or None; True when no game can be resumed).

    The app only says "Save lost" when Continue is chosen; the simulator
    checks first, so a damaged or foreign file is named on the command line
    and the player starts a new game instead of picking a dead Continue.
    """
    from device.storage import FileStorage
    from savegame import GAME_FILE, SaveManager

    storage = FileStorage(str(save_dir))
    if all(r(GAME_FILE) is None for r in (storage.read, storage.read_temp, storage.read_backup)):
        return None, False
    sm = SaveManager(storage)
    snap, msg = sm.load_game()
    if snap is not None and msg is None:
        return None, False
    why = "; ".join(sm.log) or "unreadable"
    if snap is None:
        return f"{save_dir / GAME_FILE}: not a usable save ({why}); starting a new game", True
    return f"{save_dir / GAME_FILE}: damaged ({why}); the backup copy will be used", False


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        overrides = _overrides(args)
    except OptionError as e:
        parser.error(str(e))
    headless = args.script is not None or args.keys is not None or args.screenshot is not None
    steps: list[keymap.Step] = []
    try:
        if args.script is not None:
            steps += keymap.parse_script(args.script.read_text())
        if args.keys is not None:
            steps += keymap.parse_script(args.keys)
    except (OSError, keymap.ScriptError) as e:
        parser.error(f"script: {e}")

    replay_failed = None
    if args.scale is not None and not 1 <= args.scale <= 16:
        parser.error("--scale must be 1..16")
    png_scale = args.scale or 4
    if args.replay is not None:
        from host_tools import replay

        try:
            rec = replay.load(args.replay)
        except replay.ReplayError as e:
            replay_failed = f"{args.replay}: {e}; starting a new game instead"
            print(replay_failed, file=sys.stderr)
        else:
            return replay.main_with(rec, args, steps, headless or args.frames_dir is not None)

    if not headless and not args.window and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("The simulator needs a terminal (for a head-less run use --script or --keys).", file=sys.stderr)
        return 2
    save_dir = args.save_dir if args.save_dir is not None else DEFAULT_SAVE_DIR
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"can't use the save folder {save_dir}: {e.strerror}", file=sys.stderr)
        return 2
    problem, unusable = check_save(save_dir)
    if problem:
        print(problem, file=sys.stderr)
    new_game = args.new or unusable or replay_failed is not None
    problem = problem or replay_failed

    if headless:
        session = Session(save_dir, virtual=True, overrides=overrides, new_game=new_game, seed=args.seed)
        runner = ScriptRunner(
            session,
            shots_dir=args.shots_dir,
            frames_dir=args.frames_dir,
            palette=args.palette,
            scale=png_scale,
            log=(lambda t: print(t, file=sys.stderr)) if args.verbose else None,
        )
        try:
            runner.run(steps)
            if args.screenshot is not None:
                runner.shot(path=args.screenshot)
        finally:
            runner.close()
        for path in runner.shots:
            print(path)
        if runner.recorder:
            print(f"{runner.recorder.count} frames in {args.frames_dir}")
        return 0

    session = Session(save_dir, virtual=False, overrides=overrides, new_game=new_game, seed=args.seed)
    if problem and session.startup_message is None:
        session.startup_message = problem
    if args.frames_dir is not None:  # record an interactive session too
        from host_tools.screenshot import FrameRecorder

        FrameRecorder(session.display, args.frames_dir, palette=args.palette, scale=png_scale)
    if args.window:
        from host_tools import sim_window

        return sim_window.run(session, palette=args.palette, scale=args.scale or 6)
    from host_tools import sim_term

    return sim_term.run(
        session,
        palette=args.palette,
        ascii=args.ascii,
        size=args.size,
        color=not args.no_color and "NO_COLOR" not in os.environ,
        bell=args.bell,
    )


if __name__ == "__main__":
    raise SystemExit(main())
