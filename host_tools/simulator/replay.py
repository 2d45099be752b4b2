"""Step through a saved game or a recorded hand, with both hands face up.

    python -m host_tools.simulator.replay ~/.gin-handheld/game.sav        # text transcript
    python -m host_tools.simulator.replay game.sav --frames-dir out/      # a PNG per step
    python -m host_tools.simulator.replay game.sav --export hand.json     # save -> record
    python -m host_tools.simulator --replay hand.json           # step with the keys

Inputs:

* a save file (``game.sav``, ``.bak``, ``.tmp``): the checked record of
  firmware/savegame.py.  It keeps the finished hands as scores only, so the
  live (or last finished) hand is the one that can be stepped through.
* a record (JSON), the project's "seed plus actions" form, either a match
  ``{"rules": R, "seed": N, "hands": [[a, ...], ...]}`` (``Match.record()``)
  or a single hand ``{"rules": R, "dealer": D, "seed": N, "actions": [...]}``.
  R is a rules spec like ``"modern,oklahoma"`` (see simulator --rules) or the
  hex of ``RuleSet.to_bytes()``; it may be left out for the Classic rules.

Keys (the device's buttons): LEFT/RIGHT one action back/forward (hold to
run), UP/DOWN previous/next hand, DRAW play/pause, DISCARD start/end of the
hand, MENU (or q) quit.  Frames go through the same SSD1306 driver and model
as the game's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from device.buttons import DISCARD, DOWN, DRAW, LEFT, MENU, PRESS, REPEAT, RIGHT, UP
from gin import melds
from gin.cards import GinError, card_text
from gin.match import Match
from gin.round import BIG_GIN_WIN, CANCELLED, GIN, KNOCK_WIN, OVER, UNDERCUT, Round, action_text
from gin.rules import RuleSet
from modes import NAMES as NAMES_BY_MODE  # the players' names in each mode
from ui.canvas import Canvas
from ui.cardart import CARD_H, draw_card
from ui.draw import card_str, header, legend, right, verb
from ui.font import SMALL
from ui.hand import hand_groups, place

from host_tools.hw.fake_hw import Buttons, Clock, Display, FakeHw

PLAY_EVERY_MS = 700


def result_lines(r, names=("You", "CPU")):
    """Short lines explaining a HandResult, for the text replay and the replay's side panel."""
    if r.kind == CANCELLED:
        return ["Hand cancelled", r.reason, "Same dealer deals"]
    k = names[r.knocker]
    out = []
    if r.kind == BIG_GIN_WIN:
        out.append("%s: big gin!" % k)
    elif r.kind == GIN:
        out.append("%s: gin!" % k)
    else:
        out.append("%s knocked on %d" % (k, r.knocker_deadwood))
    if r.kind in (KNOCK_WIN, UNDERCUT):
        if r.layoffs:
            out.append("Laid off %d card%s" % (len(r.layoffs), "s" if len(r.layoffs) > 1 else ""))
        out.append("Deadwood %d vs %d" % (r.knocker_deadwood, r.defender_deadwood))
    else:
        out.append("Opponent deadwood %d" % r.defender_deadwood)
    if r.kind == UNDERCUT:
        out.append("Undercut!")
    out.append("%s +%d" % (names[r.winner], r.points))
    if r.multiplier > 1:
        out.append("Spade upcard: x%d" % r.multiplier)
    return out


class ReplayError(ValueError):
    """A file that is neither a usable save nor a record."""


@dataclass
class HandTape:
    """One steppable hand: the match state before it and its actions."""

    actions: bytes
    summaries_before: list  # the finished hands before this one (Match.restore)
    dealer: int | None = None  # single-hand records: Round.replay with this dealer
    seed: int | None = None  # single-hand records: the hand's own seed


@dataclass
class Record:
    rules: RuleSet
    seed: int
    tapes: list[HandTape]
    names: tuple[str, str] = ("P1", "P2")
    source: str = ""
    hands_without_moves: int = 0  # finished hands a save keeps as scores only
    meta: dict = field(default_factory=dict)

    def state(self, hand: int, step: int):
        """(Round, Match or None) after ``step`` actions of tape ``hand``."""
        t = self.tapes[hand]
        acts = t.actions[:step]
        if t.dealer is not None:
            return Round.replay(self.rules, t.dealer, t.seed, acts), None
        m = Match.restore(self.rules, self.seed, t.summaries_before, acts)
        return m.round, m

    def to_json(self) -> dict:
        if len(self.tapes) == 1 and self.tapes[0].dealer is not None:
            t = self.tapes[0]
            return {
                "rules": self.rules.to_bytes().hex(),
                "dealer": t.dealer,
                "seed": t.seed,
                "actions": list(t.actions),
            }
        out = {
            "rules": self.rules.to_bytes().hex(),
            "seed": self.seed,
            "hands": [list(t.actions) for t in self.tapes],
        }
        if self.hands_without_moves:
            # A save: the earlier hands are scores only, kept so the match replays.
            out["summaries"] = [list(s) for s in self.tapes[0].summaries_before]
        out["names"] = list(self.names)
        return out


# ------------------------------------------------------------------ loading
def _rules_from(value) -> RuleSet:
    if value is None:
        return RuleSet()
    if not isinstance(value, str):
        raise ReplayError("rules must be a string")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raw = None
    try:
        if raw is not None and len(raw) > 0:
            return RuleSet.from_bytes(raw)
        from host_tools.simulator.options import OptionError, parse_rules

        try:
            return parse_rules(value)
        except OptionError as e:
            raise ReplayError(str(e)) from None
    except GinError as e:
        raise ReplayError(f"rules: {e}") from None


def _actions(value, where: str) -> bytes:
    if not isinstance(value, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 256 for a in value
    ):
        raise ReplayError(f"{where}: actions must be a list of small ints")
    return bytes(value)


def load_save(data: bytes, source: str = "") -> Record:
    from savegame import SaveError, decode_game, rebuild

    try:
        snap = decode_game(data)
    except SaveError as e:
        raise ReplayError(f"not a usable save ({e})") from None
    try:
        rebuild(dict(snap))
    except Exception as e:  # noqa: BLE001 - any failure means the save doesn't replay
        try:
            snap["over"] = True
            rebuild(dict(snap))
        except Exception:  # noqa: BLE001
            raise ReplayError(f"the save does not replay ({e})") from None
    rules = RuleSet.from_bytes(snap["rules"])
    summaries = [tuple(s) for s in snap["summaries"]]
    before = summaries[:-1] if snap.get("over") else summaries
    mode = snap["mode"]
    tape = HandTape(bytes(snap["actions"]), before)
    return Record(
        rules,
        snap["seed"],
        [tape],
        NAMES_BY_MODE[mode],
        source,
        len(before),
        {"mode": mode, "level": snap["level"]},
    )


def _summaries(value, rules: RuleSet) -> list[tuple[int, int, int, int]]:
    """A save's finished hands, each [kind, winner, points, knocker], checked as a save's are."""
    from savegame import SaveError, check_summaries, check_summary

    if not isinstance(value, list):
        raise ReplayError("summaries must be a list of [kind, winner, points, knocker]")
    out = []
    for i, s in enumerate(value):
        if (
            not isinstance(s, list)
            or len(s) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in s)
            or not (0 <= s[0] <= 7 and -1 <= s[1] <= 1 and 0 <= s[2] <= 0xFFFF and -1 <= s[3] <= 1)
        ):
            raise ReplayError(f"summary {i + 1}: [kind, winner, points, knocker], four small whole numbers")
        try:
            check_summary(*s)
        except SaveError as e:
            raise ReplayError(f"summary {i + 1}: {e}") from None
        out.append(tuple(s))
    try:
        check_summaries(rules, out)
    except SaveError as e:
        raise ReplayError(f"summaries: {e}") from None
    return out


def load_json(obj, source: str = "") -> Record:
    if not isinstance(obj, dict):
        raise ReplayError("a record is a JSON object")
    rules = _rules_from(obj.get("rules"))
    names = obj.get("names", ["P1", "P2"])
    if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) and n for n in names)):
        raise ReplayError("names must be a list of two words")
    names = (names[0][:12], names[1][:12])
    seed = obj.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 0xFFFFFFFF:
        raise ReplayError("a record needs a seed (a whole number, 0 to 4294967295)")
    if "actions" in obj:
        dealer = obj.get("dealer", 0)
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ReplayError("dealer must be 0 or 1")
        tape = HandTape(_actions(obj["actions"], "actions"), [], dealer, seed)
        rec = Record(rules, seed, [tape], names, source)
    elif "hands" in obj:
        hands = obj["hands"]
        if not isinstance(hands, list) or not hands:
            raise ReplayError("hands must be a non-empty list")
        summaries = _summaries(obj.get("summaries", []), rules)
        tapes = []
        try:
            m = Match.restore(rules, seed, summaries, b"")
            for i, h in enumerate(hands):
                acts = _actions(h, f"hand {i + 1}")
                if i:
                    m.next_hand()
                tapes.append(HandTape(acts, list(m.summaries)))
                for a in acts:
                    m.apply(a)
        except GinError as e:
            raise ReplayError(f"hand {len(tapes) + 1}: {e}") from None
        rec = Record(rules, seed, tapes, names, source, len(summaries))
    else:
        raise ReplayError("a record has 'hands' (a match) or 'actions' (one hand)")
    # every tape must replay to its end
    for i, t in enumerate(rec.tapes):
        try:
            rec.state(i, len(t.actions))
        except GinError as e:
            raise ReplayError(f"hand {i + 1} does not replay: {e}") from None
    return rec


MAX_FILE = 4 * 1024 * 1024  # far above any save (4 KB) or record a match makes


def load(path: str | Path) -> Record:
    """The record in a save or a JSON file; ReplayError (one line) for anything else, never another error."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE:
            raise ReplayError(f"too big for a save or a record ({path.stat().st_size} bytes)")
        data = path.read_bytes()
    except OSError as e:
        raise ReplayError(e.strerror or "can't read it") from None
    if data[:3] == b"GIN":
        return load_save(data, path.name)
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ReplayError("neither a save (game.sav) nor a JSON record") from None
    try:
        return load_json(obj, path.name)
    except ReplayError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as e:
        # a shape load_json's checks did not foresee: still one line, not a traceback
        raise ReplayError(f"not a record this tool reads ({type(e).__name__})") from None


# ------------------------------------------------------------------ viewer
def describe_step(rec: Record, hand: int, step: int) -> str:
    """'12. P1: discard 7H' for the action that led to step (1-based), '' at the deal."""
    if step == 0:
        return ""
    t = rec.tapes[hand]
    before, _ = rec.state(hand, step - 1)
    who = rec.names[before.player]
    return f"{step}. {who}: {action_text(t.actions[step - 1])}"


class ReplayView:
    """Position in the record plus the drawing of one 128x64 frame."""

    def __init__(self, rec: Record) -> None:
        self.rec = rec
        self.hand = len(rec.tapes) - 1 if rec.hands_without_moves else 0
        self.step = 0
        self.playing = False
        self.canvas = Canvas()

    @property
    def length(self) -> int:
        return len(self.rec.tapes[self.hand].actions)

    def move(self, d: int) -> bool:
        s = max(0, min(self.length, self.step + d))
        changed = s != self.step
        self.step = s
        return changed

    def goto_hand(self, d: int) -> bool:
        h = max(0, min(len(self.rec.tapes) - 1, self.hand + d))
        changed = h != self.hand
        self.hand = h
        if changed:
            self.step = 0
        return changed

    def title(self) -> str:
        n = self.rec.hands_without_moves + self.hand + 1 if self.rec.tapes[self.hand].dealer is None else 1
        return f"Hand {n} \u00b7 {self.step}/{self.length}"

    def draw(self) -> bytearray:
        c = self.canvas
        c.fill(0)
        rnd, m = self.rec.state(self.hand, self.step)
        names = self.rec.names
        scores = ""
        if m is not None:
            t = m.totals
            scores = f"{names[0]} {t[0]} {names[1]} {t[1]}"
        header(c, "\u25b6 " + self.title() if self.playing else self.title(), scores)
        last = self._arrived(rnd)
        self._hand_row(c, rnd, 1, 8, last)
        self._hand_row(c, rnd, 0, 38, last)
        self._middle(c, rnd)
        legend(c, [("\u25c0\u25b6", "step"), ("\u25b2\u25bc", "hand"), ("DRAW", "play"), ("MENU", "quit")])
        return c.buf

    def _arrived(self, rnd) -> int:
        """The card the last action put into a hand (taken or drawn), or -1."""
        if self.step == 0:
            return -1
        before, _ = self.rec.state(self.hand, self.step - 1)
        p = before.player
        for s in range(4):
            new = rnd.hands[p][s] & ~before.hands[p][s]
            if new:
                r = 0
                while not new >> r & 1:
                    r += 1
                return s * 13 + r
        return -1

    def _hand_row(self, c, rnd, p: int, y: int, arrived: int) -> None:
        groups = hand_groups(rnd.hands[p], 0)
        xs, _ = place(groups, width=128 - 8)
        cards = [card for g, _ in groups for card in g]
        for x, card in zip(xs, cards):
            draw_card(c, x + 8, y, card, False, False, False, card == arrived)
        mark = "\u25b6" if rnd.player == p and rnd.phase != OVER else " "
        c.text(mark, 0, y + 5, 1, SMALL)
        d = "D" if rnd.dealer == p else ""
        c.text(d, 0, y + 11, 1, SMALL)

    def _middle(self, c, rnd) -> None:
        y = 8 + CARD_H + 1
        if rnd.phase == OVER and rnd.result is not None:
            lines = result_lines(rnd.result, self.rec.names)
            c.text(lines[0], 0, y, 1, SMALL)
            c.text(lines[-1], 0, y + 6, 1, SMALL)
            if len(lines) > 2:
                right(c, lines[1], 128, y, SMALL)
            return
        x = 0
        if rnd.pile:
            x = c.text("pile", 0, y, 1, SMALL) + 3
            x = c.text(card_str(rnd.pile[-1]), x, y, 1, SMALL) + 4
        c.text(f"stock {rnd.stock_size()}", x, y, 1, SMALL)
        h0, h1 = _cards(rnd.hands[0]), _cards(rnd.hands[1])
        if len(h0) == 10 and len(h1) == 10:
            right(c, f"deadwood {melds.deadwood(rnd.hands[0])}/{melds.deadwood(rnd.hands[1])}", 128, y, SMALL)
        c.text(describe_step(self.rec, self.hand, self.step) or "the deal", 0, y + 6, 1, SMALL)


def _cards(h) -> list[int]:
    from gin.cards import hand_cards

    return hand_cards(h)


def transcript(rec: Record) -> list[str]:
    """Every action of every tape in words, with the result of finished hands."""
    out = []
    for h, t in enumerate(rec.tapes):
        rnd, _ = rec.state(h, 0)
        n = rec.hands_without_moves + h + 1 if t.dealer is None else 1
        dealer = rec.names[rnd.dealer]
        out.append(f"Hand {n}: {dealer} {verb(dealer, 'deal', 'deals')}, upcard {card_text(rnd.pile[-1])}")
        for p in (0, 1):
            out.append(f"  {rec.names[p]}: {' '.join(card_text(c) for c in _cards(rnd.hands[p]))}")
        for i in range(1, len(t.actions) + 1):
            out.append("  " + describe_step(rec, h, i))
        end, _ = rec.state(h, len(t.actions))
        if end.phase == OVER and end.result is not None:
            out.append("  = " + "; ".join(result_lines(end.result, rec.names)))
    return out


# ----------------------------------------------------------- session (UI)
class ReplaySession:
    """What the terminal front end drives: same clock, buttons and display path as the game."""

    def __init__(self, rec: Record, *, virtual: bool = True) -> None:
        self.rec = rec
        self.hw = FakeHw(virtual=virtual, controller=True)  # an in-memory flash: a replay writes nothing
        self.clock: Clock = self.hw.clock
        self.buttons: Buttons = self.hw.buttons
        self.display: Display = self.hw.display
        self.view = ReplayView(rec)
        self.startup_message = f"Replay of {rec.source}: left/right step, up/down hand, d play, s end, q quit"
        self.finished = False
        self._next_play = 0
        self._dirty = True

    def tap(self, press) -> None:
        self.buttons.press(press.button, press.hold_ms)

    def step(self) -> int:
        v = self.view
        for ev in self.buttons.events():
            b, kind = ev >> 2, ev & 3
            if kind not in (PRESS, REPEAT):
                continue
            if b in (LEFT, RIGHT):
                self._dirty |= v.move(1 if b == RIGHT else -1)
                v.playing = False
            elif kind != PRESS:
                continue
            elif b in (UP, DOWN):
                self._dirty |= v.goto_hand(1 if b == DOWN else -1)
            elif b == DRAW:
                v.playing = not v.playing
                if v.playing and v.step >= v.length:
                    v.step = 0
                self._next_play = self.clock.now() + PLAY_EVERY_MS
                self._dirty = True
            elif b == DISCARD:
                v.step = 0 if v.step >= v.length else v.length
                self._dirty = True
            elif b == MENU:
                self.finished = True
        if v.playing and self.clock.now() >= self._next_play:
            self._next_play = self.clock.now() + PLAY_EVERY_MS
            if not v.move(1):
                v.playing = False
            self._dirty = True
        if self._dirty:
            self._dirty = False
            self.display.show(v.draw())
        return 20

    def run_for(self, ms: int) -> None:
        end = self.clock.now() + ms
        while self.clock.now() < end:
            self.step()
            self.clock.advance_to(min(end, self.clock.now() + 5))

    def in_game(self) -> bool:
        return False

    def save_now(self) -> None:
        pass

    def describe(self) -> str:
        return "replay \u00b7 " + self.rec.source


# ------------------------------------------------------------------ entry
def main_with(rec: Record, args, steps, headless: bool) -> int:
    """simulator --replay: interactive in the terminal, or the script's keys head-less."""
    from host_tools.simulator import keys as keymap

    if headless:
        from host_tools.simulator.session import run_script

        session = ReplaySession(rec, virtual=True)
        run_script(session, steps or [keymap.Press(RIGHT)] * session.view.length, args)
        return 0
    from host_tools.simulator import term as sim_term

    return sim_term.run_with_args(ReplaySession(rec, virtual=False), args, bell=False)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m host_tools.simulator.replay", description="Replay a saved game or a record."
    )
    p.add_argument("file", type=Path, help="game.sav (or .bak) or a JSON record")
    p.add_argument("--export", type=Path, metavar="OUT.json", help="write the record as JSON")
    p.add_argument("--frames-dir", type=Path, help="a PNG per step of the hand")
    p.add_argument("--palette", default="white")
    p.add_argument("--scale", type=int, default=4)
    args = p.parse_args(argv)
    try:
        rec = load(args.file)
    except ReplayError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    try:
        return _run(rec, args)
    except (OSError, ValueError) as e:  # an export or frames path that can't be written
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        where = getattr(e, "filename", None)
        print(
            f"python -m host_tools.simulator.replay: can't write{' ' + str(where) if where else ''}: {why}",
            file=sys.stderr,
        )
        return 1


def _run(rec: Record, args) -> int:
    if args.export:
        args.export.write_text(json.dumps(rec.to_json()) + "\n")
        print(args.export)
        return 0
    if args.frames_dir:
        from host_tools.simulator.frames import save_glass

        args.frames_dir.mkdir(parents=True, exist_ok=True)
        view = ReplayView(rec)
        n = 0
        session = ReplaySession(rec)
        for h in range(len(rec.tapes)):
            view.hand = h
            for s in range(len(rec.tapes[h].actions) + 1):
                view.step = s
                session.display.show(view.draw())
                n += 1
                save_glass(
                    session.display.glass(),
                    args.frames_dir / f"frame-{n:05d}.png",
                    palette=args.palette,
                    scale=args.scale or 4,
                )
        print(f"{n} frames in {args.frames_dir}")
        return 0
    try:
        print("\n".join(transcript(rec)))
    except BrokenPipeError:  # `| head`: the reader has seen enough
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
