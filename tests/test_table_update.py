"""The table's partial redraw (issue 13): every frame it makes equals a full redraw of the same state."""

from __future__ import annotations

from ui.canvas import Canvas


def full_frame(app, now):
    c = Canvas()
    c.fill(0)
    app.view.draw(app, c, now)
    if app.view.msg_y >= 0:
        app.message_line(c, app.view.msg_y, now)
    return bytes(c.buf)


def test_partial_frames_equal_full_redraws(tmp_path, monkeypatch):
    from app import App
    from ui import table

    from host_tools.simulator import keys as keymap
    from host_tools.simulator.session import ScriptRunner, Session

    used = []
    real_update = table.Table.update

    def update(self, app, c, now):
        done = real_update(self, app, c, now)
        used.append(done)
        return done

    monkeypatch.setattr(table.Table, "update", update)
    checked = []
    real_draw = App.draw

    def draw(self, now):
        n = len(used)
        real_draw(self, now)
        if len(used) > n and used[-1]:
            assert bytes(self.canvas.buf) == full_frame(self, now), (len(checked), self.view)
            checked.append(now)

    monkeypatch.setattr(App, "draw", draw)
    s = Session(tmp_path, seed=11)
    script = (
        "d s right*4 left*2 auto right*3 up right*2 down wait:500 right left wait:4000 "
        "auto right*6 left*6 auto:hand wait:3000 d "
        "right*3 auto right*2 up left*5 auto right auto:hand"
    )
    ScriptRunner(s).run(keymap.parse_script(script))
    assert len(checked) >= 30, len(checked)
    assert False in used  # something else than the cursor changed too, and a full frame followed
