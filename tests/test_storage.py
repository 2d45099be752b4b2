"""device/storage.py: atomic replace with a backup, on a real folder and under power cuts at every point."""

import os

import pytest

from device.storage import FileStorage, MemFS, OsFS

from flakyfs import FlakyFS, PowerCut, count_ops

OLD = b"old contents " * 9
NEW = b"the new contents " * 11


def test_folder_round_trip_and_backup(tmp_path):
    st = FileStorage(str(tmp_path / "saves"))
    assert st.read("game.sav") is None
    assert st.read_backup("game.sav") is None
    assert st.write_atomic("game.sav", OLD) == len(OLD)
    assert st.read("game.sav") == OLD
    assert st.read_backup("game.sav") is None
    st.write_atomic("game.sav", NEW)
    assert st.read("game.sav") == NEW
    assert st.read_backup("game.sav") == OLD
    assert sorted(os.listdir(tmp_path / "saves")) == ["game.sav", "game.sav.bak"]
    assert st.bytes_written == len(OLD) + len(NEW) and st.writes == 2


def test_folder_is_created_nested_and_reused(tmp_path):
    root = tmp_path / "a" / "b"
    FileStorage(str(root)).write_atomic("x", b"1")
    assert (root / "x").read_bytes() == b"1"
    st = FileStorage(str(root) + "/")  # a trailing slash names the same folder
    assert st.read("x") == b"1"


def test_remove_forgets_every_copy(tmp_path):
    st = FileStorage(str(tmp_path))
    st.write_atomic("g", OLD)
    st.write_atomic("g", NEW)
    (tmp_path / "g.tmp").write_bytes(b"stale")
    st.remove("g")
    assert os.listdir(tmp_path) == []
    st.remove("g")  # removing what is gone is fine
    assert st.read("g") is None and st.read_backup("g") is None and st.read_temp("g") is None


def test_keep_false_discards_instead_of_backing_up():
    fs = MemFS()
    st = FileStorage("", fs)
    st.write_atomic("g", OLD)
    st.write_atomic("g", NEW)
    st.write_atomic("g", b"third", keep=False)
    assert st.read("g") == b"third"
    assert st.read_backup("g") == OLD  # the good backup survived


def test_flash_root_paths():
    fs = MemFS()
    FileStorage("/", fs).write_atomic("game.sav", b"x")
    FileStorage("", fs).write_atomic("s.sav", b"y")
    assert sorted(fs.files) == ["/game.sav", "s.sav"]


def test_os_fs_errors_are_oserrors(tmp_path):
    fs = OsFS()
    with pytest.raises(OSError):
        fs.read(str(tmp_path / "missing"))
    with pytest.raises(OSError):
        fs.rename(str(tmp_path / "missing"), str(tmp_path / "other"))
    with pytest.raises(OSError):
        fs.remove(str(tmp_path / "missing"))
    assert not fs.exists(str(tmp_path / "missing"))


def test_memfs_matches_os_fs_semantics(tmp_path):
    for fs, root in ((MemFS(), "r"), (OsFS(), str(tmp_path))):
        st = FileStorage(root, fs)
        st.write_atomic("a", b"1")
        st.write_atomic("a", b"2")
        assert (st.read("a"), st.read_backup("a")) == (b"2", b"1")
        with pytest.raises(OSError):
            fs.rename(root + "/nope", root + "/a")
        assert st.read("a") == b"2"


def test_flash_error_leaves_old_copy():
    class FullFS(MemFS):
        def write(self, path, data):
            raise OSError(28)  # ENOSPC

    fs = FullFS()
    MemFS.write(fs, "g", OLD)
    with pytest.raises(OSError):
        FileStorage("", fs).write_atomic("g", NEW)
    assert fs.files == {"g": OLD}


def _states_after_cut(prepare, **flaky):
    """Run write_atomic('g', NEW) on a fresh fs prepared by ``prepare`` with a power cut; return its files."""
    base = MemFS()
    prepare(FileStorage("", base))
    fs = FlakyFS(base, **flaky)
    with pytest.raises(PowerCut):
        FileStorage("", fs).write_atomic("g", NEW)
    return base.files


def _check_after_cut(files, had_old):
    # The file itself is only ever replaced by a rename: old, new, or missing.
    main = files.get("g")
    assert main in ((OLD, NEW, None) if had_old else (NEW, None))
    if main is None:
        # missing only between the two renames: then both complete copies exist
        if had_old:
            assert files.get("g.bak") == OLD and files.get("g.tmp") == NEW
        else:
            assert "g.bak" not in files
    # whatever loads (file, temp copy if complete, backup) is old or new, never garbage
    for name in ("g", "g.tmp", "g.bak"):
        if name in files and name != "g.tmp":
            assert files[name] in (OLD, NEW)


@pytest.mark.parametrize("history", [0, 1, 2])
def test_power_cut_at_every_operation(history):
    def prepare(st):
        for _i in range(history):
            st.write_atomic("g", OLD)

    def save(fs):
        FileStorage("", fs).write_atomic("g", NEW)

    ops, nbytes = count_ops(lambda: _prepared(prepare), save)
    assert ops >= (3 if history else 2)
    for n in range(1, ops + 1):
        for torn in ("truncate", "garble"):
            files = _states_after_cut(prepare, fail_op=n, torn=torn, seed=n)
            _check_after_cut(files, history > 0)


@pytest.mark.parametrize("history", [0, 2])
def test_power_cut_at_every_byte(history):
    def prepare(st):
        for _i in range(history):
            st.write_atomic("g", OLD)

    for n in range(1, len(NEW) + 1):
        for torn in ("truncate", "garble"):
            files = _states_after_cut(prepare, fail_byte=n, torn=torn, seed=n)
            _check_after_cut(files, history > 0)
            assert len(files["g.tmp"]) == (n - 1 if torn == "truncate" else len(NEW))


def _prepared(prepare):
    base = MemFS()
    prepare(FileStorage("", base))
    return base


def test_power_cut_during_remove_never_revives_an_older_copy():
    for n in range(1, 4):
        base = MemFS()
        st = FileStorage("", base)
        st.write_atomic("g", OLD)
        st.write_atomic("g", NEW)
        base.files["g.tmp"] = b"stale"
        with pytest.raises(PowerCut):
            FileStorage("", FlakyFS(base, fail_op=n)).remove("g")
        left = set(base.files)
        assert "g" in left  # the current file goes last
        assert base.files["g"] == NEW


def test_real_folder_power_cut(tmp_path):
    # The same sweep through OsFS on a real folder: the rename order holds on a PC too.
    for n in range(1, 4):
        root = tmp_path / ("r%d" % n)
        st = FileStorage(str(root))
        st.write_atomic("g", OLD)
        st.write_atomic("g", OLD)
        with pytest.raises(PowerCut):
            FileStorage(str(root), FlakyFS(OsFS(), fail_op=n)).write_atomic("g", NEW)
        files = {p.name: p.read_bytes() for p in root.iterdir()}
        _check_after_cut(files, True)


def test_rename_over_a_file_works_where_the_fs_refuses_it(tmp_path, monkeypatch):
    import device.storage as storage

    def fat_rename(old, new):
        if os.path.exists(new):
            raise OSError(17, "EEXIST")  # what MicroPython's FAT driver says
        os.rename(old, new)

    monkeypatch.setattr(storage, "_replace", fat_rename)
    st = FileStorage(str(tmp_path))
    for data in (OLD, NEW, b"third"):
        st.write_atomic("g", data)
    assert (st.read("g"), st.read_backup("g")) == (b"third", NEW)
    with pytest.raises(OSError):
        OsFS().rename(str(tmp_path / "missing"), str(tmp_path / "g"))
