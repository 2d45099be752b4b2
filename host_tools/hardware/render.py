"""Pictures of the case from its STL files: flat-shaded, drawn back to front with Pillow.

OpenSCAD's own PNG export needs an X display (CI has none); this needs only the STL files and
the layout's boxes (board, screen, buttons, battery), so the pictures show the parts in place.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path

from PIL import Image, ImageDraw

from host_tools.hardware import layout as L

Tri = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
SHELL = (235, 180, 60)  # the printed shells
BACK_SHELL = (90, 140, 200)
BOARD = (40, 120, 60)
DARK = (30, 30, 35)
PIXELS = (120, 200, 255)
STEM = (200, 60, 60)
PICO = (30, 150, 70)
METAL = (190, 190, 195)
BATTERY = (150, 150, 160)
CHARGER = (40, 60, 160)
PIEZO = (20, 20, 20)
BG = (255, 255, 255)


def read_stl(path: Path) -> list[Tri]:
    """The triangles of an ASCII or binary STL file."""
    data = path.read_bytes()
    if data[:5] == b"solid" and b"facet" in data[:300]:
        tris = []
        vs = []
        for line in data.decode("ascii", "replace").splitlines():
            parts = line.split()
            if parts and parts[0] == "vertex":
                vs.append((float(parts[1]), float(parts[2]), float(parts[3])))
                if len(vs) == 3:
                    tris.append((vs[0], vs[1], vs[2]))
                    vs = []
        return tris
    n = struct.unpack_from("<I", data, 80)[0]
    tris = []
    for i in range(n):
        f = struct.unpack_from("<12f", data, 84 + i * 50)
        tris.append(((f[3], f[4], f[5]), (f[6], f[7], f[8]), (f[9], f[10], f[11])))
    return tris


def box_tris(b: L.Box) -> list[Tri]:
    """A box as 12 outward-facing triangles."""
    x0, y0, z0, x1, y1, z1 = b.x0, b.y0, b.z0, b.x1, b.y1, b.z1
    c = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    out = []
    for a, b_, c_, d in quads:
        out.append((c[a], c[b_], c[c_]))
        out.append((c[a], c[c_], c[d]))
    return out


def cylinder_tris(cx: float, cy: float, r: float, z0: float, z1: float, n: int = 20) -> list[Tri]:
    out = []
    pts = [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)]
    for i in range(n):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        out.append(((ax, ay, z0), (ax, ay, z1), (bx, by, z1)))
        out.append(((ax, ay, z0), (bx, by, z1), (bx, by, z0)))
        out.append(((cx, cy, z1), (bx, by, z1), (ax, ay, z1)))
        out.append(((cx, cy, z0), (ax, ay, z0), (bx, by, z0)))
    return out


def moved(tris: list[Tri], dx: float = 0, dy: float = 0, dz: float = 0, flip: bool = False) -> list[Tri]:
    """Shifted; flip undoes the front shell's print orientation (turned over about x)."""
    if flip:
        tris = [tuple((x, -y, -z) for x, y, z in t) for t in tris]  # type: ignore[misc]
    return [tuple((x + dx, y + dy, z + dz) for x, y, z in t) for t in tris]  # type: ignore[misc]


def split(tris: list[Tri], longest: float = 3.0) -> list[Tri]:
    """Triangles cut until no edge is longer than ``longest``: drawn back to front, big ones
    would paint over the small ones in front of them."""
    out = []
    todo = list(tris)
    while todo:
        t = todo.pop()
        a, b, c = t
        edges = [(math.dist(a, b), 0), (math.dist(b, c), 1), (math.dist(c, a), 2)]
        d, k = max(edges)
        if d <= longest:
            out.append(t)
            continue
        # halve the longest edge
        p, q, r = (a, b, c) if k == 0 else (b, c, a) if k == 1 else (c, a, b)
        m = tuple((u + v) / 2 for u, v in zip(p, q))
        todo.append((p, m, r))
        todo.append((m, q, r))
    return out


def draw(
    scene: list[tuple[list[Tri], tuple[int, int, int]]], size: tuple[int, int], yaw: float, pitch: float
) -> Image.Image:
    """The scene (triangles, colour) seen from the front (+z) turned by yaw, then tilted by pitch."""
    ss = 2  # drawn at twice the size, then scaled down: smooth edges
    W, H = size[0] * ss, size[1] * ss
    cy_, sy_ = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    cp, sp = math.cos(math.radians(pitch)), math.sin(math.radians(pitch))

    def view(p):
        x, y, z = p[0], -p[1], p[2]  # y up
        x, z = x * cy_ + z * sy_, -x * sy_ + z * cy_
        y, z = y * cp - z * sp, y * sp + z * cp
        return x, y, z

    light = (-0.4, 0.6, 0.7)
    ln = math.sqrt(sum(v * v for v in light))
    light = tuple(v / ln for v in light)
    faces = []
    for tris, colour in scene:
        for t in split(tris):
            a, b, c = (view(p) for p in t)
            ux, uy, uz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
            vx, vy, vz = c[0] - a[0], c[1] - a[1], c[2] - a[2]
            nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
            nl = math.sqrt(nx * nx + ny * ny + nz * nz)
            if nl == 0 or nz <= 0:
                continue  # degenerate, or facing away
            shade = 0.45 + 0.55 * max(0.0, (nx * light[0] + ny * light[1] + nz * light[2]) / nl)
            col = tuple(int(ch * shade) for ch in colour)
            faces.append(((a[2] + b[2] + c[2]) / 3, (a, b, c), col))
    if not faces:
        return Image.new("RGB", size, BG)
    xs = [p[0] for _, f, _ in faces for p in f]
    ys = [p[1] for _, f, _ in faces for p in f]
    scale = min((W * 0.92) / (max(xs) - min(xs)), (H * 0.92) / (max(ys) - min(ys)))
    ox = W / 2 - scale * (max(xs) + min(xs)) / 2
    oy = H / 2 + scale * (max(ys) + min(ys)) / 2
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    for _, f, col in sorted(faces, key=lambda x: x[0]):
        d.polygon([(ox + scale * p[0], oy - scale * p[1]) for p in f], fill=col)
    return img.resize(size, Image.LANCZOS)


def inside_parts(kind: str = L.OLED, dz: float = 0.0, board: bool = True, bay: bool = True):
    """The board and the parts on it (board), the battery and charger behind it (bay), as boxes."""
    out = [(box_tris(L.board_box()), BOARD)] if board else []
    for p in L.parts(kind):
        in_bay = p.ref in ("BT1", "CHG")
        if (in_bay and not bay) or (not in_bay and not board):
            continue
        if p.ref == "U1":
            out += [(box_tris(p.boxes[0]), PICO), (box_tris(p.boxes[1]), METAL)]
        elif p.ref == "DISP1":
            g = L.oled_geometry(kind)
            out += [(box_tris(g["pcb"]), (30, 60, 140)), (box_tris(g["glass"]), DARK)]
            v = g["visible"]
            out.append((box_tris(L.Box(v.x0, v.y0, v.z0, v.x1, v.y1, v.z0 + 0.05)), PIXELS))
        elif p.what.startswith("button "):
            out += [
                (box_tris(p.boxes[0]), DARK),
                (cylinder_tris(*p.boxes[1].centre, L.STEM_D / 2, p.boxes[1].z0, p.boxes[1].z1), STEM),
            ]
        elif p.ref == "BZ1":
            out.append((cylinder_tris(*p.body.centre, L.PIEZO_D / 2, 0, L.PIEZO_H), PIEZO))
        elif p.ref == "BT1":
            out.append((box_tris(p.body), BATTERY))
        elif p.ref == "CHG":
            out += [(box_tris(p.boxes[0]), CHARGER), (box_tris(p.boxes[1]), METAL)]
        else:
            out += [(box_tris(b), DARK) for b in p.boxes]
    return [(moved(t, dz=dz), c) for t, c in out]


def case_pictures(stls: dict[str, Path], out_dir: Path, kind: str = L.OLED) -> list[Path]:
    """case-front.png (closed, from the front), case-open.png (exploded: front, board, back)."""
    front = moved(read_stl(stls["front"]), flip=True)
    back = read_stl(stls["back"])
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    closed = [(front, SHELL), (back, BACK_SHELL)] + inside_parts(kind)
    img = draw(closed, (720, 560), yaw=-18, pitch=-32)
    p = out_dir / "case-front.png"
    img.save(p, optimize=True)
    written.append(p)
    lift = 36.0
    # the front and the board lifted off; the battery and charger stay in the back shell
    exploded = [(moved(front, dz=2 * lift), SHELL), (back, BACK_SHELL)]
    exploded += inside_parts(kind, dz=lift, bay=False) + inside_parts(kind, board=False)
    img = draw(exploded, (720, 760), yaw=-24, pitch=-58)
    p = out_dir / "case-open.png"
    img.save(p, optimize=True)
    written.append(p)
    return written
