"""The port: everything the box needs from hardware, and nothing more.

A port is any object with the members below; the game logic never imports
machine, rp2 or neopixel. Three ports implement it: the Pico's Rp2Port
(rp2port/port.py), the simulator's SimPort (sim/simport.py) and the
browser's WebPort (web/webport.py). MEMBERS, PLATES and OPTIONAL say the
same as data, and `check_port(p)` names what a port lacks or takes wrongly
(tests/test_port_contract.py runs it on all three).

Clock
    ticks_ms(), ticks_us() -- wrapping at 2**30 like MicroPython's (ticks.py)
Inputs
    poll(capture)          -- push raw pin samples taken since the last call
                              into capture.sample(bits, t_us); bit i is
                              station i's buzzer (0-7), bit 8 is ROLL
                              (and read the plates when a read is due)
    answer_val             -- bytearray(8): electronic plates (only a board
                              with them), the plate each station placed last (0-7)
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
    reported_to(t_us)      -- True once every placement stamped at or before
                              t_us has been reported (answer keys: at once;
                              dials: after the reads a new position needs,
                              counted in reads, not ms): a dial grab is locked
                              then
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
Settings (optional: the box calls them when the port has them)
    set_brightness(permille) -- the table's brightness; commit() repaints
    volume(level)          -- the table's volume, 0 off, 1 quiet, 2 loud
Mid-step (optional: the box calls it between a save's flash writes)
    between(capture)       -- what poll() does: a flash erase or write holds
                              the loop (a save ~80 ms, up to 450 ms at the
                              flash's slowest), and the keys are read between
                              its writes as at any other time (the Pico: at
                              every one), so a key pressed during a save is
                              not stamped after it (only while a flash call
                              holds the CPU can nothing read it)
Serial (optional: the Pico's app.py only)
    read_line()            -- a command line typed on the console, or None
    write_line(text)       -- one event-log line out; never blocks
"""

# (name, fewest, most): a method the box calls with fewest..most positional
# arguments; (name, None, None): data the box reads
MEMBERS = (("ticks_ms", 0, 0), ("ticks_us", 0, 0), ("poll", 1, 1), ("show", 4, 4), ("commit", 0, 0),
           ("tone", 1, 1), ("idle", 1, 2))
# needed on a board with electronic plates (the box reads them only there)
PLATES = (("answer_val", None, None), ("answer_seq", None, None), ("answer_us", None, None),
          ("reported_to", 1, 1))
# checked only when present
OPTIONAL = (("set_brightness", 1, 1), ("volume", 1, 1), ("read_line", 0, 0), ("write_line", 1, 1),
            ("between", 1, 1))


def check_port(p, plates=False, takes=None):
    """What port object p lacks or takes wrongly, one line each (empty: it
    keeps the contract). plates: its board has electronic plates.
    takes(f): (fewest, most) positional arguments f accepts, most -1 for
    any; MicroPython cannot tell, so a host passes inspect's answer and
    argument counts are checked only then."""
    out = []
    for group, needed in ((MEMBERS, True), (PLATES, plates), (OPTIONAL, False)):
        for name, lo, hi in group:
            if not hasattr(p, name):
                if needed:
                    out.append(name + ": missing")
                continue
            v = getattr(p, name)
            if lo is None:
                if len(v) < 8:
                    out.append(name + ": fewer than 8 stations")
            elif not callable(v):
                out.append(name + ": not callable")
            elif takes is not None:
                a, b = takes(v)
                if a > lo or 0 <= b < hi:
                    out.append("%s: takes %d to %s arguments, the box passes %d to %d"
                               % (name, a, "any" if b < 0 else b, lo, hi))
    return out
