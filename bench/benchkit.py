# Shared set-up for the MicroPython-side bench scripts (mp_steady.py,
# mp_cost.py): a pico-8p box with all six dice, animating, brought into a
# chosen state through the simulated port. Runs on MicroPython (unix and
# webassembly) and CPython. See docs/bench.md.
import json
import sys

import sim.simport as SP
from cheesebox.board import load_board
from sim.scenario import Sim, run_line

WASM = sys.platform == "webassembly"
ROLL = SP.ROLL_BIT


def make_sim(board_name="pico-8p", small_clock=False):
    """A Sim with the box animating, 8 players joined, dice yellow+3 chosen.

    small_clock: start the virtual clock at 1 s instead of 20 s before the
    ms-ticks wrap. The sim's clock is a plain microsecond count (about 2**40
    by default), a big int on a 32-bit MicroPython: arithmetic on it would
    allocate in the sim itself and hide what the firmware does."""
    if small_clock:
        SP.START_MS = 1000
    with open("boards/%s.json" % board_name) as f:
        board = load_board(json.loads(f.read()), board_name)
    sim = Sim(board, seed=1)
    sim.box.animate = True
    sim.box.draw()
    stub_show(sim.port)
    run_line(sim, "players 8", 1)
    run_line(sim, "dice yellow+3", 2)
    return sim


def stub_show(port):
    """SimPort.show keeps each frame as a new bytes object (the simulator's
    own allocation); copy into preallocated buffers instead, so only the
    firmware's allocations and time count. On the Pico port.show is the
    NeoPixel write (about 30 us a pixel with interrupts off)."""
    frames = [bytearray(len(b)) for b in port.rgb]
    shows = port.shows

    def show(chain, buf, lo=0, hi=-1):
        frames[chain][:] = buf
        shows[chain] += 1
    port.show = show
    port.frames = frames


def to_grab(sim):
    """ROLL, wait for the faces: GRAB, every player's right plate placed."""
    run_line(sim, "rollbutton", 0)
    sim.wait(1600)
    box = sim.box
    right = box.left if box.left < 7 else 7
    for s in range(sim.board.stations):
        sim.port.place(s, right)
    sim.wait(50)
    return sim


def to_ready_marked(sim, no_wheel=7):
    """A whole round in which `no_wheel` grabs nothing, then 3 s: READY with
    that player marked (blinking white), the faces/count cycling on the dice."""
    to_grab(sim)
    m = sim.box.match
    for s in range(sim.board.stations):
        if s != no_wheel and m.active[s]:
            sim.press(s)
    sim.wait(3000)
    return sim


def reset_points(sim):
    """Everybody back to 7 points, so a bench can play rounds for ever."""
    m = sim.box.match
    for s in range(8):
        if m.joined[s]:
            m.points[s] = 7
