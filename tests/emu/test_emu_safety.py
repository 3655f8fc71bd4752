"""Safe boot, a bad board file, and Ctrl-C then main() again on the chip (on
both chips: on the Pico 2 stopping the game's DMA follows another abort order)."""
import pytest

from emu.pico import LED_GPIO
from emu.table import MS, EmuTable


def test_holding_roll_at_power_up_keeps_the_repl(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.pico.drive(t.pin_of("roll"), 0)          # ROLL held while plugging in
        t.run(1500)
        assert any("safe boot" in line for line in t.lines), t.lines[-5:]
        assert not any(e["ev"] == "boot" for e in t.events)
        out, err = t.exec_raw("print(6 * 7)")
        assert out.strip() == "42" and not err


def test_a_bad_board_file_blinks_its_error_code(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.pico.drive(t.pin_of("roll"), 0)          # safe boot to write a broken board.json
        t.run(1500)
        # valid JSON, but ROLL on a pin the Pico does not have (main() reads
        # that pin for safe boot before the board check: no traceback either)
        out, err = t.exec_raw("import json\nb = json.load(open('board.json'))\nb['roll'] = 99\n"
                              "f = open('board.json', 'w')\nf.write(json.dumps(b))\nf.close()\nprint('ok')")
        assert out.strip() == "ok", err
        t.pico.drive(t.pin_of("roll"), None)
        t.pico.power_cycle()
        e0 = len(t.pico.edges(LED_GPIO))
        t.run(6000)
        assert any("cheesebox error 1" in line and "roll" in line for line in t.lines), t.lines[-4:]
        assert not any("Traceback" in line for line in t.lines)
        edges = t.pico.edges(LED_GPIO, since=e0)
        ons = [(b[0] - a[0]) / MS for a, b in zip(edges, edges[1:]) if a[1] == 1 and b[1] == 0]
        # error code 1: one 200 ms blink of the Pico's LED every ~2.5 s
        assert len(ons) >= 2 and all(150 < d < 250 for d in ons), ons
        starts = [a[0] for a in edges if a[1] == 1]
        gaps = [(b - a) / MS for a, b in zip(starts, starts[1:])]
        assert all(2300 < g < 2800 for g in gaps), gaps


@pytest.mark.parametrize("board", ["pico-4p", "pico2-8p"])
def test_ctrl_c_then_main_again_many_times(image, board):
    """mpremote stops the game with Ctrl-C; main() at the REPL starts it again.
    Each start takes 2 DMA channels for the buttons and one a LED chain: if a
    stopped game kept its channels, the 4th start would find none left (on
    the Pico 2, stopping them also follows the RP2350-E5 abort order)."""
    with EmuTable(board, flash=image(board)) as t:
        t.boot(3000)
        for i in range(4):
            k = len(t.lines)
            t.pico.send("\x03")
            t.run(300)
            assert any("stopped (Ctrl-C)" in line for line in t.lines[k:]), t.lines[k:]
            n = len(t.events)
            t.pico.send("from rp2port.app import main\r\nmain()\r\n")
            t.wait_event("boot", 3000, since=n)
            t.run(100)
            t.press(i)
            assert t.kinds()[-1] == "join", t.lines[-4:]
            assert t.events[-1]["p"] == "P%d" % (i + 1)
        errors = [line for line in t.lines if "Error" in line]
        assert not errors, errors                 # Ctrl-C gives KeyboardInterrupt, nothing else
