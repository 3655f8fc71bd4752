#!/usr/bin/env python3
"""A Wokwi simulator project (diagram.json + wokwi.toml) from a board file.

  python host_tools/builder/wokwi.py --all                 # boards/wokwi/pico-4p/ and pico-8p/
  python host_tools/builder/wokwi.py --all --check         # exit 1 if a committed project is stale
  python host_tools/builder/wokwi.py boards/pico-8p.json -o /tmp/w   # one board, into a folder

Wokwi (wokwi.com, or "Wokwi for VS Code") simulates a Raspberry Pi Pico
running the real MicroPython firmware with virtual parts. The project puts
on the diagram what the board file wires: a pushbutton per station buzzer
(keyboard 1-8, as in `make sim`) and ROLL (space bar), the piezo, the LED
chains as Wokwi's WS2812 parts in the board's pixel order (a 8x8 matrix per
die, an 8-pixel strip per station's track, a strip for any unused pixels so
every index lands where the firmware writes it) and, for answer keys, the
chain of 74HC165s with 8 keys a station and their pull-ups, wired as in the
board's wiring notes (key k on input D(7-k), station 1's chip nearest the
Pico). Everything comes from the board file, checked by the firmware's own
loader and host_tools/builder/wiring.py: tests/test_wokwi.py checks every pin of the
diagram against the board file and that regenerating changes nothing.

Boards with answer dials (CD4051 + ADC) or a Pico 2 are not offered: Wokwi
has no part for the dial's switch and multiplexer wiring used there.

Exit codes: 0 written (or up to date), 1 --check found a stale project,
2 a board file that cannot be read or has no Wokwi equivalent, or an output
folder whose parent does not exist.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

from host_tools.builder import wiring  # noqa: E402
from cheesebox.board import BoardError  # noqa: E402
from cheesebox.display import STATION  # noqa: E402

BOARDS = os.path.join(REPO, "boards")
OUT = os.path.join(BOARDS, "wokwi")
PROJECT_BOARDS = ("pico-4p", "pico-8p")
# MicroPython for the simulated Pico (Wokwi needs the .uf2 next to wokwi.toml;
# it is not in the repository: docs/host-tools.md says where to get it)
MICROPYTHON_UF2 = "RPI_PICO-20260406-v1.28.0.uf2"
RFC2217_PORT = 4000
BUZZER_KEYS = "12345678"
ROLL_KEY = " "
PULLUP_OHMS = "10000"


class WokwiError(Exception):
    """A board with no Wokwi project: the message says why (exit 2)."""


def _colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class Diagram:
    """Parts and connections, added in a fixed order (deterministic output)."""

    def __init__(self):
        self.parts = []
        self.connections = []

    def part(self, type_, id_, top, left, attrs=None, rotate=None):
        p = {"type": type_, "id": id_, "top": top, "left": left, "attrs": attrs or {}}
        if rotate:
            p["rotate"] = rotate
        self.parts.append(p)

    def wire(self, a, b, colour="green"):
        self.connections.append([a, b, colour, []])


def build(board):
    """The diagram dict of a checked Board."""
    if board.mcu != "rp2040":
        raise WokwiError("%s: mcu %s: the Wokwi project is made for the Raspberry Pi Pico (rp2040) only"
                         % (board.name, board.mcu))
    if board.plates == "dial":
        raise WokwiError("%s: answer dials (CD4051 + ADC) have no Wokwi part; boards with plate cards "
                         "or answer keys only" % board.name)
    d = Diagram()
    d.part("wokwi-pi-pico", "pico", 0, 0)
    gnd = "pico:GND.8"
    # buttons down the left side: stations, then ROLL
    for s, gp in enumerate(board.buzzers):
        bid = "buzzer%d" % (s + 1)
        d.part("wokwi-pushbutton", bid, -40 + 60 * s, -260,
               {"color": _colour(STATION[s]), "label": "P%d buzzer" % (s + 1),
                "key": BUZZER_KEYS[s]})
        d.wire("%s:1.r" % bid, "pico:GP%d" % gp, "blue")
        d.wire("%s:2.r" % bid, gnd, "black")
    y = -40 + 60 * len(board.buzzers)
    d.part("wokwi-pushbutton", "roll", y, -260, {"color": "white", "label": "ROLL", "key": ROLL_KEY})
    d.wire("roll:1.r", "pico:GP%d" % board.roll_pin, "blue")
    d.wire("roll:2.r", gnd, "black")
    d.part("wokwi-buzzer", "piezo", y + 80, -240, {"volume": "0.1"})
    d.wire("piezo:2", "pico:GP%d" % board.piezo_pin, "purple")
    d.wire("piezo:1", gnd, "black")
    # LED chains to the right, each in data order
    top = -260
    for ci, chain in enumerate(board.chains):
        prev = None
        left = 200
        for kind, index, start, count in wiring.segments(board, ci):
            if kind == "die":
                pid = "die%d" % (index + 1)
                layout = board.dice[index][2]
                d.part("wokwi-led-matrix", pid, top, left,
                       {"rows": "8", "cols": "8", "layout": "serpentine" if layout == "serpentine" else "",
                        "pixelShape": "circle"})
                left += 190
            elif kind == "track":
                pid = "track%d" % (index + 1)
                d.part("wokwi-led-strip", pid, top, left, {"pixels": str(count)})
                top += 40
            else:
                pid = "unused_%s_%d" % (chain.name, start)
                d.part("wokwi-led-strip", pid, top, left, {"pixels": str(count)})
                top += 40
            power = ("VDD", "VSS")
            if prev is None:
                d.wire("%s:DIN" % pid, "pico:GP%d" % chain.pin, "green")
            else:
                d.wire("%s:DOUT" % prev, "%s:DIN" % pid, "green")
            d.wire("%s:%s" % (pid, power[0]), "pico:VBUS", "red")
            d.wire("%s:%s" % (pid, power[1]), gnd, "black")
            prev = pid
        top += 220
    if board.plates == "keys":
        _keys(d, board, gnd)
    return {"version": 1, "author": "Cheese Box (generated by host_tools/builder/wokwi.py from boards/%s.json)"
            % board.name, "editor": "wokwi", "parts": d.parts, "connections": d.connections,
            "dependencies": {}}


def _keys(d, board, gnd):
    """8 answer keys a station through chained 74HC165s (boards/pico-8p.md)."""
    a = board.answers
    base = 420
    for s in range(board.stations):
        chip = "u%d" % (s + 1)
        row = base + 130 * s
        d.part("wokwi-74hc165", chip, row, -60)
        d.wire("%s:PL" % chip, "pico:GP%d" % a["load"], "orange")
        d.wire("%s:CP" % chip, "pico:GP%d" % a["clock"], "gold")
        d.wire("%s:CE" % chip, gnd, "black")
        d.wire("%s:VCC" % chip, "pico:3V3", "red")
        d.wire("%s:GND" % chip, gnd, "black")
        if s == 0:
            d.wire("%s:Q7" % chip, "pico:GP%d" % a["data"], "cyan")
        else:
            d.wire("%s:Q7" % chip, "u%d:DS" % s, "cyan")
        if s == board.stations - 1:
            d.wire("%s:DS" % chip, gnd, "black")
        for k in range(8):
            key = "key%d_%d" % (s + 1, k)
            res = "r%d_%d" % (s + 1, k)
            pin = "%s:D%d" % (chip, 7 - k)
            d.part("wokwi-pushbutton", key, row, 80 + 60 * k,
                   {"color": _colour(STATION[s]), "label": "P%d %s" % (s + 1, "7+" if k == 7 else k)})
            d.part("wokwi-resistor", res, row + 60, 80 + 60 * k, {"value": PULLUP_OHMS}, rotate=90)
            d.wire("%s:1.l" % key, pin, "blue")
            d.wire("%s:2.l" % key, gnd, "black")
            d.wire("%s:1" % res, pin, "blue")
            d.wire("%s:2" % res, "pico:3V3", "red")


def toml_text(board):
    return ("# Wokwi project for boards/%s.json, generated by host_tools/builder/wokwi.py: do not edit.\n"
            "# Put %s (MicroPython for the Pico) in this folder first\n"
            "# (docs/host-tools.md says where to get it and how to copy the firmware in).\n"
            "[wokwi]\nversion = 1\nfirmware = \"%s\"\nelf = \"%s\"\nrfc2217ServerPort = %d\n"
            % (board.name, MICROPYTHON_UF2, MICROPYTHON_UF2, MICROPYTHON_UF2, RFC2217_PORT))


def files(board):
    """{file name: text} of the project of a checked Board."""
    return {"diagram.json": json.dumps(build(board), indent=2) + "\n", "wokwi.toml": toml_text(board)}


def load(path):
    try:
        board, _ = wiring.load(path)
    except (BoardError, wiring.WiringError) as e:
        raise WokwiError(str(e))
    return board


def board_path(name):
    if os.sep in name or name.endswith(".json"):
        return name
    return os.path.join(BOARDS, name + ".json")


def write(board, folder, check=False):
    """Write (or with check: compare) the project; the names of stale files."""
    stale = []
    for name, text in files(board).items():
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except OSError:
            same = False
        if same:
            continue
        stale.append(path)
        if not check:
            os.makedirs(folder, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    return stale


def main(argv=None):
    ap = argparse.ArgumentParser(prog="wokwi.py", description=__doc__.split("\n")[0],
                                 epilog="Exit codes: 0 written or up to date, 1 --check: stale, "
                                        "2 bad board file or output folder.")
    ap.add_argument("board", nargs="?", help="a board name in boards/ or a board file")
    ap.add_argument("-o", "--out", metavar="DIR", help="output folder (default boards/wokwi/NAME)")
    ap.add_argument("--all", action="store_true", help="every board with a Wokwi project: %s"
                    % ", ".join(PROJECT_BOARDS))
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a project differs")
    args = ap.parse_args(argv)
    if bool(args.all) == bool(args.board):
        print("error: give a board, or --all", file=sys.stderr)
        return 2
    jobs = []
    try:
        if args.all:
            for name in PROJECT_BOARDS:
                jobs.append((load(board_path(name)), os.path.join(args.out or OUT, name)))
        else:
            board = load(board_path(args.board))
            jobs.append((board, args.out or os.path.join(OUT, board.name)))
        for board, folder in jobs:
            build(board)                       # refuses what Wokwi cannot show, before writing
        top = (args.out or OUT) if args.all else jobs[0][1]
        parent = os.path.dirname(os.path.abspath(top))
        if not os.path.isdir(parent):
            raise WokwiError("%s: the folder %s does not exist" % (top, parent))
        stale = []
        fresh = []
        for board, folder in jobs:
            got = write(board, folder, args.check)
            stale += got
            if not got:
                fresh.append((board, folder))
    except WokwiError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("error: %s: cannot be written (%s)" % (e.filename, e.strerror or e), file=sys.stderr)
        return 2
    for path in stale:
        print(("stale: %s" if args.check else "wrote %s") % _shown(path))
    for board, folder in fresh:      # a run that changed nothing still says what it looked at
        print("up to date: %s (%s)" % (_shown(folder), ", ".join(sorted(files(board)))))
    if args.check and stale:
        print("run: python host_tools/builder/wokwi.py --all", file=sys.stderr)
        return 1
    return 0


def _shown(path):
    """A path as the user can find it: inside the repository relative to it."""
    rel = os.path.relpath(os.path.abspath(path), REPO)
    return path if rel.startswith("..") else rel


if __name__ == "__main__":
    sys.exit(main())
