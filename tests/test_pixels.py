"""The Pico's LED path (pixels.py): wire bytes and the power budget.

The rp2 port encodes frames with pixels.py; the simulator's wire bytes come
from Adafruit's NeoPixel library. Both must put the same bytes on the wire.
"""
import random

from rp2port import pixels
from cheesebox.board import read_board
from sim.wire import WireEncoder

BOARDS = ("boards/pico-4p.json", "boards/pico-8p.json", "boards/pico2-8p.json")


def test_encode_matches_the_adafruit_library_for_every_order_and_board():
    rnd = random.Random(3)
    for path in BOARDS:
        board = read_board(path)
        wire = WireEncoder(board)
        permille = int(board.brightness * 1000)
        table = bytearray(256)
        pixels.fill_table(table, permille)
        for ci, chain in enumerate(board.chains):
            rgb = bytes(rnd.randrange(256) for _ in range(chain.pixels * 3))
            out = bytearray(len(rgb))
            pixels.encode(rgb, out, chain.order, table)
            assert bytes(out) == wire.encode(ci, rgb), (path, chain.name)


def test_every_colour_order_puts_red_where_the_order_says():
    table = bytearray(256)
    pixels.fill_table(table, 1000)
    for order in pixels.ORDERS:
        out = bytearray(3)
        pixels.encode(bytes((255, 0, 0)), out, order, table)
        assert out[order.index("R")] == 255 and sum(out) == 255


def _drawn(limit, permille):
    return limit.lit_ma(permille) + limit.idle_ma


def test_power_limit_dims_only_when_the_frames_would_draw_too_much():
    """What the port does with each frame (Rp2Port.show, commit): frame(),
    then allowed() and target()."""
    limit = pixels.PowerLimit([384, 32], 500, 150)          # USB, pico-4p-like
    limit.frame(0, bytes(384 * 3))
    assert limit.allowed() == 150 == limit.target(150)       # nothing lit: full brightness
    few = bytearray(384 * 3)
    few[0:30] = bytes([255] * 30)                            # ten white pixels
    limit.frame(0, few)
    assert limit.allowed() == 150
    limit.frame(0, bytes([255] * 384 * 3))
    dimmed = limit.allowed()
    assert 0 < dimmed < 150
    assert _drawn(limit, dimmed) <= 500 - pixels.RESERVED_MA
    assert _drawn(limit, 150) > 500                          # what it would have drawn
    # the LEDs go out HEADROOM below the limit, so a small change still fits
    assert limit.target(dimmed) == dimmed * (1000 - pixels.HEADROOM) // 1000


def test_a_big_supply_never_dims():
    limit = pixels.PowerLimit([384, 64], 100000, 150)
    limit.frame(0, bytes([255] * 384 * 3))
    assert limit.allowed() == 150 == limit.target(150)
