"""The button sampler's DMA ring and interrupt on the chip.

On the emulated Pico, through the pins and the serial port only:
- a small DMA segment (main(segment=512) at the REPL, one ring): the two
  chained channels switch every 512 words, dozens of times, and every press still
  comes through (the microsecond race itself cannot be timed on the
  emulator: tests/test_rp2_dma.py reproduces it with a fake DMA);
- 8 players pressing 3 times each, bouncing, during a save with the flash at
  the W25Q16JV's maximum times (400 ms a 4 KiB erase): every press comes
  out, in the order and at the times pressed, and the heap after boot;
- a chattering pin costs no interrupt while the loop is awake.
"""
import random

from emu.table import EmuTable

MS = 1000000
US = 1000


def bouncy(g, t_ns, hold_ms=60, bounces=4, gap_us=80):
    """A press that bounces at both edges: (nanos, gpio, level) steps."""
    steps = []
    for k in range(2 * bounces + 1):                   # ends low
        steps.append((t_ns + k * gap_us * US, g, 0 if k % 2 == 0 else None))
    up = t_ns + hold_ms * MS
    for k in range(2 * bounces + 1):                   # ends released
        steps.append((up + k * gap_us * US, g, None if k % 2 == 0 else 0))
    return steps


def _restart(t, segment):
    """Ctrl-C, then main(segment=...) typed at the REPL, as a developer would."""
    t.pico.send("\x03")
    t.run(300)
    n = len(t.events)
    t.pico.send("from rp2port.app import main\r\nmain(segment=%d)\r\n" % segment)
    t.wait_event("boot", 3000, since=n)
    t.run(100)


def test_small_dma_segment_switches_channels_and_loses_no_press(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        _restart(t, 512)
        n = len(t.events)
        presses = 60
        for i in range(presses):
            # each press bounces: 34 words; 60 presses ~2000 words, 4 segments
            t.pico.schedule(pins=bouncy(t.pin_of(0), t.pico.nanos + 1000, bounces=8))
            t.run(150)
        kinds = [e["ev"] for e in t.events[n:] if e["ev"] in ("join", "leave")]
        assert kinds == ["join", "leave"] * (presses // 2), kinds
        assert "overrun" not in t.kinds(n)


def test_eight_players_pressing_three_times_each_during_a_save_at_flash_maximum_times(image):
    """A save that erases a 4 KiB sector at the W25Q16JV's maximum, 400 ms with
    the CPU held: from 100 ms into that erase, 8 players press in a shuffled
    order 3 ms apart, three times each, 90 ms apart, every edge bouncing (four
    bounces each way: 24 presses and releases, 432 ring words and 48 events
    while nothing reads the ring and nothing takes the events). Every press is
    logged, in that order, stamped at its time to the sampler's 16 us, and no
    overrun. (With the 256-word ring and 32 events the ring overran and
    presses were missing.)
    Saves come from table penalties; the flash's wear levelling decides
    which of them erases."""
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        assert t.pico.flash_times("max") == (400, 3)
        for s in range(8):
            t.press(s)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 3000)
        t.run(1500)
        order = list(range(8))
        random.Random(16).shuffle(order)
        pins = []
        when = []
        for r in range(3):
            for k, s in enumerate(order):
                # from 100 ms into the erase (ROLL of the penalty gesture let go by then)
                at = 100 * MS + r * 90 * MS + k * 3 * MS
                pins += bouncy(t.pin_of(s), at, hold_ms=40)
                when.append((at, "P%d" % (s + 1)))
        assert max(at for at, _ in when) + 41 * MS < 400 * MS     # all inside the erase
        t.pico.pins_on_flash(1, pins, kind="erase", at="start")
        n = len(t.events)
        for _ in range(8):                   # table penalties on P8, each saved
            if not t.pico.fingers_armed():
                break
            t.press_at("roll", t.pico.nanos + 1000, hold_ms=440)
            t.press_at(7, t.pico.nanos + 400 * MS, hold_ms=30)
            t.run(1500)
        assert not t.pico.fingers_armed(), "no save erased a sector"
        t.run(1500)
        during = [e for e in t.events[n:] if e["ev"] == "press"]
        # the penalty gesture's P8 is a penalty, not a press: these are the 24 fingers
        assert [e["p"] for e in during] == [p for _, p in when], (t.kinds(n), during)
        t0 = during[0]["t_us"]
        off = [((e["t_us"] - t0) % (1 << 30)) * US - (at - when[0][0])
               for e, (at, _) in zip(during, when)]
        assert all(abs(d) <= 32 * US for d in off), off
        assert "overrun" not in t.kinds(n)


def test_chattering_pin_raises_no_interrupt_while_the_loop_is_awake(image):
    """A loose wire chattering every 24 us (41,666 words a second) for 1 s:
    the sampler's interrupt is on only while idle() sleeps, so the core takes
    a few, not one per word; another player's press still counts at once."""
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        t.run(500)
        i0 = t.pico.stats()["pio0_irqs"]
        t.pico.chatter(t.pin_of(3), 24, 1000)
        n = len(t.events)
        t.run(300)
        t.press(0)
        t.run(700)
        irqs = t.pico.stats()["pio0_irqs"] - i0
        print("PIO0 interrupts during 1 s of chatter:", irqs, t.kinds(n))
        assert any(e["ev"] == "join" and e["p"] == "P1" for e in t.events[n:]), t.lines[-8:]
        assert irqs < 400, irqs              # was one per word: tens of thousands
