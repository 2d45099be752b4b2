"""The table's partial redraw (issue 13): every frame it makes equals a full redraw of the same state."""

from __future__ import annotations

from ui.canvas import Canvas


def full_frame(app, now):
    """The frame drawn whole, from nothing kept: no line copied back from an earlier frame."""
    from ui.draw import forget_kept

    forget_kept()
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


# --- what a cursor move costs on the wire (issue 13: at most 300 bytes for every move) -----------

MOVE_BYTES = 300


class Table:
    """A Session at the table, its moves counted in bytes on the I2C bus (the first frame after
    each press: what the player waits for)."""

    def __init__(self, tmp_path, seed, **kw):
        from host_tools.simulator.session import Session

        self.s = Session(tmp_path, seed=seed, new_game=True, **kw)
        self.app = self.s.app
        self.frames = []
        self.s.display.listeners.append(
            lambda d, f: self.frames.append((d.controller.sent, bytes(f))) if f is not None else None
        )
        self.s.run_for(300)

    def press(self, word):
        """The bytes of the first frame after the press (0: nothing was drawn)."""
        from host_tools.simulator import keys as keymap

        step = keymap.parse_script(word)[0]
        self.frames.clear()
        self.s.tap(step)
        self.s.run_for(step.hold_ms + keymap.SCRIPT_GAP_MS)
        return self.frames[0][0] if self.frames else 0

    def moves(self):
        """Every move round the hand and back (wraps included): [(bytes, frame)]."""
        n = len(self.app.match.round.cards_of(self.app.seat)) + 1
        out = []
        for word in ("right",) * n + ("left",) * n:
            self.press(word)
            assert self.frames, "a cursor move draws"
            out.append(self.frames[0])
        return out

    def my_turn(self):
        from gin.round import DRAW, OFFER

        rnd = self.app.match.round
        for _ in range(200):
            if self.app.view.sid == 1 and rnd.player == self.app.seat and rnd.phase in (OFFER, DRAW):
                return True
            self.s.run_for(100)
        return False


def test_every_cursor_move_at_the_table_sends_at_most_300_bytes(tmp_path):
    """Each state a move can be made in: 10 cards, 11 after the stock or after taking the upcard,
    sorted either way, with a refusal on the message line, and the move that clears a message."""
    from gin.round import DISCARD_PHASE, DRAW_STOCK, OFFER, PASS, TAKE_DISCARD

    seen = {}
    for seed in (7, 11, 26, 29):
        t = Table(tmp_path / str(seed), seed)
        a = t.app
        for turn in range(4):
            if not t.my_turn():
                break
            rnd = a.match.round
            seen.setdefault("10 cards", []).extend(b for b, _ in t.moves())
            t.press("k")  # knock before drawing: refused, the reason stays on the message line
            assert a.msg_err
            seen.setdefault("refusal showing", []).extend(b for b, _ in t.moves())
            a.msg = None
            take = (seed + turn) & 1 and (rnd.phase == OFFER or not rnd.stock_only)
            if not take and rnd.phase == OFFER:
                a.act(PASS)
                continue
            a.act(TAKE_DISCARD if take else DRAW_STOCK)
            t.s.run_for(200)
            assert rnd.phase == DISCARD_PHASE and rnd.player == a.seat
            seen.setdefault("taken" if take else "stock", []).extend(b for b, _ in t.moves())
            t.press("up")  # sorted the other way, and a message says so
            seen.setdefault("clearing a message", []).append(t.press("right"))
            seen.setdefault("sorted", []).extend(b for b, _ in t.moves())
            t.press("up")
            t.press("down")  # the hint: a long message
            assert a.msg is not None and a.msg.startswith("Hint")
            seen.setdefault("clearing a message", []).append(t.press("right"))
            a.act(a.hint()[0])
            t.s.run_for(300)
    assert set(seen) == {"10 cards", "refusal showing", "taken", "stock", "clearing a message", "sorted"}
    worst = {k: max(v) for k, v in seen.items()}
    assert all(w <= MOVE_BYTES for w in worst.values()), worst
    assert sum(len(v) for v in seen.values()) > 400


def test_the_legend_and_the_prompt_stay_put_while_the_cursor_moves(tmp_path):
    """Moving along 11 cards changes only the words of DISCARD and KNOCK on the legend (the
    layout keeps their room) and nothing on the prompt line: after taking the upcard too, where
    the card just taken can't be thrown."""
    from gin.round import DISCARD_PHASE, DRAW_STOCK, OFFER, PASS, TAKE_DISCARD
    from ui.draw import LEGEND_Y, legend
    from ui.table import PROMPT_Y

    legend_page = (LEGEND_Y - 1) >> 3  # the legend's rows 56..63
    prompt_rows = 0
    for y in range(PROMPT_Y, PROMPT_Y + 7):
        assert y >> 3 == PROMPT_Y >> 3
        prompt_rows |= 1 << (y & 7)

    def prompt(f):
        i = (PROMPT_Y >> 3) * 128
        return bytes(b & prompt_rows for b in f[i : i + 128])

    for seed, action in ((7, TAKE_DISCARD), (11, DRAW_STOCK), (26, TAKE_DISCARD)):
        t = Table(tmp_path / str(seed), seed)
        a = t.app
        assert t.my_turn()
        rnd = a.match.round
        if action == DRAW_STOCK and rnd.phase == OFFER:
            a.act(PASS)
            assert t.my_turn()
        a.act(action)
        t.s.run_for(200)
        assert rnd.phase == DISCARD_PHASE and (rnd.taken >= 0) == (action == TAKE_DISCARD)
        frames = [f for _, f in t.moves()]
        for f in frames:
            assert prompt(f) == prompt(frames[0]), "the prompt line changed with the cursor"
        # the columns of DISCARD's and KNOCK's words
        boxes, fits = legend(Canvas(), a.view.legend_slots(a), LEGEND_Y, a.view.legend_room(a))
        boxes = boxes[1:]
        assert fits  # no words shortened

        def others(f, boxes=boxes):
            page = bytearray(f[legend_page * 128 : legend_page * 128 + 128])
            for x0, x1 in boxes:
                page[x0 : x1 + 1] = bytes(x1 - x0 + 1)
            return bytes(page)

        words = set()
        for f in frames:
            assert others(f) == others(frames[0]), "the legend moved besides DISCARD's and KNOCK's words"
            words.add(f[legend_page * 128 : legend_page * 128 + 128])
        assert any(prompt(frames[0])) and len(words) > 2  # there is a prompt, and the words did change
