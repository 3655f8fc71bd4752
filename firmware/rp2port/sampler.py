"""Decoding the button sampler's words into timestamped pin snapshots.

On the Pico a PIO state machine (buttons.py) samples the button window
every 16 us and, when the snapshot differs from the last one, pushes ONE
30-bit word: (loop counter low K bits << W) | W-bit snapshot. A DMA channel
copies the words to a ring in RAM, so nothing is lost while the CPU has
interrupts off (machine.bitstream, flash writes). The simulated port makes the
very same words, so this decoder is exercised by every simulated game.

The sampler loop is exactly 16 us (16 PIO cycles at sysclk/MHz), driven by
the same crystal as ticks_us, and it started at a known ticks_us: the loop
running now is (now - start) / 16, so a word's time is found by counting
back from now, with no state carried from poll to poll. (An anchor moved
forward poll by poll went wrong after 9 minutes without a word: ticks_us
differences are only meaningful within half its 2**30 period.) ticks_us
wraps every 2**26 loops, a multiple of the counter's period, so the count
stays exact across every wrap.
Words stay below 2**30, so on a 32-bit port they are small ints: decoding
allocates nothing.
"""
from micropython import const

from array import array

from cheesebox import ticks
from cheesebox.board import MAX_WINDOW

LOOP_US = const(16)       # one sampler loop
_LOOP_SHIFT = const(4)     # log2(LOOP_US)
WORD_BITS = const(30)
_TICK_LOOP_BITS = const(26) # ticks_us wraps every 2**30 us = 2**26 loops
_NO_PIN = const(255)


class SampleDecoder:
    """Turns sampler words into capture.sample(bits, t_us) calls.

    pins: GPIO of each capture input (stations 0-7, then ROLL at index 8;
    -1 where a board has no such input); base: the first GPIO of the window; width:
    window size; active_low: buttons pull the pin to ground.
    """

    def __init__(self, pins, base, width, t_start_us, active_low=True):
        if width > MAX_WINDOW:
            raise ValueError("button window of %d pins is wider than %d" % (width, MAX_WINDOW))
        self.width = width
        self.kbits = WORD_BITS - width
        if self.kbits > _TICK_LOOP_BITS:     # use no more counter bits than ticks_us has loops
            self.kbits = _TICK_LOOP_BITS
        self.kmask = (1 << self.kbits) - 1
        self.khalf = 1 << (self.kbits - 1)
        self.snap_mask = (1 << width) - 1
        self.shift = bytearray(len(pins))
        for i in range(len(pins)):
            if pins[i] < 0:               # no such input on this board
                self.shift[i] = _NO_PIN
                continue
            if not base <= pins[i] < base + width:
                raise ValueError("GP%d is outside the button window GP%d-GP%d"
                                 % (pins[i], base, base + width - 1))
            self.shift[i] = pins[i] - base
        # snapshot -> capture bits, two lookups per word: one table for the
        # window's low half, one for its high half (2 x 2**6 entries at most,
        # not 2**width: 8 KiB for a 12-pin window)
        self.lo_bits = (width + 1) // 2
        self.lo_mask = (1 << self.lo_bits) - 1
        hi_bits = width - self.lo_bits
        flip = self.snap_mask if active_low else 0
        self.lo = array("H", bytes(2 << self.lo_bits))
        for snap in range(1 << self.lo_bits):
            self.lo[snap] = self._map((snap ^ flip) & self.lo_mask)
        self.hi = array("H", bytes(2 << hi_bits))
        for snap in range(1 << hi_bits):
            self.hi[snap] = self._map(((snap << self.lo_bits) ^ flip) & ~self.lo_mask & self.snap_mask)
        self.t0 = t_start_us       # ticks_us when the sampler's loop 0 began
        self.anchor_n = 0          # loop count of the loop running at anchor_t (mod 2**K)
        self.anchor_t = t_start_us # start of that loop

    def advance(self, now_us):
        """Take now as the reference for the words read next: the loop running
        now and its start. Depends only on now, never on an earlier call."""
        d = now_us - self.t0               # (now - start) mod 2**30, no allocation
        if d < 0:
            d += ticks.PERIOD
        self.anchor_n = (d >> _LOOP_SHIFT) & self.kmask
        self.anchor_t = ticks.add(now_us, -(d & (LOOP_US - 1)))

    def time_of(self, word):
        """ticks_us of the loop that took this word (advance() first)."""
        n = (-(word >> self.width)) & self.kmask     # the counter counts down
        back = (self.anchor_n - n) & self.kmask
        if back >= self.khalf:                        # a loop after the anchor
            back -= self.kmask + 1
        return ticks.add(self.anchor_t, -(back << _LOOP_SHIFT))

    def bits_of(self, word):
        """Capture input bits (1 = pressed) from a word's snapshot."""
        return self.lo[word & self.lo_mask] | self.hi[(word & self.snap_mask) >> self.lo_bits]

    def _map(self, snap):
        bits = 0
        for i in range(len(self.shift)):
            if self.shift[i] != _NO_PIN and (snap >> self.shift[i]) & 1:
                bits |= 1 << i
        return bits

    def feed(self, word, capture):
        capture.sample(self.bits_of(word), self.time_of(word))
