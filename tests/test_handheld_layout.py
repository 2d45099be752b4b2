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
