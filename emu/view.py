"""`make emu`: the real firmware on the emulated Pico, behind the same
terminal view as `make sim`.

Keys press the buzzer and ROLL pins (and the 74HC165 answer keys, or turn
the dials on pico2-8p); the
picture is drawn from the WS2812 wire of each chain, decoded from the pins;
the status line comes from the box's event log on its USB serial port. The
emulator runs paced to the wall clock (it never runs ahead of it; when the
box is busy it may fall behind: the status line says how fast it goes).
"""
import sys
import time

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from cheesebox.board import TRACK_PIXELS
from emu.table import MS, EmuTable
from cheesebox.games import GAMES
from sim import games
from sim.keys import ESC, PLATE_KEYS, Keys
from sim.view import FPS, _led_style, track_line
from sim.wire import WireEncoder

TAP_MS = 80
LONG_MS = 2200
SPEED_WINDOW_S = 2.0    # the speed line: emulated s per wall s over the last 2 s

# the state each event leaves the box in (the rest leave it where it was)
_STATE_AFTER = {"boot": "join", "resume": "ready", "game": "ready", "roll": "rolling",
                "faces": "grab", "score": "ready", "winner": "game over", "market": "turn",
                "final": "final"}


def summary(events):
    """What `make sim` shows beside the picture, read from the box's log: the
    state, each player's points (Cheese Master) or money (Cheesonomics), and
    the plates locked this round. Returns three lines of text."""
    first = GAMES[0][0]                 # the game the box boots into
    state, points, plates, game = "join", {}, {}, first
    for e in events:
        k = e["ev"]
        if k == "boot":
            points, plates, game = {}, {}, first
        elif k == "pick":
            game = e.get("game", game)
        elif k == "game":
            points = dict((p, None) for p in e.get("players", []))
        elif k in ("resume", "score"):
            points.update(e.get("points", {}))
        elif k in ("penalty", "refused") and "points" in e:
            points[e["p"]] = e["points"]
        elif k == "roll":
            plates = {}
        elif k == "grab" and e.get("plate") is not None:
            plates[e["p"]] = e["plate"]
        elif k == "action" and "money" in e:
            points[e["p"]] = e["money"]
        elif k == "final":
            points.update(e.get("money", {}))
        state = _STATE_AFTER.get(k, state)
        if k == "action":
            state = "turn"
    word = games.named(game).SCORE_WORD
    pts = "  ".join("%s %s" % (p, "-" if v is None else v) for p, v in sorted(points.items()))
    pl = "  ".join("%s %s" % (p, v) for p, v in sorted(plates.items()))
    return ["state: %s (%s)" % (state, game), "%s: %s" % (word, pts or "-"),
            "plates this round: %s" % (pl or "-")]


SLOW = 0.9       # below this the view says the emulator runs slower than real time


class EmuView:
    """The emulated box as a picture: dice, tracks, what its log says."""

    def __init__(self, table):
        self.table = table
        self.board = table.board
        self.chip_name = "Pico 2" if table.board.mcu == "rp2350" else "Pico"
        self.said = "welcome to the Cheese Box (real firmware, emulated %s)" % self.chip_name
        self.pending = None
        self.wall0 = time.monotonic()
        self.emu0 = table.pico.nanos
        self.samples = []               # (wall s, emulated ns) for the speed line
        self.serial_url = None          # the emulated USB serial, as the host tools reach it

    def pixels(self):
        out = []
        for ci, c in enumerate(self.board.chains):
            wire = self.table.last_frame(ci)
            if len(wire) != c.pixels * 3:
                wire = bytes(c.pixels * 3)
            out.append(WireEncoder.decode(wire, c.order, self.board.brightness))
        return out

    def _dice(self, px):
        lines = []
        for first in (0, 3):
            rows = [Text() for _ in range(4)]
            for d in range(first, min(first + 3, len(self.board.dice))):
                ci, start, layout = self.board.dice[d]
                grid = [[px[ci][start + y * 8 + (x if layout == "rows" or y % 2 == 0 else 7 - x)]
                         for x in range(8)] for y in range(8)]
                for y in range(0, 8, 2):
                    row = rows[y // 2]
                    row.append("  " if d > first else "")
                    for x in range(8):
                        row.append("\u2580\u2580", _led_style(grid[y][x], grid[y + 1][x]))
            lines += rows + [Text()]
        return lines

    def _tracks(self, px):
        lines = []
        for s in range(self.board.stations):
            ci, start = self.board.tracks[s]
            leds = px[ci][start:start + TRACK_PIXELS]
            if self.board.track_reversed:
                leds = leds[::-1]
            lines.append(track_line(s, leds))
        return lines

    def speed(self):
        """Emulated s per wall s over the last SPEED_WINDOW_S: how fast it goes
        now, not since the start (a running average hid a 0.6x tumble)."""
        now = time.monotonic()
        self.samples.append((now, self.table.pico.nanos))
        while len(self.samples) > 2 and now - self.samples[1][0] >= SPEED_WINDOW_S:
            self.samples.pop(0)
        w0, e0 = self.samples[0]
        return (self.samples[-1][1] - e0) / 1e9 / (now - w0) if now > w0 else 0.0

    def status(self):
        t = self.table
        last = [e for e in t.events if e["ev"] not in ("press",)][-3:]
        emu_s = (t.pico.nanos - self.emu0) / 1e9
        speed = self.speed()
        head = Text("emulated %.1f s, %.2fx real time now" % (emu_s, speed), style="dim")
        if 0 < speed < SLOW:
            # the emulator cannot keep up with the wall clock: the box's own
            # times (tumble, grabs, the check's 3 s) pass slower than they read
            head.append("  slower than real time: the box's seconds last longer here than on a Pico"
                        " (a loaded machine, or the Pico 2's slower emulator)", style="bold yellow")
        lines = [Text(x, no_wrap=True, overflow="ellipsis") for x in summary(t.events)]
        if self.serial_url:
            lines.append(Text("USB serial: %s" % self.serial_url, style="bold", no_wrap=True, overflow="ellipsis"))
        log = [Text(" ".join("%s=%s" % (k, v) for k, v in e.items() if k not in ("v", "t")),
                    style="dim", no_wrap=True, overflow="ellipsis") for e in last]
        return [head] + lines + log + [Text("> " + self.said, style="italic")]

    def frame(self):
        px = self.pixels()
        keys = "1-%d buzzers  space ROLL  L ROLL held  p+1-%d penalty%s  Esc quit" % (
            self.board.stations, self.board.stations,
            ("  %s-%s then 0-7 answer %s" % (PLATE_KEYS[0], PLATE_KEYS[self.board.stations - 1],
                                           "dial" if self.board.plates == "dial" else "key"))
            if self.board.plates in ("keys", "dial") else "")
        return Panel(Group(*self._dice(px), *self._tracks(px), Text(), *self.status(),
                           Text(keys, style="cyan")),
                     title="the Cheese Box - %s - emulated %s" % (self.board.name, self.chip_name), expand=False)

    def key(self, k):
        """Act on one key: pins pressed now, let go a moment later."""
        t = self.table
        n = self.board.stations
        now = t.pico.nanos + MS
        pending, self.pending = self.pending, None
        station = "12345678"[:n].find(k) if len(k) == 1 else -1
        if k == ESC:
            return False
        if pending == "p":
            if station >= 0:
                roll = t.pin_of("roll")
                t.pico.schedule(pins=[(now, roll, 0), (now + 400 * MS, t.pin_of(station), 0),
                                      (now + 460 * MS, t.pin_of(station), None),
                                      (now + 480 * MS, roll, None)])
                self.said = "table penalty for P%d" % (station + 1)
        elif pending is not None:
            if len(k) == 1 and k in "01234567":
                t.place(pending, int(k), at_ns=now)
                self.said = "P%d %s %s" % (pending + 1, "turns the dial to" if self.board.plates == "dial"
                                           else "presses answer key", k)
        elif station >= 0:
            t.press_at(station, now, TAP_MS)
            self.said = "P%d buzzer" % (station + 1)
        elif k == " ":
            t.press_at("roll", now, TAP_MS)
            self.said = "ROLL"
        elif k in ("l", "L"):
            t.press_at("roll", now, LONG_MS)
            self.said = "ROLL held 2.2 s"
        elif k == "p":
            self.pending = "p"
            self.said = "penalty: which station?"
        elif self.board.plates in ("keys", "dial") and k in PLATE_KEYS[:n]:
            self.pending = PLATE_KEYS.index(k)
            self.said = "P%d answer %s: 0-7" % (self.pending + 1, "dial" if self.board.plates == "dial" else "key")
        return True


def serve_usb(table, view, out=sys.stderr):
    """The emulated USB serial on a free TCP port of localhost, as a Pico's
    /dev/ttyACM0: make monitor / make selftest / make flash PORT=socket://...
    and mpremote connect socket://... reach the box there while its buttons
    are pressed here. Runs the emulator freely in real time. The URL."""
    view.serial_url = "socket://127.0.0.1:%d" % table.pico.serve(0, pace=1.0)
    print("emu: the emulated %s's USB serial is %s\n"
          "  make monitor PORT=%s   make selftest PORT=%s   mpremote connect %s repl"
          % (view.chip_name, view.serial_url, view.serial_url, view.serial_url, view.serial_url),
          file=out, flush=True)
    return view.serial_url


def play(board_name, flash, console=None):
    """Interactive: the emulator runs in real time, keys act at once; its USB
    serial is served for the host tools (serve_usb)."""
    console = console or Console()
    table = EmuTable(board_name, flash=flash)
    try:
        table.boot()
        view = EmuView(table)
        serve_usb(table, view)
        with Keys(sys.stdin) as keys, Live(view.frame(), console=console, auto_refresh=False,
                                           screen=True) as live:
            while True:
                for k in keys.read(1.0 / FPS):
                    if not view.key(k):
                        return 0
                table._take()
                live.update(view.frame(), refresh=True)
    finally:
        table.close()


def headless(board_name, flash, script_text, console=None):
    """No terminal: the scenario's fingers on the emulated Pico, then one picture."""
    from emu.differential import play_on_pico, run_sim
    console = console or Console()
    t0 = time.monotonic()
    with EmuTable(board_name, flash=flash) as table:
        table.boot()
        _, _, fingers, _ = run_sim(table.board, script_text)
        events = play_on_pico(table, fingers)
        view = EmuView(table)
        view.emu0 = table.pico.nanos - (fingers.end - fingers.start) * 1000
        view.wall0 = t0
        view.said = "scenario played: %d events" % len(events)
        console.print(view.frame())
        return events
