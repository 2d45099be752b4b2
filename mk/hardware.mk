# The handheld you hold (host_tools/hardware/): the printable case from the layout's numbers.
# The case is drawn by Debian's openscad; `make test` needs it too (tests/test_case.py renders it).

.PHONY: case case-check

case: $(VENV_STAMP) case-check ## Render the case: hardware/case/params.scad, build/case/{front,back}.stl, hardware/case/*.png
	$(PY) -m host_tools.hardware.case

case-check:
	@command -v openscad >/dev/null 2>&1 || { \
		echo "ERROR: openscad is not installed: the case is drawn with Debian's openscad (as root: apt-get install -y openscad)." >&2; \
		exit 1; }

# the case's tests render it: fail at once, saying why, rather than in the middle of the suite
test: case-check

.PHONY: perfboard
perfboard: $(VENV_STAMP) ## Regenerate hardware/perfboard.svg and the hole-by-hole list in hardware/README.md from the layout
	$(PY) -m host_tools.hardware.perfboard

.PHONY: schematic
schematic: $(VENV_STAMP) ## Regenerate hardware/schematic.svg (the whole circuit) from device/pins.py
	$(PY) -m host_tools.hardware.schematic

.PHONY: power
power: $(VENV_STAMP) ## Recompute the power budget and battery gauge tables in hardware/README.md
	$(PY) -m host_tools.hardware.power

# the schematic and the perfboard's wires follow the pin map too
wiring: schematic perfboard
