"""Wrapping tick arithmetic, identical to MicroPython's on a 32-bit port.

ticks_ms/ticks_us wrap at 2**30 on the RP2040 and RP2350; the virtual clock of
the simulator wraps at the same point, so the firmware only ever compares
ticks through diff() and add(), and the wrap is exercised in every sim game.
"""
try:
    from micropython import const  # pyright: ignore  (typed apart from our fallback)
except ImportError:  # CPython: the simulator and host tools
    def const(x):
        return x

PERIOD = const(0x40000000)
MASK = const(0x3FFFFFFF)
HALF = const(0x20000000)


def diff(a, b):
    """a - b for wrapped ticks, in [-2**29, 2**29)."""
    return ((a - b + HALF) & MASK) - HALF


def add(t, delta):
    """t + delta, wrapped."""
    return (t + delta) & MASK
