"""Start-up failures on the Pico 2 (the Pico's tests, the same bodies:
tests/emu_twins.py; the Pico's own cases are in tests/emu/test_emu_startup.py):
rp2port/app.mpy of a newer .mpy version blinks error code 6, and a native LED
encoder of another .mpy sub-version falls back to bytecode, logged, the LEDs lit.
The same main.py and MicroPython's same .mpy check on both chips: make test runs
the Pico's, make test-emu these too."""
import pytest

import emu_twins


@pytest.mark.second_chip
def test_an_mpy_of_a_newer_version_blinks_error_6(image, tmp_path):
    emu_twins.an_mpy_of_a_newer_version_blinks_error_6(image, "pico2-8p", tmp_path)


@pytest.mark.second_chip
def test_a_native_encoder_of_another_sub_version_falls_back_to_bytecode(image, tmp_path):
    emu_twins.a_native_encoder_of_another_sub_version_falls_back(image, "pico2-8p", tmp_path)
