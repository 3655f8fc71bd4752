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

The parts around the pins come from one description, circuit.describe(board)
(host_tools/builder/circuit.py): the parts list is made from it, the pin table
and the picture take their values from it, and every drawing of a part sits in
a <g data-part="KEY" data-qty="N"> group, so tests/test_wiring_parts.py can
check the picture against the list.

On top of board.py's checks, this refuses pins a Pico does not bring out to
its header (GP23, GP24, GP25, GP29 are used on the board itself) and an ADC
pin other than GP26-GP28.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from contextlib import contextmanager, nullcontext
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[2]

from rp2port import pixels  # noqa: E402
from cheesebox.board import MATRIX_PIXELS, TRACK_PIXELS, BoardError, load_board  # noqa: E402
from host_tools.builder.circuit import (NOT_COUNTED, USB_MA, USB_SOCKET_MA, charger_amps,  # noqa: E402,F401
                                        describe, external_supply, long_cables, supply_text)

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
WINDOW_D = 140      # the button window's shading reaches this far left of the Pico
LEGEND_X = 1010     # the legend's left edge (the power budget stops short of it)
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
    c = describe(board)
    guard = "%s in series, %s + %s to GND at the pin" % (c.value("r100"), c.value("c10n"), c.value("tvs"))
    if "r4k7" in c:
        guard += ", %s to 3V3" % c.value("r4k7")
    for i, g in enumerate(board.buzzers):
        rows.append((phys(g), "GP%d" % g, "Station %d buzzer" % (i + 1),
                     "buzzer switch NO (%s); its COM to GND (pressed = low)" % guard))
    rows.append((phys(board.roll_pin), "GP%d" % board.roll_pin, "ROLL button",
                 "button switch NO (%s); its COM to GND (pressed = low)" % guard))
    rows.append((phys(board.piezo_pin), "GP%d" % board.piezo_pin, "Piezo (PWM)",
                 piezo_text(c)))
    for ci, ch in enumerate(board.chains):
        a, y = AHCT125[ci % 4]
        first = segments(board, ci)[0]
        rows.append((phys(ch.pin), "GP%d" % ch.pin, "LED data, chain `%s` (%d px, %s)" % (ch.name, ch.pixels, ch.order),
                     "74AHCT125 %dA (pin %d); %dY (pin %d) → %s → DIN of %s"
                     % (ci % 4 + 1, a, ci % 4 + 1, y, c.value("r330"), seg_name(first))))
    if board.plates == "keys":
        a = board.answers
        rows.append((phys(a["load"]), "GP%d" % a["load"], "74HC165 load",
                     "%s, then SH/LD (pin 1) of every 74HC165 through its station's Schmitt buffer" % c.value("r33")))
        rows.append((phys(a["clock"]), "GP%d" % a["clock"], "74HC165 clock",
                     "%s, then CLK (pin 2) of every 74HC165 through its station's Schmitt buffer" % c.value("r33")))
        rows.append((phys(a["data"]), "GP%d" % a["data"], "74HC165 data in",
                     "%s, then QH (pin 9) of U1, the station 1 chip" % c.value("r100")))
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
        rows.append((PIN_VSYS, "VSYS", "Pico power in",
                     "+5 V rail through a Schottky diode (1N5817), anode at the rail"))
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


def piezo_text(c):
    """How the piezo is wired, in the circuit's values (the pin table's and the picture's words)."""
    return ("%s to the base of an NPN (%s); piezo from +5 V to its collector, %s across the piezo"
            % (c.value("r1k"), c.value("npn"), c.value("r1k")))


def part_rows(board):
    """(qty, part, notes) for every part the board needs (from its circuit description)."""
    return [(p.qty, p.name, p.notes) for p in describe(board).parts]


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
    if kind == "die":
        return "die %d" % (i + 1)
    return "station %d's track" % (i + 1) if kind == "track" else "spare pixels"


# -- SVG ---------------------------------------------------------------------------
class Svg:
    """SVG primitives and circuit symbols. Every symbol is drawn inside a part(key) group:
    the group's data-part names the parts-list row it stands for (data-qty: how many)."""

    def __init__(self):
        self.parts = []
        self.open_parts = 0

    def add(self, s):
        self.parts.append(s)

    @contextmanager
    def part(self, key, qty=1):
        """Everything drawn inside stands for qty of the parts list's part `key`."""
        self.add('<g data-part="%s" data-qty="%s">' % (key, qty))
        self.open_parts += 1
        try:
            yield
        finally:
            self.open_parts -= 1
            self.add("</g>")

    @contextmanager
    def symbol(self, kind):
        if not self.open_parts:
            raise ValueError("a %s drawn outside a part: the parts list would not name it" % kind)
        self.add('<g data-symbol="%s">' % kind)
        yield
        self.add("</g>")

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

    def dot(self, x, y, color):
        """A junction."""
        self.circle(x, y, 2.2, color, color, 1)

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
    def ground(self, x, y, color=C_GND, small=False):
        stem, half, dy = (3, (5, 3, 1), 2.5) if small else (7, (8, 5, 2), 3)
        self.line(x, y, x, y + stem, color)
        for i, h in enumerate(half):
            self.line(x - h, y + stem + dy * i, x + h, y + stem + dy * i, color, 1.5)

    def resistor(self, x1, x2, y, label, color):
        """A horizontal resistor between x1 < x2, label above."""
        with self.symbol("resistor"):
            self.rect(x1, y - 5, x2 - x1, 10, "#ffffff", color, 1.5)
        self.text((x1 + x2) / 2, y - 9, label, 10, "middle", color)

    def resistor_v(self, x, y1, y2, color):
        """A vertical resistor between y1 < y2 (its label is the caller's)."""
        with self.symbol("resistor"):
            self.rect(x - 4, y1, 8, y2 - y1, "#ffffff", color, 1.5)

    def pullup(self, x, y, color):
        """A resistor from the wire at (x, y) up to a 3V3 bar."""
        self.dot(x, y, color)
        self.line(x, y, x, y - 4, color, 1.5)
        self.resistor_v(x, y - 16, y - 4, color)
        self.line(x, y - 16, x, y - 20, C_3V3, 1.5)
        self.line(x - 6, y - 20, x + 6, y - 20, C_3V3, 2)

    def capacitor_v(self, x, y, color, ground=C_GND):
        """A capacitor from the wire at (x, y) down to ground (20 px tall)."""
        self.dot(x, y, color)
        with self.symbol("capacitor"):
            self.line(x, y, x, y + 5, color, 1.5)
            self.line(x - 6, y + 5, x + 6, y + 5, color, 2)
            self.line(x - 6, y + 8, x + 6, y + 8, color, 2)
            self.line(x, y + 8, x, y + 11, ground, 1.5)
        self.ground(x, y + 11, ground, small=True)

    def tvs_v(self, x, y, color):
        """A bidirectional TVS diode from the wire at (x, y) down to ground (21 px tall)."""
        self.dot(x, y, color)
        with self.symbol("tvs"):
            self.line(x, y, x, y + 3, color, 1.5)
            self.path([(x - 4, y + 3), (x + 4, y + 3), (x, y + 8), (x - 4, y + 3)], color, 1.2, "#ffffff")
            self.path([(x - 4, y + 13), (x + 4, y + 13), (x, y + 8), (x - 4, y + 13)], color, 1.2, "#ffffff")
            self.path([(x - 6, y + 6), (x - 5, y + 8), (x + 5, y + 8), (x + 6, y + 10)], color, 1.5)
            self.line(x, y + 13, x, y + 16, C_GND, 1.5)
        self.ground(x, y + 16, C_GND, small=True)

    def npn(self, xb, xc, y, color):
        """An NPN transistor: base from the side at (xb, y); collector up and emitter down at xc."""
        with self.symbol("npn"):
            self.circle((xb + xc) / 2, y, 13, "#ffffff", color, 1.5)
            self.line(xb, y - 8, xb, y + 8, color, 2.5)
            self.path([(xb, y - 4), (xc, y - 11), (xc, y - 22)], color, 1.5)
            self.path([(xb, y + 4), (xc, y + 11), (xc, y + 24)], color, 1.5)
            tx, ty = xb + 0.8 * (xc - xb), y + 9.6         # the emitter's arrow, pointing out
            ux, uy = (xc - xb) / 11.4, 7 / 11.4
            self.path([(tx - 5 * ux - 3 * uy, ty - 5 * uy + 3 * ux), (tx, ty),
                       (tx - 5 * ux + 3 * uy, ty - 5 * uy - 3 * ux)], color, 1.5, color)

    def piezo_v(self, x, y1, y2, color):
        """A piezo disc standing between y1 (bottom) and y2 (top)."""
        with self.symbol("piezo"):
            self.line(x, y1, x, y1 - 8, color, 1.5)
            self.line(x - 9, y1 - 8, x + 9, y1 - 8, color, 2)
            self.rect(x - 7, y1 - 18, 14, 8, "#f3e6f8", color, 1.2)
            self.line(x - 9, y1 - 20, x + 9, y1 - 20, color, 2)
            self.line(x, y1 - 20, x, y2, color, 1.5)

    def switch(self, x1, x2, y, color):
        """An open push switch between x1 < x2 (x1 side is the lever's hinge)."""
        with self.symbol("switch"):
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


def at(left, d):
    """x at distance d from the Pico's edge, on its left or right side."""
    return PX_L - d if left else PX_R + d


def span(left, d1, d2):
    """(x1, x2), x1 < x2, of what lies d1..d2 from the Pico's edge."""
    return tuple(sorted((at(left, d1), at(left, d2))))


def label_width(text, size, bold=False):
    """A conservative width of a label in FONT: size × characters × a per-character width
    wider than DejaVu Sans's average, plus a little for short capitals (GND, AGND)."""
    return size * (0.70 * len(text) + 0.25) if bold else size * (0.62 * len(text) + 0.5)


def wrap(text, width, size):
    """text in lines that fit width px at this size (by label_width)."""
    chars = max(20, int((width / size - 0.5) / 0.62))
    return textwrap.wrap(text, chars)


def render_svg(board, spec):
    """The wiring diagram of a checked board, as SVG text: every part its circuit names."""
    s = Svg()
    c = describe(board)
    draw_title(s, board, spec)
    bottom = draw_pico(s, board, c)
    draw_pin_circuits(s, board, c)
    y = draw_chains(s, board, c, bottom + 50)
    yb = draw_budget(s, board, budget(board), 24, y + 10)
    yl = draw_legend(s, board, c, LEGEND_X, y + 10)
    height = max(yb, yl) + 24
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="%s">\n<title>Cheese Box wiring: %s</title>\n'
            '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>\n'
            % (W, height, W, height, FONT, escape(board.name), W, height))
    return head + "\n".join(s.parts) + "\n</svg>\n"


def draw_title(s, board, spec):
    s.text(24, 40, "Cheese Box wiring: %s" % board.name, 26, weight="bold")
    y = s.lines(24, 66, wrap(spec.get("description", ""), W - 48, 14), 14, step=17, color="#333333")
    s.lines(24, y + 5, wrap("%s · %d stations · plates: %s · LED supply: %s · generated from boards/%s.json by "
                         "host_tools/builder/wiring.py (do not edit)"
                         % (MCUS.get(board.mcu, board.mcu), board.stations, board.plates, supply_text(board),
                            board.name), W - 48, 12), 12, step=15, color="#555555")


def pin_style(board, name, used):
    """(colour, weight) of a header pin's label."""
    gp = int(name[2:]) if name.startswith("GP") else None
    if gp is not None and gp in used:
        return pin_color(board, gp), "bold"
    return {"GND": C_GND, "AGND": C_GND, "VBUS": C_5V, "VSYS": C_5V, "3V3": C_3V3}.get(name, C_FREE), "normal"


def draw_pico(s, board, c):
    """The Pico, its 40 pins and the button window; returns the y of its bottom edge."""
    used = used_gpios(board)
    free_in_window = set(window_free(board))
    top, bottom = ROW0 - 40, row_y(20) + 30
    bw = board.button_base
    win_rows = [row_y(phys(g)) for g in range(bw, bw + board.button_width) if g in HEADER_GPIOS]
    with s.part("mcu"):
        s.rect(PX_L, top, PX_R - PX_L, bottom - top, "#f4f8ef", "#2e5e2e", 2, 8)
        s.text(PX_L + 82, (top + bottom) / 2, c.value("mcu"), 14, "middle", "#2e5e2e", "bold", rotate=-90)
    # from above the first row's pull-up to the last row's protection, clear of the row below
    s.rect(PX_L - WINDOW_D, min(win_rows) - 23, WINDOW_D + 67, max(win_rows) - min(win_rows) + 37, C_WINDOW,
           C_BUTTON, 1, 4, "4 3", 0.45)
    s.text(PX_L - WINDOW_D + 4, min(win_rows) - 27, "button window", 10, "start", C_BUTTON, "bold")
    s.rect((PX_L + PX_R) / 2 - 22, top - 12, 44, 22, "#cfcfcf", "#555555", 1.5, 3)
    s.text((PX_L + PX_R) / 2, top - 16, "USB (top view)", 10, "middle", "#555555")
    for p in range(1, 41):
        name = PICO_PINS[p - 1]
        y = row_y(p)
        gp = int(name[2:]) if name.startswith("GP") else None
        color, weight = pin_style(board, name, used)
        label = name + (" A%d" % (gp - 26) if gp in ADC_GPIOS else "")
        edge, sign, anchor = (PX_L, 1, "start") if left_side(p) else (PX_R, -1, "end")
        s.rect(edge - 5, y - 5, 10, 10, "#e8c547", "#8a6d00", 1)
        s.text(edge + sign * 9, y + 4, str(p), 9, anchor, "#777777")
        s.text(edge + sign * 27, y + 4, label, 12, anchor, color, weight)
        if gp in free_in_window:
            s.text(PX_L - 14, y + 4, "keep free", 10, "end", C_BUTTON)
    return bottom


def draw_pin_circuits(s, board, c):
    """What hangs on each used pin, and the supply."""
    for g in sorted(used_gpios(board)):
        p = phys(g)
        if g == board.roll_pin:
            draw_button(s, c, row_y(p), left_side(p), "ROLL button", "roll")
        elif g in board.buzzers:
            draw_button(s, c, row_y(p), left_side(p), "Station %d buzzer (60 mm)" % (board.buzzers.index(g) + 1),
                        "buzzer")
        elif g == board.piezo_pin:
            draw_piezo(s, c, row_y(p), left_side(p))
    lanes = [(ci, left_side(phys(ch.pin)), row_y(phys(ch.pin))) for ci, ch in enumerate(board.chains)]
    draw_shifters(s, c, lanes)
    if board.plates == "keys":
        draw_keys(s, board, c)
    elif board.plates == "dial":
        draw_dial(s, board, c)
    draw_power(s, board, c)


def draw_chains(s, board, c, y):
    """The LED chains below the Pico, in data order; returns the y below them."""
    s.text(24, y, "LED chains: data order on the wire (the first block is nearest the Pico)", 16, weight="bold")
    y += 14
    # lanes nest without crossing: the chain whose pin is highest gets the
    # outermost lane and the lowest panel
    order = sorted(range(len(board.chains)), key=lambda ci: -row_y(phys(board.chains[ci].pin)))
    lane_x = {}
    for k, ci in enumerate(sorted(range(len(board.chains)), key=lambda ci: row_y(phys(board.chains[ci].pin)))):
        lane_x[ci] = 22 + 12 * k
    for ci in order:
        draw_chain_panel(s, board, c, ci, y, lane_x[ci])
        y += 96
    return y


def pin_color(board, g):
    if g in board.buzzers or g == board.roll_pin:
        return C_BUTTON
    if g == board.piezo_pin:
        return C_PIEZO
    if any(c.pin == g for c in board.chains):
        return C_LED
    return C_PLATES


def draw_button(s, c, y, left, label, key):
    """A button pin: TVS and 10 nF to GND at the pin (a pull-up on long cables), 100 Ω, the switch to GND."""
    far = "end" if left else "start"        # labels on the side away from the Pico
    s.line(at(left, 5), y, at(left, 144), y, C_BUTTON)
    with s.part("tvs"):
        s.tvs_v(at(left, 14), y, C_BUTTON)
        s.text(at(left, 23), y + 10, c.value("tvs"), 8, far, C_BUTTON)
    with s.part("c10n"):
        s.capacitor_v(at(left, 46), y, C_BUTTON)
        s.text(at(left, 56), y + 10, c.value("c10n"), 8, far, C_BUTTON)
    if "r4k7" in c:
        with s.part("r4k7"):
            s.pullup(at(left, 92), y, C_BUTTON)
            s.text(at(left, 100), y - 8, c.value("r4k7"), 8, far, C_3V3)
    with s.part("r100"):
        s.resistor(*span(left, 144, 174), y, c.value("r100"), C_BUTTON)
    s.line(at(left, 174), y, at(left, 182), y, C_BUTTON)
    with s.part(key):
        x1, x2 = span(left, 182, 216)
        s.switch(x1, x2, y, C_BUTTON)
        s.line(at(left, 216), y, at(left, 236), y, C_GND)
        s.ground(at(left, 236), y)
        s.text(at(left, 254), y + 4, label, 12, far, C_BUTTON, "bold")


def draw_piezo(s, c, y, left):
    """The piezo pin → 1 kΩ → an NPN's base; the piezo, 1 kΩ across it, from +5 V to the collector."""
    far, near = ("end", "start") if left else ("start", "end")
    xb, xc = at(left, 410), at(left, 420)       # the transistor's base, its collector/emitter
    s.line(at(left, 5), y, at(left, WINDOW_D + 10), y, C_PIEZO)
    with s.part("r1k"):                     # outside the button window's shading
        s.resistor(*span(left, WINDOW_D + 10, WINDOW_D + 42), y, c.value("r1k"), C_PIEZO)
    s.line(at(left, WINDOW_D + 42), y, xb, y, C_PIEZO)
    with s.part("npn"):
        s.npn(xb, xc, y, C_PIEZO)
        s.text(at(left, 404), y + 20, c.value("npn"), 9, near, C_PIEZO)
    s.ground(xc, y + 24)
    with s.part("piezo"):
        s.piezo_v(xc, y - 22, y - 50, C_PIEZO)
        s.text(at(left, 408), y - 33, c.value("piezo"), 10, near, C_PIEZO)
    with s.part("r1k"):
        xr = at(left, 446)
        s.path([(xc, y - 22), (xr, y - 22), (xr, y - 28)], C_PIEZO, 1.5)
        s.path([(xr, y - 44), (xr, y - 50), (xc, y - 50)], C_PIEZO, 1.5)
        s.resistor_v(xr, y - 44, y - 28, C_PIEZO)
        s.text(at(left, 452), y - 33, c.value("r1k"), 10, far, C_PIEZO)
    s.dot(xc, y - 22, C_PIEZO)
    s.dot(xc, y - 50, C_PIEZO)
    s.line(xc, y - 50, xc, y - 56, C_5V, 1.5)
    s.line(xc - 7, y - 56, xc + 7, y - 56, C_5V, 2)
    s.text(at(left, 408), y - 54, "+5 V", 10, near, C_5V, "bold")
    s.text(at(left, 470), y + 4, "Piezo (PWM)", 12, far, C_PIEZO, "bold")


def draw_decoupling(s, c, x, y, color, label_left=True, qty=1):
    """A 100 nF from a chip's supply pin (at (x, y)) to GND; its label beside it."""
    with s.part("c100n", qty):
        s.capacitor_v(x, y, color)
        if label_left:
            s.text(x - 10, y + 10, "%s VCC–GND" % c.value("c100n"), 8, "end", color)
        else:
            s.text(x + 10, y + 10, "%s VCC–GND" % c.value("c100n"), 8, "start", color)


def draw_shifters(s, c, lanes):
    """One 74AHCT125 per side that has chains (100 nF at it); then 330 Ω; then up/down to the lane."""
    for side in (True, False):
        mine = [(ci, y) for ci, left, y in lanes if left == side]
        if not mine:
            continue
        ys = [y for _, y in mine]
        y1, y2 = min(ys) - 16, max(ys) + 16
        bx1, bx2 = (600, 660) if side else (920, 980)
        with s.part("ahct125"):
            s.rect(bx1, y1, bx2 - bx1, y2 - y1, "#eef7ee", C_LED, 1.5, 3)
            s.text((bx1 + bx2) / 2, y1 - 6, c.value("ahct125"), 11, "middle", C_LED, "bold")
        s.text((bx1 + bx2) / 2, y2 + 13, "VCC = 5 V", 9, "middle", C_LED)
        draw_decoupling(s, c, (bx1 + bx2) / 2, y2 + 20, C_LED, label_left=side)
        for ci, y in mine:
            n = ci % 4 + 1
            if side:
                s.line(PX_L - 5, y, bx2, y, C_LED)
                s.text(bx2 - 3, y - 3, "%dA" % n, 8, "end", C_LED)
                s.text(bx1 + 3, y - 3, "%dY" % n, 8, "start", C_LED)
                s.line(bx1 + 14, y, bx2 - 14, y, C_LED, 1)
                s.arrow(bx1 + 16, y, "left", C_LED, 4)
                s.line(bx1, y, 578, y, C_LED)
                with s.part("r330"):
                    s.resistor(546, 578, y, c.value("r330"), C_LED)
            else:
                s.line(PX_R + 5, y, bx1, y, C_LED)
                s.line(bx2, y, 1002, y, C_LED)
                with s.part("r330"):
                    s.resistor(1002, 1034, y, c.value("r330"), C_LED)


def chain_block(board, kind, i, start):
    """(fill, head, sub, part key) of a block on a chain."""
    if kind == "die":
        return "#fff5d6", "Die %d" % (i + 1), "8×8, %s" % board.dice[i][2], "matrix"
    if kind == "track":
        wheel = start + (0 if board.track_reversed else TRACK_PIXELS - 1)
        return "#e3f0ff", "Station %d" % (i + 1), "wheel = px %d" % wheel, "stick"
    return "#f0f0f0", "spare", "not shown", None


def draw_chain_panel(s, board, c, ci, y, lane):
    """Title + blocks of one chain at y; the data wire comes down lane x."""
    ch = board.chains[ci]
    p = phys(ch.pin)
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
    s.text(70, y + 12, "Chain '%s': GP%d → 74AHCT125 %dA/%dY → %s → DIN · %d pixels · colour order %s · "
           "+5 V and GND from the LED rail" % (ch.name, ch.pin, ai, ai, c.value("r330"), ch.pixels, ch.order), 13,
           color=C_LED, weight="bold")
    segs = segments(board, ci)
    widths = {"die": 104, "track": 84, "free": 84}
    gap = 16
    total = sum(widths[k] for k, *_ in segs) + gap * (len(segs) - 1)
    scale = min(1.0, (W - 90) / total)
    x = 66
    for k, (kind, i, start, n) in enumerate(segs):
        w = widths[kind] * scale
        fill, head, sub, key = chain_block(board, kind, i, start)
        with (s.part(key) if key else nullcontext()):
            s.rect(x, by, w, 52, fill, C_GND if kind != "free" else C_FREE, 1.2, 4,
                   None if kind != "free" else "4 3")
            s.text(x + w / 2, by + 16, head, 12, "middle", weight="bold")
            s.text(x + w / 2, by + 31, "px %d–%d" % (start, start + n - 1), 10, "middle", "#333333")
            s.text(x + w / 2, by + 45, sub, 9 if scale >= 0.9 else 8, "middle", "#555555")
        if k < len(segs) - 1:
            s.line(x + w, mid, x + w + gap, mid, C_LED, 2)
            s.arrow(x + w + gap - 2, mid, "right", C_LED, 4)
        x += w + gap


KEYS_X0, KEYS_CW, KEYS_CG = 1030, 58, 9     # the first station column, column width, gap


def draw_keys(s, board, c):
    a = board.answers
    rows = {k: row_y(phys(a[k])) for k in ("load", "clock", "data")}
    ys = sorted(rows.values())
    y1, y2 = ys[0] - 22, ys[-1] + 22
    n = board.stations
    if left_side(phys(a["load"])):      # not used by the boards we ship: a compact block, parts in the notes
        s.rect(420, y1, 120, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
        for k, y in rows.items():
            s.line(PX_L - 5, y, 540, y, C_PLATES)
            s.text(536, y - 3, HC165[k][0], 9, "end", C_PLATES)
        s.text(480, y1 - 6, "%d × 74HC165 (see notes)" % n, 11, "middle", C_PLATES, "bold")
        return
    for k, y in rows.items():
        key = "r100" if k == "data" else "r33"
        s.line(PX_R + 5, y, KEYS_X0, y, C_PLATES)
        with s.part(key):
            s.resistor(PX_R + 20, PX_R + 50, y, c.value(key), C_PLATES)
        s.text(PX_R + 58, y - 4, HC165[k][0] + " (pin %d)" % HC165[k][1], 9, "start", C_PLATES)
    for i in range(n):
        draw_key_station(s, c, i, KEYS_X0 + i * (KEYS_CW + KEYS_CG), y1, y2, rows, i + 1 < n)
    s.text(KEYS_X0, y1 - 74, "Answer keys: %d × 74HC165, chained (U1 nearest the Pico)" % n, 13, "start",
           C_PLATES, "bold")
    s.lines(KEYS_X0, y1 - 56, [
        "SH/LD and CLK reach every chip through its station's Schmitt buffer;",
        "QH of U(n+1) → SER (pin 10) of U(n). Key k → input D%s, other side to GND" % "(7−k)",
        "(key 0 = H pin 6 … key 7 = A pin 11), a %s pull-up to 3V3 on each input;" % c.value("r10k"),
        "CLK INH (15) and U%d's SER to GND; VCC = 3V3." % n,
    ], 10, color="#333333")


def draw_key_station(s, c, i, x, y1, y2, rows, chained):
    """Station i+1's column: its 74HC165, keys and pull-ups, and the Schmitt buffer CLK and SH/LD go through."""
    cw, cx = KEYS_CW, x + KEYS_CW / 2
    with s.part("hc165"):
        s.rect(x, y1, cw, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
        s.text(cx, y1 + 14, "U%d" % (i + 1), 11, "middle", C_PLATES, "bold")
        s.text(cx, y1 + 26, c.value("hc165"), 9, "middle", C_PLATES)
    with s.part("c100n"):
        s.text(cx, y1 + 38, c.value("c100n"), 8, "middle", "#333333")
    with s.part("keys", 8):
        s.text(cx, y1 + 50, c.value("keys"), 8, "middle", "#333333")
    with s.part("r10k", 8):
        s.text(cx, y1 + 62, "8 × %s" % c.value("r10k"), 8, "middle", "#333333")
    with s.part("lvc2g17"):
        s.rect(x + 3, y1 + 70, cw - 6, 52, "#fffaf2", C_PLATES, 1, 2)
        s.text(cx, y1 + 92, c.value("lvc2g17"), 8, "middle", C_PLATES)
        s.text(cx, y1 + 103, "Schmitt", 8, "middle", C_PLATES)
    with s.part("c100n"):
        s.text(cx, y1 + 117, c.value("c100n"), 8, "middle", "#333333")
    s.text(cx, y2 - 4, "station %d" % (i + 1), 8, "middle", "#333333")
    if chained:
        xn = x + cw
        for k, y in rows.items():
            s.line(xn, y, xn + KEYS_CG, y, C_PLATES, 2)
            if k == "data":     # QH of the next chip into SER of this one
                s.arrow(xn + 1, y, "left", C_PLATES, 3)


def draw_dial(s, board, c):
    a = board.answers
    rows = {k: row_y(phys(a[k])) for k in ("adc", "s0", "s1", "s2")}
    ys = sorted(rows.values())
    if any(left_side(phys(a[k])) for k in rows):     # not used by the boards we ship
        for k, y in rows.items():
            s.text(PX_L - 14, y + 4, "→ CD4051 %s (see notes)" % CD4051[k][0], 11, "end", C_PLATES, "bold")
        return
    x1, x2 = 1010, 1120
    y1, y2 = ys[0] - 22, ys[-1] + 22
    with s.part("cd4051"):
        s.rect(x1, y1, x2 - x1, y2 - y1, "#fff1e0", C_PLATES, 1.5, 3)
        s.text((x1 + x2) / 2, y1 - 8, "CD4051 (8:1 mux)", 12, "middle", C_PLATES, "bold")
    s.text((x1 + x2) / 2, y2 + 14, "VDD(16) = 3V3; VSS(8), VEE(7), INH(6) = GND", 9, "middle", C_PLATES)
    for k, y in rows.items():
        s.line(PX_R + 5, y, x1, y, C_PLATES)
        name, pkg = CD4051[k]
        s.text(x1 + 4, y + 4, "%s (%d)" % (name, pkg), 10, "start", C_PLATES)
    with s.part("c1n"):                  # COM to AGND
        s.capacitor_v(925, rows["adc"], C_PLATES)
        s.lines(935, rows["adc"] + 12, [c.value("c1n") + " C0G", "to AGND"], 9, step=10, color=C_PLATES)
    draw_decoupling(s, c, x1 + 16, rows["adc"] + 48, C_PLATES, label_left=False)     # between Y1 and Y2
    draw_dial_switches(s, board, c, x2, y1, y2)


def draw_dial_switches(s, board, c, x2, y1, y2):
    """The dials on the 4051's Y pins, and one resistor ladder for each."""
    n = board.stations
    step = (y2 - y1 - 30) / 7
    sy = [y1 + 15 + i * step for i in range(8)]
    lx = 1480                                  # the ladder's tap bus
    for ch in range(8):
        y = sy[ch]
        s.text(x2 - 4, y + 4, "Y%d (%d)" % (ch, CD4051_Y[ch]), 10, "end", C_PLATES)
        if ch < n:
            s.line(x2, y, 1160, y, C_PLATES)
            with s.part("rotary"):
                with s.symbol("rotary switch"):
                    s.circle(1172, y, 12, "#ffffff", C_PLATES, 1.5)
                    s.line(1172, y, 1180, y - 8, C_PLATES, 1.5)
                s.text(1190, y + 4, "Station %d %s" % (ch + 1, c.value("rotary")), 11, "start", C_PLATES, "bold")
            s.line(1296, y, lx, y, C_3V3, 3)
        else:
            s.text(x2 + 8, y + 4, "not used", 9, "start", C_FREE)
    s.text(1300, sy[0] - 10, "position k → its own Tk", 9, "start", C_3V3)
    # the ladders: one a dial, so a dial between two contacts moves no other dial
    s.rect(lx, y1, 110, y2 - y1, "#f8efe8", C_3V3, 1.5, 3)
    r1, r2 = c.value("r1k_ladder"), c.value("r2k")
    ladder = [(None, ["One ladder", "per dial (%d)" % n, "", "3V3 (pin 36)"]), ("r1k_ladder", [r1]), (None, ["T7"]),
              ("r2k", [r2, "T6", "⋮  (%s each)" % r2, "T1", r2]), (None, ["T0"]), ("r1k_ladder", [r1]),
              (None, ["AGND (pin 33)", "", "Tk = (2k+1)/16", "× 3.3 V"])]
    y = y1 + 18
    for key, texts in ladder:
        with (s.part(key, n * (7 if key == "r2k" else 1)) if key else nullcontext()):
            y = s.lines(lx + 55, y, texts, 10, anchor="middle", color=C_3V3)
    s.text(1140, y1 - 8, "1P8T rotary switches: common → Yn", 10, "start", C_PLATES, "bold")


def draw_rails(s, board, c, ext):
    """The +5 V LED rail (through the Schottky into VSYS on a supply) and the GND rail; their y."""
    yg = row_y(PIN_GND)
    with s.part("wire", NOT_COUNTED):
        if ext:
            yp = row_y(PIN_VSYS)
            s.line(PX_R + 5, yp, 930, yp, C_5V)
            s.line(960, yp, 1390, yp, C_5V, 3)
            s.line(930, yp, 940, yp, C_5V)
        else:
            yp = row_y(PIN_VBUS)
            s.line(PX_R + 5, yp, 1390, yp, C_5V, 3)
        s.line(PX_R + 5, yg, 1390, yg, C_GND, 3)
    if ext:
        with s.part("schottky"):           # pointing at VSYS
            with s.symbol("diode"):
                s.path([(960, yp - 8), (960, yp + 8), (940, yp), (960, yp - 8)], C_5V, 1.5, "#ffd9d9")
                s.line(938, yp - 8, 938, yp + 8, C_5V, 2)
            s.text(950, yp - 12, c.value("schottky"), 9, "middle", C_5V)
        s.text(PX_R + 14, row_y(PIN_VBUS) + 4, "VBUS: USB only (programming)", 10, "start", C_FREE)
    else:
        s.text(PX_R + 14, row_y(PIN_VSYS) + 4, "VSYS: not connected", 10, "start", C_FREE)
    s.text(1000, yp - 8, "+5 V LED rail", 12, "start", C_5V, "bold")
    s.text(1000, yg + 16, "GND rail (common ground)", 12, "start", C_GND, "bold")
    return yp, yg


def draw_power(s, board, c):
    """Supply, +5 V LED rail and GND rail at the top right; 3V3/AGND stubs."""
    ext = external_supply(board)
    yp, yg = draw_rails(s, board, c, ext)
    # the capacitor across the rails; on USB power the inrush limit (USB 2.0: 10 uF at plug-in)
    # rules out a bulk capacitor
    cx, cm = 1170, (yp + yg) / 2
    with s.part("c1000u" if ext else "c10u"):
        with s.symbol("capacitor"):
            s.line(cx, yp, cx, cm - 4, C_5V, 2)
            s.line(cx - 10, cm - 4, cx + 10, cm - 4, C_5V, 3)
            s.line(cx - 10, cm + 4, cx + 10, cm + 4, C_GND, 3)
            s.line(cx, cm + 4, cx, yg, C_GND, 2)
        s.text(cx - 14, cm - 5, "+", 11, "end", C_5V, "bold")
        s.text(cx + 16, cm + 4, c.value("c1000u") + " ≥ 6.3 V" if ext else c.value("c10u") + " (USB: no more)", 11,
               "start", "#333333", "bold")
    sx = 1390
    with s.part("supply"):
        s.rect(sx, yp - 18, 190, yg - yp + 36, "#fdecec", C_5V, 1.5, 4)
        if ext:
            s.text(sx + 95, yp + 3, c.value("supply"), 13, "middle", C_5V, "bold")
            s.text(sx + 95, (yp + yg) / 2 + 9, "+ at top, − at bottom", 9, "middle", "#333333")
        else:
            s.lines(sx + 95, yp - 2, [c.value("supply") + ",", "%d A or more, in the" % charger_amps(board),
                                      "Pico's USB socket", "(a PC port: notes)"], 11, anchor="middle", color=C_5V,
                    weight="bold")
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
    wrapped = [w for line in lines for w in wrap(line, LEGEND_X - x - 20, 12)]
    return s.lines(x, y + 22, wrapped, 12, color="#222222")


def legend_items(board, c):
    """(colour, text) of the legend's lines, in the circuit's values."""
    button = ("buttons: GPIO → %s → switch → GND (internal pull-up; pressed reads low);"
              % c.value("r100"), "%s + %s to GND at the pin%s" % (c.value("c10n"), c.value("tvs"), (
                  ", %s pull-up to 3V3 (long cables)" % c.value("r4k7")) if "r4k7" in c else ""))
    piezo = ("piezo: PWM → %s → %s base; the piezo, %s across it, from +5 V"
             % (c.value("r1k"), c.value("npn"), c.value("r1k")), "to the collector; the emitter to GND")
    items = [(C_BUTTON, button[0]), (None, button[1]),
             (C_LED, "LED data: 3.3 V GPIO → 74AHCT125 (5 V) → %s → DIN" % c.value("r330")),
             (C_PIEZO, piezo[0]), (None, piezo[1]),
             (C_5V, "+5 V (LED rail)"), (C_GND, "GND (one common ground)"), (C_3V3, "3.3 V from the Pico")]
    if board.plates != "cards":
        items.insert(5, (C_PLATES, "electronic plates (%s)" % ("74HC165 keys" if board.plates == "keys"
                                                              else "CD4051 dial mux")))
    return items


def draw_legend(s, board, c, x, y):
    s.text(x, y, "Legend", 16, "start", weight="bold")
    yy = y + 20
    for color, text in legend_items(board, c):
        if color:
            s.line(x, yy - 4, x + 30, yy - 4, color, 3)
        s.text(x + 40, yy, text, 11, "start", "#222222")
        yy += 17
    s.rect(x, yy - 10, 30, 12, C_WINDOW, C_BUTTON, 1, 2, "4 3")
    s.text(x + 40, yy, "button window GP%d–GP%d: the PIO samples it at once; nothing else there"
           % (board.button_base, board.button_base + board.button_width - 1), 11, "start", "#222222")
    yy += 17
    notes = ["Pin labels: bold = used; grey = free; small numbers = physical pins."]
    layouts = sorted(set(d[2] for d in board.dice))
    if "serpentine" in layouts:
        notes.append("serpentine matrix: px 0 top left, even rows left→right, odd rows right→left.")
    if "rows" in layouts:
        notes.append("rows matrix: px 0 top left, every row left→right.")
    notes.append("Track: 7 score LEDs then the wheel LED%s." % (" (reversed)" if board.track_reversed else ""))
    for text in notes:
        s.text(x, yy, text, 11, "start", "#222222")
        yy += 17
    if "ribbon" in c:
        with s.part("ribbon", NOT_COUNTED):
            for text in wrap("Cables: a %s to the stations, a ground wire between every two signals "
                             "(see the parts list)." % c.value("ribbon"), W - x - 16, 11):
                s.text(x, yy, text, 11, "start", "#222222")
                yy += 17
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
