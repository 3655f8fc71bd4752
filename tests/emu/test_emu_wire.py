"""The native WS2812 encoder (rp2port/wire.py, viper compiled by mpy-cross
for the board's chip: armv6m for the RP2040, armv7emsp for the RP2350) on
each emulated chip: byte for byte what the pure encoder (rp2port/pixels.py)
writes, for every colour order, whole frames and changed ranges, and faster;
its light sum (the power budget's, every frame shown) equal to sum() and
faster. Two chips, two machine codes from one source: each is checked."""
import re

import pytest

from emu.table import EmuTable

CODE = """
import time, random
from rp2port import pixels, wire
table = bytearray(256)
pixels.fill_table(table, 150)
bad = 0
n = 0
for order in sorted(pixels.ORDERS):
    ri, gi, bi = pixels.ORDERS[order]
    for lo, hi in ((0, 1152), (0, 3), (381, 384), (1149, 1152), (193, 577)):
        rgb = bytearray(random.getrandbits(8) for _ in range(1152))
        a = bytearray(1152)
        b = bytearray(1152)
        pixels.encode(rgb, a, order, table, lo, hi)
        wire.encode(rgb, b, ri, gi, bi, table, lo - lo % 3, hi)
        n += 1
        bad += a != b
rgb = bytearray(random.getrandbits(8) for _ in range(1152))
out = bytearray(1152)
t0 = time.ticks_us()
pixels.encode(rgb, out, "GRB", table)
t1 = time.ticks_us()
wire.encode(rgb, out, 1, 0, 2, table, 0, 1152)
t2 = time.ticks_us()
print("WIRE", n, bad, time.ticks_diff(t1, t0), time.ticks_diff(t2, t1))
sums = [bytes(1152), bytes([255]) * 1152, rgb, rgb[:3], b"", bytearray(rgb[:192])]
bad = sum(wire.light(x) != sum(x) for x in sums)
t0 = time.ticks_us()
s1 = sum(rgb)
t1 = time.ticks_us()
s2 = wire.light(rgb)
t2 = time.ticks_us()
print("LIGHT", len(sums), bad, time.ticks_diff(t1, t0), time.ticks_diff(t2, t1))
"""


def _said(out, err, tag):
    """The four numbers of the chip's line `tag n bad slow_us native_us`."""
    m = re.search(tag + r" (\d+) (\d+) (\d+) (\d+)", out)
    assert m, (out, err)
    return [int(x) for x in m.groups()]


@pytest.mark.parametrize("board", ["pico-4p", "pico2-8p"])
def test_native_encoder_matches_the_pure_one_and_is_faster(image, board):
    with EmuTable(board, flash=image(board)) as t:
        t.boot(5000)
        t.pico.send("\x03")
        t.run(300)
        out, err = t.exec_raw(CODE, ms=30000)
    n, bad, pure_us, native_us = _said(out, err, "WIRE")
    assert n == 30 and bad == 0
    print("1152-byte dice frame: pure %d us, native %d us" % (pure_us, native_us))
    assert native_us * 5 < pure_us
    n, bad, sum_us, light_us = _said(out, err, "LIGHT")
    assert n == 6 and bad == 0
    print("light of a 1152-byte dice frame: sum() %d us, native %d us" % (sum_us, light_us))
    assert light_us * 5 < sum_us
