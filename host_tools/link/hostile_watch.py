"""The referee of the hostile runs: ``Watch`` wraps the honest App of a host_tools/link/hostile_peer.py
``Peer`` and counts what no peer may achieve (a crash, a hang, an action applied for the honest seat,
a rewound or re-ruled match, a save lost or changed, a second deal without a press).
"""

from __future__ import annotations

import host_tools  # noqa: F401  (firmware/ on sys.path)

# isort: split
from gin.match import GAME_OVER, PLAYING, Match
from link import frame, session

# --- the referee ----------------------------------------------------------------------------------

HANG_S = 5.0  # one App.step this long (wall clock; a step takes milliseconds) is a hang, even on a busy PC


class Watch:
    """Wraps the honest App and counts what no peer may achieve (``faults``), and the presses.

    seat     an action for the App's own seat applied, but not through App.act (its buttons)
    rewind   the App's match went back in position, or its rules changed
    redeal   a second secret revealed by the App without a press (Connect or Continue) in between
    save     the honest match's save gone or different from the match at the end of the run
    crash    an exception out of App.step;  hang: one App.step longer than HANG_S
    """

    KINDS = ("crash", "hang", "seat", "rewind", "redeal", "save")

    def __init__(self, peer):
        self.peer = peer
        self.faults = dict.fromkeys(self.KINDS, 0)
        self.why = []
        self.presses = 0
        self.revealed = set()  # the App's secrets on the wire since the last press
        self.local = False
        self.last = None  # (match, position, rules bytes) after the last step
        app = peer.app
        inner_act = app.act
        _watch_matches(self)

        def act(a):
            self.local = True
            try:
                return inner_act(a)
            finally:
                self.local = False

        app.act = act
        for name in ("link_start", "continue_game"):  # Connect and Continue (accepting rules is not)
            setattr(app, name, self._press(getattr(app, name)))
        port = peer.hw.link
        inner_write = port.write

        def write(data):
            body = frame.decode(bytes(data[:-1])) if len(data) > 1 else None
            if body is not None and body[0] == session.REVEAL and len(body) > 2:
                self.revealed.add(bytes(body[2:]))
                if len(self.revealed) > 1:
                    self.fault("redeal", "a second secret revealed without a press")
            return inner_write(data)

        port.write = write

    def applying(self, m, a):
        """Match.apply is about to play action a on match m (see _watch_matches)."""
        app = self.peer.app
        if m is app.match and m.state == PLAYING and m.round.player == app.seat and not self.local:
            self.fault("seat", "action %d applied for the honest seat from the other side" % a)

    def _press(self, inner):
        def pressed(*a):
            self.presses += 1
            self.revealed = set()
            return inner(*a)

        return pressed

    def fault(self, kind, why):
        self.faults[kind] += 1
        if len(self.why) < 5:
            self.why.append("%s: %s" % (kind, why))

    def after_step(self):
        m = self.peer.app.match
        if m is None:
            return
        pos = session.position(m)
        rb = m.rules.to_bytes()
        last = self.last
        if last is not None and last[0] is m and (_before(pos, last[1]) or rb != last[2]):
            self.fault("rewind", "%r -> %r" % (last[1], pos))
        self.last = (m, pos, rb)

    def check_save(self):
        """The save holds the honest match exactly as it stands (or as it stood when it stopped)."""
        if self.last is None:
            return
        m = self.last[0]
        if m.state == GAME_OVER or m.stacked:
            return
        from savegame import SaveManager

        snap, msg = SaveManager(self.peer.hw.storage).load_game()
        if snap is None:
            self.fault("save", "the honest match's save is gone (%s)" % msg)
            return
        sm = snap["match"]
        if (
            sm.seed != m.seed
            or sm.rules.to_bytes() != m.rules.to_bytes()
            or [tuple(x) for x in sm.summaries] != [tuple(x) for x in m.summaries]
            or session.position(sm) != session.position(m)
        ):
            self.fault("save", "saved %r, the match is at %r" % (session.position(sm), session.position(m)))


_watching = [None]  # the Watch whose App's match Match.apply reports to (one at a time)


def _watch_matches(w):
    """Every action any Match applies passes the current Watch first: the App's match included,
    whichever way the action came (its own buttons go through App.act, which the Watch marks)."""
    if _watching[0] is None:
        inner = Match.apply

        def apply(m, a):
            cur = _watching[0]
            if cur is not None:
                cur.applying(m, a)
            return inner(m, a)

        Match.apply = apply
    _watching[0] = w


def _before(a, b):
    return a[0] < b[0] or (a[0] == b[0] and a[1] < b[1])
