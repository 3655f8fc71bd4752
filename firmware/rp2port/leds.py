"""The LEDs: one PIO state machine and one DMA channel a WS2812 chain.

A frame goes out in the background (pio_ws2812.py), the CPU and its
interrupts free. We encode the wire bytes ourselves (colour order and
brightness from the board file, dimmed further to stay inside the board's
current budget, pixels.py). Only changed chains are written, each once per
change, the score tracks first, so a wheel LED is on the wire within ms of
a press and the CPU never stops for the 11.5 ms of the dice chain.
"""
from array import array

import machine
import rp2
import time
from micropython import const

from rp2port import pixels
from cheesebox import run_once
try:
    # native: compiled for this chip (an .mpy of 6.3, for one architecture)
    from rp2port.wire import encode as wire_encode, light as wire_light
    _wire_error = None
except Exception as e:      # another chip's, another .mpy sub-version, missing
    wire_encode = pixels.encode_at              # the same bytes, in bytecode: slower
    wire_light = sum
    _wire_error = repr(e)

_LATCH_US = const(300)           # low this long latches a WS2812B frame (newer parts)
_US_PER_BYTE = const(10)         # 8 bits at 800 kHz


class Leds:
    """Every chain of the board, on state machines 1.. (PIO0 beside the
    sampler, then PIO1)."""

    def __init__(self, board):
        # why the native encoder did not load (None: it did); the box logs it
        self.wire_error = _wire_error
        if _wire_error is not None:
            print("cheesebox: the native LED encoder does not load (%s): the LEDs are encoded "
                  "in bytecode (slower)" % _wire_error)
        self.wire = []                          # wire bytes of each chain
        self.led_sm = []
        self.led_dma = []
        self.led_ctrl = []
        self.led_free = array("i", [0] * len(board.chains))   # ticks_us: frame out + latched
        self.led_ms = array("i", [0] * len(board.chains))     # ticks_ms of the last write
        # the PIO assembler's module is needed only here: dropped after
        ws2812, ws_freq = run_once("rp2port.pio_ws2812", "program")
        self.ws2812 = ws2812
        for i in range(len(board.chains)):
            c = board.chains[i]
            sm_id = 1 + i                       # 1-3 on PIO0 beside the sampler, then PIO1
            sm = rp2.StateMachine(sm_id, ws2812, freq=ws_freq, sideset_base=machine.Pin(c.pin))
            sm.active(1)
            dma = rp2.DMA()
            dreq = (sm_id // 4) * 8 + sm_id % 4     # DREQ_PIO0_TX0 = 0, DREQ_PIO1_TX0 = 8
            # chain_to (itself: no chain), ring_size, ring_sel explicit: before
            # MicroPython v1.26 chain_to defaulted to the RP2040 bit position,
            # which on the RP2350 chains the LED channel to the sampler's
            ctrl = dma.pack_ctrl(size=0, inc_read=True, inc_write=False, treq_sel=dreq,
                                 chain_to=dma.channel, ring_size=0, ring_sel=False)  # pyright: ignore[reportAttributeAccessIssue]
            buf = bytearray(c.pixels * 3)
            dma.config(read=buf, write=sm, count=len(buf), ctrl=ctrl, trigger=False)
            self.wire.append(buf)
            self.led_sm.append(sm)
            self.led_dma.append(dma)
            self.led_ctrl.append(ctrl)
        self.orders = [pixels.ORDERS[c.order] for c in board.chains]
        self.frames = [bytearray(c.pixels * 3) for c in board.chains]   # the display's, once shown
        self.permille = int(board.brightness * 1000)
        self.limit = pixels.PowerLimit([c.pixels for c in board.chains], board.max_ma,
                                       self.permille, wire_light)
        self.table = bytearray(256)
        pixels.fill_table(self.table, self.permille)
        self.table_permille = self.permille
        self.force = False                      # every chain again at the next commit
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
        if not n and not self.force:
            return
        self.n_write = 0
        allowed = self.limit.allowed()
        cur = self.table_permille
        target = self.limit.target(allowed)
        again = self.force or pixels.rewrite(cur, allowed, target, self.permille)
        self.force = False
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

    def set_brightness(self, permille):
        """The table's brightness (the gesture at joining): every chain goes
        out again at the next commit, still inside the power budget."""
        self.permille = permille
        self.limit.permille = permille
        self.force = True

    def _write(self, ci, lo, hi):
        """Encode the changed bytes and start the chain's DMA; returns at once.
        Waits only if this chain's previous frame is still going out."""
        dma = self.led_dma[ci]
        buf = self.wire[ci]
        if time.ticks_diff(time.ticks_ms(), self.led_ms[ci]) <= \
                (len(buf) * _US_PER_BYTE + _LATCH_US) // 1000 + 1:
            # the last frame may still be on the wire (this chain's frame and
            # latch, and a ms for the ms clock's steps: 11.8 ms for 384 pixels,
            # 31 ms for the 1,024 a board file allows): wait until it is out
            # and latched. (Only then: an old ticks_us stamp compared after 9
            # minutes would read as future.)
            while dma.active() or time.ticks_diff(self.led_free[ci], time.ticks_us()) > 0:
                pass
        ri, gi, bi = self.orders[ci]
        if hi < 0:
            hi = len(buf)
        wire_encode(self.frames[ci], buf, ri, gi, bi, self.table, lo - lo % 3, hi)  # pyright: ignore[reportCallIssue]
        dma.read = buf
        dma.count = len(buf)  # pyright: ignore[reportAttributeAccessIssue]
        dma.ctrl = self.led_ctrl[ci]
        dma.active(1)
        self.led_free[ci] = time.ticks_add(time.ticks_us(), len(buf) * _US_PER_BYTE + _LATCH_US)
        self.led_ms[ci] = time.ticks_ms()
        self.writes[ci] += 1

    def close(self):
        """Free the channels as RP2350-E5 requires (DMA.close() does it only
        from v1.27): EN cleared, then abort, then close."""
        for i in range(len(self.led_sm)):
            dma = self.led_dma[i]
            dma.ctrl = self.led_ctrl[i] & ~1
            dma.active(0)
            dma.close()
            self.led_sm[i].active(0)
        # the programs leave the PIOs' 32-instruction memories too: a new port
        # (main() again after Ctrl-C) loads its own and would find them full
        for pio in range(2):
            if any(1 + i >= 4 * pio and 1 + i < 4 * pio + 4 for i in range(len(self.led_sm))):
                rp2.PIO(pio).remove_program(self.ws2812)
