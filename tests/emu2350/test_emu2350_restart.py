"""Ctrl-C, then main() at the REPL, several times on the Pico 2:
each start claims DMA channels for the buttons and the LED chains; a
stopped game must give them back, or a later start finds none left. The
Pico's test, the same body (tests/emu_twins.py)."""
import emu_twins


def test_ctrl_c_then_main_again_many_times_on_the_pico2(image):
    emu_twins.ctrl_c_then_main_again_many_times(image, "pico2-8p")
