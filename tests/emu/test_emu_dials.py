"""The dials' wiring as the harness models it (emu/mux4051.mjs), read by
MicroPython on the Pico 2 over its serial REPL, the way rp2port/dials.py reads it:
GP26 follows the 4051's select pins and the selected station's dial; a dial
between two positions shorts a resistor of its own ladder only."""
import pytest

from emu.pico import EmulatedPico
from emu.table import EmuTable

pytestmark = pytest.mark.rp2350

READ_ALL = """
from machine import ADC, Pin
import time
sel = [Pin(g, Pin.OUT) for g in (16, 17, 18)]
adc = ADC(26)
def rd(ch):
    for b in range(3):
        sel[b].value((ch >> b) & 1)
    time.sleep_us(60)
    adc.read_u16()
    return adc.read_u16()
print([rd(c) for c in range(8)])
"""


def _read(t):
    out, err = t.exec_raw(READ_ALL)
    assert not err, err
    return eval(out.strip())      # a list of 8 ints, printed by the chip


def test_gp26_follows_the_select_pins_and_each_dials_own_ladder():
    # the bare RPI_PICO2 firmware (no box on it): the REPL is free
    with EmuTable("pico2-8p", pico=EmulatedPico(chip="rp2350")) as t:
        t.run(300)
        for s in range(8):
            t.pico.dial(s, 7 - s, turn_ms=0)
        t.run(5)
        values = _read(t)
        assert [v >> 13 for v in values] == [7 - s for s in range(8)], values
        # tap k at (2k+1)/16 of 3.3 V: mid-band, half a band of margin
        for s, v in enumerate(values):
            assert abs(v - (2 * (7 - s) + 1) * 4096) < 64, (s, v)
        # station 4 (channel 3) turns 4 -> 3 over 2 s: at 1 s its wiper bridges
        # T4 and T3, shorting that 2k of its own ladder; nobody else moves
        t.pico.dial(3, 3, turn_ms=2000)
        t.run(1000)
        during = _read(t)
        assert during[:3] == values[:3] and during[4:] == values[4:], (values, during)
        assert during[3] != values[3] and 3 * 8192 <= during[3] < 5 * 8192, during
        t.run(1200)
        assert _read(t)[3] >> 13 == 3


def test_on_one_shared_ladder_a_dial_between_positions_moves_the_others():
    """The wiring first drawn (one ladder bussed to every dial, boards/pico2-8p.md
    before the hardware review): a dial bridging T0 and T1 shorts a 2k of
    everybody's ladder, and the dials at 2 and 3 read one position low."""
    p = EmulatedPico(chip="rp2350")
    with EmuTable("pico2-8p", pico=p) as t:
        p.mux4051(26, (16, 17, 18), 8, ladder="shared")
        t.run(300)
        for s, pos in enumerate([1, 2, 3, 4, 5, 6, 7, 0]):
            p.dial(s, pos, turn_ms=0)
        t.run(5)
        assert [v >> 13 for v in _read(t)] == [1, 2, 3, 4, 5, 6, 7, 0]
        p.dial(0, 0, turn_ms=2000)            # station 1: 1 -> 0, bridging at 1 s
        t.run(1000)
        during = [v >> 13 for v in _read(t)]
        assert during[1:3] == [1, 2], during  # stations 2 and 3 one low
        assert during[4:7] == [5, 6, 7], during
