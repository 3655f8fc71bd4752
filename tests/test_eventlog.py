"""host_tools/table/eventlog.py: the box's event log, read back and summarized.

Logs come from real games: the scenario files run in the simulator, which
logs through the firmware's own EventLog exactly as the Pico prints it. The
summary must agree with the simulator's final state (--json), malformed
lines are counted and skipped, console noise is skipped, ticks wrap, and
the plot is drawn when matplotlib is there.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from cheesebox.board import read_board
from sim.scenario import Sim, run_script

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(REPO, "tests", "scenarios")
TOOL = os.path.join(REPO, "host_tools", "table", "eventlog.py")


def _load_tool(name="cheesebox_eventlog"):
    spec = importlib.util.spec_from_file_location(name, TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


EL = _load_tool()


def _cheese_master(f):
    """The summary is of Cheese Master games: a Cheesonomics scenario has none."""
    with open(os.path.join(SCEN, f)) as fh:
        return "game cheesonomics" not in fh.read()


SCENARIOS = sorted(f[:-4] for f in os.listdir(SCEN) if f.endswith(".txt") and _cheese_master(f))


def _board_of(name):
    with open(os.path.join(SCEN, name + ".txt")) as f:
        m = re.search(r"board (pico[\w-]*)", f.read())
    return m.group(1) if m else "pico-4p"


def _play(name):
    """(log lines, final --json result) of a scenario file."""
    lines = []
    sim = Sim(read_board(os.path.join(REPO, "boards", _board_of(name) + ".json")), log=lines.append)
    with open(os.path.join(SCEN, name + ".txt")) as f:
        result = run_script(sim, f.read())
    return lines, result


@pytest.fixture(scope="module")
def full_game():
    return _play("full_game_plate_cards")


def _quiet(msg):
    pass


# -- the summary agrees with the game ---------------------------------------------------
def test_full_game_summary(full_game):
    lines, res = full_game
    r = EL.summarize(lines, _quiet)
    assert r["malformed"] == 0 and r["noise"] == 0 and r["events"] == len(lines)
    assert len(r["games"]) == 1
    g = r["games"][0]
    assert g["winner"] == res["winner"] == "P1" and g["finished"]
    assert g["rounds"] == res["rounds"] == 7 and g["replays"] == res["replays"]
    assert g["final_points"] == res["points"]
    assert g["out"] == res["eliminated"]
    assert g["dice"] == res["dice"]
    # points after each round, as the scenario's comments tell them
    assert g["points"] == {"P1": [7, 6, 6, 6, 6, 6, 6],
                           "P2": [5, 5, 4, 2, 1, 1, 0],
                           "P3": [6, 4, 4, 3, 1, 0, 0]}
    assert r["winner"] == "P1" and r["rounds"] == 7
    grabs = {"P1": 0, "P2": 0, "P3": 0}
    for ln in lines:
        e = json.loads(ln)
        if e["ev"] == "grab":
            grabs[e["p"]] += 1
    assert {p: s["grabs"] for p, s in r["players"].items()} == grabs == {"P1": 6, "P2": 4, "P3": 3}
    assert r["players"]["P2"]["own_ups"] == 2 and r["players"]["P3"]["own_ups"] == 3
    assert r["players"]["P3"]["take_backs"] == 1
    assert r["players"]["P1"]["wins"] == 1
    for p, s in r["players"].items():
        assert len(s["reaction_ms"]) == s["grabs"]
        assert all(0 < t < 5000 for t in s["reaction_ms"]), s["reaction_ms"]
        assert s["avg_reaction_ms"] == round(sum(s["reaction_ms"]) / len(s["reaction_ms"]), 1)
    assert r["stuck"] == [] and r["errors"] == []


def test_reaction_times_are_the_grab_instants(full_game):
    """Reaction = when the button went down (t_us) minus when the faces were shown."""
    lines, _ = full_game
    evs = [json.loads(x) for x in lines]
    want = []
    faces = None
    for e in evs:
        if e["ev"] == "faces":
            faces = e["t"]
        elif e["ev"] == "grab" and e["p"] == "P1":
            want.append(EL.ticks_diff(e["t"], faces))
    got = EL.summarize(lines, _quiet)["players"]["P1"]["reaction_ms"]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        # the log line comes after the debounce window; t_us dates the press itself
        assert w - 60 <= g <= w, (got, want)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_scenario_summary_matches_the_sim(name):
    lines, res = _play(name)
    warned = []
    r = EL.summarize(lines, warned.append)
    assert warned == [] and r["malformed"] == 0
    assert r["events"] == len(lines)
    g = r["games"][-1]
    assert g["final_points"] == res["points"]
    assert g["rounds"] == res["rounds"]
    assert g["winner"] == res["winner"]
    assert g["replays"] == res.get("replays", 0)
    assert sum(s["false_starts"] for s in r["players"].values()) == res["false_starts"]
    assert [s["input"] for s in r["stuck"] if not s["let_go"]] == res["stuck"]
    n_pen = sum(1 for ln in lines if json.loads(ln)["ev"] == "penalty")
    assert sum(s["penalties"] for s in r["players"].values()) == n_pen
    n_ref = sum(1 for ln in lines if json.loads(ln)["ev"] == "refused")
    assert sum(s["refused"] for s in r["players"].values()) == n_ref


def test_special_scenarios_counted():
    r = EL.summarize(_play("false_start")[0], _quiet)
    assert r["players"]["P2"]["false_starts"] + r["players"]["P1"]["false_starts"] == 1
    r = EL.summarize(_play("penalty")[0], _quiet)
    assert sum(s["penalties"] for s in r["players"].values()) >= 1
    r = EL.summarize(_play("refused_grab")[0], _quiet)
    assert sum(s["refused"] for s in r["players"].values()) >= 1


# -- malformed lines and console noise ------------------------------------------------
BAD = [
    '{"v": 1, "ev": "grab"',                                       # cut short
    '{"v": 2, "ev": "boot", "t": 5, "board": "x", "resume": false}',  # a later format
    '{"ev": "boot", "t": 5, "board": "x", "resume": false}',        # no version
    '{"v": 1, "ev": "teleport", "t": 5}',                           # unknown event
    '{"v": 1, "ev": "grab", "t": 5, "p": "P1"}',                    # t_us and plate missing
    '{"v": 1, "ev": "press", "t": 5, "p": "P9", "t_us": 1}',        # no such player
    '{"v": 1, "ev": "roll", "t": 1073741824, "round": 1}',          # t past the wrap
    '{"v": 1, "ev": "roll", "t": -1, "round": 1}',
    '{"v": 1, "ev": "roll", "t": 5, "round": "one"}',
    '{"v": true, "ev": "roll", "t": 5, "round": 1}',
    '{"v": 1, "ev": "score", "t": 5, "round": 1, "left": 0, "result": "won", '
    '"lost": {}, "points": {}, "out": []}',
    '{}',
    '{\x00\xff}',
]
NOISE = [
    "MicroPython v1.25.0 on 2025-04-15; Raspberry Pi Pico with RP2040",
    'Type "help()" for more information.',
    ">>> ",
    "cheesebox: pico-4p ready, 4 stations",
    "[1, 2, 3]",
    "Traceback (most recent call last):",
]


def _salted(lines):
    """The log with a bad line and a noise line after every few events, and blanks."""
    out = []
    bad = list(BAD)
    noise = list(NOISE)
    for i, ln in enumerate(lines):
        if i % 4 == 1 and bad:
            out.append(bad.pop())
        if i % 4 == 3 and noise:
            out.append(noise.pop())
        if i % 9 == 0:
            out.append("")
        out.append(ln)
    assert not bad and not noise
    return out


def test_malformed_lines_counted_and_skipped(full_game):
    lines, res = full_game
    clean = EL.summarize(lines, _quiet)
    warned = []
    r = EL.summarize(_salted(lines), warned.append)
    assert r["malformed"] == len(BAD) == len(warned)
    assert r["noise"] == len(NOISE)
    assert all(w.startswith("line ") and "skipped" in w for w in warned)
    r2 = dict(r)
    r2["malformed"] = r2["noise"] = 0
    assert r2 == clean                   # nothing else changed


@pytest.mark.parametrize("line", BAD)
def test_each_bad_line_is_a_log_error(line):
    with pytest.raises(EL.LogError):
        EL.parse_line(line)


@pytest.mark.parametrize("line", NOISE + ["", "   ", "\r"])
def test_noise_is_not_an_error(line):
    assert EL.parse_line(line)[0] in ("noise", "blank")


def test_bytes_and_crlf_lines(full_game):
    lines, _ = full_game
    raw = [(ln + "\r\n").encode() for ln in lines] + [b"\xff\xfe{garbage\r\n"]
    r = EL.summarize(raw, _quiet)
    assert r["malformed"] == 0 and r["noise"] == 1 and r["games"][0]["winner"] == "P1"


def test_every_logged_event_is_documented():
    """The box's and its games' log calls, the simulator's, and docs/event-log.md all agree with EVENTS."""
    names = set()
    for rel in ("firmware/cheesebox/box.py", "firmware/cheesemaster/game.py", "firmware/cheesemaster/flow.py",
                "firmware/cheesonomics/game.py", "sim/scenario.py"):
        with open(os.path.join(REPO, rel)) as f:
            src = f.read()
        for first_arg in re.findall(r"(?:self|box)\.log\(([^,]+),", src):
            names |= set(re.findall(r'"(\w+)"', first_arg))
    assert names, "no self.log calls found"
    assert names <= set(EL.EVENTS), names - set(EL.EVENTS)
    with open(os.path.join(REPO, "docs", "event-log.md")) as f:
        doc = f.read()
    for ev in EL.EVENTS:
        assert re.search(r"^### `%s`" % ev, doc, re.M), "docs/event-log.md lacks ### `%s`" % ev


def test_documented_examples_validate():
    """Every example line in docs/event-log.md is a valid event (the doc cannot drift)."""
    with open(os.path.join(REPO, "docs", "event-log.md")) as f:
        doc = f.read()
    examples = [ln.strip() for ln in doc.splitlines()
                if ln.strip().startswith("{") and '"ev": ' in ln]
    seen = set()
    for ln in examples:
        kind, ev = EL.parse_line(ln)
        assert kind == "event"
        seen.add(ev["ev"])
    assert seen == set(EL.EVENTS)


# -- ticks ---------------------------------------------------------------------------
def _ev(ev, t, **fields):
    d = dict(fields)
    d.update({"v": 1, "ev": ev, "t": t})
    return json.dumps(d)


def test_reaction_across_the_tick_wrap():
    wrap = 1 << 30
    faces_t = wrap - 100                       # 100 ms before ticks_ms wraps
    grab_t = 62                                # logged 162 ms after the reveal
    press_us = (grab_t * 1000 - 12000) % wrap  # pressed 12 ms before it was logged
    log = [
        _ev("game", faces_t - 5000, players=["P1", "P2"], dice=["yellow A"], campaign=None),
        _ev("roll", faces_t - 1000, round=1),
        _ev("faces", faces_t, faces=["cheese1"], left=1),
        _ev("grab", grab_t, p="P1", t_us=press_us, plate=None),
        _ev("grab", grab_t + 500, p="P2", t_us=999999999, plate=None),  # t_us of another clock
    ]
    r = EL.summarize(log, _quiet)
    assert r["players"]["P1"]["reaction_ms"] == [150.0]
    assert r["players"]["P2"]["reaction_ms"] == [662.0]     # falls back to the log line's t
    assert EL.ticks_diff(5, wrap - 5) == 10 and EL.ticks_diff(wrap - 5, 5) == -10


def test_a_log_that_starts_mid_game():
    log = [_ev("score", 10, round=4, left=0, result="scored", lost={"P1": 1},
               points={"P1": 3, "P2": 5}, out=[]),
           _ev("penalty", 20, p="P2", points=4),
           _ev("winner", 30, p="P2", out=["P1"])]
    r = EL.summarize(log, _quiet)
    g = r["games"][0]
    assert g["resumed"] and g["winner"] == "P2" and g["final_points"] == {"P1": 3, "P2": 4}


def test_watchdog_reset_and_resume():
    """A game through a hang (the watchdog resets the box, it resumes)."""
    lines = []
    sim = Sim(read_board(os.path.join(REPO, "boards", "pico-4p.json")), log=lines.append)
    res = run_script(sim, "players 2\ndice yellow\nrollbutton\nroll cheese1 cheese2 cheese3\n"
                          "wait 3000\nbuzz P1\nown-up P1\nrollbutton\nhang 9000\nwait 500\n")
    r = EL.summarize(lines, _quiet)
    assert r["malformed"] == 0
    assert r["watchdog_resets"] == 1 and r["boots"] == 2
    assert r["games"][-1]["final_points"] == res["points"]


# -- the command line ----------------------------------------------------------------
def _run(args, stdin=None):
    return subprocess.run([sys.executable, TOOL] + args, cwd=REPO, capture_output=True,
                          text=True, input=stdin, timeout=60)


def test_cli_file_json_from_the_real_sim(tmp_path):
    """python -m sim --log FILE, then eventlog.py --file FILE --json."""
    log = tmp_path / "game.log"
    p = subprocess.run([sys.executable, "-m", "sim", "--script",
                        os.path.join(SCEN, "full_game_plate_cards.txt"), "--json", "--log", str(log)],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)
    q = _run(["--file", str(log), "--json"])
    assert q.returncode == 0, q.stderr
    r = json.loads(q.stdout)
    assert r["winner"] == res["winner"] and r["rounds"] == res["rounds"]
    assert r["games"][0]["final_points"] == res["points"]


def test_cli_stdin_text_summary(full_game):
    lines, _ = full_game
    q = _run([], stdin="\n".join(_salted(lines)) + "\n")
    assert q.returncode == 0
    assert "winner: P1" in q.stdout and "rounds: 7" in q.stdout
    assert "%d malformed lines skipped" % len(BAD) in q.stdout
    assert q.stderr.count("skipped") == len(BAD)
    assert "Traceback" not in q.stderr
    q = _run(["--quiet", "--file", "-"], stdin="\n".join(_salted(lines)))
    assert q.returncode == 0 and q.stderr == ""


def test_cli_nothing_readable():
    q = _run([], stdin="hello\n{bad\n")
    assert q.returncode == 1
    q = _run(["--file", "/no/such/log"])
    assert q.returncode == 2 and q.stderr.startswith("error: ") and "Traceback" not in q.stderr


# -- optional matplotlib ---------------------------------------------------------------
def test_summary_without_matplotlib(monkeypatch, tmp_path, full_game, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib fails
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    el = _load_tool("cheesebox_eventlog_nompl")
    log = tmp_path / "g.log"
    log.write_text("\n".join(full_game[0]) + "\n")
    assert el.main(["--file", str(log)]) == 0
    assert "winner: P1" in capsys.readouterr().out
    assert el.main(["--file", str(log), "--plot", str(tmp_path / "x.png")]) == 2
    assert "matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_plot_written(tmp_path, full_game, capsys):
    pytest.importorskip("matplotlib")
    log = tmp_path / "g.log"
    log.write_text("\n".join(full_game[0]) + "\n")
    out = tmp_path / "game.png"
    assert EL.main(["--file", str(log), "--plot", str(out), "--json"]) == 0
    said = capsys.readouterr()
    json.loads(said.out)                              # stdout stays one JSON document
    assert said.err.strip().splitlines()[-1] == "plot: wrote %s" % out    # and it says what it wrote
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 5000


# -- live from a board (a pseudo-terminal plays the Pico's USB serial port) ------------
class PtyBoard:
    """A serial device at a fixed path (a symlink to a pty), fed from a thread.

    pyserial opens it as it opens /dev/ttyACM0; unplug() closes the far end,
    which the reader sees as the board going away."""

    def __init__(self, folder):
        self.path = str(folder / "ttyBOARD")
        self.master = None
        self.plug()

    def plug(self):
        import tty
        self.master, slave = os.openpty()
        tty.setraw(slave)
        dev = os.ttyname(slave)
        os.close(slave)
        tmp = self.path + ".new"
        os.symlink(dev, tmp)
        os.replace(tmp, self.path)

    def send(self, data, chunk=37, then_unplug=False):
        """Write data (in small chunks: lines split anyhow) from a thread."""
        import threading

        def run():
            self.wait_for_reader()
            for i in range(0, len(data), chunk):
                os.write(self.master, data[i:i + chunk])
            if then_unplug:
                import time
                time.sleep(0.3)
                self.unplug()
        t = threading.Thread(target=run, daemon=True)
        t.start()
        return t

    def wait_for_reader(self, timeout=10.0):
        """Until a reader holds the port (pyserial's exclusive lock), plus a
        moment: pyserial empties the input buffer as it opens the port."""
        import fcntl
        import time
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(fd, fcntl.LOCK_UN)
            except OSError:
                time.sleep(0.2)
                return
            finally:
                os.close(fd)
            time.sleep(0.02)

    def unplug(self):
        if self.master is not None:
            os.close(self.master)
            self.master = None
        if os.path.lexists(self.path):
            os.remove(self.path)


class _PortInfo:
    def __init__(self, device, vid):
        self.device = device
        self.vid = vid


def _ports(monkeypatch, ports):
    from serial.tools import list_ports
    monkeypatch.setattr(list_ports, "comports", lambda: list(ports))


def test_pyserial_is_in_the_venv():
    """--port uses pyserial, which mpremote (requirements.txt) pulls in."""
    import serial.tools.list_ports  # noqa: F401


def test_live_port_auto_finds_the_pico(monkeypatch, tmp_path, full_game, capsys):
    """--port auto takes the Raspberry Pi USB device (2e8a:*), not /dev/ttyS0."""
    lines, _ = full_game
    board = PtyBoard(tmp_path)
    _ports(monkeypatch, [_PortInfo("/dev/ttyS0", None), _PortInfo(board.path, 0x2E8A)])
    text = ("MicroPython v1.25.0\r\n>>> \r\ncheesebox: pico-4p ready, 4 stations\r\n"
            + "\r\n".join(lines) + "\r\n")
    board.send(text.encode(), then_unplug=True)
    assert EL.main(["--port", "auto", "--json"]) == 0
    out, err = capsys.readouterr()
    r = json.loads(out)
    assert board.path in err and "went away" in err, err
    assert r["events"] == len(lines), (r["events"], len(lines))
    assert r["noise"] == 3 and r["malformed"] == 0 and r["winner"] == "P1"


@pytest.mark.parametrize("ports", [[], [("/dev/ttyS0", None)], [("/dev/ttyS0", None), ("/dev/ttyUSB0", 0x0403)]])
def test_live_port_auto_without_a_pico_says_no_board(monkeypatch, capsys, ports):
    _ports(monkeypatch, [_PortInfo(d, v) for d, v in ports])
    assert EL.main(["--port", "auto"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no board") and "2e8a" in err


def test_live_port_missing_or_busy(tmp_path, capsys):
    assert EL.main(["--port", str(tmp_path / "ttyNOPE")]) == 2
    assert "no such port" in capsys.readouterr().err
    import serial
    board = PtyBoard(tmp_path)
    holder = serial.Serial(board.path, 115200, exclusive=True)     # mpremote has it open
    try:
        assert EL.main(["--port", board.path]) == 2
        assert "busy" in capsys.readouterr().err
    finally:
        holder.close()
        board.unplug()


def test_cli_port_auto_no_traceback():
    """The real command on this machine: there is no Pico here (CI), so no board, exit 2."""
    from serial.tools import list_ports
    if any(p.vid == 0x2E8A for p in list_ports.comports()):
        pytest.skip("a Pico is plugged in")
    q = _run(["--port", "auto"])
    assert q.returncode == 2 and "no board" in q.stderr and "Traceback" not in q.stderr


# -- the plot: station colours, points from 7 ------------------------------------------
def test_plot_in_station_colours_from_seven(full_game):
    pytest.importorskip("matplotlib")
    import matplotlib.colors as mc
    import matplotlib.pyplot as plt

    from cheesebox.display import STATION
    r = EL.summarize(full_game[0], _quiet)
    fig = EL.figure(r)
    try:
        lines = fig.axes[0].get_lines()
        assert sorted(ln.get_label() for ln in lines) == ["P1", "P2", "P3"]
        for ln in lines:
            s = int(ln.get_label()[1]) - 1
            assert mc.to_hex(ln.get_color()) == "#%02x%02x%02x" % STATION[s]
            assert list(ln.get_xdata())[0] == 0 and list(ln.get_ydata())[0] == 7
            assert list(ln.get_ydata())[1:] == r["games"][0]["points"][ln.get_label()]
        bars = [p for p in fig.axes[1].patches if p.get_height() > 0]
        assert {mc.to_hex(b.get_facecolor()) for b in bars} <= {"#%02x%02x%02x" % c for c in STATION[:3]}
    finally:
        plt.close(fig)


def test_plot_into_missing_folder(tmp_path, full_game):
    log = tmp_path / "g.log"
    log.write_text("\n".join(full_game[0]) + "\n")
    q = _run(["--file", str(log), "--plot", str(tmp_path / "nope" / "g.png")])
    assert q.returncode == 2
    assert "does not exist" in q.stderr and "Traceback" not in q.stderr


# -- game-night report over many logs ---------------------------------------------------
def play_night(games=3, seed=7, board="pico-8p", players=4):
    """The log of a night of `games` games with electronic plates, played by the
    simulator: each round every player but one keys a plate (right 4 times in
    5) and grabs after a random moment; now and then a table penalty."""
    import random
    rnd = random.Random(seed)
    lines = []
    sim = Sim(read_board(os.path.join(REPO, "boards", board + ".json")), seed=seed, log=lines.append)
    res = run_script(sim, "players %d\ndice yellow" % players)
    for g in range(games):
        if g:
            res = run_script(sim, "holdroll 2500\nwait 300\nplayers %d\ndice %s"
                             % (players, ("yellow+1", "yellow+2")[(g - 1) % 2]))
        while res["winner"] is None:
            active = [p for p in res["points"] if p not in res["eliminated"]]
            early = "buzz %s\nwait 1100\n" % rnd.choice(active) if rnd.random() < 0.1 else ""
            res = run_script(sim, "rollbutton\nwait 400\n" + early + "wait 1200")   # early: a false start
            left = min(res["cheese_left"], 7)
            rnd.shuffle(active)
            cmds = []
            if rnd.random() < 0.1:          # before any grab: never at game over
                cmds.append("penalty %s" % active[-1])
            for p in active[:-1]:
                ans = left if rnd.random() < 0.8 else rnd.choice([a for a in range(8) if a != left])
                if rnd.random() < 0.05:     # grabbed before placing the plate: refused
                    cmds.append("buzz " + p)
                cmds += ["answer %s %d" % (p, ans), "wait %d" % rnd.randint(100, 700), "buzz " + p]
            res = run_script(sim, "\n".join(cmds) + "\nwait 1500")
    return lines


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    d = tmp_path_factory.mktemp("night")
    paths = []
    for i, seed in enumerate((7, 8)):
        p = d / ("night%d.log" % i)
        p.write_text("MicroPython v1.25.0\n" + "\n".join(play_night(seed=seed)) + "\n")
        paths.append(str(p))
    return paths


def _events(paths):
    out = []
    for p in paths:
        with open(p) as f:
            out += [json.loads(x) for x in f if x.startswith("{")]
    return out


def test_night_stats_agree_with_the_games(night):
    ns = importlib.import_module("host_tools.table.nightstats")
    r = ns.read_logs(night).result()
    evs = _events(night)
    games = [e for e in evs if e["ev"] == "game"]
    assert r["games"] == len(games) == 6 and r["finished"] == 6
    for p, s in r["players"].items():
        assert s["wins"] == sum(1 for e in evs if e["ev"] == "winner" and e["p"] == p)
        assert s["grabs"] == sum(1 for e in evs if e["ev"] == "grab" and e["p"] == p)
        assert s["false_starts"] == sum(1 for e in evs if e["ev"] == "false_start" and e["p"] == p)
        assert s["answers"] == s["grabs"] == sum(c[1] for c in s["by_dice"].values())
        assert s["right"] == sum(c[0] for c in s["by_answer"].values())
        assert s["reaction_ms"]["best"] == round(min(s["reactions"]), 1) > 0
        assert s["reaction_ms"]["best"] <= s["reaction_ms"]["median"]
    # every point that left the table is booked to one cause, once
    finals = {}
    for e in evs:
        if e["ev"] == "game":
            start = dict((p, 7) for p in e["players"])
        elif e["ev"] == "winner":
            finals.setdefault("taken", 0)
            last = [x for x in evs[:evs.index(e)] if x["ev"] in ("score",)][-1]["points"]
            finals["taken"] += sum(start.values()) - sum(last.values())
    booked = sum(sum(s["lost"].values()) for s in r["players"].values())
    assert booked == finals["taken"]
    # wrong answers: a wrong plate costs 2 (less only when fewer points were left)
    assert sum(s["lost"]["wrong"] for s in r["players"].values()) > 0
    assert sorted(k for s in r["players"].values() for k in s["by_dice"]) and \
        set(k for s in r["players"].values() for k in s["by_dice"]) == {"3", "4", "5"}


def test_night_report_html_and_plots(night, tmp_path):
    out = tmp_path / "report"
    q = _run(["--file"] + night + ["--report", str(out)])
    assert q.returncode == 0, q.stderr
    assert "reading 1/2" in q.stderr and "reading 2/2" in q.stderr       # progress
    assert "right answers by number of dice" in q.stdout
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 3
    assert "src=\"http" not in page and ".png\"" not in page           # nothing outside the page
    for name in ("reactions.png", "accuracy.png", "losses-wins.png"):
        with open(out / name, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    from cheesebox.display import STATION
    assert "#%02x%02x%02x" % STATION[0] in page                          # P1 in its colour


def test_night_report_bad_input(night, tmp_path):
    q = _run(["--file", night[0], str(tmp_path / "missing.log"), "--report", str(tmp_path / "r")])
    assert q.returncode == 2 and "missing.log: cannot be read" in q.stderr
    assert "Traceback" not in q.stderr
    q = _run(["--file", str(tmp_path), "--report", str(tmp_path / "r")])          # a folder
    assert q.returncode == 2 and "cannot be read" in q.stderr and "Traceback" not in q.stderr
    q = _run(["--report", str(tmp_path / "r")], stdin="")
    assert q.returncode == 2 and "--file" in q.stderr
    q = _run(["--file", night[0], "--report", str(tmp_path / "no" / "such" / "r")])
    assert q.returncode == 2 and "does not exist" in q.stderr and "Traceback" not in q.stderr
    f = tmp_path / "afile"
    f.write_text("x")
    q = _run(["--file", night[0], "--report", str(f)])
    assert q.returncode == 2 and "not a folder" in q.stderr
    b = tmp_path / "binary.log"
    b.write_bytes(b"\x00\xff\xfe" * 100)
    q = _run(["--file", str(b), "--report", str(tmp_path / "r2")])
    assert q.returncode == 1 and "no event" in q.stderr and "Traceback" not in q.stderr


def test_help_mentions_report():
    q = _run(["--help"])
    assert q.returncode == 0 and "--report" in q.stdout and "2e8a" in q.stdout


def test_night_losses_by_cause():
    """Each way to lose a point is booked to its cause, as many points as it took."""
    ns = importlib.import_module("host_tools.table.nightstats")
    log = [_ev("game", 0, players=["P1", "P2", "P3"], dice=["yellow A"], campaign=None),
           _ev("roll", 10, round=1), _ev("faces", 1510, faces=["cheese2"], left=2),
           _ev("refused", 1600, p="P3"),                                    # -1 at once
           _ev("grab", 1700, p="P1", t_us=1700000, plate=2),                # right
           _ev("grab", 1800, p="P3", t_us=1800000, plate=5),                # wrong: -2
           _ev("score", 1900, round=1, left=2, result="scored", lost={"P2": 1, "P3": 2},
               points={"P1": 7, "P2": 6, "P3": 4}, out=[]),
           _ev("penalty", 2000, p="P2", points=5),                          # table penalty
           _ev("false_start", 2100, p="P1"), _ev("penalty", 2101, p="P1", points=6),  # house rule
           _ev("roll", 3000, round=2), _ev("faces", 4500, faces=["cheese1"], left=1),
           _ev("grab", 4600, p="P1", t_us=4600000, plate=1),
           _ev("grab", 4700, p="P2", t_us=4700000, plate=1),
           _ev("score", 4800, round=2, left=1, result="replay", lost={"P3": 1},
               points={"P1": 6, "P2": 5, "P3": 4}, out=[])]                  # given back: not a loss
    r = ns.Night()
    r.start_file("x")
    for e in log:
        r.add(json.loads(e))
    p = r.result()["players"]
    assert p["P3"]["lost"] == {"no wheel": 0, "wrong": 2, "penalty": 0, "false start": 0, "refused": 1}
    assert p["P2"]["lost"] == {"no wheel": 1, "wrong": 0, "penalty": 1, "false start": 0, "refused": 0}
    assert p["P1"]["lost"] == {"no wheel": 0, "wrong": 0, "penalty": 0, "false start": 1, "refused": 0}
    assert p["P1"]["by_dice"] == {"1": [2, 2]} and p["P3"]["by_answer"] == {"2": [0, 1]}
    assert p["P1"]["reaction_ms"]["best"] == 100.0 and p["P1"]["false_starts"] == 1
    assert r.result()["replays"] == 1
