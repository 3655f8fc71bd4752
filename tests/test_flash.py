"""host_tools/deploy/flash.py against a fake Pico (tests/fake_board.py, a test double).

The fake board speaks MicroPython's raw REPL on a local TCP port and runs
what mpremote sends on the real unix MicroPython, in a folder that plays the
board's flash. So these tests drive the real mpremote, the real mpy-cross
output and a real MicroPython, without a Pico.
"""
import hashlib
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cheesebox.version import VERSION

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
FLASH = REPO / "host_tools" / "deploy" / "flash.py"
FAKE = REPO / "tests" / "fake_board.py"
MICROPYTHON = Path(sys.executable).parent / "micropython"
PACKAGES = ("cheesebox", "rp2port", "cheesemaster", "cheesonomics")
# package/module of every module flash.py deploys, as the board names them
MODULES = sorted("%s/%s" % (pkg, p.stem) for pkg in PACKAGES for p in (FIRMWARE / pkg).glob("*.py"))
DATA = ["cheesonomics/cards.json"]


def load_flash_module():
    """host_tools/deploy/flash.py as a module, to call its functions in-process."""
    spec = importlib.util.spec_from_file_location("flash_tool", FLASH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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


def flash(*args, build: Path, timeout=60):
    """flash.py ARGS building into BUILD (a folder of the test's own: tests
    running side by side do not share build/flash/)."""
    env = dict(os.environ, CHEESEBOX_FLASH_BUILD=str(build))
    return subprocess.run([sys.executable, str(FLASH), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def on_board(fl: Path, pkg: str) -> list[str]:
    return sorted(pkg + "/" + p.name for p in (fl / pkg).iterdir())


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """A fake board flashed once with pico-4p: (board, result, build folder)."""
    root = tmp_path_factory.mktemp("fakeboard")
    sandbox = root / "flash"
    # leftovers of an earlier flash: source modules that would shadow the new
    # .mpy, modules that no longer exist, and user files to keep
    (sandbox / "cheesebox").mkdir(parents=True)
    (sandbox / "cheesebox" / "box.py").write_text("raise ImportError('stale box.py')\n")
    (sandbox / "cheesebox" / "gone.mpy").write_bytes(b"M\x06")
    (sandbox / "cheesebox" / "version.py").write_text('VERSION = "0.0.1"\n')  # an older box
    (sandbox / "cheesebox" / "notes.txt").write_text("keep me")
    (sandbox / "cheesonomics").mkdir()
    (sandbox / "cheesonomics" / "engine.py").write_text("raise ImportError('stale engine.py')\n")
    (sandbox / "cheesonomics" / "old.py").write_text("pass\n")
    (sandbox / "cheesonomics" / "cards.json").write_text("{}")      # an older card list
    board = FakeBoard(sandbox, root / "events.log")
    try:
        yield board, flash("pico-4p", "--port", board.url, build=root / "build"), root / "build"
    finally:
        board.stop()


def test_flash_copies_verifies_and_resets(flashed):
    board, res, built = flashed
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    fl = board.flash
    assert (fl / "board.json").read_bytes() == (REPO / "boards" / "pico-4p.json").read_bytes()
    assert (fl / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
    # both packages arrive, each module as .mpy, the card list as it is
    assert on_board(fl, "cheesebox") == sorted([m + ".mpy" for m in MODULES if m.startswith("cheesebox/")]
                                               + ["cheesebox/notes.txt"])
    assert on_board(fl, "cheesonomics") == sorted([m + ".mpy" for m in MODULES
                                                   if m.startswith("cheesonomics/")] + DATA)
    for m in MODULES:
        assert (fl / (m + ".mpy")).read_bytes() == (built / (m + ".mpy")).read_bytes(), m
    for d in DATA:
        assert (fl / d).read_bytes() == (FIRMWARE / d).read_bytes() == (built / d).read_bytes()
    # the stale modules went, the sha256 check ran on the board and passed,
    # and the board was reset after it
    # the board's version, read before the copy, and the new one
    assert "flash: firmware version: 0.0.1 -> %s\n" % VERSION in res.stdout
    assert "WARNING" not in res.stdout          # the fake board's MicroPython is new enough
    for stale in ("cheesebox/box.py", "cheesebox/gone.mpy", "cheesebox/version.py",
                  "cheesonomics/engine.py",
                  "cheesonomics/old.py"):
        assert "removed stale :%s" % stale in res.stdout
    assert "removed stale :cheesonomics/cards.json" not in res.stdout
    n = len(MODULES) + len(DATA) + 3        # and main.py, gate.py, board.json
    assert "verified %d files on the board (sha256)" % n in res.stdout
    events = board.events()
    assert events.count("exec import hashlib") >= n
    assert events.index("exec import hashlib") < events.index("hard-reset")
    assert "soft-reset" not in events       # `resume`: the game's watchdog timer keeps running
    # one `fs cp` per package: its files listed together before ":PKG/"
    dry = flash("pico-4p", "--dry-run", build=built.parent / "build-dry")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    for pkg in PACKAGES:
        assert dry.stdout.count(" :%s/ " % pkg) == 1


def test_flashed_mpy_files_import_on_micropython(flashed):
    """mpy-cross 1.29 bytecode loads on the unix MicroPython 1.29 straight
    from the flashed files (no sources on the path)."""
    board, res, _ = flashed
    assert res.returncode == 0
    # cwd = the flash, as on the Pico (cwd /): the card file is found where
    # cardfile.py looks for it, beside its module
    code = ("import cheesebox.box, cheesebox.board, cheesemaster.game, cheesonomics.game, cheesonomics.cardfile\n"
            "print(cheesebox.box.__file__)\n"
            "b = cheesebox.board.read_board('board.json')\n"
            "print(b.name, b.stations)\n"
            "print(len(cheesonomics.cardfile.load().animals))\n")
    env = dict(os.environ, MICROPYPATH=str(board.flash))
    p = subprocess.run([str(MICROPYTHON), "-c", code], cwd=board.flash, env=env,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stdout + p.stderr
    path, name, stations, animals = p.stdout.split()
    assert path.endswith("cheesebox/box.mpy") and (name, stations, animals) == ("pico-4p", "4", "5")
    assert sorted(p.name for p in board.flash.rglob("*.py")) == ["gate.py", "main.py"]   # no sources to fall back on


@pytest.mark.parametrize("damaged", ["cheesebox/box.mpy", "cheesonomics/cards.json"])
def test_flash_fails_loudly_on_a_damaged_copy(flashed, tmp_path, damaged):
    board, res, _ = flashed
    assert res.returncode == 0
    # the same board, one file missing; its new copy arrives with a flipped byte
    sandbox = tmp_path / "flash"
    shutil.copytree(board.flash, sandbox)
    (sandbox / damaged).unlink()
    bad = FakeBoard(sandbox, tmp_path / "events.log", "--corrupt", damaged)
    try:
        r = flash("pico-4p", "--port", bad.url, build=tmp_path / "build")
    finally:
        bad.stop()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "VERIFY FAILED" in r.stderr
    assert ":%s: sha256 mismatch" % damaged in r.stderr
    assert r.stderr.count("sha256 mismatch") == 1
    assert "hard-reset" not in bad.events()      # a damaged board is not restarted
    good = hashlib.sha256((tmp_path / "build" / damaged).read_bytes()).hexdigest()
    assert hashlib.sha256((sandbox / damaged).read_bytes()).hexdigest() != good


def test_keep_py_copies_the_sources_of_both_packages(tmp_path):
    """--keep-py: each package's .py as it is (the art modules with their
    icons baked for the board: bakedicons.py); the .mpy of an earlier flash
    go (a .py is imported first anyway, they would only waste flash)."""
    sandbox = tmp_path / "flash"
    for m in ("cheesebox/box", "cheesonomics/bot"):
        (sandbox / m).parent.mkdir(parents=True, exist_ok=True)
        (sandbox / (m + ".mpy")).write_bytes(b"M\x06")
    board = FakeBoard(sandbox, tmp_path / "events.log")
    try:
        r = flash("pico-4p", "--keep-py", "--port", board.url, build=tmp_path / "build")
    finally:
        board.stop()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "removed stale :cheesebox/box.mpy" in r.stdout
    assert "removed stale :cheesonomics/bot.mpy" in r.stdout
    for pkg in PACKAGES:
        assert on_board(sandbox, pkg) == sorted([m + ".py" for m in MODULES if m.startswith(pkg + "/")]
                                                + [d for d in DATA if d.startswith(pkg + "/")])
    from cheesebox.board import read_board
    from host_tools.deploy import bakedicons
    art = bakedicons.deployed_sources(read_board(str(FIRMWARE.parent / "boards" / "pico-4p.json")))
    assert sorted(art) == ["cheesebox/icons.py", "cheesemaster/icons.py"]
    for f in [m + ".py" for m in MODULES] + DATA:
        want = art[f].encode() if f in art else (FIRMWARE / f).read_bytes()
        assert (sandbox / f).read_bytes() == want, f
    assert "verified %d files on the board (sha256)" % (len(MODULES) + len(DATA) + 3) in r.stdout


def test_no_board_is_a_clear_message_and_exit_2(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                    # nothing listens there now
    r = flash("pico-4p", "--port", "socket://127.0.0.1:%d" % port, build=tmp_path / "build")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "no MicroPython board found (plug in the Pico with USB; hold ROLL while plugging in " \
           "if the game is running)" in r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_bad_board_file_stops_before_the_board(tmp_path):
    bad = tmp_path / "bad.json"
    spec = json.loads((REPO / "boards" / "pico-4p.json").read_text())
    spec["roll"] = 99
    bad.write_text(json.dumps(spec))
    r = flash(str(bad), "--port", "socket://127.0.0.1:1", build=tmp_path / "build")
    assert r.returncode == 2
    assert "'roll'" in r.stderr and "no MicroPython board" not in r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_dry_run_touches_no_board(tmp_path):
    r = flash("pico-4p", "--dry-run", "--port", "socket://127.0.0.1:1", build=tmp_path / "build")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fs sha256sum" in r.stdout and ":board.json" in r.stdout


def test_package_json_lists_every_firmware_file_once():
    pkg = json.loads((REPO / "package.json").read_text())
    assert pkg["deps"] == []
    assert isinstance(pkg["version"], str) and pkg["version"]
    files = sorted(p.relative_to(REPO).as_posix() for p in FIRMWARE.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
                   and p.name != "manifest.py")
    sources = [src for _, src in pkg["urls"]]
    hint = "out of date: run .venv/bin/python host_tools/deploy/flash.py --write-package-json"
    assert sorted(sources) == files, hint
    assert len(set(sources)) == len(sources), hint
    assert "firmware/cheesonomics/cards.json" in sources    # data files too
    for dest, src in pkg["urls"]:
        assert "firmware/" + dest == src      # each file lands where flash.py puts it
    assert sorted(dest for dest, _ in pkg["urls"]) == sorted(load_flash_module().firmware_files())


def test_which_files_of_firmware_are_deployed(tmp_path, monkeypatch):
    """What firmware/manifest.py lists: each package's modules (not test_*.py),
    its data files, main.py; a file under firmware/ the manifest does not
    list, a package without __init__.py or with a subfolder is a clear
    error, not a file silently left behind."""
    fl = load_flash_module()
    fw = tmp_path / "firmware"
    monkeypatch.setattr(fl, "REPO", tmp_path)
    monkeypatch.setattr(fl, "FIRMWARE", fw)
    for f in ("main.py", "a/__init__.py", "a/m.py", "a/data.json", "a/__pycache__/m.cpython-311.pyc",
              "a/test_m.py", "b/__init__.py", "__pycache__/x.pyc"):
        (fw / f).parent.mkdir(parents=True, exist_ok=True)
        (fw / f).write_text("")
    (fw / "manifest.py").write_text('module("main.py")\npackage("a")\npackage("b")\n'
                                    'data("a/data.json")\n')
    with pytest.raises(fl.FlashError, match=r"does not list: firmware/a/test_m\.py"):
        fl.firmware_files()
    (fw / "a" / "test_m.py").unlink()
    assert fl.firmware_files() == ["a/__init__.py", "a/data.json", "a/m.py", "b/__init__.py", "main.py"]
    (fw / "a" / "sub").mkdir()
    (fw / "a" / "sub" / "x.py").write_text("")
    with pytest.raises(fl.FlashError, match=r"package\('a'\) has subfolders \(sub\)"):
        fl.firmware_files()
    (fw / "a" / "sub" / "x.py").unlink()
    (fw / "a" / "sub").rmdir()
    (fw / "c").mkdir()
    (fw / "c" / "y.py").write_text("")
    with pytest.raises(fl.FlashError, match=r"does not list: firmware/c/y\.py"):
        fl.firmware_files()
    (fw / "manifest.py").write_text('package("c")\n')
    with pytest.raises(fl.FlashError, match=r"package\('c'\): no firmware/c/__init__\.py"):
        fl.firmware_files()


def test_flash_says_the_versions_it_replaces():
    """make flash says the board's firmware version before -> after, and warns
    of a MicroPython the box refuses on the board's chip (main.py's error code
    4) or runs untested."""
    fl = load_flash_module()
    say = fl.version_lines
    assert say("board firmware: 0.13.0 micropython: 1.28.0\n", "0.14.0") == [
        "firmware version: 0.13.0 -> 0.14.0"]
    assert say("board firmware: None micropython: 1.28.0\n", "0.14.0") == [
        "firmware version: none on the board (no Cheese Box yet) -> 0.14.0"]
    assert say("board firmware: 0.14.0 micropython: 1.29.0\n", "0.14.0") == [
        "firmware version: 0.14.0 -> 0.14.0 (the same version)"]
    # below the chip's floor (main.py's FLOOR): error code 4 on the board
    old = say("board firmware: 0.14.0 micropython: 1.22.2\n", "0.14.0", "rp2040")
    assert "MicroPython 1.22.2, older than 1.23.0 (the oldest the box runs on an RP2040 (Pico))" \
        in old[1] and "error code 4" in old[1], old
    old = say("board firmware: 0.14.0 micropython: 1.23.0\n", "0.14.0", "rp2350")
    assert "older than 1.24.0 (the oldest the box runs on an RP2350 (Pico 2))" in old[1], old
    # from the floor up to the tested version: it runs, untested
    for mpy, chip in (("1.24.1", "rp2350"), ("1.23.0", "rp2040"), ("1.27.0", None)):
        old = say("board firmware: 0.14.0 micropython: %s\n" % mpy, "0.14.0", chip)
        assert len(old) == 2 and "MicroPython %s, older than 1.28.0" % mpy in old[1], old
        assert "runs, untested" in old[1] and "error code" not in old[1], old
    assert len(say("board firmware: 0.14.0 micropython: 1.28.0\n", "0.14.0", "rp2350")) == 1


@pytest.mark.parametrize("board, arch", [("pico-4p", 4), ("pico2-8p", 7)])   # armv6m, armv7emsp
def test_the_native_encoder_is_compiled_for_the_boards_chip(tmp_path, board, arch):
    """rp2port/wire.py (viper) as native code for the chip the board file
    names: mpy 6.3 with the arch in the header; the other modules bytecode."""
    r = flash(board, "--dry-run", build=tmp_path / "build")
    assert r.returncode == 0, r.stdout + r.stderr
    head = (tmp_path / "build" / "rp2port" / "wire.mpy").read_bytes()[:3]
    assert head[0] == ord("M") and head[1] == 6 and head[2] == (arch << 2) | 3
    assert (tmp_path / "build" / "rp2port" / "leds.mpy").read_bytes()[2] >> 2 == 0


def test_flash_builds_for_the_chip_the_board_says_and_refuses_the_other():
    """The board's own answer picks the chip; one that does not say (not an rp2
    MicroPython, like the test double) leaves it to the board file."""
    fl = load_flash_module()
    said = "board firmware: 0.14.0 micropython: 1.28.0 chip: %s\n"
    assert fl.board_chip(said % "rp2350") == "rp2350"
    assert fl.board_chip(said % "None") is None
    assert fl.board_versions(said % "rp2040") == ("0.14.0", "1.28.0")
    assert fl.check_chip(REPO / "boards" / "pico2-8p.json", "rp2350") == "rp2350"
    assert fl.check_chip(REPO / "boards" / "pico-4p.json", None) == "rp2040"
    with pytest.raises(fl.FlashError, match=r"pico2-8p.json is a board file for the RP2350 "
                                            r"\(Pico 2\), but the board is an RP2040 \(Pico\)"):
        fl.check_chip(REPO / "boards" / "pico2-8p.json", "rp2040")
