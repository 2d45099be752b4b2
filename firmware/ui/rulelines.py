"""The rules in words, one screen line each: the rules page and the link's "play these rules?".

A module of its own so that the link screen, which must fit beside a link match on the Pico,
needn't load all of ui.pages for it.
"""

from gin.rules import DEALER_NAMES, HIGHER_TALLY, OFFER_DEALER_PLAYS, PRESET_TITLES, RANDOM


def rule_lines(rs):
    """The rules screen's lines for a RuleSet (each fits the 21 columns of the normal font)."""
    lines = [
        "Preset: " + PRESET_TITLES[rs.preset],
        "Target: %d" % rs.target,
        "Knock at: %d or less" % rs.knock_limit if not rs.straight else "Knock: gin only",
        "Gin bonus: %d" % rs.gin_bonus,
        "Undercut: %d" % rs.undercut_bonus,
        ("Big gin: %d" % rs.big_gin_bonus) if rs.big_gin else "Big gin: off",
        "Box bonus: %d" % rs.box_bonus,
        "Game bonus: %d" % rs.game_bonus,
        "Shutout bonus: %d" % rs.shutout_bonus,
        "Next deal: " + DEALER_NAMES[rs.next_dealer],
    ]
    if rs.oklahoma:
        lines.append("Oklahoma: the upcard")
        lines.append("sets the knock limit")
        if rs.oklahoma_spade_double:
            lines.append("Spade upcard: x2")
    if rs.hollywood:
        lines.append("Hollywood: 3 games")
    if rs.gin_forced:
        lines.append("Gin is forced")
    if rs.upcard_offer == OFFER_DEALER_PLAYS:
        lines.append("Upcard: dealer plays")
    if rs.first_dealer == RANDOM:
        lines.append("First deal: random")
    if rs.game_winner == HIGHER_TALLY:
        lines.append("Winner: higher tally")
    return lines
