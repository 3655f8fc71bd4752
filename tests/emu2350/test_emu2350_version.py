"""The version check of firmware/main.py on the Pico 2: a MicroPython below
the chip's floor refused with error code 4, one below the tested version run
with a warning (the Pico's tests, the same bodies: tests/emu_twins.py). The
floor is the chip's own, so make test refuses on both chips; the tested version
is one for both, so the warning is make test-emu's only here."""
import pytest

import emu_twins


def test_an_older_micropython_is_refused_with_error_code_4(image, tmp_path):
    emu_twins.an_older_micropython_is_refused_with_error_code_4(image, "pico2-8p", tmp_path)


@pytest.mark.second_chip
def test_an_untested_micropython_runs_with_a_warning(image, tmp_path):
    emu_twins.an_untested_micropython_runs_with_a_warning(image, "pico2-8p", tmp_path)
