"""python -m host_tools.pico [--quick] [--only NAMES] [--minutes M]: see host_tools/pico/check.py."""

import argparse
import sys
import time

from host_tools.pico import check
from host_tools.pico import emulator as emu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m host_tools.pico", description=check.__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the short run of make test (about 3 minutes)")
    ap.add_argument("--only", default="", help="comma-separated scenario names (boot, easy, ..., link-cut)")
    ap.add_argument(
        "--minutes", type=float, default=10.0, help="emulated minutes of play for expert, watch, link"
    )
    ap.add_argument("--no-budget", action="store_true", help="report the figures, fail only on crashes")
    args = ap.parse_args(argv)
    try:
        work = emu.setup()
    except emu.NoPico as e:
        print(f"pico: skipped: {e}")
        return 0
    todo = check.scenarios(args.quick, args.minutes)
    if args.only:
        names = set(args.only.split(","))
        todo = [s for s in todo if s.name in names]
    figs = []
    for sc in todo:
        t0 = time.monotonic()
        out = check.run_scenario(sc, work / "fs", not args.no_budget)
        for f in out:
            state = "ok" if not f.problems else "FAIL: " + "; ".join(f.problems)
            print(f"pico: {f.name}: {sc.ms / 1000:.0f} s emulated in {time.monotonic() - t0:.0f} s; "
                  f"min free {check.kb(f.min_free())} KB, largest block {check.kb(f.min_block())} KB; {state}",
                  flush=True)  # fmt: skip
        figs += out
    print()
    print(check.table(figs))
    bad = [f for f in figs if f.problems]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
