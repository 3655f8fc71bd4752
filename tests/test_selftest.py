"""The bring-up self-test (rp2port/selftest.py) on a fake port in virtual
time, and the PC side's checklist (host_tools/builder/selftest.py)."""
from array import array

from cheesebox.board import read_board
from host_tools.builder import selftest as host
from rp2port import selftest


class FakePort:
    """Virtual ms clock moved by idle(); raw input samples from a script
    that starts with the input check; frames and tones recorded."""

    def __init__(self, board, script):
        self.t = 1000
        self.t0 = None
        self.script = script            # [(ms after the input check began, bits)]
        self.frames = [[] for _ in board.chains]
        self.tones = []
        self.answer_val = bytearray(8)
        self.answer_seq = bytearray(8)
        self.answer_us = array("i", [0] * 8)
        self.typed = []                 # console lines waiting to be read
        self.said = []                  # console lines the port wrote

    def ticks_ms(self):
        return self.t

    def ticks_us(self):
        return self.t * 1000

    def idle(self, ms, exact_us=-1):
        self.t += max(1, min(ms, 10))

    def poll(self, capture):
        while self.t0 is not None and self.script and self.t0 + self.script[0][0] <= self.t:
            at, bits = self.script.pop(0)
            if isinstance(bits, tuple):          # a placement: (station, value)
                s, v = bits
                self.answer_val[s] = v
                self.answer_seq[s] += 1
            else:
                capture.sample(bits, (self.t0 + at) * 1000)

    def show(self, ci, buf, lo=0, hi=-1):
        self.frames[ci].append(bytes(buf))

    def commit(self):
        pass

    def tone(self, f):
        self.tones.append(f)

    def read_line(self):
        """A line typed on the console (self.typed), or None."""
        return self.typed.pop(0) if self.typed else None

    def write_line(self, text):
        self.said.append(text)


def _run(name, script, input_ms=20000):
    board = read_board("boards/%s.json" % name)
    port = FakePort(board, script)
    events = []

    def log(ev, fields):
        fields["ev"] = ev
        events.append(fields)
        if fields["step"] == "inputs":
            port.t0 = port.t
    selftest.run(port, board, log, walk_ms=1, colour_ms=1, input_ms=input_ms)
    return port, events


def _press(at, bit, hold=80):
    return [(at, 1 << bit), (at + hold, 0)]


def test_every_chain_is_walked_pixel_by_pixel_and_the_piezo_sweeps():
    port, events = _run("pico-4p", [])
    for ci, n in ((0, 384), (1, 32)):
        single = [f for f in port.frames[ci]
                  if sum(1 for i in range(0, len(f), 3) if any(f[i:i + 3])) == 1]
        assert [next(i // 3 for i in range(0, len(f), 3) if any(f[i:i + 3])) for f in single] \
            == list(range(n))
    tones = [f for f in port.tones if f]
    assert tones == sorted(tones) and tones[0] <= 300 and tones[-1] >= 4000 and port.tones[-1] == 0
    steps = [e["step"] for e in events]
    assert steps[:3] == ["start", "walk", "walk"] and steps[-1] == "end"
    assert [e["colour"] for e in events if e["step"] == "colour"] == ["red", "green", "blue", "white"]


def test_inputs_stuck_and_chatter_and_the_checklist():
    script = []
    for s in range(4):
        script += _press(100 + 200 * s, s)
    script += _press(1000, 8)                               # ROLL
    script += [(1500 + 10 * i, (1 << 2) if i % 2 == 0 else 0) for i in range(60)]   # P3 chatters
    script += [(3000, 1 << 1), (9000, 0)]                   # P2 held 6 s: stuck
    script += _press(10000, 8, hold=3200)                   # ROLL held 3 s: the end
    port, events = _run("pico-4p", script)
    steps = [e for e in events if e["step"] in ("stuck", "chatter", "released")]
    assert [(e["step"], e["input"]) for e in steps] == [("chatter", "P3"), ("stuck", "P2"),
                                                         ("released", "P2")]
    assert events[-1]["step"] == "end"
    lines, ok = host.checklist(events, confirm=lambda text: True)
    text = "\n".join(lines)
    assert "station 4: buzzer pressed" in text and "ROLL: pressed" in text
    assert "PROBLEM: P2 stuck" in text and "PROBLEM: P3 chatters" in text and not ok


def test_the_checklist_says_what_was_never_seen():
    script = _press(100, 0) + [(300, (2, 5)), (400, (2, 6))]
    port, events = _run("pico-8p", script, input_ms=2000)
    lines, ok = host.checklist(events, confirm=None)
    text = "\n".join(lines)
    assert "station 1: buzzer pressed; keys never seen: 0 1 2 3 4 5 6 7" in text
    assert "station 3: buzzer never pressed; keys never seen: 0 1 2 3 4 7" in text
    assert "station 8: buzzer never pressed" in text and "ROLL: never pressed" in text
    assert "[not confirmed] chain dice: one light ran along all 384 pixels" in text
    assert "full white would go out at 87" in text
    assert not ok


def test_the_pc_side_reads_a_saved_log_and_saves_the_report(tmp_path):
    script = []
    for s in range(4):
        script += _press(100 + 200 * s, s)
    script += _press(1000, 8, hold=3200)
    _, events = _run("pico-4p", script)
    import json
    log = tmp_path / "box.log"
    log.write_text("cheesebox: pico-4p ready\n" + "\n".join(
        json.dumps(dict(e, v=1, t=0)) for e in events) + "\n")
    report = tmp_path / "report.txt"
    assert host.main(["--file", str(log), "--report", str(report), "--yes"]) == 0
    text = report.read_text()
    assert "station 2: buzzer pressed" in text and "result: everything seen" in text
    assert host.main(["--file", str(log), "--report", str(report), "--no-ask"]) == 1
    assert "[not confirmed]" in report.read_text()
    # as a builder types it: make selftest, here on the saved log
    import os
    import subprocess
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict((k, v) for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"))
    p = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.stamp", "selftest",
                        "FILE=%s" % log, "ARGS=--report %s --yes" % report],
                       cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "result: everything seen" in report.read_text()


def test_a_line_typed_during_the_selftest_is_read_and_answered():
    """The console is read while the self-test runs: a line left waiting
    there (the LF after `selftest`'s CR, or anything typed) would wake every
    sleep of the Pico's at once, and its core would spin to the end."""
    board = read_board("boards/pico-4p.json")
    port = FakePort(board, [])
    port.typed = ["state", "help"]
    selftest.run(port, board, lambda ev, fields: None, walk_ms=1, colour_ms=1, input_ms=100)
    assert port.typed == []
    assert port.said == ["cheesebox: console line ignored: the self-test is running"] * 2
