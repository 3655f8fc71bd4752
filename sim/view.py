"""The Cheese Box in a terminal, drawn with Rich from the LEDs' wire bytes.

The picture is decoded from what the NeoPixel chains would receive (colour
order and brightness applied by Adafruit's library, see wire.py), so a wrong
colour order or matrix layout in a board file looks wrong here as it would
on the real box.

snapshot(sim) prints one picture; play(board) is a game on the keyboard in
real time, or the demo scenario when there is no terminal to play in.
"""
import os
import sys
import time

from rich.console import Console
from rich.live import Live
from rich.text import Text

from sim.boxscreen import DARK, Screen, Seen, die_grid, track_leds
from sim.keys import ESC, PLATE_KEYS, Keys
from sim.scenario import ScenarioError, Sim, run_script
from sim.simport import ROLL_BIT
from sim import tunes
from sim.typed import sim_command
from sim.wire import WireEncoder

__all__ = ["DARK", "BoxView", "Game", "hint", "play", "snapshot"]
DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo.txt")
FPS = 25
TAP_US = 80000              # a key is a press this long
LONG_US = 2200000           # L: ROLL held past the box's 2 s long press

TUNES = dict((id(v), k) for k, v in tunes.table().items())     # the shell's and every game's

def hint(sim):
    """What the box wants now, in words: true for this moment of the game."""
    return BoxView(sim).screen.hint()


class BoxView:
    """Draws a simulated box from the bytes its LED chains receive, on the
    screen the emulated chip shares (sim/boxscreen.py); seen: what the box's
    log said (a Game's, following it), else the box alone."""

    def __init__(self, sim, seen=None):
        self.sim = sim
        self.seen = seen if seen is not None else Seen(sim.board, sim.elapsed_ms, box=lambda: sim.box)
        self.screen = Screen(sim.board, self.seen)
        self._frames = [None] * len(sim.board.chains)   # port frame last decoded
        self._pixels = [None] * len(sim.board.chains)

    def chains(self):
        """Every chain's pixels, decoded from the wire bytes back to RGB.

        Only chains the box showed again are encoded: it is the slow part."""
        board = self.sim.board
        rgb = self.sim.port.rgb
        enc = None
        for ci, c in enumerate(board.chains):
            if rgb[ci] is not self._frames[ci]:
                # a fresh encoder: wire.py's recorder is module-global, so
                # only the newest WireEncoder gets the bytes
                enc = enc or WireEncoder(board)
                self._frames[ci] = rgb[ci]
                self._pixels[ci] = WireEncoder.decode(enc.encode(ci, rgb[ci]), c.order, board.brightness)
        return self._pixels

    def die_grid(self, px, d):
        return die_grid(self.sim.board, px, d)

    def track(self, px, s):
        return track_leds(self.sim.board, px, s)

    def labels(self):
        return self.screen.labels(self.chains())

    def clock(self):
        return Text("t %.1f s" % (self.sim.elapsed_ms() / 1000.0), style="dim")

    def status(self):
        return self.screen.status(self.sim.result(), self.clock())

    def render(self, compact=False, width=80):
        """The whole box as it shows now: dice, tracks, status lines
        (compact: a list of lines without the blank ones between)."""
        return self.screen.render(self.chains(), self.sim.result(), self.clock(), compact, width)


def snapshot(sim, console=None):
    """Print one static picture of the box, as its LEDs show it now."""
    # In virtual time the box last looked at its clock at its last wake: one
    # loop pass now, as the Pico's loop would have run by now (blinks and
    # count/faces phases then match port.t). Nothing is redrawn on top: the
    # picture is what the wires carry.
    sim.box.step()
    (console or Console()).print(BoxView(sim).render())


class Game:
    """Keys to button edges on the sim's port, in the sim's virtual time.

    Every press is scheduled as raw edges (as fingers make them), never run
    ahead: the clock only follows the wall clock.
    """

    def __init__(self, sim, timing=False):
        self.sim = sim
        self.seen = Seen(sim.board, sim.elapsed_ms, box=lambda: sim.box)
        self._attach()                  # the box's log read as it is written
        self.view = BoxView(sim, self.seen)
        self.screen = self.view.screen
        self.pending = None     # "p" (penalty) or a station whose plate is picked
        self.said = "welcome to the Cheese Box"
        self._drawn = None      # what the last frame showed, see _changed()
        self.timing = timing    # --timing: the simulator's speed on screen
        self.frames = [0, 0.0]  # frames drawn, wall seconds spent drawing them
        self.wall0 = time.monotonic()
        self.t0 = sim.now_us

    def _attach(self):
        """Read every line the box logs from now on into the Seen (the log
        still goes wherever it went: a --log file, or nowhere)."""
        log = self.sim.log
        write = log.write

        def both(line):
            self.seen.line(line)
            if write is not None:
                write(line)
        log.write = both

    def _edges(self, *edges):
        t = self.sim.port.t
        for dt, bit, level in edges:
            self.sim.port.schedule(t + dt, bit, level)

    def key(self, k):
        """Act on one key; False to quit."""
        n = self.sim.board.stations
        pending, self.pending = self.pending, None
        station = "12345678"[:n].find(k) if len(k) == 1 else -1
        if k == ESC:
            return False
        if pending == "p":
            if station < 0:
                self.said = "gesture cancelled"
            else:
                self._edges((0, ROLL_BIT, 1), (400000, station, 1), (440000, station, 0),
                            (460000, ROLL_BIT, 0))
                self.said = "ROLL held, then P%d's buzzer" % (station + 1)
        elif pending is not None:
            if len(k) == 1 and k in "01234567":
                self.sim.port.place(pending, int(k))
                self.said = self.seen.host().keyed(self.seen, pending, k)
            else:
                self.said = "cancelled"
        elif station >= 0:
            self._edges((0, station, 1), (TAP_US, station, 0))
            self.said = "P%d buzzer" % (station + 1)
        elif k == " ":
            self._edges((0, ROLL_BIT, 1), (TAP_US, ROLL_BIT, 0))
            self.said = "ROLL"
            self.seen.roll_at_join()
        elif k in ("l", "L"):
            self._edges((0, ROLL_BIT, 1), (LONG_US, ROLL_BIT, 0))
            self.said = "ROLL held 2.2 s"
        elif k == "p":
            self.pending = "p"
            self.said = "ROLL held, then which buzzer? 1-%d" % n
        elif self.sim.board.electronic and k in PLATE_KEYS[:n]:
            self.pending = PLATE_KEYS.index(k)
            self.said = "P%d plate: which? 0-7" % (self.pending + 1)
        return True

    def help(self):
        """The keys, what the box wants now, and what is half typed."""
        return self.screen.help(self.said, self.pending, self.tune_text(),
                                [self.timing_text()] if self.timing else ())

    def timing_text(self):
        """--timing: how the simulator keeps up with the wall clock now."""
        return "timing: " + timing_line(self.sim, (self.sim.now_us - self.t0) / 1e6,
                                        time.monotonic() - self.wall0, self.frames)

    def short_help(self, width=80, room=2):
        """The keys in one line and what the box wants in the lines left."""
        return self.screen.short_help(self.said, self.pending, self.tune_text(), width, room)

    def tune_text(self):
        """The tune the box plays now, by name ("\u266a refused"), or ""."""
        tune = self.sim.box.tunes.tune
        if tune is None:
            return ""
        return "\u266a " + TUNES.get(id(tune), "%d Hz" % self.sim.port.freq)

    def frame(self, width=200, height=100):
        """The box beside the help panel; on a small terminal (80x24) the
        box with a short help below it, no borders."""
        v = self.view
        return self.screen.frame(v.chains(), self.sim.result(),
                                 "the Cheese Box - %s - seed %d" % (self.sim.board.name, self.sim.seed),
                                 self.said, self.pending, self.tune_text(), v.clock(),
                                 [self.timing_text()] if self.timing else (), width, height)

    def _changed(self):
        """True when a new frame would look different: a chain was shown, a
        key typed, a tune changed or the clock moved on a tenth. Drawing is
        the costly part, so an idle box is not redrawn."""
        sim = self.sim
        look = [sim.elapsed_ms() // 100, self.pending, self.said, self.seen.now_why(), self.seen.events,
                sim.box.tunes.tune,
                bytes(sim.box.plate)] + sim.port.rgb
        drawn, self._drawn = self._drawn, look
        return look != drawn

    def run(self, keys, live):
        """Follow the wall clock until Esc; keys act the moment they arrive."""
        sim = self.sim
        size = live.console.size
        wall0 = self.wall0 = time.monotonic()
        t0 = self.t0 = sim.now_us
        next_frame = wall0
        while True:
            for k in keys.read(max(0.0, next_frame - time.monotonic())):
                sim.run_until(t0 + int((time.monotonic() - wall0) * 1e6))
                if not self.key(k):
                    return
            now = time.monotonic()
            if now >= next_frame:
                sim.run_until(t0 + int((now - wall0) * 1e6))
                new_size = live.console.size
                if self._changed() or new_size != size:
                    size = new_size
                    d0 = time.perf_counter()
                    live.update(self.frame(size.width, size.height), refresh=True)
                    self.frames[0] += 1
                    self.frames[1] += time.perf_counter() - d0
                next_frame = max(next_frame + 1.0 / FPS, now)


def _demo_fits(board):
    """demo.txt plays three players with plate cards."""
    return not board.electronic and board.stations >= 3


def _no_terminal(sim, console):
    console.print("The interactive Cheese Box needs a terminal (keys are read from stdin).")
    if _demo_fits(sim.board):
        console.print("Playing the demo game %s in virtual time instead:" % os.path.relpath(DEMO))
        with open(DEMO) as f:
            try:
                run_script(sim, f.read())
            except ScenarioError as e:
                console.print("The demo does not fit these dice: %s" % e)
    snapshot(sim, console)
    return 0


def fresh_seed():
    """A new random seed for a session (printed, so the game can be replayed)."""
    return int.from_bytes(os.urandom(3), "big")


def replay_line(seed, argv):
    """The quit line: the command, as typed, that rolls this session's dice again."""
    return "seed %d: %s plays the same dice" % (seed, sim_command(list(argv) + ["--seed", str(seed)]))


def play(board, seed=None, dice=None, false_start_costs=False, console=None, log=None, timing=False,
         argv=None):
    """Play on the keyboard in real time; without a terminal, show the demo.
    Without a seed every session rolls fresh dice; the seed is printed.
    log: called with each event-log line; timing: the simulator's speed shown
    live and, at the end, virtual time against wall time on stderr.
    argv: this session's options, for the replay line."""
    console = console or Console()
    if seed is None:
        seed = fresh_seed()
    if argv is None:
        argv = ["--board", board.name]
    console.print("seed %d (replay this game's dice with --seed %d)" % (seed, seed), highlight=False)
    sim = Sim(board, seed=seed, dice=dice, false_start_costs=false_start_costs, log=log)
    wall0 = time.perf_counter()
    t0 = sim.now_us
    game = None
    if sys.stdin is None or not sys.stdin.isatty() or not console.is_terminal:
        code = _no_terminal(sim, console)
    else:
        game = Game(sim, timing=timing)
        size = console.size
        try:
            with Keys(sys.stdin) as keys, Live(game.frame(size.width, size.height), console=console,
                                               auto_refresh=False, redirect_stderr=False) as live:
                game.run(keys, live)
        except KeyboardInterrupt:
            pass
        code = 0
    if timing:
        wall = time.perf_counter() - wall0
        frames = game.frames if game is not None else None
        print(timing_line(sim, (sim.now_us - t0) / 1e6, wall, frames), file=sys.stderr)
    if game is not None:
        console.print(replay_line(seed, argv), highlight=False, markup=False, soft_wrap=True)
    return code


def timing_line(sim, virtual_s, wall_s, frames=None):
    """Virtual time against wall time (play follows the wall clock: below 1x
    the simulator fell behind it), and the box steps it took."""
    text = "virtual %.1f s in %.1f s wall: %.2fx real time, %d box steps" % (
        virtual_s, wall_s, virtual_s / wall_s if wall_s > 0 else 0.0, sim.steps)
    if frames:
        text += ", %d frames drawn (%.1f ms each)" % (frames[0], frames[1] * 1000.0 / max(1, frames[0]))
    return text
