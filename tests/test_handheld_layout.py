"""The soldered layout (host_tools/hardware/layout.py) against firmware/device/pins.py: every
wire joins the part pin to the Pico pin the pin map names, no hole holds two legs, and a wire
moved or a pin map changed without the layout is caught."""

import dataclasses

from host_tools.gen import pin_docs
from host_tools.hardware import layout as L
from host_tools.hardware import nets


def test_every_part_pin_reaches_the_pico_pin_pins_py_names():
    assert nets.problems() == []


def test_a_swapped_wire_is_found():
    ws = L.wires()
    i = next(k for k, w in enumerate(ws) if w.net == "UP")
    j = next(k for k, w in enumerate(ws) if w.net == "DOWN")
    ws[i], ws[j] = dataclasses.replace(ws[i], b=ws[j].b), dataclasses.replace(ws[j], b=ws[i].b)
    found = nets.problems(wires=ws)
    assert any(s.startswith("button UP 1") for s in found) and any(
        s.startswith("button DOWN 1") for s in found
    )


def test_a_missing_ground_is_found():
    ws = [w for w in L.wires() if not (w.net == "GND" and w.b == L.CHARGER_PADS["OUT-"])]
    assert "the charger's OUT- is not on ground" in nets.problems(wires=ws)


def test_a_pin_map_change_the_layout_does_not_follow_is_found(monkeypatch):
    pins = pin_docs.load_pins()
    pins.BUTTONS = dict(pins.BUTTONS, MENU=10)  # MENU moved to GP10 (pin 14) in pins.py only
    real = pin_docs.netlist
    monkeypatch.setattr(nets, "netlist", lambda: real(pins))
    assert any(s.startswith("button MENU 1") and "pin 14" in s for s in nets.problems())


def test_no_hole_takes_two_legs_and_every_hole_is_on_the_board():
    seen = {}
    for p in L.parts():
        for h in p.holes():
            assert h not in seen, f"{L.hole_name(h)}: {p.ref} and {seen[h]}"
            seen[h] = p.ref
            c, r = h
            assert 0 <= c < L.COLS and 0 <= r < L.ROWS
            assert L.hole_xy(c, r)[0] > L.BOARD_X0, f"{L.hole_name(h)} is on the part sawn off"
    for h in L.MOUNT_HOLES:
        assert h not in seen, f"mounting hole {L.hole_name(h)} is taken by {seen[h]}"


def test_wires_join_holes_on_the_board_only():
    for w in L.wires():
        for c, r in (w.a, w.b):
            assert 0 <= c < L.COLS and 0 <= r < L.ROWS
        assert w.a != w.b


HOLE = {L.hole_name((c, r)): (c, r) for c in range(L.COLS) for r in range(L.ROWS)}


def test_the_perfboard_picture_and_list_are_up_to_date():
    from host_tools.hardware import perfboard

    assert perfboard.SVG_FILE.read_text(encoding="utf-8") == perfboard.svg(), "run `make perfboard`"
    text = perfboard.README.read_text(encoding="utf-8")
    assert perfboard.render_readme(text) == text, "run `make perfboard`"


def test_the_picture_read_back_wires_every_pin_as_pins_py_says():
    import xml.etree.ElementTree as ET

    from host_tools.hardware import perfboard

    root = ET.fromstring(perfboard.SVG_FILE.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    drawn = [
        L.Wire(HOLE[e.get("data-a")], HOLE[e.get("data-b")], e.get("data-net"))
        for e in root.iter(f"{ns}line")
        if e.get("class") == "wire"
    ]
    assert len(drawn) == len(L.wires())
    assert nets.problems(wires=drawn) == []
    pins = {
        (e.get("data-part"), e.get("data-pin")): e.get("data-hole")
        for e in root.iter(f"{ns}circle")
        if e.get("class") == "pin"
    }
    for p in L.parts():
        for name, h in p.pins.items():
            assert pins[(p.ref, name)] == L.hole_name(h)


def test_the_readme_list_read_back_wires_every_pin_as_pins_py_says():
    from host_tools.hardware import perfboard

    pins, wires = perfboard.parse_hole_list(perfboard.README.read_text(encoding="utf-8"))
    listed = [L.Wire(HOLE[a], HOLE[b], net) for a, b, net in wires]
    assert nets.problems(wires=listed) == []
    for p in L.parts():
        if p.ref == "U1":
            continue
        for name, h in p.pins.items():
            assert pins[(p.ref, name)] == L.hole_name(h)


def schematic_disagreements(svg_text, pins):
    """What the schematic's nets and pin labels say that the pin map does not."""
    import xml.etree.ElementTree as ET

    from host_tools.gen.pin_docs import HEADER, netlist

    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg_text)
    drawn = {
        (e.get("data-part"), e.get("data-part-pin")): (int(e.get("data-pico-pin")), e.get("data-gpio"))
        for e in root.iter(f"{ns}polyline")
        if e.get("class") == "net"
    }
    out = []
    for w in netlist(pins):
        if w.signal == "GND" and w.part != "link jack":
            continue  # drawn as ground symbols
        got = drawn.get((w.part, w.part_pin))
        if got is None:
            out.append(f"{w.part} {w.part_pin}: not drawn")
        elif got[0] != w.pico_pin or (w.gpio is not None and got[1] != str(w.gpio)):
            out.append(
                f"{w.part} {w.part_pin}: drawn to pin {got[0]} (GP{got[1]}), pins.py says pin {w.pico_pin}"
            )
    if drawn.get(("D1", "K"), (None,))[0] != 39:
        out.append("the diode does not feed VSYS (pin 39)")
    for e in root.iter(f"{ns}text"):
        if e.get("class") == "pico-pin":
            words = e.text.split()
            n = int(words[0] if words[0].isdigit() else words[-1])
            name = words[1] if words[0].isdigit() else words[0]
            if HEADER[n] != name:
                out.append(f"pin {n} labelled {name}, the header says {HEADER[n]}")
    return out


def test_the_schematic_is_up_to_date():
    from host_tools.hardware import schematic

    assert schematic.SVG_FILE.read_text(encoding="utf-8") == schematic.svg(), "run `make schematic`"


def test_every_pin_in_the_schematic_is_the_one_in_pins_py():
    from host_tools.gen.pin_docs import load_pins
    from host_tools.hardware import schematic

    assert schematic_disagreements(schematic.SVG_FILE.read_text(encoding="utf-8"), load_pins()) == []


def test_a_schematic_of_another_pin_map_is_caught():
    from host_tools.gen.pin_docs import load_pins
    from host_tools.hardware import schematic

    other = load_pins()
    other.BUTTONS = dict(other.BUTTONS, MENU=10)
    other.I2C_SDA, other.I2C_SCL = 2, 3  # I2C1 on GP2/GP3 (and UP, DOWN elsewhere)
    other.BUTTONS["UP"], other.BUTTONS["DOWN"] = 26, 27
    found = schematic_disagreements(schematic.svg(other), load_pins())
    assert any(s.startswith("button MENU 1") for s in found)
    assert any(s.startswith("OLED SDA") for s in found)
