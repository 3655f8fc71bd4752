"""Safe boot and a bad board file on the chip."""
import emu_twins
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


def test_ctrl_c_then_main_again_many_times(image):
    """mpremote stops the game with Ctrl-C; main() at the REPL starts it
    again, four times (the Pico 2's test, the same body: tests/emu_twins.py)."""
    emu_twins.ctrl_c_then_main_again_many_times(image, "pico-4p")


def test_an_older_micropython_is_refused_with_error_code_4(image, tmp_path):
    """pico-8p: the Pico 2's test, the same body (tests/emu_twins.py)."""
    emu_twins.an_older_micropython_is_refused_with_error_code_4(image, "pico-8p", tmp_path)


def test_an_untested_micropython_runs_with_a_warning(image, tmp_path):
    """pico-4p: the Pico 2's test, the same body (tests/emu_twins.py)."""
    emu_twins.an_untested_micropython_runs_with_a_warning(image, "pico-4p", tmp_path)
