"""The USB serial port on the chip: a PC that holds the port open
without reading never stalls the game (MicroPython's CDC write would wait 1 s
a line), lines that do not fit are counted, and the console takes commands.
The body is the Pico 2's too (tests/emu_twins.py)."""
import emu_twins


def test_a_pc_not_reading_the_port_never_stalls_the_box(image):
    emu_twins.a_pc_not_reading_the_port_never_stalls_the_box(image, "pico-4p")


def test_console_bytes_never_reset_the_box(image):
    """100 console lines of invalid UTF-8, NUL, non-ASCII and over-long text:
    one answer each, and the game goes on (1,000 on the Pico 2: the same code, and each line
    costs the emulated Pico about 30 ms)."""
    emu_twins.console_bytes_never_reset_the_box(image, "pico-4p", 100)
