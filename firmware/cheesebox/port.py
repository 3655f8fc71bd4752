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
    answer_us              -- array('i', 8): ticks_us of each station's last
                              placement (set before answer_seq is bumped)
                              Answer keys: a placement is a key going down; it
                              is stamped with the time of the first key read
                              that saw it down, and reads are never more than
                              10 ms apart (LED writes included), so a key
                              pressed 10 ms before a buzzer is stamped before
                              it and a key pressed after it never is. Reported
                              (answer_seq bumped) at the latest by the first
                              poll() after its stamp.
                              Dials: a placement is the dial settling on a
                              new position; stamped with the first read that
                              saw that position, reported within 10 ms of the
                              stamp (before the box confirms a buzzer press:
                              12 ms debounce). A dial that does not move
                              reports nothing; every dial's position is
                              reported once when the port starts.
                              The box keeps the last two placements a station
                              and locks, at a grab, the one stamped at or
                              before the buzzer's time.
Outputs
    show(chain, buf, lo, hi) -- a chain's new frame: buf is RGB bytes in wire
                              pixel order at full scale, bytes lo:hi changed
                              since the last show; the port applies colour
                              order and the board's brightness limit
    commit()               -- put the frames shown since the last commit on
                              the wires, in the order shown, each once
    tone(freq)             -- piezo at freq Hz, 0 = silent; never blocks
    idle(ms, exact_us=-1)  -- nothing to do for up to ms (sleep, feed watchdog);
                              exact_us >= 0: wake that many us from now
Serial (the Pico's app.py only)
    read_line()            -- a command line typed on the console, or None
"""

MEMBERS = ("ticks_ms", "ticks_us", "poll", "answer_val", "answer_seq", "answer_us", "show", "commit",
           "tone",
           "idle")


def check_port(p):
    """Names of the members a port object is missing (empty: it is complete)."""
    return [m for m in MEMBERS if not hasattr(p, m)]
