"""One match in progress is the player's, whatever they start (issue 26).

Watching and the demo never write over it; a new match of the player's moves it to a kept slot
that Previous match on the title brings back, until the next replacement; the simulator's --new
refuses, in one line naming the match, unless --replace says so.
"""

import savegame as sg
from app import App
from device.storage import FileStorage, MemFS
from gin.match import GAME_OVER, Match
from gin.rules import RuleSet
from modes import TWO_PEOPLE, VS_CPU, WATCH
from ui.screens import OVER_SCREEN, TITLE

from host_tools.hw.fake_hw import Driver, FakeHw
from host_tools.simulator import cli as simulator


def _players_match(seed=99):
    m = Match.restore(RuleSet(), seed, [(0, 0, 25, 0), (0, 1, 12, 1), (0, 0, 12, 0)], b"")
    return sg.encode_game(sg.snapshot_of(m, mode=VS_CPU, level=2))


def _title(rec, **settings):
    hw = FakeHw(start_ms=1000, files={sg.GAME_FILE: rec})
    app = App(hw)
    app.settings.update(settings)
    d = Driver(app, hw)
    d.run(200)
    return hw, app, d


def _pick(app, d, item):
    items = app.view.items(app)
    assert item in items, items
    while app.view.items(app)[app.view.sel] != item:
        d.keys("DOWN")
    d.keys("DRAW")


def test_watching_never_writes_over_the_players_match():
    rec = _players_match()
    hw, app, d = _title(rec, mode=WATCH)
    _pick(app, d, "new")  # nothing to replace: no question
    assert app.match is not None and app.mode == WATCH and app.match.seed != 99
    for _ in range(200):
        d.run(5000)
        assert hw.fs.files[sg.GAME_FILE] == rec
        if app.view.sid == OVER_SCREEN:
            break
    assert app.match.state == GAME_OVER, "the watched match ended"
    d.keys("DRAW")  # the end of the match: back to the title
    assert hw.fs.files[sg.GAME_FILE] == rec and sg.KEPT_FILE not in hw.fs.files
    app.settings["mode"] = VS_CPU
    _pick(app, d, "continue")
    assert app.match.seed == 99 and app.mode == VS_CPU


def test_a_watched_match_still_survives_a_power_cut_when_the_player_has_none():
    hw, app, d = _title(b"", mode=WATCH)
    del hw.fs.files[sg.GAME_FILE]
    app.new_game()
    d.run(8000)
    assert sg.decode_game(hw.fs.files[sg.GAME_FILE])["seed"] == app.match.seed


def test_the_demo_never_writes_a_save():
    rec = _players_match()
    hw, app, d = _title(rec)
    _pick(app, d, "demo")
    assert app.demo
    d.run(30000)
    assert hw.fs.files[sg.GAME_FILE] == rec and sg.KEPT_FILE not in hw.fs.files


def test_a_replaced_match_is_kept_and_previous_match_brings_it_back():
    rec = _players_match()
    hw, app, d = _title(rec)
    assert "previous" not in app.view.items(app)
    _pick(app, d, "new")
    assert app.view.ask == "37\u201312, hand 4"
    d.keys("DOWN DRAW")  # Yes, new game
    new_seed = app.match.seed
    assert hw.fs.files[sg.KEPT_FILE] == rec  # the old match, kept before the new one was saved
    app.quit_to_title()
    _pick(app, d, "previous")
    assert app.match.seed == 99 and app.match.score_of(0) == 37 and app.view.sid != TITLE
    assert sg.decode_game(hw.fs.files[sg.KEPT_FILE])["seed"] == new_seed  # the swap loses neither
    assert sg.decode_game(hw.fs.files[sg.GAME_FILE])["seed"] == 99


def test_the_kept_slot_holds_the_last_replaced_match_only():
    fs = MemFS()
    mgr = sg.SaveManager(FileStorage("", fs))
    seeds = []
    for seed in (11, 22, 33):
        m = Match(RuleSet(), seed)
        assert mgr.save_game(sg.snapshot_of(m, mode=TWO_PEOPLE)) > 0
        seeds.append(seed)
        m.apply(m.legal_actions()[0])
        assert mgr.save_game(sg.snapshot_of(m, mode=TWO_PEOPLE)) > 0  # the same match: nothing kept
        if len(seeds) > 1:
            assert sg.decode_game(fs.files[sg.KEPT_FILE])["seed"] == seeds[-2]
    snap, msg = sg.SaveManager(FileStorage("", fs)).load_kept()
    assert msg is None and snap["seed"] == 22


def test_a_match_is_not_replaced_when_it_cannot_be_kept():
    class NoKeeping(MemFS):
        def write(self, path, data):
            if path.startswith(sg.KEPT_FILE):
                raise OSError(28)  # the flash is full
            super().write(path, data)

    rec = _players_match()
    fs = NoKeeping({sg.GAME_FILE: rec})
    mgr = sg.SaveManager(FileStorage("", fs))
    assert mgr.save_game(sg.snapshot_of(Match(RuleSet(), 5), mode=VS_CPU)) == 0
    assert fs.files[sg.GAME_FILE] == rec and mgr.take_error() == sg.MSG_NO_FLASH


def _cli_one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
    return err[0]


def test_new_on_the_command_line_refuses_to_replace_the_match_and_names_it(tmp_path, capsys):
    rec = _players_match()
    (tmp_path / sg.GAME_FILE).write_bytes(rec)
    for extra in ([], ["--level", "expert"], ["--rules", "modern"], ["--mode", "pass"]):
        code = simulator.main(["--save-dir", str(tmp_path), "--new", "--keys", "wait:100", *extra])
        line = _cli_one_line(capsys)
        assert code != 0 and "37\u201312, hand 4" in line and "--replace" in line, (extra, line)
        assert (tmp_path / sg.GAME_FILE).read_bytes() == rec and not (tmp_path / sg.KEPT_FILE).exists()
    # Watching replaces nothing: allowed, and the match stays.
    assert (
        simulator.main(["--save-dir", str(tmp_path), "--new", "--mode", "watch", "--keys", "wait:3000"]) == 0
    )
    assert (tmp_path / sg.GAME_FILE).read_bytes() == rec
    # --replace: the new match is played, the old one kept for Previous match.
    assert simulator.main(["--save-dir", str(tmp_path), "--new", "--replace", "--keys", "wait:100"]) == 0
    assert (tmp_path / sg.KEPT_FILE).read_bytes() == rec
    assert sg.decode_game((tmp_path / sg.GAME_FILE).read_bytes())["seed"] != 99
