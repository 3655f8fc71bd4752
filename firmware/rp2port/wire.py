"""The WS2812 wire encoder (and the frame's light sum) as native code: Pico only.

pixels.encode() in bytecode took ~10 ms for the 1,152-byte dice frame on
an RP2040, every tumble frame. The same loop in viper is compiled by
mpy-cross for the board's chip (host_tools/deploy/flash.py: -march=armv6m for the
RP2040, armv7emsp for the RP2350): a native .mpy of mpy 6.3, so it needs
MicroPython 1.23 or later. CPython and the webassembly MicroPython cannot
run it; the emulated-Pico test checks it byte for byte against
pixels.encode(). One that does not load (another chip's, another .mpy
sub-version) is replaced by pixels.encode_at(), logged (leds.py).
"""
import micropython


@micropython.viper  # pyright: ignore[reportArgumentType]  (the stubs type it as no-argument)
def encode(rgb, out, ri: int, gi: int, bi: int, table, lo: int, hi: int):
    """pixels.encode() for whole pixels lo:hi (lo a multiple of 3), the
    colour order given as the three indices (pixels.ORDERS)."""
    src = ptr8(rgb)         # noqa: F821  (viper built-ins)  # pyright: ignore
    dst = ptr8(out)         # noqa: F821  # pyright: ignore
    tab = ptr8(table)       # noqa: F821  # pyright: ignore
    i = lo
    while i < hi:
        dst[i + ri] = tab[src[i]]
        dst[i + gi] = tab[src[i + 1]]
        dst[i + bi] = tab[src[i + 2]]
        i += 3


@micropython.viper  # pyright: ignore[reportArgumentType]
def light(rgb) -> int:
    """sum(rgb), the light a frame asks for (pixels.PowerLimit): the
    built-in sum() goes through an iterator, ~2.5 ms for the 1,152-byte
    dice frame on an RP2040, at every frame shown; this loop ~0.1 ms."""
    src = ptr8(rgb)         # noqa: F821  # pyright: ignore
    n = int(len(rgb))
    total = 0
    i = 0
    while i < n:
        total += src[i]
        i += 1
    return total
