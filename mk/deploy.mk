# Putting the game on a Pico (host_tools/deploy.py); the pin map docs (make wiring).
# PORT=/dev/ttyACM0 (or COM5, id:SERIAL, rfc2217://localhost:4000 for Wokwi,
# socket://127.0.0.1:N for host_tools/fake_board.py); empty = the first Pico found.
# NO_MIP=1 skips `mpremote mip install ssd1306`; MIP_INDEX=URL uses another package index.

PY ?= .venv/bin/python
# The top Makefile's `setup` makes .venv; run this file alone with DEPLOY_SETUP= to skip it.
DEPLOY_SETUP ?= setup
PORT ?=
FW_ROOT ?= .
BUILD_DIR ?= $(FW_ROOT)/build/mpy
DEPLOY := $(PY) -m host_tools.deploy --root $(FW_ROOT) --build $(BUILD_DIR) $(if $(PORT),--port $(PORT))

.PHONY: deploy mount repl reset logs wipe size wiring package-json deploy-files deploy-check

deploy: $(DEPLOY_SETUP) ## Compile to .mpy, copy what changed to the Pico, install the ssd1306 driver, restart (PORT=...)
	$(DEPLOY) deploy $(if $(NO_MIP),--no-mip) $(if $(MIP_INDEX),--mip-index $(MIP_INDEX))

mount: $(DEPLOY_SETUP) ## Run the game from this PC without copying (mpremote mount of the compiled tree)
	$(DEPLOY) mount

repl: $(DEPLOY_SETUP) ## Open the Pico's REPL (Ctrl-] leaves, Ctrl-D soft-resets)
	$(DEPLOY) repl

reset: $(DEPLOY_SETUP) ## Hard-reset the Pico: it restarts into the game
	$(DEPLOY) reset

logs: $(DEPLOY_SETUP) ## Print the crash log kept in the Pico's flash (crash.log)
	$(DEPLOY) logs

wipe: $(DEPLOY_SETUP) ## Delete every file on the Pico, saves included (asks first; YES=1 does not)
	$(DEPLOY) wipe $(if $(YES),--yes)

size: $(DEPLOY_SETUP) ## Size report: flash used by the deployed files, RAM after boot and during play
	$(DEPLOY) size

deploy-files: $(DEPLOY_SETUP) ## List the files deploy puts on the Pico and which import needs each
	$(DEPLOY) files

deploy-check: $(DEPLOY_SETUP) ## Import every deployed module on the board, from the .mpy files
	$(DEPLOY) check

package-json: $(DEPLOY_SETUP) ## Regenerate package.json (mip install from GitHub) from the import closure
	$(DEPLOY) package-json

wiring: $(DEPLOY_SETUP) ## Regenerate hardware/wiring.svg, hardware/diagram.json and the pin table from device/pins.py
	$(PY) -m host_tools.gen.wiring_svg
	$(PY) -m host_tools.gen.pin_docs
