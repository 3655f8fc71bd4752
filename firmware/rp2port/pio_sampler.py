# pyright: reportUndefinedVariable=false
"""The PIO program that samples the buttons (see buttons.py for why).

Written in MicroPython's PIO assembler: rp2.asm_pio supplies the names
(mov, jmp, x, osr, ...) while it assembles, hence the pyright directive.
Each word it pushes is decoded by sampler.py.
"""
import rp2


def sampler_program(width, kbits):
    """The PIO program for a button window `width` pins wide.

    16 cycles a loop on both paths, at 1 MHz: one loop is exactly 16 us.
    x counts loops down, y holds the last snapshot, osr parks x while x
    holds the new snapshot. A word is (x low `kbits` bits << width) | snapshot.
    """
    @rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)
    def sampler():
        label("top")
        wrap_target()
        mov(osr, x)                 # 1  park the counter
        mov(isr, null)              # 2
        in_(pins, width)            # 3  every button in the same instant
        mov(x, isr)                 # 4
        jmp(x_not_y, "changed")     # 5
        mov(x, osr)                 # 6  no change: counter back
        jmp(x_dec, "top")[9]        # 7-16
        jmp("top")                  # (x was 0: one extra cycle, at loop 0 and every 19 h)
        label("changed")
        mov(y, x)                   # 6  remember the snapshot
        mov(isr, null)              # 7
        in_(osr, kbits)             # 8  counter, low bits
        in_(x, width)               # 9  snapshot
        push(noblock)               # 10 one word; never stalls the count
        irq(rel(0))                 # 11 wake the CPU (Rp2Port.idle sleeps until this)
        mov(x, osr)                 # 12
        jmp(x_dec, "top")[3]        # 13-16
        jmp("top")
        wrap()
    return sampler
