"""The same scripted session, pixel for pixel, under CPython and under MicroPython.

host_tools.hw.fake_hw.session boots the App, walks through the menus and pages,
then plays a whole match with the button bot.  Every frame handed to the
display is hashed (CRC-32); the MicroPython WebAssembly port must show the
very same frames in the very same order.
"""

import json
import shutil

from app import App

from host_tools.hw import fake_hw
from host_tools.micropython.runner import DEFAULT_PATHS, run

_MP = """
import json
from app import App
from fake_hw import session
hw, app = session(App, %d)
print(json.dumps({"crcs": hw.display.crcs, "sid": app.view.sid, "matches": app.stats.levels[1].matches}))
"""


def test_a_whole_session_draws_identical_frames_on_micropython(tmp_path):
    shutil.copy(fake_hw.__file__, tmp_path / "fake_hw.py")
    start = 4242
    hw, app = fake_hw.session(App, start)
    want = hw.display.crcs
    assert app.view.sid == 0 and app.stats.levels[1].matches == 1  # the match was played to its end
    assert len(want) > 200 and len(set(want)) > 100
    out = run(_MP % start, paths=list(DEFAULT_PATHS) + [(tmp_path, "/ht")])
    got = json.loads(out.strip().splitlines()[-1])
    assert got["sid"] == 0 and got["matches"] == 1
    assert len(got["crcs"]) == len(want)
    first_diff = next((i for i, (a, b) in enumerate(zip(got["crcs"], want)) if a != b), None)
    assert first_diff is None, "frame %d differs" % first_diff
