"""Board definitions: which pin is which, which LEDs show what.

A board file (boards/NAME.json, copied to the Pico as board.json) is checked
field by field by boardfile.py; a bad one is refused with a BoardError whose
message names the file, the field and what is wrong, so the box can print it
and blink an error code instead of crashing into a traceback loop.
"""
from cheesebox import run_once

PLATE_TYPES = ("cards", "keys", "dial")
LAYOUTS = ("rows", "serpentine")
ORDERS = ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")
MAX_PIN = 28            # GP0-GP28 on the Pico and Pico 2 header
OFF_HEADER = (23, 24, 25)   # SMPS mode, VBUS sense, the on-board LED: not on the header
ADC_PINS = (26, 27, 28)
MCUS = ("rp2040", "rp2350")
MATRIX_PIXELS = 64
TRACK_PIXELS = 8        # 7 score LEDs + 1 wheel LED
N_DICE = 6              # dice matrices on every board
MAX_WINDOW = 12         # button GPIOs fit in 12 consecutive pins (the PIO sampler's word)


class BoardError(ValueError):
    """A board file that cannot be used."""


class Chain:
    """One NeoPixel data line: pin, length, colour order on the wire."""

    def __init__(self, name, pin, pixels, order):
        self.name = name
        self.pin = pin
        self.pixels = pixels
        self.order = order


class Board:
    """A checked board definition (see boards/README.md for the fields)."""

    def __init__(self):
        self.name = ""
        self.mcu = "rp2040"
        self.plates = "cards"
        self.buzzers = []          # GPIO per station
        self.tracks = []           # (chain index, first pixel) per station
        self.track_reversed = False
        self.roll_pin = 0
        self.piezo_pin = 0
        self.chains = []
        self.dice = []             # (chain index, first pixel, layout) per die
        self.brightness = 0.2
        self.max_ma = 500
        self.debounce_ms = 12
        self.glitch_ms = 2         # a press held this long, no edge, counts at once
        self.answers = {}          # wiring of electronic plates (empty for cards)
        self.button_base = 0       # first GPIO of the button window
        self.button_width = 0
        self.source = ""

    @property
    def stations(self):
        return len(self.buzzers)

    @property
    def electronic(self):
        return self.plates != "cards"

    def input_pins(self):
        """GPIO of each capture input: stations 0-7 (-1 if absent), ROLL 8th."""
        pins = [-1] * 9
        for i in range(len(self.buzzers)):
            pins[i] = self.buzzers[i]
        pins[8] = self.roll_pin
        return pins


def load_board(spec, src="board.json"):
    """A checked Board from a parsed board file (BoardError if it is bad).
    The checking code (boardfile.py) is loaded for this and dropped again."""
    return run_once("boardfile", "load", spec, src)


def read_board(path):
    """Load and check a board file from disk (BoardError on any problem)."""
    return run_once("boardfile", "read", path)
