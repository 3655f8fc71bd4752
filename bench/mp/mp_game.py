# The heap of a whole game, on a real MicroPython: the unix 64-bit one or the
# 32-bit webassembly one (bench/wasm_run.mjs). Run by bench/run.py;
# see docs/bench.md.
#
#   micropython bench/mp/mp_game.py MODE SCENARIO [BOARD]
#   MODE live: gc.collect() after every box step and scenario line; the live
#              heap (gc.mem_alloc()) and the heap size are read after each
#   MODE fit:  no extra collections (unix: bisect -X heapsize with it)
#
# The work is cut into ticks (one box step, or one scenario line that does not
# step the box) by a generator; bench_tick() runs one. On the webassembly
# MicroPython gc.collect() only flags a collection that runs when control
# returns to JavaScript, so wasm_run.mjs calls bench_tick() from JavaScript
# once a tick, and the heap is collected between ticks as on the Pico it is
# collected whenever it fills. Prints one line "BENCH {json}" at the end.
#
# Timed scenario commands are run by sim/drive.py's stepping loop (the one the
# simulator uses), which yields after each box.step(); roll/answer lines are
# handled inline, without the scenario module (it is no part of the firmware).
# bench.py checks the result matches a plain run_script of the same scenario.
import gc
import sys

# the webassembly heap grows instead of failing; gc.mem_free() counts the
# 128 MiB it may grow by (docs/bench.md)
WASM = sys.platform == "webassembly"
_OFF = 128 * 1024 * 1024 if WASM else 0
MODE = sys.argv[1]
SCENARIO = sys.argv[2]
BOARD = sys.argv[3] if len(sys.argv) > 3 else "pico-8p"
COLLECT = MODE == "live" or WASM

rec = {"mode": MODE, "platform": sys.platform}
sim = None
drive = None


def heap():
    return gc.mem_alloc() + gc.mem_free() - _OFF


def run_until(t_us):
    for _ in drive.steps(sim.port, sim.box, t_us):
        sim.steps += 1
        yield None


def press(bit):
    yield from run_until(drive.press(sim.port, bit))


def penalty(s):
    yield from run_until(drive.penalty(sim.port, s))


class Lean:
    """The firmware on the simulated port, driven like sim.scenario.Sim but
    without the scenario module (roll/answer lines are handled inline)."""

    def __init__(self, board, Box, RandomRoller, rng, Store, SimFS, SimPort):
        self.port = SimPort(board)
        self.start_us = self.port.t
        self.forced = []
        self.random = RandomRoller(rng)
        self.fs = SimFS()
        # Cheese Master's scripted dice come through the box's options (game.py)
        self.box = Box(board, self.port, rng, store=Store(self.fs, self.fs.open),
                       options={"roller": self})
        self.steps = 0
        self.box.step()

    def roll(self, dice_faces, in_play, out):
        if not self.forced:
            self.random.roll(dice_faces, in_play, out)
            return
        ids = self.forced.pop(0)
        for i in range(len(in_play)):
            out[i] = ids[i]

    def elapsed_ms(self):
        return (self.port.t - self.start_us) // 1000


def phases():
    global sim
    yield "base"
    import json
    from cheesebox.board import load_board
    from cheesebox.box import Box
    import cheesemaster.game  # noqa: F401  (the resident game the box boots into)
    import cheesemaster.flow  # noqa: F401  (its game, loaded when the table starts one)
    yield "after_firmware_imports"
    from cheesemaster.dice import CHOICES, RandomRoller
    from cheesemaster.faces import face_id
    from cheesebox.save import Store
    from sim.rng import SeededRandom
    from sim.simfs import SimFS
    from sim.simport import ROLL_BIT, SimPort
    global drive
    from sim import drive
    yield "after_all_imports"
    with open("boards/%s.json" % BOARD) as f:
        board = load_board(json.loads(f.read()), BOARD)
    yield "after_board"
    # What the Pico has: the box on a port (the simulated one stands in for
    # Rp2Port), a random source and the flash for the saved game. Not the
    # simulator's scenario machinery: its parser is no part of the firmware.
    sim = Lean(board, Box, RandomRoller, SeededRandom(1), Store, SimFS, SimPort)
    sim.box.animate = True
    sim.box.draw()
    yield "after_box"
    box = sim.box
    lineno = 0
    with open(SCENARIO) as f:
        while True:
            line = f.readline()
            if not line:
                break
            lineno += 1
            words = line.split("#", 1)[0].split()
            cmd = words[0] if words else ""
            if cmd == "players":
                k = int(words[1])
                for s in range(board.stations):
                    if bool(box.joined[s]) != (s < k):
                        yield from press(s)
                yield from press(ROLL_BIT)
            elif cmd == "dice":
                while CHOICES[box.game.choice] != words[1]:
                    yield from press(0)
                yield from press(ROLL_BIT)
            elif cmd == "tour":
                yield from press(0)
            elif cmd == "rollbutton":
                yield from press(ROLL_BIT)
            elif cmd == "buzz":
                yield from press(int(words[1][1:]) - 1)
            elif cmd == "penalty":
                yield from penalty(int(words[1][1:]) - 1)
            elif cmd == "wait":
                yield from run_until(sim.port.t + int(words[1]) * 1000)
            elif cmd == "roll":
                sim.forced.append([face_id(w) for w in words[1:]])
            elif cmd == "answer":
                # the finger keys the plate, then reaches the buzzer (drive.place)
                yield from run_until(drive.place(sim.port, int(words[1][1:]) - 1, int(words[2])))
            elif cmd == "":
                pass
            else:
                raise ValueError("mp_game.py: line %d: no bench support for %r" % (lineno, cmd))
            yield None
    rec["lines"] = lineno
    yield "end"


G = phases()
pending = None
ticks = 0
peak = 0
max_heap = 0


def bench_tick():
    """One tick of the game; False when it is over (the result is printed)."""
    global ticks, peak, max_heap, pending
    a = gc.mem_alloc()     # collected at the end of the last tick
    h = heap()
    if pending is not None:
        rec[pending] = a if COLLECT or pending == "base" else None
        pending = None
    if ticks == 0:
        rec["start_heap"] = h
    ticks += 1
    if h > max_heap:
        max_heap = h
    if a > peak and "after_box" in rec:
        peak = a
    try:
        label = next(G)
    except StopIteration:
        finish()
        return False
    if label is not None:
        pending = label         # measured at the start of the next tick
    if COLLECT:
        gc.collect()
    return True


def finish():
    import json
    from sim.scenario import match_of
    m = match_of(sim.box)                       # None: joining, or another game
    rec["ticks"] = ticks
    rec["max_heap"] = max_heap
    rec["peak"] = peak if COLLECT else None
    rec["state"] = sim.box.state_name()
    rec["winner"] = m.winner if m is not None else None
    rec["rounds"] = m.rounds_played if m is not None else 0
    rec["eliminated"] = len(m.eliminated) if m is not None else 0
    rec["steps"] = sim.steps
    rec["virtual_ms"] = sim.elapsed_ms()
    print("BENCH " + json.dumps(rec))


if not WASM:
    while bench_tick():
        pass
# on the webassembly MicroPython, wasm_run.mjs calls bench_tick() until False
