"""The port: everything the box needs from hardware, and nothing more.

A port is any object with these members. The Pico's port (port_rp2.py) and
the simulator's (sim/simport.py) both implement it; the game logic never
imports machine, rp2 or neopixel. This class documents the contract and
checks an implementation: `check_port(p)` names what a port lacks.

Clock
    ticks_ms(), ticks_us() -- wrapping at 2**30 like MicroPython's (ticks.py)
Inputs
    poll(capture)          -- push raw pin samples taken since the last call
                              into capture.sample(bits, t_us); bit i is
                              station i's buzzer (0-7), bit 8 is ROLL
    answer_val             -- bytearray(8): electronic plates, the plate each
                              station placed last (0-7)
    answer_seq             -- bytearray(8): bumped (mod 256) at every placement,
                              so placing the same plate twice is still seen
Outputs
    show(chain, buf, lo, hi) -- a chain's new frame: buf is RGB bytes in wire
                              pixel order at full scale, bytes lo:hi changed
                              since the last show; the port applies colour
                              order and the board's brightness limit
    commit()               -- put the frames shown since the last commit on
                              the wires, in the order shown, each once
    tone(freq)             -- piezo at freq Hz, 0 = silent; never blocks
    idle(ms)               -- nothing to do for up to ms (sleep, feed watchdog)
Serial (the Pico's app.py only)
    read_line()            -- a command line typed on the console, or None
"""

MEMBERS = ("ticks_ms", "ticks_us", "poll", "answer_val", "answer_seq", "show", "commit", "tone",
           "idle")


def check_port(p):
    """Names of the members a port object is missing (empty: it is complete)."""
    return [m for m in MEMBERS if not hasattr(p, m)]
