"""Wire bytes of the LED chains, made by Adafruit's NeoPixel library.

The firmware hands the port RGB frames; what a WS2812 chain receives also
depends on the colour order and the brightness scaling. Rather than redo that
ourselves, each chain is an adafruit-circuitpython-neopixel NeoPixel (on
Blinka's OS-agnostic board) whose transmit step is replaced by a recorder:
the bytes we show are exactly the bytes that library would clock out.
Each strip records into its own slot, so several encoders can live together.
Encoding runs when someone looks (the view, a test), not at every frame.
"""
import os

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

import neopixel  # adafruit-circuitpython-neopixel


class _Pin:
    """Blinka accepts any object with an id as a pin."""

    def __init__(self, gpio):
        self.id = gpio


class WireEncoder:
    def __init__(self, board):
        self.board = board
        self.wire = [b""] * len(board.chains)
        self.strips = []
        for ci, c in enumerate(board.chains):
            strip = neopixel.NeoPixel(_Pin(c.pin), c.pixels, brightness=board.brightness,
                                      auto_write=False, pixel_order=c.order)
            # the library calls _transmit(buffer) with the finished wire bytes
            strip._transmit = self._recorder(ci)
            self.strips.append(strip)

    def _recorder(self, ci):
        def record(buf):
            self.wire[ci] = bytes(buf)
        return record

    def encode(self, chain, rgb):
        """The bytes chain `chain` puts on the wire for an RGB frame."""
        strip = self.strips[chain]
        n = len(rgb) // 3
        strip[0:n] = [(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) for i in range(n)]
        strip.show()
        return self.wire[chain]

    @staticmethod
    def decode(wire, order, brightness):
        """RGB tuples (scaled back to full) from wire bytes, for drawing."""
        ri, gi, bi = order.index("R"), order.index("G"), order.index("B")
        scale = 1.0 / brightness if brightness > 0 else 1.0
        out = []
        for i in range(0, len(wire) - 2, 3):
            px = wire[i:i + 3]
            out.append(tuple(min(255, int(px[k] * scale + 0.5)) for k in (ri, gi, bi)))
        return out
