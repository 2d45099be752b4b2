"""The web page in a real browser (Debian's Chromium, head-less, driven by Selenium).

The page is built from firmware/ into a temporary folder and served on localhost.
Its canvas is read pixel by pixel and compared with the host simulator's frames
for the same seed and the same keys (the simulator's head-less mode), at the
points where the game waits for the player.  Then: a reload resumes the game
(and the title's Continue too), and a damaged save gives the firmware's one-line
message and a new game, exactly as the firmware does on the host.

A screenshot of the page is kept in build/artifacts/web-page.png.
"""

import time
from pathlib import Path

import pytest

from host_tools.web import browser
from host_tools.web.build import build_site
from host_tools.web.driving import KEY_DOWN, KEY_UP, button, key, simulate, stored, wait_for
from host_tools.web.serve import serve

ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "artifacts"
SEED = 7

# The simulator's script, with a shot where the game waits for the player.
PLAY = "wait:300 shot:title d wait:2500 shot:dealt d wait:1500 shot:drew s wait:3000 shot:after"
# A second run on the same save folder: Continue from the title, then MENU > Save and quit > Continue.
RESUME = (
    "wait:300 d wait:1500 shot:resumed m wait:300 up wait:300 d wait:800 shot:title2 d wait:1500 shot:again"
)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    why = browser.missing()
    if why:
        pytest.fail(why, pytrace=False)
    site = build_site(tmp_path_factory.mktemp("site") / "web")
    with serve(site.out, 0) as server, browser.chromium() as drv:
        yield drv, server.url


def fresh(drv, url):
    """The page with nothing stored: a first visit."""
    drv.get(url)
    drv.execute_script("localStorage.clear()")
    drv.get(url)


def test_the_page_plays_the_simulators_frames_and_resumes_after_a_reload(page, tmp_path):
    drv, url = page
    sim_dir = tmp_path / "sim"
    want = simulate(PLAY, SEED, sim_dir, tmp_path / "shots")
    fresh(drv, url + f"?seed={SEED}")
    wait_for(drv, want["title"], "the title")
    key(drv, "d")  # New game, from the keyboard
    wait_for(drv, want["dealt"], "the deal, after the computer took the upcard")
    button(drv, "DRAW").click()  # draw from the stock, with the on-screen button
    wait_for(drv, want["drew"], "the card drawn")
    key(drv, "s")  # discard it
    wait_for(drv, want["after"], "the computer's turn done")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(ARTIFACTS / "web-page.png"))
    assert (ARTIFACTS / "web-page.png").stat().st_size > 10000
    # the same save, byte for byte, in the browser's storage as in the simulator's folder
    assert stored(drv, "game.sav") == (sim_dir / "game.sav").read_bytes()

    more = simulate(RESUME, SEED, sim_dir, tmp_path / "shots2")
    drv.refresh()  # as a power cycle on the device: straight back into the game
    wait_for(drv, more["resumed"], "the game resumed after a reload")
    for k in ("m", KEY_UP, "d"):  # MENU, up to "Save and quit", choose
        key(drv, k)
        time.sleep(0.25)
    wait_for(drv, more["title2"], "the title with Continue")
    key(drv, "d")  # Continue
    wait_for(drv, more["again"], "the game continued from the title")


def test_a_damaged_save_gives_the_one_line_message_and_a_new_game(page, tmp_path):
    from savegame import MSG_LOST

    from host_tools.simulator.keys import DRAW, TAP_MS
    from host_tools.simulator.session import Session

    drv, url = page
    fresh(drv, url + f"?seed={SEED}")
    wait_for(drv, simulate("wait:300 shot:t", SEED, tmp_path / "s0", tmp_path / "p0")["t"], "the title")
    key(drv, "d")  # a new game, saved at once
    deadline = time.monotonic() + 5
    while stored(drv, "game.sav") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    good = stored(drv, "game.sav")
    assert good is not None, "the new game was not saved in the browser"
    damaged = bytearray(good)
    damaged[len(damaged) // 2] ^= 0x5A  # the CRC no longer matches
    drv.get(url + "favicon.svg")  # the game stops (it would save again), the storage stays in reach
    drv.execute_script(
        "for (const k of Object.keys(localStorage))"
        "  if (k.startsWith('gin-handheld/game.sav')) localStorage.removeItem(k);"
        "localStorage.setItem('gin-handheld/game.sav', arguments[0]);",
        damaged.hex(),
    )
    # What the firmware does with these bytes on the host, booting into the saved game as the device does.
    save_dir = tmp_path / "damaged"
    save_dir.mkdir()
    (save_dir / "game.sav").write_bytes(bytes(damaged))
    ref = Session(save_dir, virtual=True, resume=True, seed=11)
    ref.run_for(300)
    assert ref.app.msg == MSG_LOST  # the one-line message
    message_frame = ref.display.last_frame
    plain = Session(tmp_path / "empty", virtual=True)
    plain.run_for(300)
    assert message_frame != plain.display.last_frame  # ... is on the glass
    ref.buttons.press(DRAW, TAP_MS)  # the title's first row now: New game
    ref.run_for(2500)
    assert ref.app.match is not None and ref.app.view.sid == 1

    drv.get(url + "?seed=11")
    wait_for(drv, message_frame, "the damaged save's message")
    key(drv, "d")
    wait_for(drv, ref.display.last_frame, "a new game")
    assert stored(drv, "game.sav") == (save_dir / "game.sav").read_bytes()


def test_a_long_press_from_the_keyboard_and_from_a_held_button(page, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    drv, url = page
    # Stats; a long KNOCK resets them: Shift+k from the keyboard, then the on-screen button held down
    want = simulate(
        "wait:300 shot:title down*4 d wait:500 shot:stats K wait:500 shot:reset",
        SEED,
        tmp_path / "s",
        tmp_path / "p",
    )
    fresh(drv, url)
    wait_for(drv, want["title"], "the title")
    for _ in range(4):
        key(drv, KEY_DOWN)
        time.sleep(0.15)
    key(drv, "d")
    wait_for(drv, want["stats"], "the stats page")
    key(drv, "K")  # a capital letter is a long press, as in the terminal
    wait_for(drv, want["reset"], "the long press's message")
    wait_for(drv, want["stats"], "the message gone", timeout=6)
    ActionChains(drv).click_and_hold(button(drv, "KNOCK")).pause(0.9).release().perform()
    wait_for(drv, want["reset"], "the long press of the on-screen button")
