"""The soldered handheld's numbers: the perfboard, where each part sits on it, every wire, and the
case around them.  The one source the case (case.py), the perfboard picture and hole list
(perfboard.py), the schematic (schematic.py) and the fit checks (fit.py) read.

Frame: millimetres, the perfboard seen from the front (the side the parts sit on, the side you
look at), origin at its top-left corner before the cut, x to the right, y down; z = 0 on the
board's front face, toward you positive.  The wires run on the back (z < 0), and behind them the
battery bay.

The board is the common 70 x 90 mm prototype board (24 x 30 holes at 2.54 mm), its left margin
sawn off half a pitch left of the first column so the Pico's USB socket overhangs the edge.
Holes are named row letter + column number as on most boards: "A1" top left, "X30" bottom right.

Part sizes are the typical ones of the parts named in hardware/README.md's parts list; modules
differ by tenths of a millimetre, so measure yours before printing (every size is a name below).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host_tools.gen.pin_docs import GROUND_PINS, HEADER, load_pins, netlist

# ------------------------------------------------------------------ the board
PITCH = 2.54
COLS, ROWS = 30, 24
BOARD_W, BOARD_H, BOARD_T = 90.0, 70.0, 1.6
MARGIN_X = (BOARD_W - (COLS - 1) * PITCH) / 2  # the hole grid is centred on the board
MARGIN_Y = (BOARD_H - (ROWS - 1) * PITCH) / 2
BOARD_X0 = MARGIN_X - PITCH / 2  # the cut: the left margin goes, so the USB socket overhangs
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MOUNT_HOLES = ((1, 0), (29, 0), (1, 12), (29, 12))  # grid holes drilled out to MOUNT_HOLE_D for M2 screws
MOUNT_HOLE_D = 2.2
WIRING_DEPTH = 2.5  # behind the board: solder joints and insulated wires


def hole_xy(c: float, r: float) -> tuple[float, float]:
    """Centre of hole (column c, row r), both from 0 (half-holes give centres between holes)."""
    return MARGIN_X + c * PITCH, MARGIN_Y + r * PITCH


def hole_name(h: tuple[int, int]) -> str:
    c, r = h
    return f"{ROW_LETTERS[r]}{c + 1}"


@dataclass(frozen=True)
class Box:
    """An axis-aligned box: the space a part (or a feature of the case) takes."""

    x0: float
    y0: float
    z0: float
    x1: float
    y1: float
    z1: float

    def overlaps(self, o: Box) -> bool:
        return (
            self.x0 < o.x1
            and o.x0 < self.x1
            and self.y0 < o.y1
            and o.y0 < self.y1
            and self.z0 < o.z1
            and o.z0 < self.z1
        )

    def inside(self, o: Box) -> bool:
        return (
            o.x0 <= self.x0
            and self.x1 <= o.x1
            and o.y0 <= self.y0
            and self.y1 <= o.y1
            and o.z0 <= self.z0
            and self.z1 <= o.z1
        )

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def grown(self, d: float) -> Box:
        return Box(self.x0 - d, self.y0 - d, self.z0 - d, self.x1 + d, self.y1 + d, self.z1 + d)


def centred(cx: float, cy: float, w: float, h: float, z0: float, z1: float) -> Box:
    return Box(cx - w / 2, cy - h / 2, z0, cx + w / 2, cy + h / 2, z1)


@dataclass
class Part:
    """A part: its pins in board holes (name -> (column, row)), the holes its other legs take,
    and the boxes it fills (the first is its body)."""

    ref: str
    what: str
    pins: dict[str, tuple[int, int]]
    boxes: list[Box]
    legs: list[tuple[int, int]] = field(default_factory=list)  # holes taken by legs wired to nothing

    @property
    def body(self) -> Box:
        return self.boxes[0]

    def holes(self) -> list[tuple[int, int]]:
        return list(self.pins.values()) + self.legs


# ------------------------------------------------------------------ the parts' sizes
# Raspberry Pi Pico (Pico datasheet, mechanical drawing): 51 x 21 mm, 1 mm thick, pin rows 17.78 mm
# apart; its micro-USB socket overhangs the short edge by 1.3 mm.  Soldered flat on the board
# (header pins through both, spacers pulled off): tape under it insulates its test pads.
PICO_L, PICO_W, PICO_T = 51.0, 21.0, 1.0
PICO_PARTS_H = 1.0  # RP2040, flash, BOOTSEL button above the board
USB_W, USB_DEPTH, USB_H, USB_OVERHANG = 7.5, 5.6, 2.7, 1.3
PICO_COL0, PICO_ROW_TOP, PICO_ROW_BOTTOM = 0, 15, 22  # pin 1 at column 0 of the bottom row; USB to the left

# The OLED modules: 4-pin header on the top edge (GND VCC SCL SDA), on its pins 2.5 mm above the
# board.  "visible": the active area; its offset is from the module's top edge to the area's top.
OLEDS = {
    "0.96": dict(
        controller="SSD1306",
        pcb=(27.3, 27.8),
        pcb_t=1.2,
        header_from_top=1.3,
        glass=(26.7, 19.26),
        glass_top=4.2,  # the glass's top edge below the module's top edge
        glass_t=1.4,
        visible=(21.74, 10.86),
        visible_top=6.3,  # the active area's top edge below the module's top edge
    ),
    "1.3": dict(
        controller="SH1106",
        pcb=(35.4, 33.5),
        pcb_t=1.2,
        header_from_top=1.3,
        glass=(34.5, 23.0),
        glass_top=4.5,
        glass_t=1.5,
        visible=(29.42, 14.7),
        visible_top=6.5,
    ),
}
OLED = "0.96"  # the module the board and case are drawn for
OLED_PINS = ("GND", "VCC", "SCL", "SDA")  # left to right on the common modules: check yours
OLED_HEADER = (13, 0)  # its GND pin's hole
OLED_STANDOFF = 2.5  # the header's plastic spacer

# Buttons: 6 x 6 mm tactile switches, 10 mm tall (a round 3.5 mm stem through the front), legs bent
# to span 3 x 2 holes; only two diagonal legs are wired (the pairs joined inside differ by maker).
BUTTON_BODY, BUTTON_BODY_H, BUTTON_H, STEM_D = 6.0, 3.5, 10.0, 3.5
DPAD_CENTRE = (4.5, 9)  # in holes: the d-pad left of the screen
ACTION_CENTRE = (24.5, 9)  # the action buttons right of it
PAD_STEP = 3  # holes from a pad's centre to each button
BUTTON_SPOTS = {
    "UP": (DPAD_CENTRE[0], DPAD_CENTRE[1] - PAD_STEP),
    "DOWN": (DPAD_CENTRE[0], DPAD_CENTRE[1] + PAD_STEP),
    "LEFT": (DPAD_CENTRE[0] - PAD_STEP, DPAD_CENTRE[1]),
    "RIGHT": (DPAD_CENTRE[0] + PAD_STEP, DPAD_CENTRE[1]),
    "KNOCK": (ACTION_CENTRE[0], ACTION_CENTRE[1] - PAD_STEP),
    "DRAW": (ACTION_CENTRE[0] - PAD_STEP, ACTION_CENTRE[1]),
    "DISCARD": (ACTION_CENTRE[0] + PAD_STEP, ACTION_CENTRE[1]),
    "MENU": (14.5, 12),  # under the screen, between it and the Pico
}

# Passive piezo, 12.2 mm across, 3.5 mm tall, legs 5 mm apart (TDK PS1240P02BT)
PIEZO_D, PIEZO_H, PIEZO_AT = 12.2, 3.5, (25, 13)
# 3.5 mm TRRS jack lying on the board (PJ-320A style): body 12 x 6 x 5, a 5 mm snout through the
# bottom wall; its tip, ring-1 and sleeve lugs go by short leads to three holes beside it.
JACK_L, JACK_W, JACK_H, JACK_SNOUT_D = 12.0, 6.0, 5.0, 5.0
JACK_X, JACK_PADS = 81.3, ((25, 23), (26, 23), (27, 23))
# Slide switch SS12D00 on its side at the bottom edge, lever out through a slot: body 8.6 x 3.5 x 3.6,
# lever 2 mm wide, 4 mm long, 2 mm of travel.
SWITCH_L, SWITCH_D, SWITCH_H, LEVER_W, LEVER_L, LEVER_TRAVEL = 8.6, 3.5, 3.6, 2.0, 4.0, 2.0
SWITCH_PINS = ((21, 23), (22, 23), (23, 23))  # OFF, COM, ON
# Axial parts on 4-hole spacing: the 1 kOhm link resistor and the 1N5817 battery diode.
RESISTOR_AT, DIODE_AT = ((20, 19), (24, 19)), ((20, 21), (24, 21))  # diode: cathode first
AXIAL_L, AXIAL_D = 6.3, 2.7
CHARGER_PADS = {"OUT+": (20, 23), "OUT-": (20, 22)}  # the charger's output leads land here

# Behind the board: a 1000 mAh LiPo (503450: 5 x 34 x 50 mm) and a TP4056 USB-C charger module
# (28 x 17.5 mm, 4.3 mm tall with its socket) on 0.5 mm foam tape, its USB-C socket at the bottom wall.
BATTERY = dict(name="503450 LiPo, 1000 mAh", l=50.0, w=34.0, t=5.0, at=(14.0, 4.0))
CHARGER = dict(l=28.0, w=17.5, t=4.3, pcb_t=1.0, socket_h=3.2, x0=62.0, lift=0.5)

# ------------------------------------------------------------------ the case
WALL = 2.0  # side walls
PLATE = 2.0  # the front plate over the screen and buttons
FLOOR = 2.0  # the back
CLEAR = 0.5  # between the board (and the parts at its edges) and the walls
PLATE_GAP = 0.4  # between the tallest part under the plate and the plate
BOSS_D, BOSS_PILOT_D = 5.0, 1.7  # screw bosses (front) and standoffs (back), for M2 self-tapping screws
STANDOFF_HOLE_D, SCREW_HEAD_D, SCREW_HEAD_H = 2.4, 4.2, 1.6
SCREW_L = 14.0  # M2 x 14 self-tapping, from the back through the standoff and the board into the boss
PILOT_TOP_GAP = 0.6  # the boss's pilot hole stops this far under the plate
STEM_CLEAR = 0.4  # radial, between a button's stem and its hole
WINDOW_MARGIN = 0.6  # the screen's window is the visible area plus this all round
CORNER_R = 4.0

# What a plug's moulding needs to reach its socket (typical cables; the larger ones don't fit)
MICRO_USB_PLUG = dict(w=10.5, h=7.0, length=6.6)
USB_C_PLUG = dict(w=12.4, h=6.5, length=6.6)
PLUG_CLEAR = 0.3


def _button(name: str) -> Part:
    u, v = BUTTON_SPOTS[name]
    c, r = int(u - 1.5), int(v - 1)
    assert c + 1.5 == u and r + 1 == v, f"button {name}: its centre must be half a hole off in x"
    cx, cy = hole_xy(u, v)
    return Part(
        f"SW_{name}",
        f"button {name}",
        {"1": (c, r), "2": (c + 3, r + 2)},
        [
            centred(cx, cy, BUTTON_BODY, BUTTON_BODY, 0.0, BUTTON_BODY_H),
            centred(cx, cy, STEM_D, STEM_D, BUTTON_BODY_H, BUTTON_H),  # the stem
        ],
        legs=[(c + 3, r), (c, r + 2)],
    )


def pico_hole(pin: int) -> tuple[int, int]:
    """The hole of the Pico's physical pin: USB to the left, pins 1-20 along the bottom row."""
    if pin <= 20:
        return PICO_COL0 + pin - 1, PICO_ROW_BOTTOM
    return PICO_COL0 + 40 - pin, PICO_ROW_TOP


def pico_box() -> Box:
    x0, _ = hole_xy(PICO_COL0, 0)
    x1, _ = hole_xy(PICO_COL0 + 19, 0)
    _, y0 = hole_xy(0, PICO_ROW_TOP)
    _, y1 = hole_xy(0, PICO_ROW_BOTTOM)
    ex = (PICO_L - (x1 - x0)) / 2
    ey = (PICO_W - (y1 - y0)) / 2
    return Box(x0 - ex, y0 - ey, 0.0, x1 + ex, y1 + ey, PICO_T + PICO_PARTS_H)


def usb_box() -> Box:
    """The Pico's micro-USB socket; its face (x0) is where the plug goes in."""
    p = pico_box()
    cy = (p.y0 + p.y1) / 2
    x0 = p.x0 - USB_OVERHANG
    return Box(x0, cy - USB_W / 2, PICO_T, x0 + USB_DEPTH, cy + USB_W / 2, PICO_T + USB_H)


def oled_geometry(kind: str = OLED) -> dict[str, Box]:
    """The module's PCB, glass and visible area, from where its header sits."""
    m = OLEDS[kind]
    (hx0, hy), (hx3, _) = hole_xy(*OLED_HEADER), hole_xy(OLED_HEADER[0] + 3, OLED_HEADER[1])
    cx = (hx0 + hx3) / 2
    top = hy - m["header_from_top"]
    z_pcb = OLED_STANDOFF + m["pcb_t"]
    z_glass = z_pcb + m["glass_t"]
    pw, ph = m["pcb"]
    gw, gh = m["glass"]
    vw, vh = m["visible"]
    return {
        "pcb": Box(cx - pw / 2, top, OLED_STANDOFF, cx + pw / 2, top + ph, z_pcb),
        "glass": Box(
            cx - gw / 2, top + m["glass_top"], z_pcb, cx + gw / 2, top + m["glass_top"] + gh, z_glass
        ),
        "visible": Box(
            cx - vw / 2, top + m["visible_top"], z_glass, cx + vw / 2, top + m["visible_top"] + vh, z_glass
        ),
    }


def charger_box() -> Box:
    c = CHARGER
    z0 = -(BOARD_T + WIRING_DEPTH + BATTERY["t"]) + c["lift"]  # on foam tape on the bay's floor
    y1 = BOARD_H + CLEAR  # its socket against the bottom wall
    return Box(c["x0"], y1 - c["l"], z0, c["x0"] + c["w"], y1, z0 + c["t"])


def charger_socket() -> Box:
    b = charger_box()
    cx = (b.x0 + b.x1) / 2
    z0 = b.z0 + CHARGER["pcb_t"]
    return Box(cx - 4.5, b.y1 - 7.5, z0, cx + 4.5, b.y1, z0 + CHARGER["socket_h"])


def battery_box() -> Box:
    b = BATTERY
    x0, y0 = b["at"]
    z1 = -(BOARD_T + WIRING_DEPTH)
    return Box(x0, y0, z1 - b["t"], x0 + b["l"], y0 + b["w"], z1)


def parts(kind: str = OLED) -> list[Part]:
    """Every part on (or behind) the board, for the module ``kind``."""
    pins = load_pins()
    out = [
        Part("U1", "Raspberry Pi Pico", {str(n): pico_hole(n) for n in range(1, 41)}, [pico_box(), usb_box()])
    ]
    g = oled_geometry(kind)
    hc, hr = OLED_HEADER
    out.append(
        Part(
            "DISP1",
            "OLED",
            {name: (hc + i, hr) for i, name in enumerate(OLED_PINS)},
            [g["pcb"], g["glass"]],
        )
    )
    for name in pins.BUTTON_NAMES:
        out.append(_button(name))
    if pins.PIEZO is not None:
        pc, pr = PIEZO_AT
        cx, cy = hole_xy(pc, pr)
        out.append(
            Part(
                "BZ1",
                "piezo",
                {"+": (pc - 1, pr), "-": (pc + 1, pr)},
                [centred(cx, cy, PIEZO_D, PIEZO_D, 0, PIEZO_H)],
            )
        )
    # the link jack: body against the bottom wall's inside, snout through it
    jy1 = BOARD_H + CLEAR
    out.append(
        Part(
            "J1",
            "link jack",
            dict(zip(("TIP", "RING1", "SLEEVE"), JACK_PADS)),
            [
                Box(JACK_X - JACK_W / 2, jy1 - JACK_L, 0, JACK_X + JACK_W / 2, jy1, JACK_H),
                centred(
                    JACK_X,
                    jy1 + WALL / 2,
                    JACK_SNOUT_D,
                    WALL,
                    JACK_H / 2 - JACK_SNOUT_D / 2,
                    JACK_H / 2 + JACK_SNOUT_D / 2,
                ),
            ],
        )
    )
    a, b = (hole_xy(*h) for h in RESISTOR_AT)
    out.append(
        Part(
            "R1",
            "1 kOhm",
            {"1": RESISTOR_AT[0], "2": RESISTOR_AT[1]},
            [centred((a[0] + b[0]) / 2, a[1], AXIAL_L, AXIAL_D, 0, AXIAL_D)],
        )
    )
    a, b = (hole_xy(*h) for h in DIODE_AT)
    out.append(
        Part(
            "D1",
            "1N5817",
            {"K": DIODE_AT[0], "A": DIODE_AT[1]},
            [centred((a[0] + b[0]) / 2, a[1], AXIAL_L, AXIAL_D, 0, AXIAL_D)],
        )
    )
    sx = hole_xy(*SWITCH_PINS[1])[0]
    out.append(
        Part(
            "SW_POWER",
            "power switch",
            dict(zip(("OFF", "COM", "ON"), SWITCH_PINS)),
            [
                Box(sx - SWITCH_L / 2, BOARD_H - SWITCH_D, 0, sx + SWITCH_L / 2, BOARD_H, SWITCH_H),
                centred(
                    sx, BOARD_H + LEVER_L / 2, LEVER_W, LEVER_L, SWITCH_H / 2 - 0.75, SWITCH_H / 2 + 0.75
                ),
            ],
        )
    )
    out.append(Part("CHG", "charger output leads", dict(CHARGER_PADS), [charger_box(), charger_socket()]))
    out.append(Part("BT1", BATTERY["name"], {}, [battery_box()]))
    return out


def part(ref: str, kind: str = OLED) -> Part:
    for p in parts(kind):
        if p.ref == ref:
            return p
    raise KeyError(ref)


# ------------------------------------------------------------------ the wires
@dataclass(frozen=True)
class Wire:
    """An insulated wire on the back of the board between two holes."""

    a: tuple[int, int]
    b: tuple[int, int]
    net: str


def _part_of(ps: list[Part], netlist_part: str) -> Part:
    names = {p.what: p for p in ps}
    return names[netlist_part]


def wires(kind: str = OLED) -> list[Wire]:
    """Every wire, from the pin map's netlist (host_tools.gen.pin_docs) plus the battery path.

    Grounds are chained: each part's ground leg goes to the nearest hole already on ground,
    starting from the Pico ground pins the netlist names.
    """
    ps = parts(kind)
    out: list[Wire] = []
    grounds: list[tuple[int, int]] = []
    ground_pins: set[int] = set()
    for w in netlist():
        p = _part_of(ps, w.part)
        hole = p.pins[w.part_pin]
        if w.signal == "GND":
            grounds.append(hole)
            ground_pins.add(w.pico_pin)
            continue
        if w.part == "link jack" and w.part_pin == "TIP":
            # TX goes through the resistor to the tip
            out.append(Wire(pico_hole(w.pico_pin), RESISTOR_AT[0], w.signal))
            out.append(Wire(RESISTOR_AT[1], hole, w.signal + " (1 kOhm)"))
            continue
        out.append(Wire(pico_hole(w.pico_pin), hole, w.signal))
    # the battery: charger OUT+ -> switch COM; switch ON -> diode anode; cathode -> VSYS
    out.append(Wire(CHARGER_PADS["OUT+"], SWITCH_PINS[1], "BAT+"))
    out.append(Wire(SWITCH_PINS[2], DIODE_AT[1], "BAT+ switched"))
    out.append(Wire(DIODE_AT[0], pico_hole(39), "VSYS"))
    grounds.append(CHARGER_PADS["OUT-"])
    on_ground = [pico_hole(n) for n in sorted(ground_pins)]
    todo = list(grounds)
    while todo:
        # the ground leg closest to the ground net so far joins it next: short wires
        best = min(
            ((_dist(t, g), t, g) for t in todo for g in on_ground),
            key=lambda x: (x[0], x[1], x[2]),
        )
        _, t, g = best
        out.append(Wire(g, t, "GND"))
        on_ground.append(t)
        todo.remove(t)
    return out


def _dist(a: tuple[int, int], b: tuple[int, int]) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


def pico_ground_holes() -> set[tuple[int, int]]:
    return {pico_hole(p) for p in GROUND_PINS if HEADER[p] in ("GND", "AGND")}


# ------------------------------------------------------------------ the case's own numbers
def front_inner_z(kind: str = OLED) -> float:
    """The front plate's inside: just above the tallest part under it (stems and levers aside)."""
    top = max(b.z1 for p in parts(kind) for b in p.boxes[:1] if b.z0 >= 0)
    top = max(top, oled_geometry(kind)["glass"].z1, usb_box().z1)
    return round(top + PLATE_GAP, 2)


def cavity(kind: str = OLED) -> Box:
    """The inside of the closed case."""
    x0 = min(BOARD_X0, usb_box().x0) - CLEAR
    return Box(
        x0,
        -CLEAR,
        -(BOARD_T + WIRING_DEPTH + BATTERY["t"]),
        BOARD_W + CLEAR,
        BOARD_H + CLEAR,
        front_inner_z(kind),
    )


def shell(kind: str = OLED) -> Box:
    c = cavity(kind)
    return Box(c.x0 - WALL, c.y0 - WALL, c.z0 - FLOOR, c.x1 + WALL, c.y1 + WALL, c.z1 + PLATE)


def board_box() -> Box:
    return Box(BOARD_X0, 0.0, -BOARD_T, BOARD_W, BOARD_H, 0.0)


def wiring_box() -> Box:
    """Behind the board: kept for solder joints and wires."""
    return Box(BOARD_X0, 0.0, -BOARD_T - WIRING_DEPTH, BOARD_W, BOARD_H, -BOARD_T)


def mount_points() -> list[tuple[float, float]]:
    return [hole_xy(*h) for h in MOUNT_HOLES]


def button_holes(kind: str = OLED) -> dict[str, tuple[float, float, float]]:
    """name -> (x, y, diameter) of each button's hole in the front plate."""
    pins = load_pins()
    out = {}
    for name in pins.BUTTON_NAMES:
        x, y = hole_xy(*BUTTON_SPOTS[name])
        out[name] = (x, y, STEM_D + 2 * STEM_CLEAR)
    return out


def oled_window(kind: str = OLED) -> Box:
    v = oled_geometry(kind)["visible"]
    c = cavity(kind)
    return Box(
        v.x0 - WINDOW_MARGIN,
        v.y0 - WINDOW_MARGIN,
        c.z1,
        v.x1 + WINDOW_MARGIN,
        v.y1 + WINDOW_MARGIN,
        c.z1 + PLATE,
    )


def openings(kind: str = OLED) -> dict[str, Box]:
    """The holes through the walls: the Pico's USB, the charger's USB-C, the jack, the switch."""
    s, c = shell(kind), cavity(kind)
    u = usb_box()
    uy, uz = (u.y0 + u.y1) / 2, (u.z0 + u.z1) / 2
    mu = MICRO_USB_PLUG
    ch = charger_socket()
    chx, chz = (ch.x0 + ch.x1) / 2, (ch.z0 + ch.z1) / 2
    uc = USB_C_PLUG
    jack = part("J1", kind).boxes[1]
    lever = part("SW_POWER", kind).boxes[1]
    jz = (jack.z0 + jack.z1) / 2
    pc = PLUG_CLEAR
    return {
        "usb": Box(s.x0 - 0.01, uy - mu["w"] / 2 - pc, uz - mu["h"] / 2 - pc, u.x0 + 0.01, uy + mu["w"] / 2 + pc, uz + mu["h"] / 2 + pc),
        "charger": Box(chx - uc["w"] / 2 - pc, c.y1 - 0.01, chz - uc["h"] / 2 - pc, chx + uc["w"] / 2 + pc, s.y1 + 0.01, chz + uc["h"] / 2 + pc),
        "jack": Box(jack.centre[0] - JACK_SNOUT_D / 2 - 0.3, c.y1 - 0.01, jz - JACK_SNOUT_D / 2 - 0.3, jack.centre[0] + JACK_SNOUT_D / 2 + 0.3, s.y1 + 0.01, jz + JACK_SNOUT_D / 2 + 0.3),
        "switch": Box(lever.centre[0] - LEVER_W / 2 - LEVER_TRAVEL / 2 - 0.3, c.y1 - 0.01, lever.z0 - 0.3, lever.centre[0] + LEVER_W / 2 + LEVER_TRAVEL / 2 + 0.3, s.y1 + 0.01, lever.z1 + 0.3),
    }  # fmt: skip
