"""Which holes the wires join, and whether that is what the pin map says.

``problems()`` reads the perfboard's wires (host_tools/hardware/layout.py) as nets and checks
every part pin against firmware/device/pins.py through the netlist host_tools.gen.pin_docs
builds from it: each signal reaches the Pico pin of its GPIO and no other Pico pin; each ground
reaches a Pico ground.
"""

from __future__ import annotations

from host_tools.gen.pin_docs import HEADER, netlist
from host_tools.hardware import layout as L

Hole = tuple[int, int]
# parts that join their own pins: current passes through them
THROUGH = {"R1": ("1", "2")}


def groups(wires: list[L.Wire], parts: list[L.Part]) -> dict[Hole, Hole]:
    """hole -> a representative of the holes joined to it (union-find)."""
    up: dict[Hole, Hole] = {}

    def find(h: Hole) -> Hole:
        up.setdefault(h, h)
        while up[h] != h:
            up[h] = up[up[h]]
            h = up[h]
        return h

    def join(a: Hole, b: Hole) -> None:
        up[find(a)] = find(b)

    for w in wires:
        join(w.a, w.b)
    for p in parts:
        if p.ref in THROUGH:
            a, b = THROUGH[p.ref]
            join(p.pins[a], p.pins[b])
        for h in p.holes():
            find(h)
    return {h: find(h) for h in list(up)}


def pico_pins_on(hole: Hole, g: dict[Hole, Hole]) -> set[int]:
    """The Pico's physical pins joined to ``hole``."""
    root = g.get(hole, hole)
    return {n for n in range(1, 41) if g.get(L.pico_hole(n), L.pico_hole(n)) == root}


def problems(wires: list[L.Wire] | None = None, parts: list[L.Part] | None = None) -> list[str]:
    ps = parts if parts is not None else L.parts()
    ws = wires if wires is not None else L.wires()
    g = groups(ws, ps)
    by_what = {p.what: p for p in ps}
    out = []
    for w in netlist():
        p = by_what.get(w.part)
        if p is None:
            out.append(f"{w.part}: not on the board")
            continue
        hole = p.pins[w.part_pin]
        on = pico_pins_on(hole, g)
        if w.signal == "GND":
            if not on or any(HEADER[n] not in ("GND", "AGND") for n in on):
                out.append(
                    f"{w.part} {w.part_pin} ({L.hole_name(hole)}): on Pico pins {sorted(on)}, not ground"
                )
        elif on != {w.pico_pin}:
            out.append(
                f"{w.part} {w.part_pin} ({L.hole_name(hole)}): on Pico pins {sorted(on)}, pins.py says pin {w.pico_pin} ({w.signal})"
            )
    # the battery path: the charger's output, the switch, the diode, VSYS
    chg, sw, d = by_what["charger output leads"], by_what["power switch"], by_what["1N5817"]
    if pico_pins_on(d.pins["K"], g) != {39}:
        out.append("the diode's cathode does not reach VSYS (pin 39)")
    if g.get(d.pins["A"]) != g.get(sw.pins["ON"]) or g.get(sw.pins["COM"]) != g.get(chg.pins["OUT+"]):
        out.append("the charger's OUT+ does not reach the diode through the switch")
    if pico_pins_on(chg.pins["OUT-"], g) - {3, 8, 13, 18, 23, 28, 33, 38} or not pico_pins_on(
        chg.pins["OUT-"], g
    ):
        out.append("the charger's OUT- is not on ground")
    return out
