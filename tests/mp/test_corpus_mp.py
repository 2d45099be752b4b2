"""Every save an earlier firmware wrote loads in this firmware with nothing lost.

tests/mp/corpus/ holds real files written by each firmware version that had a save format of its
own (tests/mp/corpus/README.md; host_tools/gen/savecorpus.py writes them again from git), and
corpus_expect.py what that firmware saw when it loaded them back: scores, hands, cards, settings,
counters. Here the running firmware must see the same, find the rules and levels the file didn't
know at their defaults (zero statistics), and save each again and load it back unchanged.

tests/test_next_firmware.py runs this module under "the next firmware" too (one more rule, one
more level), which is how a firmware update is checked before it happens.
"""

import binascii

import savegame as sg
from device.storage import FileStorage, MemFS
from gin.rules import FIELDS, RuleSet
from prefs import STAT_FIELDS

from corpus_expect import EXPECT

_DIR = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
CORPUS = _DIR + "/corpus"


def _read(folder, name):
    with open(CORPUS + "/" + folder + "/" + name, "rb") as f:
        return f.read()


def _fs(name, data):
    fs = MemFS()
    fs.files[name] = data
    return fs


def _hex(b):
    return binascii.hexlify(bytes(b)).decode()


def _files(kind):
    for folder in sorted(EXPECT):
        for e in EXPECT[folder]:
            if e["kind"] == kind:
                yield folder, e


def _rules_as_written(rules_bytes, expected, where):
    """Every rule the old firmware had is as it was; the others are at their defaults."""
    got = RuleSet.from_bytes(rules_bytes).as_dict()
    defaults = RuleSet(preset=expected["preset"]).as_dict()
    for name in FIELDS:
        want = expected[name] if name in expected else defaults[name]
        assert got[name] == want, (where, name, got[name], want)


def _check_game(snap, e, where):
    for k in ("mode", "level", "sort", "cursor", "seed", "aiseed"):
        assert snap[k] == e[k], (where, k, snap[k], e[k])
    assert bool(snap.get("over")) == e["over"], where
    _rules_as_written(snap["rules"], e["rules"], where)
    m = snap["match"]
    assert [list(s) for s in m.summaries] == e["summaries"], where
    assert _hex(m.round.actions) == e["actions"], where
    assert [m.score_of(0), m.score_of(1)] == e["scores"] and m.state == e["state"], where
    if e["seat"] is not None:
        assert snap["seat"] == e["seat"] and _hex(snap["prev"]) == e["prev"], where


def test_the_corpus_holds_every_kind_of_file_of_every_version():
    assert len(EXPECT) >= 5
    kinds = {}
    for folder in EXPECT:
        for e in EXPECT[folder]:
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
            assert len(_read(folder, e["file"])) > 0
    assert kinds["game"] >= 4 * len(EXPECT) and kinds["settings"] == kinds["stats"] == len(EXPECT), kinds
    assert kinds["linkstats"] >= 2, kinds
    modes = [e["mode"] for _f, e in _files("game")]
    for mode in range(4):
        assert mode in modes, mode


def test_every_game_loads_as_it_was_saved_and_saves_again():
    n = 0
    for folder, e in _files("game"):
        where = folder + "/" + e["file"]
        fs = _fs(sg.GAME_FILE, _read(folder, e["file"]))
        mgr = sg.SaveManager(FileStorage("", fs))
        snap, msg = mgr.load_game()
        assert snap is not None and msg is None, (where, msg, mgr.log)
        _check_game(snap, e, where)
        # Saved again by this firmware, it loads the same.
        assert mgr.save_game(snap) > 0 or fs.files[sg.GAME_FILE] == _read(folder, e["file"]), where
        again, msg = sg.SaveManager(FileStorage("", _fs(sg.GAME_FILE, fs.files[sg.GAME_FILE]))).load_game()
        assert again is not None and msg is None, (where, msg)
        _check_game(again, e, where + " (saved again)")
        n += 1
    assert n >= 20, n


def _check_settings(settings, e, where):
    want = e["settings"]
    for k in want:
        if k != "rules":
            assert settings[k] == want[k], (where, k, settings[k], want[k])
    _rules_as_written(settings["rules"], want["rules"], where)


def _check_stats(st, e, where):
    for lv in range(len(st.levels)):
        got = st.levels[lv].values()
        old = e["levels"][lv] if lv < len(e["levels"]) else []
        want = [old[k] if k < len(old) else 0 for k in range(len(STAT_FIELDS))]
        assert got == want, (where, lv, got, want)
    assert list(st.hand_mark) == e["hand_mark"] and st.match_mark == e["match_mark"], where


def test_every_settings_and_stats_file_loads_with_nothing_lost_and_saves_again():
    for kind, name in (("settings", sg.SETTINGS_FILE), ("stats", sg.STATS_FILE)):
        for folder, e in _files(kind):
            where = folder + "/" + e["file"]
            fs = _fs(name, _read(folder, e["file"]))
            mgr = sg.SaveManager(FileStorage("", fs))
            settings, stats, msg = mgr.load_profile()
            assert msg is None, (where, msg, mgr.log)
            check = _check_settings if kind == "settings" else _check_stats
            value = settings if kind == "settings" else stats
            check(value, e, where)
            if kind == "settings":
                mgr.save_settings(settings)
            else:
                mgr.save_stats(stats)
            assert fs.files[name][4] == sg.PROFILE_VERSION, where  # saved again in today's version
            again = sg.SaveManager(FileStorage("", _fs(name, fs.files[name]))).load_profile()
            check(again[0] if kind == "settings" else again[1], e, where + " (saved again)")


def test_every_link_stats_file_loads_with_nothing_lost():
    n = 0
    for folder, e in _files("linkstats"):
        where = folder + "/" + e["file"]
        fs = _fs(sg.LINK_STATS_FILE, _read(folder, e["file"]))
        mgr = sg.SaveManager(FileStorage("", fs))
        st = mgr.load_link_stats()
        assert st is not None, (where, mgr.log)
        _check_stats(st, e, where)
        mgr.save_link_stats(st)
        _check_stats(sg.SaveManager(FileStorage("", fs)).load_link_stats(), e, where + " (saved again)")
        n += 1
    assert n >= 2, n
