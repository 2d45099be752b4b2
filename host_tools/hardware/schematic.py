"""The electrical schematic of the whole handheld: hardware/schematic.svg, from the pin map.

    python -m host_tools.hardware.schematic            # (re)write it
    python -m host_tools.hardware.schematic --check    # exit 1 if it is stale

The Pico is drawn as its header (pins 1-20 down the left, 21-40 up the right, each with its
name); every connection comes from host_tools.gen.pin_docs.netlist() (firmware/device/pins.py)
plus the battery path (charger, switch, diode into VSYS) and the on-board VSYS/3 divider the
battery gauge reads.  Each net line carries data-part, data-part-pin, data-pico-pin and data-gpio
so tests/test_handheld_layout.py reads the drawing back and compares it with pins.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from host_tools.gen.pin_docs import HEADER, Wire, load_pins, netlist

ROOT = Path(__file__).resolve().parents[2]
SVG_FILE = ROOT / "hardware" / "schematic.svg"
W, H = 1260, 690
PX0, PX1 = 470, 650  # the Pico's box
PY0, DY = 90, 24  # pin 1's y, then one row per pin
STUB = 26
GBUS = 225  # x of the buttons' ground bus


def pin_y(pin: int) -> float:
    return PY0 + ((pin - 1) if pin <= 20 else (40 - pin)) * DY


def pin_x(pin: int) -> float:
    return PX0 - STUB if pin <= 20 else PX1 + STUB


def _t(x, y, s, size=12, anchor="middle", cls="label", fill="#111"):
    return f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}">{escape(s)}</text>'


def _line(pts, cls="", extra="", stroke="#111", width=1.6):
    d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    c = f' class="{cls}"' if cls else ""
    return f'<polyline{c} points="{d}" fill="none" stroke="{stroke}" stroke-width="{width}"{extra}/>'


def _net(w: Wire, pts) -> str:
    """A wire from a part's pin to the Pico's pin, with what it is for the test to read."""
    attrs = f' data-part="{escape(w.part)}" data-part-pin="{escape(w.part_pin)}" data-pico-pin="{w.pico_pin}"'
    if w.gpio is not None:
        attrs += f' data-gpio="{w.gpio}"'
    return _line(pts, "net", attrs)


def ground(x, y):
    return (
        _line([(x, y), (x, y + 8)])
        + _line([(x - 9, y + 8), (x + 9, y + 8)])
        + _line([(x - 6, y + 12), (x + 6, y + 12)])
        + _line([(x - 3, y + 16), (x + 3, y + 16)])
    )


def button(x0, x1, y, name):
    """A push button between x0 and x1 on a horizontal wire."""
    a, b = x0 + 10, x1 - 10
    return (
        _line([(x0, y), (a - 3, y)])
        + _line([(b + 3, y), (x1, y)])
        + f'<circle cx="{a}" cy="{y}" r="3" fill="none" stroke="#111" stroke-width="1.4"/>'
        + f'<circle cx="{b}" cy="{y}" r="3" fill="none" stroke="#111" stroke-width="1.4"/>'
        + _line([(a - 2, y - 8), (b + 2, y - 8)])
        + _line([((a + b) / 2, y - 8), ((a + b) / 2, y - 12)])
        + _t(x1 + 6, y - 4, name, 10, "start")
    )


def resistor(x0, x1, y, label):
    n = 6
    step = (x1 - x0 - 16) / n
    pts = [(x0, y), (x0 + 8, y)]
    for i in range(n):
        pts.append((x0 + 8 + step * (i + 0.5), y + (-5 if i % 2 == 0 else 5)))
    pts += [(x1 - 8, y), (x1, y)]
    return _line(pts) + _t((x0 + x1) / 2, y - 9, label, 10)


def switch(x0, x1, y, label):
    a, b = x0 + 10, x1 - 10
    return (
        _line([(x0, y), (a, y)])
        + f'<circle cx="{a}" cy="{y}" r="2.5" fill="#111"/>'
        + _line([(a, y), (b - 2, y - 10)])
        + f'<circle cx="{b}" cy="{y}" r="2.5" fill="#111"/>'
        + _line([(b, y), (x1, y)])
        + _t((a + b) / 2, y - 14, label, 10)
    )


def box(x, y, w, h, title, pins, side):
    """A part as a box with named pins on one side: returns (svg, {pin: (x, y)})."""
    out = [
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#fafafa" stroke="#111" stroke-width="1.6"/>'
    ]
    out.append(_t(x + w / 2, y - 6, title, 12))
    at = {}
    for i, name in enumerate(pins):
        py = y + 18 + i * DY
        if side == "left":
            out.append(_line([(x - 14, py), (x, py)]))
            out.append(_t(x + 5, py + 4, name, 11, "start"))
            at[name] = (x - 14, py)
        else:
            out.append(_line([(x + w, py), (x + w + 14, py)]))
            out.append(_t(x + w - 5, py + 4, name, 11, "end"))
            at[name] = (x + w + 14, py)
    return "".join(out), at


def svg(pins=None) -> str:
    """The drawing; pins: a pin map module (default: firmware/device/pins.py)."""
    pins = pins or load_pins()
    nl = netlist(pins)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="Helvetica, Arial, sans-serif">',
        "<title>Gin handheld: schematic (generated from firmware/device/pins.py)</title>",
        f'<rect width="{W}" height="{H}" fill="#ffffff"/>',
        _t(W / 2, 28, "Gin handheld: the whole circuit (generated from firmware/device/pins.py)", 16),
    ]
    # the Pico as its header
    out.append(
        f'<rect x="{PX0}" y="{PY0 - 22}" width="{PX1 - PX0}" height="{20 * DY + 20}" fill="#e8f5e9" stroke="#111" stroke-width="2"/>'
    )
    out.append(_t((PX0 + PX1) / 2, PY0 - 30, "U1 Raspberry Pi Pico (header, seen from above)", 12))
    for p in range(1, 41):
        y = pin_y(p)
        left = p <= 20
        xs = (PX0 - STUB, PX0) if left else (PX1, PX1 + STUB)
        out.append(_line([(xs[0], y), (xs[1], y)]))
        out.append(
            _t(
                PX0 + 6 if left else PX1 - 6,
                y + 4,
                f"{p} {HEADER[p]}" if left else f"{HEADER[p]} {p}",
                11,
                "start" if left else "end",
                cls="pico-pin",
            )
        )
    out.append(
        _t(
            (PX0 + PX1) / 2,
            pin_y(20) + 38,
            f"on the board: VSYS/3 divider to GP{pins.VSYS_GPIO} (ADC{pins.VSYS_ADC}),",
            10,
            fill="#555",
        )
    )
    out.append(_t((PX0 + PX1) / 2, pin_y(20) + 51, "read by the battery gauge", 10, fill="#555"))
    grounds = set()
    bx0, bx1 = 250, 330  # the buttons' column
    bus = []  # the buttons' ground bus: one line down their left, one ground symbol
    for w in nl:
        y = pin_y(w.pico_pin)
        x = pin_x(w.pico_pin)
        if w.signal == "GND":
            grounds.add(w.pico_pin)
            continue
        if w.part.startswith("button "):
            name = w.part.split()[1]
            out.append(_net(w, [(x, y), (bx1, y)]))
            out.append(button(bx0, bx1, y, name))
            out.append(_line([(bx0, y), (GBUS, y)]))
            bus.append(y)
            out.append(_t(bx1 + 90, y - 4, f"GP{w.gpio}", 10, fill="#2e7d32"))
        elif w.part == "piezo":
            out.append(_net(w, [(x, y), (bx1, y)]))
            out.append(
                f'<rect x="{bx0 + 12}" y="{y - 10}" width="{bx1 - bx0 - 24}" height="20" fill="#fff" stroke="#111" stroke-width="1.6"/>'
            )
            out.append(_t((bx0 + bx1) / 2, y + 4, "BZ1", 10))
            out.append(_line([(bx1, y), (bx1 - 12, y)]) + _line([(bx0 + 12, y), (GBUS, y)]))
            bus.append(y)
            out.append(_t((bx0 + bx1) / 2, y - 14, "piezo (passive)", 10))
            out.append(_t(bx1 + 90, y - 4, f"GP{w.gpio} PWM", 10, fill="#2e7d32"))
    if bus:
        out.append(_line([(GBUS, min(bus)), (GBUS, max(bus) + 20)]) + ground(GBUS, max(bus) + 20))
    # the link jack, top left
    jsvg, jat = box(
        60, pin_y(1) - 18, 80, 110, "J1 link jack (TRRS)", ["TIP", "RING1", "RING2", "SLEEVE"], "right"
    )
    out.append(jsvg)
    for w in nl:
        if w.part != "link jack":
            continue
        px, py = pin_x(w.pico_pin), pin_y(w.pico_pin)
        jx, jy = jat[w.part_pin]
        if w.part_pin == "TIP":
            out.append(_net(w, [(px, py), (390, py)]))
            out.append(resistor(310, 390, py, "R1 1k"))
            out.append(_line([(310, py), (jx + 60, py), (jx + 60, jy), (jx, jy)]))
        elif w.part_pin == "SLEEVE":
            out.append(
                _net(
                    w,
                    [
                        (px, py),
                        (px - 12, py),
                        (px - 12, pin_y(3) + 10),
                        (215, pin_y(3) + 10),
                        (215, jy),
                        (jx, jy),
                    ],
                )
            )
        else:
            out.append(
                _net(
                    w, [(px, py), (px - 6, py), (px - 6, py + 3), (jx + 40, py + 3), (jx + 40, jy), (jx, jy)]
                )
            )
    out.append(_t(100, pin_y(1) + 112, "RING2 not connected; the cable", 10, fill="#555"))
    out.append(_t(100, pin_y(1) + 125, "crosses TIP and RING1", 10, fill="#555"))
    for g in sorted(grounds):
        x = pin_x(g)
        out.append(ground(x - 8 if g <= 20 else x + 8, pin_y(g)) if g != 3 else "")
        out.append(_line([(x, pin_y(g)), (x - 8 if g <= 20 else x + 8, pin_y(g))]) if g != 3 else "")
    # the display, right
    osvg, oat = box(
        900, pin_y(36) - 18, 120, 100, "DISP1 OLED 128x64, I2C", ["GND", "VCC", "SCL", "SDA"], "left"
    )
    out.append(osvg)
    out.append(_t(960, pin_y(36) + 96, 'SSD1306 0.96" or SH1106 1.3"', 10, fill="#555"))
    out.append(
        _t(
            960,
            pin_y(36) + 109,
            f"address 0x{pins.OLED_ADDR:02X} (or 0x{pins.OLED_ADDR_ALT:02X}); its own pull-ups",
            10,
            fill="#555",
        )
    )
    xs = {"GND": 700, "VCC": 720, "SCL": 740, "SDA": 760}
    for w in nl:
        if w.part != "OLED":
            continue
        px, py = pin_x(w.pico_pin), pin_y(w.pico_pin)
        ox, oy = oat[w.part_pin]
        mx = xs[w.part_pin]
        out.append(_net(w, [(px, py), (mx, py), (mx, oy), (ox, oy)]))
        if w.gpio is not None:
            out.append(_t(px + 4, py - 4, f"GP{w.gpio}", 10, "start", fill="#2e7d32"))
    # the battery path into VSYS (pin 39): charger OUT+, switch, diode
    y39 = pin_y(39)
    yb = 52
    out.append(
        f'<polyline class="net" data-part="D1" data-part-pin="K" data-pico-pin="39" points="{PX1 + STUB},{y39} {800},{y39} {800},{yb} {830},{yb}" fill="none" stroke="#111" stroke-width="1.6"/>'
    )
    m = 865  # the diode: cathode toward VSYS (left), anode toward the switch
    out.append(_line([(830, yb), (m - 6, yb)]) + _line([(m - 6, yb - 7), (m - 6, yb + 7)], width=2.2))
    out.append(
        f'<polygon points="{m + 7},{yb - 7} {m + 7},{yb + 7} {m - 6},{yb}" fill="#111"/>'
        + _line([(m + 7, yb), (900, yb)])
    )
    out.append(_t(m, yb - 11, "D1 1N5817", 10))
    out.append(switch(900, 980, yb, "SW1 power"))
    csvg, cat = box(1040, yb - 18, 100, 60, "U2 TP4056 charger", ["OUT+", "OUT-"], "left")
    out.append(csvg)
    cx, cy = cat["OUT+"]
    out.append(_line([(980, yb), (cx, cy)]))
    ox, oy = cat["OUT-"]
    out.append(_line([(ox, oy), (ox - 16, oy)]) + ground(ox - 16, oy))
    out.append(_t(1135, yb + 4, "B+", 11, "end") + _t(1135, yb + 28, "B-", 11, "end"))
    bx = 1190
    out.append(_line([(1140, yb), (bx, yb), (bx, yb + 6)]))
    out.append(
        _line([(bx - 12, yb + 6), (bx + 12, yb + 6)], width=2.2)
        + _line([(bx - 6, yb + 12), (bx + 6, yb + 12)], width=2.2)
    )
    out.append(_line([(bx, yb + 12), (bx, yb + 24), (1140, yb + 24)]))
    out.append(_t(bx + 16, yb + 12, "BT1", 10, "start") + _t(bx + 16, yb + 24, "LiPo", 10, "start"))
    out.append(_t(1090, yb + 56, "charges from its own USB-C", 10, fill="#555"))
    out.append(
        _t(
            W / 2,
            H - 16,
            "Buttons read 0 when pressed (internal pull-ups, no resistors); every ground symbol is one net; VBUS (pin 40) is USB 5 V, which the Pico's own diode feeds to VSYS.",
            11,
            fill="#333",
        )
    )
    out.append("</svg>")
    return "\n".join(s for s in out if s) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if hardware/schematic.svg is stale")
    a = ap.parse_args(argv)
    new = svg()
    old = SVG_FILE.read_text(encoding="utf-8") if SVG_FILE.exists() else ""
    if a.check:
        if old != new:
            print(f"{SVG_FILE}: stale; run `make schematic`", file=sys.stderr)
            return 1
        return 0
    if old != new:
        SVG_FILE.write_text(new, encoding="utf-8")
        print(f"wrote {SVG_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
