"""The circuit of a board, described once on the host: every part each function needs.

The board file (boards/NAME.json) says which pins do what; this module adds the
parts each function needs around those pins (the buttons' protection, the piezo's
transistor, the LED data shifter, the answer hardware, the supply). The parts
list, the pin table and the wiring picture are all made from describe(board)
(host_tools/builder/wiring.py), so they cannot disagree: the picture tags every
drawing of a part with data-part="KEY" (tests/test_wiring.py compares the two).
Host-only: nothing here goes to the Pico, and the board file stays as it is.
"""
from __future__ import annotations

from typing import NamedTuple

USB_MA = 500        # a USB 2.0 host port (and MicroPython declares only pixels.USB_DECLARED_MA)
USB_SOCKET_MA = 1500    # a 5 V charger through the Pico's micro-USB socket (rated 1.8 A)
NOT_COUNTED = "–"       # the quantity of what is bought by the metre


class Part(NamedTuple):
    key: str            # stable id: the picture's data-part
    qty: object         # a count, or NOT_COUNTED
    name: str           # the parts list's Part column
    notes: str
    value: str | None   # the text the picture writes at every drawing of the part


# key: (part, value written beside its drawings). The parts list keeps this order.
CATALOGUE = {
    "mcu": (None, None),                # by board.mcu, see _mcu
    "matrix": ("8x8 WS2812B matrix (64 px)", "8×8"),
    "stick": ("8-LED WS2812B stick", "wheel"),
    "buzzer": ("60 mm arcade push button (microswitch)", "buzzer"),
    "roll": ("arcade push button (30 or 60 mm)", "ROLL"),
    "piezo": ("passive piezo disc (resonance 2-4 kHz, e.g. 27 mm)", "piezo"),
    "npn": ("NPN transistor, BC337 or 2N2222", "BC337"),
    "r1k": ("1 kΩ resistor", "1 kΩ"),
    "r100": ("100 Ω resistor", "100 Ω"),
    "c10n": ("10 nF ceramic (X7R)", "10 nF"),
    "tvs": ("TVS diode, 3.3 V working (PESD3V3S1BL, ESD9B3.3ST5G)", "TVS"),
    "r4k7": ("4.7 kΩ resistor", "4.7 kΩ"),
    "hc165": ("74HC165 (DIP-16)", "74HC165"),
    "keys": ("push keys (6 mm tactile or keyboard switches)", "keys 0–7"),
    "r10k": (None, "10 kΩ"),            # names the SIP alternative, see _keys
    "lvc2g17": ("74LVC2G17 (dual Schmitt-trigger buffer, SOT-23-6 on an adapter)", "74LVC2G17"),
    "r33": ("33 Ω resistor", "33 Ω"),
    "cd4051": ("CD4051B (DIP-16)", "CD4051"),
    "rotary": ("1-pole rotary switch, 8 positions, shorting (make-before-break)", "dial"),
    "r2k": ("2 kΩ resistor, 1 %", "2 kΩ"),
    "r1k_ladder": ("1 kΩ resistor, 1 %", "1 kΩ"),
    "c1n": ("1 nF C0G capacitor", "1 nF"),
    "ahct125": ("74AHCT125", "74AHCT125"),
    "r330": ("330 Ω resistor", "330 Ω"),
    "c100n": ("100 nF ceramic (X7R)", "100 nF"),
    "schottky": ("1N5817 Schottky diode", "1N5817"),
    "c1000u": ("1000 µF electrolytic, ≥ 6.3 V (10 V better)", "1000 µF"),
    "c10u": ("10 µF ceramic (X5R/X7R), ≥ 10 V", "10 µF"),
    "supply": (None, None),             # by the supply, see _power
    "ribbon": (None, "ribbon"),
    "wire": (None, None),
}


def external_supply(board):
    """More than the Pico's USB socket carries: a 5 V supply on the rail, into VSYS."""
    return board.max_ma > USB_SOCKET_MA


def charger_amps(board):
    """Whole amps of the USB charger a board on the Pico's socket wants (max_ma + the Pico)."""
    return -(-(board.max_ma + 500) // 1000)


def supply_text(board):
    if not external_supply(board):
        if board.max_ma > USB_MA:
            return "5 V USB charger, %d A or more, in the Pico's USB socket" % charger_amps(board)
        return "USB (the Pico's socket), %d mA" % USB_MA
    return "5 V %d A supply" % -(-board.max_ma // 1000)      # whole amps, rounded up


def long_cables(board):
    """Eight stations: cables of a metre or more, the case for buffers and protection."""
    return board.stations > 4


# -- what each function needs: (key, quantity, notes) ------------------------------
def _mcu(board):
    return [("mcu", 1, None)]


def _leds(board):
    return [("matrix", len(board.dice), "the dice; serpentine wiring (pixel 0 top left)"),
            ("stick", board.stations, "one score track a station: 7 score LEDs + 1 wheel LED"),
            ("ahct125", 1, "3.3 V → 5 V level shifter for the LED data lines; 100 nF across VCC/GND"),
            ("r330", len(board.chains), "in series with each LED data line, near the first pixel's DIN")]


def _buttons(board):
    """Every button: its switch, 100 Ω in series, 10 nF and a TVS to GND; a pull-up on long cables."""
    n = board.stations + 1
    out = [("buzzer", board.stations, "the buzzers; ignore their lamp (often 12 V)"),
           ("roll", 1, "ROLL"),
           ("r100", n, "input protection: in series with each button, at the Pico"),
           ("c10n", n, "input protection: from each button pin to GND, after the 100 Ω "
            "(RC 1 µs: far below the box's 16 µs sampling, so parts' tolerances cannot reorder presses)"),
           ("tvs", n, "input protection: from each button pin to GND, beside the 10 nF (ESD from the players' hands)")]
    if long_cables(board):
        out.append(("r4k7", n, "pull-up to 3V3 on each button pin: a long cable picks up "
                    "less than with the Pico's 50-80 kΩ alone"))
    return out


def _piezo(board):
    """The piezo pin drives an NPN through 1 kΩ; the piezo (1 kΩ across it) hangs from +5 V."""
    return [("piezo", 1, "not an \"active\" buzzer: the Pico plays tones by PWM; the warnings sit at its resonance"),
            ("npn", 1, "drives the piezo from +5 V: collector to the piezo, emitter to GND"),
            ("r1k", 1, "the transistor's base resistor (from the piezo pin)"),
            ("r1k", 1, "one across the piezo (discharges it)")]


def _keys(board):
    n = board.stations
    return [("hc165", n, "one a station; 100 nF across each one's VCC/GND"),
            ("keys", 8 * n, "8 a station, labelled 0-7"),
            ("r10k", 8 * n, "pull-up on every 74HC165 input"),
            ("lvc2g17", n, "one a station, on 3V3, 100 nF across it: CLK and SH/LD arrive through it, so a ringing "
             "edge on the cable cannot clock a 74HC165 twice (or slow the clock: see notes)"),
            ("r33", 2, "in series with CLK and SH/LD at the Pico: tames the edges on the cable"),
            ("r100", 1, "one in series with QH (data in)")]


def _dial(board):
    n = board.stations
    return [("cd4051", 1, "8:1 analog multiplexer; 100 nF across VDD/GND"),
            ("rotary", n, "the dials: a 1P12T switch with its stop washer set to 8 works; knob + printed 0-7 scale"),
            ("r2k", 7 * n, "the dial ladders: one ladder for each dial (7 a dial), at the dial"),
            ("r1k_ladder", 2 * n, "the two ends of each ladder"),
            ("c1n", 1, "from CD4051 COM (GP26) to AGND: steadier readings. Not 100 nF: "
             "with the ladder's ~4 kΩ it would need ~3 ms to settle after each switch of the 4051 "
             "(the firmware waits 60 µs: 1 nF settles in ~20 µs)")]


def decoupled_chips(board):
    """(chip, how many) that get a 100 nF across their supply pins."""
    chips = [("74AHCT125", 1)]
    if board.plates == "keys":
        chips += [("74HC165", board.stations), ("74LVC2G17", board.stations)]
    elif board.plates == "dial":
        chips.append(("CD4051", 1))
    return chips


def _decoupling(board):
    chips = decoupled_chips(board)
    said = ", ".join(c if q == 1 else "%d × %s" % (q, c) for c, q in chips)
    return [("c100n", sum(q for _, q in chips),
             "decoupling: one across the supply pins of every chip (%s), at the chip" % said)]


def _power(board):
    if external_supply(board):
        return [("schottky", 1, "+5 V rail → VSYS, so USB can be plugged in too"),
                ("c1000u", 1, "across the LED supply"),
                ("supply", 1, "`max_ma` is %d" % board.max_ma)]
    return [("c10u", 1, "across the LED supply, at the matrices. No more on USB "
             "power: USB 2.0 allows 10 µF at plug-in (a 1000 µF would draw an inrush far over the limit "
             "and can reset the host's port)"),
            ("supply", 1, "`max_ma` is %d; a computer's USB port is far weaker (see the power budget)" % board.max_ma)]


def _cables(board):
    if long_cables(board):
        return [("ribbon", NOT_COUNTED, "the 5 V LED data in its own cable (or twisted with its ground), "
                 "never beside a signal to the Pico"),
                ("wire", NOT_COUNTED, "")]
    return [("wire", NOT_COUNTED, "JST-SM pigtails make the matrices unpluggable")]


def _names(board):
    """The part names that depend on the board."""
    mcu = {"rp2040": "Raspberry Pi Pico (RP2040) with headers",
           "rp2350": "Raspberry Pi Pico 2 (RP2350) with headers"}.get(board.mcu, board.mcu)
    supply = ("%s (or bigger) + DC jack" % supply_text(board)) if external_supply(board) else \
        "USB cable + %s" % supply_text(board)
    order = {"keys": "GND, CLK, GND, SH/LD, GND, data, GND, buzzer, GND, 3V3",
             "dial": "GND, buzzer, GND, dial wiper, AGND, 3V3"}.get(board.plates, "GND, buzzer, GND")
    wire = "0.75 mm² (18 AWG)" if long_cables(board) else "0.5 mm² (20 AWG)"
    return {"mcu": mcu, "supply": supply,
            "r10k": "10 kΩ resistor (or %d × 9-pin bussed 10 kΩ SIP networks)" % board.stations,
            "ribbon": "ribbon cable to the stations, a ground wire between every two signals (%s)" % order,
            "wire": "wire: %s for the LED 5 V/GND, thin wire for signals" % wire}


def _values(board):
    """The values written in the picture that depend on the board."""
    mcu = {"rp2040": "Raspberry Pi Pico (RP2040)", "rp2350": "Raspberry Pi Pico 2 (RP2350)"}.get(board.mcu, board.mcu)
    supply = supply_text(board) if external_supply(board) else "5 V USB charger"
    return {"mcu": mcu, "supply": supply}


MCU_NOTES = {"rp2040": "any Pico/Pico H; a Pico W also works (same pinout)",
             "rp2350": "same pinout as the Pico; flash the RP2350 MicroPython build"}


def needs(board):
    """(key, quantity, notes) of every part, function by function."""
    out = _mcu(board) + _leds(board) + _buttons(board) + _piezo(board)
    if board.plates == "keys":
        out += _keys(board)
    elif board.plates == "dial":
        out += _dial(board)
    return out + _decoupling(board) + _power(board) + _cables(board)


class Circuit:
    """The parts of one board, in parts-list order; look one up by key."""

    def __init__(self, board):
        names, values = _names(board), _values(board)
        qty, notes = {}, {}
        for key, q, note in needs(board):
            if key == "mcu":
                note = MCU_NOTES.get(board.mcu, "")
            qty[key] = q if q == NOT_COUNTED else qty.get(key, 0) + q
            notes.setdefault(key, []).append(note)
        self.parts = []
        for key, (name, value) in CATALOGUE.items():
            if key in qty:
                self.parts.append(Part(key, qty[key], names.get(key, name), "; ".join(notes[key]),
                                       values.get(key, value)))
        self.by_key = {p.key: p for p in self.parts}

    def __contains__(self, key):
        return key in self.by_key

    def __getitem__(self, key):
        return self.by_key[key]

    def value(self, key):
        return self.by_key[key].value


def describe(board):
    return Circuit(board)
