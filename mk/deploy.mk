# Putting the game on a Pico (host_tools/deploy/); the pin map docs (make wiring).
# PORT=/dev/ttyACM0 (or COM5, id:SERIAL, rfc2217://localhost:4000 for Wokwi,
# socket://127.0.0.1:N for host_tools/micropython/fake_board.py); empty = the first Pico found.
# The display driver: DRIVER=path/to/ssd1306.py copies a driver file you have; otherwise deploy
# installs micropython-lib's with mip (MIP_INDEX=URL: another package index; NO_MIP=1: never ask one).

PY ?= .venv/bin/python
# The top Makefile's `setup` makes .venv; run this file alone with DEPLOY_SETUP= to skip it.
DEPLOY_SETUP ?= setup
PORT ?=
FW_ROOT ?= .
BUILD_DIR ?= $(FW_ROOT)/build/mpy
DEPLOY := $(PY) -m host_tools.deploy --root $(FW_ROOT) --build $(BUILD_DIR) $(if $(PORT),--port $(PORT))
DRIVER_ARGS = $(if $(NO_MIP),--no-mip) $(if $(MIP_INDEX),--mip-index $(MIP_INDEX)) $(if $(DRIVER),--driver $(DRIVER))

.PHONY: deploy mount repl reset logs wipe size wiring package-json deploy-files deploy-check

deploy: $(DEPLOY_SETUP) ## Driver first, then copy what changed to the Pico as .mpy, restart and wait for it (PORT=, DRIVER=)
	@$(DEPLOY) deploy $(DRIVER_ARGS)

mount: $(DEPLOY_SETUP) ## Run the game from this PC without copying (mpremote mount; Ctrl-C stops it)
	@$(DEPLOY) mount

repl: $(DEPLOY_SETUP) ## Open the Pico's REPL (Ctrl-] leaves, Ctrl-D soft-resets)
	@$(DEPLOY) repl

reset: $(DEPLOY_SETUP) ## Hard-reset the Pico and wait until it is back: it restarts into the game
	@$(DEPLOY) reset

logs: $(DEPLOY_SETUP) ## Print the crash log kept in the Pico's flash (crash.log)
	@$(DEPLOY) logs

wipe: $(DEPLOY_SETUP) ## Delete every file on the Pico, saves included (asks first; YES=1 does not)
	@$(DEPLOY) wipe $(if $(YES),--yes)

size: $(DEPLOY_SETUP) ## Size report: the deployed bytes, their flash blocks, RAM after boot and during play
	@$(DEPLOY) size $(if $(NO_EMULATE),--no-emulate)

deploy-files: $(DEPLOY_SETUP) ## List the files deploy puts on the Pico and which import needs each
	@$(DEPLOY) files

deploy-check: $(DEPLOY_SETUP) ## Import every module the game needs on the board (the display driver too)
	@$(DEPLOY) check

package-json: $(DEPLOY_SETUP) ## Regenerate package.json (mip install from GitHub) from the import closure
	@$(DEPLOY) package-json

wiring: $(DEPLOY_SETUP) ## Regenerate hardware/wiring.svg, hardware/diagram.json and the pin table from device/pins.py
	$(PY) -m host_tools.gen.wiring_svg
	$(PY) -m host_tools.gen.pin_docs
