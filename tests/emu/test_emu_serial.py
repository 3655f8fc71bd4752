"""The USB serial port on the chip (issue 7): a PC that holds the port open
without reading never stalls the game (MicroPython's CDC write would wait 1 s
a line), lines that do not fit are counted, and the console takes commands.
The body is the Pico 2's too (tests/emu_twins.py)."""
import emu_twins


def test_a_pc_not_reading_the_port_never_stalls_the_box(image):
    emu_twins.a_pc_not_reading_the_port_never_stalls_the_box(image, "pico-4p")
