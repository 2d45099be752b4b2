"""Renderers of the SSD1306 glass: half blocks, PNG, text art."""

import random
from pathlib import Path

import pytest
from PIL import Image

from host_tools.hw import oled_view
from host_tools.hw.oled_view import (
    BEZEL,
    GAP,
    PALETTES,
    UNLIT,
    dimmed,
    frame_to_text_art,
    render_image,
    render_text,
    save_png,
    text_art_to_frame,
)
from host_tools.hw.ssd1306_model import FRAME_BYTES, Glass

FIXTURES = Path(__file__).parent / "fixtures" / "ssd1306"


def glass_of(pixels, contrast=0xFF):
    buf = bytearray(128 * 64)
    for x, y in pixels:
        buf[y * 128 + x] = 1
    return Glass(bytes(buf), contrast)


# Column 0: top pixel; column 1: bottom pixel; column 2: both; in text row 0.
# Text row 31 (glass rows 62, 63) gets a full block at column 127.
PATTERN = glass_of([(0, 0), (1, 1), (2, 0), (2, 1), (127, 62), (127, 63)])


def test_half_blocks_dimensions_and_known_pattern():
    lines = render_text(PATTERN).splitlines()
    assert len(lines) == 32
    assert all(len(line) == 128 for line in lines)
    assert lines[0] == "\u2580\u2584\u2588" + " " * 125
    assert lines[31] == " " * 127 + "\u2588"
    assert all(set(line) == {" "} for line in lines[1:31])


def test_ascii_fallback_and_border():
    lines = render_text(PATTERN, ascii=True, border=True).splitlines()
    assert len(lines) == 34 and all(len(line) == 130 for line in lines)
    assert lines[0] == "+" + "-" * 128 + "+"
    assert lines[1] == "|',#" + " " * 125 + "|"
    assert all(ord(ch) < 128 for line in lines for ch in line)


def test_ansi_colour_follows_palette_and_contrast():
    full = glass_of([(x, y) for x in range(128) for y in range(64)])
    lines = render_text(full, palette_name="blue-yellow", color=True).splitlines()
    yellow = "\x1b[38;2;255;214;32m"
    blue = "\x1b[38;2;48;170;255m"
    assert all(line.startswith(yellow) for line in lines[:8])  # glass rows 0..15
    assert all(line.startswith(blue) for line in lines[8:])
    assert all(line.endswith("\x1b[0m") for line in lines)
    white = render_text(full, color=True).splitlines()[0]
    assert white.startswith("\x1b[38;2;228;240;255m")
    dim = render_text(Glass(full.pixels, 0), color=True).splitlines()[0]
    assert dim.startswith("\x1b[38;2;57;60;64m")  # 25 % of white on black


def test_png_size_gaps_and_colours():
    img = render_image(PATTERN)
    assert img.size == (512, 256) and img.mode == "RGB"
    white = PALETTES["white"].lit
    assert img.getpixel((1, 1)) == white  # inside lit pixel (0, 0)
    assert img.getpixel((3, 1)) == GAP  # gap column after it
    assert img.getpixel((4 + 1, 1)) == UNLIT  # pixel (1, 0) is off
    assert img.getpixel((4 + 1, 4 + 1)) == white  # pixel (1, 1)
    assert img.getpixel((127 * 4 + 2, 63 * 4 + 2)) == white
    solid = render_image(PATTERN, scale=2, gaps=False, bezel=5)
    assert solid.size == (266, 138)
    assert solid.getpixel((0, 0)) == BEZEL
    assert solid.getpixel((5 + 1, 5 + 1)) == white  # no gap at scale 2 without gaps


def test_png_blue_yellow_and_dimming():
    band = glass_of([(10, 15), (10, 16)])
    img = render_image(band, palette_name="blue-yellow")
    assert img.getpixel((41, 61)) == PALETTES["blue-yellow"].top  # row 15: yellow
    assert img.getpixel((41, 65)) == PALETTES["blue-yellow"].lit  # row 16: blue
    dim = render_image(glass_of([(0, 0)], contrast=0)).getpixel((1, 1))
    assert dim == dimmed(PALETTES["white"].lit, 0)
    assert all(u < d < w for u, d, w in zip(UNLIT, dim, PALETTES["white"].lit))


def test_save_png_writes_a_readable_file(tmp_path):
    path = tmp_path / "glass.png"
    save_png(PATTERN, str(path), scale=3, bezel=2)
    with Image.open(path) as img:
        assert img.format == "PNG" and img.size == (388, 196)
        assert img.convert("RGB").getpixel((2 + 7, 2 + 1)) == PALETTES["white"].lit  # pixel (2, 0)


def test_unknown_palette_is_rejected():
    with pytest.raises(ValueError):
        render_text(PATTERN, palette_name="green")


def test_text_art_layout_and_round_trip():
    frame = bytearray(FRAME_BYTES)
    frame[(13 // 8) * 128 + 100] |= 1 << (13 % 8)  # pixel (100, 13)
    art = frame_to_text_art(frame)
    lines = art.splitlines()
    assert len(lines) == 64 and all(len(line) == 128 for line in lines)
    assert art.count("#") == 1 and lines[13][100] == "#"
    assert art.endswith("\n")
    rng = random.Random(42)
    for _ in range(10):
        frame = bytes(rng.getrandbits(8) for _ in range(FRAME_BYTES))
        assert text_art_to_frame(frame_to_text_art(frame)) == frame


def test_text_art_of_glass_matches_frame():
    frame = text_art_to_frame((FIXTURES / "adafruit_shapes.txt").read_text())
    assert oled_view.glass_to_text_art(Glass.from_frame(frame)) == frame_to_text_art(frame)


@pytest.mark.parametrize(
    "bad",
    ["#" * 128 + "\n", ("." * 127 + "\n") * 64, ("." * 127 + "x\n") * 64],
)
def test_malformed_text_art_is_rejected(bad):
    with pytest.raises(ValueError):
        text_art_to_frame(bad)


def test_cli_renders_text_art_and_frames(tmp_path, capsys):
    art = FIXTURES / "adafruit_shapes.txt"
    assert oled_view.main([str(art), "--ascii"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 32 and out[0][0] == "'"  # pixel (0, 0) alone in its cell
    raw = tmp_path / "frame.bin"
    raw.write_bytes(text_art_to_frame(art.read_text()))
    png = tmp_path / "out.png"
    assert oled_view.main([str(raw), "--png", str(png), "--palette", "blue-yellow", "--scale", "2"]) == 0
    with Image.open(png) as img:
        assert img.size == (256, 128)
