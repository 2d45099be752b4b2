"""The computer players: fair play, legality under every rule set, determinism,
hints, and the arena.

Fair play is tested the strong way: the cards a player cannot see (the
opponent's hand and the stock) are re-dealt in every way consistent with what
it saw, the same public actions are replayed, and every level must decide the
same at every turn.
"""

import json

import pytest

from gin import ai
from gin import rules as gin_rules
from gin.cards import GinError, Rng, card_text, parse_card
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import (
    ARRANGE,
    BIG_GIN,
    DISCARD_PHASE,
    DRAW,
    DRAW_STOCK,
    KNOCK,
    OFFER,
    OVER,
    PASS,
    SPREAD,
    TAKE_DISCARD,
    Round,
    action_text,
)
from ui.hintwords import card_name, reason  # noqa: E402

from deal import stacked_deck
from host_tools.bench import arena, arena_core


def hint_words(obs, expert=False):
    """gin.ai.hint with its reason in the words the message line shows."""
    a, facts = ai.hint(obs, expert)
    return a, reason(a, facts)


LEVELS = ai.PLAYERS  # easy, normal, hard, expert and the baseline

RULESETS = [
    ("classic", gin_rules.RuleSet()),
    ("modern", gin_rules.RuleSet.preset_rules("modern")),
    ("10/20", gin_rules.RuleSet.preset_rules("10/20")),
    ("20/25", gin_rules.RuleSet.preset_rules("20/25")),
    ("straight", gin_rules.RuleSet(straight=True)),
    ("oklahoma", gin_rules.RuleSet(oklahoma=True, oklahoma_spade_double=True)),
    ("oklahoma+straight", gin_rules.RuleSet.preset_rules("modern", oklahoma=True, straight=True)),
    ("hollywood", gin_rules.RuleSet(hollywood=True, target=60)),
    (
        "forced+biggin+dealer",
        gin_rules.RuleSet(gin_forced=True, big_gin=True, upcard_offer=gin_rules.OFFER_DEALER_PLAYS),
    ),
    (
        "loser deals, higher tally",
        gin_rules.RuleSet(next_dealer=gin_rules.LOSER_DEALS, game_winner=gin_rules.HIGHER_TALLY),
    ),
]


def play_hand(rules, dealer, seed, players, deck=None):
    """Play one hand; return the Round (over) and the list of (player, action)."""
    rnd = Round(rules, dealer, seed, deck=deck)
    log = []
    while rnd.phase != OVER:
        p = rnd.player
        obs = rnd.observation(p)
        a = players[p].choose(obs)
        assert a in obs.legal, "%s chose %s, not legal in phase %d" % (
            players[p].level,
            action_text(a),
            obs.phase,
        )
        rnd.apply(a)
        log.append((p, a))
    return rnd, log


# --- fair play ------------------------------------------------------------------


def redeal(rules, dealer, seed, log, me, rng):
    """A deck that agrees with everything seat `me` saw in the hand `log` of
    Round(rules, dealer, seed), with every card it never saw shuffled.

    Seen by `me`: its own deal slots, the upcard, its own stock draws, and every
    card the opponent threw (those stay in their deck slots, so the opponent
    still holds each one when it throws it).  Shuffled: the opponent's other
    cards and the rest of the stock."""
    rnd = Round(rules, dealer, seed)
    deck = list(rnd.deck)
    nd = 1 - dealer
    mine = set(i for i in range(20) if (i % 2 == 0) == (me == nd))
    drawn_by_me = set()
    for p, a in log:
        if a == DRAW_STOCK and p == me:
            drawn_by_me.add(rnd.stock_pos)
        rnd.apply(a)
    opp_threw = set(rnd.threw[1 - me])
    fixed = mine | drawn_by_me | {20}
    free_pos = [i for i in range(52) if i not in fixed and deck[i] not in opp_threw]
    cards = [deck[i] for i in free_pos]
    rng.shuffle(cards)
    for i, c in zip(free_pos, cards):
        deck[i] = c
    return deck


def same_view(o1, o2):
    return (
        o1.hand == o2.hand
        and o1.pile == o2.pile
        and o1.legal == o2.legal
        and o1.opp_took == o2.opp_took
        and o1.opp_passed == o2.opp_passed
        and o1.opp_threw == o2.opp_threw
        and o1.stock_size == o2.stock_size
        and o1.opp_hand_size == o2.opp_hand_size
    )


def replay_decisions(rules, dealer, seed, deck, log, me, player):
    """Replay `log` on a Round dealt from `deck`; return me's decisions at me's turns
    (until the re-dealt hand makes an opponent action illegal, e.g. its knock)."""
    rnd = Round(rules, dealer, seed, deck=deck)
    out = []
    for p, a in log:
        if p == me:
            obs = rnd.observation(me)
            out.append((player.choose(obs), obs))
        try:
            rnd.apply(a)
        except GinError:
            break  # the opponent's re-dealt hand can't make this move (a knock): stop here
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_depend_only_on_the_observation(level):
    rules_list = [
        gin_rules.RuleSet(),
        gin_rules.RuleSet.preset_rules("modern", oklahoma=True),
        gin_rules.RuleSet(big_gin=True),
    ]
    rng = Rng(99)
    compared = 0
    hidden_changed = 0
    for k in range(30):
        rules = rules_list[k % len(rules_list)]
        dealer = k % 2
        seed = 1000 + k
        me = k // 2 % 2
        opp_level = LEVELS[k % len(LEVELS)]
        players = [None, None]
        players[me] = ai.make_player(level, 7)
        players[1 - me] = ai.make_player(opp_level, 8)
        rnd, log = play_hand(rules, dealer, seed, players)
        original = replay_decisions(rules, dealer, seed, rnd.deck, log, me, ai.make_player(level, 7))
        for _ in range(3):
            deck = redeal(rules, dealer, seed, log, me, rng)
            if deck[:20] != rnd.deck[:20]:
                hidden_changed += 1
            again = replay_decisions(rules, dealer, seed, deck, log, me, ai.make_player(level, 7))
            for (a1, o1), (a2, o2) in zip(original, again):
                assert same_view(o1, o2), "the re-deal changed what the player sees"
                assert a1 == a2, "%s decided %s, then %s after a re-deal of hidden cards" % (
                    level,
                    action_text(a1),
                    action_text(a2),
                )
                compared += 1
    assert compared > 400
    assert hidden_changed >= 80  # the opponent's hand really was different


def test_redeal_keeps_the_view_but_changes_the_hidden_cards():
    rules = gin_rules.RuleSet()
    players = [ai.make_player("hard", 1), ai.make_player("baseline", 2)]
    rnd, log = play_hand(rules, 0, 77, players)
    deck = redeal(rules, 0, 77, log, 1, Rng(3))
    r2 = Round(rules, 0, 77, deck=deck)
    assert r2.hands[1] == Round(rules, 0, 77).hands[1]  # seat 1's own cards
    assert r2.hands[0] != Round(rules, 0, 77).hands[0]  # the opponent's cards differ
    assert deck[20] == rnd.deck[20]


# --- legality --------------------------------------------------------------------


@pytest.mark.parametrize("name,rules", RULESETS, ids=[n for n, _ in RULESETS])
def test_every_level_plays_only_legal_actions(name, rules):
    pairs = [
        ("hard", "easy"),
        ("normal", "baseline"),
        ("easy", "hard"),
        ("baseline", "normal"),
        ("hard", "hard"),
        ("expert", "normal"),
        ("hard", "expert"),
    ]
    hands = 0
    for k in range(100):
        a, b = pairs[k % len(pairs)]
        players = [ai.make_player(a, k), ai.make_player(b, k + 100)]
        rnd, log = play_hand(rules, k % 2, 5000 + k, players)
        rnd.check_invariants()
        hands += 1
    assert hands == 100


def test_big_gin_is_declared_when_offered():
    rules = gin_rules.RuleSet(big_gin=True)
    # non-dealer holds 2C..9C + 9D 9H; the upcard 9S makes all 11 cards meld
    deck = stacked_deck("2C 3C 4C 5C 6C 7C 8C 9C 9D 9H", "KD QD JD KS QS JS 5H 6D 3S 4S", "9S")
    for level in LEVELS:
        rnd = Round(rules, 1, 0, deck=deck)
        p = ai.make_player(level, 1)
        assert p.choose(rnd.observation(0)) == TAKE_DISCARD
        rnd.apply(TAKE_DISCARD)
        obs = rnd.observation(0)
        assert BIG_GIN in obs.legal
        assert p.choose(obs) == BIG_GIN


def _after_first_draw(rules, deck):
    """Both pass the upcard, the non-dealer draws: its observation."""
    rnd = Round(rules, 1, 0, deck=deck)
    rnd.apply(PASS)
    rnd.apply(PASS)
    rnd.apply(DRAW_STOCK)
    return rnd.observation(0)


def test_gin_is_knocked_and_knock_limits_are_respected():
    hand = "2C 3C 4C 5D 6D 7D 9H 9S 9C KD"
    other = "QD JD QS JS 5H 6H 3S 4S 2H 8H"
    # Oklahoma with an ace upcard: gin only.  Drawing KC leaves 10 deadwood at best: no knock.
    obs = _after_first_draw(gin_rules.RuleSet(oklahoma=True), stacked_deck(hand, other, "AH", "KC"))
    assert obs.knock_limit == 0 and not [a for a in obs.legal if a >= KNOCK]
    for level in LEVELS:
        a = ai.make_player(level, 3).choose(obs)
        assert a in obs.legal and a < 52
    # Classic: drawing 5C makes 2C-5C, and throwing KD is gin.  Every level takes it.
    obs = _after_first_draw(gin_rules.RuleSet(), stacked_deck(hand, other, "AH", "5C"))
    for level in LEVELS:
        assert ai.make_player(level, 3).choose(obs) == KNOCK + 25  # KD


def test_spread_picks_the_arrangement_with_fewer_lay_offs():
    # After drawing 6S and knocking with KD: 10 deadwood either way, A-4C + 4D 4H 4S (the
    # opponent may lay off 5C) or A-3C + all four 4s (nothing to lay off).
    deck = stacked_deck("2C 3C 4C 4D 4H 4S 3S AS AC KD", "QD JD QS JS 5H 6H 8S 9S 2H 8H", "9H", "6S")
    for level in ("normal", "hard"):
        obs = _after_first_draw(gin_rules.RuleSet(), deck)
        rnd = Round(gin_rules.RuleSet(), 1, 0, deck=deck)
        for a in (PASS, PASS, DRAW_STOCK):
            rnd.apply(a)
        p = ai.make_player(level, 1)
        a = p.choose(obs)
        assert a == KNOCK + 25  # KD
        rnd.apply(a)
        obs = rnd.observation(0)
        assert obs.phase == SPREAD and len(obs.arrangements) == 2
        a = p.choose(obs)
        melds_chosen = obs.arrangements[a - ARRANGE][0]
        assert [13 * s + 3 for s in range(4)] in melds_chosen, melds_chosen


def _knock_position(opp_throw):
    """The non-dealer (seat 0) can knock with 10 (throwing KD) on its second draw,
    right after the opponent threw opp_throw."""
    deck = stacked_deck(
        "2C 3C 4C 5D 6D 7D 9H 9S 9C KD", "%s 5H 6H 8S JS 2H 8D QC JC 3S" % opp_throw, "QH", "QS 8H TH"
    )
    rnd = Round(gin_rules.RuleSet(), 1, 0, deck=deck)
    for a in (PASS, PASS, DRAW_STOCK, parse_card("QS"), DRAW_STOCK, parse_card(opp_throw), DRAW_STOCK):
        rnd.apply(a)
    obs = rnd.observation(0)
    assert KNOCK + 25 in obs.legal  # KD
    return obs


def test_hard_knocks_when_the_opponent_still_holds_high_cards():
    obs = _knock_position("KS")
    assert ai.make_player("hard", 1).choose(obs) == KNOCK + 25
    assert hint_words(obs) == (KNOCK + 25, "knock with K\u2666: 10 deadwood, no undercut risk")


def test_hard_does_not_knock_into_a_likely_undercut():
    # The opponent just threw an ace: its loose cards are low, 10 would likely be undercut.
    obs = _knock_position("AS")
    a = ai.make_player("hard", 1).choose(obs)
    assert a < 52, action_text(a)
    assert hint_words(obs)[1].endswith("knocking risks an undercut")
    # The baseline knocks as soon as it may, whatever the risk.
    assert ai.make_player("baseline", 1).choose(obs) >= KNOCK


def test_hard_knocks_at_the_end_of_the_stock_when_it_pays():
    obs = _knock_position("KS")
    obs.stock_size = 2  # a discard now would cancel the hand
    a, why = hint_words(obs)
    assert a == KNOCK + 25 and why == "knock with K\u2666: the stock is out"
    obs = _knock_position("AS")
    obs.stock_size = 2
    assert ai.make_player("hard", 1).choose(obs) < 52  # an undercut is worse than a cancelled hand


def test_match_point_reading():
    from gin.ai_hard import _match_point

    class Obs:
        rules = gin_rules.RuleSet(target=100)
        scores = (90, 40, 100)
        match_totals = None

    assert _match_point(Obs, 12, 30) == (True, False)
    assert _match_point(Obs, 5, 30) == (False, False)
    Obs.scores = (10, 85, 100)
    assert _match_point(Obs, 5, 20) == (False, True)
    # Hollywood: per open game; a closed game no longer counts
    Obs.match_totals = [(95, 20, True), (50, 90, False), (0, 0, False)]
    assert _match_point(Obs, 8, 12) == (False, True)
    Obs.match_totals = [(95, 20, True), (96, 10, False), (0, 0, False)]
    assert _match_point(Obs, 8, 12) == (True, False)


def test_opponent_model_reads_takes_and_throws():
    from gin import ai_eval as E

    # Seat 0 (non-dealer) takes the upcard 7H and throws 5S; seat 1 then looks at its danger table.
    deck = stacked_deck("5S 2C 3C 4C 9D TD JD KS KC QH", "AH 2D 3S 4D 6C 8D TC JC QS KD", "7H", "9S")
    rnd = Round(gin_rules.RuleSet(), 1, 0, deck=deck)
    rnd.apply(TAKE_DISCARD)
    rnd.apply(parse_card("5S"))
    obs = rnd.observation(1)
    model = E.Scratch()
    E.load(model, obs, True)
    flat = E.Scratch()
    E.load(flat, obs, False)
    assert model.w[parse_card("7H")] == E.KNOWN and flat.w[parse_card("7H")] == E.KNOWN
    assert model.w[parse_card("5S")] == 0  # in the pile
    # cards next to what they took are likelier in their hand, cards next to what they threw less
    assert model.w[parse_card("8H")] > flat.w[parse_card("8H")]
    assert model.w[parse_card("5D")] < flat.w[parse_card("5D")]
    # so throwing 8H (it extends 7H) is more dangerous than a card far from both
    assert E.danger(model, parse_card("8H")) > E.danger(model, parse_card("9C"))
    # weights of unseen cards add up to the opponent's unknown cards (x256, rounding aside)
    unseen = sum(model.w[c] for c in range(52) if 0 < model.w[c] < E.KNOWN)
    assert abs(unseen - 256 * model.n_unk) < 256


# --- determinism ------------------------------------------------------------------


def _match_actions(level_a, level_b, seed, rules, player_seeds=None):
    """Every action of a match of level_a (seat 0) against level_b, dealt from seed."""
    m = Match(rules, seed)
    sa, sb = player_seeds if player_seeds is not None else (seed, seed + 1)
    players = [ai.make_player(level_a, sa), ai.make_player(level_b, sb)]
    acts = []
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
            continue
        p = m.round.player
        a = players[p].choose(m.observation(p))
        acts.append(a)
        m.apply(a)
    return acts


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level):
    rules = gin_rules.RuleSet(target=50)
    assert _match_actions(level, "baseline", 3, rules) == _match_actions(level, "baseline", 3, rules)


def test_seed_changes_the_random_choices_of_easy():
    rules = gin_rules.RuleSet(target=50)
    runs = {tuple(_match_actions("easy", "baseline", 12, rules, (s, 5))) for s in range(3)}
    assert len(runs) > 1


def test_make_player_rejects_unknown_levels():
    with pytest.raises(ValueError):
        ai.make_player("grandmaster", 1)


def test_choose_refuses_when_it_is_not_the_players_turn():
    rnd = Round(gin_rules.RuleSet(), 0, 1)
    obs = rnd.observation(0)  # the dealer: the non-dealer acts first
    with pytest.raises(ValueError):
        ai.make_player("hard", 1).choose(obs)


# --- hints --------------------------------------------------------------------------


def test_hint_gives_a_legal_action_and_a_reason_for_every_phase():
    phases = set()
    # 20 dealt hands, and one where the knocker chooses among equally low spreads (SPREAD,
    # which dealt hands seldom reach)
    spread = stacked_deck("3H 4H 5H 6H 6C 6D 6S AC 2D 3C", "KC KD 2H 2S QD 4D 8C AD 9D 5C", "TC", "QH")
    for k in range(21):
        if k < 20:
            rnd = Round(gin_rules.RuleSet(), k % 2, 300 + k)
        else:
            rnd = Round(gin_rules.RuleSet(), 1, 0, deck=spread)
            for a in (PASS, PASS, DRAW_STOCK, KNOCK + parse_card("QH")):
                rnd.apply(a)
        p = ai.make_player("hard", k)
        while rnd.phase != OVER:
            obs = rnd.observation(rnd.player)
            a, why = hint_words(obs)
            assert a in obs.legal
            assert isinstance(why, str) and 4 <= len(why) <= 52, why
            if len(obs.legal) > 1:
                assert a == p.choose(obs)  # the hint is the hard player's move
            phases.add(obs.phase)
            if DISCARD_PHASE == obs.phase and a < 52:
                assert why.startswith("discard " + card_name(a) + ":"), why
                assert "deadwood" in why or "knock" in why, why
            if a == TAKE_DISCARD and len(obs.legal) > 1:
                assert why.startswith("take " + card_name(obs.pile[-1])), why
            if KNOCK <= a < KNOCK + 52:
                assert why.startswith("knock") or why.startswith("gin"), why
            if obs.phase == SPREAD:
                assert why.startswith("spread %d" % (a - ARRANGE + 1)), why
            rnd.apply(a)
    assert phases == {OFFER, DRAW, DISCARD_PHASE, SPREAD}


def test_card_names_read_like_a_person_writes_them():
    assert card_name(9 + 13) == "10\u2666"
    assert card_name(0) == "A\u2663"
    assert card_name(51) == "K\u2660"
    assert [card_name(c)[:-1] for c in range(13)] == "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    assert card_text(9) == "TC"


def test_discard_hint_names_a_dead_card_as_dead():
    # KC is the upcard and the non-dealer throws KD; the dealer holds JS: nobody can meld KS any more.
    deck = stacked_deck("KD AS 3S 5S 7C 9C TH QD 4H 5H", "JS JH JC 2C 3C 4C 9D 8H KS 6H", "KC", "TC 2D")
    rnd = Round(gin_rules.RuleSet(), 1, 0, deck=deck)
    for a in (PASS, PASS, DRAW_STOCK, 13 + 12, DRAW_STOCK):  # ... the non-dealer throws KD
        rnd.apply(a)
    obs = rnd.observation(1)
    a, why = hint_words(obs)
    assert a == 51, action_text(a)  # KS
    assert why == "discard K\u2660: keeps 25 deadwood and is dead for them"


# --- arena ------------------------------------------------------------------------


def test_arena_short_run_reports_every_field(capsys):
    rc = arena.main(
        ["--a", "normal", "--b", "baseline", "--matches", "6", "--jobs", "1", "--json", "--target", "40"]
    )
    assert rc == 0
    rep = json.loads(capsys.readouterr().out)
    for key in (
        "a_win_rate",
        "ci95",
        "a_points_per_hand",
        "b_points_per_hand",
        "gin_rate",
        "undercut_rate",
        "cancelled_rate",
        "turns_per_hand",
        "a_time_us",
        "b_time_us",
        "matches",
    ):
        assert key in rep, key
    assert rep["matches"] == 6
    assert rep["a_wins"] + rep["b_wins"] + rep["draws"] == 6
    lo, hi = rep["ci95"]
    assert 0 <= lo <= rep["a_win_rate"] <= hi <= 1
    assert rep["illegal"] == 0
    assert rep["hands"] >= 6


def test_arena_text_report_and_progress(capsys):
    arena.main(
        [
            "--a",
            "easy",
            "--b",
            "hard",
            "--matches",
            "2",
            "--jobs",
            "1",
            "--target",
            "30",
            "--variant",
            "oklahoma",
        ]
    )
    out, err = capsys.readouterr()
    assert "match win rate" in out and "95% CI" in out and "decision time (hard)" in out
    assert "Oklahoma" in out
    assert "2/2" in err  # the progress bar


def test_wilson_interval():
    lo, hi = arena.wilson(65, 100)
    assert 0.55 < lo < 0.56 and 0.73 < hi < 0.74
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_dealer_swapped_pairs_share_the_deals():
    assert arena_core.match_seed(1, 4) == arena_core.match_seed(1, 5)
    assert arena_core.match_seed(1, 4) != arena_core.match_seed(1, 6)
    rules = gin_rules.RuleSet(target=30)
    s0 = arena_core.play_match(rules, 1, 0, "hard", "baseline")
    s1 = arena_core.play_match(rules, 1, 1, "hard", "baseline")
    assert s0[0] + s0[1] + s0[2] == 1 and s1[0] + s1[1] + s1[2] == 1


def test_arena_numbers_are_the_same_under_micropython():
    rules = ("classic", ["hollywood"], 30)
    host = arena_core.play_range(arena_core.make_rules(*rules), 5, 0, 2, "hard", "easy")
    tot, ta, tb = arena.run_micropython("hard", "easy", 2, rules[0], rules[1], rules[2], 5, 1)
    assert tot == host
    assert len(ta) == host[18] and len(tb) == host[19]
    assert all(t >= 0 for t in ta)
