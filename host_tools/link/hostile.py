"""A hostile peer on the link: one honest App, and on the other end a script that lies.

``Script`` is a ``Peer`` (host_tools/link/hostile_peer.py: a real App joined to a script's channel)
with a scenario (``SCENARIOS``: random bytes, nonsense frames, replays, reordering, moves for the
wrong seat, false positions, withheld ACKs, aborted deals, floods, a frame cut off); ``Watch``
(host_tools/link/hostile_watch.py) referees the honest App and counts what no peer may achieve: a
crash, a hang, an action applied for the honest seat, a rewound or re-ruled match, a save lost or
changed, a second deal without a press.  ``run_one(seed)`` is one seeded run; the soak runs
thousands:

    python -m host_tools.link.hostile                      # 10,000 runs, 2 processes
    python -m host_tools.link.hostile --runs 500 --first 7 --budget 30
"""

from __future__ import annotations

import random

import host_tools  # noqa: F401  (firmware/ on sys.path)
from host_tools.link.hostile_peer import Peer, hello, knocker, match_id_of, passive
from host_tools.link.hostile_watch import HANG_S, Watch

# isort: split
from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
from gin.round import DISCARD_PHASE, DRAW_STOCK, KNOCK, PASS
from gin.rules import RuleSet
from link import channel, frame, session
from link.channel import put_u32
from ui import keys
from ui.screens import LINK_RULES, OVER_SCREEN, RESULT, SHEET, TABLE, TEXT, TITLE

# --- the script's lies ------------------------------------------------------------------------------

SCENARIOS = (
    "noise",  # random bytes
    "nonsense",  # valid-CRC frames with nonsense fields, and nonsense delivered in sequence
    "replay",  # the script's old frames again
    "reorder",  # the script's frames held back and sent out of order
    "seat",  # moves out of turn, for the App's seat, at other positions
    "claims",  # greetings claiming positions far ahead or behind, another match, the same seat
    "withhold",  # ACKs withheld, above all at a hand's end
    "abort",  # leaves after seeing the App's reveal, and asks for a new deal
    "flood",  # hundreds of frames at once
    "midframe",  # stops in the middle of a frame
    "mixed",  # all of it
)
RULES = (
    RuleSet(target=100),
    RuleSet(next_dealer=1, target=100),
    RuleSet(oklahoma=True, target=100),
    RuleSet(gin_forced=True, next_dealer=2, target=100),
)


class Script(Peer):
    """The hostile peer: deals and plays like a handheld, and lies as its scenario says."""

    def __init__(self, seed, scenario, ports=None):
        r = random.Random(seed ^ 0x5C1)
        rules = RULES[seed % len(RULES)]
        super().__init__(seed=seed, rules=rules, ports=ports)
        self.r = r
        self.scenario = scenario
        self.rule_bytes = rules.to_bytes()
        self.my_secret = bytes(r.randrange(256) for _ in range(16))
        self.app_commit = None
        self.starter = False
        self.waited = r.choice((0, 0xFFFF))
        self.aborts = (
            r.randrange(1, 3) if scenario == "abort" or (scenario == "mixed" and r.random() < 0.3) else 0
        )
        self.policy = knocker if r.random() < 0.7 else passive
        self.silent_until = 0
        self.next_lie = r.randrange(200, 8_000)  # the first lie anywhere in the deal or the first hands
        self.honest_at = None  # when a false greeting is followed by a true one
        self.think_until = 0
        self.lies = 0
        self.end_lied = -1  # the hand whose end the script lied about
        self.end_lies = 0
        self.aborted = 0

    # --- dealing and playing like a handheld -------------------------------------------------------
    def on_message(self, t, p):
        if t == channel.HELLO:
            if self.match is None and not self.dealing:
                self.chan.send(session.JOIN, bytes((self.waited >> 8, self.waited & 0xFF)))
            elif self.dealing:
                self._commit()
        elif t == session.JOIN and self.match is None and len(p) == 2 and not self.dealing:
            app_w = (p[0] << 8) | p[1]
            self.starter = (self.waited, self.chan.nonce) > (app_w, self.chan.peer)
            self.seat = 0 if self.starter else 1
            if self.starter:
                self.chan.send(session.RULES, self.rule_bytes)
        elif t == session.RULES and not self.starter and self.match is None:
            self.rule_bytes = bytes(p)
            self.chan.send(session.ACCEPT)
            self._commit()
        elif t == session.ACCEPT and self.starter and self.match is None:
            self._commit()
        elif t == session.COMMIT and self.dealing:
            self.app_commit = bytes(p)
            if not self.aborts:  # one that means to leave waits to see the App's reveal first
                self.chan.send(session.REVEAL, self.my_secret)
        elif t == session.REVEAL and self.dealing:
            if self.aborts > 0:
                # it has seen the deal and dislikes it: leave, come back fresh, ask for another
                self.aborts -= 1
                self.aborted += 1
                self.lies += 1
                self.dealing = False
                self.app_commit = None
                self.my_secret = bytes(self.r.randrange(256) for _ in range(16))
                self.chan.restart(self.clock.now())
                return
            a, b = (self.my_secret, p) if self.starter else (p, self.my_secret)
            self.match = Match(RuleSet.from_bytes(self.rule_bytes), session.seed_of(a, b))
            self.dealing = False
        elif t == session.MOVE:
            self._their_move(p)

    def _commit(self):
        self.dealing = True
        self.chan.send(session.COMMIT, session.sha256(self.my_secret).digest())
        if self.app_commit is not None and not self.aborts:
            self.chan.send(session.REVEAL, self.my_secret)

    def _play(self, now):
        m = self.match
        if m is None or m.state == GAME_OVER or self.chan.busy():
            return
        if m.state == HAND_OVER:
            m.next_hand()
        if m.round.player != self.seat:
            return
        if now < self.think_until:
            return
        if self.think_until == 0:
            self.think_until = now + self.r.randrange(0, 150)
            return
        self.think_until = 0
        self.move(policy=self.policy)

    # --- lying ----------------------------------------------------------------------------------------
    def tick(self):
        now = self.clock.now()
        if now < self.silent_until:
            return  # gone quiet: hears nothing, says nothing
        if getattr(self.port, "connected", True) is False:
            self.port.next_dial = 0  # over TCP: when the App hangs up, the script calls straight back
        self.listen()
        self._play(now)
        if self.honest_at is not None and now >= self.honest_at:
            self.honest_at = None
            self.claim = self.fields = None
            self.withhold = False
            self.hold = 0.0
            self.release()
            self.chan.restart(now)
        if now >= self.next_lie:
            self.next_lie = now + self.r.randrange(100, 1200)
            kind = self.scenario
            if kind == "mixed":
                kind = self.r.choice(SCENARIOS[:-1])
            getattr(self, "_lie_" + kind)(now)
        elif self.scenario in ("withhold", "mixed") and not self.withhold:
            self._at_hands_end(now)

    def _at_hands_end(self, now):
        """Withhold the ACK of the App's move that ends a hand (its knock), or right after the end."""
        am = self.app.match
        if am is None or am.state == GAME_OVER or self.end_lied == len(am.summaries):
            return
        rnd = am.round
        if am.state == PLAYING:
            if rnd.player != self.app.seat or rnd.phase != DISCARD_PHASE:
                return
            if not [a for a in rnd.legal_actions() if KNOCK <= a < KNOCK + 52]:
                return
        self.end_lied = len(am.summaries)  # once a hand: at its last move, or once it is over
        if self.r.random() < 0.7:
            self.end_lies += 1
            self._lie_withhold(now)

    def _bytes(self, n):
        return bytes(self.r.randrange(256) for _ in range(n))

    def _app_pos(self):
        am = self.app.match
        return session.position(am) if am is not None else (0, 0)

    def _lie_noise(self, now):
        self.lies += 1
        self.raw(self._bytes(self.r.randrange(1, 90)))

    def _lie_nonsense(self, now):
        self.lies += 1
        r = self.r
        t = r.choice((channel.HELLO, channel.ACK, channel.PING, r.randrange(0x10, 0x20), r.randrange(256)))
        if r.random() < 0.5 and t >= channel.SEQUENCED:
            self.chan.send(t, self._bytes(r.randrange(0, 44)))  # in sequence: delivered to the session
        else:
            body = bytes((t,)) + self._bytes(r.randrange(0, frame.MAX_BODY))
            self.raw(frame.encode(body))

    def _lie_replay(self, now):
        if self.sent_frames:
            self.lies += 1
            for _ in range(self.r.randrange(1, 4)):
                self.raw(self.r.choice(self.sent_frames))

    def _lie_reorder(self, now):
        self.lies += 1
        self.hold = 0.3
        self.honest_at = now + self.r.randrange(300, 3000)

    def _lie_seat(self, now):
        am = self.app.match
        if am is None or am.state == GAME_OVER:
            return
        self.lies += 1
        h, i = session.position(am)
        r = self.r
        k = r.randrange(4)
        if k == 0 and am.state == PLAYING:
            self.send_move((h, i), r.choice(am.round.legal_actions()))  # whoever's turn it is
        elif k == 1:
            self.send_move((h, i), r.randrange(256))
        elif k == 2:
            self.send_move((h + 1, 0), r.choice((PASS, DRAW_STOCK, 105)))  # the next hand's first move
        else:
            self.send_move((h, i + r.randrange(1, 5)), r.randrange(124))

    def _lie_claims(self, now):
        self.lies += 1
        r = self.r
        h, i = self._app_pos()
        k = r.randrange(6)
        if k == 0:
            self.claim = (h + r.randrange(-3, 4), r.randrange(0, 40))
        elif k == 1:
            self.claim = (h + r.choice((-120, -20, 20, 120)), r.randrange(256))
        elif k == 2:
            self.claim = (h, max(0, i - r.randrange(20, 60)))  # far behind in this hand
        elif k == 3:
            self.fields = hello(match=r.getrandbits(32), pos=(h, i), flags=session.F_MATCH)  # another match
        elif k == 4:
            seat = session.F_SEAT if self.app.seat else 0  # the App's own seat
            mid = match_id_of(self.match.seed) if self.match is not None else 0
            self.fields = hello(match=mid, pos=(h, i), flags=session.F_MATCH | seat)
        else:
            self.fields = hello(flags=r.choice((0, session.F_DEALING)))  # "no match" / "dealing"
        self.chan.restart(now)
        self.honest_at = now + r.randrange(1000, 4000)

    def _lie_withhold(self, now):
        self.lies += 1
        self.withhold = True
        self.honest_at = now + self.r.randrange(500, 5000)
        am = self.app.match
        if am is not None and self.r.random() < 0.7:
            h, _i = session.position(am)
            self.send_move((h if am.state == PLAYING else h, 0), self.r.choice((PASS, DRAW_STOCK, 105)))

    def _lie_abort(self, now):
        if self.dealing or self.match is None:
            return
        self._lie_claims(now)  # once the match runs: greetings that lie instead

    def _lie_flood(self, now):
        self.lies += 1
        r = self.r
        out = bytearray()
        seq = r.randrange(256)
        for _ in range(r.randrange(50, 300)):
            k = r.randrange(4)
            if k == 0:
                b = bytearray((channel.HELLO, r.randrange(2)))
                put_u32(b, r.getrandbits(32))
                put_u32(b, r.choice((self.chan.peer, r.getrandbits(32))))
                b.extend(self._fields())
            elif k == 1:
                b = bytes((channel.ACK, r.randrange(256)))
            elif k == 2:
                b = bytes((channel.PING,))
            else:
                b = bytes((r.randrange(0x10, 0x19), seq)) + self._bytes(r.randrange(0, 10))
                seq = (seq + 1) & 0xFF
            out += frame.encode(bytes(b))
        self.raw(out)

    def _lie_midframe(self, now):
        self.lies += 1
        w = frame.encode(bytes((session.MOVE, self.chan.tx_seq)) + self._bytes(3))
        self.raw(w[: self.r.randrange(1, len(w) - 1)])
        self.silent_until = now + self.r.choice((1000, 4000, 10**9))


def run_one(seed, scenario=None, ports=None, budget_ms=40_000):
    """One hostile run against one honest App; returns a dict of what happened."""
    import time

    scenario = scenario or SCENARIOS[seed % len(SCENARIOS)]
    s = Script(seed, scenario, ports)
    w = Watch(s)
    app = s.app
    r = random.Random(seed ^ 0xA11)
    resumes = 1
    restarts = 3
    stopped = None
    paused_since = None
    think = 0
    app.link_start()
    end = s.clock.now() + budget_ms
    while s.clock.now() < end:
        t = time.perf_counter()
        try:
            ms = app.step()
        except Exception as e:  # noqa: BLE001  (counted: the point of the soak)
            w.fault("crash", "%s: %s" % (type(e).__name__, e))
            break
        if time.perf_counter() - t > HANG_S:
            w.fault("hang", "one App.step took %.1f s" % (time.perf_counter() - t))
        w.after_step()
        s.tick()
        now = s.clock.now()
        sid = app.view.sid if app.view is not None else -1
        lk = app.link
        m = app.match
        if sid == TEXT:
            stopped = " ".join(app.view.lines)
            break
        if sid == TITLE:
            if app.has_save and resumes > 0 and w.last is not None:
                resumes -= 1
                app.continue_game()
            elif restarts > 0 and w.last is None:
                restarts -= 1
                app.link_start()
            else:
                break
        elif sid == OVER_SCREEN:
            break
        elif sid == LINK_RULES:
            app.link_accept()
        elif sid in (RESULT, SHEET):
            s.hw.buttons.push(keys.DRAW * 4)
        elif lk is not None and (lk.note is not None or (m is not None and not lk.up)):
            # paused (refused, too far, the other left): after a while the player saves and quits
            if paused_since is None:
                paused_since = now
            elif now - paused_since > 4000:
                paused_since = None
                s.hw.buttons.push(keys.MENU * 4)
        elif sid == TABLE and m is not None and m.state == PLAYING and lk is not None:
            paused_since = None
            if m.round.player == app.seat and lk.in_step():
                if think == 0:
                    think = now + r.randrange(0, 150)
                elif now >= think:
                    think = 0
                    app.act(knocker(m) if r.random() < 0.7 else passive(m))
        s.clock.advance(max(1, min(ms, 10)))
    if app.games.save_due:
        app.step()  # the person's last move is saved at the end of the step it was made in
    w.check_save()
    return {
        "seed": seed,
        "scenario": scenario,
        "faults": w.faults,
        "why": w.why,
        "stopped": stopped,
        "presses": w.presses,
        "lies": s.lies,
        "end_lies": s.end_lies,
        "aborts": s.aborted,
        "virtual_ms": s.clock.now(),
        "hands": len(w.last[0].summaries) if w.last is not None else -1,  # -1: no match began
        "end": "stopped" if stopped else ("budget" if s.clock.now() >= end else "title/over"),
    }


def tcp_ports():
    """Two real TcpPorts joined on localhost: (the App's, the script's)."""
    import time

    from host_tools.link.tcp import TcpPort

    server = TcpPort(listen=0, host="127.0.0.1")
    client = TcpPort(connect=("127.0.0.1", server.listen_port))
    end = time.monotonic() + 5
    while not (server.connected and client.connected) and time.monotonic() < end:
        server.open()
        client.open()
        time.sleep(0.005)
    return server, client


def one(args):
    seed, budget_ms = args
    return run_one(seed, budget_ms=budget_ms)


def main(argv=None):
    import argparse
    import time
    from concurrent.futures import ProcessPoolExecutor

    ap = argparse.ArgumentParser(prog="python -m host_tools.link.hostile", description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--first", type=int, default=1_000_000, help="the first run's seed")
    ap.add_argument("--budget", type=int, default=20, help="virtual seconds per run")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    faults = dict.fromkeys(Watch.KINDS, 0)
    failed = []
    tally = dict.fromkeys(
        ("lies", "end_lies", "aborts", "hands", "stopped", "matches", "presses", "virtual_ms"), 0
    )
    done = 0
    work = [(a.first + i, a.budget * 1000) for i in range(a.runs)]
    with ProcessPoolExecutor(a.jobs) as ex:
        for r in ex.map(one, work, chunksize=16):
            done += 1
            bad = sum(r["faults"].values())
            for k, v in r["faults"].items():
                faults[k] += v
            tally["lies"] += r["lies"]
            tally["end_lies"] += r["end_lies"]
            tally["aborts"] += r["aborts"]
            tally["hands"] += max(0, r["hands"])
            tally["matches"] += r["hands"] >= 0
            tally["stopped"] += r["stopped"] is not None
            tally["presses"] += r["presses"]
            tally["virtual_ms"] += r["virtual_ms"]
            if bad:
                failed.append(r["seed"])
                print("FAULT seed %d (%s): %s" % (r["seed"], r["scenario"], "; ".join(r["why"])), flush=True)
            if done % 500 == 0:
                print(
                    "... %d runs, %d with faults, %.0f s" % (done, len(failed), time.perf_counter() - t0),
                    flush=True,
                )
    print(
        "%d hostile runs (%d scenarios, seeds %d..%d): %d crashes, %d hangs, %d actions applied for the "
        "honest seat, %d rewinds, %d honest saves lost or changed, %d re-deals without a press; "
        "%d lies told (%d at a hand's end, %d deals left after the reveal), %d matches begun, "
        "%d hands finished, %d matches stopped by a refusal, %.1f h of virtual play; %.0f s"
        % (
            a.runs,
            len(SCENARIOS),
            a.first,
            a.first + a.runs - 1,
            faults["crash"],
            faults["hang"],
            faults["seat"],
            faults["rewind"],
            faults["save"],
            faults["redeal"],
            tally["lies"],
            tally["end_lies"],
            tally["aborts"],
            tally["matches"],
            tally["hands"],
            tally["stopped"],
            tally["virtual_ms"] / 3.6e6,
            time.perf_counter() - t0,
        )
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
