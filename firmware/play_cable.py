"""Link play: the other handheld's player as a seat, and what the App does with it.

Loaded only in link play (and dropped when the match ends).  ``CableSeat`` owns
the link session (link/session.py) and gives the App its news through one
channel, ``poll`` (then ``standing``): a list of ``(kind, arg)`` in the order
things happened:

    ("moved", outcome)     the other's move was played here (play.Play.apply's outcome)
    ("rules", rule_bytes)  the other proposes these rules: accept() or decline()
    ("start", (rules, seed, seat))  the deal is agreed: build the match, play as ``seat``
    ("note", text)         something to tell the player once
    ("up", None), ("lost", None)   the link came back / went away (the standing line says more)
    ("status", text)       the link's standing line (None: nothing to say any more)
    ("stop", text)         the link match can't go on: show why, keep the save

The functions below the class are the App's side of link play (starting,
resuming, a news item, stopping), called by games.Games only in link play, so
they cost no RAM in the other modes.
"""

import gc

from link.session import LinkPlay
from modes import LINK
from ui.screens import LINK_RULES, LINK_WAIT, TEXT, TITLE

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


PLAYING = const(0)  # gin.match's
STANDING_MS = const(60000)  # the standing line: until it changes or is cleared
MSG_NOT_THEIRS = "it is not the other's turn"


class CableSeat:
    def __init__(self, port, now, rand_bytes, session=None):
        self.session = LinkPlay(port, now, rand_bytes) if session is None else session
        self._play = None
        self._news = None
        self._status = None  # the standing line last reported

    # --- the session's callback: the other's move, checked by this handheld's engine ----------

    def _remote(self, a):
        """None when the move was played, else why it is refused (nothing changed)."""
        from gin.cards import GinError

        play = self._play
        m = play.match
        if m is None or m.state != PLAYING:
            return "no hand is being played"
        if m.round.player == play.seat:  # (the session refuses it first: this is the play's own rule)
            return MSG_NOT_THEIRS
        try:
            outcome = play.apply(a)
        except GinError as e:
            return str(e)
        self._news.append(("moved", outcome))
        return None

    def _events(self, evs):
        news = self._news
        news.extend(evs)
        self._play = self._news = None
        return news

    # --- the news ------------------------------------------------------------------------------

    def poll(self, play, now):
        """Read the cable; the news since the last poll."""
        self._play = play
        self._news = []
        return self._events(self.session.poll(now, self._remote))

    def flush(self, play):
        """Play the other's moves that waited for the next hand (they may come during a result)."""
        self._play = play
        self._news = []
        return self._events(self.session.flush(self._remote))

    def standing(self, play):
        """The link's standing line while a match is on, as news: when it changes, and again
        while it stands (the App keeps it on the glass); nothing once it has been cleared."""
        if play.match is None:
            return ()
        st = self.session.status()
        was = self._status
        self._status = st
        if st is None and was is None:
            return ()
        return (("status", st),)

    def waiting(self, play):
        """Waiting for the other handheld: its answer, or its move."""
        m = play.match
        if m is None or m.state != PLAYING:
            return m is None
        return m.round.player != play.seat or not self.session.in_step()

    def prev(self, play):
        """The actions of the hand before the live one: the other may need them to catch up."""
        m = play.match
        if m.state == PLAYING and m.records and m.records[-1][1]:
            return m.records[-1][1]
        if m.state == PLAYING:
            return self.session.prev
        return b""


# --- the App's side of link play (g: the App's games.Games) --------------------------------------


def _random_bytes(hw):
    rb = getattr(hw, "random_bytes", None)  # the tests' seeded source
    if rb is not None:
        return rb
    import os

    return os.urandom


def _seat(g):
    """A cable seat on this handheld's link port, or None (said) when it has none."""
    app = g.app
    port = app.hw.link
    if port is None:
        app.say("No link port here", True)
        return None
    g.close_link()
    return CableSeat(port, app.hw.clock.ticks_ms(), _random_bytes(app.hw))


def start(g):
    """Play menu -> Link cable: wait for the other handheld (a new match)."""
    cable = _seat(g)
    if cable is None:
        return
    play = g.play
    play.match = None
    play.mode = LINK
    play.seat = 0
    g.cable = cable
    cable.session.propose(g.app.settings["rules"])
    g.app.goto(LINK_WAIT)


def resume(g, snap):
    """Continue a saved link match: paused until the other handheld is in step."""
    cable = _seat(g)
    if cable is None:
        return False
    g.play.seat = snap.get("seat", 0)
    g.cable = cable
    cable.session.resume(g.play.match, g.play.seat, snap.get("prev", b""))
    return True


def news(g, kind, arg):
    """One news item of the cable seat's besides a move (Games plays those)."""
    app = g.app
    if kind == "rules":
        app.goto(LINK_RULES, arg)
    elif kind == "start":
        _deal(g, arg)
    elif kind == "stop":
        stopped(g, arg)
    elif kind == "note" and arg is not None:
        app.say(arg, g.play.match is not None)
    elif kind == "status":
        _standing(g, arg)


def _standing(g, text):
    """The link's standing line: on the glass while it stands, gone the moment it is cleared
    (only that line: a message said since keeps its own time)."""
    app = g.app
    if text is None:
        if app.standing is not None and app.msg == app.standing:
            app.clear_msg()
        app.standing = None
        return
    if app.msg != text:
        app.say(text, not g.cable.session.up, STANDING_MS)
    else:
        app.msg_until = app.hw.clock.ticks_ms() + STANDING_MS
    app.standing = text


def _deal(g, arg):
    from gin.cards import GinError
    from gin.match import Match
    from gin.rules import RuleSet

    rule_bytes, seed, seat = arg
    try:
        rules = RuleSet.from_bytes(rule_bytes)
    except GinError as e:  # the joiner checked them before accepting: a starter's bug
        stopped(g, "Rules refused: " + str(e))
        return
    play = g.play
    play.mode = LINK
    play.seat = seat
    play.match = None
    gc.collect()
    match = Match(rules, seed)
    play.aiseed = 0
    g.cable.session.playing(match)
    play.start_match(match)
    g.show_hand()
    g.autosave()  # the deal on flash before anyone sees it


def stopped(g, text):
    """The link match can't go on: say why; the save stays as it was before the refused move."""
    app = g.app
    g.save_due = False
    play = g.play
    if play.match is not None:
        g.autosave()
    g.close_link()
    play.leave()
    app.view = None
    gc.collect()
    app.peek_save()
    play.mode = app.settings["mode"]
    from ui.link import wrap

    app.goto(TEXT, ("LINK STOPPED", wrap(text), TITLE))
