# pyright: reportUndefinedVariable=false
"""The PIO program that puts a NeoPixel (WS2812) chain on its wire.

Why not machine.bitstream (the neopixel module): it holds the CPU with
interrupts off for the whole frame, 11.5 ms for the 384-pixel dice chain, so
nothing else runs, not even a read of the answer keys. Here a DMA channel
feeds the wire bytes to this state machine and the CPU goes on at once.

Written in MicroPython's PIO assembler: rp2.asm_pio supplies the names
(out, jmp, nop, x, ...) while it assembles, hence the pyright directive.
Timing (the WS2812B datasheet): a bit is 1.25 us at 8 MHz = 10 cycles; a 1 is
high for 7 cycles (875 ns), a 0 for 2 (250 ns is at the short end; 3 for
375 ns). When the data runs out the machine waits on `out` with the wire low:
50 us of low (280 us on newer parts) latches the frame.
"""
import rp2

FREQ = 8000000   # 10 cycles a bit: 800 kHz


def ws2812_program(t1=3, t2=4, t3=3):
    """The program: high t1 cycles (a 0 bit: 375 ns), then high t2 more for
    a 1 or low for a 0 (500 ns), then low t3 (375 ns): 10 cycles, 1.25 us.
    (asm_pio runs the body with its own globals: timings come in as locals.)"""
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                 autopull=True, pull_thresh=8)
    def ws2812():
        # bytes in (a DMA byte write reaches all 4 lanes of the FIFO; the
        # machine shifts out the top 8 bits), MSB first, as the wire wants them
        wrap_target()
        label("bitloop")
        out(x, 1).side(0)[t3 - 1]
        jmp(not_x, "do_zero").side(1)[t1 - 1]
        jmp("bitloop").side(1)[t2 - 1]
        label("do_zero")
        nop().side(0)[t2 - 1]
        wrap()
    return ws2812
