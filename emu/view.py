"""`make emu`: the real firmware on the emulated Pico, on the screen of
`make sim` (sim/boxscreen.py).

Keys press the buzzer and ROLL pins (and the 74HC165 answer keys, or turn
the dials on pico2-8p); the picture is drawn from the WS2812 wire of each
chain, decoded from the pins, and each die's label read from its picture;
the state, points, hints and reasons come from the box's event log on its
USB serial port, read as the simulator reads its own. The emulator runs
paced to the wall clock (it never runs ahead of it; when the box is busy it
may fall behind: the view says how fast it goes, in words when slower).
"""
import sys
import time

from rich.console import Console
from rich.live import Live
from rich.text import Text

from emu.table import MS, EmuTable
from sim.boxscreen import Screen, Seen
from sim import tunes
from sim.keys import ESC, PLATE_KEYS, Keys
from sim.view import FPS
from sim.wire import WireEncoder

TAP_MS = 80
ROLL_CHECK_MS = 100     # ROLL at joining is judged this long after its release
LEAD_MS = 5             # a key's pins move this long after the emulator's time read
LONG_MS = 2200
SPEED_WINDOW_S = 2.0    # the speed line: emulated s per wall s over the last 2 s
TUNE_GAP_MS = 100       # silent this long: the tune is over (a tune's own rests are 50 ms at most)
SLOW = 0.9       # below this the view says the emulator runs slower than real time


class EmuView:
    """The emulated box on the simulator's screen (sim/boxscreen.py): the
    picture from its LED wires, the rest from its event log."""

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
        self.seen = Seen(table.board, lambda: table.pico.nanos / 1e6)
        self.screen = Screen(table.board, self.seen)
        self._fed = 0                   # events of table.events read into seen
        self._roll_check = None         # emulated ns after which a ROLL at joining is judged
        table.pico.watch_tone(table.board.piezo_pin)
        self._tones = 0                 # piezo changes read so far
        self.heard = []                 # the pitches of the tune playing (or last played), rests 0
        self.heard_at = None            # emulated ns of the last change
        self.tune_names = tunes.table()

    def follow(self):
        """The events the box logged since the last look, read into the screen."""
        events = getattr(self.table, "events", [])
        for e in events[self._fed:]:
            self.seen.feed(e)
        self._fed = len(events)
        if self._roll_check is not None and self.table.pico.nanos >= self._roll_check:
            self._roll_check = None
            self.seen.roll_at_join()        # still joining: why ROLL started nothing

    def tune_text(self):
        """The tune the chip plays now, by name as make sim says it ("\u266a refused"),
        told from the pitches on its piezo pin; its pitch while it could be more
        than one; "" once the piezo has been silent TUNE_GAP_MS."""
        pico = self.table.pico
        new = pico.tones(self._tones)
        self._tones += len(new)
        names = self.tune_names
        for t, hz in new:
            gap = self.heard_at is not None and t - self.heard_at >= TUNE_GAP_MS * MS
            if not self.heard or (gap and not self.heard[-1]):
                self.heard = []                     # a new tune after a silence
            heard = self.heard + [hz]
            if hz and not tunes.starting(heard, names):
                heard = [hz]                        # another tune cut in
            self.heard = heard if (hz or self.heard) else []
            self.heard_at = t
        sound = list(self.heard)
        while sound and not sound[-1]:
            sound.pop()
        silent = not self.heard or not self.heard[-1]
        if not sound or (silent and pico.nanos - self.heard_at >= TUNE_GAP_MS * MS):
            return ""
        name = tunes.named(sound, names, ended=silent)
        return "\u266a " + (name if name else "%d Hz" % sound[-1])

    def pixels(self):
        out = []
        for ci, c in enumerate(self.board.chains):
            wire = self.table.shown(ci, c.pixels * 3)
            out.append(WireEncoder.decode(wire, c.order, self.board.brightness))
        return out

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
        """The emulator's own lines: its speed now (in words when it is slower
        than real time), the USB serial it serves."""
        t = self.table
        emu_s = (t.pico.nanos - self.emu0) / 1e9
        speed = self.speed()
        head = Text("emulated %.1f s, %.2fx real time now" % (emu_s, speed), style="dim")
        if 0 < speed < SLOW:
            # the emulator cannot keep up with the wall clock: the box's own
            # times (tumble, grabs, the check's 3 s) pass slower than they read
            head.append("  slower than real time: the box's seconds last longer here than on a Pico"
                        " (a loaded machine, or the Pico 2's slower emulator)", style="bold yellow")
        lines = [head]
        if self.serial_url:
            lines.append(Text("USB serial: %s" % self.serial_url, style="bold"))
        return lines

    def frame(self, width=200, height=100):
        """The simulator's screen, of the emulated chip."""
        self.follow()
        emu_s = (self.table.pico.nanos - self.emu0) / 1e9
        return self.screen.frame(self.pixels(), self.seen.result(),
                                 "the Cheese Box - %s - emulated %s" % (self.board.name, self.chip_name),
                                 self.said, self.pending, self.tune_text(), Text("t %.1f s" % emu_s, style="dim"),
                                 self.status(), width, height)

    def _now(self):
        """When a key's pins move: a moment from the emulator's time now.
        Running freely (make emu), the time of the last answer can be a
        frame old: a press and its release both in the past then land at the
        same instant, in either order (a ROLL left held: "stuck")."""
        pico = self.table.pico
        pico.call("hello")                  # any answer brings the emulator's time
        return pico.nanos + LEAD_MS * MS

    def key(self, k):
        """Act on one key: pins pressed now, let go a moment later."""
        t = self.table
        n = self.board.stations
        now = self._now()
        pending, self.pending = self.pending, None
        station = "12345678"[:n].find(k) if len(k) == 1 else -1
        electronic = self.board.plates in ("keys", "dial")
        if k == ESC:
            return False
        self.follow()
        if pending == "p":
            if station < 0:
                self.said = "gesture cancelled"
            else:
                roll = t.pin_of("roll")
                t.pico.schedule(pins=[(now, roll, 0), (now + 400 * MS, t.pin_of(station), 0),
                                      (now + 460 * MS, t.pin_of(station), None),
                                      (now + 480 * MS, roll, None)])
                self.said = "ROLL held, then P%d's buzzer" % (station + 1)
        elif pending is not None:
            if len(k) == 1 and k in "01234567":
                t.place(pending, int(k), at_ns=now)
                self.said = self.seen.host().keyed(self.seen, pending, k)
            else:
                self.said = "cancelled"
        elif station >= 0:
            t.press_at(station, now, TAP_MS)
            self.said = "P%d buzzer" % (station + 1)
        elif k == " ":
            t.press_at("roll", now, TAP_MS)
            self.said = "ROLL"
            if self.seen.state_now() == "join":
                # judged once the box has had the release (a slow emulator
                # may not have had the last join yet)
                self._roll_check = now + (TAP_MS + ROLL_CHECK_MS) * MS
        elif k in ("l", "L"):
            t.press_at("roll", now, LONG_MS)
            self.said = "ROLL held 2.2 s"
        elif k == "p":
            self.pending = "p"
            self.said = "ROLL held, then which buzzer? 1-%d" % n
        elif electronic and k in PLATE_KEYS[:n]:
            self.pending = PLATE_KEYS.index(k)
            self.said = "P%d %s: which? 0-7" % (self.pending + 1, "dial" if self.board.plates == "dial" else "key")
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
        size = console.size
        with Keys(sys.stdin) as keys, Live(view.frame(size.width, size.height), console=console,
                                           auto_refresh=False, screen=True) as live:
            while True:
                for k in keys.read(1.0 / FPS):
                    if not view.key(k):
                        return 0
                table._take()
                size = live.console.size
                live.update(view.frame(size.width, size.height), refresh=True)
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
        console.print("the Cheese Box - %s - emulated %s" % (table.board.name, view.chip_name))
        console.print(view.frame(console.size.width, 100))
        return events
