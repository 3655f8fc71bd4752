"""The emulated Pico 2 suite: the official MicroPython RPI_PICO2 firmware on
rp2350js (emu/rp2350/), the box deployed with `make flash`'s own tool, driven
only through its pins and its USB serial port, as a table would.

It emulates at about 0.55x real time (the RP2040 suite runs faster), so its
scenarios are short. Without the firmware, the boot ROM, Node or rp2350js
every test is skipped with one line saying what is missing (docs/emulator.md).
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from emu.pico import EmulatorMissing, locate  # noqa: E402

try:
    locate("rp2350")
    MISSING = None
except EmulatorMissing as e:
    MISSING = str(e)


@pytest.fixture(autouse=True)
def _needs_the_emulated_pico2():
    # skipped from here (one place), so pytest folds every skip into one line
    if MISSING is not None:
        pytest.skip(MISSING)


def pytest_report_header(config):
    if MISSING is not None:
        return "emulated Pico 2 suite SKIPPED: %s" % MISSING
    return None


_images = {}


@pytest.fixture(scope="session")
def image():
    """image(board, keep_py=False): path of a flash image of a Pico 2 board,
    deployed by host_tools/flash.py through mpremote (built once, cached)."""
    from emu import deploy

    def get(board, keep_py=False):
        key = (board, keep_py)
        if key not in _images:
            _images[key] = deploy.image(board, keep_py)
        return _images[key]
    return get


def scenario(name):
    with open(os.path.join(HERE, "scenarios", name), encoding="utf-8") as f:
        return f.read()
