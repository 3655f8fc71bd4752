"""The bring-up self-test: what a builder checks before the first game.

Started by holding buzzer 1 while powering up (app.py), or by the console
line `selftest` at the joining screen (`make selftest PORT=...`,
host_tools/builder/selftest.py). Loaded only for it and dropped after: no game
carries it in its heap.

In turn: every chain lit pixel by pixel (a break in a chain shows where
the light stops), then all red, green, blue, white; each die its number
upright with coloured corners (red top left, green top right, blue bottom
left, white bottom right: a rotated or mirrored matrix is obvious); the
piezo sweeps; then every button, key and dial shows itself on its station's
track, which shows the station number (that many LEDs in the station's
colour), flags stuck and chattering inputs, and the board's power budget is
on the log. Each step is a "selftest" event (docs/event-log.md); WS2812s
answer nothing, so the host asks the builder what the LEDs showed.

Pure beyond the port: it runs on any port object (cheesebox/port.py).
"""
from array import array

from micropython import const

from cheesebox import font, ticks
from cheesebox.display import STATION, STUCK, Display, wire_index
from rp2port import pixels

_ROLL = const(8)
_STUCK_MS = const(5000)         # held this long: stuck
_CHATTER_EDGES = const(40)      # edges in one second: a chattering contact (a press bounces a few)
_END_HOLD_MS = const(3000)      # ROLL held this long ends the input check
_WHITE = (255, 255, 255)
COLOURS = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)), ("white", _WHITE))
CORNERS = ((0, 0, (255, 0, 0)), (7, 0, (0, 255, 0)), (0, 7, (0, 0, 255)), (7, 7, _WHITE))


def _name(i):
    return "ROLL" if i == _ROLL else "P%d" % (i + 1)


class Inputs:
    """The raw samples of the port (port.poll): levels and edge counts, no
    debouncing, so a chattering contact is seen as it is."""

    def __init__(self):
        self.level = 0
        self.edges = array("H", [0] * 9)        # this second's edges
        self.down_ms = array("i", [0] * 9)
        self.changes = 0                        # bits that changed since the last look

    def sample(self, bits, t_us):
        x = bits ^ self.level
        if x:
            self.level = bits
            self.changes |= x
            for i in range(9):
                if (x >> i) & 1 and self.edges[i] < 65535:
                    self.edges[i] += 1

    def restart(self, t_us):
        """Words were lost (the ring lapped): raw levels have no debounce to
        restart; the next word says where each pin is."""


def budget(board, permille):
    """The power numbers the firmware works with (pixels.PowerLimit)."""
    limit = pixels.PowerLimit([c.pixels for c in board.chains], board.max_ma, permille)
    for ci in range(len(board.chains)):
        limit.frame(ci, bytes([255]) * (board.chains[ci].pixels * 3))
    return {"max_ma": board.max_ma, "idle_ma": limit.idle_ma, "room_ma": limit.room_ma,
            "permille": permille, "white_permille": limit.target(limit.allowed())}


class SelfTest:
    def __init__(self, port, board, log, display=None, walk_ms=12, colour_ms=800,
                 input_ms=120000, permille=None):
        self.port = port
        self.board = board
        self.log = log
        self.d = display if display is not None else Display(board)
        self.walk_ms = walk_ms
        self.colour_ms = colour_ms
        self.input_ms = input_ms
        self.permille = permille if permille is not None else int(board.brightness * 1000)
        self.inputs = Inputs()

    def _console(self):
        """Read what is typed on the console meanwhile: a byte left waiting
        (the LF of the CRLF that ended `selftest`) would wake every sleep at
        once, and the core would spin through the whole self-test."""
        while self.port.read_line() is not None:
            self.port.write_line("cheesebox: console line ignored: the self-test is running")

    def _wait(self, ms):
        """Let ms pass (the port sleeps and feeds the watchdog); inputs keep coming."""
        port = self.port
        end = ticks.add(port.ticks_ms(), ms)
        while True:
            port.poll(self.inputs)
            self._console()
            left = ticks.diff(end, port.ticks_ms())
            if left <= 0:
                return
            port.idle(left)

    def _all(self):
        for ci in range(len(self.d.bufs)):
            self.port.show(ci, self.d.bufs[ci], 0, len(self.d.bufs[ci]))
        self.port.commit()

    def _fill(self, rgb):
        for buf in self.d.bufs:
            for j in range(0, len(buf), 3):
                buf[j] = rgb[0]
                buf[j + 1] = rgb[1]
                buf[j + 2] = rgb[2]
        self._all()

    def chains(self):
        """Every chain lit pixel by pixel: where the light stops, the chain is broken."""
        for ci in range(len(self.board.chains)):
            c = self.board.chains[ci]
            self._fill((0, 0, 0))
            self.log("selftest", {"step": "walk", "chain": c.name, "pixels": c.pixels})
            buf = self.d.bufs[ci]
            for p in range(c.pixels):
                j = p * 3
                if p:
                    buf[j - 3] = buf[j - 2] = buf[j - 1] = 0
                buf[j] = buf[j + 1] = buf[j + 2] = 255
                self.port.show(ci, buf, j - 3 if p else 0, j + 3)
                self.port.commit()
                self._wait(self.walk_ms)
        for name, rgb in COLOURS:
            self.log("selftest", {"step": "colour", "colour": name})
            self._fill(rgb)
            self._wait(self.colour_ms)

    def matrices(self):
        """Each die its number upright, and a colour in each corner."""
        d = self.d
        d.clear()
        for i in range(len(self.board.dice)):
            d.die(i, str(i + 1))
            view = d.views[i]
            layout = self.board.dice[i][2]
            for x, y, rgb in CORNERS:
                j = wire_index(layout, x, y) * 3
                view[j] = rgb[0]
                view[j + 1] = rgb[1]
                view[j + 2] = rgb[2]
        for s in range(self.board.stations):
            d.score(s, s + 1, STATION[s])
        self._all()
        self.log("selftest", {"step": "matrices", "dice": len(self.board.dice),
                              "corners": "red top left, green top right, blue bottom left, white bottom right"})

    def sweep(self):
        """The piezo from 200 Hz to 5 kHz: its resonance is where it is loudest."""
        self.log("selftest", {"step": "sweep", "from_hz": 200, "to_hz": 5000})
        for f in range(200, 5001, 100):
            self.port.tone(f)
            self._wait(25)
        self.port.tone(0)

    def check_inputs(self):
        """Every button, key and dial shows itself on its station's track."""
        port = self.port
        board = self.board
        n = board.stations
        inp = self.inputs
        d = self.d
        seq = bytearray(port.answer_seq)
        rows = bytearray(8)
        self.log("selftest", {"step": "inputs", "seconds": self.input_ms // 1000,
                              "plates": board.plates, "stations": n})
        start = port.ticks_ms()
        second = start
        flagged = 0
        chatter = 0
        roll_since = -1
        port.poll(inp)
        inp.changes = 0
        for i in range(9):
            if (inp.level >> i) & 1 and (i < n or i == _ROLL):
                inp.down_ms[i] = ticks.add(start, -_STUCK_MS)   # down before the check: stuck
        while ticks.diff(port.ticks_ms(), start) < self.input_ms:
            now = port.ticks_ms()
            port.poll(inp)
            ch = inp.changes
            inp.changes = 0
            for i in range(9):
                if i >= n and i != _ROLL:
                    continue
                bit = 1 << i
                down = inp.level & bit
                if ch & bit:
                    if down:
                        inp.down_ms[i] = now
                    elif flagged & bit:
                        flagged &= ~bit
                        self.log("selftest", {"step": "released", "input": _name(i)})
                    self.log("selftest", {"step": "input", "input": _name(i), "down": bool(down)})
                    if i < n:
                        d.wheel(i, _WHITE if down else (0, 0, 0))
                        d.score(i, i + 1, STATION[i])
                        if down:                # die 1 says who: P1..P8
                            d.pattern(0, font.rows_for("P%d" % (i + 1), rows), STATION[i], "P%d" % i)
                    elif down:
                        d.die(0, "check")
                if down and not flagged & bit and ticks.diff(now, inp.down_ms[i]) >= _STUCK_MS:
                    flagged |= bit
                    self.log("selftest", {"step": "stuck", "input": _name(i)})
                    if i < n:
                        d.score(i, 7, STUCK)
            if ticks.diff(now, second) >= 1000:
                for i in range(9):
                    if inp.edges[i] >= _CHATTER_EDGES and not (chatter >> i) & 1:
                        chatter |= 1 << i
                        self.log("selftest", {"step": "chatter", "input": _name(i),
                                              "edges": inp.edges[i]})
                    inp.edges[i] = 0
                second = now
            for s in range(n):
                if port.answer_seq[s] != seq[s]:
                    seq[s] = port.answer_seq[s]
                    k = port.answer_val[s]
                    self.log("selftest", {"step": "plate", "station": s + 1, "value": k,
                                          "kind": "dial" if board.plates == "dial" else "key"})
                    d.score(s, k + 1, (255, 200, 0))
                    d.pattern(0, font.rows_for("P%d" % (s + 1), rows), STATION[s], "P%d" % s)
                    d.pattern(1, font.rows_for(str(k), rows), (255, 200, 0), "v%d" % k)
            if inp.level & (1 << _ROLL):
                if roll_since < 0:
                    roll_since = now
                elif ticks.diff(now, roll_since) >= _END_HOLD_MS and not flagged & (1 << _ROLL):
                    break                       # the builder ends the check
            else:
                roll_since = -1
            d.flush(port)
            self._console()
            port.idle(50)
        d.clear()
        d.flush(port)

    def run(self):
        b = self.board
        self.log("selftest", {"step": "start", "board": b.name, "stations": b.stations,
                              "plates": b.plates,
                              "chains": [[c.name, c.pixels] for c in b.chains],
                              "budget": budget(b, self.permille)})
        self.chains()
        self.matrices()
        self._wait(self.colour_ms * 3)
        self.sweep()
        self.check_inputs()
        self.log("selftest", {"step": "end"})


def run(port, board, log, display=None, **timing):
    """The whole self-test (about a minute and the input check's time)."""
    SelfTest(port, board, log, display, **timing).run()
