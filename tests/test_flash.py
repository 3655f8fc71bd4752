"""host_tools/flash.py against a fake Pico (host_tools/fake_board.py).

The fake board speaks MicroPython's raw REPL on a local TCP port and runs
what mpremote sends on the real unix MicroPython, in a folder that plays the
board's flash. So these tests drive the real mpremote, the real mpy-cross
output and a real MicroPython, without a Pico.
"""
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
FLASH = REPO / "host_tools" / "flash.py"
FAKE = REPO / "host_tools" / "fake_board.py"
MICROPYTHON = Path(sys.executable).parent / "micropython"
MODULES = sorted(p.stem for p in (FIRMWARE / "cheesebox").glob("*.py"))


class FakeBoard:
    def __init__(self, flash: Path, log: Path, *extra: str):
        self.flash = flash
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, str(FAKE), "--flash", str(flash), "--port", "0", "--log", str(log), *extra],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("fake board listening on 127.0.0.1:"), line
        self.url = "socket://" + line.split()[-1]

    def events(self):
        return self.log.read_text() if self.log.exists() else ""

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def flash(*args, timeout=60):
    return subprocess.run([sys.executable, str(FLASH), *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A fake board flashed once with pico-4p: (board, result)."""
    root = tmp_path_factory.mktemp("fakeboard")
    sandbox = root / "flash"
    # leftovers of an earlier flash: a source module that would shadow the
    # new .mpy, a module that no longer exists, and a user file to keep
    (sandbox / "cheesebox").mkdir(parents=True)
    (sandbox / "cheesebox" / "box.py").write_text("raise ImportError('stale box.py')\n")
    (sandbox / "cheesebox" / "gone.mpy").write_bytes(b"M\x06")
    (sandbox / "cheesebox" / "notes.txt").write_text("keep me")
    board = FakeBoard(sandbox, root / "events.log")
    try:
        yield board, flash("pico-4p", "--port", board.url)
    finally:
        board.stop()


def test_flash_copies_verifies_and_resets(flashed):
    board, res = flashed
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    fl = board.flash
    assert (fl / "board.json").read_bytes() == (REPO / "boards" / "pico-4p.json").read_bytes()
    assert (fl / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    on_board = sorted(p.name for p in (fl / "cheesebox").iterdir())
    assert on_board == sorted([m + ".mpy" for m in MODULES] + ["notes.txt"])
    built = REPO / "build" / "flash"
    for m in MODULES:
        assert (fl / "cheesebox" / (m + ".mpy")).read_bytes() == (built / "cheesebox" / (m + ".mpy")).read_bytes()
    # the stale modules went, the sha256 check ran on the board and passed,
    # and the board was reset after it
    assert "removed stale :cheesebox/box.py" in res.stdout
    assert "removed stale :cheesebox/gone.mpy" in res.stdout
    n = len(MODULES) + 2
    assert "verified %d files on the board (sha256)" % n in res.stdout
    events = board.events()
    assert events.count("exec import hashlib") >= n
    assert events.index("exec import hashlib") < events.index("hard-reset")
    assert "soft-reset" not in events       # `resume`: the game's watchdog timer keeps running


def test_flashed_mpy_files_import_on_micropython(flashed):
    """mpy-cross 1.29 bytecode loads on the unix MicroPython 1.29 straight
    from the flashed files (no sources on the path)."""
    board, res = flashed
    assert res.returncode == 0
    code = ("import cheesebox.box, cheesebox.board\n"
            "print(cheesebox.box.__file__)\n"
            "b = cheesebox.board.read_board('board.json')\n"
            "print(b.name, b.stations)\n")
    env = dict(os.environ, MICROPYPATH=str(board.flash))
    p = subprocess.run([str(MICROPYTHON), "-c", code], cwd=board.flash, env=env,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stdout + p.stderr
    path, name, stations = p.stdout.split()
    assert path.endswith("cheesebox/box.mpy") and (name, stations) == ("pico-4p", "4")
    assert [p.name for p in board.flash.rglob("*.py")] == ["main.py"]   # no sources to fall back on


def test_flash_fails_loudly_on_a_damaged_copy(flashed, tmp_path):
    board, res = flashed
    assert res.returncode == 0
    # the same board, box.mpy missing; its new copy arrives with a flipped byte
    sandbox = tmp_path / "flash"
    shutil.copytree(board.flash, sandbox)
    (sandbox / "cheesebox" / "box.mpy").unlink()
    bad = FakeBoard(sandbox, tmp_path / "events.log", "--corrupt", "cheesebox/box.mpy")
    try:
        r = flash("pico-4p", "--port", bad.url)
    finally:
        bad.stop()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "VERIFY FAILED" in r.stderr
    assert ":cheesebox/box.mpy: sha256 mismatch" in r.stderr
    assert r.stderr.count("sha256 mismatch") == 1
    assert "hard-reset" not in bad.events()      # a damaged board is not restarted
    good = hashlib.sha256((REPO / "build" / "flash" / "cheesebox" / "box.mpy").read_bytes()).hexdigest()
    assert hashlib.sha256((sandbox / "cheesebox" / "box.mpy").read_bytes()).hexdigest() != good


def test_no_board_is_a_clear_message_and_exit_2():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                    # nothing listens there now
    r = flash("pico-4p", "--port", "socket://127.0.0.1:%d" % port)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no MicroPython board found (plug in the Pico with USB; hold ROLL while plugging in " \
           "if the game is running)" in r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_bad_board_file_stops_before_the_board(tmp_path):
    bad = tmp_path / "bad.json"
    spec = json.loads((REPO / "boards" / "pico-4p.json").read_text())
    spec["roll"] = 99
    bad.write_text(json.dumps(spec))
    r = flash(str(bad), "--port", "socket://127.0.0.1:1")
    assert r.returncode == 2
    assert "'roll'" in r.stderr and "no MicroPython board" not in r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_dry_run_touches_no_board():
    r = flash("pico-4p", "--dry-run", "--port", "socket://127.0.0.1:1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fs sha256sum" in r.stdout and ":board.json" in r.stdout


def test_package_json_lists_every_firmware_file_once():
    pkg = json.loads((REPO / "package.json").read_text())
    assert pkg["deps"] == []
    assert isinstance(pkg["version"], str) and pkg["version"]
    files = sorted(p.relative_to(REPO).as_posix() for p in FIRMWARE.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    sources = [src for _, src in pkg["urls"]]
    hint = "out of date: run .venv/bin/python host_tools/flash.py --write-package-json"
    assert sorted(sources) == files, hint
    assert len(set(sources)) == len(sources), hint
    for dest, src in pkg["urls"]:
        assert "firmware/" + dest == src      # each file lands where flash.py puts it
