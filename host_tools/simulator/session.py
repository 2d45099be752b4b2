"""A simulator session: the firmware's App on simulated hardware, and the head-less script runner."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from device.buttons import SAMPLE_MS
from modes import TWO_PEOPLE
from ui.screens import TITLE

from host_tools.hw.fake_hw import FakeHw, FakeReset
from host_tools.simulator import keys as keymap
from host_tools.simulator.options import DEFAULT_SAVE_DIR, LEVEL_TITLES, MODE_TITLES


# ------------------------------------------------------------------ session
class Session:
    """The firmware App on a FakeHw, with the knobs the front ends need.

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
        link=None,
        speed: float = 1.0,
    ) -> None:
        folder = Path(save_dir) if save_dir is not None else DEFAULT_SAVE_DIR
        self.hw = FakeHw(
            start_ms=start_ms, save_dir=folder, virtual=virtual, controller=True, link=link, speed=speed
        )
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
                app.play.mode = self.overrides["mode"]
            if "level" in self.overrides:
                app.play.level = self.overrides["level"]
        if self.seed is not None:
            app.games.next_seed = self.seed  # the next match deals from it; later ones from the clock
        if new_game:
            app.new_game()
        elif "mode" in self.overrides and not resume and getattr(app.view, "sid", None) == TITLE:
            # --mode asks for that mode: the title offers New game first, not Continue
            # (which would resume the saved match in whatever mode it was played)
            app.goto(TITLE, "new")
        return app

    def step(self) -> int:
        """One app loop iteration; returns the ms it would like to sleep."""
        try:
            return self.app.step()
        except FakeReset:
            # as main.py on the device: every boot resumes the saved game
            self.app = self._boot(resume=True)
            return 0

    # ---- virtual time
    def run_for(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass, stepping the app as the device loop would.

        A real-time clock (a head-less run with a link: the other simulator lives in real time)
        sleeps for real instead, at the clock's speed.
        """
        clock = self.clock
        end = clock.now() + max(0, ms)
        if not clock.virtual:
            while True:
                sleep = self.step()
                left = end - clock.now()
                if left <= 0:
                    return
                if self.buttons.busy():
                    sleep = min(sleep, SAMPLE_MS)
                clock.sleep_ms(max(1, min(sleep, left)))
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
        text = MODE_TITLES[mode] if 0 <= mode < len(MODE_TITLES) else "?"
        if mode != TWO_PEOPLE and 0 <= level < len(LEVEL_TITLES):
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
        from host_tools.simulator.frames import FrameRecorder

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
        from host_tools.simulator.autoplay import pilot

        if self._pilot is None:
            self._pilot = pilot(self.session)
        return self._pilot

    def shot(self, name: str | None = None, path: Path | None = None) -> Path:
        from host_tools.simulator.frames import save_glass

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


def run_script(session, steps: Sequence[keymap.Step], args, log: Callable[[str], None] | None = None) -> None:
    """A head-less run, for the simulator and its --replay alike: play ``steps`` on ``session``,
    then print each picture written (the script's shots, ``--screenshot``) and the count of
    ``--frames-dir`` frames.  ``args`` holds the command line's picture options (shots_dir,
    frames_dir, screenshot, palette, scale).  OSError or ValueError: a picture can't be written.
    """
    runner = ScriptRunner(
        session,
        shots_dir=args.shots_dir or args.frames_dir,  # the command line asks for one when shots are taken
        frames_dir=args.frames_dir,
        palette=args.palette,
        scale=args.scale or 4,
        log=log,
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
