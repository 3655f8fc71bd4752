"""The Pico port's DMA and interrupt handling against a fake rp2/machine.

What the emulated Pico cannot show (tests/emu shows the rest on the chip):
- the microsecond race at a DMA segment boundary : a fake
  DMA pair whose registers move *between* the port's two reads, at every
  possible interleaving, as the hardware's would;
- MicroPython before v1.26 (its pack_ctrl defaults) and the RP2350-E5 abort
  order: a trace of every DMA call and register write;
- the sampler's interrupt enabled only while idle() sleeps: the
  PIO INTE writes, on the RP2040 and the RP2350 addresses.
"""
import importlib
import random
import sys
import types
from array import array

import pytest

RING = 512          # buttons._RING_WORDS


class Chip:
    """Two DMA channels chained into one ring, as the hardware runs them:
    each moves its segment, then triggers the other (count reloaded)."""

    def __init__(self, segment, ring):
        self.segment = segment
        self.ring = ring
        self.pos = 0                # words written, ever
        self.busy = 0               # the channel moving words (0: dma, 1: dma2)
        self.count = [segment, segment]
        self.hook = None            # called at each register read: may move words
        self.trace = []             # DMA calls and register writes, in order
        self.channels = []

    def push(self, word):
        self.ring[self.pos % RING] = word
        self.pos += 1
        c = self.busy
        self.count[c] -= 1
        if self.count[c] == 0:      # done: the chain triggers the other, count reloaded
            self.busy = 1 - c
            self.count[self.busy] = self.segment

    def read(self):
        if self.hook is not None:
            self.hook()


class FakeDMA:
    def __init__(self, chip):
        self.chip = chip
        self.idx = len(chip.channels)
        self.channel = 4 + self.idx         # MicroPython hands out free channels
        chip.channels.append(self)

    def pack_ctrl(self, **kw):
        self.chip.trace.append(("pack_ctrl", self.channel, kw))
        return 0x1 | (kw.get("size", 0) << 2) | (kw.get("chain_to", 0) << 11)

    def config(self, **kw):
        self.chip.trace.append(("config", self.channel, kw.get("count"), kw.get("trigger")))

    @property
    def count(self):
        self.chip.read()
        return self.chip.count[self.idx] if self.idx < 2 else 0

    @count.setter
    def count(self, v):
        self.chip.trace.append(("count", self.channel, v))

    @property
    def ctrl(self):
        return 0

    @ctrl.setter
    def ctrl(self, v):
        self.chip.trace.append(("ctrl", self.channel, v))

    def active(self, v=None):
        if v is not None:
            self.chip.trace.append(("abort" if not v else "start", self.channel))
            return None
        self.chip.read()
        return self.idx < 2 and self.chip.busy == self.idx

    def close(self):
        self.chip.trace.append(("close", self.channel))


class Mem32:
    def __init__(self, chip):
        self.chip = chip

    def __setitem__(self, addr, v):
        self.chip.trace.append(("mem32", addr, v))

    def __getitem__(self, addr):
        return 0


@pytest.fixture
def pico(monkeypatch):
    """rp2port.buttons and rp2port.leds imported against a fake rp2/machine."""
    chip = Chip(2 * RING, None)
    machine = types.SimpleNamespace(Pin=lambda *a, **k: types.SimpleNamespace(value=lambda *v: 1),
                                    mem32=Mem32(chip))
    machine.Pin.IN = machine.Pin.OUT = machine.Pin.PULL_UP = 0

    class StateMachine:
        def __init__(self, *a, **k):
            pass

        def exec(self, s):
            pass

        def irq(self, handler=None, hard=False):
            chip.trace.append(("sm.irq", hard))
            chip.handler = handler

        def active(self, v=None):
            chip.trace.append(("sm.active", v))

    rp2 = types.SimpleNamespace(
        DMA=lambda: FakeDMA(chip), StateMachine=StateMachine,
        PIO=lambda n: types.SimpleNamespace(remove_program=lambda p: chip.trace.append(("remove",))),
        asm_pio=lambda **k: (lambda f: f))
    rp2.PIO.SHIFT_LEFT = 0
    rp2.PIO.JOIN_RX = 0
    uctypes = types.SimpleNamespace(addressof=lambda a: 0x20001000)   # ring aligned
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "uctypes", uctypes)
    # the native (viper) wire encoder runs on the Pico only: the pure one stands in
    from rp2port import pixels
    wire = types.SimpleNamespace(encode=lambda rgb, out, ri, gi, bi, table, lo, hi: None,
                                 light=sum, pure=pixels.encode)
    monkeypatch.setitem(sys.modules, "rp2port.wire", wire)
    for m in ("rp2port.buttons", "rp2port.leds", "rp2port.pio_sampler", "rp2port.pio_ws2812"):
        monkeypatch.delitem(sys.modules, m, raising=False)
    buttons = importlib.import_module("rp2port.buttons")
    leds = importlib.import_module("rp2port.leds")
    clock = types.SimpleNamespace(ticks_us=lambda: 0, ticks_ms=lambda: 0)
    monkeypatch.setattr(buttons, "time", clock)
    # the PIO programs (assembled on the Pico by modules loaded for it and dropped)
    monkeypatch.setattr(buttons, "run_once", lambda mod, fn, *a: "sampler")
    monkeypatch.setattr(buttons, "SampleDecoder", lambda *a: None)

    def mp_array(typecode, raw):        # MicroPython's array(typecode, bytes): raw bytes
        assert isinstance(raw, bytes), "the ring is made from raw bytes, not a list"
        a = array(typecode)
        a.frombytes(raw)
        return a
    monkeypatch.setattr(buttons, "array", mp_array)
    monkeypatch.setattr(leds, "run_once", lambda mod, fn, *a: ("ws2812", 8000000))
    yield types.SimpleNamespace(chip=chip, buttons=buttons, leds=leds, monkeypatch=monkeypatch)
    for m in ("rp2port.buttons", "rp2port.leds", "rp2port.pio_sampler", "rp2port.pio_ws2812"):
        sys.modules.pop(m, None)


def board(mcu="rp2040"):
    return types.SimpleNamespace(button_base=2, button_width=9, mcu=mcu, input_pins=lambda: [])


class Fed:
    """The decoder: records every ring word the port hands it."""

    def __init__(self):
        self.words = []

    def advance(self, t):
        pass

    def time_of(self, w):
        return w

    def feed(self, w, capture):
        self.words.append(w)


class Restarts:
    """The capture, as far as the ring's reader calls it itself: a gap."""

    def __init__(self):
        self.at = []

    def restart(self, t):
        self.at.append(t)


CAP = Restarts()


def make_buttons(pico, segment, mcu="rp2040"):
    b = pico.buttons.Buttons(board(mcu), 0, segment)
    chip = pico.chip
    chip.segment = segment
    chip.count = [segment, segment]
    chip.ring = b.ring_all              # the DMA writes the port's own ring
    assert b.ring_off == 0
    b.decoder = Fed()
    return b


@pytest.mark.parametrize("seed", range(6))
def test_segment_switch_between_the_two_register_reads_loses_no_word(pico, seed):
    """Words arrive between any two register reads of poll() and
    changed(), often across a segment boundary (a segment of one ring, so the
    channels switch every 512 words): every word reaches the decoder exactly
    once, in order, never an old one again. Before the fix (count read before
    active()), a switch between the reads replayed a ring of old words as new and
    then ignored a whole segment."""
    rng = random.Random(seed)
    b = make_buttons(pico, RING)
    chip = pico.chip
    sent = []

    def words(n):
        for _ in range(n):
            w = len(sent) + 1
            sent.append(w)
            chip.push(w)

    def hook():                         # the DMA moves on while the CPU reads
        if rng.random() < 0.5:
            words(rng.choice((1, 2, 3, 5, 8)))
    chip.hook = hook
    for _ in range(3000):
        words(rng.randrange(0, 40))
        before = len(sent)
        if rng.random() < 0.3:
            was = b.changed()
            if not was:                 # words that came before the call were seen
                assert before == len(b.decoder.words), (before, len(b.decoder.words))
        b.poll(CAP)
        assert b.overruns == 0
    chip.hook = None
    b.poll(CAP)
    assert b.decoder.words == sent
    assert len(sent) > 20 * RING        # both channels switched dozens of times


def test_a_lap_of_whole_segments_between_two_polls_is_an_overrun_not_a_freeze(pico):
    """The soak's one-ring segment: a chattering wire pushes two segments and
    a bit between two polls (a flash erase holds the CPU), so the channel
    read last is busy again, behind where it was. The port says an overrun
    and reads on: the newest ring of words, in order, and every word after
    it. Before the fix it took that for no word at all and ignored every
    word until the count passed its old place again (the 1-minute soak lost
    presses for 10-15 s after a chatter)."""
    b = make_buttons(pico, RING)
    chip = pico.chip
    sent = []

    def words(n):
        for _ in range(n):
            sent.append(len(sent) + 1)
            chip.push(sent[-1])
    words(200)
    b.poll(CAP)
    assert b.decoder.words == sent and b.overruns == 0
    words(2 * RING - 50)                # the same channel again, at 150 < 200
    b.poll(CAP)
    assert b.overruns == 1 and b.lost == 2 * RING - 50 - RING
    assert b.decoder.words[200:] == sent[-RING:]     # the newest ring, oldest first
    words(3)                            # a press after it: read at once
    b.poll(CAP)
    assert b.decoder.words[-3:] == sent[-3:]


def test_every_pack_ctrl_names_chain_to_and_the_ring(pico):
    """Before MicroPython v1.26 pack_ctrl's defaults were RP2040 bit
    positions; every call names chain_to, ring_size and ring_sel itself."""
    make_buttons(pico, 1 << 20)
    brd = types.SimpleNamespace(chains=[types.SimpleNamespace(pin=16, pixels=7, order="GRB"),
                                        types.SimpleNamespace(pin=17, pixels=384, order="GRB")],
                                brightness=0.1, max_ma=1500)
    pico.monkeypatch.setattr(pico.leds.pixels, "PowerLimit", lambda *a: None)
    pico.leds.Leds(brd)
    calls = [t for t in pico.chip.trace if t[0] == "pack_ctrl"]
    assert len(calls) == 4              # the sampler's two channels, one per chain
    for _, ch, kw in calls:
        assert {"chain_to", "ring_size", "ring_sel"} <= set(kw), kw
    sampler, leds = calls[:2], calls[2:]
    # the sampler's channels chain to each other; a LED channel to itself (no chain)
    assert {c[2]["chain_to"] for c in sampler} == {c[1] for c in sampler}
    assert all(c[2]["chain_to"] == c[1] and c[2]["ring_size"] == 0 for c in leds)


def test_close_clears_both_enables_before_either_abort(pico):
    """RP2350-E5: clear EN of the channel and its chained partner, then abort,
    then close (DMA.close() does this itself only from v1.27)."""
    b = make_buttons(pico, 1 << 20)
    chip = pico.chip
    del chip.trace[:]
    b.close()
    dma = [t for t in chip.trace if t[0] in ("ctrl", "abort", "close")]
    chans = {b.dma.channel, b.dma2.channel}
    assert [t[0] for t in dma] == ["ctrl", "ctrl", "abort", "abort", "close", "close"]
    assert {t[1] for t in dma[:2]} == chans and all(not t[2] & 1 for t in dma[:2])
    assert {t[1] for t in dma[2:4]} == chans and {t[1] for t in dma[4:]} == chans


def test_led_channels_close_with_en_cleared_first(pico):
    brd = types.SimpleNamespace(chains=[types.SimpleNamespace(pin=16, pixels=7, order="GRB")],
                                brightness=0.1, max_ma=1500)
    pico.monkeypatch.setattr(pico.leds.pixels, "PowerLimit", lambda *a: None)
    led = pico.leds.Leds(brd)
    del pico.chip.trace[:]
    led.close()
    dma = [t for t in pico.chip.trace if t[0] in ("ctrl", "abort", "close")]
    assert [t[0] for t in dma] == ["ctrl", "abort", "close"] and not dma[0][2] & 1


@pytest.mark.parametrize("mcu, inte", [("rp2040", 0x5020012C), ("rp2350", 0x50200170)])
def test_sampler_interrupt_only_while_asleep(pico, mcu, inte):
    """The interrupt is off once the port is built (awake), irq_on
    clears the flag a word left and sets INTE (atomic set alias), irq_off
    clears it (clear alias): PIO0 IRQ0_INTE of each chip, SM0's bit 8."""
    b = make_buttons(pico, 1 << 20, mcu)
    writes = [t for t in pico.chip.trace if t[0] == "mem32"]
    assert writes[-1] == ("mem32", inte + 0x3000, 1 << 8)        # built: off
    del pico.chip.trace[:]
    b.irq_on()
    b.irq_off()
    assert [t for t in pico.chip.trace if t[0] == "mem32"] == [
        ("mem32", 0x50200030, 1),                 # the flag cleared (write 1 to clear)
        ("mem32", inte + 0x2000, 1 << 8),         # then INTE on
        ("mem32", inte + 0x3000, 1 << 8)]         # off again


def test_the_ring_is_allocated_without_a_list(pico):
    b = make_buttons(pico, 1 << 20)
    assert isinstance(b.ring_all, array) and len(b.ring_all) == 2 * RING
    assert b.ring_all.itemsize == 4 and not any(b.ring_all)


class DmaDuringReads(list):
    """The ring, read while the DMA writes on: each word the CPU reads may let
    the chip push more (the copy out of the ring takes microseconds a word)."""

    def __init__(self, n):
        super().__init__([0] * n)
        self.hook = None

    def __getitem__(self, i):
        if self.hook is not None:
            self.hook()
        return list.__getitem__(self, i)


@pytest.mark.parametrize("seed", range(4))
def test_words_the_dma_overwrites_during_the_copy_are_lost_not_read(pico, seed):
    """A chattering wire while the CPU was held: the ring is (nearly) full and
    the DMA keeps writing while the reader copies words out, so the oldest
    are overwritten under it. Every word the decoder gets is one that was
    sent, in order, never a newer word read in an older one's place, and
    every word not read is counted lost (sent = read + lost). Before the
    re-check after the copy, the reader took the overwritten words for old
    ones (out of order) and counted only the lap it saw at the start."""
    rng = random.Random(seed)
    b = make_buttons(pico, 1 << 20)
    chip = pico.chip
    ring = DmaDuringReads(2 * RING)
    b.ring_all = chip.ring = ring
    sent = []

    def words(n):
        for _ in range(n):
            sent.append(len(sent) + 1)
            chip.push(sent[-1])

    def writes_on():                    # the DMA while the CPU copies
        if rng.random() < 0.4:
            words(rng.choice((1, 2, 3)))
    ring.hook = writes_on
    for _ in range(60):
        words(rng.randrange(RING - 40, 3 * RING))   # around a ring or laps of it
        b.poll(CAP)
    ring.hook = None
    for _ in range(4):                  # the DMA stops: the rest comes in order
        b.poll(CAP)
    got = b.decoder.words
    assert got == sorted(set(got)), "a word read out of order or twice"
    assert set(got) <= set(sent)
    assert len(sent) == len(got) + b.lost, (len(sent), len(got), b.lost)
    assert b.overruns >= 60 and got[-1] == sent[-1]


def test_a_segment_finished_between_the_reads_lets_the_core_sleep(pico):
    """The busy channel finishes its segment between active() and its count:
    the poll sees channel 0 with its whole segment moved, then channel 1 with
    nothing. That is no word: changed() is false and the core may sleep. It
    stayed true (the state was never taken) until the next press, so a box
    left at that point never slept again."""
    b = make_buttons(pico, RING)
    chip = pico.chip
    for w in range(RING - 1):
        chip.push(w + 1)
    b.poll(CAP)
    reads = []

    def last_word_between_the_reads():
        reads.append(1)
        if len(reads) == 2:             # after active(), before the count
            chip.push(RING)
    chip.hook = last_word_between_the_reads
    b.poll(CAP)
    chip.hook = None
    assert b.decoder.words[-1] == RING
    assert not b.changed()
    b.poll(CAP)
    assert not b.changed() and len(b.decoder.words) == RING


class Timed:
    """A decoder for words that are indexes into a table of (bits, t_us)."""

    def __init__(self, table):
        self.table = table

    def advance(self, t):
        pass

    def time_of(self, w):
        return self.table[w][1]

    def feed(self, w, capture):
        bits, t = self.table[w]
        capture.sample(bits, t)


def test_a_chattering_pin_does_not_settle_across_a_gap(pico):
    """A loose wire chatters (an edge every 24 us) through a 100 ms flash
    erase: the ring keeps the last 12 ms of it, the rest is lost. The
    wire's last edge seen before the gap is 100 ms old, so without a restart
    of its debounce the first word after the gap "settled" it: a phantom
    press, then a phantom release when it stopped. Its debounce starts again
    after the gap: no event from the wire, while a real press after it
    counts."""
    from cheesebox.capture import PRESS, Capture
    now = [0]
    pico.monkeypatch.setattr(pico.buttons, "time", types.SimpleNamespace(ticks_us=lambda: now[0]))
    b = make_buttons(pico, 1 << 20)
    chip = pico.chip
    table = [(0, 0)]
    b.decoder = Timed(table)
    cap = Capture(2, 12000, random.Random(1), 2000)

    def word(bits, t):
        table.append((bits, t))
        chip.push(len(table) - 1)
    word(1, 1000)                       # the wire's first edge: pin 0 reads pressed
    now[0] = 1100
    b.poll(cap)
    t = 1000
    for k in range(4200):               # 100 ms of chatter, the CPU held
        t += 24
        word(k % 2, t)                  # ends pressed
    now[0] = t + 50
    b.poll(cap)
    assert b.overruns == 1 and b.lost == 4201 - 1 - RING
    events = []
    n = cap.pop(now[0])
    events += [(cap.kind[i], cap.input[i]) for i in range(n)]
    word(0, t + 100)                    # the wire lets go for good
    word(2, t + 5000)                   # a player presses buzzer 2
    for step in range(1, 40):
        now[0] = t + 5000 + step * 1000
        b.poll(cap)
        n = cap.pop(now[0])
        events += [(cap.kind[i], cap.input[i]) for i in range(n)]
    assert events == [(PRESS, 1)], events


def test_the_selftests_inputs_take_a_gap_in_the_ring(pico):
    """The self-test reads the buttons with inputs of its own (raw levels,
    no debounce). A ring lapped under it (a wire chattering while the
    self-test draws) makes the reader restart the capture's debounce: the
    self-test's inputs had no restart, and the self-test stopped with an
    AttributeError where a builder looks for that very wire."""
    from rp2port.selftest import Inputs
    b = make_buttons(pico, 1 << 20)
    b.decoder = Fed()
    for w in range(RING + 40):          # more than the ring holds: a lap
        pico.chip.push(w + 1)
    b.poll(Inputs())
    assert b.overruns == 1 and b.lost == 40


def test_a_long_chain_waits_for_its_whole_frame_before_the_next(pico):
    """A board file allows 1,024 pixels a chain: a frame of 30.7 ms on the
    wire, 31 ms with the latch. A second frame 25 ms after the first waits
    until the first is out and latched; it used to wait only within 20 ms of
    the last write (the 384-pixel dice chain's 11.5 ms), so it started over
    the first, and the LEDs showed a torn frame."""
    now = [0]

    def ticks_us():
        now[0] += 20                    # each look at the clock takes 20 us
        return now[0]
    clock = types.SimpleNamespace(ticks_us=ticks_us, ticks_ms=lambda: now[0] // 1000,
                                  ticks_diff=lambda a, b: a - b, ticks_add=lambda a, b: a + b)
    pico.monkeypatch.setattr(pico.leds, "time", clock)
    make_buttons(pico, 1 << 20)         # the sampler's two channels first, as in the port
    brd = types.SimpleNamespace(chains=[types.SimpleNamespace(pin=16, pixels=1024, order="GRB")],
                                brightness=0.1, max_ma=1500)
    pico.monkeypatch.setattr(pico.leds.pixels, "PowerLimit", lambda *a: None)
    led = pico.leds.Leds(brd)
    starts = []
    pico.chip.trace = types.SimpleNamespace(append=lambda t: t[0] == "start" and starts.append(now[0]))
    led._write(0, 0, -1)
    now[0] += 25000
    led._write(0, 0, -1)
    assert len(starts) == 2
    assert starts[1] - starts[0] >= 1024 * 3 * 10 + 300, starts


@pytest.mark.parametrize("at", [0x20001000, 0x20001010, 0x200013F0, 0x20001400, 0x200017F0])
def test_the_usb_queue_beside_the_ring_never_touches_it(pico, at):
    """The ring's block is twice the ring (the DMA needs the ring aligned to
    its size, wherever the heap puts the block); the USB console's 2 KiB
    queue of log lines lives in the half the ring does not use, round the
    block's end. Wherever the block lands, no byte of the queue is a byte
    the DMA writes, and the queue has its whole 2 KiB."""
    from rp2port import usb
    pico.monkeypatch.setattr(pico.buttons.uctypes, "addressof", lambda a: at)
    b = pico.buttons.Buttons(board(), 0, 1 << 20)
    pico.monkeypatch.setattr(pico.buttons.uctypes, "bytearray_at",
                             lambda addr, n: memoryview(b.ring_all).cast("B")[:n], raising=False)
    store, base = b.spare()
    ring = set(range(4 * b.ring_off, 4 * b.ring_off + 4 * RING))
    assert (at + 4 * b.ring_off) % (4 * RING) == 0          # the DMA's alignment
    queue = [(base + i) & (len(store) - 1) for i in range(usb._OUT_BYTES)]
    assert len(set(queue)) == usb._OUT_BYTES and not ring & set(queue)
    assert len(store) == 8 * RING
