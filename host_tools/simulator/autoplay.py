"""``auto``, ``auto:hand``, ``auto:match`` in scripts: the one auto-player (host_tools.hw.fake_hw.AutoPlayer)
pressing a Session's keys at a brisk human pace."""

from __future__ import annotations

from host_tools.hw.fake_hw import AutoPlayer
from host_tools.simulator import keys as keymap


class SessionKeys:
    """What AutoPlayer needs of a driver (``app``, ``press``, ``wait``), on a simulator Session."""

    def __init__(self, session) -> None:
        self.session = session

    @property
    def app(self):
        return self.session.app

    def press(self, button: int) -> None:
        self.session.tap(keymap.Press(button))
        self.session.run_for(keymap.TAP_MS + keymap.SCRIPT_GAP_MS)

    def wait(self, ms: int) -> None:
        self.session.run_for(ms)


def pilot(session, level: str = "normal", seed: int = 99) -> AutoPlayer:
    """An AutoPlayer that plays the person's side of ``session``."""
    return AutoPlayer(SessionKeys(session), level, seed)
