"""The USB serial port on the Pico 2 (as tests/emu on the Pico, the
same body: tests/emu_twins.py): a PC that holds the port open without
reading never stalls the game (MicroPython's CDC write would wait 1 s a
line), lines that do not fit are counted, and the console takes commands.
The Pico's runs are in make test; here the port not read and the thousand
lines are make test-emu's only (second_chip), twenty lines (the first the one
that once restarted the Pico 2) make test's."""
import pytest

import emu_twins


@pytest.mark.second_chip
def test_a_pc_not_reading_the_pico2s_port_never_stalls_the_box(image):
    emu_twins.a_pc_not_reading_the_port_never_stalls_the_box(image, "pico2-8p")


def test_console_bytes_never_reset_the_pico2(image):
    """20 console lines of invalid UTF-8, NUL, non-ASCII and over-long text,
    the first 'st\u00e9' (it restarted the Pico 2 once, not the Pico): one
    answer each, and the game goes on."""
    emu_twins.console_bytes_never_reset_the_box(image, "pico2-8p", 20)


@pytest.mark.second_chip
def test_a_thousand_console_lines_never_reset_the_pico2(image):
    """1,000 such lines (the Pico takes 100 in make test: the same code)."""
    emu_twins.console_bytes_never_reset_the_box(image, "pico2-8p", 1000)
