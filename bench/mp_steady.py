# Steady-state allocation: does the main loop allocate while nothing happens?
# Run by host_tools/bench.py on the unix and the webassembly MicroPython.
#
#   micropython bench/mp_steady.py
#
# For each state: bring the box there (benchkit), then run N iterations of
# `port.t += DT; box.step(); box.next_wake()` each under micropython.heap_lock()
# (any allocation raises MemoryError) and count the iterations that raised.
# If any did, the same iterations are run again from a fresh box with each
# piece of step()/next_wake() locked on its own, to name what allocates (a
# MemoryError inside Box._tumble, _reveal, ... is pinned on that method).
# Also checks the tick arithmetic and the tumble animation's random numbers at
# values the Pico reaches (wrap of ticks_us every 17.9 min). Prints "BENCH {json}".
import json
import sys

import micropython

import benchkit as K
from cheesebox import ticks

DT = 5000   # us the virtual clock moves between iterations


def states():
    # (name, set-up, iterations): READY long enough (20 s) to cross the ms
    # ticks wrap on a 64-bit build, where the sim's clock starts 20 s before it
    return (
        ("ready_marked", K.to_ready_marked, 4000),
        ("grab_waiting", K.to_grab, 1000),
        ("rolling_animation", roll_only, 250),
    )


def roll_only(sim):
    K.run_line(sim, "rollbutton", 0)
    return sim


def locked_loop(sim, n):
    """Iterations whose step()/next_wake() raised MemoryError. After one,
    the step is run again unlocked, so a half-done step (say a tumble frame
    whose next_frame was never moved on) is not counted again and again."""
    box = sim.box
    port = sim.port
    errors = 0
    first = -1
    for i in range(n):
        port.t += DT
        failed = False
        micropython.heap_lock()
        try:
            box.step()
            box.next_wake()
        except MemoryError:
            failed = True
        micropython.heap_unlock()
        if failed:
            errors += 1
            if first < 0:
                first = i
            box.step()
            box.next_wake()
    return errors, first


def pieces(sim):
    """step() and next_wake() cut into their calls (mirrors box.py)."""
    box = sim.box
    port = sim.port
    cap = box.capture
    d = box.display

    def answers():
        if box.board.electronic and box.match is not None:
            box._read_answers()

    def pop_and_inputs():
        n = cap.pop(port.ticks_us())
        for i in range(n):
            box._on_input(cap.kind[i], cap.input[i], cap.time[i])

    return (
        ("sim/simport.py:SimPort.poll", lambda: port.poll(cap)),
        ("box.py:Box._read_answers", answers),
        ("capture.py:Capture.pop + box.py:Box._on_input", pop_and_inputs),
        ("box.py:Box._timers", lambda: box._timers(box.now)),
        ("sound.py:TunePlayer.step", lambda: box.tunes.step(box.now)),
        ("box.py:Box._render", lambda: box._render(box.now)),
        ("display.py:Display.flush", lambda: d.flush(port)),
        ("capture.py:Capture.next_deadline", lambda: cap.next_deadline(port.ticks_us())),
        ("box.py:Box._timer_wake", lambda: box._timer_wake(port.ticks_ms())),
        ("sound.py:TunePlayer.wake_in", lambda: box.tunes.wake_in(port.ticks_ms())),
    )


# box methods without arguments that step() may reach: a MemoryError inside one
# is pinned on it (innermost first) rather than on the piece that called it
INNER = ("_tumble", "_tour_frame", "_render_dice", "_reveal", "_score", "_game_over")


def locked_pieces(sim, n):
    box = sim.box
    port = sim.port
    ps = pieces(sim)
    where = [None]

    def pin(name):
        orig = getattr(box, name)

        def wrapped():
            try:
                return orig()
            except MemoryError:
                if where[0] is None:
                    where[0] = name
                raise
        setattr(box, name, wrapped)
    for name in INNER:
        pin(name)
    counts = {}
    for i in range(n):
        port.t += DT
        box.now = port.ticks_ms()
        for k in range(len(ps)):
            f = ps[k][1]
            failed = False
            where[0] = None
            micropython.heap_lock()
            try:
                f()
            except MemoryError:
                failed = True
            micropython.heap_unlock()
            if failed:
                label = ps[k][0]
                if where[0] is not None:
                    label = "box.py:Box.%s (called from %s)" % (where[0], label)
                counts[label] = counts.get(label, 0) + 1
                f()         # again unlocked, so a half-done piece does not repeat
    return counts


def check(f):
    micropython.heap_lock()
    try:
        f()
        r = False
    except MemoryError:
        r = True
    micropython.heap_unlock()
    return r


def lcg(x):
    # the tumble animation's step (box.py: Box._tumble)
    return (x * 75 + 74) % 65537


def arithmetic():
    top = ticks.MASK - 10
    return {
        "ticks.diff(later, earlier) across the wrap": check(lambda: ticks.diff(5, top)),
        "ticks.diff(earlier, later) across the wrap": check(lambda: ticks.diff(top, 5)),
        "ticks.add(t, d) across the wrap": check(lambda: ticks.add(top, 100)),
        "ticks.add(t, -d) across the wrap": check(lambda: ticks.add(5, -100)),
        "Box._tumble step (x*75+74) % 65537": check(lambda: lcg(12345)),
    }


def main():
    small = K.WASM     # keep the sim's clock a small int on 32 bits
    out = {"platform": sys.platform, "dt_us": DT, "states": {}}
    for name, setup, n in states():
        sim = setup(K.make_sim(small_clock=small))
        st = sim.box.state_name()
        errors, first = locked_loop(sim, n)
        r = {"state": st, "iterations": n, "allocating_iterations": errors,
             "first": first}
        if errors:
            sim2 = setup(K.make_sim(small_clock=small))
            r["pieces"] = locked_pieces(sim2, n)
        out["states"][name] = r
    out["arithmetic_allocates"] = arithmetic()
    print("BENCH " + json.dumps(out))


main()
