"""The box on the page: what rp2port/app.py is on the Pico.

app.js calls start() once, then step() again and again: one box step a
call, so that control returns to JavaScript after every step (this
MicroPython collects garbage only then: docs/bench.md). step() answers how
long nothing can happen, in ms (-1: until an input), and the page waits
that long or until an input comes.
"""
import gc
import json

from micropython import const

from cheesebox.board import load_board
from cheesebox.box import Box
from cheesebox.events import EventLog
from cheesebox.save import Store

from webfs import WebFS
from webport import WebPort

box = None
port = None
_IDLE_COLLECT = const(4096)     # bytes allocated since the last collection worth one when idle
_base = -1


def start(board_text, storage, host, seed=0, dials=None):
    """A power-up: the board from its file, the flash from the page's
    storage (a saved game is offered again), the box ready at joining.
    host: clock_us, clock_ms, paint, tone and log_line from the page.
    dials: where each dial stands, "0,3,..." (they stay where they were
    turned, across a power cut). seed: 0 for the
    browser's own random numbers, else a seeded source (the same rolls as
    the simulator with that seed: the tests' differential)."""
    global box, port
    board = load_board(json.loads(board_text), "board.json")
    if seed:
        from sim.rng import SeededRandom
        rng = SeededRandom(seed)
    else:
        import random
        rng = random
    pos = bytes(int(v) for v in dials.split(",")) if dials else None
    port = WebPort(board, host.clock_us, host.clock_ms, host.paint, host.tone, pos)
    fs = WebFS(storage, "cheesebox/%s/" % board.name)
    store = Store(fs, fs.open)
    store.between = _between
    log_line = host.log_line
    box = Box(board, port, rng, store=store, log=EventLog(lambda line: log_line(line)))
    box.draw()
    box.step()
    return board.stations


def _between():
    """Between a save's storage writes (the Pico reads its buttons there)."""
    port.poll(box.capture)


def push(t_us, kind, a, b):
    port.push(t_us, kind, a, b)


def step():
    """One step of the box; ms until it must step again (-1: not before an
    input). A press being confirmed gives its exact microsecond."""
    box.step()
    wake = box.next_wake()
    us = box.confirm_in_us()
    if us >= 0 and (wake < 0 or us < wake * 1000):
        return us / 1000
    return wake


def state():
    """What the page shows beside the LEDs: the box's state, the players."""
    return "%s %s" % (box.state_name(), "".join(str(j) for j in box.joined))


def idle():
    """The page calls this when the box has nothing to do for a while. This
    MicroPython counts 16 KiB of allocations and then collects when control
    returns to JavaScript: at the end of whichever step crossed the mark,
    often one handling a press (a few ms). Collected here, in an idle moment,
    once 4 KiB have gone by, the mark is never reached inside a step."""
    global _base
    a = gc.mem_alloc()
    if _base < 0 or a < _base:          # a collection since: the new baseline
        _base = a
    if a - _base >= _IDLE_COLLECT:
        gc.collect()                    # runs as this call returns
        _base = -1
