"""One scenario file, two machines: the CPython simulator and the emulated Pico.

1. The simulator plays the scenario; every finger movement it makes (button
   edges, answer keys) is recorded with its virtual time.
2. The emulated Pico, booted from its own flash, gets exactly those finger
   movements on its pins, at the same times after the first press.
3. The simulator plays the scenario again, now rolling the faces the Pico
   rolled (MicroPython's own random source decides the dice on the chip).
The event logs and the final LED frames of (2) and (3) must be the same.
Scenarios for this have no `roll` lines and no ties (a tie is broken by each
machine's own random source).
"""
import os

from emu.table import MS, EmuTable
from sim.scenario import Sim, run_script

class Fingers:
    """What the simulator's fingers did: (t_us, kind, who, value)."""

    def __init__(self):
        self.moves = []

    def attach(self, port):
        sched, place = port.schedule, port.place
        moves = self.moves

        def schedule(t_us, bit, level):
            moves.append((t_us, "pin", bit, level))
            return sched(t_us, bit, level)

        def placed(s, k, t=None):
            moves.append((port.t if t is None else t, "key", s, k))
            return place(s, k, t)
        port.schedule = schedule
        port.place = placed


def run_sim(board, text, seed=1, faces=None):
    """(result, events, fingers, sim) of the scenario on the simulator; faces:
    the rolls to force, in order (lists of face names)."""
    from cheesemaster import faces as F
    events = []
    import json
    sim = Sim(board, seed=seed, log=lambda line: events.append(json.loads(line)))
    fingers = Fingers()
    fingers.attach(sim.port)
    fingers.start = sim.port.t
    if faces:
        for k, names in enumerate(faces):
            sim.roller.queue.append((0, [F.face_id(n) for n in names]))
    result = run_script(sim, text)
    fingers.end = sim.port.t
    sim.box.draw()
    return result, events, fingers, sim


def play_on_pico(table, fingers, settle_ms=300):
    """Replay the fingers on the emulated Pico (already booted); returns the
    Pico's events from the first finger movement on."""
    pico = table.pico
    table.run(settle_ms)
    start = len(table.events)
    p0 = pico.nanos + MS
    pins, keys, dials = [], [], []
    for t, kind, who, v in fingers.moves:
        at = p0 + (t - fingers.start) * 1000
        if kind == "pin":
            pins.append((at, table.pin_of("roll" if who == 8 else who), 0 if v else None))
        elif table.board.plates == "dial":
            # a hand turns station who's dial to v, through the positions between
            dials.append((at, who, v, None))
        else:
            # a finger on answer key v of station who: held 60 ms
            keys.append((at, who, 1 << v))
            keys.append((at + 60 * MS, who, 0))
    pico.schedule(pins=pins, keys=keys, dials=dials)
    table.run((fingers.end - fingers.start) / 1000 + 1)
    return table.events[start:]


def comparable(events):
    """Events without the machines' own clocks (t, t_us) and boot lines."""
    out = []
    for e in events:
        if e.get("ev") in ("boot",):
            continue
        d = dict((k, v) for k, v in e.items() if k not in ("t", "t_us"))
        out.append(d)
    return out


def faces_of(events):
    return [e["faces"] for e in events if e.get("ev") == "faces"]


def brightness_matches(rgb, wire, order, encode):
    """The brightness levels (per mille) at which the simulator's RGB frame
    gives exactly the Pico's wire bytes: the Pico dims every chain alike to
    stay inside its power budget, so the frames of all chains must share one."""
    if len(rgb) != len(wire):
        return set()
    found = set()
    table = bytearray(256)
    out = bytearray(len(rgb))
    from rp2port import pixels
    for permille in range(1001):
        pixels.fill_table(table, permille)      # the firmware's table (a lit channel >= 1)
        encode(rgb, out, order, table)
        if out == wire:
            found.add(permille)
    return found


def scenario_path(name):
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "tests", "emu", "scenarios", name)


def differential(board_name, flash, text, seed=1, tries=3):
    """Run both machines; returns a dict with both logs, the final frames'
    brightness match per chain and both results. The fingers come from the
    simulator; if the Pico's dice change what the fingers do (a scenario line
    that waits on the box's state), the Pico plays the new fingers again."""
    from rp2port.pixels import encode
    faces = None
    fingers = None
    for _ in range(tries):
        table = EmuTable(board_name, flash=flash)
        board = table.board
        try:
            table.boot()
            if fingers is None:
                _, _, fingers, _ = run_sim(board, text, seed, faces=faces)
            pico_events = play_on_pico(table, fingers)
            frames = [table.last_frame(ci) for ci in range(len(board.chains))]
        finally:
            table.close()
        faces = faces_of(pico_events)
        result, sim_events, fingers2, sim = run_sim(board, text, seed, faces=faces)
        if fingers2.moves == fingers.moves:
            break
        fingers = fingers2
    sim_first = next(i for i, e in enumerate(sim_events) if e.get("ev") != "boot")
    levels = [brightness_matches(bytes(sim.box.display.bufs[ci]), frames[ci], c.order, encode)
              for ci, c in enumerate(board.chains)]
    return {"pico": comparable(pico_events), "sim": comparable(sim_events[sim_first:]),
            "moves_same": fingers2.moves == fingers.moves, "result": result,
            "brightness": levels, "faces": faces, "pico_frames": frames,
            "sim_frames": [bytes(b) for b in sim.box.display.bufs]}
