"""A MicroPython older than the box is tested on, refused with error code 4
on the Pico 2 (the version check of firmware/main.py; the Pico's
test, the same body: tests/emu_twins.py)."""
import emu_twins


def test_an_older_micropython_is_refused_with_error_code_4(image, tmp_path):
    emu_twins.an_older_micropython_is_refused_with_error_code_4(image, "pico2-8p", tmp_path)
