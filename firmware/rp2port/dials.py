"""Dials: one 8-position dial a station, through a 4051 into the ADC."""
from array import array

import machine
import time
from micropython import const

from rp2port.plates import Placements

_DIALS_POLL_MS = const(4)        # dials read at most 5 ms apart
_DIAL_READS = const(2)           # repeats after the first read: 3 reads alike
_DIAL_SETTLE_US = const(25)      # after switching the 4051: 1 nF on COM, tau ~5 us
_CROSS_READS = const(3)          # a change at 2+ stations at once: still there 3 scans later
_SCANS_KEPT = const(4)           # scan times kept (a power of 2 >= _CROSS_READS)


class Dials(Placements):
    """A dial a station (8 positions) through a 4051 into the ADC.

    A dial bridging two contacts can pull other dials' readings off by one
    (a shared ladder, a supply dip): a change that shows at two or more
    stations in the same scan counts only if it still holds 3 scans later
    (12 ms, not 8). It is only delayed, never dropped: players turn dials together."""

    def __init__(self, board, adc=None, sel=None):
        # between a save's writes: half a period early (three reads alike
        # must stay some ms apart to see a contact settle)
        super().__init__(_DIALS_POLL_MS, _DIALS_POLL_MS // 2)
        a = board.answers
        self.stations = board.stations
        self.adc = adc if adc is not None else machine.ADC(machine.Pin(a["adc"]))
        self.sel = sel if sel is not None else [machine.Pin(a[k], machine.Pin.OUT)
                                                for k in ("s0", "s1", "s2")]
        self.pos = bytearray(b"\xff" * 8)
        self.seen = bytearray(b"\xff" * 8)  # no reading yet: the first is a change
        self.same = bytearray(8)
        self.need = bytearray(8)        # reads alike that a new position needs
        self.raw = bytearray(b"\xff" * 8)  # this scan's readings (none: as seen)
        self.pending = 0                # stations whose new position is not yet counted
        self.raw_us = array("i", [0] * 8)   # and when each was read
        self.at = array("i", [0] * 8)
        self.scans = 0                  # scans so far
        self.scan_us = array("i", [0] * _SCANS_KEPT)    # the last ones' times (station 0's read)
        self.switched = 0
        self._select(0)                 # the first station of the first scan

    def reported_to(self, t_us):
        """Every position first read at or before t_us is reported: counted
        in scans, not ms (a long step, a save, can hold the reads). A new
        position needs at most _CROSS_READS more scans after its first read,
        and that read came before any scan that started at or after t_us: so
        once _CROSS_READS scans have started after t_us, all are in."""
        if self.scans < _CROSS_READS:
            return False
        first = self.scan_us[(self.scans - _CROSS_READS) % _SCANS_KEPT]
        return time.ticks_diff(first, t_us) > 0

    def read(self):
        """After switching the 4051 the COM node needs time to reach the new
        dial's voltage (1 nF on COM: tau ~5 us with the ladder and the 4051,
        so 25 us is 5 tau, well inside half a position): the mux is switched
        to the next station as soon as one is read, so that time passes
        while this one is stored, and only what is left of it is waited.
        Then judge the whole scan (scan())."""
        n = self.stations
        adc = self.adc
        a, b, c = self.sel
        for s in range(n):
            # (a negative difference: a stamp from minutes ago, long settled)
            while 0 <= time.ticks_diff(time.ticks_us(), self.switched) < _DIAL_SETTLE_US:
                pass
            adc.read_u16()                      # the ADC's own sample cap settles too
            self.raw[s] = adc.read_u16() >> 13
            self.raw_us[s] = time.ticks_us()
            k = s + 1 if s + 1 < n else 0       # the next one settles meanwhile
            a.value(k & 1)
            b.value((k >> 1) & 1)
            c.value(k >> 2)
            self.switched = time.ticks_us()
        self.scan()

    def _select(self, s):
        for b in range(3):
            self.sel[b].value((s >> b) & 1)
        self.switched = time.ticks_us()

    def scan(self):
        """A new position counts once 3 reads agree (a switch between
        contacts can read anything), stamped with the first of them; a
        change seen at 2+ stations in this scan must hold _CROSS_READS scans."""
        raw = self.raw
        if self.pending == 0 and raw == self.seen:
            # every dial where it was and counted (nearly every scan, every
            # 4 ms all night): nothing below would change
            self._scanned()
            return
        changed = 0
        for s in range(self.stations):
            if raw[s] != self.seen[s]:
                changed += 1
        pending = 0
        for s in range(self.stations):
            pos = raw[s]
            if pos != self.seen[s]:
                self.seen[s] = pos
                self.same[s] = 0
                self.need[s] = _CROSS_READS if changed >= 2 else _DIAL_READS
                self.at[s] = self.raw_us[s]
            elif self.same[s] < self.need[s]:
                self.same[s] += 1
                if self.same[s] == self.need[s] and pos != self.pos[s]:
                    self.pos[s] = pos
                    self.placed(s, pos, self.at[s])
            if self.same[s] < self.need[s]:
                pending += 1
        self.pending = pending
        self._scanned()

    def _scanned(self):
        # station 0 is read first: no read of this scan came before this time
        self.scan_us[self.scans % _SCANS_KEPT] = self.raw_us[0]
        self.scans = (self.scans + 1) & 0x3FFFFFFF     # a small int (no allocation)
