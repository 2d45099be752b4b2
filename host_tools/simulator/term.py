"""The simulator's terminal front end: the glass in half blocks (or braille), keys as buttons.

No curses: termios raw mode, ``select`` on stdin, ANSI escapes.  The terminal
is put back (mode, cursor, main screen, colours) in a ``finally`` and on
SIGTERM/SIGHUP; Ctrl-Z suspends cleanly.  Works over SSH and inside tmux.

Two sizes, chosen from the terminal's size unless ``--size`` says:

* full: one character per pixel column, half blocks stack two pixel rows
  (128 x 32 characters; needs 130 x 36): the panel's real 2:1 aspect;
* compact: braille, 2 x 4 pixels per character (64 x 16; fits 80 x 24),
  the same aspect at half the size.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import textwrap
import time
import traceback
from collections.abc import Iterator
from typing import TextIO

from host_tools.hw.oled_view import TERMINAL_BG, dimmed, palette, render_text
from host_tools.hw.ssd1306_model import Glass
from host_tools.simulator import keys as keymap

FULL_COLS, FULL_ROWS = 130, 36  # bordered panel 130 x 34, status and message lines
COMPACT_COLS, COMPACT_ROWS = 66, 21
MESSAGE_S = 3.5
BORDER_RGB = (90, 96, 110)
TEXT_RGB = (170, 176, 190)
HINT_RGB = (255, 200, 90)

ENTER_SCREEN = "\x1b[?1049h\x1b[?25l\x1b[2J\x1b[H"
LEAVE_SCREEN = "\x1b[0m\x1b[?25h\x1b[?1049l"


# ------------------------------------------------------------------ terminal
@contextlib.contextmanager
def raw_terminal(fd: int, out: TextIO) -> Iterator[None]:
    """Raw keys, alternate screen, hidden cursor; everything put back however we leave."""
    saved = termios.tcgetattr(fd)

    def enter() -> None:
        mode = termios.tcgetattr(fd)
        mode[0] &= ~(termios.IXON | termios.ICRNL | termios.INLCR | termios.ISTRIP | termios.BRKINT)
        mode[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
        mode[6][termios.VMIN] = 1
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(fd, termios.TCSAFLUSH, mode)
        out.write(ENTER_SCREEN)
        out.flush()

    def leave() -> None:
        try:
            out.write(LEAVE_SCREEN)
            out.flush()
        finally:
            termios.tcsetattr(fd, termios.TCSAFLUSH, saved)

    def on_term(signum, frame):
        raise SystemExit(128 + signum)

    old = {s: signal.signal(s, on_term) for s in (signal.SIGTERM, signal.SIGHUP)}
    enter()
    try:
        yield
    finally:
        try:
            leave()
        finally:
            for s, h in old.items():
                signal.signal(s, h)


def suspend(fd: int, out: TextIO) -> None:
    """Ctrl-Z: give the terminal back, stop, and take it again on ``fg``."""
    saved = termios.tcgetattr(fd)
    out.write(LEAVE_SCREEN)
    out.flush()
    restore = signal.signal(signal.SIGTSTP, signal.SIG_DFL)
    try:
        os.kill(os.getpid(), signal.SIGTSTP)
    finally:
        signal.signal(signal.SIGTSTP, restore)
    termios.tcsetattr(fd, termios.TCSAFLUSH, saved)
    out.write(ENTER_SCREEN)
    out.flush()


# ----------------------------------------------------------------- pictures
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def render_braille(glass: Glass, *, palette_name: str = "white", color: bool = False) -> list[str]:
    """2 x 4 pixels per braille character: 64 x 16 characters, square pixels on a 1:2 cell."""
    w, h = glass.width, glass.height
    px = glass.pixels
    pal = palette(palette_name)
    lines = []
    for row in range(h // 4):
        chars = []
        for col in range(w // 2):
            bits = 0
            for dy in range(4):
                base = (row * 4 + dy) * w + col * 2
                if px[base]:
                    bits |= _BRAILLE_BITS[dy][0]
                if px[base + 1]:
                    bits |= _BRAILLE_BITS[dy][1]
            chars.append(chr(0x2800 + bits))
        line = "".join(chars)
        if color:
            rgb = dimmed(pal.lit_colour(row * 4), glass.contrast, TERMINAL_BG)
            line = _fg(rgb) + _bg(TERMINAL_BG) + line + "\x1b[0m"
        lines.append(line)
    return lines


def _fg(rgb: tuple[int, int, int]) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m"


def _bg(rgb: tuple[int, int, int]) -> str:
    return f"\x1b[48;2;{rgb[0]};{rgb[1]};{rgb[2]}m"


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "\u2026"


# ---------------------------------------------------------------- front end
class TerminalFrontEnd:
    """Draws the session's glass and feeds it keys until quit."""

    def __init__(
        self,
        session,
        *,
        fd: int | None = None,
        out: TextIO | None = None,
        palette_name: str = "white",
        ascii: bool = False,
        size: str = "auto",
        color: bool = True,
        bell: bool = False,
    ) -> None:
        self.session = session
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.out = sys.stdout if out is None else out
        self.palette = palette_name
        self.ascii = ascii
        self.size_choice = size
        self.color = color
        self.bell = bell
        self.decoder = keymap.KeyDecoder()
        self.help = False
        self.confirm_quit = False
        self.running = True
        self.message = session.startup_message or "Press ? for the keys, q to quit."
        self.message_is_hint = bool(session.startup_message)
        self.message_until = time.monotonic() + (8 if session.startup_message else MESSAGE_S)
        self._drawn: list[str] = []
        self._dirty = True
        self._last_byte = 0.0
        self._resized = True
        self.screenshots = 0
        self.unknown_keys = 0
        if bell:
            session.hw.sound.listeners.append(self._on_tone)

    # ---- keys
    def handle_token(self, token: str) -> None:
        if self.confirm_quit:
            self.confirm_quit = False
            if token in ("y", "Y", "q", "enter"):
                self.running = False
            else:
                self.say("Still playing.")
            return
        if self.help:
            self.help = False  # any key closes the help; it is not a button press
            self._force()
            return
        action = keymap.lookup(token)
        if isinstance(action, keymap.Press):
            self.session.tap(action)
            return
        if isinstance(action, keymap.Command):
            self.command(action.name)
            return
        self.unknown_keys += 1
        self.say(f"{keymap.describe_token(token)} is not a key here: ? shows the keys", hint=True)

    def command(self, name: str) -> None:
        if name == "help":
            self.help = True
            self._force()
        elif name == "quit":
            if self.session.in_game():
                self.confirm_quit = True
                self.say(
                    "Quit? The game is saved and resumes next time.  y = quit, any other key = stay",
                    hint=True,
                )
            else:
                self.running = False
        elif name == "quit-now":
            self.running = False
        elif name == "redraw":
            self._resized = True
        elif name == "suspend":
            suspend(self.fd, self.out)
            self._resized = True
        elif name == "screenshot":
            self.screenshot()

    def screenshot(self) -> None:
        from host_tools.simulator.frames import save_glass

        n = self.screenshots + 1
        while os.path.exists(f"gin-{n:03d}.png"):
            n += 1
        name = f"gin-{n:03d}.png"
        try:
            save_glass(self.session.display.glass(), name, palette=self.palette, scale=4)
        except OSError as e:
            self.say(f"screenshot failed: {e.strerror}", hint=True)
            return
        self.screenshots = n
        self.say(f"saved {os.path.abspath(name)}")

    def say(self, text: str, hint: bool = False, seconds: float = MESSAGE_S) -> None:
        self.message = text
        self.message_is_hint = hint
        self.message_until = time.monotonic() + seconds

    def _on_tone(self, freq: int, ms: int) -> None:
        if ms >= 60:  # errors and wins, not the key clicks
            self.out.write("\a")

    def _force(self) -> None:
        self._dirty = True

    # ---- layout
    def _terminal_size(self) -> tuple[int, int]:
        try:
            sz = os.get_terminal_size(self.out.fileno())
            return sz.columns, sz.lines
        except (OSError, ValueError):
            return 80, 24

    def _style(self, cols: int, rows: int) -> str:
        if self.size_choice != "auto":
            return self.size_choice
        if cols >= FULL_COLS and rows >= FULL_ROWS:
            return "full"
        return "compact" if not self.ascii else "full"

    def screen_lines(self, cols: int, rows: int) -> list[str]:
        """The whole screen as lines (ANSI included), top to bottom."""
        style = self._style(cols, rows)
        need_c, need_r = (FULL_COLS, FULL_ROWS) if style == "full" else (COMPACT_COLS, COMPACT_ROWS)
        if cols < need_c or rows < need_r:
            text = (
                f"The terminal is {cols}x{rows}; the {style} view needs {need_c}x{need_r}. "
                "Make the window larger (or the font smaller)"
                + (", or try --size compact." if style == "full" else ".")
                + " q quits."
            )
            return textwrap.wrap(text, max(10, cols - 1))
        glass = self.session.display.glass()
        if self.help:
            inner_w = 128 if style == "full" else 64
            inner_h = 32 if style == "full" else 16
            panel = self._help_lines(inner_w, inner_h)
        elif style == "full":
            panel = render_text(
                glass, palette_name=self.palette, color=self.color, ascii=self.ascii
            ).splitlines()
        else:
            panel = render_braille(glass, palette_name=self.palette, color=self.color)
        inner_w = 128 if style == "full" else 64
        title = f" Gin Rummy \u00b7 {self.session.describe()} "
        if not glass.lit_count() and not self.help and not self.session.display.on:
            title += "\u00b7 display asleep (any key wakes) "
        h, v, tl, tr, bl, br = (
            ("-", "|", "+", "+", "+", "+")
            if self.ascii
            else ("\u2500", "\u2502", "\u250c", "\u2510", "\u2514", "\u2518")
        )
        title = _fit(title, inner_w - 2)
        top = tl + h + title + h * (inner_w - 1 - len(title)) + tr
        bottom = bl + h * inner_w + br
        b = _fg(BORDER_RGB) if self.color else ""
        r = "\x1b[0m" if self.color else ""
        lines = [b + top + r]
        lines += [b + v + r + line + b + v + r for line in panel]
        lines.append(b + bottom + r)
        status = keymap.STATUS_LINE_ASCII if self.ascii else keymap.STATUS_LINE
        width = inner_w + 2
        for part in _wrap(status, width):
            lines.append((_fg(TEXT_RGB) if self.color else "") + part + r)
        msg = self.message if time.monotonic() < self.message_until or self.confirm_quit else ""
        if msg:
            colour = (
                _fg(HINT_RGB)
                if self.color and self.message_is_hint
                else (_fg(TEXT_RGB) if self.color else "")
            )
            lines.append(colour + _fit(msg, width) + r)
        else:
            lines.append("")
        if style == "compact" and self.size_choice == "auto" and not msg:
            lines[-1] = (
                (_fg(TEXT_RGB) if self.color else "")
                + _fit(f"Small view: a {FULL_COLS}x{FULL_ROWS} window shows every pixel.", width)
                + r
            )
        pad = " " * max(0, (cols - width) // 2)
        return [pad + line for line in lines]

    def _help_lines(self, w: int, h: int) -> list[str]:
        rows = ["KEYS" + " " * (w - 4)]
        key_w = max(len(k) for k, _ in keymap.HELP_LINES) + 2
        for keys_, what in keymap.HELP_LINES:
            if self.ascii:
                keys_ = keys_.replace("\u2190 \u2191 \u2193 \u2192", "arrows")
            rows.append(_fit(keys_.ljust(key_w) + what, w))
        rows.append("")
        rows.append(_fit("The bottom line of the screen says what each button does now.", w))
        rows.append(_fit("Any key closes this help.", w))
        rows = rows[:h]
        rows += [""] * (h - len(rows))
        return [row.ljust(w) for row in rows]

    def render(self) -> None:
        cols, rows = self._terminal_size()
        if self._resized:
            self._resized = False
            self._drawn = []
            self.out.write("\x1b[2J")
        lines = self.screen_lines(cols, rows)[:rows]
        buf = []
        for i, line in enumerate(lines):
            if i < len(self._drawn) and self._drawn[i] == line:
                continue
            buf.append(f"\x1b[{i + 1};1H{line}\x1b[K")
        for i in range(len(lines), len(self._drawn)):
            buf.append(f"\x1b[{i + 1};1H\x1b[K")
        if buf:
            self.out.write("".join(buf))
            self.out.flush()
        self._drawn = lines

    # ---- loop
    def run(self) -> int:
        session = self.session
        clock = session.clock
        buttons = session.buttons
        old_winch = signal.signal(signal.SIGWINCH, self._on_winch)
        app_due = clock.now()
        shown_message = None
        try:
            while self.running and not getattr(session, "finished", False):
                now = clock.now()
                if now >= app_due or buttons.busy():
                    sleep = session.step()
                    app_due = clock.now() + max(1, sleep)
                state = (
                    session.display.version,
                    self.help,
                    self.message,
                    self.confirm_quit,
                    time.monotonic() < self.message_until,
                )
                if state != shown_message or self._dirty or self._resized:
                    self._dirty = False
                    self.render()
                    shown_message = state
                wait_ms = max(0, app_due - clock.now())
                if buttons.busy():
                    wait_ms = min(wait_ms, 5)
                timeout = min(wait_ms / 1000, 0.25)
                if self.decoder.pending:
                    timeout = min(timeout, keymap.KeyDecoder.ESC_WAIT_S)
                try:
                    ready, _, _ = select.select([self.fd], [], [], timeout)
                except InterruptedError:
                    continue
                if ready:
                    data = os.read(self.fd, 1024)
                    if not data:  # the terminal went away
                        break
                    self._last_byte = time.monotonic()
                    for tok in self.decoder.feed(data):
                        self.handle_token(tok)
                        if not self.running:
                            break
                elif (
                    self.decoder.pending
                    and time.monotonic() - self._last_byte >= keymap.KeyDecoder.ESC_WAIT_S
                ):
                    for tok in self.decoder.flush():
                        self.handle_token(tok)
        finally:
            signal.signal(signal.SIGWINCH, old_winch)
        return 0

    def _on_winch(self, signum, frame) -> None:
        self._resized = True


def _wrap(text: str, width: int) -> list[str]:
    """Split the status line at double spaces so that no key's words are cut."""
    if len(text) <= width:
        return [text]
    out, cur = [], ""
    for part in text.split("  "):
        cand = part if not cur else cur + "  " + part
        if len(cand) > width and cur:
            out.append(cur)
            cur = part
        else:
            cur = cand
    out.append(cur)
    return out


def run(
    session,
    *,
    palette: str = "white",
    ascii: bool = False,
    size: str = "auto",
    color: bool = True,
    bell: bool = False,
) -> int:
    """Play in this terminal until quit; the terminal is restored however it ends."""
    if not os.isatty(sys.stdin.fileno()) or not os.isatty(sys.stdout.fileno()):
        print("The simulator needs a terminal (for a head-less run use --script or --keys).", file=sys.stderr)
        return 2
    fe = TerminalFrontEnd(session, palette_name=palette, ascii=ascii, size=size, color=color, bell=bell)
    crashed = None
    try:
        with raw_terminal(fe.fd, fe.out):
            try:
                fe.run()
            except KeyboardInterrupt:
                pass
            except Exception:  # noqa: BLE001 - shown after the terminal is restored
                crashed = traceback.format_exc()
                session.hw.log(crashed.strip().splitlines()[-1])
            finally:
                with contextlib.suppress(Exception):
                    session.save_now()
    finally:
        if crashed:
            sys.stderr.write(crashed)
    if crashed:
        print(
            f"The simulator stopped on an error (logged in {session.hw.save_dir / 'crash.log'}).",
            file=sys.stderr,
        )
        return 1
    if session.in_game():
        print(f"Game saved in {session.hw.save_dir}; it resumes next time.")
    else:
        print("Bye.")
    return 0


def run_with_args(session, args, bell: bool) -> int:
    """``run`` with the simulator's view options (--palette, --ascii, --size, --no-color or NO_COLOR)."""
    color = not args.no_color and "NO_COLOR" not in os.environ
    return run(session, palette=args.palette, ascii=args.ascii, size=args.size, color=color, bell=bell)
