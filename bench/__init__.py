"""Everything that measures the box, for `make bench` (docs/bench.md).

run.py drives the sections and prints the table; emulated.py measures the real
firmware on the emulated Pico; mp/ holds the scripts that run on MicroPython
itself (unix and webassembly) and wasm_run.mjs starts the webassembly one.
"""
