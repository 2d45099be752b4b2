"""The host tools' command line with bad input: one clear line, a non-zero exit, no traceback,
and no head-less run or replay that touches the player's saves."""

import json

import pytest

import savegame as sg
from gin.match import Match
from gin.rules import RuleSet

from host_tools.simulator import cli as simulator
from host_tools.simulator import keys as keymap
from host_tools.simulator import replay
from host_tools.simulator import session as session_mod
from host_tools.simulator.options import MODES
from host_tools.simulator.session import Session


def _one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


@pytest.fixture
def home_saves(tmp_path, monkeypatch):
    """The 'real' save folder of this test: the simulator's default, pointed into tmp_path."""
    d = tmp_path / "home-saves"
    monkeypatch.setattr(simulator, "DEFAULT_SAVE_DIR", d)
    monkeypatch.setattr(session_mod, "DEFAULT_SAVE_DIR", d)
    return d


def _player_save(folder):
    folder.mkdir(parents=True, exist_ok=True)
    m = Match(RuleSet(), 4242)
    for a in (106, 106, 104, m.round.hands[1 - m.dealer] and 0):
        if m.round.is_legal(a):
            m.apply(a)
    rec = sg.encode_game(sg.snapshot_of(m, mode=0))
    (folder / sg.GAME_FILE).write_bytes(rec)
    return rec


@pytest.mark.parametrize(
    "record",
    [
        {"seed": 3, "hands": [[106, 106]], "summaries": [{"kind": 0}]},
        {"seed": 3, "hands": [[106, 106]], "summaries": [[0, 0, "ten", 0]]},
        {"seed": 3, "hands": [[106, 106]], "summaries": [[0, 0, 0, 0]]},
        {"seed": 3, "hands": [[106, 106]], "summaries": 5},
        {"seed": 3, "hands": [[106, 106]], "names": 12},
        {"seed": 3, "hands": [[106, 106]], "names": [1, 2]},
        {"seed": 3, "hands": [[[106, 106]]]},
        {"seed": [3], "actions": [106]},
        {"seed": 3, "actions": [106], "dealer": [0]},
        {"seed": 3, "rules": {"target": 5}, "actions": []},
        {"seed": 1e300, "actions": []},
        [[[[[[[[[[[]]]]]]]]]]],
    ],
)
def test_a_replay_json_of_the_wrong_shape_is_one_line(tmp_path, capsys, home_saves, record):
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(record))
    assert simulator.main(["--replay", str(f), "--keys", "right"]) != 0
    assert "rec.json" in _one_line(capsys)
    assert replay.main([str(f)]) == 1
    _one_line(capsys)
    assert not home_saves.exists()


def test_deeply_nested_json_is_one_line(tmp_path, capsys):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100000 + "]" * 100000)
    assert replay.main([str(f)]) == 1
    _one_line(capsys)


def test_replay_never_writes_the_save_folder(tmp_path, capsys, home_saves):
    rec = _player_save(home_saves)
    before = sorted(p.name for p in home_saves.iterdir())
    (tmp_path / "copy.sav").write_bytes(rec)
    assert simulator.main(["--replay", str(tmp_path / "copy.sav"), "--keys", "right right"]) == 0
    assert simulator.main(["--replay", str(home_saves / sg.GAME_FILE), "--keys", "right"]) == 0
    assert simulator.main(["--replay", str(tmp_path / "typo.sav"), "--keys", "right"]) == 1
    assert "typo.sav" in capsys.readouterr().err
    assert sorted(p.name for p in home_saves.iterdir()) == before
    assert (home_saves / sg.GAME_FILE).read_bytes() == rec


def test_a_script_that_is_not_utf8_is_one_line(tmp_path, capsys, home_saves):
    f = tmp_path / "keys.txt"
    f.write_bytes(b"d s \xff\xfe k")
    assert simulator.main(["--script", str(f)]) == 2
    assert "UTF-8" in _one_line(capsys)


@pytest.mark.parametrize(
    "keys,word",
    [
        ("d*100000000000", "repeats"),
        ("d*10000*10000", "steps"),
        ("wait:10000000000000", "ms"),
        ("wait:" + "9" * 5000, "ms"),
        ("hold:d:99999999999", "ms"),
    ],
)
def test_absurd_repeats_and_waits_are_refused_with_the_limit(capsys, home_saves, keys, word):
    assert simulator.main(["--keys", keys]) == 2
    line = _one_line(capsys)
    assert word in line and "at most" in line
    with pytest.raises(keymap.ScriptError):
        keymap.parse_script(keys)
    assert not home_saves.exists()


def test_pictures_that_cant_be_written_are_one_line(tmp_path, capsys, home_saves):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for args in (
        ["--keys", "d", "--screenshot", str(blocker / "out.png")],
        ["--keys", "d", "--frames-dir", str(blocker / "frames")],
        ["--keys", "d", "--screenshot", str(tmp_path)],  # a folder
        ["--keys", "shot:x", "--shots-dir", str(blocker / "shots")],
    ):
        code = simulator.main(args)
        assert code != 0, args
        assert "can't write" in _one_line(capsys)
    f = tmp_path / "rec.json"
    f.write_text(json.dumps({"seed": 3, "actions": [106, 106]}))
    assert replay.main([str(f), "--export", str(blocker / "x.json")]) == 1
    assert _one_line(capsys).startswith("python -m host_tools.simulator.replay: can't write")  # its real name
    assert replay.main([str(f), "--frames-dir", str(blocker / "frames")]) == 1
    assert "can't write" in _one_line(capsys)


def test_headless_runs_use_a_fresh_save_folder_and_give_the_same_frames(tmp_path, capsys, home_saves):
    rec = _player_save(home_saves)
    shots = []
    for i in range(2):
        out = tmp_path / f"run{i}.png"
        assert simulator.main(["--seed", "7", "--keys", "s auto:hand", "--screenshot", str(out)]) == 0
        shots.append(out.read_bytes())
    assert shots[0] == shots[1]  # the README's promise: the same frames every time
    assert (home_saves / sg.GAME_FILE).read_bytes() == rec  # the player's match untouched
    assert sorted(p.name for p in home_saves.iterdir()) == [sg.GAME_FILE]
    # --save-dir still plays in a folder of the user's choice, which keeps its saves
    mine = tmp_path / "mine"
    assert (
        simulator.main(["--save-dir", str(mine), "--keys", "d", "--screenshot", str(tmp_path / "x.png")]) == 0
    )
    assert (mine / sg.GAME_FILE).exists()


def test_mode_on_the_command_line_starts_that_mode_not_continue(tmp_path, capsys):
    saves = tmp_path / "saves"
    rec = _player_save(saves)  # a vs-computer match in progress
    for mode, want in (("watch", 2), ("pass", 1)):
        s = Session(saves, virtual=True, overrides={"mode": MODES[mode]})
        assert s.app.view.items(s.app)[s.app.view.sel] == "new"
        s.run_for(200)
        s.tap(keymap.Press(keymap.DRAW))
        s.run_for(300)
        if mode == "watch":
            # Watching never writes over the player's match (issue 26): nothing to ask.
            assert s.app.match is not None and s.app.mode == want
            s.run_for(5000)
            assert (saves / sg.GAME_FILE).read_bytes() == rec
            continue
        assert s.app.view.ask is not None  # the player's match is at stake: asked first
        s.tap(keymap.Press(keymap.DOWN))
        s.run_for(200)
        s.tap(keymap.Press(keymap.DRAW))
        s.run_for(300)
        assert s.app.match is not None and s.app.mode == want
