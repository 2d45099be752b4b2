"""Endurance soak of the saves: computer vs computer, saving and reloading after every action.

    python -m host_tools.bench.soak_saves                  # 1,000 matches through the app
    python -m host_tools.bench.soak_saves --matches 50 --engine   # at the Match level, no app

Each seed is played twice: straight through, and with a save after every
action followed by a full "reboot" (a new SaveManager, or a new App on a new
hw, over the same files) that rebuilds everything from the save.  The two
must end identical: the same hands, the same scores, the same Hollywood
columns.  The soak also counts the bytes written, for docs/SAVES.md's
flash-wear arithmetic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field

import savegame as sg
from device.storage import FileStorage, MemFS
from gin import ai
from gin.match import GAME_OVER, HAND_OVER, Match
from gin.rules import RuleSet
from prefs import STATS_SIZE

RULE_MIX = (
    ("classic", RuleSet()),
    ("hollywood", RuleSet(hollywood=True)),
    ("modern+oklahoma", RuleSet.preset_rules("modern", oklahoma=True, oklahoma_spade_double=True)),
    ("10/20 to 150", RuleSet.preset_rules("10/20", target=150)),
)
STATS_RECORD = sg.OVERHEAD + STATS_SIZE  # the stats file, rewritten after each hand against the computer


@dataclass
class Tally:
    matches: int = 0
    identical: int = 0
    hands: int = 0
    saves: int = 0
    sizes: list[int] = field(default_factory=list)  # bytes of each game save
    per_match: list[int] = field(default_factory=list)  # game-save bytes of each match
    per_hand: list[int] = field(default_factory=list)  # game-save bytes of each hand
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("matches", "identical", "hands", "saves"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.sizes += other.sizes
        self.per_match += other.per_match
        self.per_hand += other.per_hand
        self.failures += other.failures


def fingerprint(m: Match) -> tuple:
    cols = tuple(
        (tuple(c.totals), tuple(c.wins), c.closed, c.winner, tuple(c.game_bonus), tuple(c.box_bonus))
        for c in m.columns
    )
    return (m.seed, m.state, m.winner, tuple(m.summaries), cols, m.final_tally(0), m.final_tally(1))


def _players(seed: int, level: int) -> list:
    return [ai.make_player("hard", seed), ai.make_player(ai.LEVELS[level], seed + 1)]


def straight(rules: RuleSet, seed: int, level: int) -> Match:
    m = Match(rules, seed)
    players = _players(seed, level)
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
            continue
        p = m.round.player
        m.apply(players[p].choose(m.observation(p)))
    return m


def engine_match(rules: RuleSet, seed: int, level: int) -> Tally:
    """One seed at the Match level: save, reboot the SaveManager, rebuild from the file, every action."""
    t = Tally(matches=1)
    want = fingerprint(straight(rules, seed, level))
    fs = MemFS()
    m = Match(rules, seed)
    hand_bytes = 0
    match_bytes = 0
    while m.state != GAME_OVER:
        if m.state == HAND_OVER:
            m.next_hand()
        else:
            players = _players(seed, level)  # a rebooted device makes its players anew
            p = m.round.player
            m.apply(players[p].choose(m.observation(p)))
        n = sg.SaveManager(FileStorage("", fs)).save_game(sg.snapshot_of(m))
        if n:
            t.saves += 1
            t.sizes.append(n)
            hand_bytes += n
            match_bytes += n
        if m.state == HAND_OVER or m.state == GAME_OVER:
            t.hands += 1
            t.per_hand.append(hand_bytes)
            hand_bytes = 0
        snap, msg = sg.SaveManager(FileStorage("", fs)).load_game()
        if snap is None or msg is not None:
            t.failures.append("seed %d: reload gave %r" % (seed, msg))
            return t
        m = snap["match"]
    t.per_match.append(match_bytes)
    got = fingerprint(m)
    if got == want:
        t.identical = 1
    else:
        t.failures.append("seed %d: differs after reloads" % seed)
    return t


def _app_progress(app) -> tuple | None:
    m = app.match
    if m is None:
        return None
    return (len(m.summaries), bytes(m.round.actions), m.state)


def _app_view(app) -> tuple:
    # No cursor: in Watch mode nobody moves it (the vs-CPU reboot test checks it).
    m = app.match
    return (
        app.view.sid,
        app.mode,
        app.level,
        app.sort,
        app.play.aiseed,
        fingerprint(m),
        bytes(m.round.actions),
    )


def _new_app_game(rules: RuleSet, start_ms: int, level: int):
    from app import App
    from modes import WATCH

    from host_tools.hw.fake_hw import Driver, FakeHw

    hw = FakeHw(start_ms=start_ms)
    app = App(hw)
    app.settings.update(mode=WATCH, level=level, rules=rules.to_bytes())
    app.new_game()
    return hw, app, Driver(app, hw)


def app_match(rules: RuleSet, seed: int, level: int, step_ms: int = 50) -> Tally:
    """One match through the whole app in Watch mode (computer vs computer), run twice from the
    same power-on time: straight through, and with a reboot (a new hw and App(hw, resume=True)
    over the same files) after every action.  The reboot must bring back the same screen and state."""
    from app import App

    from host_tools.hw.fake_hw import Driver, FakeHw

    t = Tally(matches=1)
    start = (seed * 104729) % (1 << 29)
    hw, app, d = _new_app_game(rules, start, level)
    while app.match is not None and app.match.state != GAME_OVER:
        d.run(200)
    if app.match is None:
        t.failures.append("seed %d: the straight match vanished" % seed)
        return t
    want = fingerprint(app.match)

    hw, app, d = _new_app_game(rules, start, level)
    files = hw.fs.files
    last = _app_progress(app)
    hand_bytes = match_bytes = 0
    while app.match is not None and app.match.state != GAME_OVER:
        d.run(step_ms)
        now = _app_progress(app)
        if now == last or app.match is None:
            continue
        last = now
        if app.match.state == GAME_OVER:
            break  # the app forgets the save of a finished match
        n = len(files.get("game.sav", b""))
        if hw.storage.writes:
            t.saves += hw.storage.writes
            t.sizes.append(n)
            hand_bytes += hw.storage.bytes_written
            match_bytes += hw.storage.bytes_written
        if app.match.state == HAND_OVER:
            t.hands += 1
            t.per_hand.append(hand_bytes)
            hand_bytes = 0
        before = _app_view(app)
        hw = FakeHw(start_ms=hw.clock.now(), files=files)
        app = App(hw, resume=True)
        d = Driver(app, hw)
        if app.match is None:
            t.failures.append("seed %d: no game after a reboot (%r)" % (seed, app.msg))
            return t
        after = _app_view(app)
        if after != before:
            t.failures.append(
                "seed %d: the reboot changed %r"
                % (seed, [i for i in range(len(after)) if after[i] != before[i]])
            )
            return t
    if app.match is None:
        t.failures.append("seed %d: the match vanished" % seed)
        return t
    t.hands += 1
    t.per_hand.append(hand_bytes)
    t.per_match.append(match_bytes)
    if fingerprint(app.match) == want:
        t.identical = 1
    else:
        t.failures.append("seed %d: differs after reboots" % seed)
    return t


def run(matches: int, first_seed: int = 1, app: bool = True, progress: bool = False) -> tuple[Tally, dict]:
    total = Tally()
    by_rules: dict[str, Tally] = {name: Tally() for name, _r in RULE_MIX}
    for k in range(matches):
        name, rules = RULE_MIX[k % len(RULE_MIX)]
        seed = first_seed + k
        level = k % 3
        if app:
            t = app_match(rules, seed, level)
        else:
            t = engine_match(rules, seed, level)
        total.add(t)
        by_rules[name].add(t)
        if progress and (k + 1) % 50 == 0:
            print(
                "  %d/%d matches, %d identical" % (k + 1, matches, total.identical),
                file=sys.stderr,
                flush=True,
            )
    return total, by_rules


def _row(name: str, t: Tally) -> str:
    if not t.sizes or not t.per_hand or not t.per_match:
        return "%-18s %8d %9d" % (name, t.matches, t.identical)
    return "%-18s %8d %9d %6d %7d %6.0f %6d %5d %7.0f %8.0f" % (
        name,
        t.matches,
        t.identical,
        t.hands,
        t.saves,
        statistics.mean(t.sizes),
        statistics.median(t.sizes),
        max(t.sizes),
        statistics.mean(t.per_hand),
        statistics.mean(t.per_match),
    )


def report(total: Tally, by_rules: dict[str, Tally], seconds: float) -> str:
    lines = [
        "%-18s %8s %9s %6s %7s %6s %6s %5s %7s %8s"
        % (
            "rules",
            "matches",
            "identical",
            "hands",
            "saves",
            "mean B",
            "median",
            "max B",
            "B/hand",
            "B/match",
        ),
    ]
    for name, t in by_rules.items():
        if t.matches:
            lines.append(_row(name, t))
    lines.append(_row("all", total))
    lines.append(
        "saves per hand %.1f, per match %.1f; %.0f s"
        % (total.saves / max(1, total.hands), total.saves / max(1, total.matches), seconds)
    )
    lines.append(
        "B = bytes of game saves; against the computer each hand also rewrites the %d-byte stats file"
        % STATS_RECORD
    )
    for f in total.failures[:20]:
        lines.append("FAIL " + f)
    lines.append(
        "%d of %d matches identical with a reload after every action" % (total.identical, total.matches)
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.bench.soak_saves", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--engine", action="store_true", help="Match level only (no app, no screens)")
    ap.add_argument("--quiet", action="store_true")
    ns = ap.parse_args(argv)
    t0 = time.time()
    total, by_rules = run(ns.matches, ns.first_seed, app=not ns.engine, progress=not ns.quiet)
    print(report(total, by_rules, time.time() - t0))
    return 0 if total.identical == total.matches and not total.failures else 1


if __name__ == "__main__":
    sys.exit(main())
