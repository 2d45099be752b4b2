"""A peer that lies: the honest handheld never crashes, never plays for its own seat, keeps its save.

Each reproduction of issue 22 is a test here (they failed on the protocol before): the scripted
peer is host_tools.link.hostile_peer.Peer, a real App on one end and a script on the other.
"""

import pytest

from gin.match import PLAYING
from gin.round import DISCARD_PHASE, KNOCK, PASS
from gin.rules import LOSER_DEALS, RuleSet
from link import channel, messages, session
from savegame import GAME_FILE, SaveManager
from ui import keys
from ui.link import wrap
from ui.screens import TEXT

from host_tools.link.hostile import SCENARIOS, run_one, tcp_ports
from host_tools.link.hostile_peer import Peer, knocker, passive
from host_tools.link.hostile_watch import Watch


def _saved(p):
    snap, _msg = SaveManager(p.hw.storage).load_game()
    return snap


def _text(p):
    return " ".join(p.app.view.lines) if p.app.view.sid == TEXT else p.app.msg


# --- the local seat belongs to the local player ----------------------------------------------------


def test_a_peer_claiming_to_be_far_behind_gets_a_count_not_a_crash():
    # Was: ValueError("link queue full") out of App.step, and the crash-proof boot then moved the
    # honest player's match to game.bad after two boots.
    p = Peer(seed=3)
    p.deal()
    assert p.play(lambda: p.index() >= 30)
    m = p.app.match
    before = session.position(m)
    p.reconnect(claim=(0, 0))
    p.run(500)
    n = before[1]
    assert p.app.match is m and session.position(m) == before
    assert p.app.msg == messages.far_text(n, "move", "behind")
    assert "%d moves behind: it can't continue this match" % n in p.app.msg
    snap = _saved(p)
    assert snap is not None and snap["match"].seed == m.seed
    assert bytes(snap["match"].round.actions) == bytes(m.round.actions)


def test_a_peer_claiming_to_be_ahead_can_not_play_for_the_local_seat():
    p = Peer(seed=5)
    p.deal()
    assert p.play(lambda: p.index() >= 6 and p.app.match.round.player == p.app.seat)
    m = p.app.match
    h, i = session.position(m)
    saved = p.hw.storage.read(GAME_FILE)
    p.reconnect(claim=(h, i + 1))  # "I am one move ahead": the App waits to catch up ...
    assert not p.app.link.in_step()
    p.send_move((h, i), m.round.legal_actions()[0])  # ... and the script plays the App's turn
    p.run(500)
    assert session.position(m) == (h, i), "a move for the local seat was applied"
    assert p.hw.storage.read(GAME_FILE) == saved
    assert "not the other's turn" in _text(p)


def _hand_won_by_the_app(seed):
    """A match (loser deals) where the App knocks and wins the first hand, its last ACK withheld."""
    rules = RuleSet(next_dealer=LOSER_DEALS, target=100)
    p = Peer(seed=seed, rules=rules)
    p.deal(bytes((seed,)) * 16)

    def knocking():
        m = p.app.match
        if m.state != PLAYING:
            return True
        if m.round.player == p.app.seat and m.round.phase == DISCARD_PHASE:
            knocks = [a for a in m.round.legal_actions() if KNOCK <= a < KNOCK + 52]
            p.withhold = bool(knocks)  # the script will not acknowledge the knock
        return False

    assert p.play(knocking, app_policy=knocker, peer_policy=passive)
    return p


def test_a_withheld_ack_at_a_hands_end_can_not_hand_the_next_first_move_to_the_peer():
    for seed in range(1, 40):
        p = _hand_won_by_the_app(seed)
        m = p.app.match
        if m.round.result.winner == p.app.seat and p.withhold:
            break
    else:
        raise AssertionError("no seed where the App knocks and wins")
    # The loser (the script) deals: the App moves first in the next hand, but its knock is
    # unacknowledged, so the App may not move yet.  The script plays that move for it.
    h = len(m.summaries)
    p.send_move((h, 0), PASS)
    p.run(300)
    for _ in range(4):
        if p.app.view.sid == TEXT or (p.app.match is not None and p.app.match.state == PLAYING):
            break
        p.press(keys.DRAW)  # deal on
    p.run(300)
    app_match = p.app.match
    if app_match is not None:
        assert session.position(app_match) == (h, 0), "a move for the local seat was applied"
    assert "not the other's turn" in _text(p)
    snap = _saved(p)
    assert snap is not None and len(snap["match"].summaries) == h
    assert snap["match"].state != PLAYING or not snap["match"].round.actions


def test_a_peer_claiming_to_be_hands_ahead_is_told_so_and_nothing_moves():
    p = Peer(seed=7)
    p.deal()
    assert p.play(lambda: p.index() >= 4)
    m = p.app.match
    before = session.position(m)
    p.reconnect(claim=(before[0] + 3, 0))
    assert p.app.msg == messages.far_text(3, "hand", "ahead")
    p.send_move(before, m.round.legal_actions()[0])  # whoever's turn: a paused match takes no move
    p.run(300)
    assert session.position(m) == before and p.app.match is m


class _PowerCut(Exception):
    pass


def test_a_move_is_on_flash_before_it_is_on_the_wire():
    # So the other never holds a move of this seat that this device lost: the reason the other
    # can never have one to send back (the guard above refuses every one).
    p = Peer(seed=11)
    p.deal()
    assert p.play(lambda: p.app.match.round.player == p.app.seat and p.app.link.in_step())
    m = p.app.match
    n = len(p.sent(session.MOVE))
    inner = p.hw.storage.write_atomic

    def cut(*a):
        raise _PowerCut()

    p.hw.storage.write_atomic = cut
    assert p.app.act(passive(m))
    try:
        p.app.step()  # the step that saves the move: the power goes inside the write
    except _PowerCut:
        pass
    else:
        raise AssertionError("the move was not saved in its own step")
    for _ in range(200):  # the script listens on; the App is off
        p.got.extend(p.chan.poll(p.clock.now()))
        p.clock.advance(2)
    assert len(p.sent(session.MOVE)) == n
    p.hw.storage.write_atomic = inner
    p.run(300)
    assert len(p.sent(session.MOVE)) == n + 1  # with the power on, the saved move goes out


def test_a_full_queue_drops_the_session_instead_of_raising():
    from link import channel

    p = Peer(seed=13)
    p.deal()
    lk = p.app.link
    p.withhold = True  # nothing the App sends is acknowledged
    for _ in range(channel.QUEUE_MAX + 5):
        lk.chan.send(session.BYE + 0x20, b"x")  # never raises
    assert lk.chan.full
    p.app.step()
    assert not lk.chan.up and not lk.chan.full


# --- a fair deal -------------------------------------------------------------------------------------


def _committed(p, secret=b"S" * 16):
    """The script holds the App's commitment and reveal, the App the script's commitment: fixed."""
    return p.commit(secret)


def test_a_peer_that_leaves_after_seeing_the_reveal_can_not_get_another_deal():
    # Was: the App went back to waiting, proposed again and dealt with a fresh secret by itself:
    # a peer walked away from thousands of deals and kept the hands it liked.
    p = Peer(seed=17)
    revealed = _committed(p)
    for k in range(3):  # it dislikes the deal: leaves, comes back fresh and asks again
        p.reconnect(fields=session_hello())
        p.chan.send(session.JOIN, b"\x00\x00")
        p.run(1000)
        p.chan.send(session.ACCEPT)
        p.chan.send(session.COMMIT, session.sha256(bytes((k,)) * 16).digest())
        p.run(1000)
    assert set(p.sent(session.REVEAL)) == {revealed}, "a second secret was revealed"
    assert p.app.match is None


def test_a_peer_that_leaves_during_the_deal_is_said_and_a_new_deal_needs_a_press():
    p = Peer(seed=17)
    revealed = _committed(p)
    p.reconnect(fields=session_hello())  # a fresh session, as after a reboot: "no match, not dealing"
    p.chan.send(session.JOIN, b"\x00\x00")
    p.run(2000)
    assert set(p.sent(session.REVEAL)) == {revealed}
    assert len(p.sent(session.RULES)) == 1 and p.app.match is None
    assert p.app.link.status() == messages.MSG_LEFT_DEAL
    assert "left during the deal" in p.app.msg
    p.press(keys.MENU)  # the player's press, then Connect: a new deal may follow
    assert p.app.link is None
    p.app.link_start()
    p.reconnect(fields=session_hello())
    assert len(p.sent(session.JOIN)) == 2  # a new setup, from the press


def session_hello():
    from host_tools.link.hostile_peer import hello

    return hello()


def test_after_a_reconnect_in_the_deal_the_same_deal_goes_on():
    p = Peer(seed=19)
    mine = b"S" * 16
    revealed = _committed(p, mine)
    p.reconnect(fields=session_hello()[:10] + bytes((session.F_DEALING, 0, 0)))  # still in the deal
    assert set(p.sent(session.REVEAL)) == {revealed}
    p.chan.send(session.COMMIT, session.sha256(mine).digest())
    p.chan.send(session.REVEAL, mine)
    p.run(500)
    assert p.app.match is not None and p.app.match.seed == session.seed_of(revealed, mine)


def test_a_second_commitment_after_the_reveal_is_refused():
    p = Peer(seed=23)
    _committed(p, b"S" * 16)
    other = b"T" * 16  # chosen after seeing the App's reveal
    p.chan.send(session.COMMIT, session.sha256(other).digest())
    p.chan.send(session.REVEAL, other)
    p.run(500)
    assert p.app.match is None and p.app.view.sid == TEXT
    assert " ".join(p.app.view.lines) == " ".join(messages.MSG_COMMIT_CHANGED.split())


def test_the_match_id_on_the_wire_is_a_hash_not_the_seed():
    p = Peer(seed=29)
    m = p.deal()
    p.got.clear()
    p.reconnect()
    (f,) = [pl for t, pl in p.got if t == channel.HELLO]
    mid = channel.u32(f, 4)
    assert mid != m.seed and mid == session.match_id(m.seed)


def test_the_older_protocol_is_refused_in_one_line():
    p = Peer(seed=31)
    p.fields = session_hello()[:0] + bytes((1,)) + session_hello()[1:]  # protocol 1
    p.app.link_start()
    p.run(1500)
    assert p.app.view.sid == TEXT and p.app.link is None
    assert p.app.view.lines == wrap("Link protocol 1 there, %d here: update both" % session.PROTOCOL)
    assert session.PROTOCOL == 2


# --- the hostile peer, seeded: every scenario, over the simulated cable and over TCP ------------------

RUNS_PER_SCENARIO = 24  # 264 runs here; `python -m host_tools.link.hostile` runs 10,000
BUDGET_MS = 15_000


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_hostile_peer_achieves_nothing(scenario):
    lies = began = 0
    for k in range(RUNS_PER_SCENARIO):
        seed = 7000 + k * len(SCENARIOS) + SCENARIOS.index(scenario)
        r = run_one(seed, scenario, budget_ms=BUDGET_MS)
        assert not any(r["faults"].values()), "seed %d (%s): %s" % (seed, scenario, r["why"])
        lies += r["lies"]
        began += r["hands"] >= 0
    assert lies >= RUNS_PER_SCENARIO  # it did lie
    assert began >= RUNS_PER_SCENARIO // 2  # and mostly in a match, where lies matter most


TCP_SCENARIOS = ("noise", "seat", "claims", "withhold", "abort", "flood", "midframe", "mixed")


@pytest.mark.parametrize("scenario", TCP_SCENARIOS)
def test_a_hostile_peer_over_tcp_achieves_nothing(scenario):
    lies = 0
    for k in range(2):
        server, client = tcp_ports()  # real sockets, on localhost only
        try:
            assert server.connected and client.connected
            seed = 9000 + 100 * k + SCENARIOS.index(scenario)
            r = run_one(seed, scenario, ports=(server, client), budget_ms=BUDGET_MS)
        finally:
            client.shutdown()
            server.shutdown()
        assert not any(r["faults"].values()), "seed %d: %s" % (seed, r["why"])
        lies += r["lies"]
    assert lies > 0


def test_the_referee_catches_what_it_counts():
    # The soak's zeros mean something only if the Watch sees a fault when there is one.
    p = Peer(seed=37)
    w = Watch(p)
    p.deal()
    assert p.play(lambda: p.app.match.round.player == p.app.seat)
    p.app.match.apply(p.app.match.round.legal_actions()[0])  # an action for the seat, not by its buttons
    assert w.faults["seat"] == 1
    w.after_step()
    w.last = (w.last[0], (w.last[1][0], w.last[1][1] + 5), w.last[2])
    w.after_step()
    assert w.faults["rewind"] == 1
    p.app.games.clear_save()
    w.check_save()
    assert w.faults["save"] == 1
