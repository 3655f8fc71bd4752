# Steady-state allocation: does the main loop allocate while nothing happens?
# Run by bench/run.py on the unix and the webassembly MicroPython.
#
#   micropython bench/mp/mp_steady.py [ITERATIONS]
#
# ITERATIONS (the smoke run: 1) replaces each state's own count, and then the
# pieces below are run locked whatever the whole step did.
#
# For each state: bring the box there (benchkit), then run N iterations of
# `port.t += DT; box.step(); box.next_wake()` each under micropython.heap_lock()
# (any allocation raises MemoryError) and count the iterations that raised.
# If any did, the same iterations are run again from a fresh box with each
# piece of step()/next_wake() locked on its own, to name what allocates (a
# MemoryError inside CheeseMaster._tumble, _reveal, ... is pinned on that
# method). The pieces are benchkit's, checked against step() every run
# (benchkit.check_pieces).
# Also checks the tick arithmetic and the tumble animation's random numbers at
# values the Pico reaches (wrap of ticks_us every 17.9 min). Prints "BENCH {json}".
import json
import sys

import micropython

import benchkit as K
from cheesebox import ticks

DT = 5000   # us the virtual clock moves between iterations
# smoke (bench/run.py --smoke): this many iterations a state instead
SMOKE = int(sys.argv[1]) if len(sys.argv) > 1 else 0
MIRROR_MIN = 400    # iterations (2 s) the pieces are checked against step() at least


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
    """step() and next_wake() cut into their calls (benchkit: the same calls,
    checked against box.py)."""
    box = sim.box
    return [(p[1], p[2]) for p in K.step_pieces(box)] + [(p[1], p[2]) for p in K.wake_pieces(box)]


# methods without arguments that step() may reach: a MemoryError inside one
# is pinned on it (innermost first) rather than on the piece that called it.
# (object, file, names): the box's own, then the game's. A name that no longer
# exists fails the bench (this list must follow the firmware).
def inner(sim):
    return ((sim.box, "box.py:Box", ("_render_dice",)),
            (sim.box.game, "cheesemaster/flow.py:" + K.game_name(sim.box),
             ("_tumble", "_tour_frame", "render_dice", "_reveal", "_score", "_game_over")))


def locked_pieces(sim, n):
    port = sim.port
    ps = pieces(sim)
    where = [None]

    def pin(obj, label, name):
        if not hasattr(obj, name):
            raise AttributeError("bench/mp/mp_steady.py: %s has no %s any more" % (label, name))
        orig = getattr(obj, name)

        def wrapped():
            try:
                return orig()
            except MemoryError:
                if where[0] is None:
                    where[0] = "%s.%s" % (label, name)
                raise
        setattr(obj, name, wrapped)
    for obj, label, names in inner(sim):
        for name in names:
            pin(obj, label, name)
    counts = {}
    for i in range(n):
        port.t += DT
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
                    label = "%s (called from %s)" % (where[0], label)
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
    # the tumble animation's step (cheesemaster/flow.py: CheeseMaster._tumble)
    return (x * 75 + 74) % 65537


def arithmetic():
    top = ticks.MASK - 10
    return {
        "ticks.diff(later, earlier) across the wrap": check(lambda: ticks.diff(5, top)),
        "ticks.diff(earlier, later) across the wrap": check(lambda: ticks.diff(top, 5)),
        "ticks.add(t, d) across the wrap": check(lambda: ticks.add(top, 100)),
        "ticks.add(t, -d) across the wrap": check(lambda: ticks.add(5, -100)),
        "CheeseMaster._tumble step (x*75+74) % 65537": check(lambda: lcg(12345)),
    }


def main():
    small = K.WASM     # keep the sim's clock a small int on 32 bits
    out = {"platform": sys.platform, "dt_us": DT, "states": {}, "smoke": SMOKE}

    def make():
        return K.make_sim(small_clock=small)
    for name, setup, n in states():
        if SMOKE:
            n = SMOKE
        sim = setup(make())
        st = sim.box.state_name()
        errors, first = locked_loop(sim, n)
        r = {"state": st, "iterations": n, "allocating_iterations": errors,
             "first": first}
        # the pieces are step(): checked on every run, so they cannot drift
        # (the smoke too checks 2 s of each state: blinks and frames included)
        r["mirror_checked"] = K.check_pieces(make, setup, max(n, MIRROR_MIN), DT)
        if errors or SMOKE:
            # smoke: the pieces run locked even when nothing allocates
            r["pieces"] = locked_pieces(setup(make()), n)
        out["states"][name] = r
    out["arithmetic_allocates"] = arithmetic()
    print("BENCH " + json.dumps(out))


main()
