"""Does it fit?  The case's holes, walls and bays against the parts, from the layout's numbers.

``problems()`` lists every way the case (as hardware/case/params.scad describes it) and the
parts (as host_tools/hardware/layout.py places them) disagree; an empty list means it fits.
tests/test_case.py runs it, and shows each check failing on a layout that is wrong.
"""

from __future__ import annotations

import math
from pathlib import Path

from host_tools.hardware import layout as L
from host_tools.hardware import params as params_file

CENTRE_TOL = 0.2  # a button stem's or the visible area's centre, off its hole's centre by at most this
MIN_WALL = 1.6  # four perimeters of a 0.4 mm nozzle
MIN_WEB = 1.2  # plastic left between two holes in the plate
MIN_STEM_CLEAR, MAX_STEM_CLEAR = 0.25, 0.6  # radial play of a stem in its hole
MIN_PROTRUDE, MAX_PROTRUDE = 1.5, 4.0  # how far a button stands out of the front
MIN_GAP = 0.3  # between a part and the plate above it
MIN_BITE = 3.0  # how far a screw goes into its boss


def _params(path: Path | None) -> dict:
    return params_file.read(path or params_file.PARAMS)


def _as_box(v) -> L.Box:
    return L.Box(*v)


def problems(kind: str = L.OLED, params: dict | None = None, parts: list[L.Part] | None = None) -> list[str]:
    """Every misfit; params: the case as parsed from params.scad (default: the file)."""
    P = params if params is not None else _params(None)
    ps = parts if parts is not None else L.parts(kind)
    out: list[str] = []
    shell, cavity = _as_box(P["shell"]), _as_box(P["cavity"])
    split = P["split_z"]

    # walls, plate and floor
    for side, t in (
        ("left wall", cavity.x0 - shell.x0),
        ("right wall", shell.x1 - cavity.x1),
        ("top wall", cavity.y0 - shell.y0),
        ("bottom wall", shell.y1 - cavity.y1),
        ("front plate", shell.z1 - cavity.z1),
        ("back", cavity.z0 - shell.z0),
    ):
        if t < MIN_WALL - 1e-6:
            out.append(f"the {side} is {t:.2f} mm thick, under {MIN_WALL}")

    # the buttons: each stem centred in its hole, with play, standing out of the front
    holes = P["button_holes"]
    buttons = [p for p in ps if p.what.startswith("button ")]
    if len(holes) != len(buttons):
        out.append(f"{len(holes)} button holes for {len(buttons)} buttons")
    for p in buttons:
        stem = p.boxes[1]
        sx, sy = stem.centre
        d_stem = stem.x1 - stem.x0
        near = min(holes, key=lambda h: math.hypot(h[0] - sx, h[1] - sy))
        off = math.hypot(near[0] - sx, near[1] - sy)
        if off > CENTRE_TOL:
            out.append(f"{p.what}: its stem is {off:.2f} mm off its hole's centre")
        play = (near[2] - d_stem) / 2
        if not MIN_STEM_CLEAR <= play <= MAX_STEM_CLEAR:
            out.append(f"{p.what}: {play:.2f} mm play in its hole, not {MIN_STEM_CLEAR}-{MAX_STEM_CLEAR}")
        stand = stem.z1 - shell.z1
        if not MIN_PROTRUDE <= stand <= MAX_PROTRUDE:
            out.append(f"{p.what}: stands {stand:.2f} mm out of the front, not {MIN_PROTRUDE}-{MAX_PROTRUDE}")
    # plastic between holes, and between each hole and the walls
    circles = [(h[0], h[1], h[2] / 2) for h in holes]
    for i, a in enumerate(circles):
        for b in circles[i + 1 :]:
            web = math.hypot(a[0] - b[0], a[1] - b[1]) - a[2] - b[2]
            if web < MIN_WEB:
                out.append(f"only {web:.2f} mm between the button holes at {a[:2]} and {b[:2]}")
        if (
            min(
                a[0] - a[2] - cavity.x0,
                cavity.x1 - a[0] - a[2],
                a[1] - a[2] - cavity.y0,
                cavity.y1 - a[1] - a[2],
            )
            < 0
        ):
            out.append(f"the button hole at {a[:2]} cuts into a wall")

    # the screen: the visible area centred in the window, the window inside the glass
    win = _as_box(P["window"])
    disp = [p for p in ps if p.ref == "DISP1"]
    g = L.oled_geometry(kind)
    vis, glass = g["visible"], g["glass"]
    off = math.hypot(win.centre[0] - vis.centre[0], win.centre[1] - vis.centre[1])
    if off > CENTRE_TOL:
        out.append(f"the screen's visible area is {off:.2f} mm off the window's centre")
    if not (win.x0 <= vis.x0 and vis.x1 <= win.x1 and win.y0 <= vis.y0 and vis.y1 <= win.y1):
        out.append("the window hides part of the screen's visible area")
    if not (glass.x0 <= win.x0 and win.x1 <= glass.x1 and glass.y0 <= win.y0 and win.y1 <= glass.y1):
        out.append("the window is larger than the screen's glass: the module's board shows")
    for x, y, r in circles:
        dx = max(win.x0 - x, 0, x - win.x1)
        dy = max(win.y0 - y, 0, y - win.y1)
        if math.hypot(dx, dy) - r < MIN_WEB:
            out.append(f"the button hole at {(x, y)} is too close to the screen's window")
    if disp and disp[0].body.z1 > cavity.z1:
        out.append("the screen module is taller than the space under the plate")

    # every part inside the case, clear of the plate, and of every other part
    solid = []
    for p in ps:
        body = p.body
        if not body.inside(cavity):
            out.append(f"{p.ref} ({p.what}) does not fit inside the case: {body} vs {cavity}")
        if body.z1 > 0 and cavity.z1 - body.z1 < MIN_GAP - 1e-6 and p.what != "OLED":
            out.append(f"{p.ref} ({p.what}) is {cavity.z1 - body.z1:.2f} mm under the plate, under {MIN_GAP}")
        if body.z1 <= -L.BOARD_T and body.overlaps(L.wiring_box()):
            out.append(f"{p.ref} ({p.what}) takes the space behind the board kept for wiring")
        solid.append((p.ref, body))
    if disp and cavity.z1 - g["glass"].z1 < MIN_GAP - 1e-6:
        out.append("the screen's glass touches the plate")
    solid.append(("the board", L.board_box()))
    for x, y in (tuple(m) for m in P["mounts"]):
        r = P["boss_d"] / 2
        solid.append((f"the boss at ({x:.1f}, {y:.1f})", L.Box(x - r, y - r, 0, x + r, y + r, cavity.z1)))
        solid.append(
            (f"the standoff at ({x:.1f}, {y:.1f})", L.Box(x - r, y - r, cavity.z0, x + r, y + r, split))
        )
    for i, (na, a) in enumerate(solid):
        for nb, b in solid[i + 1 :]:
            if a.overlaps(b):
                out.append(f"{na} and {nb} overlap")
    if not L.board_box().inside(cavity):
        out.append("the board does not fit inside the case")
    for x, y in (tuple(m) for m in P["mounts"]):
        bb = L.board_box()
        if not (bb.x0 + 2 <= x <= bb.x1 - 2 and bb.y0 + 2 <= y <= bb.y1 - 2):
            out.append(f"the screw hole at ({x:.1f}, {y:.1f}) is within 2 mm of the board's edge")

    # the screws: from the back, through the standoff and the board, biting into the boss
    tip = shell.z0 + P["screw_head_h"] + P["screw_l"]
    if tip < MIN_BITE:
        out.append(f"the screws reach only {tip:.1f} mm into the bosses, under {MIN_BITE}")
    if tip > P["pilot_top"]:
        out.append(f"the screws run {tip - P['pilot_top']:.1f} mm past the end of the bosses' pilot holes")

    # the plugs: each moulding reaches its socket through its opening
    ops = [_as_box(o) for o in P["openings"]]
    usb = [p for p in ps if p.ref == "U1"][0].boxes[1]
    chg = [p for p in ps if p.ref == "CHG"][0].boxes[1]
    others = [(n, b) for n, b in solid if n not in ("U1",)]
    for name, face, plug, axis in (
        ("the Pico's USB", usb, L.MICRO_USB_PLUG, "-x"),
        ("the charger's USB-C", chg, L.USB_C_PLUG, "+y"),
    ):
        cz = (face.z0 + face.z1) / 2
        if axis == "-x":
            cy = (face.y0 + face.y1) / 2
            tunnel = L.Box(
                shell.x0,
                cy - plug["w"] / 2,
                cz - plug["h"] / 2,
                face.x0,
                cy + plug["w"] / 2,
                cz + plug["h"] / 2,
            )
            depth = face.x0 - shell.x0
        else:
            cx = (face.x0 + face.x1) / 2
            tunnel = L.Box(
                cx - plug["w"] / 2,
                face.y1,
                cz - plug["h"] / 2,
                cx + plug["w"] / 2,
                shell.y1,
                cz + plug["h"] / 2,
            )
            depth = shell.y1 - face.y1
        if not any(tunnel.inside(o) for o in ops):
            out.append(
                f"{name}: a plug's moulding ({plug['w']} x {plug['h']} mm) cannot pass the wall to the socket"
            )
        for n, b in others:
            if n != "CHG" and tunnel.overlaps(b):
                out.append(f"{name}: {n} is in the plug's way")
        if depth > plug["length"] + 3:
            out.append(f"{name}: the socket is {depth:.1f} mm inside the case")
    # the jack's snout and the switch's lever go through their holes
    for ref, what in (("J1", "the link jack's snout"), ("SW_POWER", "the power switch's lever")):
        feat = [p for p in ps if p.ref == ref][0].boxes[1]
        in_wall = L.Box(feat.x0, max(feat.y0, cavity.y1), feat.z0, feat.x1, min(feat.y1, shell.y1), feat.z1)
        if not any(in_wall.inside(o) for o in ops):
            out.append(f"{what} does not pass through an opening in the wall")
        if feat.y1 < shell.y1 - 0.3:
            out.append(f"{what} does not reach the outside ({shell.y1 - feat.y1:.1f} mm short)")
    return out
