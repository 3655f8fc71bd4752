"""`make sim` as a table plays it: the simulator on a pseudo-terminal, keys
typed in real time. --log and --timing work in play, and the commands it
prints work typed in a shell that has no venv on its PATH."""
import json
import os
import pty
import select
import struct
import subprocess
import sys
import time

import fcntl
import termios

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BARE_PATH = "/usr/bin:/bin"          # a shell without the venv: `python` has no rich


def _env():
    env = dict(os.environ, PATH=BARE_PATH, TERM="xterm-256color")
    env.pop("MAKELEVEL", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def play_on_a_terminal(args, keys, cols=120, rows=40, cwd=REPO):
    """Run the simulator on a pty of cols x rows, type `keys` ((delay s, text)
    pairs), then Esc; returns (exit code, everything it wrote)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    p = subprocess.Popen([sys.executable, "-m", "sim"] + args, cwd=cwd, env=_env(),
                         stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    out = []

    def drain(seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([master], [], [], left)
            if r:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    return
                if not data:
                    return
                out.append(data)
    deadline = time.monotonic() + 30
    while b"Esc" not in b"".join(out) and time.monotonic() < deadline and p.poll() is None:
        drain(0.2)                    # started: its first frame is up, keys are read
    for delay, text in keys + [(0.3, "\x1b")]:
        drain(delay)
        os.write(master, text.encode())
    deadline = time.monotonic() + 20
    while p.poll() is None and time.monotonic() < deadline:
        drain(0.2)
    drain(0.3)
    os.close(master)
    if p.poll() is None:
        p.kill()
    return p.wait(), b"".join(out).decode("utf-8", "replace")


def test_log_and_timing_work_in_play(tmp_path):
    log = tmp_path / "night.log"
    code, out = play_on_a_terminal(["--seed", "7", "--log", str(log), "--timing"],
                                   [(0.3, "1"), (0.3, "2"), (0.3, "3"), (0.4, " "), (0.5, " "),
                                    (0.5, " "), (2.2, "1")])
    assert code == 0, out[-2000:]
    evs = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["ev"] for e in evs][:4] == ["boot", "join", "join", "join"]
    assert [e["p"] for e in evs if e["ev"] == "join"] == ["P1", "P2", "P3"]
    start = [e for e in evs if e["ev"] == "game"]
    assert len(start) == 1 and start[0]["players"] == ["P1", "P2", "P3"]     # dice confirmed
    assert [e["ev"] for e in evs if e["ev"] in ("roll", "faces")] == ["roll", "faces"]
    assert "timing: virtual" in out                         # live, on the screen
    assert "x real time" in out and "box steps" in out      # and the line at the end


def test_the_replay_line_works_typed_in_a_shell_without_the_venv(tmp_path):
    code, out = play_on_a_terminal(["--board", "pico-8p", "--seed", "4242"], [])
    assert code == 0, out[-2000:]
    line = [ln for ln in out.replace("\r", "").split("\n") if "plays the same dice" in ln][-1]
    cmd = line.split(": ", 1)[1].rsplit(" plays the same dice", 1)[0]
    assert "--board pico-8p" in cmd and "--seed 4242" in cmd
    # typed as printed, in the same folder, by a shell with no venv on PATH
    # (no terminal: it plays its short demo or snapshot and exits 0)
    p = subprocess.run(["sh", "-c", cmd], cwd=REPO, env=_env(), capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, (cmd, p.stderr[-1500:])
    assert "seed 4242" in p.stdout


def test_the_usage_line_works_typed_and_lists_the_card_game():
    p = subprocess.run([sys.executable, "-m", "sim", "--help"], cwd=REPO, env=_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert "--game {cheesonomics}" in p.stdout
    typed = p.stdout.split("usage: ", 1)[1].split(" [", 1)[0]     # ".venv/bin/python -m sim"
    q = subprocess.run(["sh", "-c", typed + " --game cheesonomics --help"], cwd=REPO, env=_env(),
                       capture_output=True, text=True, timeout=60)
    assert q.returncode == 0, (typed, q.stderr[-800:])
    assert "--humans" in q.stdout
