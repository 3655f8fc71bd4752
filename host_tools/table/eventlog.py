#!/usr/bin/env python3
"""Read the Cheese Box event log and summarize the games in it.

The box prints one JSON line per game event on its USB serial console
(format version 1, docs/event-log.md). This tool reads those lines, checks
each against the format, and prints a summary: games, rounds, the winner,
each player's points over the rounds, grabs and reaction times, false
starts, penalties, refused grabs and stuck buttons. Over many saved logs
(a night, a month) --report writes game-night statistics (nightstats.py).

Usage:
  python host_tools/table/eventlog.py --file game.log          # a saved log
  python -m sim --script S.txt --log - 2>&1 | python host_tools/table/eventlog.py
  python host_tools/table/eventlog.py --port auto              # live from a Pico (Ctrl-C: summary)
  python host_tools/table/eventlog.py --file game.log --json   # the summary as JSON
  python host_tools/table/eventlog.py --file game.log --plot game.png   # needs matplotlib
  python host_tools/table/eventlog.py --file *.log --report DIR          # DIR/report.html + PNGs

--port auto is the Pico by its USB id (Raspberry Pi, 2e8a:*), never another
serial port; without one: "no board", exit 2 (boardport.py).

Lines that are not JSON objects (the MicroPython banner, "cheesebox: ..."
messages, a REPL prompt) are console noise: skipped and counted. A line that
looks like an event ('{...') but is not valid JSON or does not follow the
format is malformed: a warning on stderr, counted, skipped; reading goes on.

Exit codes: 0 done, 1 nothing readable in the input (no event at all),
2 bad arguments, the port/file cannot be opened, or an output folder is missing.
Stdlib only for the summary; pyserial (pulled in by mpremote) for --port,
matplotlib for --plot and --report (both imported only when asked for).
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

from host_tools.table.logformat import (EVENTS, VERSION, LogError, grab_ms, parse_line,  # noqa: E402,F401
                       station_colour, ticks_diff, ticks_diff_f, validate)


# -- the summary --------------------------------------------------------------
class Summary:
    """Follows the events one at a time; result() gives the summary dict."""

    def __init__(self):
        self.events = 0
        self.malformed = 0
        self.noise = 0
        self.boots = 0
        self.watchdog_resets = 0
        self.errors = []
        self.stuck = []
        self.games = []
        self.players = {}
        self.game = None           # the game being played
        self.faces_t = None        # box ms of the last reveal in this game

    def _player(self, p):
        if p not in self.players:
            self.players[p] = {"grabs": 0, "reaction_ms": [], "false_starts": 0,
                               "penalties": 0, "refused": 0, "own_ups": 0, "take_backs": 0,
                               "wins": 0}
        return self.players[p]

    def _new_game(self, players, dice=None, campaign=None, resumed=False, points=None):
        g = {"number": len(self.games) + 1, "players": list(players), "dice": dice or [],
             "campaign": campaign, "resumed": resumed, "rounds": 0, "replays": 0,
             "winner": None, "finished": False, "out": [],
             "points": dict((p, []) for p in players),
             "final_points": dict(points or {}), "start_points": dict(points or {}),
             "grabs": dict((p, 0) for p in players)}
        self.games.append(g)
        self.game = g
        self.faces_t = None
        for p in players:
            self._player(p)
        return g

    def add(self, ev):
        """One validated event."""
        self.events += 1
        name = ev["ev"]
        g = self.game
        if name == "boot":
            self.boots += 1
            self.game = None
            self.faces_t = None
        elif name == "watchdog":
            self.watchdog_resets += 1
        elif name == "game":
            self._new_game(ev["players"], ev["dice"], ev["campaign"],
                           points=dict((p, 7) for p in ev["players"]))
        elif name == "resume":
            if g is None or g["finished"]:
                g = self._new_game(sorted(ev["points"]), resumed=True)
                g["start_points"] = dict(ev["points"])
            g["final_points"] = dict(ev["points"])
        elif name == "faces":
            self.faces_t = ev["t"]
        elif name == "grab":
            s = self._player(ev["p"])
            s["grabs"] += 1
            if g is not None:
                g["grabs"][ev["p"]] = g["grabs"].get(ev["p"], 0) + 1
            if self.faces_t is not None:
                r = ticks_diff_f(grab_ms(ev), self.faces_t)
                if r >= 0:
                    s["reaction_ms"].append(round(r, 3))
        elif name == "false_start":
            self._player(ev["p"])["false_starts"] += 1
        elif name == "refused":
            self._player(ev["p"])["refused"] += 1
        elif name == "own_up":
            self._player(ev["p"])["own_ups"] += 1
        elif name == "take_back":
            self._player(ev["p"])["take_backs"] += 1
        elif name == "penalty":
            self._player(ev["p"])["penalties"] += 1
            if g is not None:
                g["final_points"][ev["p"]] = ev["points"]
        elif name == "score":
            self.faces_t = None
            if g is None:          # a log that starts mid-game
                g = self._new_game(sorted(ev["points"]), resumed=True)
            g["rounds"] += 1
            if ev["result"] == "replay":
                g["replays"] += 1
            for p, n in ev["points"].items():
                g["points"].setdefault(p, []).append(n)
            g["final_points"] = dict(ev["points"])
            g["out"] = list(ev["out"])
        elif name == "winner":
            if g is None:
                g = self._new_game([], resumed=True)
            g["winner"] = ev["p"]
            g["finished"] = True
            g["out"] = list(ev["out"])
            self._player(ev["p"])["wins"] += 1
        elif name == "stuck":
            self.stuck.append({"input": ev["input"], "t": ev["t"], "let_go": False})
        elif name == "unstuck":
            for s in reversed(self.stuck):
                if s["input"] == ev["input"] and not s["let_go"]:
                    s["let_go"] = True
                    break
        elif name == "error":
            self.errors.append(ev["what"] + (": %s" % ev["line"] if "line" in ev else ""))

    def result(self):
        players = {}
        for p in sorted(self.players):
            s = dict(self.players[p])
            r = s["reaction_ms"]
            s["avg_reaction_ms"] = round(sum(r) / len(r), 1) if r else None
            players[p] = s
        last = self.games[-1] if self.games else None
        return {"format": VERSION, "events": self.events, "malformed": self.malformed,
                "noise": self.noise, "boots": self.boots,
                "watchdog_resets": self.watchdog_resets,
                "games": self.games, "rounds": sum(g["rounds"] for g in self.games),
                "winner": last["winner"] if last else None,
                "players": players, "stuck": self.stuck, "errors": self.errors}


def summarize(lines, warn=None):
    """The summary dict of an iterable of console lines (str or bytes)."""
    if warn is None:
        def warn(msg):
            print("eventlog: " + msg, file=sys.stderr)
    s = Summary()
    n = 0
    for line in lines:
        n += 1
        if isinstance(line, bytes):
            line = line.decode("utf-8", "replace")
        try:
            kind, ev = parse_line(line)
        except LogError as e:
            s.malformed += 1
            warn("line %d skipped: %s" % (n, e))
            continue
        if kind == "noise":
            s.noise += 1
        elif kind == "event":
            s.add(ev)
    return s.result()


# -- output -------------------------------------------------------------------
def format_summary(r):
    out = []
    out.append("%d events, %d games, %d rounds; %d malformed lines skipped, %d console lines"
               % (r["events"], len(r["games"]), r["rounds"], r["malformed"], r["noise"]))
    if r["boots"] > 1 or r["watchdog_resets"]:
        out.append("boots: %d, watchdog resets: %d" % (r["boots"], r["watchdog_resets"]))
    for g in r["games"]:
        head = "game %d: %s" % (g["number"], ", ".join(g["players"]) or "?")
        if g["dice"]:
            head += "; dice: %s" % ", ".join(g["dice"])
        if g["campaign"] is not None:
            head += "; campaign game %d" % g["campaign"]
        if g["resumed"]:
            head += " (resumed)"
        out.append(head)
        out.append("  rounds: %d (%d replays); winner: %s"
                   % (g["rounds"], g["replays"], g["winner"] or "none (not finished)"))
        for p in sorted(g["points"]):
            pts = g["points"][p]
            out.append("  %s points: %s -> %s" % (p, " ".join(str(x) for x in pts) or "-",
                                                  g["final_points"].get(p, "?")))
    if r["players"]:
        out.append("player  grabs  avg reaction  false starts  penalties  refused  own-ups  wins")
        for p, s in r["players"].items():
            avg = "%8.0f ms" % s["avg_reaction_ms"] if s["avg_reaction_ms"] is not None else "%11s" % "-"
            out.append("%-6s  %5d  %s  %12d  %9d  %7d  %7d  %4d"
                       % (p, s["grabs"], avg, s["false_starts"], s["penalties"], s["refused"],
                          s["own_ups"], s["wins"]))
    for st in r["stuck"]:
        out.append("stuck button: %s at t=%d ms%s" % (st["input"], st["t"],
                                                     ", let go later" if st["let_go"] else ""))
    for e in r["errors"]:
        out.append("box error: %s" % e)
    return "\n".join(out)


def plot(r, path):
    """Points per player over the rounds, and a reaction-time histogram, as an image.
    Needs matplotlib (imported here only: the summary works without it)."""
    import matplotlib.pyplot as plt
    fig = figure(r)
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)


def figure(r):
    """The plot's figure. Each player is drawn in their station's colour; the
    points line starts before round 1 (at 7, or at the points a resumed game
    came back with)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    styles = ("-", "--", ":", "-.")
    for g in r["games"]:
        for p in sorted(g["points"]):
            pts = g["points"][p]
            if pts:
                start = g["start_points"].get(p, 7)
                label = p if len(r["games"]) == 1 else "game %d %s" % (g["number"], p)
                ax1.plot(range(0, len(pts) + 1), [start] + pts, marker="o", label=label,
                         color=station_colour(p), linestyle=styles[(g["number"] - 1) % len(styles)])
    ax1.set_title("Points after each round (0: before round 1)")
    ax1.set_xlabel("round")
    ax1.set_ylabel("points")
    ax1.set_ylim(-0.5, 7.5)
    if ax1.get_legend_handles_labels()[0]:
        ax1.legend(fontsize="small")
    times = [(p, s["reaction_ms"]) for p, s in r["players"].items() if s["reaction_ms"]]
    if times:
        ax2.hist([t for _, t in times], bins=20, stacked=True, label=[p for p, _ in times],
                 color=[station_colour(p) for p, _ in times])
        ax2.legend(fontsize="small")
    else:
        ax2.text(0.5, 0.5, "no grabs", ha="center", va="center", transform=ax2.transAxes)
    ax2.set_title("Reaction time: dice shown to grab")
    ax2.set_xlabel("ms")
    ax2.set_ylabel("grabs")
    fig.tight_layout()
    return fig


# -- input --------------------------------------------------------------------
def serial_lines(port, baud=115200):
    """Lines from the box's USB serial console until Ctrl-C (or the board goes)."""
    from host_tools.deploy import boardport
    dev = boardport.resolve(port)
    ser = boardport.open_port(dev, baud)
    print("eventlog: reading %s (Ctrl-C for the summary)" % dev, file=sys.stderr)
    try:
        for line in boardport.read_lines(ser):
            yield line
    except KeyboardInterrupt:
        pass
    except OSError as e:
        print("eventlog: %s went away (%s): summary so far" % (dev, e), file=sys.stderr)
    finally:
        ser.close()


def _folder_of(path, what):
    """None, or the message when the folder for an output file is missing."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "%s %s: the folder %s does not exist" % (what, path, folder)
    return None


def report(files, out_dir, warn, as_json):
    """--report: game-night statistics over many logs (nightstats.py)."""
    from host_tools.table import nightstats
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        print("error: --report %s: is a file, not a folder" % out_dir, file=sys.stderr)
        return 2
    if not os.path.isdir(os.path.dirname(os.path.abspath(out_dir))):
        print("error: --report %s: its parent folder does not exist" % out_dir, file=sys.stderr)
        return 2
    try:
        night = nightstats.read_logs(files, warn, nightstats.progress_printer())
    except OSError as e:
        print("error: %s: cannot be read (%s)" % (e.filename, e.strerror or e), file=sys.stderr)
        return 2
    r = night.result()
    print(json.dumps(r, indent=1) if as_json else nightstats.format_text(r))
    if not r["events"]:
        print("error: no event in %s" % ", ".join(files), file=sys.stderr)
        return 1
    try:
        os.makedirs(out_dir, exist_ok=True)
        made = nightstats.plots(r, out_dir)
        page = nightstats.write_html(r, out_dir, made)
    except ImportError:
        print("error: --report needs matplotlib (pip install matplotlib)", file=sys.stderr)
        return 2
    except OSError as e:
        print("error: --report %s: cannot be written (%s)" % (out_dir, e.strerror or e), file=sys.stderr)
        return 2
    print("report: %s (and %s)" % (page, ", ".join(os.path.join(out_dir, n) for n, _ in made)),
          file=sys.stderr)
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="eventlog.py", description=__doc__.split("\n")[0],
                                 epilog="Exit codes: 0 done, 1 no event in the input, 2 bad input "
                                        "(a file or port that cannot be used, a missing folder).")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--file", metavar="LOG", nargs="+",
                     help="read saved event logs ('-': stdin, the default)")
    src.add_argument("--port", metavar="DEV", help="read live from a board: a serial device or "
                     "'auto' (the Pico on USB, 2e8a:*)")
    ap.add_argument("--baud", type=int, default=115200, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--plot", metavar="OUT.png", help="draw points and reaction times (matplotlib)")
    ap.add_argument("--report", metavar="DIR", help="game-night statistics over the --file logs: "
                    "a table, PNG plots and DIR/report.html with the plots embedded")
    ap.add_argument("--quiet", action="store_true", help="no warning per malformed line")
    args = ap.parse_args(argv)
    warn = (lambda msg: None) if args.quiet else None
    if args.report:
        if not args.file or args.file == ["-"]:
            print("error: --report needs saved logs: --file LOG [LOG ...]", file=sys.stderr)
            return 2
        return report(args.file, args.report, warn or (lambda m: print("eventlog: " + m, file=sys.stderr)),
                      args.json)
    if args.plot:
        bad = _folder_of(args.plot, "--plot")
        if bad:
            print("error: " + bad, file=sys.stderr)
            return 2
    from host_tools.deploy import boardport
    try:
        if args.port:
            r = summarize(serial_lines(args.port, args.baud), warn)
        elif args.file and args.file != ["-"]:
            r = summarize(_file_lines(args.file), warn)
        else:
            r = summarize(sys.stdin, warn)
    except boardport.PortError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        where = e.filename or args.port
        print("error: %s: cannot be read (%s)" % (where, e.strerror or e), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print(format_summary(r))
    if args.plot:
        try:
            plot(r, args.plot)
        except ImportError:
            print("error: --plot needs matplotlib (pip install matplotlib)", file=sys.stderr)
            return 2
        except OSError as e:
            print("error: --plot %s: cannot be written (%s)" % (args.plot, e.strerror or e),
                  file=sys.stderr)
            return 2
        # on stderr, so --json output stays one JSON document
        print("plot: wrote %s" % args.plot, file=sys.stderr)
    return 0 if r["events"] else 1


def _file_lines(paths):
    for path in paths:
        with open(path, "rb") as f:
            for line in f:
                yield line


if __name__ == "__main__":
    sys.exit(main())
