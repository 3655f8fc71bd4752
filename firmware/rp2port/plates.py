"""Electronic plates: answer keys through 74HC165s, or dials through a 4051.

Imported only on a board that has them (port.py). Each reader fills the
port's placement arrays: a station's value, when it was placed (ticks_us)
and a counter that moves at every placement, which the box watches.
"""
from array import array

import machine
import time
from micropython import const

_KEYS_POLL_MS = const(8)         # answer keys read at most 10 ms apart (ruling)
_DIALS_POLL_MS = const(4)        # dials read at most 5 ms apart
_KEYS_BAUD = const(1000000)      # SoftSPI clock for the 74HC165 chain
_DIAL_READS = const(2)           # repeats after the first read: 3 reads alike
_DIAL_SETTLE_US = const(60)      # after switching the 4051: 1 nF on COM, tau ~4 us
_CROSS_READS = const(3)          # a change at 2+ stations at once: still there 3 scans later


class Placements:
    """What the readers report, shared with the box (port.py contract)."""

    def __init__(self, period_ms):
        self.val = bytearray(8)
        self.seq = bytearray(8)
        self.us = array("i", [0] * 8)
        self.count = 0                  # seq bumps, all stations (idle() watches it)
        self.period_ms = period_ms
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

    def poll(self):
        """Read the plates if a read is due."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self.next_ms) < 0:
            return
        self.next_ms = time.ticks_add(now, self.period_ms)
        self.read()


class Keys(Placements):
    """8 keys a station through chained 74HC165s (a key pulls low)."""

    def __init__(self, board):
        super().__init__(_KEYS_POLL_MS)
        a = board.answers
        self.stations = board.stations
        # The 74HC165 chain read by MicroPython's SoftSPI (a C loop: 64 bits
        # in ~0.2 ms, where Pin calls took ms). Clock idles high and MISO is
        # read after each falling edge, before the rising edge shifts: the
        # first bit is chip 0's H. SoftSPI needs a MOSI pin: it is the load
        # pin, held high (write=0xFF) while the bits come in.
        self.pl = machine.Pin(a["load"], machine.Pin.OUT, value=1)
        self.spi = machine.SoftSPI(baudrate=_KEYS_BAUD, polarity=1, phase=0,
                                   sck=machine.Pin(a["clock"]),
                                   mosi=self.pl, miso=machine.Pin(a["data"]))
        self.keys_in = bytearray(board.stations)
        self.keys_down = bytearray(8)

    def read(self):
        """A key going down is stamped with the time of this read, the first to see it."""
        self.pl.value(0)                        # load the keys into the registers
        self.pl.value(1)
        t = time.ticks_us()
        self.spi.readinto(self.keys_in, 0xFF)
        for s in range(self.stations):
            v = self.keys_in[s] ^ 0xFF          # bit 7-k: key k down
            pressed = v & ~self.keys_down[s]
            self.keys_down[s] = v
            if pressed:
                k = 0
                while not (pressed >> (7 - k)) & 1:
                    k += 1
                self.placed(s, k, t)


class Dials(Placements):
    """A dial a station (8 positions) through a 4051 into the ADC.

    A dial bridging two contacts can pull other dials' readings off by one
    (a shared ladder, a supply dip): a change that shows at two or more
    stations in the same scan counts only if it still holds 3 scans later
    (12 ms, not 8). It is only delayed, never dropped: players turn dials together."""

    def __init__(self, board, adc=None, sel=None):
        super().__init__(_DIALS_POLL_MS)
        a = board.answers
        self.stations = board.stations
        self.adc = adc if adc is not None else machine.ADC(machine.Pin(a["adc"]))
        self.sel = sel if sel is not None else [machine.Pin(a[k], machine.Pin.OUT)
                                                for k in ("s0", "s1", "s2")]
        self.pos = bytearray(b"\xff" * 8)
        self.seen = bytearray(b"\xff" * 8)  # no reading yet: the first is a change
        self.same = bytearray(8)
        self.need = bytearray(8)        # reads alike that a new position needs
        self.raw = bytearray(8)         # this scan's readings
        self.raw_us = array("i", [0] * 8)   # and when each was read
        self.at = array("i", [0] * 8)

    def read(self):
        """After switching the 4051 the COM node needs time to reach the new
        dial's voltage (1 nF on COM: tau ~4 us with the ladder): wait, then
        read. Then judge the whole scan (scan())."""
        for s in range(self.stations):
            for b in range(3):
                self.sel[b].value((s >> b) & 1)
            time.sleep_us(_DIAL_SETTLE_US)
            self.adc.read_u16()                 # the ADC's own sample cap settles too
            self.raw[s] = self.adc.read_u16() >> 13
            self.raw_us[s] = time.ticks_us()
        self.scan()

    def scan(self):
        """A new position counts once 3 reads agree (a switch between
        contacts can read anything), stamped with the first of them; a
        change seen at 2+ stations in this scan must hold _CROSS_READS scans."""
        raw = self.raw
        changed = 0
        for s in range(self.stations):
            if raw[s] != self.seen[s]:
                changed += 1
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
