# The Cheese Box: self-setting-up build. Needs only python3 (3.11) and make.
#
#   make test    mpy-cross check of firmware/, core tests on MicroPython, pytest
#   make sim     run the simulator (make sim ARGS="...")
#   make venv    just (re)build .venv
#   make flash   copy the firmware + boards/$(BOARD).json to a Pico (docs/deploy.md)
#   make bench   measured figures (docs/bench.md)
#   make clean   remove .venv and caches
#   make help    this list (and the finer targets)
#   make emu     the real firmware on an emulated Pico, in the terminal view (docs/emulator.md)
#   make emu-deps   install the emulator (rp2040js, pinned) into emu/node_modules
#   make emu-firmware  download MicroPython v1.28.0 RPI_PICO + the RP2040 boot ROM (docs/emulator.md)
#   make uf2     one UF2 file: MicroPython + the box's files (BOARD=pico-4p; docs/deploy.md)
#   make test-emu   only the emulated-Pico suite (part of make test)
#   make soak    a night of play on the emulated Pico (MINUTES=120 emulated; docs/emulator.md)
#   make dicelab the odds of every answer for each dice choice (docs/host-tools.md)
#   make monitor live referee screen following a box on USB (PORT=auto)
#   make report  game-night statistics from saved logs (LOGS="a.log b.log")
#   make wokwi   regenerate the Wokwi projects in boards/wokwi/
#   make balance Cheesonomics balance lab: bot games per player count (docs/cheesonomics.md)
#
# .venv is (re)built when it is missing or requirements.txt or this Makefile
# is newer than .venv/.stamp. Its cheesebox.pth puts firmware/ and the repo
# root on the import path, so the simulator, host tools, emulator and tests
# import the firmware as it is (micropython.const on CPython: adafruit-blinka's
# micropython module).

SHELL   := /bin/bash
PYTHON3 ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.stamp
ARGS    ?=

MICROPYTHON  := $(VENV)/bin/micropython
# pyright and the MicroPython rp2 stubs go in their own folder (pip --target),
# so the stubs (machine, neopixel, micropython, a MicroPython stdlib) never
# shadow CPython's modules in .venv
TDIR    := .typecheck
TSTAMP  := $(TDIR)/.stamp
# The Pico has about 190 KiB of heap; this 64-bit MicroPython needs ~1.8x the
# bytes for the same objects, so 340K here is a Pico-sized heap.
MP_HEAP      ?= 340K
MICROPYPATH_ := firmware:.:tests/core

export BLINKA_OS_AGNOSTIC := 1

.PHONY: all venv test check-mpy typecheck test-mp test-py sim bench flash package-json clean help dicelab monitor report wokwi balance emu emu-deps test-emu emu-firmware uf2 soak

all: test

venv: $(STAMP)

$(STAMP): requirements.txt Makefile
	@if [ ! -x $(PY) ]; then \
	  echo "make: creating $(VENV) with $$($(PYTHON3) --version 2>&1)"; \
	  $(PYTHON3) -m venv --clear $(VENV); \
	fi
	@echo "make: pip install -r requirements.txt (log: $(VENV)/pip-install.log)"
	@if ! $(PY) -m pip install --disable-pip-version-check -r requirements.txt \
	      > $(VENV)/pip-install.log 2>&1; then \
	  grep -v "is ignored: it is neither a file nor a directory" $(VENV)/pip-install.log | tail -n 40; \
	  echo "make: pip install failed"; exit 1; \
	fi
	@$(PY) -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" > $(VENV)/.site
	@printf '%s\n' "$(CURDIR)/firmware" "$(CURDIR)" > "$$(cat $(VENV)/.site)/cheesebox.pth"
	@touch $(STAMP)

# Order matters: stop at the first failure; pytest runs last so the output
# ends with its summary line.
test: $(STAMP)
	$(MAKE) --no-print-directory check-mpy
	$(MAKE) --no-print-directory typecheck
	$(MAKE) --no-print-directory test-mp
	$(MAKE) --no-print-directory emu-deps
	$(MAKE) --no-print-directory test-py

$(TSTAMP): requirements-typecheck.txt $(STAMP)
	@echo "make: pip install --target $(TDIR) -r requirements-typecheck.txt (log: $(VENV)/typecheck-install.log)"
	@rm -rf $(TDIR)
	@if ! $(PY) -m pip install --disable-pip-version-check --target $(TDIR) -r requirements-typecheck.txt \
	      > $(VENV)/typecheck-install.log 2>&1; then \
	  grep -v "is ignored: it is neither a file nor a directory" $(VENV)/typecheck-install.log | tail -n 40; \
	  echo "make: pip install failed"; exit 1; \
	fi
	@touch $(TSTAMP)

# firmware/ against the real MicroPython API (rp2 stubs): zero errors
typecheck: $(TSTAMP)
	PYTHONPATH=$(TDIR) $(PY) -m pyright --project pyrightconfig.json

check-mpy: $(STAMP)
	$(PY) host_tools/check_mpy.py

test-mp: $(STAMP)
	MICROPYPATH=$(MICROPYPATH_) $(MICROPYTHON) -X heapsize=$(MP_HEAP) tests/mp_runner.py

# both cores: the emulated-Pico tests take minutes each side
test-py: $(STAMP)
	$(PY) -m pytest -q -n 2 tests

sim: $(STAMP)
	$(PY) -m sim $(ARGS)

# The emulated Pico (docs/emulator.md): rp2040js from the npm registry, pinned by
# emu/package-lock.json. Without npm the emulated-Pico tests say so and skip.
EMU_STAMP := emu/node_modules/.stamp
emu-deps:
	@if [ -f $(EMU_STAMP) ] && [ $(EMU_STAMP) -nt emu/package-lock.json ]; then :; \
	elif command -v npm >/dev/null 2>&1; then \
	  echo "make: npm ci in emu/ (rp2040js, pinned; log: emu/npm-install.log)"; \
	  if (cd emu && npm ci --no-audit --no-fund > npm-install.log 2>&1); then touch $(EMU_STAMP); \
	  else tail -n 20 emu/npm-install.log; echo "make: npm ci failed"; exit 1; fi; \
	else echo "make: npm not found: the emulated-Pico suite will be skipped (docs/emulator.md)"; fi

# the firmware image and boot ROM the emulated Pico runs, kept in
# ~/.cache/cheesebox/emulator ($$CHEESEBOX_CACHE), which make clean leaves alone
emu-firmware: $(STAMP)
	$(PY) host_tools/emu_firmware.py

emu: $(STAMP) emu-deps
	$(PY) -m emu $(ARGS)

test-emu: $(STAMP) emu-deps
	$(PY) -m pytest -q -n 2 tests/emu

# random play, chattering pins, saves and power cuts on pico-8p with a 256-word
# DMA segment; stops at MINUTES emulated or WALL_MINUTES of wall time
# (make test runs one emulated minute: tests/emu/test_emu_soak.py)
MINUTES      ?= 120
WALL_MINUTES ?= 30
soak: $(STAMP) emu-deps
	$(PY) -m emu.soak --minutes $(MINUTES) --wall-minutes $(WALL_MINUTES) --json build/soak.json --log build/soak.log

BOARD      ?= pico-4p
PORT       ?= auto
FLASH_ARGS ?=

# compile firmware/ to .mpy, copy it and the board file with mpremote, verify
# every file by sha256, reset (docs/deploy.md)
flash: $(STAMP)
	$(PY) host_tools/flash.py $(BOARD) --port $(PORT) $(FLASH_ARGS)

# one UF2 with MicroPython (make emu-firmware) and the box's files in their
# LittleFS image, to drag onto a Pico in BOOTSEL mode (docs/deploy.md)
UF2 ?= build/cheesebox-$(BOARD).uf2
uf2: $(STAMP)
	$(PY) host_tools/fsimage.py uf2 $(BOARD) -o "$(UF2)"

# rewrite package.json (for mpremote mip) after adding or removing a file in firmware/
package-json: $(STAMP)
	$(PY) host_tools/flash.py --write-package-json

# measured figures: game heap (32-bit webassembly MicroPython in Node, and unix
# heapsize bisection), steady-state allocation, step/buzz cost, .py vs .mpy import,
# simulator speed; a table + build/bench.json (docs/bench.md). Needs node + npm.
bench: $(STAMP) emu-deps
	$(PY) host_tools/bench.py

# host tools for the table and the builder (docs/host-tools.md)
LOGS   ?=
REPORT ?= build/report
dicelab: $(STAMP)
	$(PY) host_tools/dicelab.py $(ARGS)
monitor: $(STAMP)
	$(PY) host_tools/monitor.py --port $(PORT) $(ARGS)
report: $(STAMP)
	@if [ -z "$(LOGS)" ]; then echo 'make report: name the logs: make report LOGS="a.log b.log"'; exit 2; fi
	$(PY) host_tools/eventlog.py --report $(REPORT) --file $(LOGS) $(ARGS)
wokwi: $(STAMP)
	$(PY) host_tools/wokwi.py --all
balance: $(STAMP)
	$(PY) host_tools/balance.py $(ARGS)

clean:
	rm -rf $(VENV) $(TDIR) .pytest_cache .hypothesis build bench/node_modules
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +

help:
	@grep -E '^#   make ' Makefile | sed 's/^#   //'
	@echo "parts of make test: make check-mpy (mpy-cross), make typecheck (pyright),"
	@echo "  make test-mp (core tests on MicroPython), make test-py (pytest)"
	@echo "make package-json   rewrite package.json (mpremote mip) after adding or removing a firmware file"
	@echo "make sim ARGS=\"--board pico-8p --seed 7\"   options: python -m sim --help"
