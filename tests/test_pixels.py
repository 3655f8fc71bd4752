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
            # the codes the library rounds to 0 are the floor's (below)
            low = -(-1000 // permille)
            rgb = bytes(rnd.choice((0, rnd.randrange(low, 256))) for _ in range(chain.pixels * 3))
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


def test_a_dim_colour_keeps_every_lit_channel_when_the_budget_dims_far():
    """At 19 per mille the eliminated player's dim red (40, 0, 0)
    went out as (0, 0, 0), and faces' colours merged."""
    from cheesebox import display
    from cheesemaster.flow import SCORE_LOW
    table = bytearray(256)
    pixels.fill_table(table, 19)
    out = bytearray(3)
    pixels.encode(bytes(display.OUT), out, "RGB", table)
    assert tuple(out) == (1, 0, 0)
    for c in (display.SCORE, SCORE_LOW, display.WHEEL, display.BAD, display.STUCK,
              display.MARK) + tuple(display.STATION):
        pixels.encode(bytes(c), out, "RGB", table)
        assert all((o > 0) == (v > 0) for o, v in zip(out, c)), c
    assert table[0] == 0


def test_brightening_is_a_relative_step():
    """Stuck at 19 per mille, an absolute +40 step never came."""
    assert pixels.rewrite(19, 30, 27, 150)          # 42 % more light: out again
    assert not pixels.rewrite(19, 22, 20, 150)      # 5 %: not worth a rewrite
    assert pixels.rewrite(120, 200, 150, 150)       # back to the board's brightness
    assert not pixels.rewrite(120, 140, 126, 150)
    assert pixels.rewrite(100, 90, 81, 150)         # dimmer whenever the limit says


def test_the_pixels_idle_draw_comes_off_the_budget():
    limit = pixels.PowerLimit([384, 32], 1500, 150)
    assert limit.idle_ma == 416 * pixels.IDLE_UA_PER_PIXEL // 1000
    assert limit.room_ma == 1500 - pixels.RESERVED_MA - limit.idle_ma
