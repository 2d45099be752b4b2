"""Play the handheld on a PC: the firmware's own App on simulated hardware.

    python -m host_tools.simulator                 # play in this terminal
    python -m host_tools.simulator --mode watch --level hard
    python -m host_tools.simulator --keys "m wait:500 d s" --screenshot out.png
    python -m host_tools.simulator --script session.keys --frames-dir frames/
    python -m host_tools.simulator --replay ~/.gin-handheld/game.sav

What runs is firmware/app.py, unchanged: its frames go through Adafruit's
SSD1306 driver into a model of the controller (host_tools.hw.host_display), and
the terminal shows the model's glass.  With ``--script``/``--keys`` nothing is
drawn in the terminal: the keys play on a virtual clock, head-less and
deterministic, and frames or screenshots go to PNG files.
"""

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from gin.rules import PRESET_NAMES
from modes import LINK

from host_tools.hw.oled_view import PALETTES
from host_tools.simulator import keys as keymap
from host_tools.simulator.options import DEFAULT_SAVE_DIR, LEVELS, MODES, OptionError, parse_rules
from host_tools.simulator.session import Session, run_script


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
    g.add_argument(
        "--new",
        action="store_true",
        help="skip the title screen and deal a new game (refused over a match in progress: see --replace)",
    )
    g.add_argument(
        "--replace",
        action="store_true",
        help="with --new: replace the match in progress; it is kept (Previous match on the title)",
    )
    g.add_argument("--seed", type=int, help="deal the first new game from this seed")
    g.add_argument("--save-dir", type=Path, help=f"where saves live (default {DEFAULT_SAVE_DIR})")
    lk = p.add_argument_group("link cable over the network (docs/LINK.md)")
    lk.add_argument(
        "--link-listen",
        metavar="PORT",
        type=int,
        help="wait for another simulator on this TCP port (0: any free port, printed); Play: Link cable",
    )
    lk.add_argument("--link", metavar="HOST:PORT", help="call the simulator listening at HOST:PORT")
    lk.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="head-less with a link: run the clock this many times faster than real time (default 1)",
    )
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
        "--script", metavar="FILE", type=Path, help="key script to play (see host_tools/simulator/keys.py)"
    )
    h.add_argument("--keys", metavar="KEYS", help='key script inline, e.g. "m wait:1500 d s D"')
    h.add_argument("--frames-dir", type=Path, help="write every frame shown as DIR/frame-00001.png ...")
    h.add_argument(
        "--shots-dir", type=Path, help="where the script's shot:NAME pictures go (default: --frames-dir)"
    )
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
    from device.storage import FileStorage, TooLong
    from savegame import GAME_FILE, MAX_GAME, SaveManager

    storage = FileStorage(str(save_dir))

    def present(read):  # bounded: a huge file is refused from its size, unread
        try:
            return read(GAME_FILE, MAX_GAME) is not None
        except TooLong:
            return True

    if not any(present(r) for r in (storage.read, storage.read_temp, storage.read_backup)):
        return None, False
    sm = SaveManager(storage)
    snap, msg = sm.load_game()
    if snap is not None and msg is None:
        return None, False
    why = "; ".join(sm.log) or "unreadable"
    if snap is None:
        return f"{save_dir / GAME_FILE}: not a usable save ({why}); starting a new game", True
    return f"{save_dir / GAME_FILE}: damaged ({why}); the backup copy will be used", False


def _save_files() -> list[str]:
    """Every file the app may open in its save folder."""
    from device.storage import BAK, TMP
    from savegame import GAME_FILE, KEPT_FILE, LINK_STATS_FILE, SETTINGS_FILE, STATS_FILE

    names = (GAME_FILE, KEPT_FILE, SETTINGS_FILE, STATS_FILE, LINK_STATS_FILE)
    return [n + s for n in names for s in ("", TMP, BAK)]


def save_dir_problem(save_dir: Path) -> str | None:
    """None when the app can keep its saves in save_dir (made if missing), else the one-line reason.

    The folder must be a folder the app can write (a file of 4 KB, the largest game record, is
    written and removed, through the firmware's own file code); every save file in it must be a
    regular file: a FIFO, a device or a link to one is never opened (it could block or never end).
    """
    from device.storage import OsFS
    from savegame import MAX_GAME

    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"can't use the save folder {save_dir}: {_why(e)}"
    if not save_dir.is_dir():
        return f"can't use the save folder {save_dir}: not a folder"
    for name in _save_files():
        p = save_dir / name
        if (p.exists() or p.is_symlink()) and not p.is_file():
            return f"can't use the save folder {save_dir}: {name} is not a regular file (move it away)"
    fs = OsFS()
    probe = str(save_dir / ".gin-write-test")
    try:
        fs.write(probe, bytes(MAX_GAME))
    except OSError as e:
        return f"can't save in {save_dir}: {_why(e)}"
    finally:
        try:
            fs.remove(probe)
        except OSError:
            pass
    return None


def replacing(save_dir: Path, mode: int | None) -> str | None:
    """The one line refusing --new over the player's match in save_dir, or None when nothing is replaced.

    ``mode``: the mode the new game is played in (None: the folder's settings say).
    Watching never replaces the player's match (savegame keeps it), so it is never refused.
    """
    from device.storage import FileStorage
    from modes import WATCH
    from savegame import SaveManager, match_line

    sm = SaveManager(FileStorage(str(save_dir)))
    if not sm.has_game():
        return None
    if mode is None:
        mode = sm.load_profile()[0]["mode"]
    snap, _msg = sm.load_game()
    if mode == WATCH or snap is None or snap["mode"] == WATCH:
        return None
    return (
        f"--new would replace the match in progress in {save_dir} ({match_line(snap)}): "
        "leave out --new to play it on, or add --replace to start anew (it is kept: Previous match)"
    )


def _link_port(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """The TCP port of --link-listen / --link, or None."""
    if args.link_listen is None and args.link is None:
        return None
    if args.link_listen is not None and args.link is not None:
        parser.error("--link-listen and --link: one simulator listens, the other calls it")
    if not 0 < args.speed <= 50:
        parser.error("--speed must be above 0 and at most 50")
    from host_tools.link.tcp import TcpPort, parse_address

    try:
        if args.link is not None:
            return TcpPort(connect=parse_address(args.link))
        if not 0 <= args.link_listen < 65536:
            parser.error("--link-listen: the port must be 0..65535")
        return TcpPort(listen=args.link_listen)
    except ValueError as e:
        parser.error(f"--link: {e}")
    except OSError as e:
        parser.error(f"--link-listen {args.link_listen}: {e.strerror or e}")


def _link_report(session: Session) -> None:
    """Head-less link runs: let the last frames go out, then print how the match ended."""
    app = session.app
    for _ in range(30):
        link = getattr(app, "link", None)
        if link is None or not link.busy():
            break
        session.run_for(100)
    m = app.match
    if m is None:
        print("link: no match")
        return
    print(
        f"link match: seed {m.seed}, hands {len(m.summaries)}, "
        f"score {m.final_tally(0)}-{m.final_tally(1)}, winner {m.winner}, seat {app.seat}, "
        f"{'over' if m.state == 2 else 'not over'}"
    )


PROG = "python -m host_tools.simulator"


def fail(message: str, code: int = 2) -> int:
    """One line on stderr, a non-zero exit: how every command-line error ends (no traceback)."""
    print(f"{PROG}: {message}", file=sys.stderr)
    return code


def _why(e: BaseException) -> str:
    if isinstance(e, OSError):
        where = f" ({e.filename})" if getattr(e, "filename", None) else ""
        return (e.strerror or type(e).__name__) + where
    return str(e) or type(e).__name__


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        overrides = _overrides(args)
    except OptionError as e:
        return fail(str(e))
    port = _link_port(args, parser)
    if port is not None:
        overrides.setdefault("mode", LINK)
        print(f"link: {port.describe()}", flush=True)
    headless = args.script is not None or args.keys is not None or args.screenshot is not None
    steps: list[keymap.Step] = []
    try:
        if args.script is not None:
            raw = args.script.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                return fail(f"script {args.script}: not UTF-8 text (byte {e.start})")
            steps += keymap.parse_script(text)
        if args.keys is not None:
            steps += keymap.parse_script(args.keys)
    except OSError as e:
        return fail(f"script: {_why(e)}")
    except keymap.ScriptError as e:
        return fail(f"script: {e}")

    if args.shots_dir is None and args.frames_dir is None and any(isinstance(s, keymap.Shot) for s in steps):
        # never into whatever folder the command was typed in
        return fail("shot: where should its picture go? add --shots-dir DIR (or --frames-dir DIR)")
    if args.scale is not None and not 1 <= args.scale <= 16:
        return fail("--scale must be 1..16")
    png_scale = args.scale or 4
    if args.replay is not None:
        # A replay is a viewer: it never reads or writes the save folder, and a
        # file it can't use is an error, not a reason to start a game.
        from host_tools.simulator import replay

        try:
            rec = replay.load(args.replay)
        except replay.ReplayError as e:
            return fail(f"--replay {args.replay}: {e}", 1)
        if args.frames_dir is not None:
            problem = _writable_dir(args.frames_dir)
            if problem:
                return fail(problem)
        try:
            return replay.main_with(rec, args, steps, headless or args.frames_dir is not None)
        except (OSError, ValueError) as e:
            return fail(f"can't write a picture: {_why(e)}", 1)

    if not headless and not args.window and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("The simulator needs a terminal (for a head-less run use --script or --keys).", file=sys.stderr)
        return 2
    for d in (args.frames_dir, args.shots_dir, args.screenshot.parent if args.screenshot else None):
        problem = _writable_dir(d) if d is not None else None
        if problem:
            return fail(problem)
    if headless and args.save_dir is None:
        # Head-less runs never touch the player's saves (~/.gin-handheld): a fresh,
        # empty folder each run, so the same script gives the same frames every time.
        with tempfile.TemporaryDirectory(prefix="gin-sim-") as tmp:
            return _headless(args, overrides, steps, Path(tmp), port)
    save_dir = args.save_dir if args.save_dir is not None else DEFAULT_SAVE_DIR
    problem = save_dir_problem(save_dir)
    if problem:
        return fail(problem, 1)
    if args.new and not args.replace:
        problem = replacing(save_dir, overrides.get("mode"))
        if problem:
            return fail(problem, 1)
    if headless:
        return _headless(args, overrides, steps, save_dir, port)
    problem, unusable = check_save(save_dir)
    if problem:
        print(problem, file=sys.stderr)
    new_game = args.new or unusable

    session = Session(
        save_dir, virtual=False, overrides=overrides, new_game=new_game, seed=args.seed, link=port
    )
    return _interactive(args, session, problem, png_scale)


def _writable_dir(d: Path) -> str | None:
    """None when pictures can be written into folder d (made if missing), else the one-line reason."""
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"can't write into {d}: {_why(e)}"
    if not os.access(d, os.W_OK | os.X_OK):
        return f"can't write into {d}: permission denied"
    return None


def _headless(args, overrides, steps, save_dir: Path, port=None) -> int:
    problem, unusable = check_save(save_dir)
    if problem:
        print(problem, file=sys.stderr)
    session = Session(
        save_dir,
        virtual=port is None,  # the other simulator lives in real time
        overrides=overrides,
        new_game=args.new or unusable,
        seed=args.seed,
        link=port,
        speed=args.speed,
    )
    log = (lambda t: print(t, file=sys.stderr)) if args.verbose else None
    try:
        run_script(session, steps, args, log)
    except (OSError, ValueError) as e:  # a picture that can't be written (disk full, bad name, ...)
        return fail(f"can't write a picture: {_why(e)}", 1)
    if port is not None:
        _link_report(session)
        port.shutdown()
    err = session.app.saves.error  # the last save failed (the flash, here the folder, refused)
    if err:
        return fail(f"can't save in {save_dir}: {err}", 1)
    return 0


def _interactive(args, session: Session, problem: str | None, png_scale: int) -> int:
    if problem and session.startup_message is None:
        session.startup_message = problem
    if args.frames_dir is not None:  # record an interactive session too
        from host_tools.simulator.frames import FrameRecorder

        FrameRecorder(session.display, args.frames_dir, palette=args.palette, scale=png_scale)
    if args.window:
        from host_tools.simulator import window as sim_window

        return sim_window.run(session, palette=args.palette, scale=args.scale or 6)
    from host_tools.simulator import term as sim_term

    return sim_term.run_with_args(session, args, bell=args.bell)


if __name__ == "__main__":
    raise SystemExit(main())
