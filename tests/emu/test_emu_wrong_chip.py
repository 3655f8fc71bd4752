"""A board file for the other chip: the Pico and the Pico 2 share a pinout, so a
builder may well copy pico-4p's board.json onto a Pico 2 (or pico2-8p's onto a
Pico). The box must not touch the other chip's registers (on the Pico 2 the
Pico's watchdog scratch address is PLL_USB: USB and the REPL would be gone):
it blinks error code 5, says both chips on the console, and does nothing else."""
import pytest

from emu import deploy
from emu.pico import LED_GPIO
from emu.table import MS, EmuTable


@pytest.mark.parametrize("board, chip, said", [
    ("pico-4p", "rp2350", "board.json (pico-4p) is for the RP2040 (Pico), but this is an RP2350 (Pico 2)"),
    ("pico2-8p", "rp2040", "board.json (pico2-8p) is for the RP2350 (Pico 2), but this is an RP2040 (Pico)"),
])
def test_a_board_file_for_the_other_chip_blinks_error_5(board, chip, said):
    with EmuTable(board, flash=deploy.image(board, chip=chip), chip=chip) as t:
        t.run(800)
        t.press(0)                            # a buzzer: nobody joins
        t.run(4900)
        errors = [ln for ln in t.lines if ln.startswith("cheesebox error")]
        assert errors and all(ln.startswith("cheesebox error 5: " + said) for ln in errors), t.lines[-6:]
        assert not t.events, t.events[:3]                     # no boot: the game never starts
        assert not any("Traceback" in ln for ln in t.lines), t.lines[-6:]
        assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))   # dice dark
        # error code 5 on the Pico's LED from power-up: 5 blinks 500 ms apart, then a pause
        ons = [e[0] for e in t.pico.edges(LED_GPIO) if e[1] == 1]
        gaps = [(b - a) / MS for a, b in zip(ons, ons[1:])]
        assert len(gaps) >= 5 and all(480 < g < 520 for g in gaps[:4]) and gaps[4] > 2000, gaps
        # USB and the REPL still work (make flash can put the right board file on)
        out, err = t.exec_raw("print(6 * 7)")
        assert out.strip() == "42" and not err, (out, err)
