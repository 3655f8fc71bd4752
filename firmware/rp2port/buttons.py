"""The buttons: a PIO sampler and two chained DMA channels into a RAM ring.

A PIO state machine samples the whole button window (buzzers and ROLL,
consecutive GPIOs, pulled up) every 16 us and pushes one word when the
snapshot changes: (loop counter << W) | snapshot (sampler.py decodes it).
Two DMA channels drain its RX FIFO into a 64-word ring in RAM.

Why this design and not GPIO interrupts:
- the rp2 port serves GPIO interrupts one handler after another in pin
  order, and machine.bitstream (the neopixel module) and flash writes turn
  interrupts off for milliseconds (11.5 ms for 384 pixels): interrupt
  timestamps would be late, and unfair to high pins;
- the PIO takes every pin in the same instant (a true tie is a tie, broken
  later by the random source) and counts time itself, so a press during an
  LED write keeps its exact 16 us stamp; the DMA keeps draining while the CPU
  has interrupts off, so nothing is lost or reordered;
- the only interrupt handler sets a flag (the sleeping core wakes on it):
  nothing can allocate in it.
"""
from array import array

import io
import machine
import rp2
import time
import uctypes
from micropython import const

from rp2port.pio_sampler import sampler_program
from rp2port.sampler import SampleDecoder

RING_WORDS = const(64)          # DMA ring of sampler words
RING_BITS = const(8)            # log2 of its size in bytes
PIO0_RXF0 = const(0x50200020)   # PIO0 RX FIFO 0 (RP2040 and RP2350)
DREQ_PIO0_RX0 = const(4)
# Two DMA channels drain the ring, each chained to the other: each moves SEGMENT
# words, then triggers the other, which reloads its own count. They run for
# ever with no CPU help, on the RP2040 and the RP2350 alike (a single channel's
# count runs out, and on the RP2350 bits 31:28 of the count are its mode).
# SEGMENT is a multiple of the ring, so each channel always starts where the
# other stopped.
SEGMENT = const(1 << 20)        # words: >= 16 s of a pin chattering at every loop


class Wake(io.IOBase):
    """A flag the sampler's PIO interrupt raises, that select.poll can wait
    on: the core sleeps (WFE) until a button changes, the console types, or
    the timeout, instead of waking every millisecond to look."""

    def __init__(self):
        self.up = False

    def ioctl(self, req, arg):
        if req == 3:                    # MP_STREAM_POLL
            return arg & 1 if self.up else 0
        return 0


class Buttons:
    """The sampler on PIO0 state machine sm_id, its ring, and the decoder."""

    def __init__(self, board, sm_id=0, segment=SEGMENT):
        base = board.button_base
        width = board.button_width
        # pull up the whole window (board.py keeps other uses out of it): a
        # floating unused pin would make spurious sampler words
        for g in range(base, base + width):
            machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)
        self.segment = segment
        self.overruns = 0
        # a ring aligned to its size, as the DMA ring mode needs
        self.ring_all = array("I", [0] * (2 * RING_WORDS))
        addr = uctypes.addressof(self.ring_all)
        self.ring_off = ((-addr) % (RING_WORDS * 4)) // 4
        self.ring_addr = addr + self.ring_off * 4
        self.sm_id = sm_id
        self.sampler = sampler_program(width, 30 - width)
        self.sm = rp2.StateMachine(sm_id, self.sampler, freq=1000000, in_base=machine.Pin(base))
        self.sm.exec("set(x, 0)")
        self.sm.exec("set(y, 0)")
        self.dma = rp2.DMA()
        self.dma2 = rp2.DMA()
        dreq = DREQ_PIO0_RX0 + sm_id
        rx = PIO0_RXF0 + 4 * sm_id
        for ch, other, trigger in ((self.dma2, self.dma, False), (self.dma, self.dma2, True)):
            ctrl = ch.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=RING_BITS,
                                ring_sel=True, treq_sel=dreq, chain_to=other.channel)  # pyright: ignore[reportAttributeAccessIssue]
            ch.config(read=rx, write=self.ring_addr, count=segment, ctrl=ctrl, trigger=trigger)
        self.read_pos = 0               # ring index of the next word to read
        self.seg_ch = 0                 # channel that was busy at the last poll (0: dma)
        self.seg_done = 0               # words of that channel's segment read so far
        self.wake = Wake()
        wake = self.wake

        def raised(sm):                 # hard IRQ: sets a flag, allocates nothing
            wake.up = True
        self.sm.irq(raised, hard=True)
        t0 = time.ticks_us()
        self.sm.active(1)
        self.decoder = SampleDecoder(board.input_pins(), base, width, t0)

    def close(self):
        """Stop the state machine and free the DMA channels (a second main()
        after Ctrl-C builds a new port: the old one must let go of them)."""
        self.sm.active(0)
        for ch in (self.dma, self.dma2):
            ch.active(0)
            ch.close()
        rp2.PIO(self.sm_id // 4).remove_program(self.sampler)

    def progress(self):
        """(busy channel, words it has moved in its segment): two register reads."""
        c = self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        if self.dma.active():
            return 0, self.segment - c
        return 1, self.segment - self.dma2.count  # pyright: ignore[reportAttributeAccessIssue]

    def poll(self, capture):
        """Feed every ring word since the last poll to the capture."""
        ch, done = self.progress()
        seg = self.segment
        if ch == self.seg_ch:
            new = done - self.seg_done
        else:                                    # the other channel took over
            new = seg - self.seg_done + done
        if new <= 0:
            return
        self.seg_ch = ch
        self.seg_done = done
        if new > RING_WORDS:                    # the ring lapped us: keep the newest
            self.overruns += 1
            self.read_pos = (self.read_pos + new - RING_WORDS) % RING_WORDS
            new = RING_WORDS
        dec = self.decoder
        dec.advance(time.ticks_us())
        ring = self.ring_all
        off = self.ring_off
        pos = self.read_pos
        for _ in range(new):
            dec.feed(ring[off + pos], capture)
            pos = (pos + 1) % RING_WORDS
        self.read_pos = pos

    def changed(self):
        """Words came since the last poll (then the core must not sleep)."""
        c = self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        if self.dma.active():
            return self.seg_ch != 0 or self.segment - c != self.seg_done
        return self.seg_ch != 1 or self.segment - self.dma2.count != self.seg_done  # pyright: ignore[reportAttributeAccessIssue]
