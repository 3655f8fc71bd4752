"""make flash asks the board its chip before it copies anything: a board file
for the other chip (pico-4p onto a Pico 2, the boards share a pinout) stops
there, with both chips named, and the box on the board is left as it was."""
import pytest

from emu import deploy
from emu.table import EmuTable


@pytest.mark.parametrize("on_board, wrong", [("pico2-8p", "pico-4p")])
def test_flash_refuses_a_board_file_for_the_other_chip(on_board, wrong):
    with EmuTable(on_board, flash=deploy.image(on_board)) as t:
        t.boot()
        rc, out, _ = deploy.flash_with_tools(t.pico, wrong)
        assert rc == 2, out
        assert ("pico-4p.json is a board file for the RP2040 (Pico), but the board is an "
                "RP2350 (Pico 2)") in out, out
        assert "copying" not in out and "mpy-cross" not in out, out
        got, err = t.exec_raw("import json\nprint(json.load(open('board.json'))['name'])")
        assert got.strip() == on_board and not err, (got, err)
