"""The title kept for the next boot (firmware/ui/titlecard.py): shown at once when it is still the
title the app will draw, never when it isn't, and nothing a damaged card can do but be ignored."""

import savegame as sg
from device.storage import FileStorage, MemFS
from ui import titlecard as tc
from ui.screens import TITLE

from test_boot_guard import power_on
from test_device_glue import board as machine  # noqa: F401  (the fake `machine` fixture, by this name)

FRAME = bytes((i * 7) & 0xFF for i in range(tc.FRAME_BYTES))


class Glass:
    def __init__(self):
        self.frames = []

    def show(self, buf):
        self.frames.append(bytes(buf))
        return True


def _storage(files=None):
    return FileStorage("", MemFS(dict(files or {})))


def test_the_names_are_the_saves_own():
    import launch

    assert (tc.SETTINGS_FILE, tc.KEPT_FILE) == (sg.SETTINGS_FILE, sg.KEPT_FILE)
    assert launch.CARD_FILE == tc.CARD_FILE


def test_a_kept_title_is_shown_while_its_key_holds():
    st = _storage({tc.SETTINGS_FILE: b"settings v1"})
    assert tc.keep(st, FRAME) and not tc.keep(st, FRAME)  # the same again writes nothing
    g = Glass()
    assert tc.show(st, g) and g.frames == [FRAME]
    st.write_atomic(tc.SETTINGS_FILE, b"settings v2")  # another level, mode, rule...
    assert not tc.show(st, g) and len(g.frames) == 1
    st.write_atomic(tc.SETTINGS_FILE, b"settings v1")
    st.write_atomic(tc.KEPT_FILE, b"a kept match")  # the title now offers "Previous match"
    assert not tc.show(st, g) and len(g.frames) == 1


def test_every_damaged_card_is_ignored():
    st = _storage({tc.SETTINGS_FILE: b"s"})
    key = tc.key_of(st)
    card = tc.card_of(key, FRAME)
    assert tc.frame_of(card, key) == FRAME
    for i in range(len(card)):  # each byte flipped, in turn
        bad = bytearray(card)
        bad[i] ^= 0x41
        assert tc.frame_of(bytes(bad), key) is None, i
    for bad in (b"", card[:-1], card + b"x", b"GTC1", bytes(len(card)), None):
        assert tc.frame_of(bad, key) is None


def test_a_card_file_that_is_not_one_shows_nothing_and_raises_nothing():
    g = Glass()
    for junk in (b"\xff" * 5000, b"GTC1\x05", b"x" * (tc.MAX_CARD + 1)):
        st = _storage({tc.SETTINGS_FILE: b"s", tc.CARD_FILE: junk})
        assert not tc.show(st, g)
    huge = _storage({tc.SETTINGS_FILE: b"s" * 1000, tc.CARD_FILE: tc.card_of(b"-", FRAME)})
    assert not tc.show(huge, g) and not tc.keep(huge, FRAME)
    assert g.frames == []


def test_the_second_boot_shows_the_title_first_and_the_app_draws_the_same(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    from device import pico

    shown = []
    real_show = pico.Display.show

    def show(self, buf):
        shown.append(bytes(buf))
        return real_show(self, buf)

    monkeypatch.setattr(pico.Display, "show", show)
    power_on(machine, monkeypatch, run_ms=100)
    first = list(shown)
    assert (tmp_path / tc.CARD_FILE).exists()
    assert len(first) >= 2 and first[0] != first[-1]  # "Loading...", then the title menu
    shown.clear()
    power_on(machine, monkeypatch, run_ms=100)
    assert shown[0] == first[-1]  # the title menu itself, before the app is loaded
    assert all(f == shown[0] for f in shown)  # and the app's frames are that picture


def test_a_boot_with_a_match_in_progress_goes_to_the_table_not_the_card(machine, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    monkeypatch.chdir(tmp_path)
    from device import pico
    from gin.match import Match
    from gin.rules import RuleSet

    power_on(machine, monkeypatch, run_ms=100)  # keeps the title
    card = (tmp_path / tc.CARD_FILE).read_bytes()
    (tmp_path / sg.GAME_FILE).write_bytes(sg.encode_game(sg.snapshot_of(Match(RuleSet(), 5))))
    shown = []
    real_show = pico.Display.show
    monkeypatch.setattr(
        pico.Display, "show", lambda self, buf: shown.append(bytes(buf)) or real_show(self, buf)
    )
    power_on(machine, monkeypatch, run_ms=100)
    assert tc.frame_of(card, tc.key_of(FileStorage(str(tmp_path) + "/"))) is not None  # it still matches
    assert shown and shown[0] != tc.frame_of(
        card, card[5 : 5 + card[4]]
    )  # yet the boot said "Back to your game"


def test_a_card_that_cant_be_kept_costs_the_title_nothing():
    # a full flash, or a heap too broken up to read the old card: the title stays, nothing raises
    from app import App

    from host_tools.hw.fake_hw import FakeHw

    for trouble in (OSError(28, "no space left"), MemoryError("memory allocation failed")):
        hw = FakeHw()
        real_read = hw.storage.read

        def read(name, limit=None, trouble=trouble, real_read=real_read):
            if name == tc.CARD_FILE:
                raise trouble
            return real_read(name, limit)

        hw.storage.read = read
        app = App(hw)
        app.step()
        assert app.view.sid == TITLE and hw.display.shows == 1
        assert tc.CARD_FILE not in hw.fs.files
