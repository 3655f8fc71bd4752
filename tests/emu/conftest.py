"""The emulated-Pico suite: the official MicroPython rp2 firmware on rp2040js
(emu/), the box's files on its flash (built on the host; one test deploys
with `make flash`'s own tool over the emulated USB), driven only through
its pins and its USB serial port, as a table would.

Without the firmware image, the boot ROM, Node or emu/node_modules the whole
suite is skipped with one line saying what is missing (docs/emulator.md).
"""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

from emu.pico import EmulatorMissing, locate  # noqa: E402

try:
    locate()
    MISSING = None
except EmulatorMissing as e:
    MISSING = str(e)


def pytest_collection_modifyitems(config, items):
    if MISSING is None:
        return
    skip = pytest.mark.skip(reason=MISSING)
    for item in items:
        if "/tests/emu/" in str(item.fspath).replace(os.sep, "/"):     # not tests/emu2350/
            item.add_marker(skip)


def pytest_report_header(config):
    if MISSING is not None:
        return "emulated Pico suite SKIPPED: %s" % MISSING
    return None


_images = {}


@pytest.fixture(scope="session")
def image():
    """image(board, keep_py=False, tools=False): path of a flash image with
    the box's files, built on the host (tools=True: deployed by
    host_tools/deploy/flash.py through mpremote over the emulated USB); built once
    per session, cached."""
    from emu import deploy

    def get(board, keep_py=False, tools=False):
        key = (board, keep_py, tools)
        if key not in _images:
            _images[key] = deploy.image(board, keep_py, tools)
        return _images[key]
    return get
