"""Renderers of an SSD1306 glass image: terminal half blocks, PNG, text art.

* ``render_text``: Unicode half blocks, two pixel rows per character row, so
  the 128x64 glass becomes 128 columns x 32 lines; optional 24-bit ANSI colour
  and an ASCII fallback for terminals without the block characters.
* ``render_image`` / ``save_png``: an upscaled picture that looks like the
  module: dark unlit pixels, optional gaps between pixels and a bezel.
* ``frame_to_text_art`` / ``text_art_to_frame``: '#' and '.' per pixel, one
  line per pixel row, for golden snapshots that diff well in git.

Two palettes: ``white`` and ``blue-yellow`` (the common two-colour module: the
top 16 rows yellow, the rest blue). The contrast register dims lit pixels.

CLI: ``python -m host_tools.hw.oled_view FRAME [--png OUT] [--palette P] ...``
where FRAME is a 1024-byte MONO_VLSB file or a text-art file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from host_tools.hw.ssd1306_model import FRAME_BYTES, HEIGHT, WIDTH, Glass

RGB = tuple[int, int, int]

UNLIT: RGB = (16, 18, 20)
GAP: RGB = (4, 4, 6)
BEZEL: RGB = (28, 30, 34)
TERMINAL_BG: RGB = (0, 0, 0)

HALF_BLOCKS = (" ", "\u2580", "\u2584", "\u2588")  # none, top, bottom, both
ASCII_BLOCKS = (" ", "'", ",", "#")

ART_ON = "#"
ART_OFF = "."


@dataclass(frozen=True)
class Palette:
    name: str
    lit: RGB  # rows at or below split_row (all rows when split_row is 0)
    top: RGB  # rows above split_row
    split_row: int = 0

    def lit_colour(self, y: int) -> RGB:
        return self.top if y < self.split_row else self.lit


PALETTES = {
    "white": Palette("white", lit=(228, 240, 255), top=(228, 240, 255)),
    "blue-yellow": Palette("blue-yellow", lit=(48, 170, 255), top=(255, 214, 32), split_row=16),
}


def palette(name: str) -> Palette:
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"unknown palette {name!r}; choose from {sorted(PALETTES)}") from None


def contrast_level(contrast: int) -> float:
    """Relative brightness for a contrast register value.

    Segment current grows linearly with the register, and an OLED at contrast 0
    is dim but still readable, hence the floor.
    """
    return 0.25 + 0.75 * (max(0, min(255, contrast)) / 255)


def dimmed(colour: RGB, contrast: int, base: RGB = UNLIT) -> RGB:
    level = contrast_level(contrast)
    return tuple(round(b + (c - b) * level) for c, b in zip(colour, base))  # type: ignore[return-value]


# ---------------------------------------------------------------- terminal
def _ansi_fg(rgb: RGB) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m"


def _ansi_bg(rgb: RGB) -> str:
    return f"\x1b[48;2;{rgb[0]};{rgb[1]};{rgb[2]}m"


def render_text(
    glass: Glass,
    *,
    palette_name: str = "white",
    color: bool = False,
    ascii: bool = False,
    border: bool = False,
) -> str:
    """Half-block text, ``glass.height // 2`` lines of ``glass.width`` characters."""
    pal = palette(palette_name)
    chars = ASCII_BLOCKS if ascii else HALF_BLOCKS
    w = glass.width
    px = glass.pixels
    lines = []
    for t in range(glass.height // 2):
        top = 2 * t * w
        bottom = top + w
        line = "".join(chars[px[top + x] | (px[bottom + x] << 1)] for x in range(w))
        if border:
            line = ("|" if ascii else "\u2502") + line + ("|" if ascii else "\u2502")
        if color:
            # Both rows of a text line share one colour; the palette split is at
            # an even row, so no line straddles it.
            fg = dimmed(pal.lit_colour(2 * t), glass.contrast, TERMINAL_BG)
            line = _ansi_fg(fg) + _ansi_bg(TERMINAL_BG) + line + "\x1b[0m"
        lines.append(line)
    if border:
        h, c = ("-", "+") if ascii else ("\u2500", None)
        top_edge = (c or "\u250c") + h * w + (c or "\u2510")
        bottom_edge = (c or "\u2514") + h * w + (c or "\u2518")
        lines = [top_edge] + lines + [bottom_edge]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------- PNG
def render_image(
    glass: Glass,
    *,
    scale: int = 4,
    palette_name: str = "white",
    gaps: bool = True,
    bezel: int = 0,
):
    """A PIL RGB image of the glass, ``scale`` screen pixels per panel pixel.

    With ``gaps`` (and scale >= 2) the last row and column of each pixel cell
    are drawn in the gap colour, like the dark grid between OLED pixels.
    ``bezel`` adds a frame of that many screen pixels around the panel.
    """
    from PIL import Image, ImageDraw, ImageOps

    if scale < 1:
        raise ValueError("scale must be >= 1")
    pal = palette(palette_name)
    w, h = glass.width, glass.height
    lit_rows = [dimmed(pal.lit_colour(y), glass.contrast) for y in range(h)]
    raw = bytearray(w * h * 3)
    px = glass.pixels
    unlit = bytes(UNLIT)
    for y in range(h):
        on = bytes(lit_rows[y])
        row = y * w
        for x in range(w):
            i = 3 * (row + x)
            raw[i : i + 3] = on if px[row + x] else unlit
    img = Image.frombytes("RGB", (w, h), bytes(raw))
    if scale > 1:
        img = img.resize((w * scale, h * scale), Image.NEAREST)
        if gaps:
            draw = ImageDraw.Draw(img)
            for x in range(w):
                gx = x * scale + scale - 1
                draw.line([(gx, 0), (gx, h * scale - 1)], fill=GAP)
            for y in range(h):
                gy = y * scale + scale - 1
                draw.line([(0, gy), (w * scale - 1, gy)], fill=GAP)
    if bezel > 0:
        img = ImageOps.expand(img, border=bezel, fill=BEZEL)
    return img


def save_png(glass: Glass, path: str, **kwargs: object) -> None:
    render_image(glass, **kwargs).save(path, format="PNG")  # type: ignore[arg-type]


# ---------------------------------------------------------------- text art
def frame_to_text_art(buf: bytes | bytearray | memoryview) -> str:
    """A MONO_VLSB frame as 64 lines of 128 '#'/'.' characters."""
    if len(buf) != FRAME_BYTES:
        raise ValueError(f"frame must be {FRAME_BYTES} bytes, got {len(buf)}")
    lines = []
    for y in range(HEIGHT):
        base = (y >> 3) * WIDTH
        shift = y & 7
        lines.append("".join(ART_ON if (buf[base + x] >> shift) & 1 else ART_OFF for x in range(WIDTH)))
    return "\n".join(lines) + "\n"


def glass_to_text_art(glass: Glass) -> str:
    return frame_to_text_art(glass.to_frame())


def text_art_to_frame(text: str) -> bytes:
    lines = text.splitlines()
    if len(lines) != HEIGHT:
        raise ValueError(f"text art must have {HEIGHT} lines, got {len(lines)}")
    out = bytearray(FRAME_BYTES)
    for y, line in enumerate(lines):
        if len(line) != WIDTH or set(line) - {ART_ON, ART_OFF}:
            raise ValueError(f"line {y} must be {WIDTH} characters of '#' and '.'")
        base = (y >> 3) * WIDTH
        bit = 1 << (y & 7)
        for x, ch in enumerate(line):
            if ch == ART_ON:
                out[base + x] |= bit
    return bytes(out)


# --------------------------------------------------------------------- CLI
def _load_frame(path: str) -> bytes:
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) == FRAME_BYTES:
        return data
    return text_art_to_frame(data.decode("ascii"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="oled_view", description="Render a 128x64 MONO_VLSB frame.")
    parser.add_argument("frame", help="1024-byte frame file or text-art file")
    parser.add_argument("--png", help="write a PNG here instead of printing")
    parser.add_argument("--palette", default="white", choices=sorted(PALETTES))
    parser.add_argument("--scale", type=int, default=4)
    parser.add_argument("--bezel", type=int, default=0)
    parser.add_argument("--no-gaps", action="store_true")
    parser.add_argument("--contrast", type=int, default=0xFF)
    parser.add_argument("--color", action="store_true", help="ANSI colour in the terminal")
    parser.add_argument("--ascii", action="store_true", help="ASCII instead of half blocks")
    parser.add_argument("--border", action="store_true")
    args = parser.parse_args(argv)
    glass = Glass.from_frame(_load_frame(args.frame), contrast=args.contrast)
    if args.png:
        save_png(
            glass,
            args.png,
            scale=args.scale,
            palette_name=args.palette,
            gaps=not args.no_gaps,
            bezel=args.bezel,
        )
    else:
        sys.stdout.write(
            render_text(
                glass,
                palette_name=args.palette,
                color=args.color,
                ascii=args.ascii,
                border=args.border,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
