"""The title card `make deploy` puts on the board: the title menu as the firmware draws it first.

The app keeps its title's frame on the flash with what it depends on (firmware/ui/titlecard.py),
and every boot after that shows the menu before the game's code is loaded.  The first boot after
a deploy had no card and took 0.75 s to the title, not 0.32 s (emulated Pico).  So the deploy
draws that card on the host: the firmware's own App on the fake hardware with an empty flash,
whose frame is the device's byte for byte (tests/test_canvas.py holds the host's canvas and the
device's framebuf one identical).  A board with settings of its own has another key: the card
does not match, that boot draws its title as before, and the app keeps the card that does.
Sending it also replaces a card kept by an earlier firmware, whose menu may not be this one's.
"""

from __future__ import annotations

CARD_FILE = "title.card"  # firmware/ui/titlecard.py's (tests/test_deploy.py holds them equal)


def title_card(files: dict[str, bytes] | None = None) -> bytes:
    """title.card as the app keeps it once it has drawn its title on a flash holding these files
    (None: a blank flash)."""
    from app import App  # noqa: PLC0415  (the firmware, on sys.path through host_tools)

    from host_tools.hw.fake_hw import FakeHw  # noqa: PLC0415

    hw = FakeHw(files=dict(files or {}))
    App(hw, True).step()
    return hw.fs.files[CARD_FILE]
