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

LEDs: a PIO state machine and a DMA channel per chain (pio_ws2812.py) put
the wire bytes out in the background; we fill them ourselves (colour order and
brightness from the board file, dimmed further to stay inside the board's
current budget, see pixels.py). Only changed chains are written, each once per
change, the score tracks first, so a wheel LED is on the wire within ms of a
press and the CPU never stops for the 11.5 ms of the dice chain. Piezo: PWM. Electronic plates: 74HC165 shift registers (keys) or a
4051 multiplexer into the ADC (dials).
"""
from array import array

import io
import machine
import rp2
import select
import sys
import time
import uctypes
from micropython import const

from rp2port import pixels
from rp2port.pio_sampler import sampler_program
from rp2port.pio_ws2812 import FREQ as WS_FREQ
from rp2port.pio_ws2812 import ws2812_program
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
KEYS_POLL_MS = const(8)         # answer keys read at most 10 ms apart (ruling)
DIALS_POLL_MS = const(4)        # dials read at most 5 ms apart
KEYS_BAUD = const(1000000)      # SoftSPI clock for the 74HC165 chain
LINE_MAX = const(120)           # longest serial command line
DIAL_READS = const(2)           # repeats after the first read: 3 reads alike
DIAL_SETTLE_US = const(60)      # after switching the 4051: 1 nF on COM, tau ~4 us
IDLE_MAX_MS = const(1000)       # sleep at most this long (the watchdog is 8 s)
OUT_BYTES = const(2048)         # event-log lines waiting for the USB host
OUT_BURST = const(256)          # bytes written per loop pass at most
RISE_PERMILLE = const(40)       # brighten again only for this much (no flicker)
LATCH_US = const(300)           # low this long latches a WS2812B frame (newer parts)
US_PER_BYTE = const(10)         # 8 bits at 800 kHz


class _Wake(io.IOBase):
    """A flag the sampler's PIO interrupt raises, that select.poll can wait
    on: the core sleeps (WFE) until a button changes, the console types, or
    the timeout, instead of waking every millisecond to look."""

    def __init__(self):
        self.up = False

    def ioctl(self, req, arg):
        if req == 3:                    # MP_STREAM_POLL
            return arg & 1 if self.up else 0
        return 0


class Rp2Port:
    """The port contract (port.py) on a Pico; board: a checked Board."""

    def __init__(self, board, sm_id=0):
        self.board = board
        self.answer_val = bytearray(8)
        self.answer_seq = bytearray(8)
        self.answer_us = array("i", [0] * 8)
        self.placements = 0             # answer_seq bumps, all stations (idle() watches it)
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
        # idle() sleeps on the sampler's interrupt or the console
        self.sleeper = select.poll()
        self.sleeper.register(self.wake, select.POLLIN)
        self.sleeper.register(sys.stdin, select.POLLIN)
        # event-log lines go out through a queue, a byte at a time while the
        # USB host takes them: a PC that holds the port open without reading
        # would otherwise block each print for 1 s (MicroPython's CDC timeout)
        self.out = bytearray(OUT_BYTES)
        self.out_head = 0               # next byte to send
        self.out_len = 0                # bytes queued
        self.out_dropped = 0            # lines dropped while the queue was full
        self.one = bytearray(1)
        self.stdout = sys.stdout.buffer  # pyright: ignore[reportAttributeAccessIssue]
        self.writable = select.poll()
        self.writable.register(sys.stdout, select.POLLOUT)
        self.sleeper.register(sys.stdout, 0)    # POLLOUT while lines wait (idle)
        self.out_waiting = False
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
            ch.config(read=rx, write=self.ring_addr, count=SEGMENT, ctrl=ctrl, trigger=trigger)
        self.read_pos = 0               # ring index of the next word to read
        self.seg_ch = 0                 # channel that was busy at the last poll (0: dma)
        self.seg_done = 0               # words of that channel's segment read so far
        self.wake = _Wake()
        wake = self.wake

        def raised(sm):                 # hard IRQ: sets a flag, allocates nothing
            wake.up = True
        self.sm.irq(raised, hard=True)
        t0 = time.ticks_us()
        self.sm.active(1)
        self.decoder = SampleDecoder(board.input_pins(), base, width, t0)

    def close(self):
        """Stop the state machines and free the DMA channels (a second main()
        after Ctrl-C builds a new port: the old one must let go of them)."""
        self.sm.active(0)
        for ch in (self.dma, self.dma2):
            ch.active(0)
            ch.close()
        self.close_leds()
        rp2.PIO(self.sm_id // 4).remove_program(self.sampler)
        self.wdt = None

    def _progress(self):
        """(busy channel, words it has moved in its segment): two register reads."""
        c = self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        if self.dma.active():
            return 0, SEGMENT - c
        return 1, SEGMENT - self.dma2.count  # pyright: ignore[reportAttributeAccessIssue]

    def poll(self, capture):
        self._poll_answers()
        ch, done = self._progress()
        if ch == self.seg_ch:
            new = done - self.seg_done
        else:                                    # the other channel took over
            new = SEGMENT - self.seg_done + done
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

    # -- LEDs ---------------------------------------------------------------
    def _start_leds(self, board):
        """One PIO state machine and one DMA channel a chain (pio_ws2812.py):
        a frame goes out in the background, the CPU and its interrupts free."""
        self.wire = []                          # wire bytes of each chain
        self.led_sm = []
        self.led_dma = []
        self.led_ctrl = []
        self.led_free = array("i", [0] * len(board.chains))   # ticks_us: frame out + latched
        self.led_ms = array("i", [0] * len(board.chains))     # ticks_ms of the last write
        ws2812 = ws2812_program()
        self.ws2812 = ws2812
        for i in range(len(board.chains)):
            c = board.chains[i]
            sm_id = 1 + i                       # 1-3 on PIO0 beside the sampler, then PIO1
            sm = rp2.StateMachine(sm_id, ws2812, freq=WS_FREQ, sideset_base=machine.Pin(c.pin))
            sm.active(1)
            dma = rp2.DMA()
            dreq = (sm_id // 4) * 8 + sm_id % 4     # DREQ_PIO0_TX0 = 0, DREQ_PIO1_TX0 = 8
            ctrl = dma.pack_ctrl(size=0, inc_read=True, inc_write=False, treq_sel=dreq)
            buf = bytearray(c.pixels * 3)
            dma.config(read=buf, write=sm, count=len(buf), ctrl=ctrl, trigger=False)
            self.wire.append(buf)
            self.led_sm.append(sm)
            self.led_dma.append(dma)
            self.led_ctrl.append(ctrl)
        self.orders = [c.order for c in board.chains]
        self.frames = [bytearray(c.pixels * 3) for c in board.chains]   # the display's, once shown
        self.permille = int(board.brightness * 1000)
        self.limit = pixels.PowerLimit([c.pixels for c in board.chains], board.max_ma,
                                       self.permille)
        self.table = bytearray(256)
        pixels.fill_table(self.table, self.permille)
        self.table_permille = self.permille
        self.to_write = bytearray(8)            # chains shown since the last commit
        self.n_write = 0
        self.w_lo = array("H", [0] * 8)         # and the bytes of each that changed
        self.w_hi = array("H", [0] * 8)
        self.writes = [0] * len(board.chains)   # frames written per chain

    def show(self, chain, buf, lo=0, hi=-1):
        """Take a chain's new frame (bytes lo:hi changed); commit() puts the
        frames on the wires. buf stays the display's: no copy."""
        self.frames[chain] = buf
        self.limit.frame(chain, buf)
        if hi < 0:
            hi = len(buf)
        k = self.n_write
        self.to_write[k] = chain
        self.w_lo[k] = lo
        self.w_hi[k] = hi
        self.n_write = k + 1

    def commit(self):
        """Write the chains shown since the last commit, in the order shown
        (the box shows the score tracks first), each exactly once, only the
        changed pixels re-encoded, all chains dimmed alike to stay inside the
        power budget. Dimming leaves headroom and brightening waits for a real
        step, so a wheel LED lighting up never makes the 384-pixel dice chain
        (11.5 ms with interrupts off) go out again in the middle of a grab."""
        n = self.n_write
        if not n:
            return
        self.n_write = 0
        allowed = self.limit.allowed()
        cur = self.table_permille
        target = self.limit.target(allowed)
        again = allowed < cur or target >= cur + RISE_PERMILLE
        if again:
            pixels.fill_table(self.table, target)
            self.table_permille = target
        written = 0
        for k in range(n):
            ci = self.to_write[k]
            if not (written >> ci) & 1:
                if again:
                    self._write(ci, 0, -1)
                else:
                    self._write(ci, self.w_lo[k], self.w_hi[k])
                written |= 1 << ci
        if again:                               # the others, at the new brightness
            for ci in range(len(self.wire)):
                if not (written >> ci) & 1:
                    self._write(ci, 0, -1)

    def _write(self, ci, lo, hi):
        """Encode the changed bytes and start the chain's DMA; returns at once.
        Waits only if this chain's previous frame is still going out."""
        dma = self.led_dma[ci]
        buf = self.wire[ci]
        if time.ticks_diff(time.ticks_ms(), self.led_ms[ci]) < 20:
            # the last frame went out less than 20 ms ago (11.5 ms is the
            # longest): wait until it is out and latched. (Only then: an old
            # ticks_us stamp compared after 9 minutes would read as future.)
            while dma.active() or time.ticks_diff(self.led_free[ci], time.ticks_us()) > 0:
                pass
        pixels.encode(self.frames[ci], buf, self.orders[ci], self.table, lo, hi)
        dma.read = buf
        dma.count = len(buf)  # pyright: ignore[reportAttributeAccessIssue]
        dma.ctrl = self.led_ctrl[ci]
        dma.active(1)
        self.led_free[ci] = time.ticks_add(time.ticks_us(), len(buf) * US_PER_BYTE + LATCH_US)
        self.led_ms[ci] = time.ticks_ms()
        self.writes[ci] += 1

    def close_leds(self):
        for i in range(len(self.led_sm)):
            self.led_dma[i].close()
            self.led_sm[i].active(0)
        # the programs leave the PIOs' 32-instruction memories too: a new port
        # (main() again after Ctrl-C) loads its own and would find them full
        for pio in range(2):
            if any(1 + i >= 4 * pio and 1 + i < 4 * pio + 4 for i in range(len(self.led_sm))):
                rp2.PIO(pio).remove_program(self.ws2812)

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
        """Nothing to do for up to ms (-1: until something happens). The core
        sleeps until the sampler pushes a word (its PIO interrupt), a line comes
        in on the console or the time is up, so a press is seen within
        microseconds and an idle box costs no CPU. Answer keys and dials are
        read here when due; only a new placement ends the sleep."""
        if self.wdt is not None:
            self.wdt.feed()
        if ms == 0:
            return
        if ms < 0 or ms > IDLE_MAX_MS:
            ms = IDLE_MAX_MS
        end = time.ticks_add(time.ticks_ms(), ms)
        while True:
            wait = time.ticks_diff(end, time.ticks_ms())
            if self.answer_kind != "cards":
                due = time.ticks_diff(self.next_answer_ms, time.ticks_ms())
                if due <= 0:
                    placed = self.placements
                    self._poll_answers()
                    if self.placements != placed:
                        return              # a plate placed: the box takes it now
                    continue
                if due < wait:
                    wait = due
            if wait <= 0:
                return
            self.wake.up = False        # cleared first: a word from now on raises it
            if self._progress_changed():
                return                  # words came since poll(): no sleep
            if self.out_len:
                self.flush_out()        # the log goes out while nothing else happens
            waiting = self.out_len > 0  # then wake when the host takes more
            if waiting != self.out_waiting:
                self.out_waiting = waiting
                self.sleeper.modify(sys.stdout, select.POLLOUT if waiting else 0)
            for _ in self.sleeper.ipoll(wait):
                if not self.out_len or not self._only_writable():
                    return
                break                   # woke for the log only: send, sleep on

    def _only_writable(self):
        """The wake-up was only the USB host taking bytes (no press, no line)."""
        if self.wake.up:
            return False
        for _ in self.serial.ipoll(0):
            return False
        return True

    def _progress_changed(self):
        c = self.dma.count  # pyright: ignore[reportAttributeAccessIssue]
        if self.dma.active():
            return self.seg_ch != 0 or SEGMENT - c != self.seg_done
        return self.seg_ch != 1 or SEGMENT - self.dma2.count != self.seg_done  # pyright: ignore[reportAttributeAccessIssue]

    # -- serial output ---------------------------------------------------------
    def write_line(self, text):
        """Queue one line for the USB console; never blocks. A full queue drops
        the line (counted, and said in the next line that fits)."""
        self._note_dropped()
        if not self._queue(text):
            self.out_dropped += 1
        self.flush_out()

    def _note_dropped(self):
        """Say how many lines were lost, as soon as the queue has room for it."""
        if self.out_dropped:
            note = '{"v": 1, "ev": "dropped", "lines": %d, "t": %d}' % (self.out_dropped,
                                                                       time.ticks_ms())
            if self._queue(note):
                self.out_dropped = 0

    def _queue(self, text):
        data = text.encode() if isinstance(text, str) else text
        n = len(data) + 1
        if self.out_len + n > OUT_BYTES:
            return False
        tail = (self.out_head + self.out_len) % OUT_BYTES
        for b in data:
            self.out[tail] = b
            tail = (tail + 1) % OUT_BYTES
        self.out[tail] = 10
        self.out_len += n
        return True

    def flush_out(self):
        """Send queued bytes while the host takes them (at most OUT_BURST a
        call); one byte never waits when the CDC buffer has room."""
        sent = 0
        one = self.one
        while self.out_len and sent < OUT_BURST:
            ready = False
            for _ in self.writable.ipoll(0):
                ready = True
            if not ready:
                return
            one[0] = self.out[self.out_head]
            self.stdout.write(one)
            self.out_head = (self.out_head + 1) % OUT_BYTES
            self.out_len -= 1
            sent += 1
        if not self.out_len:
            self._note_dropped()        # the PC reads again: tell it what it missed

    # -- serial commands -------------------------------------------------------
    def read_line(self):
        """A complete line typed on the USB serial console, or None. Never blocks;
        a line longer than LINE_MAX is cut there (the box then rejects it)."""
        while self._serial_ready():
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

    def _serial_ready(self):
        for _ in self.serial.ipoll(0):          # allocation-free, unlike poll()
            return True
        return False

    # -- electronic plates ----------------------------------------------------
    def _start_answers(self, board):
        self.answer_kind = board.plates
        self.next_answer_ms = time.ticks_ms()
        a = board.answers
        self.answer_period = KEYS_POLL_MS
        if board.plates == "keys":
            # The 74HC165 chain read by MicroPython's SoftSPI (a C loop: 64 bits
            # in ~0.2 ms, where Pin calls took ms). Clock idles high and MISO is
            # read after each falling edge, before the rising edge shifts: the
            # first bit is chip 0's H. SoftSPI needs a MOSI pin: it is the load
            # pin, held high (write=0xFF) while the bits come in.
            self.pl = machine.Pin(a["load"], machine.Pin.OUT, value=1)
            self.keys_spi = machine.SoftSPI(baudrate=KEYS_BAUD, polarity=1, phase=0,
                                            sck=machine.Pin(a["clock"]),
                                            mosi=self.pl, miso=machine.Pin(a["data"]))
            self.keys_in = bytearray(board.stations)
            self.keys_down = bytearray(8)
        elif board.plates == "dial":
            self.answer_period = DIALS_POLL_MS
            self.adc = machine.ADC(machine.Pin(a["adc"]))
            self.sel = [machine.Pin(a[k], machine.Pin.OUT) for k in ("s0", "s1", "s2")]
            self.dial_pos = bytearray(8)
            self.dial_seen = bytearray(8)
            self.dial_same = bytearray(8)
            self.dial_at = array("i", [0] * 8)
            for s in range(8):
                self.dial_pos[s] = 255

    def _poll_answers(self):
        if self.answer_kind == "cards":
            return
        now = time.ticks_ms()
        if time.ticks_diff(now, self.next_answer_ms) < 0:
            return
        self.next_answer_ms = time.ticks_add(now, self.answer_period)
        if self.answer_kind == "keys":
            self._read_keys()
        else:
            self._read_dials()

    def _read_keys(self):
        """8 keys a station through chained 74HC165s (a key pulls low). A key
        going down is stamped with the time of this read, the first to see it."""
        self.pl.value(0)                        # load the keys into the registers
        self.pl.value(1)
        t = time.ticks_us()
        self.keys_spi.readinto(self.keys_in, 0xFF)
        for s in range(self.board.stations):
            v = self.keys_in[s] ^ 0xFF          # bit 7-k: key k down
            pressed = v & ~self.keys_down[s]
            self.keys_down[s] = v
            if pressed:
                k = 0
                while not (pressed >> (7 - k)) & 1:
                    k += 1
                self.answer_val[s] = k
                self.answer_us[s] = t
                self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF
                self.placements += 1

    def _read_dials(self):
        """A dial a station (8 positions) through a 4051 into the ADC. After
        switching the 4051 the COM node needs time to reach the new dial's
        voltage (1 nF on COM: tau ~4 us with the ladder): wait, then read.
        A new position counts once 3 reads agree (a switch between contacts
        can read anything), stamped with the first of them."""
        for s in range(self.board.stations):
            for b in range(3):
                self.sel[b].value((s >> b) & 1)
            time.sleep_us(DIAL_SETTLE_US)
            self.adc.read_u16()                 # the ADC's own sample cap settles too
            pos = self.adc.read_u16() >> 13
            if pos != self.dial_seen[s]:
                self.dial_seen[s] = pos
                self.dial_same[s] = 0
                self.dial_at[s] = time.ticks_us()
            elif self.dial_same[s] < DIAL_READS:
                self.dial_same[s] += 1
                if self.dial_same[s] == DIAL_READS and pos != self.dial_pos[s]:
                    self.dial_pos[s] = pos
                    self.answer_val[s] = pos
                    self.answer_us[s] = self.dial_at[s]
                    self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF
                    self.placements += 1
