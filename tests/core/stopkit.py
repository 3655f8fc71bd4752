# Shared by the stop-gesture and final-screen core tests (test_stop_*.py):
# a simulated box with animations and tunes on, as the box runs, and a flash
# holding a given saved game. Runs on CPython and MicroPython.
from flowkit import board
from sim.scenario import Sim
from sim.simfs import SimFS

STOP_DICE = ["stop", "question", "check", "blank", "blank", "blank"]    # "stop?"


def box_sim(name="pico-4p", fs=None):
    """(sim, event-log lines) of a box on board `name`, animations on."""
    lines = []
    sim = Sim(board(name), seed=1, log=lines.append, fs=fs if fs is not None else SimFS())
    assert sim.box.animate                      # the box as it runs
    return sim, lines


def dice(sim):
    """What the six dice show (icon or pattern names)."""
    return list(sim.box.display.shown[:6])


def with_save(text, name):
    """A box powered up with `text` as its game.json."""
    fs = SimFS()
    fs.files["game.json"] = text
    return box_sim(name, fs)
