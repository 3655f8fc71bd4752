"""The emulated suite, both chips: the official MicroPython firmware on
rp2040js (the Pico, RP2040) and on rp2350js (the Pico 2, RP2350), emu/, the
box's files on its flash (built on the host; a few tests deploy with `make
flash`'s own tool over the emulated USB), driven only through its pins and
its USB serial port, as a table would.

Each test runs on one chip: its `chip` parameter, else the chip of its
`board` parameter, else the one its marker names (@pytest.mark.rp2350, or the module's pytestmark), else the
Pico's. This conftest gives every test its chip's marker (`-m rp2350` runs
the Pico 2's cases alone), and a chip whose firmware, boot ROM, Node or
emulator package is missing has all its cases skipped, with one line saying
what is missing (docs/emulator.md). The emulated Pico 2 runs slower than the
emulated Pico (about 0.55x real time), so its scenarios are short.
"""
import os

import pytest

from emu.pico import CHIPS, EmulatorMissing, chip_of, locate


def _missing(chip):
    try:
        locate(chip)
        return None
    except EmulatorMissing as e:
        return str(e)


MISSING = {chip: _missing(chip) for chip in CHIPS}
FIRST = "rp2040"
HERE = os.path.dirname(os.path.abspath(__file__))


def chip_of_test(item):
    """The chip a test runs on (see the module's docstring)."""
    params = getattr(item, "callspec", None)
    params = params.params if params is not None else {}
    if "chip" in params:                  # a board file on another chip (test_emu_wrong_chip.py)
        return params["chip"]
    if "board" in params:
        return chip_of(params["board"])
    for chip in CHIPS:
        if item.get_closest_marker(chip) is not None:
            return chip
    return FIRST


@pytest.hookimpl(tryfirst=True)          # before -m selects by the chips' markers
def pytest_collection_modifyitems(config, items):
    for item in items:
        if os.path.dirname(str(item.path)) != HERE:      # the hook sees every test of the run
            continue
        chip = chip_of_test(item)
        if item.get_closest_marker(chip) is None:
            item.add_marker(chip)


def pytest_runtest_setup(item):
    """A case of a chip whose files are missing: skipped from here, so the
    summary says it in one line for all of that chip's cases."""
    why = next((MISSING[c] for c in CHIPS if item.get_closest_marker(c) is not None), None)
    if why is not None:
        pytest.skip(why)


def pytest_report_header(config):
    said = ["emulated %s suite SKIPPED: %s" % (CHIPS[c]["name"], why) for c, why in MISSING.items() if why]
    return said or None


_images = {}


@pytest.fixture(scope="session")
def image():
    """image(board, keep_py=False, tools=False): path of a flash image with
    the box's files for that board's chip, built on the host (tools=True:
    deployed by host_tools/deploy/flash.py through mpremote over the emulated
    USB); built once per session, cached."""
    from emu import deploy

    def get(board, keep_py=False, tools=False):
        key = (board, keep_py, tools)
        if key not in _images:
            _images[key] = deploy.image(board, keep_py, tools)
        return _images[key]
    return get
