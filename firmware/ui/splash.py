"""The title, on the glass before the game's code is loaded (issue 13: boot faster).

main.py shows this right after the hardware is up and before it imports the
app, the rules core, the computer players and the screens (tens of KB of
code that take a moment to load on the Pico).  It needs only the canvas, the
fonts and the drawing helpers; the title menu, drawn by the app once it is
up, has the same bar at the top, so the screen fills in instead of changing.
"""

from ui.canvas import Canvas
from ui.draw import center, title_bar
from ui.font import SMALL


def title_frame(resuming):
    c = Canvas()
    title_bar(c)
    center(c, "Back to your game\u2026" if resuming else "Loading\u2026", 30, SMALL)
    return c


def show_title(display, resuming=False):
    """Put the title on the glass; never raises (a missing display is the app's business)."""
    try:
        display.show(title_frame(resuming).buf)
    except Exception:  # noqa: BLE001 - the boot goes on whatever the display does
        pass
