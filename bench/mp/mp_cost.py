# Cost of the main loop and of one buzz, as a ratio against a calibration
# loop timed on the same interpreter, so the figures hold on a noisy machine.
# Run by bench/run.py on the unix MicroPython; see docs/bench.md.
#
#   micropython bench/mp/mp_cost.py [ROUNDS [SMOKE]]
#
# SMOKE (bench/run.py --smoke): 1 = the smallest workload (one round,
# a few batches and wake steps, short calibrations), to check it runs.
# Prints "BENCH {json}": medians in microseconds on this machine and each as
# "calibration iterations" (the time of that many iterations of
# `x = i * 3 + 1` in calib_loop below).
import json
import sys
import time

import benchkit as K
from cheesebox.display import WHEEL

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SMOKE = len(sys.argv) > 2 and sys.argv[2] == "1"
us = time.ticks_us
diff = time.ticks_diff


def calib_loop():
    for i in range(10000):
        x = i * 3 + 1  # noqa: F841


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def calibrate(runs=41):
    t = []
    for _ in range(runs):
        t0 = us()
        calib_loop()
        t.append(diff(us(), t0))
    return median(t) / 10000.0          # us per iteration


def idle_steps(sim, batches=200, per=100):
    """step() + next_wake() with nothing due (the clock does not move)."""
    box = sim.box
    t = []
    for _ in range(batches):
        t0 = us()
        for _ in range(per):
            box.step()
            box.next_wake()
        t.append(diff(us(), t0) / per)
    return median(t)


def wake_steps(sim, n=400):
    """The steps the Pico makes in READY: the clock jumps to next_wake()
    each time (the marked player's blink, the faces/count cycle)."""
    box = sim.box
    port = sim.port
    t = []
    for _ in range(n):
        w = box.next_wake()
        port.t += (w if w > 0 else 1) * 1000
        t0 = us()
        box.step()
        box.next_wake()
        t.append(diff(us(), t0))
    return median(t)


def wheel_lit(sim, s):
    ci, start = sim.board.tracks[s]
    i = 0 if sim.board.track_reversed else 7
    buf = sim.box.display.bufs[ci]
    j = (start + i) * 3
    return (buf[j], buf[j + 1], buf[j + 2]) == WHEEL


# the table's five parts of a step, from benchkit's pieces (the same calls as
# Box.step, checked against box.py by bench/run.py and mp_steady.py)
PART = {"clock": "poll", "hold": "poll", "poll": "poll", "answers": "pop_and_input",
        "inputs": "pop_and_input", "stuck": "pop_and_input", "timers": "timers_and_tunes",
        "tunes": "timers_and_tunes", "render": "render", "flush": "flush", "release": "flush"}
PARTS = ("poll", "pop_and_input", "timers_and_tunes", "render", "flush")


def pieces_step(box, out):
    """box.step() made of benchkit's pieces, with a clock between them."""
    ps = K.step_pieces(box)
    t = [0] * (len(ps) + 1)
    t[0] = us()
    for i in range(len(ps)):
        ps[i][2]()
        t[i + 1] = us()
    sums = dict((k, 0) for k in PARTS)
    for i in range(len(ps)):
        sums[PART[ps[i][0]]] += diff(t[i + 1], t[i])
    for k in PARTS:
        out[k].append(sums[k])


def buzzes(sim, rounds):
    """Time the step that takes a confirmed press in GRAB: the sampler word
    is delivered by port.poll, the capture confirms it, the match gives the
    wheel, the wheel LED is drawn and the chain handed to port.show."""
    box = sim.box
    port = sim.port
    settle = box.capture.debounce_us
    grab = []
    last = []
    parts = dict((k, []) for k in PARTS)
    bad = 0
    for r in range(rounds):
        K.reset_points(sim)
        K.to_grab(sim)
        no_wheel = r % 8
        order = [s for s in range(8) if s != no_wheel]
        for k in range(len(order)):
            s = order[k]
            t = port.t
            port.schedule(t, s, 1)
            port.schedule(t + 60000, s, 0)
            port.t = t + settle + 1000
            if r % 2 == 0:
                t0 = us()
                box.step()
                dt = diff(us(), t0)
                (last if k == len(order) - 1 else grab).append(dt)
            else:
                pieces_step(box, parts)
            if k < len(order) - 1 and not wheel_lit(sim, s):
                bad += 1
            sim.run_until(t + 100000)
        sim.wait(3000)
    return grab, last, dict((k, median(v)) for k, v in parts.items()), bad


def main():
    out = {"platform": sys.platform, "smoke": SMOKE}
    runs = 3 if SMOKE else 41
    cal = [calibrate(runs)]
    sim = K.to_ready_marked(K.make_sim())
    out["idle_step_us"] = idle_steps(sim, 3, 10) if SMOKE else idle_steps(sim)
    out["wake_step_us"] = wake_steps(sim, 5) if SMOKE else wake_steps(sim)
    cal.append(calibrate(runs))
    # two rounds at least: even rounds time the whole step, odd ones its parts
    grab, last, parts, bad = buzzes(K.make_sim(), max(ROUNDS, 2))
    cal.append(calibrate(runs))
    c = median(cal)
    out["calib_us_per_iteration"] = c
    out["calib_spread"] = [min(cal), max(cal)]
    out["buzz_us"] = median(grab)
    out["buzz_samples"] = len(grab)
    out["last_buzz_us"] = median(last)
    out["last_buzz_samples"] = len(last)
    out["buzz_parts_us"] = parts
    out["wheel_not_lit"] = bad
    for k in ("idle_step_us", "wake_step_us", "buzz_us", "last_buzz_us"):
        out[k.replace("_us", "_ratio")] = out[k] / c
    out["buzz_parts_ratio"] = dict((k, v / c) for k, v in parts.items())
    print("BENCH " + json.dumps(out))


main()
