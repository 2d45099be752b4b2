"""hardware/ against firmware/device/pins.py: the README's pin table, wiring.svg and the Wokwi
diagram are read back from the files and compared with the pin map; plus the parts list."""

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from device import buttons

from host_tools.gen import pin_docs, wiring_svg
from host_tools.gen.pin_docs import GROUND_PINS, HEADER, load_pins

ROOT = Path(__file__).resolve().parent.parent
HW = ROOT / "hardware"
SVG_NS = "{http://www.w3.org/2000/svg}"


def physical(gpio):
    """Header pin of a GPIO, from the test's own reading of the Pico header."""
    hits = [p for p, name in HEADER.items() if name == f"GP{gpio}"]
    assert len(hits) == 1, f"GP{gpio} is not on the header once"
    return hits[0]


def expected_signals(pins):
    """(part, part pin) -> GPIO, straight from the pin map."""
    exp = {("OLED", "SDA"): pins.I2C_SDA, ("OLED", "SCL"): pins.I2C_SCL}
    for name in pins.BUTTON_NAMES:
        exp[(f"button {name}", "1")] = pins.BUTTONS[name]
    if pins.PIEZO is not None:
        exp[("piezo", "+")] = pins.PIEZO
    exp[("link jack", "TIP")] = pins.LINK_TX
    exp[("link jack", "RING1")] = pins.LINK_RX
    return exp


def table_disagreements(pins, readme_text):
    out = []
    rows = {r["Function"]: r for r in pin_docs.parse_table(readme_text)}
    want = {"Display SDA": pins.I2C_SDA, "Display SCL": pins.I2C_SCL}
    want.update({f"Button {n}": pins.BUTTONS[n] for n in pins.BUTTON_NAMES})
    if pins.PIEZO is not None:
        want["Piezo"] = pins.PIEZO
    want["Link TX"] = pins.LINK_TX
    want["Link RX"] = pins.LINK_RX
    for func, gpio in want.items():
        row = rows.get(func)
        if row is None:
            out.append(f"table: no row {func}")
            continue
        if row["GPIO"] != f"GP{gpio}":
            out.append(f"table: {func} says {row['GPIO']}, pins.py GP{gpio}")
        if row["Pico pin"] != str(physical(gpio)):
            out.append(f"table: {func} says pin {row['Pico pin']}, GP{gpio} is pin {physical(gpio)}")
    sda = rows.get("Display SDA", {}).get("Notes", "")
    if (
        f"0x{pins.OLED_ADDR:02X}" not in sda
        or f"I2C{pins.I2C_ID}" not in sda
        or f"{pins.I2C_FREQ // 1000} kHz" not in sda
    ):
        out.append(f"table: display notes {sda!r} do not match the pin map's address, bus and speed")
    safe = rows.get(f"Button {pins.SAFE_BUTTON}", {}).get("Notes", "")
    if "safe mode" not in safe:
        out.append("table: the safe-mode button is not marked")
    return out


def svg_disagreements(pins, svg_text):
    out = []
    root = ET.fromstring(svg_text)
    wires = [e.attrib for e in root.iter(f"{SVG_NS}polyline") if e.get("class") == "wire"]
    seen = {}
    for w in wires:
        key = (w["data-part"], w["data-part-pin"])
        if "data-gpio" in w:
            seen[key] = int(w["data-gpio"])
            if int(w["data-pico-pin"]) != physical(int(w["data-gpio"])):
                out.append(f"svg: {key} drawn to pin {w['data-pico-pin']}, GP{w['data-gpio']} is elsewhere")
        elif w["data-signal"] == "GND" and int(w["data-pico-pin"]) not in GROUND_PINS:
            out.append(f"svg: {key} grounded on pin {w['data-pico-pin']}, not a GND pin")
    if seen != expected_signals(pins):
        out.append(
            f"svg: signal wires {sorted(seen.items())} != pin map {sorted(expected_signals(pins).items())}"
        )
    vcc = [w for w in wires if (w["data-part"], w["data-part-pin"]) == ("OLED", "VCC")]
    if [int(w["data-pico-pin"]) for w in vcc] != [36]:
        out.append("svg: the display's VCC is not on 3V3(OUT), pin 36")
    for name in pins.BUTTON_NAMES:
        parts = [g for g in root.iter(f"{SVG_NS}g") if g.get("data-part") == f"button {name}"]
        labels = ["".join(t.itertext()) for g in parts for t in g.iter(f"{SVG_NS}text")]
        if labels != [name]:
            out.append(f"svg: button {name} is labelled {labels}")
    return out


def wokwi_disagreements(pins, diagram):
    out = []
    parts = {p["id"]: p for p in diagram["parts"]}
    links = {}
    for a, b, *_ in diagram["connections"]:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    def pico_side(part_pin):
        return {x.split(":", 1)[1] for x in links.get(part_pin, ()) if x.startswith("pico:")}

    wokwi_gnd = {f"GND.{i}" for i in range(1, 9)}
    if parts.get("pico", {}).get("type") != "wokwi-pi-pico":
        out.append("wokwi: no wokwi-pi-pico part called pico")
    oled = parts.get("oled", {})
    if (
        oled.get("type") != "board-ssd1306"
        or int(oled.get("attrs", {}).get("i2cAddress", "0"), 16) != pins.OLED_ADDR
    ):
        out.append(f"wokwi: the display is {oled} (want board-ssd1306 at 0x{pins.OLED_ADDR:02x})")
    checks = {  # part pin -> (the Pico pins it must reach, what to call it)
        "oled:SDA": ({f"GP{pins.I2C_SDA}"}, "display SDA"),
        "oled:SCL": ({f"GP{pins.I2C_SCL}"}, "display SCL"),
        "oled:VCC": ({"3V3"}, "display VCC"),
    }
    for name in pins.BUTTON_NAMES:
        pid = f"btn_{name.lower()}"
        if parts.get(pid, {}).get("type") != "wokwi-pushbutton":
            out.append(f"wokwi: no pushbutton {pid}")
        checks[f"{pid}:1.l"] = ({f"GP{pins.BUTTONS[name]}"}, f"button {name}")
    if pins.PIEZO is not None:
        checks["bz1:2"] = ({f"GP{pins.PIEZO}"}, "piezo +")
    for part_pin, (want, label) in checks.items():
        if pico_side(part_pin) != want:
            out.append(
                f"wokwi: {label} ({part_pin}) goes to {sorted(pico_side(part_pin))}, pin map says {sorted(want)}"
            )
    grounds = ["oled:GND"] + [f"btn_{n.lower()}:2.l" for n in pins.BUTTON_NAMES]
    grounds += ["bz1:1"] if pins.PIEZO is not None else []
    for g in grounds:
        if len(pico_side(g)) != 1 or not pico_side(g) <= wokwi_gnd:
            out.append(f"wokwi: {g} is not on one Pico GND pin: {sorted(pico_side(g))}")
    return out


def disagreements(pins):
    readme = (HW / "README.md").read_text(encoding="utf-8")
    svg = (HW / "wiring.svg").read_text(encoding="utf-8")
    diagram = json.loads((HW / "diagram.json").read_text(encoding="utf-8"))
    return (
        table_disagreements(pins, readme) + svg_disagreements(pins, svg) + wokwi_disagreements(pins, diagram)
    )


def test_wokwi_diagram_pin_table_svg_and_firmware_pin_map_agree():
    pins = load_pins()
    assert pins.BUTTON_NAMES is buttons.BUTTON_NAMES  # the firmware's button order, one list
    assert pin_docs.validate(pins) == []
    assert disagreements(pins) == []
    # ... and each file is exactly what the generators make from pins.py today.
    readme = (HW / "README.md").read_text(encoding="utf-8")
    assert pin_docs.render_readme(readme, pins) == readme, "run `make wiring`"
    assert (HW / "wiring.svg").read_text(encoding="utf-8") == wiring_svg.svg(pins), "run `make wiring`"
    assert (HW / "diagram.json").read_text(encoding="utf-8") == wiring_svg.diagram_text(pins), (
        "run `make wiring`"
    )


def test_a_moved_pin_is_caught_in_every_file():
    real = load_pins()
    moved = SimpleNamespace(**{k: getattr(real, k) for k in dir(real) if not k.startswith("_")})
    moved.BUTTONS = dict(real.BUTTONS, UP=14)  # GP14: a free pin the files do not use for UP
    moved.I2C_SDA, moved.I2C_SCL, moved.I2C_ID = 4, 5, 0
    problems = disagreements(moved)
    for where in ("table:", "svg:", "wokwi:"):
        assert any(p.startswith(where) and re.search(r"\bup\b", p, re.I) for p in problems), (where, problems)
        assert any(p.startswith(where) and "sda" in p.lower() for p in problems), (where, problems)
    # The generators follow the pin map: redrawn, the files agree with it again.
    readme = pin_docs.render_readme((HW / "README.md").read_text(encoding="utf-8"), moved)
    assert table_disagreements(moved, readme) == []
    assert svg_disagreements(moved, wiring_svg.svg(moved)) == []
    assert wokwi_disagreements(moved, wiring_svg.diagram(moved)) == []


def test_moved_link_pins_are_caught_and_must_be_uart_pins():
    real = load_pins()
    moved = SimpleNamespace(**{k: getattr(real, k) for k in dir(real) if not k.startswith("_")})
    moved.LINK_TX, moved.LINK_RX = 16, 17  # UART0's other pair
    problems = disagreements(moved)
    for where in ("table:", "svg:"):
        assert any(p.startswith(where) and "link" in p.lower() for p in problems), (where, problems)
    assert pin_docs.validate(moved) == []
    readme = pin_docs.render_readme((HW / "README.md").read_text(encoding="utf-8"), moved)
    assert table_disagreements(moved, readme) == []
    assert svg_disagreements(moved, wiring_svg.svg(moved)) == []
    moved.LINK_TX = 14  # not a UART0 TX pin
    assert any("UART0 TX" in e for e in pin_docs.validate(moved))


def test_pin_map_mistakes_are_reported():
    real = load_pins()
    bad = SimpleNamespace(**{k: getattr(real, k) for k in dir(real) if not k.startswith("_")})
    bad.I2C_SDA = 3  # GP3 is an SCL pin
    bad.BUTTONS = dict(real.BUTTONS, DOWN=real.BUTTONS["UP"])  # two buttons on one GPIO
    bad.SAFE_PIN = 0
    errors = pin_docs.validate(bad)
    assert any("SDA" in e for e in errors)
    assert any("twice" in e for e in errors)
    assert any("SAFE_PIN" in e for e in errors)


def test_header_model_matches_the_pico():
    assert sorted(HEADER) == list(range(1, 41))
    assert GROUND_PINS == (3, 8, 13, 18, 23, 28, 33, 38)
    gpios = sorted(int(n[2:]) for n in HEADER.values() if n.startswith("GP"))
    assert gpios == list(range(0, 23)) + [26, 27, 28]  # GP23-25 and GP29 are on-board only
    assert HEADER[36] == "3V3(OUT)" and HEADER[39] == "VSYS" and HEADER[40] == "VBUS"


def test_pinmap_check_mode_catches_a_hand_edit(tmp_path):
    readme = tmp_path / "README.md"
    text = (HW / "README.md").read_text(encoding="utf-8")
    readme.write_text(text.replace("| Button UP | GP2 | 4 |", "| Button UP | GP3 | 5 |"), encoding="utf-8")
    assert pin_docs.main(["--check", "--readme", str(readme)]) == 1
    assert pin_docs.main(["--readme", str(readme)]) == 0  # regenerates
    assert readme.read_text(encoding="utf-8") == text
    assert pin_docs.main(["--check", "--readme", str(readme)]) == 0


def test_svg_is_well_formed_and_labelled():
    root = ET.parse(HW / "wiring.svg").getroot()
    assert root.tag == f"{SVG_NS}svg"
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text"))
    for label in ("SDA", "SCL", "VCC", "GND", "VSYS", "PIEZO", "3V3(OUT) 36"):
        assert label in texts


def test_wokwi_toml_points_at_a_micropython_uf2_and_serial_port():
    cfg = tomllib.loads((HW / "wokwi.toml").read_text(encoding="utf-8"))["wokwi"]
    assert cfg["version"] == 1
    assert re.fullmatch(r"RPI_PICO-\d{8}-v1\.\d+\.\d+\.uf2", cfg["firmware"])
    readme = (HW / "README.md").read_text(encoding="utf-8")
    assert cfg["firmware"] in readme
    assert f"make deploy PORT=rfc2217://localhost:{cfg['rfc2217ServerPort']}" in readme


def _bom_rows():
    text = (HW / "README.md").read_text(encoding="utf-8")
    block = text.split("## Bill of materials", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows.append(dict(zip(("n", "part", "qty", "typical", "price"), cells)))
    return rows


def test_bill_of_materials_covers_every_part_of_the_pin_map():
    rows = _bom_rows()
    assert [int(r["n"]) for r in rows] == list(range(1, len(rows) + 1))
    for r in rows:
        assert r["part"] and r["qty"], r
        assert re.search(r"\$\d", r["price"]), f"no price: {r}"

    def row(word):
        hits = [r for r in rows if word.lower() in r["part"].lower()]
        assert hits, f"no {word} in the parts list"
        return hits[0]

    assert "Pico" in row("Raspberry Pi Pico")["part"]
    assert "SSD1306" in row("OLED")["part"] and "128×64" in row("OLED")["part"]
    n_buttons = int(re.match(r"\d+", row("push button")["qty"]).group())
    assert n_buttons >= len(load_pins().BUTTON_NAMES)
    assert "passive" in row("piezo")["part"]
    for word in ("breadboard", "jumper", "LiPo", "charger", "switch", "Schottky", "TRRS jack", "link cable"):
        row(word)


@pytest.mark.parametrize("target", ["deploy", "mount", "repl", "reset", "logs", "wipe", "size", "wiring"])
def test_make_targets_are_documented_for_help(target):
    mk = (ROOT / "mk" / "deploy.mk").read_text(encoding="utf-8")
    assert re.search(rf"^{target}:.*?## \S", mk, re.M), f"{target} lacks a ## description"
