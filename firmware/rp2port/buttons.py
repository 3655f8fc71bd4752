"""The buttons: a PIO sampler and two chained DMA channels into a RAM ring.

A PIO state machine samples the whole button window (buzzers and ROLL,
consecutive GPIOs, pulled up) every 16 us and pushes one word when the
snapshot changes: (loop counter << W) | snapshot (sampler.py decodes it).
Two DMA channels drain its RX FIFO into a 512-word ring in RAM.

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
  nothing can allocate in it, and it is enabled only while idle() sleeps.
"""
from array import array

import io
import machine
import rp2
import time
import uctypes
from micropython import const

from cheesebox import run_once
from rp2port.sampler import SampleDecoder

# The ring holds every word of one flash operation at the W25Q16JV's maximum
# (a 4 KiB erase, 400 ms, the CPU held): 8 players pressing 3 times each,
# every edge bouncing 4 times, push 24 x 2 x 9 = 432 words; a save reads the
# ring between its flash operations (Store.between), so no save needs more.
_RING_WORDS = const(512)         # DMA ring of sampler words (2 KiB)
_RING_BITS = const(11)           # log2 of its size in bytes
_CHUNK = const(16)               # words copied out before the DMA's place is read again
_KEEP = const(256)               # words kept when the reader is outpaced (poll())
_PIO0_RXF0 = const(0x50200020)   # PIO0 RX FIFO 0 (RP2040 and RP2350)
_DREQ_PIO0_RX0 = const(4)
_PIO0_IRQ = const(0x50200030)    # PIO0 IRQ flags, write 1 to clear (both chips)
# PIO0 IRQ0_INTE (the interrupt MicroPython's PIO handler serves), and the
# atomic set/clear aliases (+0x2000, +0x3000) so one write flips one bit
_PIO0_INTE = {"rp2040": 0x5020012C, "rp2350": 0x50200170}
_SET = const(0x2000)
_CLR = const(0x3000)
_EN = const(1)                   # CHx_CTRL EN (bit 0 on both chips)
# Two DMA channels drain the ring, each chained to the other: each moves _SEGMENT
# words, then triggers the other, which reloads its own count. They run for
# ever with no CPU help, on the RP2040 and the RP2350 alike (a single channel's
# count runs out, and on the RP2350 bits 31:28 of the count are its mode).
# _SEGMENT is a multiple of the ring, so each channel always starts where the
# other stopped.
_SEGMENT = const(1 << 20)        # words: >= 16 s of a pin chattering at every loop
# Why the sampler's interrupt is enabled only while idle() sleeps: it is raised
# for every word, up to 62,500 a second for a pin chattering at every loop, and
# an awake core reads the ring in step() anyway. Off, a chattering pin costs
# the CPU nothing; the flag it leaves is cleared before the next sleep.


class Wake(io.IOBase):
    """A flag the sampler's PIO interrupt raises, that select.poll can wait
    on: the core sleeps (WFE) until a button changes, the console types, or
    the timeout, instead of waking every millisecond to look."""

    def __init__(self):
        self.up = False
        self.irqs = 0                   # interrupts taken (the load a pin costs)

    def ioctl(self, req, arg):
        if req == 3:                    # MP_STREAM_POLL
            return arg & 1 if self.up else 0
        return 0


class Buttons:
    """The sampler on PIO0 state machine sm_id, its ring, and the decoder."""

    def __init__(self, board, sm_id=0, segment=_SEGMENT):
        base = board.button_base
        width = board.button_width
        # pull up the whole window (board.py keeps other uses out of it): a
        # floating unused pin would make spurious sampler words
        for g in range(base, base + width):
            machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)
        if segment % _RING_WORDS:       # each channel must start where the other stopped
            raise ValueError("a DMA segment of %d words is not a multiple of the %d-word ring"
                             % (segment, _RING_WORDS))
        self.segment = segment
        self.overruns = 0               # times the ring lapped the reader
        self.lost = 0                   # words it overwrote unread
        # a ring aligned to its size, as the DMA ring mode needs, in a block of
        # twice its size (from raw zero bytes: no list of 1,024 ints on the
        # heap at boot); the other half, round the block's end, is spare()
        self.ring_all = array("I", bytes(8 * _RING_WORDS))
        addr = uctypes.addressof(self.ring_all)
        self.ring_off = ((-addr) % (_RING_WORDS * 4)) // 4
        self.ring_addr = addr + self.ring_off * 4
        self.sm_id = sm_id
        # the PIO assembler's module is needed only here: dropped after
        self.sampler = run_once("rp2port.pio_sampler", "sampler_program", width, 30 - width)
        self.sm = rp2.StateMachine(sm_id, self.sampler, freq=1000000, in_base=machine.Pin(base))
        self.sm.exec("set(x, 0)")
        self.sm.exec("set(y, 0)")
        self.dma = rp2.DMA()
        self.dma2 = rp2.DMA()
        dreq = _DREQ_PIO0_RX0 + sm_id
        rx = _PIO0_RXF0 + 4 * sm_id
        self.ctrl = [0, 0]              # each channel's CTRL (close() clears its EN)
        for i, ch, other, trigger in ((1, self.dma2, self.dma, False), (0, self.dma, self.dma2, True)):
            # chain_to, ring_size and ring_sel always explicit: before v1.26 their
            # defaults were RP2040 bit positions (wrong on the RP2350)
            ctrl = ch.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=_RING_BITS,
                                ring_sel=True, treq_sel=dreq, chain_to=other.channel)  # pyright: ignore[reportAttributeAccessIssue]
            self.ctrl[i] = ctrl
            ch.config(read=rx, write=self.ring_addr, count=segment, ctrl=ctrl, trigger=trigger)
        self.read_pos = 0               # ring index of the next word to read
        self.unread = 0                 # words the DMA moved that poll() has not read
        self.behind = False             # words were lost: restart the debounce at the next
        self.chunk = array("I", bytes(4 * _CHUNK))
        self.seg_ch = 0                 # channel busy at the last look (0: dma)
        self.seg_done = 0               # words of its segment it had moved then
        self.now_ch = 0                 # progress(): the channel busy now
        self.now_done = 0               # and the words of its segment it has moved
        self.wake = Wake()
        wake = self.wake

        def raised(sm):                 # hard IRQ: sets a flag, allocates nothing
            wake.up = True
            wake.irqs += 1
        self.sm.irq(raised, hard=True)
        inte = _PIO0_INTE[board.mcu]
        self.inte_set = inte + _SET
        self.inte_clr = inte + _CLR
        self.inte_bit = 1 << (8 + sm_id)    # INTE: SMn's flag is bit 8 + n
        self.irq_flag = 1 << sm_id          # irq(rel(0)) raises flag n on SM n
        self.irq_off()
        t0 = time.ticks_us()
        self.sm.active(1)
        self.decoder = SampleDecoder(board.input_pins(), base, width, t0)

    def spare(self):
        """The ring's block as bytes, and where its 2 KiB that the ring does
        not use begin (they go on round the block's end): the USB console's
        queue lives there instead of in a 2 KiB of its own."""
        return (uctypes.bytearray_at(uctypes.addressof(self.ring_all), 8 * _RING_WORDS),
                (self.ring_off + _RING_WORDS) * 4 % (8 * _RING_WORDS))

    def irq_on(self):
        """The sampler's words wake the core (idle() is about to sleep). A flag
        raised while awake is cleared first, or it would wake it at once."""
        machine.mem32[_PIO0_IRQ] = self.irq_flag
        machine.mem32[self.inte_set] = self.inte_bit

    def irq_off(self):
        """Awake: no interrupt per word (step() reads the ring anyway)."""
        machine.mem32[self.inte_clr] = self.inte_bit

    def close(self):
        """Stop the state machine and free the DMA channels (a second main()
        after Ctrl-C builds a new port: the old one must let go of them).
        As RP2350-E5 requires (DMA.close() does it only from v1.27): clear EN
        of both chained channels first, so neither can trigger the other,
        then abort both, then free them."""
        self.irq_off()
        self.sm.active(0)
        self.dma.ctrl = self.ctrl[0] & ~_EN  # pyright: ignore[reportAttributeAccessIssue]
        self.dma2.ctrl = self.ctrl[1] & ~_EN  # pyright: ignore[reportAttributeAccessIssue]
        for ch in (self.dma, self.dma2):
            ch.active(0)                # CHAN_ABORT, waits until it is idle
        for ch in (self.dma, self.dma2):
            ch.close()
        rp2.PIO(self.sm_id // 4).remove_program(self.sampler)

    def progress(self):
        """Sets now_ch (the busy channel) and now_done (words it has moved in
        its segment): two register reads, no allocation (no tuple).

        active() first, then the count of the channel it names: were the count
        read first, dma2 could finish between the reads and restart dma, whose
        reloaded count would read as a finished segment (64 old words replayed,
        then every word ignored for a whole segment). In this order a channel
        that finishes between the reads shows count 0 (its segment complete),
        which is true: the next poll sees the other channel take over."""
        if self.dma.active():
            self.now_ch = 0
            self.now_done = self.segment - self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        else:
            self.now_ch = 1
            self.now_done = self.segment - self.dma2.count  # pyright: ignore[reportAttributeAccessIssue]

    def _moved(self):
        """Count the words the DMA moved since the last call into unread (and
        take its place as seen: a state left unseen, such as the previous
        channel at the end of its segment, would keep changed() true and the
        core awake). A channel seen last busy again behind its old place
        means the pair went round whole segments unseen (only a small test
        segment: 2^20 words take 16 s of chattering)."""
        self.progress()
        ch = self.now_ch
        done = self.now_done
        seg = self.segment
        new = done - self.seg_done if ch == self.seg_ch else seg - self.seg_done + done
        if new < 0:
            new += 2 * seg
        self.seg_ch = ch
        self.seg_done = done
        self.unread += new

    def _lost(self, n):
        """n words overwritten unread: counted, and the debounce of the pins
        pending across the gap starts again at the next word read (their
        edges in the gap are unknown: they must not settle across it)."""
        self.overruns += 1
        self.lost += n
        self.behind = True

    def poll(self, capture):
        """Feed every ring word since the last poll to the capture, in chunks:
        each copied, then the DMA's place read again, so a word it overwrote
        during the copy is counted lost, never read. At most the words there
        at the start (a chattering pin cannot hold it for ever)."""
        self._moved()
        left = self.unread
        lapped = left > _RING_WORDS
        keep = _RING_WORDS
        ring = self.ring_all
        off = self.ring_off
        buf = self.chunk
        dec = self.decoder
        while left > 0:
            if lapped:
                # on from the oldest word still there; lapped again in this
                # poll, the reader is outpaced (a wire chattering faster than
                # it reads): on from the newest _KEEP, so the gaps are few
                n = self.unread - keep
                if n > 0:
                    self._lost(n)
                    self.read_pos = (self.read_pos + n) % _RING_WORDS
                    self.unread -= n
                    left -= n
                keep = _KEEP
                lapped = False
                continue
            pos = self.read_pos
            k = min(left, _CHUNK)
            for j in range(k):
                buf[j] = ring[off + (pos + j) % _RING_WORDS]
            self._moved()
            j = self.unread - _RING_WORDS   # the DMA overwrote the first j of those
            if j > 0:
                j = min(j, k)
                self._lost(j)
                lapped = True
            else:
                j = 0
            self.read_pos = (pos + k) % _RING_WORDS
            self.unread -= k
            left -= k
            dec.advance(time.ticks_us())
            while j < k:
                if self.behind:
                    self.behind = False
                    capture.restart(dec.time_of(buf[j]))
                dec.feed(buf[j], capture)
                j += 1
        if self.behind:                 # no word after the gap yet
            capture.restart(time.ticks_us())

    def changed(self):
        """Words came since the last poll (then the core must not sleep)."""
        self._moved()
        return self.unread > 0
