"""What link play says to the player: every line the link session can put on the glass.

Kept apart from link/session.py (the protocol) so the words are in one place to read and
change; the session imports them.
"""

MSG_WAITING = "Waiting for the other handheld\u2026"
MSG_LOST = "Link lost - reconnect, or MENU to save and quit"
MSG_LEFT = "The other player left - MENU to save and quit"
MSG_DECLINED = "The other handheld declined the rules"
MSG_CANCELLED = "The other handheld cancelled"
MSG_REPLAY = "Old move replayed: refused"
MSG_REVEAL = "Deal refused: the other's value does not match its commitment"
MSG_COMMIT_CHANGED = "Deal refused: the other changed its commitment"
MSG_LEFT_DEAL = "The other handheld left during the deal - MENU, then Connect for a new deal"
MSG_DEAL_LOST = "Link lost during the deal - reconnect, or MENU to cancel"
MSG_OTHER_MATCH = "The other handheld has another match - MENU to save and quit"
MSG_OTHER_NEW = "The other handheld wants a new match"
MSG_OTHER_RESUMES = "The other handheld is resuming a match: Continue it there"
MSG_FAR = "The other handheld is %d %s %s: it can't continue this match"
MSG_NOT_ITS_TURN = "it is not the other's turn"
MSG_SAME_SEAT = "Both handhelds hold the same seat"
MSG_CATCHING_UP = "Catching up\u2026"
MSG_DEALING = "Dealing\u2026"
MSG_RULES_SENT = "Rules sent: waiting for an answer\u2026"
MSG_MOVE_REFUSED = "The other handheld's move was refused: "  # + the engine's reason
MSG_REFUSED = "The other handheld refused: "  # + its reason
MSG_REVEAL_EARLY = "Deal refused: a reveal before its commitment"
MSG_PROTOCOL = "Link protocol %d there, %d here: update both"


def far_text(n, unit, where):
    """'The other handheld is 31 moves behind: ...' (unit 'move' or 'hand', where 'behind' or 'ahead')."""
    return MSG_FAR % (n, unit if n == 1 else unit + "s", where)


def firmware_text(there, here):
    """'Firmware 0.2.0 there, 0.1.0 here: update both'."""
    return "Firmware %s there, %s here: update both" % (version_text(there), version_text(here))


def version_text(v):
    """'0.1.0': a firmware version as a refusal says it."""
    return "%d.%d.%d" % (v[0], v[1], v[2])
