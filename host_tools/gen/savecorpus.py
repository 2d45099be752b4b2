"""Write the save corpus again: real files from every firmware version that shipped a save format.

    python -m host_tools.gen.savecorpus [--out tests/mp/corpus]

For each commit in VERSIONS, the commit's own firmware/ is taken out of git (``git archive``)
into a temporary folder and run under this Python: it plays matches with its own engine and
saves them through its own SaveManager into a folder of the PC, as the device would on its
flash. Each commit writes games in every mode it knows (against the computer, two people,
watch, a hand-result screen, and from the link cable on, a link match), its settings with
every field away from its default, its statistics with every level filled, and its link
statistics. The same firmware then loads its files back, and what it sees (scores, hands,
cards, counters) goes into corpus_expect.py: tests/mp/test_corpus_mp.py checks that today's
firmware sees the same. Nothing here touches the player's save folder.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "mp" / "corpus"

# (folder, commit, what its formats were): every firmware that wrote a format of its own.
VERSIONS = (
    ("v1-first", "fa14c86", "game 1 with a screen id, settings 1, stats 1 (three levels)"),
    ("v1-expert", "34025c6", "the expert level: stats 2 (four levels), games at level 3"),
    ("v1-trust", "e0093dd", "game 1 with the reserved byte written 0"),
    ("v2-link", "0b584a6", "game 2 (link matches, mode 3), settings 2, link stats 2"),
    ("v2-last", "83299a6", "the last firmware before issue 26: the same formats as v2-link"),
    ("v3-counted", "fc8c959", "issue 26: settings 3 and stats 3 count their fields; game 2"),
)

# Runs inside the old firmware (its folder first on sys.path): only APIs every version has.
WRITER = r'''
import json, os, sys

fw, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, fw)
import savegame as sg
from device.storage import FileStorage
from gin.match import GAME_OVER, HAND_OVER, PLAYING, Match
from gin.rules import RuleSet
from gin import melds

try:
    import prefs as P
except ImportError:
    import profile as P  # firmware/profile.py, the first name of prefs.py

state = [20261129]


def rng():
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return state[0] >> 8


def step(m):
    """A greedy player: big gin or the best knock, else the discard that keeps least deadwood."""
    rnd = m.round
    acts = m.legal_actions()
    h = list(rnd.hands[rnd.player])

    def left(c):  # deadwood after throwing c (a discard, or a knock's card)
        c %= 52
        h[c // 13] ^= 1 << (c % 13)
        d = melds.deadwood(h)
        h[c // 13] ^= 1 << (c % 13)
        return d

    ends = [a for a in acts if a == 107] or sorted((a for a in acts if 52 <= a < 104), key=left)
    throws = sorted((a for a in acts if a < 52), key=left)
    if ends:
        a = ends[0]
    elif throws:
        a = throws[0]
    else:
        a = acts[rng() % len(acts)]  # draw, take, pass or spread: by chance
    m.apply(a)


def finish_hand(m):
    while m.state == PLAYING:
        step(m)


def play(m, hands, live):
    """hands finished hands, then live actions of the next (fewer if the match ends)."""
    prev = b""
    for _ in range(hands):
        finish_hand(m)
        if m.state != HAND_OVER:
            break
        prev = bytes(m.round.actions)
        m.next_hand()
    for _ in range(live):
        if m.state != PLAYING:
            break
        step(m)
    return prev


def manager(name):
    d = os.path.join(out, "_" + name)
    os.makedirs(d)
    return sg.SaveManager(FileStorage(d)), d


def keep(d, src, dst):
    os.replace(os.path.join(d, src), os.path.join(out, dst))
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    os.rmdir(d)


facts = []
nlevels = len(P.Stats().levels)
link = hasattr(sg, "MODE_LINK")


def game(name, rules, seed, mode, level, hands, live, sort=0, cursor=-1, aiseed=0, over=False, seat=None):
    m = Match(rules, seed)
    prev = play(m, hands, live)
    if over:
        finish_hand(m)
    snap = sg.snapshot_of(m, mode=mode, level=level, sort=sort, cursor=cursor, aiseed=aiseed)
    snap["screen"] = 3  # the first firmware kept a screen id in the game record
    if seat is not None:
        snap["seat"] = seat
        snap["prev"] = prev
    mgr, d = manager(name)
    assert mgr.save_game(snap), name
    back, msg = sg.SaveManager(FileStorage(d)).load_game()
    assert back is not None and msg is None, (name, msg)
    r = back["match"]
    facts.append({
        "file": name, "kind": "game", "mode": back["mode"], "level": back["level"],
        "sort": back["sort"], "cursor": back["cursor"], "seed": back["seed"],
        "aiseed": back["aiseed"], "over": bool(back.get("over")),
        "rules": RuleSet.from_bytes(back["rules"]).as_dict(),
        "summaries": [list(s) for s in r.summaries], "actions": bytes(r.round.actions).hex(),
        "scores": [r.score_of(0), r.score_of(1)], "state": r.state,
        "seat": back.get("seat"), "prev": bytes(back.get("prev", b"")).hex(),
    })
    keep(d, "game.sav", name)


top = nlevels - 1
game("game-cpu.sav", RuleSet(), 11, 0, top, 2, 7, sort=1, cursor=17, aiseed=12345)
game("game-two.sav", RuleSet.preset_rules("10/20", hollywood=True, target=150), 22, 1, 0, 3, 5, cursor=4)
game("game-watch.sav", RuleSet.preset_rules("modern", oklahoma=True, oklahoma_spade_double=True), 33, 2, 1, 1, 9)
game("game-result.sav", RuleSet(straight=True, target=250), 44, 0, 2, 1, 0, aiseed=7, over=True)
if link:
    game("game-link.sav", RuleSet(target=50), 55, sg.MODE_LINK, 1, 1, 6, cursor=30, seat=1)

settings = P.default_settings()
settings.update(contrast=200, dim_s=45, off_s=300, sound=False, left=True, hints=False, level=top, mode=2)
settings["rules"] = RuleSet.preset_rules("20/25", oklahoma=True, target=250).to_bytes()
mgr, d = manager("settings")
assert mgr.save_settings(settings)
back, _stats, msg = sg.SaveManager(FileStorage(d)).load_profile()
assert msg is None
back = dict(back)
back["rules"] = RuleSet.from_bytes(back["rules"]).as_dict()
facts.append({"file": "settings.sav", "kind": "settings", "settings": back})
keep(d, "settings.sav", "settings.sav")


def matches(st, level, n, me, seed):
    for i in range(n):
        m = Match(RuleSet(target=10 + 5 * level), seed + i)
        while True:
            finish_hand(m)
            st.record_hand(level, m.summaries[-1], me, key=(m.seed, len(m.summaries)))
            if m.state == GAME_OVER:
                break
            m.next_hand()
        st.record_match(level, m, me, key=m.seed)


def stats_facts(st):
    return {"levels": [s.values() for s in st.levels], "hand_mark": list(st.hand_mark), "match_mark": st.match_mark}


st = P.Stats()
for lv in range(nlevels):
    matches(st, lv, 2 + lv, 0, 100 * (lv + 1))
mgr, d = manager("stats")
assert mgr.save_stats(st)
_s, back, msg = sg.SaveManager(FileStorage(d)).load_profile()
assert msg is None
facts.append(dict(stats_facts(back), file="stats.sav", kind="stats"))
keep(d, "stats.sav", "stats.sav")

if link:
    ls = P.LinkStats()
    matches(ls, 0, 3, 1, 900)
    mgr, d = manager("linkstats")
    assert mgr.save_link_stats(ls)
    back = sg.SaveManager(FileStorage(d)).load_link_stats()
    facts.append(dict(stats_facts(back), file="linkstats.sav", kind="linkstats"))
    keep(d, "linkstats.sav", "linkstats.sav")

print(json.dumps(facts))
'''


def firmware_of(commit, into):
    """firmware/ of ``commit`` extracted under ``into``; returns its path."""
    tar = subprocess.run(["git", "archive", commit, "firmware"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(tar.stdout)) as t:
        t.extractall(into, filter="data")
    return Path(into) / "firmware"


def write(out):
    out.mkdir(parents=True, exist_ok=True)
    expect = {}
    for folder, commit, _why in VERSIONS:
        with tempfile.TemporaryDirectory() as tmp:
            fw = firmware_of(commit, tmp)
            dest = out / folder
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir()
            # -I: nothing from the environment or the current folder; -S: no site hooks.
            proc = subprocess.run(
                [sys.executable, "-I", "-S", "-c", WRITER, str(fw), str(dest)],
                cwd=tmp,
                capture_output=True,
                text=True,
            )
            if proc.returncode:
                raise SystemExit(f"{commit}: the old firmware failed to write its files\n{proc.stderr}")
            expect[folder] = json.loads(proc.stdout)
    lines = [
        '"""What each firmware of tests/mp/corpus/ saw in its own files: written by host_tools/gen/savecorpus.py."""',
        "",
        "# fmt: off",
        "EXPECT = {",
    ]
    for folder in expect:
        lines.append(f"    {folder!r}: [")
        lines.extend(f"        {e!r}," for e in expect[folder])
        lines.append("    ],")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    (out.parent / "corpus_expect.py").write_text(text, encoding="utf-8")
    return expect


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m host_tools.gen.savecorpus", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--out", type=Path, default=CORPUS, help="the corpus folder (default: tests/mp/corpus)"
    )
    ns = parser.parse_args(argv)
    expect = write(ns.out)
    for folder, facts in expect.items():
        print(f"{folder}: {len(facts)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
