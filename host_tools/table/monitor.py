#!/usr/bin/env python3
"""A live referee screen: follows a Cheese Box game from its event log.

  python host_tools/table/monitor.py --port auto           # the box on USB (2e8a:*)
  python host_tools/table/monitor.py --port /dev/ttyACM0
  python -m sim --script S.txt --log - 2>&1 | python host_tools/table/monitor.py
  python host_tools/table/monitor.py --file game.log --speed 1   # replay a saved log in real time
  python host_tools/table/monitor.py --file game.log --snapshot  # print the last screen as text

The screen a table looks at when someone says "I was first!": the faces and
the true count, who grabbed in which order, how many milliseconds after the
reveal and after the grab before (timed by the box's button sampler, in
microseconds), who was refused or false-started, penalties, own-ups, the
scores and tracks in the stations' colours, who is out and who rolls next.

A board that is unplugged is waited for and followed again when it is back
(the screen says so). A line the monitor does not understand is shown as it
came, never a crash. Ctrl-C leaves.

Exit codes: 0 done (end of the input, or Ctrl-C); 2 bad input: no board, a
busy or missing port, a file that cannot be read.
"""
import argparse
import collections
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

from host_tools.table import eventlog as EL  # noqa: E402

FEED_LINES = 10
SCORE_LEDS = 7


def _ms(v):
    """Every time on the screen in one form, to the microsecond the button
    stamps carry (grab gaps on the 16 us sampler grid need it)."""
    return "%.3f ms" % v


class Referee:
    """What the screen shows, updated one log line at a time (feed)."""

    def __init__(self):
        self.connection = ""
        self.board = None
        self.state = "waiting for the box"
        self.games = 0
        self.dice = []
        self.campaign = None
        self.players = []            # in the game, P1.. order
        self.points = {}
        self.out = []
        self.winner = None
        self.marked = None
        self.lost = {}               # last scored round
        self.round = 0
        self.result = None
        self.faces = None
        self.left = None
        self.reveal_t = None
        self.grabs = []              # (player, ms after reveal, gap text, plate)
        self.timeline = []           # (when, player, what)
        self.presses = {}            # player -> last press event (for the refused grab's time)
        self.last_grab = None
        self.feed = collections.deque(maxlen=FEED_LINES)
        self.events = 0
        self.unknown = 0
        self.noise = 0

    # -- input ----------------------------------------------------------------
    def status(self, msg):
        """A message about the connection (shown in the header and the feed)."""
        self.connection = msg
        self.feed.append(("status", msg))

    def feed_line(self, line):
        """One line from the box's console; never raises."""
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        try:
            kind, ev = EL.parse_line(line)
        except EL.LogError as e:
            self.unknown += 1
            self.feed.append(("unknown", "%s  (%s)" % (line.strip()[:90], e)))
            return
        if kind == "noise":
            self.noise += 1
            self.feed.append(("console", line.strip()[:100]))
            return
        if kind != "event":
            return
        self.events += 1
        try:
            self._event(ev)
        except Exception as e:       # a line that validates but makes no sense here
            self.unknown += 1
            self.feed.append(("unknown", "%s  (not followed: %s)" % (line.strip()[:90], e)))

    def _note(self, text):
        self.feed.append(("event", text))

    def _after_reveal(self, ev):
        """ms from the reveal to this press (t_us dated), or None before it."""
        if self.reveal_t is None:
            return None
        return EL.ticks_diff_f(EL.grab_ms(ev), self.reveal_t)

    def _event(self, ev):
        """Follow one event: its _ev_<name> method, else a line naming it."""
        handler = getattr(self, "_ev_" + ev["ev"], None)
        if handler is None:
            self._note(ev["ev"])
        else:
            handler(ev, ev.get("p"))

    # -- one method an event: (the event, its player or None) -------------------
    def _ev_boot(self, ev, p):
        self.board = ev["board"]
        self.state = "booted" + (": a saved game is offered (ROLL resumes)" if ev["resume"] else "")
        self._note("box started (%s)" % ev["board"])

    def _ev_join(self, ev, p):
        self.state = "joining"
        self._note("%s joins" % p)

    def _ev_leave(self, ev, p):
        self._note("%s leaves" % p)

    def _ev_game(self, ev, p):
        self.games += 1
        self.players = list(ev["players"])
        self.points = dict((q, 7) for q in self.players)
        self.dice = list(ev["dice"])
        self.campaign = ev["campaign"]
        self.out, self.winner, self.marked, self.lost = [], None, None, {}
        self._new_round(0)
        self.state = "game %d: ready to roll" % self.games
        self._note("game %d: %s" % (self.games, ", ".join(self.players)))

    def _ev_resume(self, ev, p):
        self.points = dict(ev["points"])
        self.players = sorted(self.points)
        self.out = [q for q, n in self.points.items() if n == 0]
        self._new_round(ev["round"])
        self.state = "resumed after round %d" % ev["round"]
        self._note("the saved game goes on after round %d" % ev["round"])

    def _ev_roll(self, ev, p):
        self._new_round(ev["round"])
        self.marked = None
        self.state = "round %d: the dice tumble" % ev["round"]
        self._note("round %d: roll" % ev["round"])

    def _ev_faces(self, ev, p):
        self.faces = list(ev["faces"])
        self.left = ev["left"]
        self.reveal_t = ev["t"]
        self.state = "round %d: grab!" % self.round
        self._note("faces: %s = %s" % (" ".join(self.faces), self._count()))

    def _ev_press(self, ev, p):
        self.presses[p] = ev

    def _ev_grab(self, ev, p):
        ms = self._after_reveal(ev)
        gap = "first"
        if self.last_grab is not None:
            gap = "+" + _ms(EL.ticks_diff(ev["t_us"], self.last_grab["t_us"]) / 1000.0)
        self.last_grab = ev
        self.grabs.append((p, ms, gap, ev["plate"]))
        self.timeline.append((ms, p, "grab #%d" % len(self.grabs)))
        self._note("%s grabs (#%d)%s" % (p, len(self.grabs),
                                         "" if ms is None else ", %s after the reveal" % _ms(ms)))

    def _ev_false_start(self, ev, p):
        self.timeline.append((None, p, "false start (the dice still tumbled)"))
        self._note("%s false start" % p)

    def _ev_refused(self, ev, p):
        press = self.presses.get(p)
        ms = self._after_reveal(press) if press else None
        self.timeline.append((ms, p, "refused: no plate placed (-1)"))
        self._lose(p, 1)
        self._note("%s refused (no plate): -1" % p)

    def _ev_penalty(self, ev, p):
        self.timeline.append((None, p, "penalty: %d -> %d" % (self.points.get(p, 0), ev["points"])))
        self.points[p] = ev["points"]
        if ev["points"] == 0 and p not in self.out:
            self.out.append(p)
        self._note("%s penalty: now %d" % (p, ev["points"]))

    def _ev_own_up(self, ev, p):
        own_up = ev["ev"] == "own_up"
        self.timeline.append((None, p, "owns up: card wrong" if own_up else "takes it back"))
        self._note("%s %s" % (p, "owns up" if own_up else "takes the own-up back"))

    _ev_take_back = _ev_own_up

    def _ev_score(self, ev, p):
        self.result = ev["result"]
        self.lost = dict(ev["lost"])
        self.points = dict(ev["points"])
        self.out = list(ev["out"])
        no_wheel = [q for q, n in self.lost.items() if n == 1 and not any(g[0] == q for g in self.grabs)]
        self.marked = no_wheel[0] if no_wheel and no_wheel[0] not in self.out else None
        self.state = "round %d %s" % (ev["round"], {"scored": "scored", "replay": "is a tie: replayed",
                                                     "gameover": "scored: game over"}[ev["result"]])
        lost = ", ".join("%s -%d" % (q, n) for q, n in sorted(self.lost.items())) or "nobody"
        self._note("round %d %s; lost: %s" % (ev["round"], ev["result"], lost))

    def _ev_winner(self, ev, p):
        self.winner = p
        self.out = list(ev["out"])
        self.marked = None
        self.state = "game over: %s wins" % p
        self._note("%s wins" % p)

    def _ev_stuck(self, ev, p):
        self._note("%s %s" % (ev["input"], "stuck: ignored until let go" if ev["ev"] == "stuck" else "let go"))

    _ev_unstuck = _ev_stuck

    def _ev_discard(self, ev, p):
        self._note("saved game dropped")

    def _ev_error(self, ev, p):
        self._note("box error: %s%s" % (ev["what"], (": " + ev["line"]) if "line" in ev else ""))

    def _ev_watchdog(self, ev, p):
        self._note("watchdog reset after %d ms" % ev["hung_ms"])

    def _ev_state(self, ev, p):
        self.state = "box state: %s" % ev["state"]
        if ev["points"]:
            self.points = dict(ev["points"])

    def _lose(self, p, n):
        if p in self.points:
            self.points[p] = max(0, self.points[p] - n)
            if self.points[p] == 0 and p not in self.out:
                self.out.append(p)

    def _new_round(self, number):
        self.round = number
        self.result = None
        self.faces = None
        self.left = None
        self.reveal_t = None
        self.grabs = []
        self.timeline = []
        self.presses = {}
        self.last_grab = None

    def _count(self):
        if self.left is None:
            return "?"
        return "7+" if self.left >= 7 else str(self.left)

    # -- the screen -----------------------------------------------------------
    def render(self, console=None):
        """The screen. With a console, the log gets the rows the rest leaves
        on the terminal (an 80x24 terminal still shows the round and players)."""
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text

        head = self._head()
        round_panel = self._round_panel()
        scores = self._scores()
        foot = Text("%d events, %d console lines, %d lines not understood"
                    % (self.events, self.noise, self.unknown), style="dim")
        rows = list(self.feed)
        if console is not None:
            used = len(console.render_lines(Group(head, round_panel, scores, foot), console.options,
                                            pad=False))
            room = max(1, console.height - used - 2)
            rows = rows[-room:]
        feed = Text()
        styles = {"status": "bold yellow", "unknown": "magenta", "console": "dim", "event": ""}
        for kind, text in rows:
            prefix = {"unknown": "? ", "console": "> ", "status": "! "}.get(kind, "  ")
            feed.append(prefix + text + "\n", style=styles[kind])
        feed.rstrip()
        return Group(head, round_panel, scores, Panel(feed, title="log", title_align="left"), foot)

    def _head(self):
        """The board, the game and the box's state."""
        from rich.text import Text
        head = Text()
        head.append("Cheese Box referee", style="bold")
        head.append("  board %s" % (self.board or "?"))
        if self.games:
            head.append("  game %d" % self.games)
        if self.campaign is not None:
            head.append(" (campaign game %d)" % self.campaign)
        if self.connection:
            head.append("  [%s]" % self.connection, style="yellow")
        head.append("\n" + self.state, style="bold cyan")
        if self.dice:
            head.append("\ndice: " + ", ".join(self.dice), style="dim")
        return head

    def _round_panel(self):
        """This round: the faces, the grabs in order, and what else happened since the roll."""
        from rich import box
        from rich.console import Group
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text
        rnd = Text()
        if self.faces is None:
            rnd.append("faces: (not shown yet)")
        else:
            rnd.append("faces: " + "  ".join(self.faces))
            rnd.append("   true count: ")
            rnd.append(self._count(), style="bold")
        grabs = Table(title="grabs, in order", title_justify="left", expand=False, box=box.SIMPLE_HEAD,
                      padding=(0, 1), pad_edge=False, show_edge=False)
        for col in ("#", "player", "after the reveal", "after the grab before", "plate"):
            grabs.add_column(col, justify="right" if col != "player" else "left")
        for i, (p, ms, gap, plate) in enumerate(self.grabs):
            grabs.add_row(str(i + 1), self._who(p), "-" if ms is None else _ms(ms), gap,
                          self._plate(plate))
        parts = [rnd, grabs]
        others = [(ms, p, what) for ms, p, what in self.timeline if not what.startswith("grab #")]
        if others:
            t = Table(title="also since the roll", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      show_edge=False)
            t.add_column("player")
            t.add_column("what")
            t.add_column("after the reveal", justify="right")
            for ms, p, what in others:
                t.add_row(self._who(p), what, "-" if ms is None else _ms(ms))
            parts.append(t)
        return Panel(Group(*parts), title="round %d" % self.round, title_align="left")

    def _scores(self):
        """The players: points as the score LEDs show them, last round's loss, notes."""
        from rich import box
        from rich.table import Table
        from rich.text import Text
        scores = Table(title="players", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col in ("player", "points", "", "last round", "note"):
            scores.add_column(col)
        for p in self.players:
            pts = self.points.get(p, 0)
            track = Text()
            colour = "rgb(0,170,40)" if pts >= 4 else "rgb(255,70,0)"
            track.append("\u25cf" * pts, style=colour)
            track.append("\u25cb" * (SCORE_LEDS - pts), style="grey35")
            note = []
            if p == self.winner:
                note.append("WINNER")
            if p in self.out:
                note.append("out (%d.)" % (self.out.index(p) + 1))
            if p == self.marked:
                note.append("rolls next")
            lost = self.lost.get(p)
            scores.add_row(self._who(p), str(pts), track, "-%d" % lost if lost else "",
                           ", ".join(note))
        return scores

    def _who(self, p):
        from rich.text import Text
        try:
            colour = EL.station_colour(p)
        except (ValueError, IndexError, TypeError):
            return Text(str(p))
        return Text(p, style="bold " + colour)

    def _plate(self, plate):
        if plate is None:
            return "card"
        mark = ""
        if self.left is not None:
            from cheesemaster.rules import answer_is_right
            mark = " right" if answer_is_right(plate, self.left) else " WRONG"
        return ("7+" if plate >= 7 else str(plate)) + mark

    def text(self, width=100):
        """The screen as plain text (for --snapshot and tests)."""
        from rich.console import Console
        c = Console(width=width, record=True, file=open(os.devnull, "w"), color_system=None)
        c.print(self.render())
        return c.export_text()


# -- sources --------------------------------------------------------------------
def file_lines(path, speed, sleep=time.sleep):
    """Lines of a saved log; with speed > 0, paced by the events' box clock."""
    with open(path, "rb") as f:
        data = f.read()
    last = None
    for raw in data.splitlines():
        line = raw.decode("utf-8", "replace")
        if speed > 0:
            try:
                kind, ev = EL.parse_line(line)
            except EL.LogError:
                kind = None
            if kind == "event":
                if last is not None:
                    gap = EL.ticks_diff(ev["t"], last) / 1000.0 / speed
                    if gap > 0:
                        sleep(min(gap, 5.0))
                last = ev["t"]
        yield line


def run(ref, lines, live, every=None, width=100, out=sys.stdout):
    """Feed every line to the referee; redraw a live screen as they come.
    Without a live screen, `every` (an event name) prints the screen as text
    each time that event comes: a round-by-round transcript."""
    if not live:
        shown = -1
        try:
            for line in lines:
                n = ref.events
                ref.feed_line(line)
                if every and ref.events > n and '"ev": "%s"' % every in line.replace('":"', '": "'):
                    out.write(ref.text(width))
                    out.flush()
                    shown = ref.events
        except KeyboardInterrupt:           # Ctrl-C: the screen as it is now
            pass
        if shown != ref.events:
            out.write(ref.text(width))          # the last screen, unless just printed
        return
    from rich.live import Live
    with Live(ref.render(), refresh_per_second=10, transient=False) as lv:
        for line in lines:
            ref.feed_line(line)
            lv.update(ref.render(lv.console))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="monitor.py", description=__doc__.split("\n")[0],
                                 epilog="Exit codes: 0 done or Ctrl-C, 2 no board, a busy or missing "
                                        "port, an unreadable file.")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--port", metavar="DEV", help="follow a board: 'auto' (the Pico on USB, "
                     "2e8a:*), a serial device, or a pyserial URL")
    src.add_argument("--file", metavar="LOG", help="a saved event log ('-': standard input, the default)")
    ap.add_argument("--speed", type=float, default=0.0,
                    help="--file: replay at this many times real time (default 0: at once)")
    ap.add_argument("--snapshot", action="store_true",
                    help="no live screen: print the last screen as text at the end")
    ap.add_argument("--snapshot-after", metavar="EVENT",
                    help="with --snapshot: also print the screen after every EVENT (e.g. score)")
    ap.add_argument("--width", type=int, default=100, help="--snapshot: text width (default 100)")
    ap.add_argument("--baud", type=int, default=115200, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    from host_tools.deploy import boardport
    ref = Referee()
    live = not args.snapshot and sys.stdout.isatty()
    try:
        if args.port:
            status = ref.status if live else (lambda m: (ref.status(m), print("monitor: " + m, file=sys.stderr)))
            lines = boardport.follow(args.port, args.baud, status=status)
            first = next(lines, None)          # opens the port now: a bad one fails here, not in Live
            lines = _chain(first, lines)
        elif args.file and args.file != "-":
            if not os.path.isfile(args.file):
                raise OSError(2, "no such file" if not os.path.exists(args.file) else "not a file",
                              args.file)
            lines = file_lines(args.file, args.speed)
        else:
            lines = sys.stdin
        run(ref, lines, live, args.snapshot_after, args.width)
    except boardport.PortError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("error: %s: cannot be read (%s)" % (e.filename or args.file, e.strerror or e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def _chain(first, rest):
    if first is not None:
        yield first
    for line in rest:
        yield line


if __name__ == "__main__":
    sys.exit(main())
