"""Every make target but `test` and `clean`, and every host tool, run as a
user types them, each in a quick mode on small input: none can
break unnoticed again (`make bench` once failed at once for a newcomer).

Each test asserts what the user would see: the screen, the lines printed,
the files written. Paths with a space go through the make variables that
hold one path (FILE, REPORT, BOARD, UF2), quoted by the Makefile's recipes.
make runs with `-o .venv/.stamp`: this very .venv runs the test, and a
Makefile edited since it was built would otherwise reinstall it mid-suite.

`make bench` is run by tests/test_bench.py (`bench/run.py --smoke`),
the parts of `make test` by `make test` itself, `make emu-firmware`, `make
uf2` and `python -m emu --script` by their own tests (tests/emu/ runs the
last two on the emulated Pico): test_every_target_is_run_somewhere keeps
that list honest.
"""
import fcntl
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
SCEN = REPO / "tests" / "scenarios"
MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")

# where each target not run here is run, and how (a test file and a string it holds)
ELSEWHERE = {
    "test": None, "clean": None, "all": None,          # all is test
    "venv": ("Makefile", "test: $(STAMP)"),             # every make run builds or checks it
    "check-mpy": ("Makefile", "check-mpy\n"), "typecheck": ("Makefile", "typecheck\n"),
    "lint": ("Makefile", "lint\n"),
    "test-mp": ("Makefile", "test-mp\n"), "emu-deps": ("Makefile", "emu-deps\n"),
    "emu2350-deps": ("Makefile", "emu2350-deps: emu-deps\n"),
    "test-py": ("Makefile", "test-py\n"), "test-emu": ("Makefile", "--dist worksteal tests/emu\n"),
    "bench": ("tests/test_bench.py", "--smoke"),
    "selftest": ("tests/test_selftest.py", '"selftest"'),
    "soak": ("tests/emu/test_emu_soak.py", '"soak", "MINUTES=1"'),
    "emu-firmware": ("tests/test_emu_firmware.py", '"emu-firmware"'),
    "uf2": ("tests/emu/test_emu_hostimage.py", '"uf2"'),
    "browser-deps": ("Makefile", "browser-deps\n"),
    "web-build": ("tests/web/conftest.py", '"web-build"'),
    "web": ("tests/web/test_web_serve.py", '"web"'),
}
# the host tools not behind a make target, and where they run as typed
TOOLS = {
    "python -m emu --script": ("tests/emu/test_emu_cli.py", '[sys.executable, "-m", "emu"]'),
    "host_tools/builder/wiring.py": ("tests/test_targets.py", 'tool("builder/wiring.py", "--all", "--check")'),
    "host_tools/table/eventlog.py": ("tests/test_targets.py", 'tool("table/eventlog.py", "--file", log, "--plot"'),
    "host_tools/builder/wokwi.py": ("tests/test_targets.py", 'tool("builder/wokwi.py", "--all", "--check")'),
    "host_tools/builder/brightness.py": ("tests/test_targets.py", 'tool("builder/brightness.py", "--board", "pico-4p"'),
}
RUN_HERE = {"help", "dicelab", "monitor", "report", "balance", "wokwi", "flash", "package-json",
            "sim", "emu", "refcard"}


def _env(**extra):
    e = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):      # not the make that may run pytest
        e.pop(k, None)
    e.update(extra)
    return e


def make_argv(*args):
    """`make ARGS` as typed (see the module's docstring for -o)."""
    return [MAKE, "--no-print-directory", "-o", ".venv/.stamp", *args]


def make(*args, cwd=REPO, timeout=180, **env):
    """`make ARGS` run in the repository (or cwd), its output kept."""
    return subprocess.run(make_argv(*args), cwd=cwd, env=_env(**env), capture_output=True,
                          text=True, timeout=timeout)


def tool(name, *args, timeout=180):
    return subprocess.run([PY, str(REPO / "host_tools" / name), *args], cwd=REPO, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def ok(p):
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "Traceback" not in p.stdout + p.stderr
    return p


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """A folder with a space in its name, holding one whole game's event log
    (`python -m sim --script ... --log FILE`): the small input of the log tools."""
    d = tmp_path_factory.mktemp("targets") / "game night"
    d.mkdir()
    log = d / "game 1.log"
    ok(subprocess.run([PY, "-m", "sim", "--script", str(SCEN / "full_game_plate_cards.txt"),
                       "--log", str(log)], cwd=REPO, env=_env(), capture_output=True, text=True,
                      timeout=120))
    assert log.read_text().count('"ev": "score"') >= 2
    return d


def _phony():
    text = (REPO / "Makefile").read_text()
    return set(re.search(r"^\.PHONY:(.*)$", text, re.M).group(1).split())


def test_every_target_is_run_somewhere():
    """A new make target needs a quick mode here, or the name of the test that runs it."""
    targets = _phony()
    assert targets == RUN_HERE | set(ELSEWHERE), sorted(targets ^ (RUN_HERE | set(ELSEWHERE)))
    for target, where in ELSEWHERE.items():
        if where is not None:
            path, needle = where
            assert needle in (REPO / path).read_text(), (target, path)
    for name, (path, needle) in TOOLS.items():
        assert needle in (REPO / path).read_text(), (name, path)
    makefile = (REPO / "Makefile").read_text()
    for script in sorted((REPO / "host_tools").glob("**/*.py")):   # every tool one can run
        if '__name__ == "__main__"' in script.read_text():
            rel = script.relative_to(REPO).as_posix()
            assert "$(PY) " + rel in makefile or rel in TOOLS, rel
    here = (Path(__file__)).read_text()
    for target in RUN_HERE:
        assert re.search(r'make(_argv)?\("%s"' % re.escape(target), here), target


def test_make_help_lists_every_target_and_the_parts_of_make_test():
    out = ok(make("help")).stdout
    assert "$(" not in out                       # it printed a literal $(BOARD)
    assert "make flash   copy the firmware + boards/BOARD.json" in out
    for target in _phony() - {"all"}:
        assert re.search(r"\bmake %s\b" % re.escape(target), out), target
    parts = out[out.index("parts of make test"):]
    parts = parts[:parts.index("make package-json")]
    for t in ("check-mpy", "typecheck", "lint", "test-mp", "emu-deps", "test-py", "test-emu"):
        assert "make " + t in parts, (t, parts)
    assert "make monitor" in out and "FILE=game.log" in out
    assert ".venv/bin/python -m sim --help" in out     # a command that works as typed


def test_make_dicelab(tmp_path):
    out = ok(make("dicelab")).stdout
    assert "Dice lab: the default dice." in out
    assert "+king" in out and "46656" in out
    assert "FLAG campaign game 1 (1 random yellow): answer 0 comes up 38.9%" in out
    # a dice file in a folder with a space: ARGS is a list, the path takes its own quotes
    d = tmp_path / "our dice"
    d.mkdir()
    spec = json.loads((REPO / "docs" / "default.json").read_text())
    spec["dice"][3]["faces"] = ["cheese1"] * 6
    (d / "my dice.json").write_text(json.dumps(spec))
    out = ok(make("dicelab", "ARGS=--dice '%s'" % (d / "my dice.json"))).stdout
    assert "Dice lab: my dice.json." in out
    assert "FLAG die 4 (orange dog): cheese1 on all six faces" in out


def test_make_monitor_replays_a_saved_log(night):
    """`make monitor FILE=...` replays a file (it always passed --port)."""
    log = night / "game 1.log"
    out = ok(make("monitor", "FILE=%s" % log, "ARGS=--snapshot")).stdout
    assert "game over: P1 wins" in out and "board pico-4p" in out
    n = log.read_text().count('"ev": ')                   # every event of the game
    assert "%d events" % n in out and "0 lines not understood" in out
    # round by round, at its own pace in real time is --speed: a replay at 1000x
    out = ok(make("monitor", "FILE=%s" % log, "ARGS=--snapshot --snapshot-after score --speed 1000")).stdout
    assert out.count("round 1") >= 1 and out.count("game over: P1 wins") >= 1


def test_make_monitor_names_a_missing_board_or_file(tmp_path):
    p = make("monitor", "PORT=%s" % (tmp_path / "no such tty"), "ARGS=--snapshot")
    assert p.returncode == 2 and "error:" in p.stderr and "no such tty" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    p = make("monitor", "FILE=%s" % (tmp_path / "lost night.log"))
    assert p.returncode == 2 and "lost night.log: cannot be read (no such file)" in p.stderr, p.stderr


def test_make_report_on_a_small_log(night):
    report = night / "the report"
    out = make("report", "LOGS='%s'" % (night / "game 1.log"), "REPORT=%s" % report)
    ok(out)
    assert "P1" in out.stdout and "win" in out.stdout
    html = (report / "report.html").read_text()
    assert "<img" in html and "data:image/png;base64," in html
    assert list(report.glob("*.png"))
    p = make("report")
    assert p.returncode == 2 and 'make report LOGS="a.log b.log"' in p.stdout


def test_make_balance_quick(tmp_path):
    png = tmp_path / "bal ance.png"
    out = ok(make("balance", "ARGS=--games 20 --players 3 --variant basic --plot '%s'" % png)).stdout
    assert "20 games in" in out and "games/s" in out
    assert "Market card list:" in out
    assert "plot: " in out and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    p = make("balance", "ARGS=--players 7")
    assert p.returncode == 2 and "argument --players" in p.stderr


def test_make_wokwi_and_its_check(tmp_path):
    out = ok(make("wokwi", "ARGS=--check")).stdout          # the repository: compared, never written
    assert "up to date: boards/wokwi/pico-4p (diagram.json, wokwi.toml)" in out
    assert "up to date: boards/wokwi/pico-8p" in out
    dest = tmp_path / "wokwi projects"
    out = ok(make("wokwi", "ARGS=-o '%s'" % dest)).stdout
    for name in ("pico-4p", "pico-8p"):
        for f in ("diagram.json", "wokwi.toml"):
            assert "wrote %s" % (dest / name / f) in out
            assert (dest / name / f).read_bytes() == (REPO / "boards" / "wokwi" / name / f).read_bytes()
    out = ok(tool("builder/wokwi.py", "--all", "--check")).stdout
    assert "up to date: boards/wokwi/pico-4p" in out
    # the Wokwi projects run the official MicroPython the emulated Pico's download names
    from emu.pico import CHIPS
    fw = CHIPS["rp2040"]["official_firmware"]
    for name in ("pico-4p", "pico-8p"):
        toml = (REPO / "boards" / "wokwi" / name / "wokwi.toml").read_text()
        assert 'firmware = "%s"' % fw in toml
    assert "`%s`" % fw in (REPO / "docs" / "host-tools.md").read_text()


def test_wiring_check():
    out = ok(tool("builder/wiring.py", "--all", "--check")).stdout
    assert "up to date: the wiring diagrams and pin tables of pico-4p, pico-8p, pico2-8p" in out
    svg = ok(tool("builder/wiring.py", "boards/pico-8p.json")).stdout
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    table = ok(tool("builder/wiring.py", "boards/pico-4p.json", "--table")).stdout
    assert "| GP" in table


def test_eventlog_file_json_and_plot(night):
    log = str(night / "game 1.log")
    out = ok(tool("table/eventlog.py", "--file", log)).stdout
    assert "winner: P1" in out
    r = json.loads(ok(tool("table/eventlog.py", "--file", log, "--json")).stdout)
    assert r["winner"] == "P1" and r["events"] == open(log).read().count('"ev": ')
    png = night / "game 1.png"
    p = ok(tool("table/eventlog.py", "--file", log, "--plot", str(png)))
    assert "plot: wrote %s" % png in p.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_make_flash_to_the_board_double(tmp_path):
    """`make flash` with a board file in a folder with a space, to the fake
    Pico of tests/test_flash.py (mpremote over a socket, a real MicroPython)."""
    from test_flash import FakeBoard
    boards = tmp_path / "my boards"
    boards.mkdir()
    shutil.copy(REPO / "boards" / "pico-4p.json", boards / "pico-4p.json")
    board = FakeBoard(tmp_path / "flash", tmp_path / "events.log")
    (tmp_path / "flash").mkdir(exist_ok=True)
    try:
        p = make("flash", "BOARD=%s" % (boards / "pico-4p.json"), "PORT=%s" % board.url,
                 CHEESEBOX_FLASH_BUILD=str(tmp_path / "build"))
    finally:
        board.stop()
    ok(p)
    assert re.search(r"flash: verified (\d+) files on the board \(sha256\); \1 copied", p.stdout), p.stdout
    assert "board reset: the game starts" in p.stdout
    assert (tmp_path / "flash" / "board.json").read_bytes() == (boards / "pico-4p.json").read_bytes()
    assert (tmp_path / "flash" / "cheesebox" / "box.mpy").exists()
    # docs/deploy.md says how much goes over: the figure make flash prints
    size = int(re.search(r"flash: build/flash/: \d+ files, (\d+) bytes", p.stdout).group(1))
    doc = int(re.search(r"about (\d+) KB of bytecode", (REPO / "docs" / "deploy.md").read_text()).group(1))
    assert abs(doc - size / 1000) <= 3, (doc, size)


def test_make_package_json_in_a_copy(tmp_path):
    """`make package-json` rewrites package.json: in a copy of the repository
    (in a folder with a space) it writes the same file the repository holds."""
    copy = tmp_path / "my clone"
    copy.mkdir()
    for f in ("Makefile", "requirements.txt", "package.json"):
        shutil.copy2(REPO / f, copy / f)
    shutil.copytree(REPO / "firmware", copy / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "host_tools", copy / "host_tools", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / ".venv").symlink_to(REPO / ".venv")
    (copy / "package.json").write_text("{}\n")
    p = ok(make("package-json", cwd=copy))
    n = len(json.loads((REPO / "package.json").read_text())["urls"])
    assert "flash: wrote package.json (%d files)" % n in p.stdout
    assert (copy / "package.json").read_bytes() == (REPO / "package.json").read_bytes()


# -- under a terminal: make sim and make emu, a few keys, Esc ---------------------------
_ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Terminal:
    """A command on a pseudo-terminal of COLS x ROWS, as a user's terminal
    runs it: keys in, the screen's text (escape sequences dropped) out."""

    def __init__(self, argv, cols=100, rows=32):
        import pty
        self.fd, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=REPO,
                                     env=_env(TERM="xterm-256color"), start_new_session=True)
        os.close(slave)
        self.raw = b""

    def text(self):
        return _ANSI.sub(b"", self.raw).decode("utf-8", "replace")

    def read(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:            # the far end closed: the program is gone
                    return
                if not chunk:
                    return
                self.raw += chunk

    def wait_for(self, pattern, seconds):
        """Read until the screen (since `mark`) shows pattern; the match."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            m = re.search(pattern, self.text()[self.mark:])
            if m:
                return m
            if self.proc.poll() is not None:
                self.read(0.2)
                break
            self.read(0.2)
        m = re.search(pattern, self.text()[self.mark:])
        assert m, "screen never showed %r:\n%s" % (pattern, self.text()[-3000:])
        return m

    mark = 0

    def since_now(self):
        self.mark = len(self.text())

    def key(self, k, settle=0.3):
        os.write(self.fd, k)
        self.read(settle)

    def quit(self, seconds=20):
        self.key(b"\x1b", 0)
        end = time.monotonic() + seconds
        while self.proc.poll() is None and time.monotonic() < end:
            self.read(0.2)
        self.read(0.2)
        rc = self.proc.poll()
        if rc is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)
        return rc


def test_make_sim_under_a_terminal():
    t = Terminal(make_argv("sim"))
    try:
        t.wait_for(r"\[1\] P1 .*wheel", 60)              # the box: the dice and the tracks
        t.wait_for(r"join", 5)
        t.key(b"1")
        t.key(b"2")
        t.since_now()
        t.key(b" ", 0.5)                                  # two joined: ROLL opens the dice menu
        t.wait_for(r"menu · choice yellow", 10)
        t.wait_for(r"1 yellow A +2 yellow B +3 yellow C", 5)
    finally:
        rc = t.quit()
    assert rc == 0, t.text()[-2000:]
    assert re.search(r"seed \d+: .*--seed \d+\"? plays the same dice", t.text()[-500:]), t.text()[-500:]
    assert "Traceback" not in t.text()


def test_make_emu_under_a_terminal():
    from emu.pico import EmulatorMissing, locate
    try:
        locate()
    except EmulatorMissing as e:
        pytest.skip("the emulated Pico is missing: %s" % e)
    if not (REPO / "emu" / "node_modules").is_dir():
        pytest.skip("emu/node_modules is missing: make emu-deps (needs npm)")
    t = Terminal(make_argv("emu"))
    try:
        t.wait_for(r"the Cheese Box - pico-4p - emulated Pico", 120)
        t.wait_for(r"join · joined nobody yet", 120)       # the real firmware booted on it: its log says so
        t.since_now()
        t.key(b"1")                                       # P1's buzzer pin: P1 joins
        t.wait_for(r"join · joined P1\b", 60)
    finally:
        rc = t.quit()
    assert rc == 0, t.text()[-2000:]
    assert "Traceback" not in t.text()


def test_brightness_tool():
    """The per mille the power limit gives a board on a supply, as a builder asks it."""
    p = ok(tool("builder/brightness.py", "--board", "pico-4p", "--ma", "500"))
    assert "pico-4p" in p.stdout and "500" in p.stdout


def test_make_refcard(tmp_path):
    """The reference card a table prints, written where the builder asks."""
    out = tmp_path / "my card"
    ok(make("refcard", 'ARGS=--out "%s"' % out))
    assert (tmp_path / "my card.png").stat().st_size > 1000
    assert (tmp_path / "my card.pdf").read_bytes()[:4] == b"%PDF"
    assert (tmp_path / "my card-dials.pdf").read_bytes()[:4] == b"%PDF"     # a box with dials

