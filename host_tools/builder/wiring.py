#!/usr/bin/env python3
"""Wiring diagram (SVG) and pin table (Markdown) of a Cheese Box board file.

Usage:
  python host_tools/builder/wiring.py boards/pico-4p.json -o boards/pico-4p.svg
  python host_tools/builder/wiring.py boards/pico-4p.json --table     # pin table on stdout
  python host_tools/builder/wiring.py --all      # every boards/NAME.svg, and the pin
                                         # table inside every boards/NAME.md
  python host_tools/builder/wiring.py --all --check   # exit 1 if any of them is stale

The diagram is drawn FROM the board file (checked by the firmware's own
cheesebox.board.load_board), so it cannot drift from what the firmware
drives: never edit a boards/*.svg by hand (tests/test_wiring.py compares
them with this generator). Stdlib only; the output is deterministic.

On top of board.py's checks, this refuses pins a Pico does not bring out to
its header (GP23, GP24, GP25, GP29 are used on the board itself) and an ADC
pin other than GP26-GP28.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[2]

from rp2port import pixels  # noqa: E402
from cheesebox.board import MATRIX_PIXELS, TRACK_PIXELS, BoardError, load_board  # noqa: E402

BOARDS = REPO / "boards"

# The official Pico / Pico 2 pinout, physical pins 1-40 (USB at the top;
# 1-20 down the left side, 21-40 up the right side, 40 = top right).
PICO_PINS = (
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "AGND", "GP28", "ADC_VREF", "3V3", "3V3_EN", "GND", "VSYS", "VBUS",
)
HEADER_GPIOS = tuple(int(n[2:]) for n in PICO_PINS if n.startswith("GP"))
ADC_GPIOS = (26, 27, 28)
MCUS = {"rp2040": "Raspberry Pi Pico (RP2040)", "rp2350": "Raspberry Pi Pico 2 (RP2350)"}
PIN_VBUS, PIN_VSYS, PIN_GND, PIN_3V3, PIN_AGND = 40, 39, 38, 36, 33
USB_MA = 500        # a USB 2.0 host port (and MicroPython declares only pixels.USB_DECLARED_MA)
USB_SOCKET_MA = 1500    # a 5 V charger through the Pico's micro-USB socket (rated 1.8 A)

# 74HC165 and CD4051 package pins (DIP/SOIC-16)
HC165 = {"load": ("SH/LD", 1), "clock": ("CLK", 2), "data": ("QH", 9)}
CD4051 = {"adc": ("COM", 3), "s0": ("A", 11), "s1": ("B", 10), "s2": ("C", 9)}
CD4051_Y = (13, 14, 15, 12, 1, 5, 2, 4)     # package pin of channel Y0..Y7
AHCT125 = ((2, 3), (5, 6), (9, 8), (12, 11))  # (A, Y) package pins of channels 1-4

# colours by function
C_BUTTON = "#1f5fbf"
C_LED = "#1a9641"
C_PIEZO = "#8e44ad"
C_PLATES = "#e07b00"
C_5V = "#d62728"
C_GND = "#222222"
C_3V3 = "#a0522d"
C_FREE = "#9a9a9a"
C_WINDOW = "#dce8fa"

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
W = 1600            # canvas width
PITCH = 30          # pin pitch
ROW0 = 190          # y of physical pin 1 (and 40)
PX_L, PX_R = 700, 880   # Pico body, left and right edge
GAP = "·"


class WiringError(ValueError):
    """A board that loads but cannot be built on a Pico header."""


# -- the board -------------------------------------------------------------------
def load(path):
    """(Board, parsed JSON) of a board file; BoardError/WiringError if unusable."""
    path = str(path)
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
    except OSError as e:
        raise BoardError("%s: cannot be read (%s)" % (path, e))
    except ValueError as e:
        raise BoardError("%s: is not valid JSON (%s)" % (path, e))
    board = load_board(spec, path)
    problems = header_problems(board)
    if problems:
        raise WiringError("%s: %s" % (path, "; ".join(problems)))
    return board, spec


def used_gpios(board):
    """{GPIO: short function name} of every GPIO the board uses."""
    used = {}
    for i, g in enumerate(board.buzzers):
        used[g] = "station %d buzzer" % (i + 1)
    used[board.roll_pin] = "ROLL button"
    used[board.piezo_pin] = "piezo"
    for c in board.chains:
        used[c.pin] = "LED chain '%s'" % c.name
    for k, g in board.answers.items():
        used[g] = ("74HC165 %s" % HC165[k][0]) if board.plates == "keys" else \
            ("ADC (4051 COM)" if k == "adc" else "4051 %s" % CD4051[k][0])
    return used


def header_problems(board):
    out = []
    if board.mcu not in MCUS:
        out.append("mcu must be one of %s, got %r" % (", ".join(MCUS), board.mcu))
    for g, what in sorted(used_gpios(board).items()):
        if g not in HEADER_GPIOS:
            out.append("GP%d (%s) is not on the Pico header (GP23-25 and GP29 are used on the board)"
                       % (g, what))
    if board.plates == "dial" and board.answers["adc"] not in ADC_GPIOS:
        out.append("answers.adc must be an ADC pin GP26-GP28, got GP%d" % board.answers["adc"])
    return out


def phys(gpio):
    """Physical header pin of a GPIO."""
    return PICO_PINS.index("GP%d" % gpio) + 1


def external_supply(board):
    """More than the Pico's USB socket carries: a 5 V supply on the rail, into VSYS."""
    return board.max_ma > USB_SOCKET_MA


def supply_text(board):
    if not external_supply(board):
        if board.max_ma > USB_MA:
            return "5 V USB charger, %d A or more, in the Pico's USB socket" % -(-(board.max_ma + 500) // 1000)
        return "USB (the Pico's socket), %d mA" % USB_MA
    return "5 V %d A supply" % -(-board.max_ma // 1000)      # whole amps, rounded up


def long_cables(board):
    """Eight stations: cables of a metre or more, the case for buffers and protection."""
    return board.stations > 4


def budget(board):
    """The power numbers the firmware's PowerLimit works with (pixels.py)."""
    n = sum(c.pixels for c in board.chains)
    permille = int(board.brightness * 1000)
    limit = pixels.PowerLimit([c.pixels for c in board.chains], board.max_ma, permille)
    for ci in range(len(board.chains)):                     # every pixel full white
        limit.frame(ci, bytes([255]) * (board.chains[ci].pixels * 3))
    allowed = limit.target(limit.allowed())                 # what the port applies
    white_full = limit.lit_ma(1000)
    white_board = limit.lit_ma(permille)                    # at the board's brightness
    return {"pixels": n, "permille": permille, "idle": limit.idle_ma, "room": limit.room_ma,
            "white_full": white_full, "white_board": white_board, "allowed": allowed,
            "capped": limit.lit_ma(allowed) + limit.idle_ma}


def segments(board, ci):
    """What sits on chain ci, in data order: (kind, index, start, count)."""
    segs = [("die", i, s, MATRIX_PIXELS) for i, (c, s, _) in enumerate(board.dice) if c == ci]
    segs += [("track", i, s, TRACK_PIXELS) for i, (c, s) in enumerate(board.tracks) if c == ci]
    segs.sort(key=lambda t: t[2])
    out, at = [], 0
    for seg in segs:
        if seg[2] > at:
            out.append(("free", -1, at, seg[2] - at))
        out.append(seg)
        at = seg[2] + seg[3]
    n = board.chains[ci].pixels
    if at < n:
        out.append(("free", -1, at, n - at))
    return out


def window_free(board):
    """GPIOs inside the button window that must stay unconnected."""
    buttons = set(board.buzzers) | {board.roll_pin}
    return [g for g in range(board.button_base, board.button_base + board.button_width)
            if g not in buttons]


# -- the pin table ---------------------------------------------------------------
def pin_rows(board):
    """(physical pin, name, function, connect to) for every pin to wire."""
    rows = []
    ext = external_supply(board)
    guard = "100 Ω in series, 10 nF + TVS to GND at the pin"
    if long_cables(board):
        guard += ", 4.7 kΩ to 3V3"
    for i, g in enumerate(board.buzzers):
        rows.append((phys(g), "GP%d" % g, "Station %d buzzer" % (i + 1),
                     "buzzer switch NO (%s); its COM to GND (pressed = low)" % guard))
    rows.append((phys(board.roll_pin), "GP%d" % board.roll_pin, "ROLL button",
                 "button switch NO (%s); its COM to GND (pressed = low)" % guard))
    rows.append((phys(board.piezo_pin), "GP%d" % board.piezo_pin, "Piezo (PWM)",
                 "1 kΩ to the base of an NPN (BC337); piezo from +5 V to its collector, 1 kΩ across the piezo"))
    for ci, c in enumerate(board.chains):
        a, y = AHCT125[ci % 4]
        first = segments(board, ci)[0]
        rows.append((phys(c.pin), "GP%d" % c.pin, "LED data, chain `%s` (%d px, %s)" % (c.name, c.pixels, c.order),
                     "74AHCT125 %dA (pin %d); %dY (pin %d) → 330 Ω → DIN of %s"
                     % (ci % 4 + 1, a, ci % 4 + 1, y, seg_name(first))))
    if board.plates == "keys":
        a = board.answers
        rows.append((phys(a["load"]), "GP%d" % a["load"], "74HC165 load",
                     "33 Ω, then SH/LD (pin 1) of every 74HC165 through its station's Schmitt buffer"))
        rows.append((phys(a["clock"]), "GP%d" % a["clock"], "74HC165 clock",
                     "33 Ω, then CLK (pin 2) of every 74HC165 through its station's Schmitt buffer"))
        rows.append((phys(a["data"]), "GP%d" % a["data"], "74HC165 data in",
                     "100 Ω, then QH (pin 9) of U1, the station 1 chip"))
    elif board.plates == "dial":
        a = board.answers
        rows.append((phys(a["adc"]), "GP%d" % a["adc"], "ADC%d (dial voltage)" % (a["adc"] - 26),
                     "CD4051 COM (pin 3)"))
        for k, bit in (("s0", 0), ("s1", 1), ("s2", 2)):
            name, pkg = CD4051[k]
            rows.append((phys(a[k]), "GP%d" % a[k], "4051 select bit %d" % bit,
                         "CD4051 %s (pin %d)" % (name, pkg)))
    free = window_free(board)
    if free:
        if len(free) > 1 and free == list(range(free[0], free[-1] + 1)):
            pins, names = "%d-%d" % (phys(free[0]), phys(free[-1])), "GP%d-GP%d" % (free[0], free[-1])
        else:
            pins = ", ".join(str(phys(g)) for g in free)
            names = ", ".join("GP%d" % g for g in free)
        rows.append((pins, names,
                     "inside the button window", "leave unconnected (the PIO samples GP%d-GP%d)"
                     % (board.button_base, board.button_base + board.button_width - 1)))
    if ext:
        rows.append((PIN_VSYS, "VSYS", "Pico power in", "+5 V rail through a Schottky diode (1N5817), anode at the rail"))
    else:
        rows.append((PIN_VBUS, "VBUS", "USB 5 V out", "+5 V LED rail (LED chains, 74AHCT125 VCC)"))
    rows.append((PIN_GND, "GND", "common ground", "GND rail: supply −, LED chains, 74AHCT125, buttons, piezo"))
    if board.plates != "cards":
        what = "74HC165 VCC (pin 16) and the 10 kΩ pull-ups" if board.plates == "keys" else \
            "CD4051 VDD (pin 16) and the top of every dial's ladder"
        rows.append((PIN_3V3, "3V3", "3.3 V out", what + " (never 5 V: these talk to the Pico)"))
    if board.plates == "dial":
        rows.append((PIN_AGND, "AGND", "analog ground", "bottom of every dial's ladder; CD4051 VSS, VEE, INH to GND"))
    rows.sort(key=lambda r: int(str(r[0]).replace(",", "-").split("-")[0]))
    return rows


def part_rows(board):
    """(qty, part, notes) for every part the board needs."""
    n = board.stations
    buttons = n + 1
    long = long_cables(board)
    ext = external_supply(board)
    mcu = {"rp2040": ("Raspberry Pi Pico (RP2040) with headers", "any Pico/Pico H; a Pico W also works (same pinout)"),
           "rp2350": ("Raspberry Pi Pico 2 (RP2350) with headers",
                      "same pinout as the Pico; flash the RP2350 MicroPython build")}[board.mcu]
    rows = [(1, mcu[0], mcu[1]),
            (len(board.dice), "8x8 WS2812B matrix (64 px)", "the dice; serpentine wiring (pixel 0 top left)"),
            (n, "8-LED WS2812B stick", "one score track a station: 7 score LEDs + 1 wheel LED"),
            (n, "60 mm arcade push button (microswitch)", "the buzzers; ignore their lamp (often 12 V)"),
            (1, "arcade push button (30 or 60 mm)", "ROLL"),
            (1, "passive piezo disc (resonance 2-4 kHz, e.g. 27 mm)",
             "not an \"active\" buzzer: the Pico plays tones by PWM; the warnings sit at its resonance"),
            (1, "NPN transistor, BC337 or 2N2222", "drives the piezo from +5 V: collector to the piezo, emitter to GND"),
            (2, "1 kΩ resistor", "the transistor's base resistor (from the piezo pin); one across the piezo (discharges it)"),
            (buttons + (board.plates == "keys"), "100 Ω resistor",
             "input protection: in series with each button, at the Pico"
             + ("; one in series with QH (data in)" if board.plates == "keys" else "")),
            (buttons, "10 nF ceramic (X7R)", "input protection: from each button pin to GND, after the 100 Ω "
             "(RC 1 µs: far below the box's 16 µs sampling, so parts' tolerances cannot reorder presses)"),
            (buttons, "TVS diode, 3.3 V working (PESD3V3S1BL, ESD9B3.3ST5G)",
             "input protection: from each button pin to GND, beside the 10 nF (ESD from the players' hands)")]
    if long:
        rows.append((buttons, "4.7 kΩ resistor", "pull-up to 3V3 on each button pin: a long cable picks up "
                     "less than with the Pico's 50-80 kΩ alone"))
    if board.plates == "keys":
        rows += [(n, "74HC165 (DIP-16)", "one a station; 100 nF across each one's VCC/GND"),
                 (8 * n, "push keys (6 mm tactile or keyboard switches)", "8 a station, labelled 0-7"),
                 (8 * n, "10 kΩ resistor (or %d × 9-pin bussed 10 kΩ SIP networks)" % n,
                  "pull-up on every 74HC165 input"),
                 (n, "74LVC2G17 (dual Schmitt-trigger buffer, SOT-23-6 on an adapter)",
                  "one a station, on 3V3, 100 nF across it: CLK and SH/LD arrive through it, so a ringing "
                  "edge on the cable cannot clock a 74HC165 twice (or slow the clock: see notes)"),
                 (2, "33 Ω resistor", "in series with CLK and SH/LD at the Pico: tames the edges on the cable")]
    elif board.plates == "dial":
        rows += [(1, "CD4051B (DIP-16)", "8:1 analog multiplexer; 100 nF across VDD/GND"),
                 (n, "1-pole rotary switch, 8 positions, shorting (make-before-break)",
                  "the dials: a 1P12T switch with its stop washer set to 8 works; knob + printed 0-7 scale"),
                 (7 * n, "2 kΩ resistor, 1 %", "the dial ladders: one ladder for each dial (7 a dial), at the dial"),
                 (2 * n, "1 kΩ resistor, 1 %", "the two ends of each ladder"),
                 (1, "1 nF C0G capacitor", "from CD4051 COM (GP26) to AGND: steadier readings. Not 100 nF: "
                  "with the ladder's ~4 kΩ it would need ~3 ms to settle after each switch of the 4051 "
                  "(the firmware waits 60 µs: 1 nF settles in ~20 µs)")]
    rows += [(1, "74AHCT125", "3.3 V → 5 V level shifter for the LED data lines; 100 nF across VCC/GND"),
             (len(board.chains), "330 Ω resistor", "in series with each LED data line, near the first pixel's DIN")]
    if ext:
        rows += [(1, "1N5817 Schottky diode", "+5 V rail → VSYS, so USB can be plugged in too"),
                 (1, "1000 µF electrolytic, ≥ 6.3 V (10 V better)", "across the LED supply"),
                 (1, "%s (or bigger) + DC jack" % supply_text(board), "`max_ma` is %d" % board.max_ma)]
    else:
        rows += [(1, "10 µF ceramic (X5R/X7R), ≥ 10 V", "across the LED supply, at the matrices. No more on USB "
                  "power: USB 2.0 allows 10 µF at plug-in (a 1000 µF would draw an inrush far over the limit "
                  "and can reset the host's port)"),
                 (1, "USB cable + %s" % supply_text(board), "`max_ma` is %d; a computer's USB port is far "
                  "weaker (see the power budget)" % board.max_ma)]
    if long:
        order = {"keys": "GND, CLK, GND, SH/LD, GND, data, GND, buzzer, GND, 3V3",
                 "dial": "GND, buzzer, GND, dial wiper, AGND, 3V3"}.get(board.plates, "GND, buzzer, GND")
        rows.append(("–", "ribbon cable to the stations, a ground wire between every two signals "
                     "(%s)" % order,
                     "the 5 V LED data in its own cable (or twisted with its ground), never beside a signal to the Pico"))
        rows.append(("–", "wire: 0.75 mm² (18 AWG) for the LED 5 V/GND, thin wire for signals", ""))
    else:
        rows.append(("–", "wire: 0.5 mm² (20 AWG) for the LED 5 V/GND, thin wire for signals",
                     "JST-SM pigtails make the matrices unpluggable"))
    return rows


def parts_table(board):
    lines = ["| Qty | Part | Notes |", "|---:|---|---|"]
    for q, part, notes in part_rows(board):
        lines.append("| %s | %s | %s |" % (q, part, notes))
    return "\n".join(lines) + "\n"


def pin_table(board):
    lines = ["| Pico pin | GPIO | Function | Connect to |", "|---:|---|---|---|"]
    for p, name, fn, to in pin_rows(board):
        lines.append("| %s | %s | %s | %s |" % (p, name, fn, to))
    return "\n".join(lines) + "\n"


def seg_name(seg):
    kind, i = seg[0], seg[1]
    return "die %d" % (i + 1) if kind == "die" else ("station %d's track" % (i + 1) if kind == "track" else "spare pixels")


# -- SVG ---------------------------------------------------------------------------
class Svg:
    def __init__(self):
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def line(self, x1, y1, x2, y2, color=C_GND, w=2, dash=None):
        d = ' stroke-dasharray="%s"' % dash if dash else ""
        self.add('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>'
                 % (x1, y1, x2, y2, color, w, d))

    def path(self, pts, color=C_GND, w=2, fill="none"):
        d = " ".join("%s%g,%g" % ("M" if i == 0 else "L", x, y) for i, (x, y) in enumerate(pts))
        self.add('<path d="%s" fill="%s" stroke="%s" stroke-width="%g" stroke-linejoin="round"/>'
                 % (d, fill, color, w))

    def rect(self, x, y, w, h, fill="#ffffff", stroke=C_GND, sw=1.5, rx=0, dash=None, opacity=None):
        d = ' stroke-dasharray="%s"' % dash if dash else ""
        if opacity is not None:
            d += ' fill-opacity="%g"' % opacity
        self.add('<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" stroke-width="%g"%s/>'
                 % (x, y, w, h, rx, fill, stroke, sw, d))

    def circle(self, x, y, r, fill="#ffffff", stroke=C_GND, sw=1.5):
        self.add('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
                 % (x, y, r, fill, stroke, sw))

    def text(self, x, y, s, size=12, anchor="start", color="#111111", weight="normal", rotate=None):
        r = ' transform="rotate(%g %g %g)"' % (rotate, x, y) if rotate is not None else ""
        w = ' font-weight="bold"' if weight == "bold" else ""
        self.add('<text x="%g" y="%g" font-size="%g" text-anchor="%s" fill="%s"%s%s>%s</text>'
                 % (x, y, size, anchor, color, w, r, escape(s)))

    def lines(self, x, y, texts, size=12, step=None, **kw):
        step = step or size * 1.35
        for i, t in enumerate(texts):
            self.text(x, y + i * step, t, size, **kw)
        return y + len(texts) * step

    # symbols
    def ground(self, x, y, color=C_GND):
        self.line(x, y, x, y + 7, color)
        for i, half in enumerate((8, 5, 2)):
            self.line(x - half, y + 7 + 3 * i, x + half, y + 7 + 3 * i, color, 1.5)

    def resistor(self, x1, x2, y, label, color):
        """A horizontal resistor between x1 < x2, label above."""
        self.rect(x1, y - 5, x2 - x1, 10, "#ffffff", color, 1.5)
        self.text((x1 + x2) / 2, y - 9, label, 10, "middle", color)

    def switch(self, x1, x2, y, color):
        """An open push switch between x1 < x2 (x1 side is the lever's hinge)."""
        self.circle(x1, y, 2.5, "#ffffff", color)
        self.circle(x2, y, 2.5, "#ffffff", color)
        self.line(x1 + 2, y - 2, x2 - 3, y - 11, color, 2)
        mid = (x1 + x2) / 2
        self.line(mid, y - 7, mid, y - 14, color, 1.5)
        self.line(mid - 5, y - 14, mid + 5, y - 14, color, 1.5)

    def arrow(self, x, y, direction, color, size=5):
        s = size if direction == "right" else -size
        self.path([(x - s, y - size), (x, y), (x - s, y + size)], color, 2)


def row_y(p):
    """y of physical pin p's row."""
    return ROW0 + PITCH * ((p - 1) if p <= 20 else (40 - p))


def left_side(p):
    return p <= 20


def render_svg(board, spec):
    """The wiring diagram of a checked board, as SVG text."""
    s = Svg()
    used = used_gpios(board)
    free_in_window = set(window_free(board))
    ext = external_supply(board)
    b = budget(board)

    # -- title ------------------------------------------------------------------
    s.text(24, 40, "Cheese Box wiring: %s" % board.name, 26, weight="bold")
    s.text(24, 66, spec.get("description", ""), 14, color="#333333")
    s.text(24, 88, "%s · %d stations · plates: %s · LED supply: %s · generated from boards/%s.json by "
           "host_tools/builder/wiring.py (do not edit)" % (MCUS.get(board.mcu, board.mcu), board.stations,
                                                   board.plates, supply_text(board), board.name),
           12, color="#555555")

    # -- the Pico ---------------------------------------------------------------
    top, bottom = ROW0 - 40, row_y(20) + 30
    bw = board.button_base
    # the button window, shaded behind the left pins
    win_rows = [row_y(phys(g)) for g in range(bw, bw + board.button_width) if g in HEADER_GPIOS]
    s.rect(PX_L, top, PX_R - PX_L, bottom - top, "#f4f8ef", "#2e5e2e", 2, 8)
    s.rect(PX_L - 108, min(win_rows) - 14, 175, max(win_rows) - min(win_rows) + 28, C_WINDOW, C_BUTTON, 1, 4,
           "4 3", 0.45)
    s.text(PX_L - 104, min(win_rows) - 18, "button window", 10, "start", C_BUTTON, "bold")
    s.rect((PX_L + PX_R) / 2 - 22, top - 12, 44, 22, "#cfcfcf", "#555555", 1.5, 3)
    s.text((PX_L + PX_R) / 2, top - 16, "USB (top view)", 10, "middle", "#555555")
    s.text(PX_L + 82, (top + bottom) / 2, MCUS.get(board.mcu, board.mcu), 14, "middle",
           "#2e5e2e", "bold", rotate=-90)
    for p in range(1, 41):
        name = PICO_PINS[p - 1]
        y = row_y(p)
        gp = int(name[2:]) if name.startswith("GP") else None
        if gp is not None and gp in used:
            color, weight = pin_color(board, gp), "bold"
        elif name in ("GND", "AGND"):
            color, weight = C_GND, "normal"
        elif name in ("VBUS", "VSYS"):
            color, weight = C_5V, "normal"
        elif name == "3V3":
            color, weight = C_3V3, "normal"
        else:
            color, weight = C_FREE, "normal"
        label = name
        if gp in ADC_GPIOS:
            label += " A%d" % (gp - 26)
        if left_side(p):
            s.rect(PX_L - 5, y - 5, 10, 10, "#e8c547", "#8a6d00", 1)
            s.text(PX_L + 9, y + 4, str(p), 9, "start", "#777777")
            s.text(PX_L + 27, y + 4, label, 12, "start", color, weight)
        else:
            s.rect(PX_R - 5, y - 5, 10, 10, "#e8c547", "#8a6d00", 1)
            s.text(PX_R - 9, y + 4, str(p), 9, "end", "#777777")
            s.text(PX_R - 27, y + 4, label, 12, "end", color, weight)
        if gp in free_in_window:
            s.text(PX_L - 14, y + 4, "keep free", 10, "end", C_BUTTON)

    # -- left/right pin rows ---------------------------------------------------------
    chain_lanes = []    # (chain index, side, row y, x where the wire leaves the resistor)
    for g in sorted(used):
        p = phys(g)
        y = row_y(p)
        left = left_side(p)
        if g in board.buzzers or g == board.roll_pin:
            label = "ROLL button" if g == board.roll_pin else "Station %d buzzer (60 mm)" % (board.buzzers.index(g) + 1)
            draw_button(s, y, left, label)
        elif g == board.piezo_pin:
            draw_piezo(s, y, left)
    for ci, c in enumerate(board.chains):
        p = phys(c.pin)
        chain_lanes.append((ci, left_side(p), row_y(p)))
    draw_shifters(s, board, chain_lanes)
    if board.plates == "keys":
        draw_keys(s, board)
    elif board.plates == "dial":
        draw_dial(s, board)
    draw_power(s, board, ext)

    # -- LED chains, below the Pico ----------------------------------------------------
    y = bottom + 50
    s.text(24, y, "LED chains: data order on the wire (the first block is nearest the Pico)", 16, weight="bold")
    y += 14
    # lanes nest without crossing: the chain whose pin is highest gets the
    # outermost lane and the lowest panel
    order = sorted(range(len(board.chains)), key=lambda ci: -row_y(phys(board.chains[ci].pin)))
    panel_h = 96
    lane_x = {}
    for k, ci in enumerate(sorted(range(len(board.chains)), key=lambda ci: row_y(phys(board.chains[ci].pin)))):
        lane_x[ci] = 22 + 12 * k
    for ci in order:
        draw_chain_panel(s, board, ci, y, lane_x[ci])
        y += panel_h

    # -- power budget and legend ----------------------------------------------------
    y += 10
    yb = draw_budget(s, board, b, 24, y)
    yl = draw_legend(s, board, 1010, y)
    height = max(yb, yl) + 24

    head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="%s">\n<title>Cheese Box wiring: %s</title>\n'
            '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n'
            % (W, height, W, height, FONT, escape(board.name), W, height))
    return head + "\n".join(s.parts) + "\n</svg>\n"


def pin_color(board, g):
    if g in board.buzzers or g == board.roll_pin:
        return C_BUTTON
    if g == board.piezo_pin:
        return C_PIEZO
    if any(c.pin == g for c in board.chains):
        return C_LED
    return C_PLATES


def draw_button(s, y, left, label):
    """A button: 100 Ω in series at the pin (the 10 nF and TVS: parts list), switch to GND."""
    if left:
        s.line(PX_L - 5, y, 620, y, C_BUTTON)
        s.resistor(590, 620, y, "100 Ω", C_BUTTON)
        s.line(590, y, 582, y, C_BUTTON)
        s.switch(548, 582, y, C_BUTTON)
        s.line(546, y, 526, y, C_GND)
        s.ground(526, y)
        s.text(508, y + 4, label, 12, "end", C_BUTTON, "bold")
    else:
        s.line(PX_R + 5, y, 960, y, C_BUTTON)
        s.resistor(960, 990, y, "100 Ω", C_BUTTON)
        s.line(990, y, 998, y, C_BUTTON)
        s.switch(998, 1032, y, C_BUTTON)
        s.line(1034, y, 1054, y, C_GND)
        s.ground(1054, y)
        s.text(1072, y + 4, label, 12, "start", C_BUTTON, "bold")


def draw_piezo(s, y, left):
    """The piezo pin drives an NPN's base through 1 kΩ; the piezo hangs from +5 V."""
    label = "1 kΩ → NPN base; piezo from +5 V to its collector"
    if left:
        s.line(PX_L - 5, y, 620, y, C_PIEZO)
        s.resistor(588, 620, y, "1 kΩ", C_PIEZO)
        s.line(588, y, 566, y, C_PIEZO)
        s.line(566, y - 8, 566, y + 8, C_PIEZO, 2)
        s.rect(554, y - 6, 8, 12, "#ffffff", C_PIEZO, 1.5)
        s.line(550, y - 8, 550, y + 8, C_PIEZO, 2)
        s.line(550, y, 526, y, C_GND)
        s.ground(526, y)
        s.text(508, y + 4, label, 12, "end", C_PIEZO, "bold")
    else:
        s.line(PX_R + 5, y, 960, y, C_PIEZO)
        s.resistor(960, 992, y, "1 kΩ", C_PIEZO)
        s.line(992, y, 1014, y, C_PIEZO)
        s.line(1014, y - 8, 1014, y + 8, C_PIEZO, 2)
        s.rect(1018, y - 6, 8, 12, "#ffffff", C_PIEZO, 1.5)
        s.line(1030, y - 8, 1030, y + 8, C_PIEZO, 2)
        s.line(1030, y, 1054, y, C_GND)
        s.ground(1054, y)
        s.text(1072, y + 4, label, 12, "start", C_PIEZO, "bold")


def draw_shifters(s, board, lanes):
    """One 74AHCT125 per side that has chains; then 330 Ω; then up/down to the lane."""
    for side in (True, False):
        mine = [(ci, y) for ci, left, y in lanes if left == side]
        if not mine:
            continue
        ys = [y for _, y in mine]
        y1, y2 = min(ys) - 16, max(ys) + 16
        bx1, bx2 = (600, 660) if side else (920, 980)
        s.rect(bx1, y1, bx2 - bx1, y2 - y1, "#eef7ee", C_LED, 1.5, 3)
        s.text((bx1 + bx2) / 2, y1 - 6, "74AHCT125", 11, "middle", C_LED, "bold")
        s.text((bx1 + bx2) / 2, y2 + 13, "VCC = 5 V", 9, "middle", C_LED)
        for ci, y in mine:
            a, yy = AHCT125[ci % 4]
            n = ci % 4 + 1
            if side:
                s.line(PX_L - 5, y, bx2, y, C_LED)
                s.text(bx2 - 3, y - 3, "%dA" % n, 8, "end", C_LED)
                s.text(bx1 + 3, y - 3, "%dY" % n, 8, "start", C_LED)
                s.line(bx1 + 14, y, bx2 - 14, y, C_LED, 1)
                s.arrow(bx1 + 16, y, "left", C_LED, 4)
                s.line(bx1, y, 578, y, C_LED)
                s.resistor(546, 578, y, "330 Ω", C_LED)
            else:
                s.line(PX_R + 5, y, bx1, y, C_LED)
                s.line(bx2, y, 1002, y, C_LED)
                s.resistor(1002, 1034, y, "330 Ω", C_LED)


def draw_chain_panel(s, board, ci, y, lane):
    """Title + blocks of one chain at y; the data wire comes down lane x."""
    c = board.chains[ci]
    p = phys(c.pin)
    left = left_side(p)
    ry = row_y(p)
    by = y + 26          # top of the blocks
    mid = by + 26
    # wire from the resistor to the lane, down, and into the first block
    start_x = 546 if left else 1034
    if left:
        s.path([(start_x, ry), (lane, ry), (lane, mid), (62, mid)], C_LED, 2)
    else:
        s.path([(start_x, ry), (W - lane, ry), (W - lane, y - 6), (lane, y - 6), (lane, mid), (62, mid)], C_LED, 2)
    s.arrow(60, mid, "right", C_LED)
    s.text(lane + 8, mid - 5, "DIN", 9, "start", C_LED, "bold")
    ai = ci % 4 + 1
    s.text(70, y + 12, "Chain '%s': GP%d → 74AHCT125 %dA/%dY → 330 Ω → DIN · %d pixels · colour order %s · "
           "+5 V and GND from the LED rail" % (c.name, c.pin, ai, ai, c.pixels, c.order), 13, color=C_LED,
           weight="bold")
    segs = segments(board, ci)
    widths = {"die": 104, "track": 74, "free": 74}
    gap = 16
    total = sum(widths[k] for k, *_ in segs) + gap * (len(segs) - 1)
    scale = min(1.0, (W - 90) / total)
    x = 66
    for k, (kind, i, start, n) in enumerate(segs):
        w = widths[kind] * scale
        if kind == "die":
            fill, head = "#fff5d6", "Die %d" % (i + 1)
            sub = "8×8, %s" % board.dice[i][2]
        elif kind == "track":
            fill, head = "#e3f0ff", "Station %d" % (i + 1)
            sub = "wheel = px %d" % (start + (0 if board.track_reversed else TRACK_PIXELS - 1))
        else:
            fill, head, sub = "#f0f0f0", "spare", "not shown"
        s.rect(x, by, w, 52, fill, C_GND if kind != "free" else C_FREE, 1.2, 4,
               None if kind != "free" else "4 3")
        s.text(x + w / 2, by + 16, head, 12, "middle", weight="bold")
        s.text(x + w / 2, by + 31, "px %d–%d" % (start, start + n - 1), 10, "middle", "#333333")
        s.text(x + w / 2, by + 45, sub, 9 if scale >= 0.9 else 8, "middle", "#555555")
        if k < len(segs) - 1:
            s.line(x + w, mid, x + w + gap, mid, C_LED, 2)
            s.arrow(x + w + gap - 2, mid, "right", C_LED, 4)
        x += w + gap


def draw_keys(s, board):
    a = board.answers
    rows = {k: row_y(phys(a[k])) for k in ("load", "clock", "data")}
    side_left = left_side(phys(a["load"]))
    ys = sorted(rows.values())
    y1, y2 = ys[0] - 22, ys[-1] + 22
    n = board.stations
    if side_left:      # not used by the boards we ship: a compact block
        s.rect(420, y1, 120, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
        for k, y in rows.items():
            s.line(PX_L - 5, y, 540, y, C_PLATES)
            s.text(536, y - 3, HC165[k][0], 9, "end", C_PLATES)
        s.text(480, y1 - 6, "%d × 74HC165 (see notes)" % n, 11, "middle", C_PLATES, "bold")
        return
    x0, cw, cg = 1000, 58, 9
    for k, y in rows.items():
        s.line(PX_R + 5, y, x0, y, C_PLATES)
        s.text(PX_R + 40, y - 4, HC165[k][0] + " (pin %d)" % HC165[k][1], 9, "start", C_PLATES)
    for i in range(n):
        x = x0 + i * (cw + cg)
        s.rect(x, y1, cw, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
        s.text(x + cw / 2, y1 + 16, "U%d" % (i + 1), 12, "middle", C_PLATES, "bold")
        s.text(x + cw / 2, y1 + 30, "74HC165", 9, "middle", C_PLATES)
        s.text(x + cw / 2, y2 - 20, "station %d" % (i + 1), 9, "middle", "#333333")
        s.text(x + cw / 2, y2 - 8, "keys 0–7", 9, "middle", "#333333")
        if i + 1 < n:
            xn = x + cw
            for k, y in rows.items():
                if k == "data":     # QH of the next chip into SER of this one
                    s.line(xn, y, xn + cg, y, C_PLATES, 2)
                    s.arrow(xn + 1, y, "left", C_PLATES, 3)
                else:
                    s.line(xn, y, xn + cg, y, C_PLATES, 2)
    s.text(x0, y1 - 60, "Answer keys: %d × 74HC165, chained (U1 nearest the Pico)" % n, 13, "start",
           C_PLATES, "bold")
    s.lines(x0, y1 - 42, [
        "SH/LD and CLK go to every chip; QH of U(n+1) → SER (pin 10) of U(n).",
        "Key k → input D%s (key 0 = H pin 6 … key 7 = A pin 11), other side to GND;" % "(7−k)",
        "10 kΩ pull-up to 3V3 on all 8 inputs; CLK INH (15) and U%d's SER to GND; VCC = 3V3." % n,
    ], 10, color="#333333")


def draw_dial(s, board):
    a = board.answers
    rows = {k: row_y(phys(a[k])) for k in ("adc", "s0", "s1", "s2")}
    ys = sorted(rows.values())
    if any(left_side(phys(a[k])) for k in rows):     # not used by the boards we ship
        for k, y in rows.items():
            s.text(PX_L - 14, y + 4, "→ CD4051 %s (see notes)" % CD4051[k][0], 11, "end", C_PLATES, "bold")
        return
    x1, x2 = 1010, 1110
    y1, y2 = ys[0] - 22, ys[-1] + 22
    s.rect(x1, y1, x2 - x1, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
    s.text((x1 + x2) / 2, y1 - 8, "CD4051 (8:1 mux)", 12, "middle", C_PLATES, "bold")
    s.text((x1 + x2) / 2, y2 + 14, "VDD(16) = 3V3; VSS(8), VEE(7), INH(6) = GND", 9, "middle", C_PLATES)
    for k, y in rows.items():
        s.line(PX_R + 5, y, x1, y, C_PLATES)
        name, pkg = CD4051[k]
        s.text(x1 + 4, y + 4, "%s (%d)" % (name, pkg), 10, "start", C_PLATES)
    n = board.stations
    step = (y2 - y1 - 30) / 7
    sy = [y1 + 15 + i * step for i in range(8)]
    lx = 1480                                  # the ladder's tap bus
    for ch in range(8):
        y = sy[ch]
        s.text(x2 - 4, y + 4, "Y%d (%d)" % (ch, CD4051_Y[ch]), 10, "end", C_PLATES)
        if ch < n:
            s.line(x2, y, 1160, y, C_PLATES)
            s.circle(1172, y, 12, "#ffffff", C_PLATES, 1.5)
            s.line(1172, y, 1180, y - 8, C_PLATES, 1.5)
            s.text(1190, y + 4, "Station %d dial" % (ch + 1), 11, "start", C_PLATES, "bold")
            s.line(1296, y, lx, y, C_3V3, 3)
        else:
            s.text(x2 + 8, y + 4, "not used", 9, "start", C_FREE)
    s.text(1300, sy[0] - 10, "position k → its own Tk", 9, "start", C_3V3)
    # the ladders: one a dial, so a dial between two contacts moves no other dial
    s.rect(lx, y1, 110, y2 - y1, "#f8efe8", C_3V3, 1.5, 3)
    s.lines(lx + 55, y1 + 18, ["One ladder", "per dial (%d)" % n, "", "3V3 (pin 36)", "1 kΩ", "T7", "2 kΩ", "T6",
                              "⋮  (2 kΩ each)", "T1", "2 kΩ", "T0", "1 kΩ", "AGND (pin 33)", "",
                              "Tk = (2k+1)/16", "× 3.3 V"], 10, anchor="middle", color=C_3V3)
    s.text(1140, y1 - 8, "1P8T rotary switches: common → Yn", 10, "start", C_PLATES, "bold")


def draw_power(s, board, ext):
    """Supply, +5 V LED rail and GND rail at the top right; 3V3/AGND stubs."""
    yg = row_y(PIN_GND)
    if ext:
        yp = row_y(PIN_VSYS)
        s.line(PX_R + 5, yp, 930, yp, C_5V)
        # Schottky diode pointing at VSYS
        s.path([(960, yp - 8), (960, yp + 8), (940, yp), (960, yp - 8)], C_5V, 1.5, "#ffd9d9")
        s.line(938, yp - 8, 938, yp + 8, C_5V, 2)
        s.text(950, yp - 12, "1N5817", 9, "middle", C_5V)
        s.line(960, yp, 1390, yp, C_5V, 3)
        s.line(930, yp, 940, yp, C_5V)
        s.text(PX_R + 14, row_y(PIN_VBUS) + 4, "VBUS: USB only (programming)", 10, "start", C_FREE)
    else:
        yp = row_y(PIN_VBUS)
        s.line(PX_R + 5, yp, 1390, yp, C_5V, 3)
        s.text(PX_R + 14, row_y(PIN_VSYS) + 4, "VSYS: not connected", 10, "start", C_FREE)
    s.line(PX_R + 5, yg, 1390, yg, C_GND, 3)
    s.text(1000, yp - 8, "+5 V LED rail", 12, "start", C_5V, "bold")
    s.text(1000, yg + 16, "GND rail (common ground)", 12, "start", C_GND, "bold")
    # the capacitor across the rails
    cx, cm = 1250, (yp + yg) / 2
    s.line(cx, yp, cx, cm - 4, C_5V, 2)
    s.line(cx - 10, cm - 4, cx + 10, cm - 4, C_5V, 3)
    s.line(cx - 10, cm + 4, cx + 10, cm + 4, C_GND, 3)
    s.line(cx, cm + 4, cx, yg, C_GND, 2)
    s.text(cx - 14, cm - 5, "+", 11, "end", C_5V, "bold")
    # on USB power the inrush limit (USB 2.0: 10 uF at plug-in) rules out a bulk capacitor
    s.text(cx + 16, cm + 4, "1000 µF ≥ 6.3 V" if ext else "10 µF (USB: no more)", 11, "start",
           "#333333", "bold")
    # the supply
    sx = 1390
    s.rect(sx, yp - 18, 190, yg - yp + 36, "#fdecec", C_5V, 1.5, 4)
    if ext:
        s.text(sx + 95, yp + 3, supply_text(board), 13, "middle", C_5V, "bold")
        s.text(sx + 95, (yp + yg) / 2 + 9, "+ at top, − at bottom", 9, "middle", "#333333")
    else:
        amps = -(-(board.max_ma + 500) // 1000)
        s.lines(sx + 95, yp - 2, ["5 V USB charger,", "%d A or more, in the" % amps, "Pico's USB socket",
                                  "(a PC port: notes)"], 11, anchor="middle", color=C_5V, weight="bold")
    s.lines(1150, yg + 38, ["+5 V rail → every LED chain's 5V (feed the dice chain at both ends),",
                            "74AHCT125 VCC (pin 14). GND rail → every chain's GND, the 74AHCT125,",
                            "the buttons and the piezo: one common ground with the Pico.",
                            "74AHCT125: 1OE, 2OE, 3OE, 4OE and unused inputs to GND."], 10, color="#333333")
    if board.plates != "cards":
        y = row_y(PIN_3V3)
        s.line(PX_R + 5, y, 930, y, C_3V3)
        what = "→ 74HC165 VCC, pull-ups" if board.plates == "keys" else "→ CD4051 VDD, ladder top"
        s.text(934, y + 4, what, 10, "start", C_3V3, "bold")
    if board.plates == "dial":
        y = row_y(PIN_AGND)
        s.line(PX_R + 5, y, 930, y, C_GND)
        s.text(934, y + 4, "→ ladder bottom", 10, "start", C_GND, "bold")


def draw_budget(s, board, b, x, y):
    s.text(x, y, "Power budget (numbers from firmware/rp2port/pixels.py)", 16, "start", weight="bold")
    names = " + ".join("%d (%s)" % (c.pixels, c.name) for c in board.chains)
    lit_room = max(b["room"], 0)
    ext = external_supply(board)
    lines = [
        "Pixels: %s = %d WS2812B; each draws ≤ %d mA a channel (60 mA white) and ~%g mA dark."
        % (names, b["pixels"], pixels.MA_PER_CHANNEL, pixels.IDLE_UA_PER_PIXEL / 1000),
        "Worst case, everything full white at 100 %%: %.2f A. At this board's brightness %g: %.2f A lit + %d mA idle."
        % (b["white_full"] / 1000, board.brightness, b["white_board"] / 1000, b["idle"]),
        "Budget max_ma = %d mA − %d mA reserved (Pico, piezo) − %d mA idle = %d mA for lit LEDs."
        % (board.max_ma, pixels.RESERVED_MA, b["idle"], b["room"]),
        "Power limiter: when a frame would need more, the firmware dims every chain by the same factor.",
        "Full white here goes out at brightness %d‰ (%d %% under the limit, as the firmware does; not %d‰):"
        " about %d mA for the LEDs (lit + idle)."
        % (b["allowed"], pixels.HEADROOM // 10, b["permille"], b["capped"]) if b["allowed"] < b["permille"] else
        "Full white at brightness %d‰ fits the budget: the limiter never needs to dim." % b["permille"],
        ("Supply: %s. Rated at least max_ma (%d mA); USB alone would give only %d mA."
         % (supply_text(board), board.max_ma, USB_MA)) if ext else
        ("Supply: %s. A PC's USB port owes the box only the %d mA the Pico declares: that would not"
         " even cover the idle draw." % (supply_text(board), pixels.USB_DECLARED_MA)),
    ]
    if lit_room <= 0:
        lines.append("WARNING: max_ma does not even cover the idle current: the LEDs stay dark.")
    return s.lines(x, y + 22, lines, 12, color="#222222")


def draw_legend(s, board, x, y):
    s.text(x, y, "Legend", 16, "start", weight="bold")
    items = [(C_BUTTON, "buttons: GPIO → switch → GND (internal pull-up; pressed reads low)"),
             (C_LED, "LED data: 3.3 V GPIO → 74AHCT125 (5 V) → 330 Ω → DIN"),
             (C_PIEZO, "piezo: PWM, 100 Ω, driven directly (no transistor)"),
             (C_5V, "+5 V (LED rail)"), (C_GND, "GND (one common ground)"), (C_3V3, "3.3 V from the Pico")]
    if board.plates != "cards":
        items.insert(3, (C_PLATES, "electronic plates (%s)" % ("74HC165 keys" if board.plates == "keys"
                                                              else "CD4051 dial mux")))
    yy = y + 20
    for color, text in items:
        s.line(x, yy - 4, x + 30, yy - 4, color, 3)
        s.text(x + 40, yy, text, 11, "start", "#222222")
        yy += 17
    s.rect(x, yy - 10, 30, 12, C_WINDOW, C_BUTTON, 1, 2, "4 3")
    s.text(x + 40, yy, "button window GP%d–GP%d: the PIO samples it at once; nothing else there"
           % (board.button_base, board.button_base + board.button_width - 1), 11, "start", "#222222")
    yy += 17
    s.text(x, yy, "Pin labels: bold = used; grey = free; small numbers = physical pins.", 11, "start", "#222222")
    yy += 17
    layouts = sorted(set(d[2] for d in board.dice))
    if "serpentine" in layouts:
        s.text(x, yy, "serpentine matrix: px 0 top left, even rows left→right, odd rows right→left.",
               11, "start", "#222222")
        yy += 17
    if "rows" in layouts:
        s.text(x, yy, "rows matrix: px 0 top left, every row left→right.", 11, "start", "#222222")
        yy += 17
    s.text(x, yy, "Track: 7 score LEDs then the wheel LED%s." % (" (reversed)" if board.track_reversed else ""),
           11, "start", "#222222")
    return yy + 6


# -- files -------------------------------------------------------------------------
TABLE_BEGIN = "<!-- pin table: generated by host_tools/builder/wiring.py --table; do not edit by hand -->"
TABLE_END = "<!-- end of pin table -->"
PARTS_BEGIN = "<!-- parts: generated by host_tools/builder/wiring.py --parts; do not edit by hand -->"
PARTS_END = "<!-- end of parts -->"


def with_table(md_text, table, begin=TABLE_BEGIN, end=TABLE_END):
    """md_text with the text between the pin-table markers replaced (None if no markers)."""
    i = md_text.find(begin)
    j = md_text.find(end)
    if i < 0 or j < i:
        return None
    return md_text[:i + len(begin)] + "\n" + table + md_text[j:]


def with_tables(md_text, board):
    """The wiring notes with their pin table and (where marked) parts list made from the board."""
    new = with_table(md_text, pin_table(board))
    if new is None:
        return None
    parts = with_table(new, parts_table(board), PARTS_BEGIN, PARTS_END)
    return parts if parts is not None else new


def generate_all(boards_dir=BOARDS, out_dir=None, check=False):
    """Write (or with check, compare) every NAME.svg and NAME.md pin table; list of stale files."""
    boards_dir = Path(boards_dir)
    out_dir = Path(out_dir) if out_dir else boards_dir
    stale = []
    for path in sorted(boards_dir.glob("*.json")):
        board, spec = load(path)
        outputs = {out_dir / (path.stem + ".svg"): render_svg(board, spec)}
        md = boards_dir / (path.stem + ".md")
        if md.exists():
            new = with_tables(md.read_text(encoding="utf-8"), board)
            if new is not None:
                outputs[out_dir / md.name] = new
        for out, text in outputs.items():
            old = out.read_text(encoding="utf-8") if out.exists() else None
            if old != text:
                stale.append(out)
                if not check:
                    out.write_text(text, encoding="utf-8")
    return stale


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("board", nargs="?", help="a board file (boards/NAME.json)")
    ap.add_argument("-o", "--output", help="SVG file to write (default: stdout)")
    ap.add_argument("--table", action="store_true", help="print the Markdown pin table instead")
    ap.add_argument("--parts", action="store_true", help="print the Markdown parts list instead")
    ap.add_argument("--all", action="store_true", help="regenerate every boards/NAME.svg and NAME.md pin table")
    ap.add_argument("--check", action="store_true", help="with --all: only report stale files (exit 1)")
    args = ap.parse_args(argv)
    try:
        if args.all:
            stale = generate_all(check=args.check)
            for p in stale:
                print("%s %s" % ("stale:" if args.check else "wrote", os.path.relpath(p)))
            if not stale:        # say what was looked at, rather than nothing
                names = sorted(p.stem for p in Path(BOARDS).glob("*.json"))
                print("up to date: the wiring diagrams and pin tables of %s" % ", ".join(names))
            return 1 if (args.check and stale) else 0
        if not args.board:
            ap.error("give a board file, or --all")
        board, spec = load(args.board)
        text = pin_table(board) if args.table else parts_table(board) if args.parts else render_svg(board, spec)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    except (BoardError, WiringError) as e:
        print("wiring: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
