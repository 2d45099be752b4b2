"""The table with buttons: the cursor, the upcard, refusals, sorting, knocking and spreading,
results, big gin, the hint, the thinking mark, the pile (the App and its screens on the fake hardware)."""

from gin import round as ground
from gin.rules import RuleSet
from ui import screens

from test_ui_golden import (
    GIN,
    LAYOFF,
    SPREAD,
    UNDERCUT,
    boot,
    card,
    drawn_from_stock,
    stacked,
    to_card,
)

# --- the table ------------------------------------------------------------------------------------


def test_the_cursor_moves_wraps_and_follows_the_drawn_card():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    order = a.view.layout(a)
    assert a.cursor == order[0]
    d.press("LEFT")
    assert a.cursor == order[-1]
    d.press("RIGHT")
    d.press("RIGHT")
    assert a.cursor == order[1]
    d.press("DRAW")  # pass
    d.run(600)
    d.press("DRAW")  # draw JH from the stock
    assert a.cursor == card("JH")


def test_holding_an_arrow_repeats():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3])
    d.press("RIGHT", hold_ms=700)
    order = a.view.layout(a)
    assert order.index(a.cursor) >= 3


def test_upcard_offer_take_and_pass_are_labelled_and_work():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    slots = a.view.legend_slots(a)
    assert slots[0] == ("DRAW", "pass") and slots[1][1].startswith("take ")
    d.press("DISCARD")
    rnd = a.match.round
    assert rnd.phase == ground.DISCARD_PHASE and card("TD") in rnd.cards_of(0)
    assert a.cursor == card("TD")


def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing():
    h, a, d = boot()
    stacked(a, *UNDERCUT[:3], stock="5H", cpu=[106])
    d.press("KNOCK")  # knock during the upcard offer
    assert a.msg_err and a.msg == "take the upcard or pass first"
    d.press("DRAW")
    d.run(600)
    d.press("DRAW")
    to_card(d, "5H")
    d.press("LEFT")
    acts = bytes(a.match.round.actions)
    d.press("KNOCK")
    assert a.msg_err and "above the knock limit" in a.msg
    assert bytes(a.match.round.actions) == acts
    assert h.sound.tones, "an error beeps"


def test_the_card_just_taken_cannot_be_thrown_back():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], cpu=[106])
    d.press("DISCARD")  # take the upcard TD
    assert a.cursor == card("TD")
    assert a.view.legend_slots(a)[1] == ("DISC", None)
    d.press("DISCARD")
    assert a.msg_err and "just taken" in a.msg


def test_action_buttons_wait_for_the_computers_turn():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[106])
    assert a.match.round.player == 1
    d.press("DRAW")
    assert a.msg_err and a.msg.startswith("Wait")


def test_sort_toggles_and_melds_stay_grouped():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3])
    by_suit = list(a.view.layout(a))
    d.press("UP")
    assert a.sort == 1
    by_rank = list(a.view.layout(a))
    assert sorted(by_suit) == sorted(by_rank) and by_suit != by_rank
    groups = a.view.groups
    melds = [g for g, m in groups if m]
    assert sorted(map(sorted, melds)) == sorted(
        map(
            sorted,
            [
                [card(x) for x in "4H 5H 6H".split()],
                [card(x) for x in "9S TS JS".split()],
                [card(x) for x in "KC KD KH".split()],
            ],
        )
    )


def test_knocking_shows_the_spread_then_the_lay_offs_one_by_one():
    h, a, d = drawn_from_stock(LAYOFF)
    to_card(d, "JH")
    d.press("KNOCK")
    assert a.view.sid == screens.RESULT
    r = a.match.round.result
    assert len(r.layoffs) >= 2
    assert a.view.k == 0
    d.run(1000)
    assert a.view.k == 1
    d.run(900 * len(r.layoffs))
    assert a.view.done
    d.press("DRAW")
    assert a.view.sid == screens.SHEET
    d.press("DRAW")
    assert a.view.sid == screens.TABLE and a.match.hand_no == 1


def test_the_knocker_picks_among_equal_arrangements_on_screen():
    h, a, d = drawn_from_stock(SPREAD)
    to_card(d, "QH")
    d.press("KNOCK")
    rnd = a.match.round
    assert rnd.phase == ground.SPREAD
    arrs = list(rnd.arrangements)
    d.press("RIGHT")
    assert "2 of" in a.view.prompt(a)
    d.press("KNOCK")
    assert rnd.result.knocker_melds == arrs[1][0]


def test_gin_and_undercut_results_say_why():
    from ui.result import why

    h, a, d = drawn_from_stock(GIN)
    to_card(d, "KD")
    d.press("KNOCK")
    r = a.match.round.result
    assert r.kind == ground.GIN and why(r) == "gin: 20+%d" % r.defender_deadwood
    h, a, d = drawn_from_stock(UNDERCUT)
    to_card(d, "KD")
    d.press("KNOCK")
    r = a.match.round.result
    assert r.kind == ground.UNDERCUT and why(r) == "undercut: 8-1+10"


def test_big_gin_is_offered_on_the_draw_button():
    h, a, d = boot()
    # taking the upcard 5S makes AS-5S, 9C-JC and three 7s: all eleven cards in melds
    stacked(a, "AS 2S 3S 4S 9C TC JC 7H 7S 7D", GIN[1], "5S", stock="KD", rules=RuleSet(big_gin=True))
    d.press("DISCARD")
    assert a.view.legend_slots(a)[0] == ("DRAW", "big gin")
    d.press("DRAW")
    assert a.match.round.result.kind == ground.BIG_GIN_WIN


def test_the_hint_moves_the_cursor_and_says_why():
    h, a, d = drawn_from_stock(LAYOFF)
    action, reason = a.hint()
    card = action if action < 52 else action - ground.KNOCK
    assert 0 <= card < 52
    d.press("DOWN")
    assert a.msg == "Hint: " + reason and not a.msg_err
    assert a.cursor == card  # the cursor is on the card the hint throws


def test_the_thinking_mark_shows_before_a_slow_move():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3], dealer=0, cpu=[106])
    a.play.seats[1].slow = True
    frames = []
    for _ in range(80):
        d.run(10)
        if a.thinking:
            frames.append(bytes(h.display.frame))
    assert frames, "no frame with the mark"
    assert a.match.round.actions, "the computer moved after the mark"


def test_the_whole_pile_can_be_seen():
    h, a, d = boot()
    stacked(a, *LAYOFF[:3], stock=LAYOFF[3] + " 2S", cpu=[106, 105, card("QS")])
    d.press("DRAW")
    d.run(600)
    d.press("DRAW")
    to_card(d, "JH")
    d.press("DISCARD")
    d.run(2000)
    d.keys("MENU DOWN DOWN DOWN DRAW")
    assert a.view.sid == screens.PILE
    d.press("DRAW")
    assert a.view.sid == screens.TABLE
