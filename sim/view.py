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
import textwrap
import time

from rich.color import Color
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from cheesebox import sound
from cheesebox.board import TRACK_PIXELS
from cheesebox.display import STATION
from sim import games
from sim.keys import ESC, PLATE_KEYS, Keys
from sim.scenario import ScenarioError, Sim, run_script
from sim.simport import ROLL_BIT
from sim.typed import sim_command
from sim.why import Why
from sim.wire import WireEncoder

DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo.txt")
DARK = (40, 40, 40)         # an LED that is off: dim grey keeps the outline
DIM_FLOOR = 110             # a lit LED is drawn at least this bright
FPS = 25
TAP_US = 80000              # a key is a press this long
LONG_US = 2200000           # L: ROLL held past the box's 2 s long press

TUNES = dict((id(v), k.lower().replace("_", " ")) for k, v in vars(sound).items()
             if k.isupper() and isinstance(v, tuple))

HINTS = {        # the box's own screens; a game's are its host module's (sim/games.py)
    "join": "buzzers join and leave; ROLL starts (2 players or more); L (hold ROLL): the other game",
    "stop?": "stop the game? ROLL (space): stop, back to joining; a buzzer, L or 5 s: it goes on",
    "resume": "ROLL: resume the saved game; L (hold ROLL): a new game",
}
COMPACT_W = 112     # narrower (or lower) than this: help below the box, no borders
COMPACT_H = 30


def hint(sim):
    """What the box wants now, in words: true for this moment of the game."""
    box = sim.box
    state = box.state_name()
    text = None
    if box.game is not None and not box.asking:
        text = games.of(box).hint(sim, state)
    return HINTS.get(state, "") if text is None else text


def _rgb(c):
    """Terminal colour of an LED: off is DARK; a faintly lit LED (eliminated
    players glow (40, 0, 0)) is lifted to a visible shade of its hue, as a
    real LED at low power is still plainly on."""
    top = max(c)
    if top == 0:
        return Color.from_rgb(*DARK)
    if top < DIM_FLOOR:
        c = tuple(v * DIM_FLOOR // top for v in c)
    return Color.from_rgb(*c)


def _led_style(top, bottom):
    """A half-block cell: the upper LED as foreground, the lower as background."""
    key = (top, bottom)
    st = _STYLES.get(key)
    if st is None:
        st = _STYLES[key] = Style(color=_rgb(top), bgcolor=_rgb(bottom))
    return st


_STYLES = {}


def track_line(s, leds):
    """Station s's track as one line: its name, 7 score LEDs, the wheel LED."""
    line = Text()
    line.append("[%d] " % (s + 1), style="dim")
    line.append("P%d " % (s + 1), Style(color=Color.from_rgb(*STATION[s]), bold=True))
    for c in leds[:-1]:
        line.append("\u25cf ", Style(color=_rgb(c)))
    line.append(" wheel ", style="dim")
    line.append("\u25c9", Style(color=_rgb(leds[-1])))
    return line


class BoxView:
    """Draws a simulated box from the bytes its LED chains receive."""

    def __init__(self, sim):
        self.sim = sim
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
        """8 rows of 8 RGB pixels of die matrix d, as a player sees them."""
        ci, start, layout = self.sim.board.dice[d]
        pixels = px[ci]
        return [[pixels[start + y * 8 + (x if layout == "rows" or y % 2 == 0 else 7 - x)]
                 for x in range(8)] for y in range(8)]

    def track(self, px, s):
        """Station s's 8 track pixels: 7 score LEDs, then the wheel LED."""
        ci, start = self.sim.board.tracks[s]
        leds = px[ci][start:start + TRACK_PIXELS]
        return leds[::-1] if self.sim.board.track_reversed else leds

    def labels(self):
        """What each die means now, for the picked game and the screen it is
        on (the box's own screens first: "stop?", the offer to resume)."""
        box = self.sim.box
        state = box.state_name()
        if state == "stop?":
            return ["stop?", "", "ROLL: stop", "", "", ""]
        if state == "resume":
            return ["ROLL: resume", "L: new game", "", "", "", ""]
        out = games.of(box).labels(self, state) or [""] * 6
        if state == "join" and box.notice:      # the cross (and its code): see why
            out[0] = "problem"
            if box.notice_code:
                out[1] = "error code"
        return out

    def _dice_row(self, px, first):
        """Three dice side by side: a label line, then 4 lines of half blocks
        (2 columns an LED, so an 8x8 matrix comes out square)."""
        box = self.sim.box
        lines = [Text() for _ in range(5)]
        labels = self.labels()
        for d in range(first, first + 3):
            gap = "  " if d > first else ""
            name = "%d %s" % (d + 1, labels[d])
            name = name.ljust(16) if len(name) <= 16 else name[:15] + "\u2026"
            playing = games.of(box).in_play(box, d)
            lines[0].append(gap + name, style="bold" if playing else "dim")
            grid = self.die_grid(px, d)
            for y in range(0, 8, 2):
                line = lines[1 + y // 2]
                line.append(gap)
                for x in range(8):
                    line.append("\u2580\u2580", _led_style(grid[y][x], grid[y + 1][x]))
        return lines

    def _tracks(self, px):
        board = self.sim.board
        box = self.sim.box
        host = games.of(box)
        lines = []
        for s in range(board.stations):
            line = track_line(s, self.track(px, s))
            note = host.station_note(box, s) if board.electronic and box.game is not None else None
            if note:
                line.append("  " + note, style="dim")
            lines.append(line)
        return lines

    def status(self):
        """What the simulator knows that the LEDs only hint at: state, game,
        rounds, time; then the points (two lines, so nothing wraps mid-item)."""
        sim = self.sim
        r = sim.result()
        head = [Text(r["state"], style="bold reverse")]
        box = sim.box
        if r["state"] == "join":
            who = ["P%d" % (s + 1) for s in range(sim.board.stations) if box.joined[s]]
            head.append(Text("joined " + (" ".join(who) if who else "nobody yet")))
            head.append(Text("game " + box.module.NAME))
        lines = [head]
        if box.game is not None:
            games.of(box).status(box, r, head, lines)
        head.append(Text("t %.1f s" % (sim.elapsed_ms() / 1000.0), style="dim"))
        return [Text(" \u00b7 ").join(parts) for parts in lines]

    def render(self, compact=False):
        """The whole box as it shows now: dice, tracks, status lines
        (compact: a list of lines without the blank ones between)."""
        px = self.chains()
        if compact:
            return self._dice_row(px, 0) + self._dice_row(px, 3) + self._tracks(px) + self.status()
        return Group(*self._dice_row(px, 0), Text(), *self._dice_row(px, 3), Text(),
                     *self._tracks(px), Text(), *self.status())


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
        self.why = Why(sim).attach()    # says why a press did nothing or cost a point
        self.view = BoxView(sim)
        self.pending = None     # "p" (penalty) or a station whose plate is picked
        self.said = "welcome to the Cheese Box"
        self._drawn = None      # what the last frame showed, see _changed()
        self.timing = timing    # --timing: the simulator's speed on screen
        self.frames = [0, 0.0]  # frames drawn, wall seconds spent drawing them
        self.wall0 = time.monotonic()
        self.t0 = sim.now_us

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
                self.said = games.of(self.sim.box).keyed(self.sim.box, pending, k)
            else:
                self.said = "plate cancelled"
        elif station >= 0:
            self._edges((0, station, 1), (TAP_US, station, 0))
            self.said = "P%d buzzer" % (station + 1)
        elif k == " ":
            self._edges((0, ROLL_BIT, 1), (TAP_US, ROLL_BIT, 0))
            self.said = "ROLL"
            self.why.roll_at_join()
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
        n = self.sim.board.stations
        t = Table.grid(padding=(0, 2))
        t.add_column(style="bold cyan", no_wrap=True)
        t.add_column()
        box = self.sim.box
        for s in range(n):
            if box.game is None or box.joined[s]:      # in a game: the stations that play
                t.add_row(str(s + 1), Text("buzzer of P%d" % (s + 1), style=Style(color=Color.from_rgb(*STATION[s]))))
        t.add_row("space", "ROLL")
        t.add_row("L", "ROLL held 2.2 s")
        g = gesture(box)
        if g is not None:
            t.add_row(g[0], "ROLL held + buzzer (%s)" % g[2])
        keys = answer_keys(box) if self.sim.board.electronic else None
        if keys is not None:
            t.add_row("%s-%s 0-7" % (PLATE_KEYS[0], PLATE_KEYS[n - 1]), keys[1])
        t.add_row("Esc", "quit (also Ctrl-C)")
        body = [t, Text(), Text(hint(self.sim), style="italic"), Text()]
        why = self.why.now()
        if why:
            body.append(Text("why: " + why, style="bold red"))
        if self.pending == "p":
            body.append(Text("ROLL held: press 1-%d" % n, style="bold yellow"))
        elif self.pending is not None:
            body.append(Text("plate of P%d selected: press 0-7" % (self.pending + 1), style="bold yellow"))
        tune = self.tune_text()
        if tune:
            body.append(Text(tune, style="magenta"))
        body.append(Text("> " + self.said, style="dim"))
        if self.timing:
            body.append(Text(self.timing_text(), style="dim"))
        return Panel(Group(*body), title="keys", width=48)

    def timing_text(self):
        """--timing: how the simulator keeps up with the wall clock now."""
        return "timing: " + timing_line(self.sim, (self.sim.now_us - self.t0) / 1e6,
                                        time.monotonic() - self.wall0, self.frames)

    def short_help(self, width=80, room=2):
        """The keys in one line (at most 80 columns) and what the box wants
        in the lines left (`room`), wrapped at `width`: for 80x24."""
        n = self.sim.board.stations
        keys = Text()
        keys.append("1-%d" % n, "bold cyan")
        keys.append(" buzzer  ")
        keys.append("space", "bold cyan")
        keys.append(" ROLL  ")
        keys.append("L", "bold cyan")
        keys.append(" long ROLL  ")
        box = self.sim.box
        g = gesture(box)
        if g is not None:
            keys.append(g[0], "bold cyan")
            keys.append(" %s  " % g[1])
        what = answer_keys(box) if self.sim.board.electronic else None
        if what is not None:
            keys.append("%s-%s 0-7" % (PLATE_KEYS[0], PLATE_KEYS[n - 1]), "bold cyan")
            keys.append(" %s  " % what[0])
        keys.append("Esc", "bold cyan")
        keys.append(" quit")
        if self.pending == "p":
            said = Text("ROLL held: press 1-%d" % n, style="bold yellow")
        elif self.pending is not None:
            said = Text("plate of P%d selected: press 0-7" % (self.pending + 1), style="bold yellow")
        elif self.why.now():
            said = Text("why: " + self.why.now(), style="bold red")
        else:
            said = Text(hint(self.sim) + "  > " + self.said, style="italic")
        keys.no_wrap = True
        keys.overflow = "ellipsis"
        out = [keys]
        # the tune playing now leads the next line, never cut: the low buzz
        # of a refusal is the only sign of some (as in the wide panel)
        tune = self.tune_text()
        sign = tune + "  " if tune else ""
        # the hint wraps into the lines left, cut (with an ellipsis) only
        # when there are no more
        room = max(1, room - 1)
        lines = textwrap.wrap(sign + said.plain, width) or [""]
        if len(lines) > room:
            lines = lines[:room - 1] + [" ".join(lines[room - 1:])]
        for i, line in enumerate(lines):
            t = Text(line, style=said.style)
            if i == 0 and sign:
                t.stylize(Style(color="magenta", italic=False, bold=False), 0, len(tune))
            t.no_wrap = True
            t.overflow = "ellipsis"
            out.append(t)
        return out

    def tune_text(self):
        """The tune the box plays now, by name ("\u266a refused"), or ""."""
        tune = self.sim.box.tunes.tune
        if tune is None:
            return ""
        return "\u266a " + TUNES.get(id(tune), "%d Hz" % self.sim.port.freq)

    def frame(self, width=200, height=100):
        """The box beside the help panel; on a small terminal (80x24) the
        box with a short help below it, no borders."""
        if width < COMPACT_W or height < COMPACT_H:
            lines = self.view.render(compact=True)
            lines += self.short_help(width, height - len(lines) - (1 if self.timing else 0))
            if self.timing and len(lines) < height:
                t = Text(self.timing_text(), style="dim")
                t.no_wrap = True
                t.overflow = "ellipsis"
                lines.append(t)
            return Group(*lines)
        t = Table.grid(padding=(0, 3))
        t.add_column(width=56)      # fixed: a longer status line wraps, the frame stays put
        t.add_column()
        t.add_row(self.view.render(), self.help())
        return Panel(t, title="the Cheese Box - %s - seed %d" % (self.sim.board.name, self.sim.seed),
                     expand=False)

    def _changed(self):
        """True when a new frame would look different: a chain was shown, a
        key typed, a tune changed or the clock moved on a tenth. Drawing is
        the costly part, so an idle box is not redrawn."""
        sim = self.sim
        look = [sim.elapsed_ms() // 100, self.pending, self.said, self.why.now(), sim.box.tunes.tune,
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


def gesture(box):
    """What ROLL held + a buzzer does on this screen (the README's gesture
    table), as (the keys that do it, in a word, in words); None where it does
    nothing: the legend names only what the keys do now."""
    state = box.state_name()
    if state == "join":
        return "p 1/2", "light/sound", "1 brightness, 2 volume"
    if box.game is None or box.asking:
        return None                     # the offer to resume, "stop?": nothing of its own
    return games.of(box).gesture(box, state)


def answer_keys(box):
    """What the stations' keys or dials do on this screen, (in a word, in
    words); None where they do nothing (joining, between games)."""
    if box.game is None or box.asking:
        return None
    return games.of(box).answer_keys(box)
