"""Two App instances on a simulated link cable: whole matches under faults, and every refusal.

The 200 seeded matches here are played to the end by computer-driven people on a virtual clock
(host_tools.link.duo); `python -m host_tools.link.soak` plays 5,000.
"""

import random
import sys

import pytest

from app import App
from device.sleep import AWAKE, DIM
from gin.rules import RuleSet
from link import channel, messages, session
from link.channel import Channel, put_u32
from modes import LINK, VS_CPU
from savegame import GAME_FILE, SaveManager, decode_game
from ui import keys
from ui.screens import LINK_RULES, LINK_WAIT, TABLE, TEXT, TITLE

from host_tools.hw.fake_hw import Clock, FakeHw
from host_tools.link.duo import Duo, Faults
from host_tools.link.line import Line

# --- 200 whole matches -------------------------------------------------------------------------------

RULE_MIX = (
    RuleSet(target=25),
    RuleSet(preset="modern", target=25),
    RuleSet(oklahoma=True, target=25),
    RuleSet(straight=True, target=25),
    RuleSet(hollywood=True, target=25),
    RuleSet(preset="20/25", big_gin=True, target=25),
    RuleSet(gin_forced=True, next_dealer=2, target=25),
)
FAULT_MIX = (
    ("noise", Faults(drop=0.01, dup=0.003, corrupt=0.003, stall=0.002)),
    ("noise+erase", Faults(drop=0.01, dup=0.003, corrupt=0.003, stall=0.002, blackout=True)),
    ("cable pulls", Faults(drop=0.005, blackout=True, cuts=0.01)),
    ("power cuts", Faults(drop=0.005, blackout=True, power_cuts=0.01)),
    ("everything", Faults.rough()),
)
BATCHES = 20
PER_BATCH = 10
MAX_STEPS = 60_000  # a match takes a few thousand loop steps; far more would be a deadlock


@pytest.mark.parametrize("batch", range(BATCHES))
def test_two_apps_play_whole_matches_to_identical_records(batch):
    name, faults = FAULT_MIX[batch % len(FAULT_MIX)]
    for k in range(PER_BATCH):
        seed = 1000 + batch * PER_BATCH + k
        rules = RULE_MIX[seed % len(RULE_MIX)]
        r = Duo(seed=seed, faults=faults, rules=rules, max_steps=MAX_STEPS).play()
        assert r.ok, "seed %d (%s): %s" % (seed, name, r.why)
        seed_, summaries, tallies, winner, _last = r.records[0]
        assert summaries and winner in (-1, 0, 1) and r.steps < MAX_STEPS
        if name == "power cuts" and k == 0:
            assert any(
                Duo(seed=s, faults=faults, rules=rules).play().reboots for s in (seed, seed + 1, seed + 2)
            )


def test_the_fault_mix_really_strikes():
    r = Duo(seed=5, faults=Faults.rough(), rules=RuleSet(target=50)).play()
    assert r.ok, r.why
    st = r.line
    assert st["dropped"] and st["duplicated"] and st["corrupted"] and st["erases"]
    assert r.reboots + r.cable_cuts > 0


# --- a side made by hand: for the refusals ---------------------------------------------------------------


class Pair:
    """A real App on one end of the line; on the other, a raw channel the test speaks through."""

    def __init__(self, seed=3, rules=None):
        self.clock = Clock()
        self.line = Line(self.clock.now, random.Random(seed))
        a, b = self.line.ends()
        self.hw = FakeHw(clock=self.clock)
        self.hw.link = a
        r = random.Random(seed)
        self.hw.random_bytes = lambda n: bytes(r.randrange(256) for _ in range(n))
        self.app = App(self.hw)
        if rules is not None:
            self.app.settings["rules"] = rules.to_bytes()
        self.app.settings["mode"] = LINK
        self.peer = Channel(b, lambda: r.getrandbits(32) | 1, 0)
        self.peer_fields = self.hello(proto=session.PROTOCOL)
        self.peer.hello_fields = lambda: self.peer_fields
        self.got = []

    @staticmethod
    def hello(proto=session.PROTOCOL, fw=session.FIRMWARE, match=0, pos=(0, 0), flags=0, rules_crc=0):
        b = bytearray((proto,))
        b.extend(bytes(fw))
        put_u32(b, match)
        b.extend((pos[0], pos[1], flags, rules_crc >> 8, rules_crc & 0xFF))
        return bytes(b)

    def run(self, ms):
        end = self.clock.now() + ms
        while self.clock.now() < end:
            self.app.step()
            self.got.extend(self.peer.poll(self.clock.now()))
            self.clock.advance(2)

    def join(self, waited=b"\x00\x00", ms=300):
        """The App starts a link match; the test's side joins, having waited ``waited`` (the one
        that waited longer proposes the rules: 0, the App does)."""
        self.app.link_start()
        self.run(1500)
        self.peer.send(session.JOIN, waited)
        self.run(ms)

    def sent(self, t):
        return [p for tt, p in self.got if tt == t]


def _started_pair(seed=3):
    """Through the handshake, the rules, commit and reveal: the App deals, the test holds seat 1."""
    p = Pair(seed)
    p.app.link_start()
    p.run(1500)
    assert p.peer.up and p.app.view.sid == LINK_WAIT
    p.peer.send(session.JOIN, b"\x00\x00")  # waited 0: the App waited longer, it proposes
    p.run(300)
    rules = p.sent(session.RULES)
    assert rules == [p.app.settings["rules"]]
    p.peer.send(session.ACCEPT)
    p.run(300)
    (commit,) = p.sent(session.COMMIT)
    mine = bytes(range(16))
    p.peer.send(session.COMMIT, session.sha256(mine).digest())
    p.run(300)
    (their_secret,) = p.sent(session.REVEAL)
    assert session.sha256(their_secret).digest() == commit
    p.peer.send(session.REVEAL, mine)
    p.run(300)
    assert p.app.match is not None and p.app.view.sid == TABLE
    assert p.app.match.seed == session.seed_of(their_secret, mine)
    return p


def test_the_deal_comes_from_both_secrets_and_both_commitments():
    p = _started_pair()
    assert p.app.seat == 0 and p.app.mode == LINK
    # the same secrets, other way round, would deal another game: neither side chose alone
    s = p.app.match.seed
    assert session.seed_of(bytes(range(16)), bytes(16)) != s


def test_a_reveal_that_does_not_match_its_commitment_is_refused():
    p = Pair()
    p.join()
    p.peer.send(session.ACCEPT)
    p.run(300)
    p.peer.send(session.COMMIT, session.sha256(b"A" * 16).digest())
    p.run(300)
    p.peer.send(session.REVEAL, b"B" * 16)  # a device that changed its mind after seeing ours
    p.run(300)
    assert p.app.match is None and p.app.view.sid == TEXT
    assert " ".join(p.app.view.lines) == " ".join(messages.MSG_REVEAL.split())


def test_a_wrong_protocol_version_is_refused_with_its_message():
    p = Pair()
    p.peer_fields = Pair.hello(proto=session.PROTOCOL + 1)
    p.app.link_start()
    p.run(1500)
    assert p.app.view.sid == TEXT and p.app.link is None
    there, here = session.PROTOCOL + 1, session.PROTOCOL
    assert "Link protocol %d there, %d here" % (there, here) in " ".join(p.app.view.lines)


def test_another_firmware_version_is_refused_with_its_message():
    p = Pair()
    p.peer_fields = Pair.hello(fw=(9, 9, 9))
    p.app.link_start()
    p.run(1500)
    assert p.app.view.sid == TEXT
    assert "Firmware 9.9.9 there, 0.1.0 here" in " ".join(p.app.view.lines)


def _peer_turn(p):
    """Play the App's side until the test's seat is to move; returns the App's match."""
    m = p.app.match
    for _ in range(10):
        if m.round.player == 1:
            return m
        p.app.act(m.round.legal_actions()[0])
        p.run(200)
    raise AssertionError("the test's seat never came to move")


def test_an_illegal_move_stops_the_match_with_its_message_and_nothing_is_corrupted():
    p = _started_pair()
    m = _peer_turn(p)
    pos = session.position(m)
    saved = p.hw.storage.read(GAME_FILE)
    legal = m.round.legal_actions()
    bad = next(a for a in range(124) if a not in legal)
    p.peer.send(session.MOVE, bytes((pos[0], pos[1], bad)))
    p.run(400)
    assert p.app.view.sid == TEXT and p.app.match is None
    assert "The other handheld's move was refused" in " ".join(p.app.view.lines)
    assert p.hw.storage.read(GAME_FILE) == saved  # the save is the match before the refused move
    (why,) = p.sent(session.REFUSE)
    assert why.startswith(b"move %d:" % bad)
    snap = decode_game(saved)
    assert snap["mode"] == LINK and snap["seat"] == 0


def test_a_move_out_of_turn_is_refused():
    p = _started_pair()
    m = p.app.match
    if m.round.player == 1:
        p.peer.send(session.MOVE, bytes((0, 0, m.round.legal_actions()[0])))
        p.run(300)
    m = p.app.match
    assert m.round.player == 0
    pos = session.position(m)
    p.peer.send(session.MOVE, bytes((pos[0], pos[1], m.round.legal_actions()[0])))
    p.run(300)
    assert p.app.view.sid == TEXT
    assert "not the other's turn" in " ".join(p.app.view.lines)


def test_a_replayed_old_move_is_refused_and_changes_nothing():
    p = _started_pair()
    m = _peer_turn(p)
    pos = session.position(m)
    a = m.round.legal_actions()[0]
    p.peer.send(session.MOVE, bytes((pos[0], pos[1], a)))
    p.run(300)
    assert session.position(m) == (pos[0], pos[1] + 1)
    before = bytes(m.round.actions)
    p.peer.send(session.MOVE, bytes((pos[0], pos[1], a)))  # the same move again, as a new frame
    p.run(300)
    assert bytes(m.round.actions) == before and p.app.match is m
    assert p.app.msg == messages.MSG_REPLAY
    assert p.app.view.sid == TABLE


def test_the_other_refusing_our_move_stops_the_match_here_too():
    p = _started_pair()
    p.peer.send(session.REFUSE, b"move 3: 3C is not in your hand")
    p.run(300)
    assert p.app.view.sid == TEXT
    assert "The other handheld refused: move 3: 3C is not" in " ".join(p.app.view.lines)


def test_the_other_declining_the_rules_is_said_and_the_wait_goes_on():
    p = Pair()
    p.join()
    p.peer.send(session.DECLINE)
    p.run(300)
    assert p.app.view.sid == LINK_WAIT and p.app.msg == messages.MSG_DECLINED


# --- the screens ---------------------------------------------------------------------------------------


def _press(p, b, ms=100):
    p.hw.buttons.push(b * 4)
    p.run(ms)


def test_play_menu_offers_the_link_cable_and_waiting_can_be_cancelled():
    from ui.menus import MODE_NAMES

    assert "Link cable" in MODE_NAMES
    p = Pair()
    app = p.app
    app.settings["mode"] = VS_CPU
    p.line.cut()  # nobody on the other end
    app.goto(TITLE)
    rows = app.view.rows(app)
    i = [k for k, r in enumerate(rows) if r.startswith("Play")][0]
    app.view.sel = i
    while "Link cable" not in app.view.rows(app)[i]:
        _press(p, keys.RIGHT)
    assert "Connect" in app.view.rows(app)
    app.view.sel = app.view.rows(app).index("Connect")
    _press(p, keys.DRAW, 1000)
    assert app.view.sid == LINK_WAIT and app.link is not None
    assert app.link.status() == "Waiting for the other handheld\u2026"
    _press(p, keys.MENU)
    assert app.view.sid == TITLE and app.link is None


def test_the_joiner_sees_the_rules_and_accepts_with_draw():
    p = Pair()
    p.join(b"\xff\xff", 200)  # waited longer: the test proposes
    assert p.sent(session.RULES) == []
    rules = RuleSet(oklahoma=True, target=150)
    p.peer.send(session.RULES, rules.to_bytes())
    p.run(200)
    assert p.app.view.sid == LINK_RULES
    assert "ui.rulelines" not in sys.modules  # the words made, their code let go for the match
    from ui.rulelines import rule_lines

    assert p.app.view.lines == rule_lines(rules)  # the proposed rules, as the rules screen words them
    assert "Target: 150" in p.app.view.lines
    _press(p, keys.DRAW)
    assert p.sent(session.ACCEPT) == [b""] and len(p.sent(session.COMMIT)) == 1


def test_the_joiner_declines_with_menu():
    p = Pair()
    p.app.link_start()
    p.run(1500)
    p.peer.send(session.JOIN, b"\xff\xff")
    p.peer.send(session.RULES, RuleSet().to_bytes())
    p.run(400)
    assert p.app.view.sid == LINK_RULES
    _press(p, keys.MENU)
    assert p.sent(session.DECLINE) == [b""] and p.app.view.sid == TITLE


def test_link_lost_pauses_the_table_and_menu_saves_and_quits():
    p = _started_pair()
    p.line.cut()
    p.run(channel.LOST_MS + 300)
    app = p.app
    assert app.view.sid == TABLE and app.link_paused()
    assert app.msg == messages.MSG_LOST and app.msg_err
    legal = app.match.round.legal_actions()
    if app.match.round.player == app.seat:
        assert not app.act(legal[0])  # no move while the other can't hear it
    _press(p, keys.MENU)
    assert app.view.sid == TITLE and app.has_save
    snap, _msg = SaveManager(p.hw.storage).load_game()
    assert snap["mode"] == LINK and snap["seat"] == 0


def test_the_screen_stays_lit_while_the_other_thinks_unless_idle_long():
    p = _started_pair()
    m = _peer_turn(p)
    app = p.app
    app.settings["dim_s"] = 5
    p.run(20_000)
    assert m.round.player == 1 and app.level_shown == AWAKE
    p.run(1000 * app_module().LINK_PATIENCE_S)
    assert app.level_shown == DIM


def app_module():
    import app

    return app


def test_link_stats_are_kept_apart_and_seen_from_each_seat():
    from prefs import LinkStats

    duo = Duo(seed=77, faults=Faults.clean(), rules=RuleSet(target=25))
    r = duo.play()
    assert r.ok, r.why
    _seed, summaries, _tallies, winner, _last = r.records[0]
    assert winner in (0, 1)
    for side in duo.sides:
        sm = SaveManager(side.hw.storage)
        ls = sm.load_link_stats()
        assert isinstance(ls, LinkStats)
        assert ls.levels[0].hands == len(summaries) and ls.levels[0].matches == 1
        assert ls.levels[0].wins == (1 if winner == side.app.seat else 0)
        _settings, stats, _msg = sm.load_profile()
        assert all(lv.hands == 0 and lv.matches == 0 for lv in stats.levels)


def test_each_device_shows_only_its_own_hand():
    from gin.cards import hand_cards

    duo = Duo(seed=12, faults=Faults.clean(), rules=RuleSet(target=25), max_steps=400)
    duo.play()  # stops early (max_steps): the first hand is on the table
    a, b = (s.app for s in duo.sides)
    assert a.match is not None and b.match is not None and a.seat != b.seat
    checked = 0
    for app, other in ((a, b), (b, a)):
        if app.view.sid != TABLE:
            continue
        checked += 1
        shown = set(app.view.layout(app))
        assert shown == set(hand_cards(app.match.round.hands[app.seat]))
        assert not shown & set(hand_cards(other.match.round.hands[other.seat]))
        assert app.names[app.seat] == "You" and app.names[1 - app.seat] == "Other"
    assert checked == 2


def test_the_link_bench_times_moves_under_micropython():
    """python -m host_tools.link.bench's MicroPython part plays a linked match on two FakeHws sharing one
    clock (it named screens by number once, and stopped at the first renumbering)."""
    from host_tools.link.bench import mp_step_times

    got = mp_step_times()
    assert got["moves"] >= 20, got
    assert 0 < got["send_mean_us"] <= got["send_max_us"] and 0 < got["recv_mean_us"] <= got["recv_max_us"], (
        got
    )


# --- the link's standing line on the glass --------------------------------------------------------


class _Session:
    """A link session that says what the test wants (the App's side of the rule, alone)."""

    def __init__(self):
        self.text = None
        self.up = True

    def status(self):
        return self.text

    def in_step(self):
        return self.text is None

    def busy(self):
        return False

    def poll(self, now, apply):
        return []

    def close(self, now=0):
        pass


def _standing_app():
    from play_cable import CableSeat

    hw = FakeHw(start_ms=1000)
    app = App(hw)
    app.new_game(seed=11)
    app.play.mode = LINK
    app.play.seats = [None, None]  # seat 1 is the cable's
    seat = CableSeat(None, 0, None, session=_Session())
    app.games.cable = seat
    return hw, app, seat.session


@pytest.mark.parametrize(
    "text", [messages.MSG_LOST, messages.MSG_LEFT, messages.MSG_LEFT_DEAL, "Catching up\u2026"]
)
def test_a_standing_link_line_stays_while_it_stands_and_goes_the_step_it_ends(text):
    """Every standing line (not just those starting 'Link') leaves the glass the moment the link
    says nothing any more; it never waits out its 60 s."""
    hw, app, s = _standing_app()
    s.text, s.up = text, False
    app.step()
    assert app.msg == text and app.msg_err
    hw.clock.advance(10_000)  # far past a plain message's time: it stands
    app.step()
    assert app.msg == text
    s.text, s.up = None, True
    app.step()
    assert app.msg is None


def test_a_message_said_after_the_standing_line_keeps_its_own_time():
    hw, app, s = _standing_app()
    s.text, s.up = messages.MSG_LOST, False
    app.step()
    app.say("Sorted by rank")  # said over the standing line
    s.text, s.up = None, True
    app.step()
    assert app.msg == "Sorted by rank"  # not the link's to clear
    hw.clock.advance(3000)
    app.step()
    assert app.msg is None
