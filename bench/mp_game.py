# The heap of a whole game, on a real MicroPython (unix 64-bit or the 32-bit
# webassembly one). Run by host_tools/bench.py; see docs/bench.md.
#
#   micropython bench/mp_game.py MODE SCENARIO [BOARD]
#   MODE profile: gc.collect() + gc.mem_alloc() after every scenario line (peak)
#   MODE fit:     no extra collections, only the heap size read after each line
#
# Prints one line "BENCH {json}". The scenario is read one line at a time so
# the script text never sits in the heap. sim.box.animate = True: every LED
# buffer, icon and animation is drawn as on the box.
import gc
import sys

# the webassembly heap never refuses: it grows when a collection fails, and
# gc.mem_free() counts 128 MiB it does not have (docs/bench.md)
_OFF = 128 * 1024 * 1024 if sys.platform == "webassembly" else 0
MODE = sys.argv[1]
SCENARIO = sys.argv[2]
BOARD = sys.argv[3] if len(sys.argv) > 3 else "pico-8p"


def heap():
    return gc.mem_alloc() + gc.mem_free() - _OFF


def used():
    gc.collect()
    return gc.mem_alloc()


start_heap = heap()
max_heap = start_heap
base = used()
import json
from cheesebox.board import load_board
from cheesebox.box import Box
fw = used()
from sim.scenario import Sim, run_line
mods = used()
with open("boards/%s.json" % BOARD) as f:
    board = load_board(json.loads(f.read()), BOARD)
with_board = used()
sim = Sim(board, seed=1)
sim.box.animate = True
sim.box.draw()
with_box = used()
peak = with_box
profile = MODE == "profile"
lines = 0
with open(SCENARIO) as f:
    while True:
        line = f.readline()
        if not line:
            break
        lines += 1
        run_line(sim, line, lines)
        if profile:
            a = used()
            if a > peak:
                peak = a
        h = heap()
        if h > max_heap:
            max_heap = h
end = used()
m = sim.box.match
print("BENCH " + json.dumps({
    "mode": MODE, "platform": sys.platform, "lines": lines,
    "start_heap": start_heap, "max_heap": max_heap,
    "base": base, "after_firmware_imports": fw, "after_all_imports": mods,
    "after_board": with_board, "after_box": with_box, "peak": peak, "end": end,
    "state": sim.box.state_name(), "winner": m.winner if m is not None else None,
    "rounds": m.rounds_played if m is not None else 0,
    "eliminated": len(m.eliminated) if m is not None else 0,
    "steps": sim.steps, "virtual_ms": sim.elapsed_ms(),
}))
