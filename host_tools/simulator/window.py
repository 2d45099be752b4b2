"""An optional graphical window for the simulator (``--window``; needs pygame).

The terminal is the main front end; this one exists because a window, unlike
a terminal, reports key releases: holding a key holds the button for exactly
as long, so long presses and auto-repeat feel like the device's.  The glass
is drawn as the PNG screenshots are (oled_view.render_image), scaled up.
"""

from __future__ import annotations

import sys

from host_tools.hw.oled_view import render_image
from host_tools.simulator import keys as keymap

BEZEL = 16
STATUS_H = 44
BG = (28, 30, 34)
TEXT = (170, 176, 190)
HINT = (255, 200, 90)

# pygame key names (pygame.key.name) -> the terminal's tokens, so KEYMAP serves both
_NAMED = {
    "up": "up",
    "down": "down",
    "left": "left",
    "right": "right",
    "escape": "esc",
    "return": "enter",
    "enter": "enter",
    "space": "space",
    "backspace": "backspace",
    "f1": "f1",
}


def token_for(key_name: str, text: str, shift: bool) -> str | None:
    """The keymap token of a key press in the window: ('up', shift) -> 'S-up', ('d', 'D') -> 'D'."""
    named = _NAMED.get(key_name)
    if named is not None:
        if shift and named in ("up", "down", "left", "right"):
            return "S-" + named
        return named
    if text and text.isprintable():
        return text
    return None


def run(session, *, palette: str = "white", scale: int = 6) -> int:
    try:
        import pygame
    except ImportError:
        print(
            "The window needs pygame (.venv/bin/pip install pygame); without --window the game plays in the terminal.",
            file=sys.stderr,
        )
        return 2
    pygame.display.init()  # not pygame.init(): no audio device is wanted
    pygame.font.init()
    w, h = 128 * scale + 2 * BEZEL, 64 * scale + 2 * BEZEL + STATUS_H
    screen = pygame.display.set_mode((w, h))
    pygame.display.set_caption("Gin Rummy \u00b7 simulator")
    font = pygame.font.Font(None, 22)
    clock = session.clock
    held: dict[int, int] = {}  # pygame key -> button held down
    message = session.startup_message or "Keys: arrows, d draw, s discard, k knock, m menu, ? help, q quit"
    hint = bool(session.startup_message)
    confirm = False
    show_help = False
    shown = None
    app_due = clock.now()
    running = True
    try:
        while running:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    running = False
                elif ev.type == pygame.KEYDOWN:
                    tok = token_for(pygame.key.name(ev.key), ev.unicode, bool(ev.mod & pygame.KMOD_SHIFT))
                    if tok is None:
                        continue
                    if confirm:
                        confirm = False
                        running = tok not in ("y", "Y", "q", "enter")
                        message, hint = "Still playing.", False
                        continue
                    if show_help:
                        show_help = False
                        shown = None
                        continue
                    action = keymap.lookup(tok)
                    if isinstance(action, keymap.Press):
                        if action.long:
                            session.tap(action)
                        elif ev.key not in held:
                            held[ev.key] = action.button
                            session.buttons.down(action.button)
                    elif isinstance(action, keymap.Command):
                        if action.name == "help":
                            show_help = True
                            shown = None
                        elif action.name == "quit" and session.in_game():
                            confirm = True
                            message, hint = "Quit? The game is saved and resumes next time. y = quit", True
                        elif action.name in ("quit", "quit-now"):
                            running = False
                    else:
                        message, hint = (
                            f"{keymap.describe_token(tok)} is not a key here: ? shows the keys",
                            True,
                        )
                elif ev.type == pygame.KEYUP and ev.key in held:
                    session.buttons.up(held.pop(ev.key))
            if clock.now() >= app_due or session.buttons.busy():
                app_due = clock.now() + max(1, session.step())
            state = (session.display.version, message, confirm, show_help)
            if state != shown:
                shown = state
                screen.fill(BG)
                if show_help:
                    y = BEZEL
                    for keys_, what in keymap.HELP_LINES:
                        screen.blit(font.render(f"{keys_:<18}{what}", True, TEXT), (BEZEL, y))
                        y += 22
                else:
                    img = render_image(session.display.glass(), scale=scale, palette_name=palette)
                    surf = pygame.image.frombuffer(img.tobytes(), img.size, "RGB")
                    screen.blit(surf, (BEZEL, BEZEL))
                y = 64 * scale + 2 * BEZEL
                screen.blit(font.render(keymap.STATUS_LINE_ASCII, True, TEXT), (BEZEL, y))
                screen.blit(font.render(message, True, HINT if hint else TEXT), (BEZEL, y + 20))
                pygame.display.flip()
            pygame.time.wait(max(1, min(10, app_due - clock.now())))
    except KeyboardInterrupt:
        pass
    finally:
        session.save_now()
        pygame.quit()
    if session.in_game():
        print(f"Game saved in {session.hw.save_dir}; it resumes next time.")
    return 0
