"""Game-night statistics over many saved event logs (a night, a month).

Per player (a player is a station, P1-P8: the seat at the box): reaction
times from the reveal to the grab (median, best, spread), how often a wheel
holder's answer was right by number of dice and by the true answer, how the
points were lost (no wheel, wrong answer, table penalty, false start with the
house rule, refused grab), games played and won. Plots are PNG files in the
stations' colours; report.html is one self-contained page with the plots
embedded, to share.

Used by host_tools/table/eventlog.py --report DIR LOG...; the log lines are read
and checked by eventlog.parse_line, the answers judged by the firmware's
rules.answer_is_right.
"""
import base64
import html
import os
import statistics
import sys

from host_tools.table import logformat as EL
from cheesemaster.rules import PLATE_MAX, answer_is_right

CAUSES = ("no wheel", "wrong", "penalty", "false start", "refused")


def _new_player():
    return {"games": 0, "wins": 0, "grabs": 0, "false_starts": 0, "reaction_ms": [],
            "by_dice": {}, "by_answer": {}, "lost": dict((c, 0) for c in CAUSES)}


class Night:
    """Follows the events of many logs; result() is the statistics dict."""

    def __init__(self):
        self.players = {}
        self.files = []
        self.games = 0
        self.finished = 0
        self.rounds = 0
        self.replays = 0
        self.malformed = 0
        self.events = 0
        self._reset()

    def _reset(self):
        self.points = {}          # tracked points: what a loss really took
        self.round = None         # the round being played
        self.last_false_start = None

    def _p(self, p):
        if p not in self.players:
            self.players[p] = _new_player()
        return self.players[p]

    def start_file(self, name):
        self.files.append(name)
        self._reset()

    def _take(self, p, cause, now=None, amount=0):
        """Book a loss as the points it really took (a loss stops at 0 points):
        the tracked points before minus `now`; `amount` when the points before
        are unknown (a log that starts mid-game)."""
        before = self.points.get(p)
        if now is None:
            now = max(0, before - amount) if before is not None else None
        n = before - now if before is not None and now is not None else amount
        if n > 0:
            self._p(p)["lost"][cause] += n
        if now is not None:
            self.points[p] = now

    def add(self, ev):
        self.events += 1
        name = ev["ev"]
        if name == "boot":
            self._reset()
        elif name == "game":
            self.games += 1
            self.points = dict((p, 7) for p in ev["players"])
            for p in ev["players"]:
                self._p(p)["games"] += 1
        elif name == "resume":
            self.points = dict(ev["points"])
        elif name == "faces":
            self.round = {"t": ev["t"], "dice": len(ev["faces"]), "left": ev["left"],
                          "grabs": {}, "owned": {}}
        elif name == "grab":
            s = self._p(ev["p"])
            s["grabs"] += 1
            r = self.round
            if r is not None:
                ms = EL.ticks_diff_f(EL.grab_ms(ev), r["t"])
                if ms >= 0:
                    s["reaction_ms"].append(round(ms, 3))
                r["grabs"][ev["p"]] = ev.get("plate")
        elif name == "own_up" or name == "take_back":
            if self.round is not None:
                self.round["owned"][ev["p"]] = name == "own_up"
        elif name == "false_start":
            self._p(ev["p"])["false_starts"] += 1
            self.last_false_start = ev["p"]
            return
        elif name == "penalty":
            cause = "false start" if self.last_false_start == ev["p"] else "penalty"
            self._take(ev["p"], cause, now=ev["points"])
        elif name == "refused":
            self._take(ev["p"], "refused", amount=1)
        elif name == "score":
            self._score(ev)
        elif name == "winner":
            self.finished += 1
            self._p(ev["p"])["wins"] += 1
        self.last_false_start = None

    def _score(self, ev):
        self.rounds += 1
        r = self.round
        self.round = None
        if r is not None:
            answer = min(r["left"], PLATE_MAX)
            for p, plate in r["grabs"].items():
                if plate is not None:
                    right = answer_is_right(plate, r["left"])
                else:
                    right = not r["owned"].get(p, False)
                s = self._p(p)
                for table, key in ((s["by_dice"], r["dice"]), (s["by_answer"], answer)):
                    cell = table.setdefault(key, [0, 0])
                    cell[0] += 1 if right else 0
                    cell[1] += 1
        if ev["result"] == "replay":      # the round's scoring losses are given back
            self.replays += 1
            self.points.update(ev["points"])
            return
        holders = r["grabs"] if r is not None else {}
        for p, now in ev["points"].items():
            if ev["lost"].get(p):
                self._take(p, "wrong" if p in holders else "no wheel", now=now, amount=ev["lost"][p])
            else:
                self.points[p] = now

    def result(self):
        players = {}
        for p in sorted(self.players):
            s = self.players[p]
            rt = sorted(s["reaction_ms"])
            acc = [c[0] for c in s["by_dice"].values()]
            tot = [c[1] for c in s["by_dice"].values()]
            players[p] = {
                "games": s["games"], "wins": s["wins"], "grabs": s["grabs"],
                "false_starts": s["false_starts"],
                "reaction_ms": {"n": len(rt),
                                "median": round(statistics.median(rt), 1) if rt else None,
                                "best": round(rt[0], 1) if rt else None,
                                "spread": round(_iqr(rt), 1) if len(rt) > 1 else None},
                "reactions": rt,
                "right": sum(acc), "answers": sum(tot),
                "by_dice": dict((str(k), v) for k, v in sorted(s["by_dice"].items())),
                "by_answer": dict((_ans(k), v) for k, v in sorted(s["by_answer"].items())),
                "lost": dict(s["lost"]),
            }
        return {"files": list(self.files), "events": self.events, "malformed": self.malformed,
                "games": self.games, "finished": self.finished, "rounds": self.rounds,
                "replays": self.replays, "players": players}


def _iqr(xs):
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[2] - q[0]


def _ans(k):
    return "7+" if k == PLATE_MAX else str(k)


def read_logs(paths, warn=None, progress=None):
    """A Night over the log files in `paths` (OSError for one that cannot be read)."""
    night = Night()
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i, len(paths), path)
        with open(path, "rb") as f:
            data = f.read()
        night.start_file(path)
        for n, raw in enumerate(data.splitlines(), 1):
            try:
                kind, ev = EL.parse_line(raw.decode("utf-8", "replace"))
            except EL.LogError as e:
                night.malformed += 1
                if warn is not None:
                    warn("%s line %d skipped: %s" % (path, n, e))
                continue
            if kind == "event":
                night.add(ev)
    if progress is not None:
        progress(len(paths), len(paths), None)
    return night


# -- text ---------------------------------------------------------------------
def _pct(cell):
    return "%3.0f%% of %d" % (100.0 * cell[0] / cell[1], cell[1]) if cell and cell[1] else "-"


def format_text(r):
    out = ["%d log(s), %d games (%d finished), %d rounds (%d replays), %d events, %d malformed lines"
           % (len(r["files"]), r["games"], r["finished"], r["rounds"], r["replays"], r["events"],
              r["malformed"])]
    out.append("")
    out.append("player  games  wins  grabs  reaction median  best  spread(IQR)   right answers  false starts")
    for p, s in r["players"].items():
        rt = s["reaction_ms"]
        f = lambda v: "%5.0f" % v if v is not None else "    -"   # noqa: E731
        out.append("%-6s  %5d  %4d  %5d  %12s ms %s %8s ms  %-13s  %12d"
                   % (p, s["games"], s["wins"], s["grabs"], f(rt["median"]), f(rt["best"]),
                      f(rt["spread"]), _pct([s["right"], s["answers"]]), s["false_starts"]))
    dice = sorted(set(k for s in r["players"].values() for k in s["by_dice"]), key=int)
    if dice:
        out.append("")
        out.append("right answers by number of dice")
        out.append("player  " + "".join("%14s" % ("%s dice" % d) for d in dice))
        for p, s in r["players"].items():
            out.append("%-6s  " % p + "".join("%14s" % _pct(s["by_dice"].get(d)) for d in dice))
    answers = [_ans(k) for k in range(PLATE_MAX + 1)
               if any(_ans(k) in s["by_answer"] for s in r["players"].values())]
    if answers:
        out.append("")
        out.append("right answers by the true answer")
        out.append("player  " + "".join("%12s" % a for a in answers))
        for p, s in r["players"].items():
            out.append("%-6s  " % p + "".join("%12s" % _pct(s["by_answer"].get(a)) for a in answers))
    out.append("")
    out.append("points lost   " + "".join("%12s" % c for c in CAUSES))
    for p, s in r["players"].items():
        out.append("%-6s        " % p + "".join("%12d" % s["lost"][c] for c in CAUSES))
    return "\n".join(out)


# -- plots and the HTML page --------------------------------------------------
def plots(r, folder):
    """Write the PNG plots into folder; returns [(file name, title)]."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    players = list(r["players"])
    colours = [EL.station_colour(p) for p in players]
    made = []

    def save(fig, name, title):
        fig.tight_layout()
        fig.savefig(os.path.join(folder, name), dpi=90)
        plt.close(fig)
        made.append((name, title))

    fig, ax = plt.subplots(figsize=(7, 4))
    data = [r["players"][p]["reactions"] or [float("nan")] for p in players]
    if players:
        bp = ax.boxplot(data, patch_artist=True, showfliers=True)
        ax.set_xticks(range(1, len(players) + 1), players)
        for patch, c in zip(bp["boxes"], colours):
            patch.set_facecolor(c)
            patch.set_alpha(0.75)
        for m in bp["medians"]:
            m.set_color("black")
    ax.set_ylabel("ms from the reveal to the grab")
    ax.set_title("Reaction times")
    save(fig, "reactions.png", "Reaction times (box: middle half, line: median)")

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key, labels, xl in ((a1, "by_dice", None, "dice in play"),
                                (a2, "by_answer", [_ans(k) for k in range(PLATE_MAX + 1)],
                                 "true answer (cheese left)")):
        keys = labels or sorted(set(k for p in players for k in r["players"][p][key]), key=int)
        width = 0.8 / max(1, len(players))
        for i, (p, c) in enumerate(zip(players, colours)):
            cells = r["players"][p][key]
            ys = [100.0 * cells[k][0] / cells[k][1] if k in cells else 0 for k in keys]
            ax.bar([j + i * width for j in range(len(keys))], ys, width, color=c, label=p,
                   edgecolor="#333333", linewidth=0.5)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(keys))], keys)
        ax.set_ylim(0, 105)
        ax.set_xlabel(xl)
        ax.set_ylabel("% right (wheel holders)")
    a1.set_title("Right answers by number of dice")
    a2.set_title("Right answers by the true answer")
    if players:
        a1.legend(fontsize="small")
    save(fig, "accuracy.png", "Right answers")

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 2]})
    bottom = [0] * len(players)
    cause_colours = ("#888888", "#d62728", "#9467bd", "#ff7f0e", "#8c564b")
    for c, cc in zip(CAUSES, cause_colours):
        ys = [r["players"][p]["lost"][c] for p in players]
        a1.bar(players, ys, bottom=bottom, color=cc, label=c)
        bottom = [b + y for b, y in zip(bottom, ys)]
    a1.set_title("How points were lost")
    a1.set_ylabel("points")
    a1.set_ylim(0, max(bottom + [1]) * 1.35)
    a1.legend(fontsize="small", ncol=3, loc="upper center")
    a2.bar(players, [r["players"][p]["wins"] for p in players], color=colours, edgecolor="#333333")
    a2.set_title("Wins")
    a2.set_ylabel("games won")
    a2.yaxis.set_major_locator(MaxNLocator(integer=True))
    save(fig, "losses-wins.png", "Points lost and games won")
    return made


def write_html(r, folder, made):
    """report.html: the tables and every plot embedded (data: URIs), no other file needed."""
    e = html.escape
    parts = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
             "<title>Cheese Box: game night</title><style>",
             "body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}",
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;"
             "text-align:right}th{background:#f4f4f4}img{max-width:100%}"
             ".dot{display:inline-block;width:.9em;height:.9em;border-radius:50%;margin-right:4px}",
             "</style></head><body>", "<h1>Cheese Box: game night</h1>",
             "<p>%d log(s), %d games (%d finished), %d rounds (%d replays), %d events.</p>"
             % (len(r["files"]), r["games"], r["finished"], r["rounds"], r["replays"], r["events"])]

    def who(p):
        return "<span class=\"dot\" style=\"background:%s\"></span>%s" % (EL.station_colour(p), e(p))

    def table(head, rows):
        out = ["<table><tr>" + "".join("<th>%s</th>" % e(h) for h in head) + "</tr>"]
        for row in rows:
            out.append("<tr>" + "".join("<td>%s</td>" % c for c in row) + "</tr>")
        return "".join(out) + "</table>"

    def num(v):
        return "-" if v is None else "%.0f" % v

    ps = r["players"]
    parts.append("<h2>Players</h2>")
    parts.append(table(["player", "games", "wins", "grabs", "median ms", "best ms", "spread (IQR) ms",
                        "right answers", "false starts"],
                       [[who(p), s["games"], s["wins"], s["grabs"], num(s["reaction_ms"]["median"]),
                         num(s["reaction_ms"]["best"]), num(s["reaction_ms"]["spread"]),
                         e(_pct([s["right"], s["answers"]])), s["false_starts"]] for p, s in ps.items()]))
    dice = sorted(set(k for s in ps.values() for k in s["by_dice"]), key=int)
    if dice:
        parts.append("<h2>Right answers by number of dice</h2>")
        parts.append(table(["player"] + ["%s dice" % d for d in dice],
                           [[who(p)] + [e(_pct(s["by_dice"].get(d))) for d in dice] for p, s in ps.items()]))
        answers = [_ans(k) for k in range(PLATE_MAX + 1) if any(_ans(k) in s["by_answer"] for s in ps.values())]
        parts.append("<h2>Right answers by the true answer</h2>")
        parts.append(table(["player"] + answers,
                           [[who(p)] + [e(_pct(s["by_answer"].get(a))) for a in answers] for p, s in ps.items()]))
    parts.append("<h2>Points lost</h2>")
    parts.append(table(["player"] + list(CAUSES),
                       [[who(p)] + [s["lost"][c] for c in CAUSES] for p, s in ps.items()]))
    for name, title in made:
        with open(os.path.join(folder, name), "rb") as f:
            b64 = base64.b64encode(f.read()).decode("ascii")
        parts.append("<h2>%s</h2><img alt=\"%s\" src=\"data:image/png;base64,%s\">" % (e(title), e(title), b64))
    parts.append("<h2>Logs</h2><ul>" + "".join("<li>%s</li>" % e(os.path.basename(f)) for f in r["files"])
                 + "</ul></body></html>\n")
    path = os.path.join(folder, "report.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return path


def progress_printer(stream=sys.stderr):
    """Progress on stderr: one line per file, or one updated line on a terminal."""
    tty = hasattr(stream, "isatty") and stream.isatty()

    def show(i, n, path):
        if path is None:
            if tty:
                stream.write("\n")
            stream.write("report: read %d log%s\n" % (n, "" if n == 1 else "s"))
        else:
            msg = "report: reading %d/%d %s" % (i + 1, n, os.path.basename(path))
            stream.write(("\r%-70s" % msg) if tty else msg + "\n")
        stream.flush()
    return show
