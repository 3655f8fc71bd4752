"""The emulated Pico 2 suite: the official MicroPython RPI_PICO2 firmware on
rp2350js (emu/rp2350/), the box's files on its flash (built on the host; one
test deploys with `make flash`'s own tool over the emulated USB), driven only
through its pins and its USB serial port, as a table would.

It emulates at about 0.55x real time (the RP2040 suite runs faster), so its
scenarios are short. Without the firmware, the boot ROM, Node or rp2350js
every test is skipped with one line saying what is missing (docs/emulator.md).
"""
import os

import pytest

from emu.pico import EmulatorMissing, locate

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    locate("rp2350")
    MISSING = None
except EmulatorMissing as e:
    MISSING = str(e)


if MISSING is not None:
    # the tests are not collected; one item stands for them and says why,
    # so the run shows one SKIPPED line for the whole suite
    collect_ignore_glob = ["test_*.py"]

    class _Missing(pytest.Item):
        def runtest(self):
            pytest.skip(MISSING)

        def reportinfo(self):
            return self.path, None, "the emulated Pico 2 suite"

    class _Suite(pytest.File):
        def collect(self):
            yield _Missing.from_parent(self, name="emulated Pico 2 suite")

    def pytest_collect_file(file_path, parent):
        if file_path.name == "conftest.py" and str(file_path.parent) == HERE:
            return _Suite.from_parent(parent, path=file_path)
        return None


def pytest_report_header(config):
    if MISSING is not None:
        return "emulated Pico 2 suite SKIPPED: %s" % MISSING
    return None


_images = {}


@pytest.fixture(scope="session")
def image():
    """image(board, keep_py=False, tools=False): path of a flash image of a
    Pico 2 board with the box's files, built on the host (tools=True:
    deployed by host_tools/deploy/flash.py through mpremote over the emulated USB,
    the emulator paced to the host's clock); built once, cached."""
    from emu import deploy

    def get(board, keep_py=False, tools=False):
        key = (board, keep_py, tools)
        if key not in _images:
            _images[key] = deploy.image(board, keep_py, tools)
        return _images[key]
    return get


def scenario(name):
    with open(os.path.join(HERE, "scenarios", name), encoding="utf-8") as f:
        return f.read()
