# The Cheese Box: self-setting-up build. Needs only python3 (3.11) and make.
#
#   make test    mpy-cross check of firmware/, pyright, ruff, core tests on MicroPython, pytest
#   make sim     run the simulator (make sim ARGS="...")
#   make venv    just (re)build .venv
#   make flash   copy the firmware + boards/BOARD.json to a Pico (BOARD=pico-4p; docs/deploy.md)
#   make bench   measured figures (docs/bench.md)
#   make clean   remove .venv and caches
#   make help    this list (and the finer targets)
#   make emu     the real firmware on an emulated Pico, in the terminal view (docs/emulator.md)
#   make emu-deps   install both chips' emulators: rp2040js (pinned) into emu/node_modules, rp2350js (from its tarball) into emu/rp2350/node_modules
#   make emu2350-deps  the same as make emu-deps (its former name for the Pico 2's half)
#   make emu-firmware  download MicroPython v1.28.0 RPI_PICO and RPI_PICO2, the boot ROMs, and build rp2350js (docs/emulator.md;
#                      FILES="..." takes files downloaded by hand instead, under any name)
#   make uf2     one UF2 file: MicroPython + the box's files (BOARD=pico-4p; docs/deploy.md)
#   make test-emu   only the emulated suite, tests/emu (both chips), all of it (make test leaves out the second_chip cases)
#   make soak    a night of play on the emulated Pico (MINUTES=120 emulated; docs/emulator.md)
#   make dicelab the odds of every answer for each dice choice (docs/host-tools.md)
#   make monitor live referee screen following a box on USB (PORT=auto), or a saved log (FILE=game.log)
#   make refcard the Cheesonomics reference card (PNG, PDF) and the label strips and dial rings for the stations (docs/refcard*; ARGS="--out DIR/NAME")
#   make selftest  the bring-up self-test on a box on USB, with a checklist (PORT=auto), or a saved log (FILE=); boards/README.md
#   make report  game-night statistics from saved logs (LOGS="a.log b.log")
#   make wokwi   regenerate the Wokwi projects in boards/wokwi/ (ARGS=--check: only compare)
#   make balance Cheesonomics balance lab: bot games per player count (docs/cheesonomics.md)
#   make web     the box in a web page: build build/web and serve it on localhost (docs/web.md)
#   make web-build  only build the page into build/web (a static site)
#   make browser-deps  install Debian's Chromium and chromedriver (as root; the browser tests need them)
#
# Variables holding one path (BOARD, PORT, FILE, REPORT, UF2) may contain
# spaces: the recipes quote them (make report REPORT="my night/report").
# LOGS, FILES and ARGS are lists, split by the shell (LOGS="logs/*.log" globs); a
# path with a space in them takes its own quotes: LOGS="'my logs/a.log'".
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
# bytes for the same objects, and a test holds the simulator, the scenario and
# the test module beside the box: 360K here is about a Pico-sized heap for it
# (340K ran out of a free 4 KB block once the final count landed). The box's
# own heap is measured on the emulated Pico (tests/emu, make bench).
MP_HEAP      ?= 360K
MICROPYPATH_ := firmware:.:tests/core

export BLINKA_OS_AGNOSTIC := 1

WEB_HOST ?= 127.0.0.1
WEB_PORT ?= 8000
WEB_OUT  ?= build/web

.PHONY: web web-build browser-deps all venv test check-mpy typecheck lint test-mp test-py sim bench flash package-json clean help dicelab monitor selftest refcard report wokwi balance emu emu-deps emu2350-deps test-emu emu-firmware uf2 soak

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
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-mp
	$(MAKE) --no-print-directory emu-deps
	$(MAKE) --no-print-directory browser-deps
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

# ruff over the whole repository: the rules, and why those, in ruff.toml
lint: $(STAMP)
	$(PY) -m ruff check .

check-mpy: $(STAMP)
	$(PY) host_tools/deploy/check_mpy.py

# The firmware runs as the Pico runs it, from the .mpy files make flash lays
# out (build/test-mp/, first on the path), not compiled from source on a
# small heap; the simulator and the tests are compiled from source.
MP_BUILD := build/test-mp
test-mp: $(STAMP)
	@CHEESEBOX_FLASH_BUILD=$(MP_BUILD) $(PY) host_tools/deploy/flash.py pico-8p --dry-run > /dev/null
	MICROPYPATH=$(MP_BUILD):$(MICROPYPATH_) $(MICROPYTHON) -X heapsize=$(MP_HEAP) tests/mp_runner.py

# Three workers on a 2-core machine: the two deploys over the emulated USB
# (~100 s and ~55 s) mostly wait on mpremote, and a third worker uses that
# time (a fresh clone: 9 min 18 s with 2, 7 min 48 s with 3). worksteal: a
# worker done with its share takes queued tests from another (with the default
# scheduling the last emulated tests waited in one worker's queue while the
# other sat idle). The ten slowest are listed before the summary line.
# -m "not second_chip": the tests marked second_chip (pytest.ini) are the Pico
# 2's runs of what a test here already checks on the Pico (a twin's body, the
# same deploy): make test-emu runs them, make test does not, for its time
# budget of 10 minutes on a 2-core machine. A new emulated test for the Pico 2
# that only repeats a Pico test takes @pytest.mark.second_chip and a line in
# docs/emulator.md (tests/test_second_chip.py checks both).
test-py: $(STAMP)
	$(PY) -m pytest -q -n 3 --dist worksteal --durations=10 -m "not second_chip" tests

sim: $(STAMP)
	$(PY) -m sim $(ARGS)

# The emulators of both chips (docs/emulator.md), one target; a chip whose
# emulator cannot be installed says so, and its emulated tests skip.
# The Pico's: rp2040js from the npm registry, pinned by emu/package-lock.json.
# The Pico 2's: rp2350js is not on the npm registry. Its own runtime dependencies
# are pinned by emu/rp2350/package-lock.json (npm ci); rp2350js itself is installed
# from its tarball with --no-save, so the lockfile never records a path that
# differs from one machine to the next. The stamp names the tarball: another one
# (CHEESEBOX_EMU2350_PACKAGE) installs again. The tarball is looked for as the chip
# table's package() does (host_tools/deploy/micropython_files.py): the variable, then
# ../shared/emulator/rp2350/ ($$CHEESEBOX_EMU_SHARED), then the one `make emu-firmware`
# built in its cache ($$CHEESEBOX_CACHE, else $$XDG_CACHE_HOME or ~/.cache, /cheesebox/emulator).
EMU_STAMP := emu/node_modules/.stamp
EMU_SHARED      := $(or $(CHEESEBOX_EMU_SHARED),../shared/emulator)
EMU_CACHE       := $(or $(CHEESEBOX_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/cheesebox/emulator)
EMU2350_SHARED_PKG := $(EMU_SHARED)/rp2350/rp2350js-2.0.1-10f7ebf6-patched.tgz
EMU2350_BUILT_PKG  := $(EMU_CACHE)/rp2350/rp2350js-2.0.1-10f7ebf6-cheesebox.tgz
EMU2350_PACKAGE ?= $(or $(CHEESEBOX_EMU2350_PACKAGE),$(firstword $(wildcard $(EMU2350_SHARED_PKG) $(EMU2350_BUILT_PKG))),$(EMU2350_SHARED_PKG))
EMU2350_STAMP   := emu/rp2350/node_modules/.stamp
emu-deps:
	@if [ -f $(EMU_STAMP) ] && [ $(EMU_STAMP) -nt emu/package-lock.json ]; then :; \
	elif command -v npm >/dev/null 2>&1; then \
	  echo "make: npm ci in emu/ (rp2040js, pinned; log: emu/npm-install.log)"; \
	  if (cd emu && npm ci --no-audit --no-fund > npm-install.log 2>&1); then touch $(EMU_STAMP); \
	  else tail -n 20 emu/npm-install.log; echo "make: npm ci failed"; exit 1; fi; \
	else echo "make: npm not found: the emulated-Pico suite will be skipped (docs/emulator.md)"; fi
	@pkg="$(EMU2350_PACKAGE)"; \
	if [ ! -f "$$pkg" ]; then echo "make: rp2350js: $$pkg not found (CHEESEBOX_EMU2350_PACKAGE), nor $(EMU2350_BUILT_PKG): \`make emu-firmware\` builds it; the emulated Pico 2 suite will be skipped (docs/emulator.md)"; \
	elif ! command -v npm >/dev/null 2>&1; then echo "make: npm not found: the emulated Pico 2 suite will be skipped (docs/emulator.md)"; \
	else want="$$(sha256sum "$$pkg" | cut -c1-64) $$(sha256sum emu/rp2350/package-lock.json | cut -c1-64)"; \
	  if [ -f $(EMU2350_STAMP) ] && [ "$$(cat $(EMU2350_STAMP))" = "$$want" ]; then :; \
	  else echo "make: npm ci + npm install --no-save $$pkg in emu/rp2350/ (log: emu/rp2350/npm-install.log)"; \
	    abs="$$(cd "$$(dirname "$$pkg")" && pwd)/$$(basename "$$pkg")"; \
	    if (cd emu/rp2350 && npm ci --no-audit --no-fund > npm-install.log 2>&1 && \
	        npm install --no-save --no-audit --no-fund "$$abs" >> npm-install.log 2>&1); then echo "$$want" > $(EMU2350_STAMP); \
	    else tail -n 20 emu/rp2350/npm-install.log; echo "make: installing rp2350js failed"; exit 1; fi; \
	  fi; \
	fi

# its former name for the Pico 2's half, kept: every target keeps its name
emu2350-deps: emu-deps

# the firmware images and boot ROMs the emulated Pico and Pico 2 run, and rp2350js
# built from its repository with the project's fix (emu/rp2350js_fix.py),
# kept in ~/.cache/cheesebox/emulator ($$CHEESEBOX_CACHE), which make clean leaves alone
emu-firmware: $(STAMP)
	$(PY) -m emu.firmware $(FILES)

emu: $(STAMP) emu-deps
	$(PY) -m emu $(ARGS)

# every emulated test, the second_chip ones too (make test leaves those out)
test-emu: $(STAMP) emu-deps
	$(PY) -m pytest -q -n 3 --dist worksteal tests/emu

# random play, chattering pins, saves and power cuts on pico-8p with a 512-word
# DMA segment (one ring), random SEED; stops at MINUTES emulated or WALL_MINUTES of wall time
# (make test runs one emulated minute: tests/emu/test_emu_soak.py)
MINUTES      ?= 120
WALL_MINUTES ?= 30
SEED         ?= 1
soak: $(STAMP) emu-deps
	@mkdir -p build
	$(PY) -m emu.soak --minutes $(MINUTES) --wall-minutes $(WALL_MINUTES) --seed $(SEED) --json build/soak.json --log build/soak.log

BOARD      ?= pico-4p
PORT       ?= auto
FLASH_ARGS ?=

# compile firmware/ to .mpy, copy it and the board file with mpremote, verify
# every file by sha256, reset (docs/deploy.md)
flash: $(STAMP)
	$(PY) host_tools/deploy/flash.py "$(BOARD)" --port "$(PORT)" $(FLASH_ARGS)

# one UF2 with MicroPython (make emu-firmware) and the box's files in their
# LittleFS image, to drag onto a Pico in BOOTSEL mode (docs/deploy.md)
UF2 ?= build/cheesebox-$(BOARD).uf2
uf2: $(STAMP)
	$(PY) host_tools/deploy/fsimage.py uf2 "$(BOARD)" -o "$(UF2)"

# rewrite package.json (for mpremote mip) after adding or removing a file in firmware/
package-json: $(STAMP)
	$(PY) host_tools/deploy/flash.py --write-package-json

# measured figures: game heap (32-bit webassembly MicroPython in Node, and unix
# heapsize bisection), steady-state allocation, step/buzz cost, .py vs .mpy import,
# simulator speed; a table + build/bench.json (docs/bench.md). Needs node + npm.
bench: $(STAMP) emu-deps
	$(PY) -m bench

# host tools for the table and the builder (docs/host-tools.md)
LOGS   ?=
FILE   ?=
REPORT ?= build/report
dicelab: $(STAMP)
	$(PY) host_tools/labs/dicelab.py $(ARGS)
monitor: $(STAMP)
	$(PY) host_tools/table/monitor.py $(if $(FILE),--file "$(FILE)",--port "$(PORT)") $(ARGS)
refcard: $(STAMP)
	$(PY) host_tools/labs/refcard.py $(ARGS)
selftest: $(STAMP)
	$(PY) host_tools/builder/selftest.py $(if $(FILE),--file "$(FILE)",--port "$(PORT)") $(ARGS)
report: $(STAMP)
	@if [ -z "$(LOGS)" ]; then echo 'make report: name the logs: make report LOGS="a.log b.log"'; exit 2; fi
	$(PY) host_tools/table/eventlog.py --report "$(REPORT)" --file $(LOGS) $(ARGS)
wokwi: $(STAMP)
	$(PY) host_tools/builder/wokwi.py --all $(ARGS)
balance: $(STAMP)
	$(PY) host_tools/labs/balance.py $(ARGS)

# the box in a web page (docs/web.md): the firmware's packages as make flash
# deploys them, MicroPython's WebAssembly build from bench/'s npm pin
web-build: $(STAMP)
	$(PY) web/build.py --out "$(WEB_OUT)"
web: web-build
	$(PY) web/serve.py --dir "$(WEB_OUT)" --host "$(WEB_HOST)" --port "$(WEB_PORT)"

# Chromium and its chromedriver from Debian for tests/web (make test runs this
# as root; elsewhere it says what to run and the browser tests skip)
browser-deps:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "make: apt-get install chromium chromium-driver (log: build/browser-deps.log)"; mkdir -p build; \
	  if ! (apt-get install -y chromium chromium-driver > build/browser-deps.log 2>&1 || \
	        (apt-get update >> build/browser-deps.log 2>&1 && apt-get install -y chromium chromium-driver >> build/browser-deps.log 2>&1)); then \
	    tail -n 20 build/browser-deps.log; echo "make: installing Chromium failed: the browser tests will be skipped"; fi; \
	else echo "make: SKIPPED the browser tests' install (not root): sudo apt-get install chromium chromium-driver"; fi

clean:
	rm -rf $(VENV) $(TDIR) .pytest_cache .hypothesis build bench/node_modules
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +

help:
	@grep -E '^#   make ' Makefile | sed 's/^#   //'
	@echo "parts of make test: make check-mpy (mpy-cross), make typecheck (pyright), make lint (ruff),"
	@echo "  make test-mp (core tests on MicroPython), make emu-deps (both chips' emulators),"
	@echo "  make test-py (pytest, with the emulated-Pico suite but its second_chip tests: make test-emu runs it all)"
	@echo "make package-json   rewrite package.json (mpremote mip) after adding or removing a firmware file"
	@echo "make sim ARGS=\"--board pico-8p --seed 7\"   options: .venv/bin/python -m sim --help"
