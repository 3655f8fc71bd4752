"""Wrapping tick arithmetic, identical to MicroPython's on a 32-bit port.

ticks_ms/ticks_us wrap at 2**30 on the RP2040 and RP2350; the virtual clock of
the simulator wraps at the same point, so the firmware only ever compares
ticks through diff() and add(), and the wrap is exercised in every sim game.
"""
from micropython import const

PERIOD = const(0x40000000)
MASK = const(0x3FFFFFFF)
HALF = const(0x20000000)


def diff(a, b):
    """a - b for wrapped ticks, in [-2**29, 2**29).

    No intermediate leaves the 31-bit small-int range of a 32-bit port, so
    this never allocates (a - b + HALF would, near the wrap)."""
    d = a - b
    if d >= HALF:
        return d - MASK - 1
    if d < -HALF:
        return d + MASK + 1
    return d


def add(t, delta):
    """t + delta, wrapped (|delta| < 2**29); never allocates, as diff()."""
    if delta >= 0:
        if t > MASK - delta:
            return t - (MASK - delta) - 1
        return t + delta
    r = t + delta
    if r < 0:
        return r + MASK + 1
    return r
