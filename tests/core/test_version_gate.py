# main.py's version gate (its numbers, gate.py's verdict), on CPython and on
# MicroPython (the unix port runs the same main.py and gate.py the Pico runs;
# main.py starts the box only on sys.platform "rp2"): below the chip's floor
# refused (error code 4), from there up to the tested version run with a
# warning, the tested one or newer run. The
# versions are faked: only v1.28.0 images exist to run (tests/test_version.py
# has the messages; tests/emu/test_emu_startup.py the emulated Pico and Pico 2).
import gate
import main


def verdict(version, chip):
    return gate.verdict(version, chip, main.TESTED, main.FLOOR)


def test_the_floor_is_what_each_chip_needs():
    assert main.FLOOR["rp2040"] == (1, 23, 0)      # rp2.DMA, native .mpy 6.3
    assert main.FLOOR["rp2350"] == (1, 24, 0)      # RP2350 support
    assert main.TESTED == (1, 28, 0)


def test_below_the_floor_is_refused():
    for version, chip in [((1, 22, 2, ""), "rp2040"), ((1, 19, 1), "rp2040"),
                          ((1, 23, 0, ""), "rp2350"), ((0, 99, 9), "rp2350"),
                          ((1, 23, 9), None)]:
        assert verdict(version, chip) == "refuse", (version, chip)


def test_from_the_floor_up_to_tested_runs_with_a_warning():
    for version, chip in [((1, 23, 0, ""), "rp2040"), ((1, 24, 1), "rp2040"),
                          ((1, 27, 99), "rp2040"), ((1, 24, 0, ""), "rp2350"),
                          ((1, 26, 1), "rp2350"), ((1, 24, 0), None)]:
        assert verdict(version, chip) == "warn", (version, chip)
    assert "the box runs, untested" in gate.untested((1, 24, 1), main.TESTED)


def test_the_tested_version_and_newer_run():
    for version in [(1, 28, 0, ""), (1, 28, 1), (1, 29, 0, "preview"), (2, 0, 0)]:
        for chip in ("rp2040", "rp2350", None):
            assert verdict(version, chip) == "run", (version, chip)


def test_this_micropythons_own_version_passes_the_gate_on_both_chips():
    import sys
    if sys.implementation.name == "micropython":
        assert verdict(sys.implementation.version, "rp2350") == "run"


def test_the_chip_from_the_machine_name_else_the_board_file():
    assert gate.chip_of("Raspberry Pi Pico with RP2040") == "rp2040"
    assert gate.chip_of("Raspberry Pi Pico2 with RP2350", "rp2040") == "rp2350"
    assert gate.chip_of("linux [GCC 12.2.0] version", "rp2350") == "rp2350"
    assert gate.chip_of("x", None) is None and gate.chip_of("x", "esp32") is None


def test_files_this_micropython_cannot_load_are_told_apart():
    assert gate.files_unfit(ValueError("incompatible .mpy file"))
    assert gate.files_unfit(ValueError("incompatible .mpy arch"))
    assert gate.files_unfit(ImportError("no module named 'rp2port.app'"))
    assert not gate.files_unfit(OSError(12))
    assert not gate.files_unfit(ValueError("No DMA channels are available"))
