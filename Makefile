# Gin Rummy handheld: host-side build, tests and tools.  `make` alone lists the targets.
# Targets documented with `## ` appear in `make help`, including those of mk/*.mk fragments.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MPWASM := host_tools/mpwasm
PYTEST_ARGS ?=

VENV_STAMP := $(VENV)/.gin-deps-installed
NODE_STAMP := $(MPWASM)/node_modules/.gin-deps-installed

.PHONY: help setup test test-mp lint fmt play bench arena soak screenshots golden clean distclean web web-measure browser-check pico

help: ## List the targets (this text)
	@echo "Gin Rummy handheld. Usage: make TARGET"
	@echo
	@grep -hE '^[a-zA-Z0-9_.-]+:.*## ' $(MAKEFILE_LIST) \
		| awk 'BEGIN {FS = ":.*## "}; !seen[$$1]++ {printf "  %-12s %s\n", $$1, $$2}'

setup: $(VENV_STAMP) $(NODE_STAMP) ## Create .venv and install the Python and Node tools (fast once done)

# Re-runs only when pyproject.toml changes; the stamp lives in .venv so a fresh venv reinstalls.
$(VENV_STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
		echo "ERROR: $(PYTHON) not found. Install Python 3.11 or newer (e.g. apt-get install python3 python3-venv)." >&2; \
		exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
		echo "ERROR: Python 3.11 or newer is needed; $(PYTHON) is $$($(PYTHON) --version 2>&1)." >&2; \
		exit 1; }
	@if [ ! -x $(PY) ]; then \
		echo "Creating $(VENV) ..."; \
		$(PYTHON) -m venv $(VENV) || { \
			echo "ERROR: '$(PYTHON) -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)." >&2; \
			rm -rf $(VENV); exit 1; }; \
	fi
	@$(PY) -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]))' \
		> $(VENV)/requirements-dev.txt
	@echo "Installing Python tools into $(VENV) ..."
	$(PY) -m pip install --quiet --disable-pip-version-check -r $(VENV)/requirements-dev.txt
	@touch $@

$(NODE_STAMP): $(MPWASM)/package.json $(MPWASM)/package-lock.json
	@command -v node >/dev/null 2>&1 || { \
		echo "ERROR: node not found. Install Node.js 18 or newer (e.g. apt-get install nodejs npm)." >&2; \
		exit 1; }
	@command -v npm >/dev/null 2>&1 || { \
		echo "ERROR: npm not found. Install npm (e.g. apt-get install npm)." >&2; \
		exit 1; }
	@node -e 'process.exit(parseInt(process.versions.node) >= 18 ? 0 : 1)' || { \
		echo "ERROR: Node.js 18 or newer is needed; node is $$(node --version)." >&2; \
		exit 1; }
	@echo "Installing the MicroPython WebAssembly port into $(MPWASM)/node_modules ..."
	cd $(MPWASM) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test: setup browser-check ## Lint (ruff check), then run every test: CPython, real MicroPython, a real browser
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 -q $(PYTEST_ARGS)

# The web page's tests drive Debian's chromium through chromedriver (never a downloaded browser).
browser-check: $(VENV_STAMP)
	@$(PY) -c 'import sys; from host_tools.web.browser import missing; m = missing(); m and print("ERROR: " + m, file=sys.stderr); sys.exit(1 if m else 0)'

test-mp: setup ## Run only the tests/mp modules under real MicroPython (quick)
	$(PY) -m host_tools.micropython.mptest

lint: setup ## ruff check plus a format check (no changes made)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

fmt: setup ## Format the code and apply ruff's safe fixes
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

play: $(VENV_STAMP) ## Play: on the Pico attached (or PORT=...): deploy, wait for it, attach its console; else the simulator
	@if [ -n "$(PORT)" ] || $(PY) -m host_tools.deploy find >/dev/null; then \
		$(DEPLOY) play $(DRIVER_ARGS); \
	else \
		echo "No Pico connected: starting the host simulator."; \
		$(PY) -m host_tools.simulator; \
	fi

bench: setup ## Print every benchmark table: meld search, AI, drawing, UI, saves, link cable
	$(PY) -m host_tools.bench

ARENA_ARGS ?= --a hard --b baseline --matches 2000 --jobs 2
arena: setup ## Computer players against each other (ARENA_ARGS="--a hard --b baseline --matches 2000")
	$(PY) -m host_tools.bench.arena $(ARENA_ARGS)

soak: setup ## The long soaks: 10,000 hands of every level, 1,000 save-and-reboot matches, 5,000 link matches, 10,000 hostile peers
	$(PY) -m host_tools.bench.soak
	$(PY) -m host_tools.bench.soak_saves
	$(PY) -m host_tools.link.soak
	$(PY) -m host_tools.link.hostile --runs 10000 --jobs 2 --budget 15

PICO_ARGS ?=
pico: setup ## The deployed files on an emulated Pico (../shared/pico): every mode, heap and timing budget
	$(PY) -m host_tools.pico $(PICO_ARGS)

screenshots: $(VENV_STAMP) $(NODE_STAMP) ## Regenerate the README pictures in docs/screenshots (simulator; the web page in chromium)
	$(PY) -m host_tools.simulator.screenshot
	$(PY) -m host_tools.web.screenshot

WEB_PORT ?= 8000
web: setup ## Build the web page into build/web and serve it on localhost (WEB_PORT=8000); Ctrl-C stops
	$(PY) -m host_tools.web --port $(WEB_PORT)

web-measure: setup browser-check ## The web page in chromium: bytes, time to the title, a tap, the first key, watch mode; into README.md
	$(PY) -m host_tools.web.measure --readme

golden: setup ## Regenerate the golden screen snapshots in tests/golden after a deliberate UI change
	GOLDEN_UPDATE=1 $(PY) -m pytest -q tests/test_ui_golden.py

clean: ## Remove caches and build output (keeps .venv and node_modules)
	rm -rf build .pytest_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean ## Also remove .venv and host_tools/mpwasm/node_modules
	rm -rf $(VENV) $(MPWASM)/node_modules

# Fragments (deploy, ...) add their own targets; document them with `## ` to list them in help.
-include mk/*.mk
