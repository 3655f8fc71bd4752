# pyright: reportUndefinedVariable=false
"""The button sampler's PIO program, assembled and run on the host.

firmware/rp2port/pio_sampler.py is assembled by running the firmware's own
sampler_program() under a CPython copy of MicroPython's rp2.asm_pio DSL
(tests/pio_asm.py), checked opcode for opcode against the RP2040 datasheet
encodings and adafruit_pioasm, then run cycle by cycle on pioemu
(rp2040-pio-emulator) configured as rp2port/buttons.py configures the state machine
(1 MHz: 1 cycle = 1 us, in_base = the board's button window, shift left,
x = y = 0 at start).  The words it pushes are decoded with the firmware's
SampleDecoder and fed to its Capture, so the whole chain PIO -> word ->
timestamp -> debounced event is checked end to end.

Timing facts the tests pin down (cycle numbers from the start of the SM):
- loop n >= 1 starts at cycle 16n + 1: loop 0 takes 17 cycles, because the
  port starts x at 0 and a loop that starts with x == 0 takes the extra
  ``jmp top`` (the same extra cycle recurs once every 2**32 loops, 19 h);
- ``in pins`` is the third instruction: loop n >= 1 samples at cycle 16n + 3;
- SampleDecoder (t_start = SM start) stamps loop n at 16n: 1 us before the
  loop really starts, a constant offset, the same for every button.
"""
import os
import random
from collections import deque
from dataclasses import replace

import pytest

import pio_asm
from cheesebox import ticks
from cheesebox.board import read_board
from cheesebox.capture import PRESS, Capture
from rp2port.sampler import LOOP_US, WORD_BITS, SampleDecoder
from sim.simport import encode
from sim.rng import SeededRandom

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = read_board(os.path.join(REPO, "boards", "pico-4p.json"))
BASE = BOARD.button_base            # GP6
WIDTH = BOARD.button_width          # GP6-GP14: 9 pins
KBITS = WORD_BITS - WIDTH           # as rp2port/buttons.py: 30 - width
PINS = BOARD.input_pins()           # stations 0-3 = GP6-9, ROLL (index 8) = GP14
INPUTS = [i for i, g in enumerate(PINS) if g >= 0]
PROG = pio_asm.firmware_sampler_program(WIDTH, KBITS)
MASK32 = 0xFFFFFFFF
CYCLES = 16                         # one loop at 1 MHz


def test_board_window():
    assert (BASE, WIDTH, KBITS) == (6, 9, 21)
    assert PINS[:4] == [6, 7, 8, 9] and PINS[8] == 14


# -- the levels on the GPIOs ----------------------------------------------------
class Buttons:
    """GPIO levels over time: button pins pulled up, low while pressed.

    Window pins that are no button (GP10-13 on pico-4p) are left as the
    RP2040 pads come out of reset: pulled down, steady 0.
    """

    def __init__(self):
        self.presses = []           # (gpio, from clock, to clock) low in [from, to)

    def press(self, inp, start, end=1 << 62):
        self.presses.append((PINS[inp], start, end))
        return self

    def __call__(self, clock):
        v = 0
        for g in PINS:
            if g >= 0:
                v |= 1 << g
        for g, a, b in self.presses:
            if a <= clock < b:
                v &= ~(1 << g)
        return v


def released_snapshot():
    return (Buttons()(0) >> BASE) & ((1 << WIDTH) - 1)


# window bits that are no button (GP10-13): encode() writes them as 1 (as if
# pulled up), the real pads read 0 (reset pull-down); the decoder ignores them
UNUSED = ((1 << WIDTH) - 1) & ~sum(1 << (g - BASE) for g in PINS if g >= 0)


def expected_word(n, bits):
    """encode(), with the non-button window pins as this model drives them."""
    return (encode(n, bits, PINS, BASE, WIDTH) & ~UNUSED) | (released_snapshot() & UNUSED)


def run(buttons, until, **kw):
    pytest.importorskip("pioemu", reason="rp2040-pio-emulator is not installed")
    return pio_asm.SamplerRun(PROG, BASE, buttons, **kw).run(until)


def loop_index(r, clock, n0=0):
    """The loop (n as the counter counts it) that executed at this clock."""
    starts = [s for s in r.loop_starts if s <= clock]
    return n0 + len(starts) - 1


def decoded(r, n0=0):
    """(time, bits, loop n, sample clock) of every word, via SampleDecoder."""
    dec = SampleDecoder(PINS, BASE, WIDTH, 0)
    dec.advance(r.state.clock)
    out = []
    for push_clock, w in r.words:
        sample = max(s for s in r.samples if s <= push_clock)
        out.append((dec.time_of(w), dec.bits_of(w), loop_index(r, sample, n0), sample))
    return out


# -- (a) the assembled program ----------------------------------------------------
PIOASM_TEXT = """
.program sampler
.in 32 left
.fifo rx
top:
.wrap_target
    mov osr, x
    mov isr, null
    in pins, {w}
    mov x, isr
    jmp x!=y changed
    mov x, osr
    jmp x-- top [9]
    jmp top
changed:
    mov y, x
    mov isr, null
    in osr, {k}
    in x, {w}
    push noblock
    irq 0 rel
    mov x, osr
    jmp x-- top [3]
    jmp top
.wrap
"""

# The words for the pico-4p window (W=9, K=21), hand-encoded from the RP2040
# datasheet's instruction tables (section 3.4): see the table in pio_asm.py.
DATASHEET_W9 = [
    0xA0E1,  # mov osr, x        101 00000 111 00 001
    0xA0C3,  # mov isr, null     101 00000 110 00 011
    0x4009,  # in pins, 9        010 00000 000 01001
    0xA026,  # mov x, isr        101 00000 001 00 110
    0x00A8,  # jmp x!=y 8        000 00000 101 01000
    0xA027,  # mov x, osr        101 00000 001 00 111
    0x0940,  # jmp x-- 0 [9]     000 01001 010 00000
    0x0000,  # jmp 0             000 00000 000 00000
    0xA041,  # mov y, x          101 00000 010 00 001
    0xA0C3,  # mov isr, null
    0x40F5,  # in osr, 21        010 00000 111 10101
    0x4029,  # in x, 9           010 00000 001 01001
    0x8000,  # push noblock      100 00000 0 0 0 00000 (IfFull 0, Block 0)
    0xC010,  # irq 0 rel         110 00000 0 0 0 10000 (Clr 0, Wait 0, index rel 0)
    0xA027,  # mov x, osr
    0x0340,  # jmp x-- 0 [3]     000 00011 010 00000
    0x0000,  # jmp 0
]


def test_opcodes_match_datasheet():
    assert pio_asm.opcodes(PROG) == DATASHEET_W9
    assert pio_asm.wrap_bounds(PROG) == (0, 16)
    assert not pio_asm.in_shift_right(PROG)          # SHIFT_LEFT
    assert pio_asm.fifo_join(PROG) == 2               # JOIN_RX: FJOIN_RX, bit 31
    assert PROG[pio_asm.PROG_SHIFTCTRL] == 1 << 31    # thresholds 32 (as 0), no autopush


@pytest.mark.parametrize("width", range(1, 13))
def test_opcodes_match_adafruit_pioasm(width):
    adafruit_pioasm = pytest.importorskip("adafruit_pioasm")
    kbits = WORD_BITS - width
    prog = pio_asm.firmware_sampler_program(width, kbits)
    ref = adafruit_pioasm.Program(PIOASM_TEXT.format(w=width, k=kbits))
    assert pio_asm.opcodes(prog) == list(ref.assembled)
    assert pio_asm.wrap_bounds(prog) == (ref.pio_kwargs["wrap_target"], ref.pio_kwargs["wrap"])
    assert pio_asm.in_shift_right(prog) == ref.pio_kwargs["in_shift_right"]
    assert pio_asm.fifo_join(prog) == pio_asm.PIO.JOIN_RX


def test_dsl_assembler_basics():
    """The DSL details the sampler relies on, on a scratch program."""
    @pio_asm.asm_pio()
    def prog():
        label("a")                                   # noqa: F821
        push()                                       # noqa: F821  default: block
        push(iffull, noblock)                        # noqa: F821
        mov(x, invert(null))[31]                     # noqa: F821
        jmp(not_osre, "b")                           # noqa: F821  forward label
        label("b")                                   # noqa: F821
        jmp("a")                                     # noqa: F821
    assert pio_asm.opcodes(prog) == [0x8020, 0x8040, 0xBF2B, 0x00E4, 0x0000]
    assert pio_asm.wrap_bounds(prog) == (0, 4)       # default wrap: whole program
    with pytest.raises(pio_asm.PIOASMError):
        @pio_asm.asm_pio()
        def bad():
            jmp("nowhere")                           # noqa: F821
    # the globals of this module are back after assembling
    assert globals()["pio_asm"] is pio_asm and "mov" not in globals()


# -- (b) timing ----------------------------------------------------------------------
def test_loop_is_16_cycles_on_both_paths():
    # station 0 pressed, station 1 pressed, both released: changes at 3 loops
    b = Buttons().press(0, 100, 300).press(1, 180, 300)
    r = run(b, 600)
    pushed = {loop_index(r, c) for c, _ in r.words}
    durations = {n: r.loop_starts[n + 1] - r.loop_starts[n] for n in range(len(r.loop_starts) - 1)}
    assert r.loop_starts[0] == 0 and durations[0] == 17       # x == 0 at start: jmp top
    assert 0 in pushed and len(pushed) == 4                   # start + 3 changes
    changed = [n for n in durations if n in pushed and n > 0]
    steady = [n for n in durations if n not in pushed]
    assert changed and steady
    assert all(durations[n] == CYCLES for n in changed + steady)
    # samples: 16 apart in every loop but the first
    gaps = [b - a for a, b in zip(r.samples, r.samples[1:])]
    assert gaps[0] == 17 and set(gaps[1:]) == {CYCLES}
    assert r.samples[0] == 2 and all(s == 16 * n + 3 for n, s in enumerate(r.samples) if n)


def test_x_zero_costs_one_cycle_on_both_paths():
    """jmp x-- falls through when x was 0: the only 17-cycle loops."""
    snap = released_snapshot()
    # no-change path: y already holds the snapshot
    r = run(Buttons(), 5 * CYCLES + 1, x=2, y=snap)
    assert not r.words
    d = [b - a for a, b in zip(r.loop_starts, r.loop_starts[1:])]
    assert d[:3] == [16, 16, 17]                 # x = 2, 1, 0
    assert r.state.x_register == MASK32 - 2      # 2, 1, 0, -1, -2, now -3: counting on
    # changed path: y = 0 differs from the first snapshot
    r = run(Buttons(), 3 * CYCLES, x=0, y=0)
    assert len(r.words) == 1 and r.loop_starts[1] == 17


# -- (c) steady inputs ---------------------------------------------------------------
def test_released_pushes_one_word_then_nothing():
    r = run(Buttons(), 60 * CYCLES)
    assert len(r.words) == 1
    clock, word = r.words[0]
    assert clock < 17                                          # in loop 0
    assert word == expected_word(0, 0)             # counter 0, nothing pressed
    assert word == released_snapshot() and word < 1 << WORD_BITS
    assert len(r.pushes) == 1


# -- (d) one press ---------------------------------------------------------------------
@pytest.mark.parametrize("inp,phase", [(0, p) for p in range(CYCLES)]
                         + [(i, 7) for i in INPUTS if i])
def test_one_press_is_stamped_with_its_loop(inp, phase):
    c = 10 * CYCLES + phase
    r = run(Buttons().press(inp, c), c + 3 * CYCLES)
    words = decoded(r)
    assert len(words) == 2
    assert words[0][:2] == (0, 0)
    t, bits, n, sample = words[1]
    assert bits == 1 << inp
    first = min(s for s in r.samples if s >= c)               # first sample at/after c
    assert sample == first and c <= sample < c + CYCLES
    assert r.words[1][1] == expected_word(n, 1 << inp)
    assert t == LOOP_US * n                                   # the loop that sampled it
    assert r.loop_starts[n] == t + 1                          # (the 17-cycle loop 0)
    assert c - CYCLES < t <= c + CYCLES and t <= sample


# -- (e) ties and order ------------------------------------------------------------------
def test_presses_3us_apart_in_one_loop_are_one_word():
    s = 16 * 10 + 3                                           # loop 10 samples here
    r = run(Buttons().press(0, s - 4).press(2, s - 1), s + 3 * CYCLES)
    words = decoded(r)
    assert len(words) == 2
    t, bits, n, sample = words[1]
    assert (bits, n, sample, t) == (0b101, 10, s, 160)
    # the capture sees one sample: both presses at the same instant, a tie
    cap = Capture(9, BOARD.debounce_ms * 1000, SeededRandom(1))
    for t, bits, _, _ in words:
        cap.sample(bits, t)
    k = cap.pop(t + 20000)
    assert k == 2 and set(cap.input[:2]) == {0, 2}
    assert list(cap.time[:2]) == [160, 160] and list(cap.kind[:2]) == [PRESS, PRESS]


@pytest.mark.parametrize("phase", [0, 5, 13])
def test_presses_40us_apart_are_two_words_in_order(phase):
    c = 10 * CYCLES + phase
    r = run(Buttons().press(3, c).press(8, c + 40), c + 40 + 3 * CYCLES)
    words = decoded(r)
    assert len(words) == 3
    (t1, b1, n1, _), (t2, b2, n2, _) = words[1], words[2]
    assert b1 == 1 << 3 and b2 == (1 << 3) | (1 << 8)
    assert t1 < t2 and t2 - t1 in (32, 48) and (n2 - n1) * LOOP_US == t2 - t1


def test_every_word_raises_the_cpu_interrupt_right_after_its_push():
    """Rp2Port.idle() sleeps until the sampler's IRQ: each word must raise it
    in the same loop (one cycle after the push), and nothing else may."""
    c = 10 * CYCLES + 5
    r = run(Buttons().press(3, c).press(8, c + 40), c + 40 + 3 * CYCLES)
    assert len(r.irqs) == len(r.pushes) == 3
    assert [i - p for i, p in zip(r.irqs, r.pushes)] == [1, 1, 1]


# -- (f) glitches ---------------------------------------------------------------------------
def test_glitch_between_samples_is_not_seen():
    s = 16 * 10 + 3
    r = run(Buttons().press(1, s + 5, s + 10), s + 4 * CYCLES)
    assert len(r.words) == 1                                   # just the start word


def test_glitch_across_a_sample_is_seen_then_debounced_away():
    s = 16 * 10 + 3
    r = run(Buttons().press(1, s - 2, s + 3), s + 4 * CYCLES)
    words = decoded(r)
    assert [(bits, n) for _, bits, n, _ in words] == [(0, 0), (2, 10), (0, 11)]
    cap = Capture(9, 12000, SeededRandom(1))
    for t, bits, _, _ in words:
        cap.sample(bits, t)
    end = words[-1][0] + 20000
    assert cap.pop(end) == 0 and not ((cap.stable >> 1) & 1)


def test_held_press_does_make_a_press_event():
    """The control for the glitch test: the same chain confirms a real press."""
    c = 16 * 10 + 8
    r = run(Buttons().press(1, c), c + 12000 + 2 * CYCLES)
    words = decoded(r)
    assert len(words) == 2
    cap = Capture(9, 12000, SeededRandom(1))
    for t, bits, _, _ in words:
        cap.sample(bits, t)
    assert cap.pop(r.state.clock) == 1
    assert (cap.kind[0], cap.input[0], cap.time[0]) == (PRESS, 1, words[1][0])


# -- (g) counter wrap -------------------------------------------------------------------------
def advance_in_steps(dec, now):
    """Move the decoder's anchor to now as the firmware does: poll by poll.

    (One advance() may only move it by less than half the ticks period.)
    """
    t = 0
    while t < now:
        t = min(now, t + (1 << 27))
        dec.advance(t & ticks.MASK)


@pytest.mark.parametrize("n0", [(1 << KBITS) - 3, (1 << 32) - 3])
def test_counter_wraps_and_decoder_keeps_order(n0):
    """Start at loop n0 (x = -n0 mod 2**32, as the counter convention says).

    n0 = 2**K - 3: the words' K-bit field goes 1, then 2**K - 1, 2**K - 2 ...;
    n0 = 2**32 - 3: x itself wraps through 0 (that loop takes 17 cycles),
    and ticks_us wraps (2**30) many times on the way there.
    """
    start = 16 * n0 + 1                      # loop n starts at 16n + 1 (loop 0: 17 cycles)
    b = Buttons().press(0, start + 21).press(2, start + 53).press(8, start + 69, start + 101)
    r = run(b, start + 9 * CYCLES, x=-n0, y=released_snapshot(), clock=start)
    ns = [loop_index(r, c, n0) for c, _ in r.words]
    assert ns == [n0 + 2, n0 + 4, n0 + 5, n0 + 7]
    kmask = (1 << KBITS) - 1
    fields = [w >> WIDTH for _, w in r.words]
    assert fields == [(-n) & kmask for n in ns] == [1, kmask, kmask - 1, kmask - 3]
    durations = [z - a for a, z in zip(r.loop_starts, r.loop_starts[1:])]
    if n0 == (1 << 32) - 3:
        assert durations == [16, 16, 16, 17, 16, 16, 16, 16]     # x == 0 in loop n0 + 3
    else:
        assert set(durations) == {CYCLES}
    dec = SampleDecoder(PINS, BASE, WIDTH, 0)                    # t = 0: the SM start
    advance_in_steps(dec, r.state.clock)
    times = [dec.time_of(w) for _, w in r.words]
    assert times == [(16 * n) & ticks.MASK for n in ns]
    assert [ticks.diff(t, times[0]) for t in times] == [16 * (n - ns[0]) for n in ns]
    assert [dec.bits_of(w) for _, w in r.words] == [1, 0b101, 0b100000101, 0b101]


# -- (h) full FIFO -----------------------------------------------------------------------------
def toggling(clock):
    """Station 0 pressed in odd loops: a change, hence a push, in every loop."""
    lv = Buttons()(clock)
    if ((clock - 1) // 16) % 2:
        lv &= ~(1 << PINS[0])
    return lv


def test_full_fifo_drops_words_and_keeps_time():
    r = run(toggling, 40 * CYCLES, drain=False)
    assert len(r.pushes) in (len(r.loop_starts) - 1, len(r.loop_starts))
    assert len(r.pushes) >= 38
    assert len(r.words) == 4 == len(r.state.receive_fifo)          # pioemu's FIFO: 4 deep
    assert list(r.state.receive_fifo) == [w for _, w in r.words]    # the first words stay
    assert [w for _, w in r.words] == [expected_word(n, n % 2) for n in range(4)]
    gaps = [z - a for a, z in zip(r.loop_starts, r.loop_starts[1:])]
    assert gaps[0] == 17 and set(gaps[1:]) == {CYCLES}
    # once drained (the DMA catches up), words are exact again: no stale ISR bits
    r.state = replace(r.state, receive_fifo=deque())
    r.drain = True
    del r.words[:]
    r.run(48 * CYCLES)
    assert len(r.words) >= 7
    for c, w in r.words:
        n = loop_index(r, c)
        assert w == expected_word(n, n % 2)


# -- a random stress run ------------------------------------------------------------------------
def test_random_presses_decode_to_exact_samples():
    """Random levels: every word equals encode() of what its loop sampled."""
    rnd = random.Random(5)
    b = Buttons()
    for _ in range(30):
        a = rnd.randrange(20, 1500)
        b.press(rnd.choice(INPUTS), a, a + rnd.randrange(1, 60))
    r = run(b, 1600)
    words = decoded(r)
    prev_bits = None
    for (t, bits, n, sample), (_, w) in zip(words, r.words):
        lv = b(sample)
        pressed = sum(1 << i for i in INPUTS if not (lv >> PINS[i]) & 1)
        assert bits == pressed and w == expected_word(n, pressed)
        assert t == 16 * n and bits != prev_bits
        prev_bits = bits
    # and no change was missed: consecutive samples differ only where words are
    seen = {loop_index(r, c) for c, _ in r.words}
    for n in range(1, len(r.samples)):
        a, z = b(r.samples[n - 1]), b(r.samples[n])
        assert ((a ^ z) >> BASE) & ((1 << WIDTH) - 1) == 0 or n in seen
