"""Helpers for the save tests: seeded games, match fingerprints and the engine's invariants."""

import random
import struct
import zlib

import savegame as sg
from device.storage import FileStorage
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.round import BIG_GIN, CANCELLED, KNOCK
from gin.rules import RuleSet

from deal import fingerprint

HOLLY = RuleSet(hollywood=True)
MODERN_OK = RuleSet.preset_rules("modern", oklahoma=True, oklahoma_spade_double=True)


def snap_of(m, **kw):
    return sg.snapshot_of(m, **kw)


def loaded(st_or_fs):
    storage = st_or_fs if isinstance(st_or_fs, FileStorage) else FileStorage("", st_or_fs)
    return sg.SaveManager(storage).load_game()


def fix_crc(rec):
    """A record with its CRC made right again (after a test changed its bytes)."""
    rec = bytes(rec)
    return rec[:-4] + struct.pack(">I", zlib.crc32(rec[:-4]))


class RandomPlayer:
    """A seeded legal player that knocks when it can (so hands end), else plays at random."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose_from(self, legal):
        outs = [a for a in legal if KNOCK <= a < KNOCK + 52 or a == BIG_GIN]
        if outs and self.rng.random() < 0.8:
            return self.rng.choice(outs)
        return self.rng.choice(legal)


def play(match, seed, on_action=None, limit=100000):
    """Play ``match`` to its end with seeded random players, calling on_action(match) after each action."""
    pl = RandomPlayer(seed)
    for _ in range(limit):
        if match.state == GAME_OVER:
            return match
        if match.state == HAND_OVER:
            match.next_hand()
            if on_action:
                on_action(match)
            continue
        match.apply(pl.choose_from(match.legal_actions()))
        if on_action:
            on_action(match)
    raise AssertionError("the match did not end")


def states(rules, seed, count=12):
    """Matches (fresh copies) at ``count`` points spread over one seeded game: the material of the save tests."""
    records = []
    play(Match(rules, seed), seed, lambda m: records.append(m.record()))
    step = max(1, len(records) // count)
    return [Match.replay(rules, s, hands) for (s, hands) in records[::step]]


def sample_matches():
    """Matches at points of four seeded games (Classic, Hollywood, Modern Oklahoma, straight gin to 50)."""
    out = []
    for rules, seed in (
        (RuleSet(), 11),
        (HOLLY, 12),
        (MODERN_OK, 13),
        (RuleSet(straight=True, target=50), 14),
    ):
        out += states(rules, seed)
    return out


def match_fingerprint(m):
    cols = tuple(
        (tuple(c.totals), tuple(c.wins), c.closed, c.winner, tuple(c.game_bonus), tuple(c.box_bonus))
        for c in m.columns
    )
    rnd = fingerprint(m.round) if m.state != GAME_OVER else None
    return (m.seed, m.state, m.winner, m.dealer, tuple(m.summaries), cols, rnd)


def reference_totals(rules, summaries):
    """Column totals recomputed from the hand history alone (RULES.md's Hollywood entry rule)."""
    n = 3 if rules.hollywood else 1
    totals = [[0, 0] for _ in range(n)]
    wins = [[0, 0] for _ in range(n)]
    closed = [False] * n
    for kind, w, pts, _k in summaries:
        if kind == CANCELLED:
            continue
        entered_new = False
        for i in range(n):
            if closed[i]:
                continue
            if wins[i][w] == 0:
                if entered_new:
                    continue
                entered_new = True
            totals[i][w] += pts
            wins[i][w] += 1
            if totals[i][w] >= rules.target:
                closed[i] = True
    return totals


def check_invariants(m):
    """52 cards accounted for; every score consistent with the hand history."""
    if m.state != GAME_OVER:
        m.round.check_invariants()
    assert [list(c.totals) for c in m.columns] == reference_totals(m.rules, m.summaries)
    won = [0, 0]
    for kind, w, _pts, _k in m.summaries:
        if kind != CANCELLED:
            won[w] += 1
    assert m.wins == won
    if not m.rules.hollywood:
        for p in (0, 1):
            assert m.totals[p] == sum(
                pts for (kind, w, pts, _k) in m.summaries if kind != CANCELLED and w == p
            )
