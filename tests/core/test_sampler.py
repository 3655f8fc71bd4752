# The sampler-word decoder: a word's time depends only on the poll that reads
# it, so buttons work after any time without a press (the anchor used
# to go wrong after 2**29 us, ~9 minutes, and presses were stamped in the future).
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython.
from cheesebox import ticks
from rp2port.sampler import LOOP_US, SampleDecoder

PINS = [6, 7, 8, 9, -1, -1, -1, -1, 14]
BASE = 6
WIDTH = 9
MINUTE_US = 60 * 1000 * 1000


def word(dec, n, pressed_bits):
    """The word the PIO pushes at loop n with these capture inputs pressed."""
    snap = 0
    for i in range(len(PINS)):
        if PINS[i] >= 0 and (pressed_bits >> i) & 1:
            snap |= 1 << (PINS[i] - BASE)
    snap ^= (1 << WIDTH) - 1                  # pulled up: a press reads 0
    return (((-n) & ((1 << (30 - WIDTH)) - 1)) << WIDTH) | snap


def stamp_after(t0, gap_us, late_us=700):
    """Decode a word taken gap_us after the sampler started, read late_us later,
    with no poll in between (the worst case: nothing called advance())."""
    dec = SampleDecoder(PINS, BASE, WIDTH, t0)
    n = gap_us // LOOP_US
    w = word(dec, n, 1)
    taken = (t0 + n * LOOP_US) & ticks.MASK
    dec.advance(ticks.add(taken, late_us))
    assert dec.bits_of(w) == 1
    return dec.time_of(w), taken


def test_press_after_long_idle_is_stamped_when_it_happened():
    for minutes in (1, 9, 10, 17, 18, 20, 36, 60, 600):
        for t0 in (0, ticks.MASK - 5000, 123456789):
            got, want = stamp_after(t0, minutes * MINUTE_US + 48)
            assert got == want, (minutes, t0, got, want)


def test_advance_depends_only_on_now():
    t0 = 1000
    a = SampleDecoder(PINS, BASE, WIDTH, t0)
    b = SampleDecoder(PINS, BASE, WIDTH, t0)
    now = (t0 + 25 * MINUTE_US) & ticks.MASK
    t = t0
    for _ in range(30):                       # a polls every minute, b only now
        t = ticks.add(t, MINUTE_US)
        a.advance(t)
    a.advance(now)
    b.advance(now)
    assert (a.anchor_n, a.anchor_t) == (b.anchor_n, b.anchor_t)


def test_order_kept_within_a_poll():
    dec = SampleDecoder(PINS, BASE, WIDTH, 0)
    n = (20 * MINUTE_US) // LOOP_US
    w1 = word(dec, n, 1)
    w2 = word(dec, n + 2, 3)                  # 32 us later
    dec.advance((n + 100) * LOOP_US & ticks.MASK)
    assert ticks.diff(dec.time_of(w2), dec.time_of(w1)) == 2 * LOOP_US
