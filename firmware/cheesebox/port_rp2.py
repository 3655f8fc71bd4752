"""The Raspberry Pi Pico port (RP2040 and RP2350): the only hardware code.

Buttons: a PIO state machine samples the whole button window (buzzers and
ROLL, consecutive GPIOs, pulled up) every 16 us and pushes one word when the
snapshot changes: (loop counter << W) | snapshot (sampler.py decodes it).
A DMA channel drains its RX FIFO into a 64-word ring in RAM.

Why this design and not GPIO interrupts:
- the rp2 port serves GPIO interrupts one handler after another in pin
  order, and machine.bitstream (the neopixel module) and flash writes turn
  interrupts off for milliseconds (11.5 ms for 384 pixels): interrupt
  timestamps would be late, and unfair to high pins;
- the PIO takes every pin in the same instant (a true tie is a tie, broken
  later by the random source) and counts time itself, so a press during an
  LED write keeps its exact 16 us stamp; the DMA keeps draining while the CPU
  has interrupts off, so nothing is lost or reordered;
- no interrupt handler at all: nothing can allocate in one.

LEDs: one neopixel.NeoPixel per chain, whose wire buffer we fill ourselves
(colour order and brightness from the board file, dimmed further to stay
inside the board's current budget, see pixels.py); only changed chains are
written. Piezo: PWM. Electronic plates: 74HC165 shift registers (keys) or a
4051 multiplexer into the ADC (dials).
"""
from array import array

import machine
import neopixel
import rp2
import select
import sys
import time
import uctypes
from micropython import const

from cheesebox import pixels
from cheesebox.pio_sampler import sampler_program
from cheesebox.sampler import SampleDecoder

RING_WORDS = const(64)          # DMA ring of sampler words
RING_BITS = const(8)            # log2 of its size in bytes
PIO0_RXF0 = const(0x50200020)   # PIO0 RX FIFO 0 (RP2040 and RP2350)
DREQ_PIO0_RX0 = const(4)
DMA_COUNT = const(0x20000000)   # transfers before the channel would stop: years
ANSWER_POLL_MS = const(20)
LINE_MAX = const(120)           # longest serial command line
DIAL_READS = const(2)           # repeats after the first read: 3 reads alike


class Rp2Port:
    """The port contract (port.py) on a Pico; board: a checked Board."""

    def __init__(self, board, sm_id=0):
        self.board = board
        self.answer_val = bytearray(8)
        self.answer_seq = bytearray(8)
        self.overruns = 0
        self._start_buttons(board, sm_id)
        self._start_leds(board)
        self.pwm = machine.PWM(machine.Pin(board.piezo_pin))
        self.pwm.duty_u16(0)
        self.freq = 0
        self._start_answers(board)
        self.wdt = None
        self.serial = select.poll()
        self.serial.register(sys.stdin, select.POLLIN)
        self.line = bytearray(LINE_MAX)
        self.line_len = 0

    # -- buttons ------------------------------------------------------------
    def _start_buttons(self, board, sm_id):
        base = board.button_base
        width = board.button_width
        # pull up the whole window (board.py keeps other uses out of it): a
        # floating unused pin would make spurious sampler words
        for g in range(base, base + width):
            machine.Pin(g, machine.Pin.IN, machine.Pin.PULL_UP)
        # a ring aligned to its size, as the DMA ring mode needs
        self.ring_all = array("I", [0] * (2 * RING_WORDS))
        addr = uctypes.addressof(self.ring_all)
        self.ring_off = ((-addr) % (RING_WORDS * 4)) // 4
        self.ring_addr = addr + self.ring_off * 4
        self.sm = rp2.StateMachine(sm_id, sampler_program(width, 30 - width),
                                   freq=1000000, in_base=machine.Pin(base))
        self.sm.exec("set(x, 0)")
        self.sm.exec("set(y, 0)")
        self.dma = rp2.DMA()
        ctrl = self.dma.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=RING_BITS,
                                  ring_sel=True, treq_sel=DREQ_PIO0_RX0 + sm_id)
        self.dma.config(read=PIO0_RXF0 + 4 * sm_id, write=self.ring_addr, count=DMA_COUNT,
                        ctrl=ctrl, trigger=True)
        self.read_pos = 0               # ring index of the next word to read
        self.done = 0                   # words taken so far
        t0 = time.ticks_us()
        self.sm.active(1)
        self.decoder = SampleDecoder(board.input_pins(), base, width, t0)

    def poll(self, capture):
        self._poll_answers()
        # words the DMA has written since the last poll
        written = DMA_COUNT - self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        new = written - self.done
        if new <= 0:
            return
        if new > RING_WORDS:                    # the ring lapped us: keep the newest
            self.overruns += 1
            self.read_pos = (self.read_pos + new - RING_WORDS) % RING_WORDS
            new = RING_WORDS
        self.done = written
        dec = self.decoder
        dec.advance(time.ticks_us())
        ring = self.ring_all
        off = self.ring_off
        pos = self.read_pos
        for _ in range(new):
            dec.feed(ring[off + pos], capture)
            pos = (pos + 1) % RING_WORDS
        self.read_pos = pos

    # -- LEDs ---------------------------------------------------------------
    def _start_leds(self, board):
        self.strips = []
        for c in board.chains:
            self.strips.append(neopixel.NeoPixel(machine.Pin(c.pin), c.pixels))
        self.orders = [c.order for c in board.chains]
        self.frames = [bytearray(c.pixels * 3) for c in board.chains]
        self.permille = int(board.brightness * 1000)
        self.limit = pixels.PowerLimit([c.pixels for c in board.chains], board.max_ma,
                                       self.permille)
        self.table = bytearray(256)
        pixels.fill_table(self.table, self.permille)
        self.table_permille = self.permille

    def show(self, chain, buf):
        self.frames[chain][:] = buf
        allowed = self.limit.update(chain, buf)
        if allowed != self.table_permille:
            # the budget moved: dim (or restore) every chain alike
            pixels.fill_table(self.table, allowed)
            self.table_permille = allowed
            for ci in range(len(self.strips)):
                self._write(ci)
        else:
            self._write(chain)

    def _write(self, ci):
        strip = self.strips[ci]
        pixels.encode(self.frames[ci], strip.buf, self.orders[ci], self.table)
        strip.write()

    # -- piezo, clock, idle --------------------------------------------------
    def tone(self, freq):
        if freq == self.freq:
            return
        self.freq = freq
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)
        else:
            self.pwm.duty_u16(0)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def watchdog(self, timeout_ms):
        """Start the hardware watchdog: idle() feeds it."""
        self.wdt = machine.WDT(timeout=timeout_ms)

    def idle(self, ms):
        if self.wdt is not None:
            self.wdt.feed()
        if ms < 0 or ms > 5:
            ms = 5          # keep draining the sampler ring and the answer keys
        if ms:
            time.sleep_ms(ms)

    # -- serial commands -------------------------------------------------------
    def read_line(self):
        """A complete line typed on the USB serial console, or None. Never blocks;
        a line longer than LINE_MAX is cut there (the box then rejects it)."""
        while self.serial.poll(0):
            c = sys.stdin.read(1)
            if c == "\n" or c == "\r":
                if not self.line_len:
                    continue
                text = bytes(self.line[:self.line_len]).decode("utf-8", "replace")
                self.line_len = 0
                return text
            if self.line_len < LINE_MAX:
                b = ord(c) if len(c) == 1 and ord(c) < 256 else 63     # '?'
                self.line[self.line_len] = b
                self.line_len += 1
        return None

    # -- electronic plates ----------------------------------------------------
    def _start_answers(self, board):
        self.answer_kind = board.plates
        self.next_answer_ms = time.ticks_ms()
        a = board.answers
        if board.plates == "keys":
            self.pl = machine.Pin(a["load"], machine.Pin.OUT, value=1)
            self.cp = machine.Pin(a["clock"], machine.Pin.OUT, value=0)
            self.q7 = machine.Pin(a["data"], machine.Pin.IN)
            self.keys_down = bytearray(8)
        elif board.plates == "dial":
            self.adc = machine.ADC(machine.Pin(a["adc"]))
            self.sel = [machine.Pin(a[k], machine.Pin.OUT) for k in ("s0", "s1", "s2")]
            self.dial_pos = bytearray(8)
            self.dial_seen = bytearray(8)
            self.dial_same = bytearray(8)
            for s in range(8):
                self.dial_pos[s] = 255

    def _poll_answers(self):
        if self.answer_kind == "cards":
            return
        now = time.ticks_ms()
        if time.ticks_diff(now, self.next_answer_ms) < 0:
            return
        self.next_answer_ms = time.ticks_add(now, ANSWER_POLL_MS)
        if self.answer_kind == "keys":
            self._read_keys()
        else:
            self._read_dials()

    def _read_keys(self):
        """8 keys a station through chained 74HC165s (a key pulls low)."""
        self.pl.value(0)
        self.pl.value(1)
        for s in range(self.board.stations):
            down = 0
            for k in range(8):
                if not self.q7.value():
                    down |= 1 << k
                self.cp.value(1)
                self.cp.value(0)
            pressed = down & ~self.keys_down[s]
            self.keys_down[s] = down
            if pressed:
                k = 0
                while not (pressed >> k) & 1:
                    k += 1
                self.answer_val[s] = k
                self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF

    def _read_dials(self):
        """A dial a station (8 positions) through a 4051 into the ADC."""
        for s in range(self.board.stations):
            for b in range(3):
                self.sel[b].value((s >> b) & 1)
            pos = self.adc.read_u16() >> 13
            if pos != self.dial_seen[s]:
                self.dial_seen[s] = pos
                self.dial_same[s] = 0
            elif self.dial_same[s] < DIAL_READS:
                self.dial_same[s] += 1
                # the same position 3 reads (60 ms) running: the dial is set, not
                # passing through (a switch between contacts can read anything)
                if self.dial_same[s] == DIAL_READS and pos != self.dial_pos[s]:
                    self.dial_pos[s] = pos
                    self.answer_val[s] = pos
                    self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF
