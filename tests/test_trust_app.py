"""Nothing replaces or loses the player's game without the player saying so (the app on fake hardware)."""

import savegame as sg
from app import SOUND_ERROR, TITLE, App
from device.storage import FileStorage, MemFS
from gin.match import Match
from gin.rules import RuleSet
from modes import WATCH

from host_tools.hw.fake_hw import AutoPlayer, Driver, FakeHw


def _title_with_save(snap_match, **hw_kw):
    rec = sg.encode_game(sg.snapshot_of(snap_match))
    hw = FakeHw(start_ms=1000, files={sg.GAME_FILE: rec}, **hw_kw)
    app = App(hw)
    d = Driver(app, hw)
    d.run(200)
    return hw, app, d, rec


def test_new_game_asks_before_replacing_the_match_and_no_is_the_default():
    m = Match.restore(RuleSet(), 99, [(0, 0, 25, 0), (0, 1, 12, 1), (0, 0, 12, 0)], b"")
    assert (m.score_of(0), m.score_of(1)) == (37, 12)
    hw, app, d, rec = _title_with_save(m)
    assert app.view.items(app)[:2] == ["continue", "new"]
    d.keys("DOWN DRAW")  # New game
    assert app.view.sid == TITLE and app.match is None, "nothing replaced yet"
    assert app.view.ask == "37\u201312, hand 4"
    assert app.view.rows(app)[app.view.sel] == "No, keep it"
    d.keys("DRAW")  # the default answer
    assert app.match is None and hw.fs.files[sg.GAME_FILE] == rec
    assert app.view.ask is None and app.view.items(app)[app.view.sel] == "new"
    d.keys("DRAW MENU")  # asked again; MENU backs out too
    assert app.match is None and hw.fs.files[sg.GAME_FILE] == rec
    d.keys("DRAW DOWN DRAW")  # Yes
    assert app.match is not None and app.match.seed != 99
    assert sg.decode_game(hw.fs.files[sg.GAME_FILE])["seed"] == app.match.seed


def test_new_game_without_a_saved_match_just_deals():
    hw = FakeHw(start_ms=1000)
    app = App(hw)
    d = Driver(app, hw)
    d.run(200)
    d.keys("DRAW")
    assert app.match is not None


def _errors(hw):
    """Error beeps played so far (a tone is (frequency, ms), with the time before it on some hw)."""
    return sum(1 for t in hw.sound.tones if tuple(t[-2:]) == tuple(SOUND_ERROR))


class FullFlash(MemFS):
    """A flash that refuses every write (ENOSPC) while ``full``; crash.log aside with spare_log."""

    def __init__(self, spare_log=False):
        super().__init__()
        self.full = True
        self.spare_log = spare_log

    def write(self, path, data):
        if self.full and not (self.spare_log and path.startswith("crash")):
            raise OSError(28)
        super().write(path, data)


def _on_a_full_flash(spare_log=False):
    """(hw, app, driver): an App booted on a FullFlash, at its title."""
    hw = FakeHw(start_ms=1000)
    hw.fs = FullFlash(spare_log)
    hw.storage = FileStorage("", hw.fs)
    app = App(hw)
    d = Driver(app, hw)
    d.run(200)
    return hw, app, d


def test_the_flash_full_message_is_said_once_until_a_save_succeeds():
    hw, app, d = _on_a_full_flash(spare_log=True)
    app.settings["mode"] = WATCH  # the computers play, a save after every move
    app.new_game()
    d.run(20000)
    moves = len(app.match.round.actions) + 10 * len(app.match.summaries)
    assert moves > 10
    assert _errors(hw) == 1  # not once per move
    hw.fs.full = False
    d.run(3000)  # a save succeeds ...
    hw.fs.full = True
    d.run(3000)  # ... so the next failure is news again
    assert _errors(hw) == 2


def test_failed_settings_and_stats_saves_are_reported():
    hw, app, d = _on_a_full_flash()
    d.keys("DOWN RIGHT")  # Play: vs CPU -> 2 people (a setting)
    assert app.msg == sg.MSG_NO_FLASH and app.msg_err
    app.msg = None
    hw.fs.full = False
    d.keys("RIGHT")  # another setting, saved this time
    assert app.msg is None
    hw.fs.full = True
    app.stats.record_hand(0, (2, 0, 25, 0))
    app.saves.save_stats(app.stats)
    app.report_save_error()
    assert app.msg == sg.MSG_NO_FLASH


def test_a_setting_is_saved_when_it_changes_not_only_when_the_menu_is_left():
    hw = FakeHw(start_ms=1000)
    app = App(hw)
    d = Driver(app, hw)
    d.run(200)
    d.keys("DOWN " * app.view.items(app).index("settings") + "DRAW")
    assert app.view.sid == 8
    d.keys("DOWN DOWN DOWN RIGHT")  # Sound: off, still in the menu
    saved = sg.SaveManager(FileStorage("", MemFS(dict(hw.fs.files)))).load_profile()[0]
    assert saved["sound"] is False
    d.keys("MENU")
    d.keys("UP " * (app.view.items(app).index("settings") - app.view.items(app).index("rules")) + "DRAW")
    assert app.view.sid == 7
    d.keys("DOWN RIGHT")  # Target 100 -> 125, still in the menu
    saved = sg.SaveManager(FileStorage("", MemFS(dict(hw.fs.files)))).load_profile()[0]
    assert RuleSet.from_bytes(saved["rules"]).target == 125


def test_a_finished_match_that_fails_to_delete_does_not_come_back():
    class Sticky(MemFS):
        def remove(self, path):
            raise OSError(28)  # littlefs can refuse a removal when the flash is full

    hw = FakeHw(start_ms=1000)
    hw.fs = Sticky()
    hw.storage = FileStorage("", hw.fs)
    app = App(hw)
    app.settings["rules"] = RuleSet(target=1).to_bytes()  # the first hand won ends the match
    d = Driver(app, hw)
    d.run(200)
    app.new_game()
    AutoPlayer(d).play_match()
    assert app.view.sid == TITLE and app.match is None
    assert "continue" not in app.view.items(app)
    hw2 = FakeHw(start_ms=99999)  # the next power-on, over the same flash
    hw2.fs = hw.fs
    hw2.storage = FileStorage("", hw.fs)
    app2 = App(hw2, True)
    assert app2.match is None and "continue" not in app2.view.items(app2)


def test_new_game_never_turns_a_damaged_save_into_the_backup():
    good = sg.encode_game(sg.snapshot_of(Match(RuleSet(), 5)))
    damaged = good[:20] + bytes([good[20] ^ 0xFF]) + good[21:]
    fs = MemFS({sg.GAME_FILE: damaged, sg.GAME_FILE + ".bak": good})
    mgr = sg.SaveManager(FileStorage("", fs))  # nothing loaded this session: straight to a new game
    assert mgr.save_game(sg.snapshot_of(Match(RuleSet(), 6))) > 0
    assert fs.files[sg.GAME_FILE + ".bak"] == good
    # and through the title: the damaged file is reported, then replaced, the good backup kept
    hw = FakeHw(start_ms=1000, files={sg.GAME_FILE: damaged, sg.GAME_FILE + ".bak": good})
    app = App(hw)
    d = Driver(app, hw)
    d.run(200)
    d.keys("DOWN DRAW")
    assert app.view.ask == "0\u20130, hand 1"  # the backup's match is the one at stake
    d.keys("DOWN DRAW")
    assert hw.fs.files[sg.GAME_FILE + ".bak"] == good
