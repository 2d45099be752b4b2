"""The save code in two modules (issue 21): play needs only the writer, a read loads the reader.

savegame.py writes records; saveread.py reads and checks them, imported for a read and, on
MicroPython, let go after it (a module costs the Pico about twice its .mpy in RAM).  These hold
what that split promises, under MicroPython and CPython alike.
"""

import sys

import savegame as sg
from device.storage import FileStorage, MemFS
from gin.match import Match
from gin.rules import RuleSet
from prefs import Stats, default_settings

ON_MP = sys.implementation.name == "micropython"


class Spy:
    """In saveread's place in sys.modules: records every name savegame asks of it."""

    def __init__(self):
        self.asked = []

    def __getattr__(self, name):
        self.asked.append(name)
        raise AttributeError(name)


def _fresh():
    sys.modules.pop("saveread", None)
    return sg.SaveManager(FileStorage("", MemFS()))


def _snapshot(seed=7):
    m = Match(RuleSet(), seed)
    m.apply(m.legal_actions()[0])
    return sg.snapshot_of(m, 0, 2)


def test_writing_needs_no_reader():
    """Saving the game, settings and stats to an empty flash: the reader is never imported."""
    s = _fresh()
    spy = sys.modules["saveread"] = Spy()
    try:
        assert s.save_game(_snapshot()) > 0
        assert s.save_game(_snapshot()) == 0  # unchanged: nothing written
        assert s.save_settings(default_settings()) > 0
        assert s.save_stats(Stats()) > 0
        assert s.has_game() and not s.has_kept()
        assert s.clear_game()
    finally:
        sys.modules.pop("saveread", None)
    assert spy.asked == [], spy.asked


def test_a_read_lets_the_reader_go_on_micropython():
    """The settings and stats (every boot) need no reader; a game file loads it, and on
    MicroPython it is gone from sys.modules after the read."""
    s = _fresh()
    snap = _snapshot()
    s.save_game(snap)
    s.save_settings(default_settings())
    s.save_stats(Stats())
    t = sg.SaveManager(s.storage)
    settings, stats, msg = t.load_profile()
    assert settings == default_settings() and msg is None
    assert "saveread" not in sys.modules
    got, msg = t.load_game()
    assert msg is None and got["seed"] == snap["seed"] and got["actions"] == snap["actions"]
    assert ("saveread" in sys.modules) != ON_MP
    assert t.load_link_stats() is None


def test_the_readers_names_are_savegames():
    """Tools and tests reach the reader's names through savegame (its module __getattr__)."""
    data = sg.encode_game(_snapshot(11))
    snap = sg.decode_game(data)
    assert snap["seed"] == 11
    assert sg.rebuild(snap).seed == 11
    from savegame import unpack_actions

    assert unpack_actions(bytes([sg.TOKEN_DRAW_DISCARD + 5])) == bytes([104, 5])
    assert not hasattr(sg, "no_such_name")  # a missing name is still an AttributeError


def test_a_second_save_over_a_file_from_before_verifies_it():
    """The first save over a file this session never read verifies it through the reader (a
    damaged one is not made the backup), and the new match keeps the old one (KEPT_FILE)."""
    s = _fresh()
    s.save_game(_snapshot(3))
    t = sg.SaveManager(s.storage)
    assert t.save_game(_snapshot(4)) > 0
    assert ("saveread" in sys.modules) != ON_MP
    assert t.has_kept()
    kept, msg = t.load_kept()
    assert msg is None and kept["seed"] == 3
