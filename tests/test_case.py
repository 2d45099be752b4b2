"""The printable case (hardware/case/) against the layout: params.scad up to date, the fit checks
pass, each check fails on a case or a layout that is wrong, and OpenSCAD renders both shells to
the size the numbers say."""

import dataclasses
import shutil

import pytest

from host_tools.hardware import case, fit, render
from host_tools.hardware import layout as L
from host_tools.hardware import params as case_params


def params():
    return case_params.parse_params(case_params.params_text())


def test_params_scad_is_what_the_layout_gives():
    assert case_params.PARAMS.read_text(encoding="utf-8") == case_params.params_text(), "run `make case`"


def test_the_case_fits_the_parts():
    assert fit.problems() == []


def test_a_button_hole_off_its_stem_is_found():
    p = params()
    x, y, d = p["button_holes"][0]
    p["button_holes"][0] = [x + 0.5, y, d]
    assert any("off its hole's centre" in s for s in fit.problems(params=p))


def test_a_hole_too_tight_or_too_loose_is_found():
    p = params()
    p["button_holes"][3][2] = L.STEM_D + 0.2
    p["button_holes"][4][2] = L.STEM_D + 2.0
    found = [s for s in fit.problems(params=p) if "play in its hole" in s]
    assert len(found) == 2


def test_a_thin_wall_is_found():
    p = params()
    p["shell"][0] = p["cavity"][0] - 1.0
    assert any("left wall" in s for s in fit.problems(params=p))


def test_a_window_off_the_screen_is_found():
    p = params()
    p["window"][0] += 1.0
    p["window"][3] += 1.0
    found = fit.problems(params=p)
    assert any("off the window's centre" in s for s in found)
    assert any("hides part of the screen" in s for s in found)


def test_the_13_inch_module_does_not_fit_this_layout():
    # a bigger module on the same board hits the buttons beside it: the checks say so
    found = fit.problems("1.3", params=params())
    assert any("DISP1 and SW_RIGHT overlap" in s for s in found)


def test_parts_that_collide_are_found():
    ps = L.parts()
    bt = next(p for p in ps if p.ref == "BT1")
    b = bt.body
    bt.boxes[0] = dataclasses.replace(
        b, x0=b.x0 + 10, x1=b.x1 + 10, y0=b.y0 + 10, y1=b.y1 + 10
    )  # onto the charger
    assert any("BT1" in s and "CHG" in s and "overlap" in s for s in fit.problems(parts=ps))


def test_a_part_outside_the_case_is_found():
    ps = L.parts()
    j = next(p for p in ps if p.ref == "J1")
    j.boxes[0] = dataclasses.replace(j.body, y0=j.body.y0 + 2, y1=j.body.y1 + 2)
    assert any("J1" in s and "does not fit inside" in s for s in fit.problems(parts=ps))


def test_a_usb_socket_too_deep_or_blocked_is_found():
    p = params()
    p["openings"] = p["openings"][1:]  # no hole for the Pico's USB
    assert any("the Pico's USB" in s and "cannot pass" in s for s in fit.problems(params=p))
    ps = L.parts()
    pico = next(q for q in ps if q.ref == "U1")
    u = pico.boxes[1]
    pico.boxes[1] = dataclasses.replace(
        u, x0=u.x0 + 3, x1=u.x1 + 3
    )  # the Pico moved in: the board is in the way
    found = fit.problems(parts=ps)
    assert any("the Pico's USB" in s and ("cannot pass" in s or "in the plug's way" in s) for s in found)


def test_a_lever_that_does_not_reach_out_is_found():
    ps = L.parts()
    sw = next(p for p in ps if p.ref == "SW_POWER")
    lv = sw.boxes[1]
    sw.boxes[1] = dataclasses.replace(lv, y0=lv.y0 - 3, y1=lv.y1 - 3)
    assert any("lever does not reach the outside" in s for s in fit.problems(parts=ps))


def test_the_dpad_is_left_of_the_screen_and_the_actions_right():
    vis = L.oled_geometry()["visible"]
    stems = {p.what.split()[1]: p.boxes[1].centre for p in L.parts() if p.what.startswith("button ")}
    for name in ("UP", "DOWN", "LEFT", "RIGHT"):
        assert stems[name][0] < vis.x0
    for name in ("DRAW", "DISCARD", "KNOCK"):
        assert stems[name][0] > vis.x1
    assert stems["LEFT"][0] < stems["UP"][0] < stems["RIGHT"][0]
    assert stems["UP"][1] < stems["LEFT"][1] < stems["DOWN"][1]


def test_openscad_renders_both_shells_to_the_numbers(tmp_path):
    if shutil.which("openscad") is None:
        pytest.fail(case.NO_OPENSCAD)
    s = L.shell()
    for part in case.PARTS:
        tris = render.read_stl(case.render_stl(part, tmp_path / f"{part}.stl", fn=12))
        assert len(tris) > 100
        xs = [v[0] for t in tris for v in t]
        ys = [v[1] for t in tris for v in t]
        zs = [v[2] for t in tris for v in t]
        assert min(xs) == pytest.approx(s.x0, abs=0.01) and max(xs) == pytest.approx(s.x1, abs=0.01)
        if part == "front":  # printed on its face: turned over about x
            assert -max(ys) == pytest.approx(s.y0, abs=0.01) and -min(ys) == pytest.approx(s.y1, abs=0.01)
            assert -max(zs) == pytest.approx(-L.BOARD_T, abs=0.01) and -min(zs) == pytest.approx(
                s.z1, abs=0.01
            )
        else:
            assert min(ys) == pytest.approx(s.y0, abs=0.01) and max(ys) == pytest.approx(s.y1, abs=0.01)
            assert min(zs) == pytest.approx(s.z0, abs=0.01) and max(zs) == pytest.approx(-L.BOARD_T, abs=0.01)


def test_screws_too_short_or_too_long_are_found():
    p = params()
    p["screw_l"] = 10
    assert any("reach only" in s for s in fit.problems(params=p))
    p["screw_l"] = 18
    assert any("past the end" in s for s in fit.problems(params=p))


def test_the_pictures_are_drawn_from_the_rendered_shells(tmp_path):
    if shutil.which("openscad") is None:
        pytest.fail(case.NO_OPENSCAD)
    stls = {part: case.render_stl(part, tmp_path / f"{part}.stl", fn=12) for part in case.PARTS}
    paths = render.case_pictures(stls, tmp_path / "png")
    assert [p.name for p in paths] == ["case-front.png", "case-open.png"]
    from PIL import Image

    for p in paths:
        img = Image.open(p).convert("RGB")
        colours = img.getcolors(maxcolors=1 << 20)
        # not blank: the shells' colours cover a good part of the picture
        shell = sum(n for n, c in colours if c != render.BG)
        assert shell > img.width * img.height // 5
