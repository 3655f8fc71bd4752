# Cost of the main loop and of one buzz, as a ratio against a calibration
# loop timed on the same interpreter, so the figures hold on a noisy machine.
# Run by host_tools/bench.py on the unix MicroPython; see docs/bench.md.
#
#   micropython bench/mp_cost.py [ROUNDS]
#
# Prints "BENCH {json}": medians in microseconds on this machine and each as
# "calibration iterations" (the time of that many iterations of
# `x = i * 3 + 1` in calib_loop below).
import json
import sys
import time

import benchkit as K
from cheesebox.display import WHEEL

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 40
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


def pieces_step(box, out):
    """box.step() (box.py) with a clock between its parts."""
    port = box.port
    t0 = us()
    now = port.ticks_ms()
    box.now = now
    port.poll(box.capture)
    t1 = us()
    if box.board.electronic and box.match is not None:
        box._read_answers()
    cap = box.capture
    n = cap.pop(port.ticks_us())
    for i in range(n):
        box._on_input(cap.kind[i], cap.input[i], cap.time[i])
    t2 = us()
    box._timers(now)
    box.tunes.step(now)
    t3 = us()
    box._render(now)
    t4 = us()
    box.display.flush(port)
    t5 = us()
    out["poll"].append(diff(t1, t0))
    out["pop_and_input"].append(diff(t2, t1))
    out["timers_and_tunes"].append(diff(t3, t2))
    out["render"].append(diff(t4, t3))
    out["flush"].append(diff(t5, t4))


def buzzes(sim, rounds):
    """Time the step that takes a confirmed press in GRAB: the sampler word
    is delivered by port.poll, the capture confirms it, the match gives the
    wheel, the wheel LED is drawn and the chain handed to port.show."""
    box = sim.box
    port = sim.port
    settle = box.capture.debounce_us
    grab = []
    last = []
    parts = {"poll": [], "pop_and_input": [], "timers_and_tunes": [], "render": [], "flush": []}
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
    out = {"platform": sys.platform}
    cal = [calibrate()]
    sim = K.to_ready_marked(K.make_sim())
    out["idle_step_us"] = idle_steps(sim)
    out["wake_step_us"] = wake_steps(sim)
    cal.append(calibrate())
    grab, last, parts, bad = buzzes(K.make_sim(), ROUNDS)
    cal.append(calibrate())
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
