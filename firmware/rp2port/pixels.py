"""From the box's RGB frames to WS2812 wire bytes, inside a power budget.

Pure: the rp2 port encodes with it; the tests check it against the Adafruit
NeoPixel library's bytes. Brightness is in per mille (int), so nothing here
allocates floats on the Pico.

Power: a WS2812B draws up to ~20 mA per colour channel at full and ~0.6 mA
idle (0.6 mA here, every pixel, lit or not). The board's max_ma is the
supply's rating (a 5 V charger; a PC's USB port is only bound to give what
the Pico declares, USB_DECLARED_MA); 100 mA of it is kept for the Pico and
the piezo, the pixels' idle draw comes off the rest. When the frames would
draw more, every chain is dimmed by the same factor, so the box dims only as
much as needed and never browns out.

Dimmed far (a small supply), a channel's code would round to 0 and a dim
colour would vanish: a lit channel never goes below code 1.
"""
from micropython import const

MA_PER_CHANNEL = const(20)     # mA of one channel at 255
IDLE_UA_PER_PIXEL = const(600)   # datasheets: 0.3-1 mA
RESERVED_MA = const(100)       # the Pico, piezo and margin
HEADROOM = const(100)          # per mille: dimmed 10 % below the limit, so small changes fit
USB_DECLARED_MA = const(250)   # MicroPython's USB descriptor (bMaxPower): all a PC owes the box
RISE_PERMILLE = const(250)     # brighten again only for 25 % more light (no flicker)
ORDERS = {"RGB": (0, 1, 2), "RBG": (0, 2, 1), "GRB": (1, 0, 2),
          "GBR": (2, 0, 1), "BRG": (1, 2, 0), "BGR": (2, 1, 0)}


def fill_table(table, permille):
    """table[v] = v * permille // 1000, in place (no allocation); a lit
    channel (v > 0) at least 1, so a dim colour keeps its hue."""
    table[0] = 0
    for v in range(1, 256):
        c = v * permille // 1000
        table[v] = c if c > 0 or permille <= 0 else 1


def rewrite(cur, allowed, target, board):
    """Whether the chains go out again at brightness `target` (per mille),
    shown now at `cur`: dimmer whenever the limit needs it; brighter only for
    a relative step (RISE_PERMILLE more light, so 19 per mille brightens at 24,
    not at 59), or all the way back to the board's `board` brightness."""
    if allowed < cur:
        return True
    if target <= cur:
        return False
    return target >= board or target * 1000 >= cur * (1000 + RISE_PERMILLE)


def encode(rgb, out, order, table, lo=0, hi=-1):
    """Write wire bytes for RGB frame `rgb` into `out` (same length); only
    bytes lo:hi (whole pixels) when given: a press changes one pixel."""
    ri, gi, bi = ORDERS[order]
    if hi < 0:
        hi = len(rgb)
    encode_at(rgb, out, ri, gi, bi, table, lo - lo % 3, hi)


def encode_at(rgb, out, ri, gi, bi, table, lo, hi):
    """encode() with the colour order as its three indices and lo:hi whole
    pixels: the native encoder's signature (wire.py), which the LEDs fall
    back to when that one does not load (leds.py)."""
    for i in range(lo, hi, 3):
        out[i + ri] = table[rgb[i]]
        out[i + gi] = table[rgb[i + 1]]
        out[i + bi] = table[rgb[i + 2]]


class PowerLimit:
    """Keeps the sum of every chain's estimated current under the budget."""

    def __init__(self, pixels_per_chain, max_ma, permille, light=sum):
        self.permille = permille                  # the board's brightness
        self.light = light                        # frame -> the sum of its bytes
        self.sums = [0] * len(pixels_per_chain)   # sum of each chain's frame bytes
        self.idle_ma = sum(pixels_per_chain) * IDLE_UA_PER_PIXEL // 1000
        self.room_ma = max_ma - RESERVED_MA - self.idle_ma

    def lit_ma(self, permille):
        """Estimated current of the lit channels at `permille` brightness."""
        total = 0
        for s in self.sums:
            total += s * permille // 1000
        return total * MA_PER_CHANNEL // 255

    def frame(self, chain, rgb):
        """A chain's new frame: the light it asks for (on the Pico a native
        loop, wire.light: the built-in sum() iterates, 2.5 ms a dice frame)."""
        self.sums[chain] = self.light(rgb)

    def allowed(self):
        """The highest brightness (per mille, all chains alike) inside the budget."""
        want = self.lit_ma(self.permille)
        if want <= self.room_ma:
            return self.permille
        if self.room_ma <= 0:
            return 0
        return self.permille * self.room_ma // want

    def target(self, allowed):
        """The brightness the LEDs go out at: the board's when it fits, else
        HEADROOM below the limit, so a wheel LED lighting up mid-grab does not
        push the frames over it again (and rewrite the 384-pixel dice chain)."""
        if allowed >= self.permille:
            return allowed
        return allowed * (1000 - HEADROOM) // 1000
