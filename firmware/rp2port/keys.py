"""Answer keys: 8 keys a station through chained 74HC165s, read by SoftSPI."""
import machine
import time
from micropython import const

from rp2port.plates import Placements

_KEYS_POLL_MS = const(8)         # answer keys read at most 10 ms apart (ruling)
_KEYS_BAUD = const(1000000)      # SoftSPI clock for the 74HC165 chain


class Keys(Placements):
    """8 keys a station through chained 74HC165s (a key pulls low)."""

    def __init__(self, board):
        # between a save's writes: a read at every one (a read is only a
        # stamp: sooner is closer, and the next write may hold the CPU 20 ms)
        super().__init__(_KEYS_POLL_MS, _KEYS_POLL_MS)
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
        self.keys_was = bytearray(b"\xff" * board.stations)  # keys_in at the last read

    def read(self):
        """A key going down is stamped with the time of this read, the first to see it."""
        self.pl.value(0)                        # load the keys into the registers
        self.pl.value(1)
        t = time.ticks_us()
        self.spi.readinto(self.keys_in, 0xFF)
        if self.keys_in == self.keys_was:
            # nothing moved since the last read (nearly every read, every 8
            # ms all night): the stations' loop below cost ~0.4 ms a read
            return
        for s in range(self.stations):
            self.keys_was[s] = self.keys_in[s]
            v = self.keys_in[s] ^ 0xFF          # bit 7-k: key k down
            pressed = v & ~self.keys_down[s]
            self.keys_down[s] = v
            if pressed:
                k = 0
                while not (pressed >> (7 - k)) & 1:
                    k += 1
                self.placed(s, k, t)
