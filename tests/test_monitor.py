"""host_tools/table/monitor.py: the referee screen follows the game as the box logs it.

The logs come from the simulator running scenario files (the firmware's own
event log). The screen is checked as text after each step a referee cares
about; the serial side runs against a pseudo-terminal that is unplugged and
plugged back; lines nobody knows are shown, never a crash.
"""
import importlib.util
import json
import os
import re
import socket
import threading
import signal
import subprocess
import sys
import time

import pytest

from cheesebox.board import read_board
from sim.scenario import Sim, run_script
import ctrl_c
from test_eventlog import PtyBoard, _PortInfo, _ports

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, "host_tools", "table", "monitor.py")
SCEN = os.path.join(REPO, "tests", "scenarios")
_spec = importlib.util.spec_from_file_location("cheesebox_monitor", TOOL)
MON = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(MON)
from host_tools.deploy import boardport  # noqa: E402


def _log(board, script):
    lines = []
    sim = Sim(read_board(os.path.join(REPO, "boards", board + ".json")), log=lines.append)
    run_script(sim, script)
    return lines


def _scenario(name, board):
    with open(os.path.join(SCEN, name + ".txt")) as f:
        return _log(board, f.read())


def _row(text, *cells):
    """The screen line that holds all these cells, in order."""
    for line in text.splitlines():
        pos = 0
        for c in cells:
            pos = line.find(c, pos)
            if pos < 0:
                break
            pos += len(c)
        else:
            return line
    raise AssertionError("no line with %r in:\n%s" % (cells, text))


def test_follows_a_round_as_it_happens():
    lines = _log("pico-8p", "players 3\ndice yellow\nrollbutton\nroll cheese3 cheese1 cat\nwait 1700\n"
                            "answer P2 4\nbuzz P2\nwait 37\nanswer P3 2\nbuzz P3\nwait 2000\n")
    ref = MON.Referee()
    seen = []
    for ln in lines:
        ref.feed_line(ln)
        ev = json.loads(ln)["ev"]
        if ev in ("faces", "grab", "score"):
            seen.append((ev, ref.text()))
    faces = seen[0][1]
    assert "cheese3  cheese1  cat" in faces and "true count: 4" in faces and "round 1: grab!" in faces
    first = seen[1][1]
    _row(first, "1", "P2", "ms", "first", "4 right")
    second = seen[2][1]
    _row(second, "2", "P3", "ms", "+157.0", "2 WRONG")      # 37 ms wait + 20 ms answer + 100 ms press (16 us grid)
    after = seen[3][1]
    _row(after, "P1", "6", "-1", "rolls next")                     # no wheel: marked to roll
    _row(after, "P3", "5", "-2")
    # the grab's time after the reveal is the button's own time (t_us), not the log line's
    evs = [json.loads(x) for x in lines]
    reveal = [e for e in evs if e["ev"] == "faces"][0]["t"]
    g = [e for e in evs if e["ev"] == "grab"][0]
    want = MON.EL.ticks_diff(g["t_us"], reveal * 1000 % (1 << 30)) / 1000.0
    got = float(re.search(r"P2\s+([\d.]+) ms", _row(first, "P2", "first")).group(1))
    assert 200 < got < 300
    assert abs(got - want) < 0.06


def test_whole_game_to_the_winner():
    ref = MON.Referee()
    for ln in _scenario("full_game_plate_cards", "pico-4p"):
        ref.feed_line(ln)
    t = ref.text()
    assert "game over: P1 wins" in t
    _row(t, "P1", "6", "WINNER")
    _row(t, "P3", "0", "out (1.)")
    _row(t, "P2", "0", "out (2.)")
    assert "0 lines not understood" in t


@pytest.mark.parametrize("name, board, says", [
    ("refused_grab", "pico-8p", "refused: no plate placed (-1)"),
    ("false_start", "pico-4p", "false start"),
    ("penalty", "pico-4p", "penalty: "),
    ("full_game_plate_cards", "pico-4p", "owns up"),
])
def test_refusals_false_starts_penalties_shown(name, board, says):
    ref = MON.Referee()
    texts = []
    for ln in _scenario(name, board):
        ref.feed_line(ln)
        texts.append(ref.text())
    assert any(says in t for t in texts)


def test_unknown_lines_are_shown_never_a_crash():
    ref = MON.Referee()
    junk = ["MicroPython v1.25.0 on 2025-04-15", '{"v": 1, "ev": "teleport", "t": 5}', "{not json",
            b"\xff\xfe\x00", '{"v": 2, "ev": "boot"}', "", "\x1b[2J",
            '{"p": "P3", "t_us": 5, "plate": 9, "v": 1, "ev": "grab", "t": 7}',      # before any game
            '{"p": "P1", "points": 3, "v": 1, "ev": "penalty", "t": 8}',
            '{"faces": [], "left": 0, "v": 1, "ev": "faces", "t": 9}']
    for ln in junk:
        ref.feed_line(ln)
    t = ref.text(width=120)
    assert "? {\"v\": 1, \"ev\": \"teleport\"" in t and "unknown event" in t
    assert "> MicroPython v1.25.0" in t
    assert ref.unknown == 3 and ref.noise == 3
    for ln in _scenario("full_game_plate_cards", "pico-4p"):       # and a game still follows
        ref.feed_line(ln)
    assert "game over: P1 wins" in ref.text()


def _run(args, **kw):
    return subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True,
                          timeout=120, **kw)


def test_cli_pipe_from_the_simulator():
    """python -m sim --log - | monitor.py, as docs/host-tools.md prints it:
    only the log (stderr) goes into the pipe, not the simulator's picture."""
    doc = open(os.path.join(REPO, "docs", "host-tools.md"), encoding="utf-8").read()
    typed = [ln for ln in doc.splitlines() if "-m sim" in ln and "monitor.py" in ln]
    assert typed == [".venv/bin/python -m sim --script game.txt --log - 2>&1 >/dev/null | "
                     ".venv/bin/python host_tools/table/monitor.py"]
    cmd = ("%s -m sim --script %s --log - 2>&1 >/dev/null | %s %s --snapshot"
           % (sys.executable, os.path.join(SCEN, "full_game_plate_cards.txt"), sys.executable, TOOL))
    q = subprocess.run(cmd, shell=True, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert q.returncode == 0, q.stderr
    assert "game over: P1 wins" in q.stdout and "board pico-4p" in q.stdout
    assert "0 console lines, 0 lines not understood" in q.stdout


def test_cli_snapshot_after_each_round(tmp_path):
    log = tmp_path / "g.log"
    log.write_text("\n".join(_scenario("full_game_plate_cards", "pico-4p")) + "\n")
    q = _run(["--file", str(log), "--snapshot", "--snapshot-after", "score"])
    assert q.returncode == 0
    screens = q.stdout.split("Cheese Box referee")[1:]
    assert len(screens) == 8                   # after each of the seven rounds, then the last screen
    assert "round 2 scored" in screens[1] and "game over: P1 wins" in screens[-1]


def test_replay_speed_follows_the_box_clock(tmp_path):
    lines = _scenario("false_start", "pico-4p")
    log = tmp_path / "g.log"
    log.write_text("\n".join(lines) + "\n")
    slept = []
    out = list(MON.file_lines(str(log), 2.0, sleep=slept.append))
    assert len(out) == len(lines)
    evs = [json.loads(x) for x in lines]
    total = MON.EL.ticks_diff(evs[-1]["t"], evs[0]["t"]) / 1000.0
    assert sum(slept) == pytest.approx(total / 2.0, abs=0.01) or max(slept) == 5.0


def test_serial_unplugged_and_back(tmp_path):
    """The board goes away mid-game and comes back: the screen says so and goes on."""
    lines = _scenario("full_game_plate_cards", "pico-4p")
    half = len(lines) // 2
    board = PtyBoard(tmp_path)
    p = ctrl_c.popen([sys.executable, TOOL, "--port", board.path, "--snapshot", "--width", "250"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        board.send(("\r\n".join(lines[:half]) + "\r\n").encode(), then_unplug=True).join(20)
        time.sleep(0.5)
        board.plug()
        board.send(("cheesebox: pico-4p ready\r\n" + "\r\n".join(lines[half:]) + "\r\n").encode()).join(20)
        time.sleep(0.5)
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)     # a loaded CI machine
        board.unplug()
    assert p.returncode == 0, err
    assert "unplugged" in err and "reconnected" in err
    n = sum(1 for line in lines if '"ev"' in line)      # every event of the game, both halves
    assert "game over: P1 wins" in out and "[reconnected: " in out and "%d events" % n in out


def test_emulated_board_on_a_socket(tmp_path):
    """A pyserial URL (socket://, as an emulated Pico or Wokwi's rfc2217:// serve the console)."""
    lines = _scenario("false_start", "pico-4p")
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def serve():
        conn, _ = srv.accept()
        time.sleep(0.5)             # pyserial empties what is waiting as it connects
        conn.sendall(("\r\n".join(lines) + "\r\n").encode())
        time.sleep(0.5)
        conn.close()
        srv.close()
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    p = ctrl_c.popen([sys.executable, TOOL, "--port", "socket://127.0.0.1:%d" % port, "--snapshot"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t.join(20)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)     # a loaded CI machine
    assert p.returncode == 0, err
    assert "connected: socket://127.0.0.1:%d" % port in err and "unplugged" in err
    assert "%d events" % len(lines) in out and "false start" in out


def test_follow_auto_finds_the_pico_again(monkeypatch, tmp_path):
    """--port auto: the Pico may come back as another device; it is found by its USB id."""
    board = PtyBoard(tmp_path)
    ports = [_PortInfo("/dev/ttyS0", None), _PortInfo(board.path, 0x2E8A)]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: list(ports))
    said = []
    lines = boardport.follow("auto", status=said.append, retry_s=0.05)
    board.send(b'{"v": 1, "ev": "discard", "t": 1}\r\n', then_unplug=True)
    assert next(lines).startswith('{"v": 1, "ev": "discard"')
    assert said == ["connected: " + board.path]
    ports.pop()                                   # unplugged: no Pico on USB for a while
    other = PtyBoard(tmp_path / "x") if os.makedirs(tmp_path / "x") is None else None
    ports.append(_PortInfo(other.path, 0x2E8A))
    other.send(b"hello again\r\n")
    assert next(lines) == "hello again"
    assert said[1].startswith("board unplugged") and said[2] == "reconnected: " + other.path
    other.unplug()


def test_no_board_busy_missing(monkeypatch, tmp_path, capsys):
    _ports(monkeypatch, [_PortInfo("/dev/ttyS0", None)])
    assert MON.main(["--port", "auto"]) == 2
    assert capsys.readouterr().err.startswith("error: no board")
    assert MON.main(["--port", str(tmp_path / "ttyNONE")]) == 2
    assert "no such port" in capsys.readouterr().err
    import serial
    board = PtyBoard(tmp_path)
    holder = serial.Serial(board.path, exclusive=True)
    try:
        assert MON.main(["--port", board.path]) == 2
        assert "busy" in capsys.readouterr().err
    finally:
        holder.close()
        board.unplug()


@pytest.mark.parametrize("what", ["missing", "folder"])
def test_unreadable_file(tmp_path, what):
    path = tmp_path / "nope.log" if what == "missing" else tmp_path
    q = _run(["--file", str(path)])
    assert q.returncode == 2 and "cannot be read" in q.stderr and "Traceback" not in q.stderr


def test_help():
    q = _run(["--help"])
    assert q.returncode == 0 and "--port" in q.stdout and "--snapshot" in q.stdout


def test_every_time_on_the_screen_has_one_form():
    """Times after the reveal and gaps between grabs, side by side in the grab
    table, in the same unit with the same decimals (they were 212.4 ms and
    +157.000 ms)."""
    lines = _log("pico-8p", "players 3\ndice yellow\nrollbutton\nroll cheese3 cheese1 cat\nwait 1700\n"
                            "answer P2 4\nbuzz P2\nwait 37\nanswer P3 2\nbuzz P3\nwait 2000\n")
    ref = MON.Referee()
    for ln in lines:
        ref.feed_line(ln)
    times = re.findall(r"\d[\d.]* ms\b", ref.text(width=160))
    assert len(times) >= 3, ref.text()
    assert all(re.fullmatch(r"\d+\.\d{3} ms", t) for t in times), times
