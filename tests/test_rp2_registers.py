"""The Pico port's register-level constants, checked against the RP2040 and
RP2350 datasheets (the emulated Pico 2's cases of tests/emu run them too; these check the constants).

Read from the source (the port imports machine and rp2, which CPython lacks).
"""
import ast
import math
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def consts(rel):
    tree = ast.parse(open(os.path.join(REPO, rel)).read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Call) and getattr(v.func, "id", "") == "const":
                v = v.args[0]
            try:        # numbers, shifts, dicts of them: no names
                # a module-private constant (_NAME) under its plain name
                out[node.targets[0].id.lstrip("_")] = eval(compile(ast.Expression(v), rel, "eval"),
                                               {"__builtins__": {}})
            except Exception:
                pass
    return out


PORT = {}
for _m in ("buttons", "plates", "keys", "dials", "usb", "leds", "port"):
    PORT.update(consts("firmware/rp2port/%s.py" % _m))
APP = consts("firmware/rp2port/app.py")


def test_dma_segment_fits_the_rp2350_count_field():
    # RP2350 CHx_TRANS_COUNT: bits 31:28 are MODE (0 = normal), 27:0 the count
    assert 0 < PORT["SEGMENT"] < 1 << 28
    # each of the two chained channels must end where the other starts in the ring
    assert PORT["SEGMENT"] % PORT["RING_WORDS"] == 0
    assert 1 << PORT["RING_BITS"] == 4 * PORT["RING_WORDS"]


def test_pio0_rx_fifo_and_dreq():
    # PIO0 base 0x50200000 on both chips; RXF0 at +0x20; DREQ_PIO0_RX0 = 4 on both
    assert PORT["PIO0_RXF0"] == 0x50200000 + 0x20
    assert PORT["DREQ_PIO0_RX0"] == 4


def test_watchdog_registers_of_both_chips():
    assert APP["WATCHDOG_BASE"] == {"rp2040": 0x40058000, "rp2350": 0x400D8000}
    assert APP["SCRATCH0"] == 0x0C                 # WATCHDOG_SCRATCH0 on both
    assert APP["CTRL_ENABLE"] == 1 << 30           # WATCHDOG_CTRL.ENABLE on both
    assert APP["RUNNING"] < 1 << 30                # a small int on a 32-bit MicroPython


def test_answer_reads_meet_the_rulings():
    # keys read at most 10 ms apart, dials at most 5 ms apart (INTERPRETATION.md)
    assert PORT["KEYS_POLL_MS"] < 10
    assert PORT["DIALS_POLL_MS"] < 5
    # the dial settle wait: 1 nF on COM behind the ladder's 4 kOhm at most and
    # the 4051's ~1 kOhm: tau 5 us. The widest step (tap 0 to tap 7, 14/16 of
    # 3.3 V) must be left within an eighth of the half band each tap has on
    # either side (1/16 of 3.3 V): 5 tau (25 us) leaves 0.6 % of 3.3 V
    tau_us = 5.0
    assert PORT["DIAL_SETTLE_US"] >= 5 * tau_us
    assert 14 / 16 * math.exp(-PORT["DIAL_SETTLE_US"] / tau_us) < 1 / 16 / 8
