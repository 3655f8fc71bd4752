"""Shared helpers for the core tests (CPython and MicroPython)."""
import json

from cheesebox.board import load_board
from sim.scenario import Sim, run_script, ScenarioError

_boards = {}


def board(name="pico-4p"):
    if name not in _boards:
        with open("boards/%s.json" % name) as f:
            _boards[name] = load_board(json.loads(f.read()), name)
    return _boards[name]


def play(script, name="pico-4p", seed=1, **kw):
    """Run a scenario text as the box plays it (animations and tunes on, in
    virtual time); returns (result dict, sim)."""
    sim = Sim(board(name), seed=seed, **kw)
    return run_script(sim, script), sim


START_CHEESONOMICS = "game cheesonomics\nplayers 3\nvariant basic\n"     # seed 1: P2 plays first


def play_logged(script, name="pico-8p", fs=None, seed=1):
    """Run a scenario text; returns (result, sim, event-log lines)."""
    lines = []
    sim = Sim(board(name), seed=seed, log=lines.append, fs=fs)
    return run_script(sim, script), sim, lines


def logged(lines, ev):
    """The events of kind `ev` among event-log lines."""
    out = []
    for x in lines:
        e = json.loads(x)
        if e["ev"] == ev:
            out.append(e)
    return out


def fails(script, name="pico-4p"):
    """The ScenarioError message a bad scenario stops with ('' if none)."""
    try:
        play(script, name)
    except ScenarioError as e:
        return str(e)
    return ""


def pixel(sim, chain, i):
    """RGB of pixel i on chain `chain`, as the port last received it."""
    buf = sim.port.rgb[chain]
    return (buf[3 * i], buf[3 * i + 1], buf[3 * i + 2])


def track(sim, s):
    """(lit score LEDs, score colour, wheel LED colour) of station s."""
    ci, start = sim.board.tracks[s]
    lit = 0
    colour = None
    for i in range(7):
        px = pixel(sim, ci, start + i)
        if px != (0, 0, 0):
            lit += 1
            colour = px
    return lit, colour, pixel(sim, ci, start + 7)


def raises(exc_type, fn, *args):
    """The exception fn(*args) raised (must be exc_type); fails if none."""
    try:
        fn(*args)
    except exc_type as e:
        return e
    assert False, "expected %s" % exc_type.__name__
