"""The deployed files on the emulated Pico (host_tools/pico): the short run of `make pico`.

Skipped where ../shared/pico is absent (a user's clone: the emulator and the official firmware
image live beside the repository in CI, not in it).  About three minutes: boot (a blank board as make
deploy leaves it, then with the title kept), a game against hard, a crash with the heap full, and two handhelds on a link cable to their first moves.
"""

import pytest

from host_tools.pico import check
from host_tools.pico import emulator as emu

try:
    emu.shared_pico()
    HERE = None
except emu.NoPico as e:
    HERE = str(e)

pytestmark = pytest.mark.skipif(HERE is not None, reason=HERE or "")


@pytest.fixture(scope="module")
def work():
    return emu.setup(log=lambda *a: None)


def _run(work, name):
    sc = next(s for s in check.scenarios(True, 1) if s.name == name)
    figs = check.run_scenario(sc, work / "fs", budget=False)
    return sc, figs


def test_boot_play_and_the_heap_on_the_stock_firmware(work):
    _sc, (boot,) = _run(work, "boot")  # a blank board after make deploy: the card it drew
    assert not boot.problems and boot.boot_ms, boot.problems
    _sc, (kept,) = _run(work, "boot-kept")  # every boot after: the title the app kept last time
    assert not kept.problems and kept.boot_ms, kept.problems
    # the card on the glass before the app is up (without one: 0.75-0.8 s), and the app's first
    # frame the same picture: the title's last change is the card's
    assert boot.boot_ms <= check.MAX_BOOT_MS and kept.boot_ms <= check.MAX_BOOT_MS, (
        boot.boot_ms,
        kept.boot_ms,
    )
    _sc, (game,) = _run(work, "hard")
    assert not game.problems, game.problems
    assert game.samples and game.min_free() > 0 and game.min_block() > 0
    assert game.decisions, "the computer never moved"
    assert game.presses, "no press changed the glass"


def test_the_crash_path_logs_and_restarts_with_the_heap_full(work):
    _sc, (f,) = _run(work, "crash")
    assert not f.problems, f.problems
    assert "MemoryError: probe: the heap is full" in f.crash_log
    assert f.reboots >= 1


def test_two_handhelds_start_a_link_match_and_play(work):
    _sc, figs = _run(work, "link")
    for f in figs:
        assert not f.problems, (f.name, f.problems)
