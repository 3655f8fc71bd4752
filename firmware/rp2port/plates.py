"""Electronic plates: what every reader reports (keys.py, dials.py).

Imported only on a board that has plates (port.py), and only the board's own
reader with it. Each reader fills the port's placement arrays: a station's
value, when it was placed (ticks_us) and a counter that moves at every
placement, which the box watches.
"""
from array import array

import time


class Placements:
    """What the readers report, shared with the box (port.py contract)."""

    def __init__(self, period_ms, early_ms):
        self.val = bytearray(8)
        self.seq = bytearray(8)
        self.us = array("i", [0] * 8)
        self.count = 0                  # seq bumps, all stations (idle() watches it)
        self.period_ms = period_ms
        self.early_ms = early_ms        # poll(early=True) reads this long before it is due
        self.next_ms = time.ticks_ms()

    def placed(self, s, value, t_us):
        self.val[s] = value
        self.us[s] = t_us
        self.seq[s] = (self.seq[s] + 1) & 0xFF
        self.count += 1

    def due(self, now):
        """ms until the next read is due (<= 0: now)."""
        return time.ticks_diff(self.next_ms, now)

    def read(self):
        """Read every station once (Keys, Dials)."""

    def reported_to(self, t_us):
        """Every placement stamped at or before t_us is reported (port.py).
        A key is reported by the read that stamps it: always."""
        return True

    def poll(self, early=False):
        """Read the plates if a read is due (early: or due within early_ms;
        between a save's writes, where the next write may hold the CPU past
        the due time)."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self.next_ms) < (-self.early_ms if early else 0):
            return
        self.next_ms = time.ticks_add(now, self.period_ms)
        self.read()
