"""Moving virtual time, and fingers on buttons: shared by the simulator's
scenarios (scenario.py) and the bench (bench/mp/mp_game.py). Pure Python: runs
on MicroPython too.
"""
from sim.simport import ROLL_BIT

PRESS_MS = 60      # how long a finger holds a button for a clean press
GAP_MS = 40        # and the pause before the next command
PLACE_MS = 20      # a plate placed: the finger reaches the buzzer 20 ms later
PENALTY_LEAD_MS = 400   # ROLL held this long before the buzzer (the box needs 300)
LONG_PRESS_MS = 2500    # a long ROLL press (the box needs 2000)


def steps(port, box, t_us):
    """Advance virtual time to t_us, stepping the box only when something
    can happen: one of its timers, or a button edge old enough to pass the
    debounce window. An edge the box says changes nothing (a buzzer let go)
    makes no step: it waits in the port and reaches the capture with its
    own timestamp at the next step; only when a timer of the box is due next
    (the stuck-button check may no longer be due once it has) does the
    capture alone take the waiting edges first, all in one go. A generator:
    it yields after every box step."""
    cap = box.capture
    settle = cap.debounce_us          # a release (or a press that bounced) settles then
    quick = cap.glitch_us             # a clean press may count this soon
    wanted = box.wants_edge
    edges = port.edges
    while True:
        nxt = -1
        wake = box.next_wake()
        if wake >= 0:
            nxt = port.t + wake * 1000
        rep = port.next_report()        # a plate placed: the box sees it then
        if rep >= 0 and (nxt < 0 or rep < nxt):
            nxt = rep if rep > port.t else port.t
        if edges:
            first = edges[0]
            if wanted(first[1], first[2]):
                e = first[0]
            else:
                due = first[0] + settle
                if 0 <= nxt <= t_us and due <= nxt and not 0 <= rep <= max(due, port.t):
                    if due > port.t:
                        port.t = due
                    port.poll(cap)
                    cap.settle(port.ticks_us())
                    continue
                e = port.next_edge(wanted)
            if e >= 0 and (nxt < 0 or e + quick < nxt):
                nxt = e + quick
        if nxt < 0 or nxt > t_us:
            if port.t < t_us:           # (a timed save may have held the box past it)
                port.t = t_us
            return
        if nxt > port.t:
            port.t = nxt
        box.step()
        yield None


def press(port, bit, hold_ms=PRESS_MS, gap_ms=GAP_MS):
    """A finger presses input `bit` (8 = ROLL) now, cleanly; returns when the
    command is over (release, then a pause)."""
    t = port.t
    port.schedule(t, bit, 1)
    port.schedule(t + hold_ms * 1000, bit, 0)
    return t + (hold_ms + gap_ms) * 1000


def place(port, s, k):
    """A finger presses answer key k of station s (or turns its dial to k),
    then moves to the buzzer; returns when the buzzer can be pressed."""
    port.place(s, k)
    return port.t + PLACE_MS * 1000


def penalty(port, s):
    """Hold ROLL 400 ms, press station s's buzzer, let go of both; returns the end."""
    t = port.t
    lead = PENALTY_LEAD_MS * 1000
    port.schedule(t, ROLL_BIT, 1)
    port.schedule(t + lead, s, 1)
    port.schedule(t + lead + 40000, s, 0)
    port.schedule(t + lead + 60000, ROLL_BIT, 0)
    return t + lead + 100000
