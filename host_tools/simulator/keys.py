"""Keys of a PC keyboard -> the handheld's buttons, for the terminal and for scripts.

Two inputs meet here:

* ``KeyDecoder`` turns the bytes a terminal sends (arrows as escape sequences,
  Shift+arrow as ``ESC [ 1 ; 2 A``, a lone Esc, control keys) into key tokens
  such as ``"up"``, ``"S-left"``, ``"d"``, ``"D"``, ``"esc"``, ``"C-c"``.
* ``parse_script`` reads the ``--script`` / ``--keys`` language: the same key
  names plus ``wait:MS``, ``hold:KEY:MS``, ``long:KEY``, ``shot[:NAME]`` and
  ``KEY*N``.

``KEYMAP`` says what each token does: press a button (short or long), or a
simulator command (help, quit, screenshot, redraw).  Terminals report no key
releases, so a press is modelled as press + release after ``TAP_MS``; a long
press is Shift (capital letter, Shift+arrow), which holds for ``LONG_HOLD_MS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from device.buttons import BUTTON_NAMES, DISCARD, DOWN, DRAW, KNOCK, LEFT, LONG_MS, MENU, RIGHT, UP

TAP_MS = 80  # long enough for the 15 ms debounce, shorter than a human double tap
LONG_HOLD_MS = LONG_MS + 100  # past the 600 ms long-press threshold
REPEAT_BRIDGE_MS = 120  # terminal auto-repeat (~30 ms apart) keeps a key held
SCRIPT_GAP_MS = 120  # pause after each scripted key: a brisk but human pace


@dataclass(frozen=True)
class Press:
    """Hold ``button`` for ``hold_ms``."""

    button: int
    hold_ms: int = TAP_MS

    @property
    def long(self) -> bool:
        return self.hold_ms >= LONG_MS


@dataclass(frozen=True)
class Command:
    """A simulator command that never reaches the app."""

    name: str  # help, quit, quit-now, screenshot, redraw, suspend


# ------------------------------------------------------------------ key map
def _button_keys() -> dict[str, Press | Command]:
    m: dict[str, Press | Command] = {}
    for name, b in (("up", UP), ("down", DOWN), ("left", LEFT), ("right", RIGHT)):
        m[name] = Press(b)
        m["S-" + name] = Press(b, LONG_HOLD_MS)
    for letters, b in (("d", DRAW), ("s ", DISCARD), ("k", KNOCK), ("m", MENU)):
        for ch in letters:
            m[ch] = Press(b)
        m[letters[0].upper()] = Press(b, LONG_HOLD_MS)
    m["space"] = Press(DISCARD)
    m["enter"] = Press(DISCARD)
    m["esc"] = Press(MENU)
    m["backspace"] = Press(MENU)
    return m


KEYMAP: dict[str, Press | Command] = _button_keys()
KEYMAP.update(
    {
        "?": Command("help"),
        "h": Command("help"),
        "H": Command("help"),
        "f1": Command("help"),
        "q": Command("quit"),
        "Q": Command("quit"),
        "C-c": Command("quit-now"),
        "C-d": Command("quit-now"),
        "p": Command("screenshot"),
        "C-l": Command("redraw"),
        "C-z": Command("suspend"),
    }
)

# The help overlay and the status line read these, so they cannot drift from KEYMAP.
HELP_LINES = (
    ("\u2190 \u2191 \u2193 \u2192", "UP DOWN LEFT RIGHT (arrow keys)"),
    ("d", "DRAW"),
    ("s  space  enter", "DISCARD"),
    ("k", "KNOCK"),
    ("m  esc", "MENU"),
    ("D S K M", "long press (Shift = hold the button 0.7 s)"),
    ("Shift+arrow", "long press of an arrow"),
    ("hold a key", "held button: auto-repeat keeps it down"),
    ("p", "save a PNG screenshot in the current folder"),
    ("? h", "this help (any key closes it)"),
    ("q", "quit (the game is saved; it resumes next time)"),
)
STATUS_LINE = (
    "\u2190\u2191\u2193\u2192 move  d draw  s discard  k knock  m menu  Shift=long  p png  ? help  q quit"
)
STATUS_LINE_ASCII = "arrows move  d draw  s discard  k knock  m menu  Shift=long  p png  ? help  q quit"


def lookup(token: str) -> Press | Command | None:
    return KEYMAP.get(token)


def describe_token(token: str) -> str:
    """How a key is named in the 'unknown key' hint."""
    if len(token) == 1 and token.isprintable():
        return repr(token)
    return token


# ------------------------------------------------------------ terminal bytes
_CSI_FINAL = {
    "A": "up",
    "B": "down",
    "C": "right",
    "D": "left",
    "H": "home",
    "F": "end",
    "P": "f1",
}
_TILDE = {"1": "home", "2": "insert", "3": "delete", "4": "end", "5": "pgup", "6": "pgdn", "11": "f1"}
_CONTROL = {
    0x03: "C-c",
    0x04: "C-d",
    0x08: "backspace",
    0x09: "tab",
    0x0A: "enter",
    0x0C: "C-l",
    0x0D: "enter",
    0x1A: "C-z",
    0x7F: "backspace",
}


def _modifier_prefix(param: str) -> str:
    """xterm modifier parameter (2 = Shift, 3 = Alt, 5 = Ctrl, ...) -> token prefix."""
    try:
        m = int(param) - 1
    except ValueError:
        return ""
    out = ""
    if m & 4:
        out += "C-"
    if m & 2:
        out += "M-"
    if m & 1:
        out += "S-"
    return out


class KeyDecoder:
    """Bytes from a terminal in raw mode -> key tokens.

    A lone Esc and the start of an escape sequence look the same until the
    next byte; ``feed`` keeps an unfinished sequence and ``flush`` (called
    when no byte followed within ``ESC_WAIT_S``) turns it into ``esc``.
    """

    ESC_WAIT_S = 0.05

    def __init__(self) -> None:
        self._pending = b""

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def flush(self) -> list[str]:
        if not self._pending:
            return []
        data, self._pending = self._pending, b""
        out = ["esc"]
        # Alt+key arrives as ESC key: report the key after the Esc.
        if len(data) > 1:
            out += self.feed(data[1:])
        return out

    def feed(self, data: bytes) -> list[str]:
        data = self._pending + data
        self._pending = b""
        out: list[str] = []
        i = 0
        n = len(data)
        while i < n:
            b = data[i]
            if b == 0x1B:
                tok, used = self._escape(data, i)
                if used == 0:  # incomplete: wait for more bytes or flush()
                    self._pending = data[i:]
                    break
                out.append(tok)
                i += used
                continue
            if b in _CONTROL:
                out.append(_CONTROL[b])
                i += 1
                continue
            if b < 0x20:
                out.append("C-" + chr(b + 0x60))
                i += 1
                continue
            # UTF-8: take the whole character so a stray 'é' is one unknown key.
            width = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            if i + width > n:
                self._pending = data[i:]
                break
            ch = data[i : i + width].decode("utf-8", "replace")
            out.append("space" if ch == " " else ch)
            i += width
        return out

    @staticmethod
    def _escape(data: bytes, i: int) -> tuple[str, int]:
        """(token, bytes used) for the sequence at data[i] == ESC; used 0 = incomplete."""
        n = len(data)
        if i + 1 >= n:
            return "", 0
        nxt = data[i + 1]
        if nxt == 0x1B:
            return "esc", 1
        if nxt not in (0x5B, 0x4F):  # not '[' or 'O': Alt+key
            return "esc", 1
        # CSI / SS3: parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E
        j = i + 2
        while j < n and 0x20 <= data[j] <= 0x3F:
            j += 1
        if j >= n:
            return "", 0
        final = chr(data[j])
        params = data[i + 2 : j].decode("ascii", "replace")
        used = j - i + 1
        if final == "~":
            parts = params.split(";")
            name = _TILDE.get(parts[0], "key-" + parts[0])
            prefix = _modifier_prefix(parts[1]) if len(parts) > 1 else ""
            return prefix + name, used
        if final in _CSI_FINAL:
            parts = params.split(";")
            prefix = _modifier_prefix(parts[1]) if len(parts) > 1 else ""
            return prefix + _CSI_FINAL[final], used
        if final == "Z":
            return "S-tab", used
        return "seq-" + params + final, used


# ------------------------------------------------------------------ scripts
@dataclass(frozen=True)
class Wait:
    ms: int


@dataclass(frozen=True)
class Shot:
    name: str | None = None


@dataclass(frozen=True)
class Auto:
    """The pilot presses the keys for the person: one move, the rest of the hand, or the match."""

    scope: str = "move"  # move, hand, match


AUTO_SCOPES = ("move", "hand", "match")

Step = Press | Wait | Shot | Command | Auto

_SCRIPT_NAMES = {
    "draw": DRAW,
    "discard": DISCARD,
    "knock": KNOCK,
    "menu": MENU,
    "ok": DISCARD,
}
for _i, _n in enumerate(BUTTON_NAMES):
    _SCRIPT_NAMES[_n.lower()] = _i


class ScriptError(ValueError):
    pass


# Limits of the script language: a typo like ``d*100000000000`` or
# ``wait:10000000000000`` is refused with a message, not run for days (or out of memory).
MAX_REPEAT = 10_000  # TOKEN*N
MAX_WAIT_MS = 3_600_000  # wait:MS and hold:KEY:MS, one hour of simulated time
MAX_STEPS = 100_000  # steps in a whole script


def _button_token(tok: str) -> Press:
    """A key or button name -> Press (capital letters and S- prefixes are long)."""
    hit = KEYMAP.get(tok)
    if isinstance(hit, Press):
        return hit
    low = tok.lower()
    if low in _SCRIPT_NAMES:
        return Press(_SCRIPT_NAMES[low])
    hit = KEYMAP.get(low)
    if isinstance(hit, Press):
        return hit
    raise ScriptError(f"unknown key {tok!r}")


def _ms(text: str, tok: str) -> int:
    if len(text) > 12:  # int() of a huge digit string is itself slow (and refused past 4,300 digits)
        raise ScriptError(f"{tok!r}: at most {MAX_WAIT_MS} ms")
    try:
        v = int(text)
    except ValueError:
        raise ScriptError(f"{tok!r}: {text!r} is not a number of milliseconds") from None
    if v < 0:
        raise ScriptError(f"{tok!r}: negative time")
    if v > MAX_WAIT_MS:
        raise ScriptError(f"{tok!r}: at most {MAX_WAIT_MS} ms (one hour) at a time")
    return v


def parse_script(text: str) -> list[Step]:
    """The script language: whitespace-separated tokens, ``#`` starts a comment.

    ``d s k m up down left right space enter esc`` (or button names ``draw``,
    ``discard``, ``knock``, ``menu``) tap a button; ``D S K M``, ``S-left``,
    ``long:right`` long-press it; ``hold:KEY:MS`` holds for MS; ``wait:MS``
    lets MS of simulated time pass; ``shot`` or ``shot:NAME`` saves the screen
    as a PNG; ``quit`` ends the script; ``TOKEN*N`` repeats a token N times;
    ``auto`` plays the person's next move with the keys (the pilot chooses
    like the computer would), ``auto:hand`` to the end of the hand,
    ``auto:match`` to the end of the match.
    """
    steps: list[Step] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        for tok in line.split():
            try:
                steps.extend(_parse_token(tok))
            except ScriptError as e:
                raise ScriptError(f"line {lineno}: {e}") from None
            if len(steps) > MAX_STEPS:
                raise ScriptError(f"line {lineno}: a script has at most {MAX_STEPS} steps")
    return steps


def _parse_token(tok: str) -> list[Step]:
    if "*" in tok:
        base, _, count = tok.rpartition("*")
        if not count.isdigit() or not base:
            raise ScriptError(f"{tok!r}: repeat as TOKEN*N")
        if len(count) > 6 or int(count) > MAX_REPEAT:
            raise ScriptError(f"{tok!r}: at most {MAX_REPEAT} repeats")
        inner = _parse_token(base)
        if len(inner) * int(count) > MAX_STEPS:
            raise ScriptError(f"{tok!r}: a script has at most {MAX_STEPS} steps")
        return inner * int(count)
    head, _, rest = tok.partition(":")
    low = head.lower()
    if low == "wait":
        return [Wait(_ms(rest, tok))]
    if low == "shot":
        return [Shot(rest or None)]
    if low == "long":
        if not rest:
            raise ScriptError(f"{tok!r}: long:KEY")
        return [Press(_button_token(rest).button, LONG_HOLD_MS)]
    if low == "hold":
        key, _, ms = rest.partition(":")
        if not key or not ms:
            raise ScriptError(f"{tok!r}: hold:KEY:MS")
        return [Press(_button_token(key).button, _ms(ms, tok))]
    if low == "quit" and not rest:
        return [Command("quit-now")]
    if low == "auto":
        scope = rest.lower() or "move"
        if scope not in AUTO_SCOPES:
            raise ScriptError(f"{tok!r}: auto, auto:hand or auto:match")
        return [Auto(scope)]
    if rest:
        raise ScriptError(f"unknown command {tok!r}")
    return [_button_token(tok)]


def step_text(step: Step) -> str:
    if isinstance(step, Press):
        name = BUTTON_NAMES[step.button]
        return name if step.hold_ms == TAP_MS else f"{name} held {step.hold_ms} ms"
    if isinstance(step, Wait):
        return f"wait {step.ms} ms"
    if isinstance(step, Shot):
        return "shot" + (":" + step.name if step.name else "")
    if isinstance(step, Auto):
        return "auto:" + step.scope
    return step.name
