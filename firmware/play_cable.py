"""The other handheld's player, over the link cable: the seat that link play adds.

Loaded only in link play (and dropped when the match ends).  It owns the link
session (link/session.py) and gives the App its news through one channel,
``poll``: a list of ``(kind, arg)`` in the order things happened:

    ("moved", outcome)     the other's move was played here (play.Play.apply's outcome)
    ("rules", rule_bytes)  the other proposes these rules: accept() or decline()
    ("start", (rules, seed, seat))  the deal is agreed: build the match, play as ``seat``
    ("note", text)         something to tell the player once
    ("up", None), ("lost", None)   the link came back / went away (the standing line says more)
    ("status", text)       the link's standing line (None: nothing to say any more)
    ("stop", text)         the link match can't go on: show why, keep the save
"""

from link.session import LinkPlay

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


PLAYING = const(0)  # gin.match's
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

    # --- what the App asks ---------------------------------------------------------------------

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
