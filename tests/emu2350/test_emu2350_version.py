"""A MicroPython older than the box is tested on, refused (issue 18, the
version check of firmware/main.py): no older MicroPython image exists here,
so the box's main.py on the flash asks for one patch release more than the
chip runs (1.28.1 against v1.28.0). The box must blink error code 4 on the
Pico's LED, say it on the serial console, keep the dice and tracks dark,
ignore the buzzers and stay reachable at the REPL (docs/deploy.md). The Pico
2's pico2-8p, and the Pico's pico-8p (the same body, cheap on the RP2040)."""
import re

import pytest

from emu.pico import LED_GPIO, chip_of, missing
from emu.table import MS, EmuTable
from host_tools import fsimage

RP2040_MISSING = missing("rp2040")


def _requiring(img, chip, out, version):
    """A copy of flash image img whose main.py says the box is tested on
    `version`; everything else as it was (the host's littlefs on the image)."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY[chip]
    flash = bytearray(open(img, "rb").read())
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = flash[geo.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    with fs.open("main.py", "r") as f:
        src = f.read()
    src, n = re.subn(r"^TESTED = \(1, 28, 0\)", "TESTED = %r" % (version,), src, flags=re.M)
    assert n == 1, "main.py: no TESTED = (1, 28, 0) line"
    with fs.open("main.py", "w") as f:
        f.write(src)
    fs.unmount()
    flash[geo.fs_offset:] = ctx.buffer
    with open(out, "wb") as f:
        f.write(flash)
    return out



@pytest.mark.parametrize("board", [
    pytest.param("pico-8p", marks=pytest.mark.skipif(RP2040_MISSING is not None,
                                                      reason=str(RP2040_MISSING))),
    "pico2-8p"])
def test_an_older_micropython_is_refused_with_error_code_4(image, board, tmp_path):
    flash = _requiring(image(board), chip_of(board), str(tmp_path / "newer.img"), (1, 28, 1))
    with EmuTable(board, flash=flash) as t:
        t.run(1000)
        e0 = len(t.pico.edges(LED_GPIO))
        t.press(0)                            # a buzzer: nobody joins
        t.press("roll")
        t.run(8400)
        said = [l for l in t.lines if l.startswith("cheesebox error")]
        assert said and said[0] == (
            "cheesebox error 4: MicroPython 1.28.0 is older than 1.28.1, the version the box "
            "is tested on: install MicroPython 1.28.1 or newer (docs/deploy.md), then make flash"), \
            t.lines[-6:]
        assert len(said) >= 2 and len(set(said)) == 1        # said again every round of blinks
        assert not t.events, t.events[:3]                    # no boot, no join: the game never starts
        assert not any("Traceback" in l or "Error" in l for l in t.lines), t.lines[-6:]
        # the dice and the tracks dark: nothing ever went out on the chains
        assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
        # error code 4 on the Pico's LED: 4 blinks of 200 ms, 300 ms apart, then
        # a pause; over and over, one round every ~4 s
        edges = t.pico.edges(LED_GPIO)[e0:]
        ons = [a[0] for a in edges if a[1] == 1]
        lit = [(b[0] - a[0]) / MS for a, b in zip(edges, edges[1:]) if a[1] == 1 and b[1] == 0]
        assert len(ons) >= 8 and all(180 < d < 220 for d in lit), lit
        gaps = [(b - a) / MS for a, b in zip(ons, ons[1:])]
        rounds = [i for i, g in enumerate(gaps) if g > 1000]
        assert rounds, gaps
        first = rounds[0] + 1                 # the first blink of a whole round
        group = gaps[first:first + 4]
        assert all(480 < g < 520 for g in group[:3]) and 2300 < group[3] < 2700, gaps
        # the Pico stays reachable: Ctrl-C gives the REPL (make flash can update the box)
        out, err = t.exec_raw("import sys\nprint(sys.implementation.version[:3])")
        assert out.strip() == "(1, 28, 0)" and not err, (out, err)
