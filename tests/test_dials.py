"""pico2-8p's dials (rp2port/dials.py) read through a fake ADC.

A dial bridging two contacts can pull other stations' readings one position
off for a moment (a shared ladder, a supply dip): such a change, seen at two or more stations in
the same scan, must not become a placement unless it still holds 3 scans
later, and dials really turned together must still all be reported.
"""
import sys
import time
import types

import pytest

from cheesebox.board import read_board


class FakeAdc:
    """The 4051's COM into the ADC: the reading of the station the select
    pins choose, from a table the test sets (dial position p -> p << 13)."""

    def __init__(self, sel):
        self.sel = sel
        self.pos = [0] * 8

    def read_u16(self):
        s = sum(self.sel[b].v << b for b in range(3))
        return (self.pos[s] << 13) | 0x0800


class FakePin:
    def __init__(self):
        self.v = 0

    def value(self, v):
        self.v = v


@pytest.fixture
def dials(monkeypatch):
    fake = types.ModuleType("machine")
    monkeypatch.setitem(sys.modules, "machine", fake)   # plates.py imports it
    clock = [0]                                         # MicroPython's ticks, 1 us a call

    def ticks_us():
        clock[0] += 1
        return clock[0]
    for name, f in (("ticks_us", ticks_us), ("ticks_ms", lambda: clock[0] // 1000),
                    ("ticks_diff", lambda a, b: a - b), ("ticks_add", lambda a, b: a + b),
                    ("sleep_us", lambda us: None)):
        monkeypatch.setattr(time, name, f, raising=False)
    monkeypatch.delitem(sys.modules, "rp2port.dials", raising=False)
    from rp2port import dials as plates
    sel = [FakePin() for _ in range(3)]
    adc = FakeAdc(sel)
    d = plates.Dials(read_board("boards/pico2-8p.json"), adc=adc, sel=sel)
    d.read()
    d.read()
    d.read()                        # every dial at 0, reported at start-up
    d.read()
    yield d, adc
    sys.modules.pop("rp2port.dials", None)


def reported(d):
    return [(s, d.val[s], d.seq[s]) for s in range(8) if d.seq[s]]


def test_every_dial_is_reported_once_at_start(dials):
    d, _ = dials
    assert [d.val[s] for s in range(8)] == [0] * 8
    assert list(d.seq) == [1] * 8


def test_one_dial_turned_is_reported_after_three_reads_alike(dials):
    d, adc = dials
    adc.pos[2] = 5
    d.read()
    first = d.raw_us[2]
    d.read()
    assert d.seq[2] == 1                    # two reads alike: not yet
    d.read()
    assert d.seq[2] == 2 and d.val[2] == 5 and d.us[2] == first


def test_a_crosstalk_blip_at_other_stations_is_no_placement(dials):
    """Dial 0 bridges two contacts for 3 scans; dials 3 and 6 read one off meanwhile."""
    d, adc = dials
    adc.pos[0], adc.pos[3], adc.pos[6] = 1, 1, 1
    for _ in range(3):
        d.read()
    adc.pos[3], adc.pos[6] = 0, 0           # the bridge is over: 3 and 6 never moved
    for _ in range(6):
        d.read()
    assert d.seq[3] == 1 and d.seq[6] == 1 and d.val[3] == 0 and d.val[6] == 0
    assert d.seq[0] == 2 and d.val[0] == 1  # dial 0 did move, and still counts


def test_dials_turned_together_are_all_reported_three_scans_later(dials):
    d, adc = dials
    adc.pos[1], adc.pos[4], adc.pos[7] = 3, 6, 2
    d.read()
    stamps = [d.raw_us[s] for s in (1, 4, 7)]
    d.read()
    d.read()
    assert [d.seq[s] for s in (1, 4, 7)] == [1, 1, 1]     # held back one scan more
    d.read()
    assert [(d.val[s], d.seq[s]) for s in (1, 4, 7)] == [(3, 2), (6, 2), (2, 2)]
    assert [d.us[s] for s in (1, 4, 7)] == stamps          # stamped with the first read


def test_a_dial_turned_just_before_the_slam_is_what_the_grab_locks():
    """The wheel lights within ms of the press (pico2-8p counts a press after
    2 ms, as the other boards), but a dial's new position is reported only
    after three equal reads: a grab locks its dial once every read from before
    the press is in. P1 turns 3 -> 5 six ms before the slam: the grab is a 5."""
    import json
    from cheesebox.board import read_board
    from sim.scenario import Sim, match_of, run_script
    lines = []
    sim = Sim(read_board("boards/pico2-8p.json"), seed=3, log=lines.append)
    run_script(sim, "players 3\ndice yellow\nanswer P1 3\nrollbutton\nwait 1700\n")
    sim.port.place(0, 5)             # the dial turned, the finger already on its way
    sim.wait(6)
    sim.press(0)
    assert match_of(sim.box).holder[0] == 1 and match_of(sim.box).locked[0] == 5
    events = [json.loads(x) for x in lines]
    grab = [e for e in events if e["ev"] == "grab"]
    assert [(g["p"], g["plate"]) for g in grab] == [("P1", 5)]
    press = [e for e in events if e["ev"] == "press"][-1]
    assert grab[0]["t_us"] == press["t_us"]          # stamped with the press, not the lock


def test_a_grab_is_locked_after_three_scans_from_the_press_not_after_ms(dials):
    """The lock counts the reader's scans: however long the loop is held
    after a press (a save, a long step), nothing from before the press is
    called reported until three scans have started after it; and a dial
    turned just before the press is reported by then."""
    d, adc = dials
    adc.pos[0] = 5
    d.read()                            # the turn's first read, before the press
    t = time.ticks_us()                 # the press
    assert d.reported_to(t) is False
    # 100 ms of held loop: no read, still not in
    before = time.ticks_us()
    while time.ticks_diff(time.ticks_us(), before) < 100000:
        pass
    assert d.reported_to(t) is False
    d.read()
    d.read()
    assert (d.val[0], d.seq[0]) == (5, 2)       # reported: stamped before the press
    assert d.us[0] - t < 0
    assert d.reported_to(t) is False            # two scans since the press: not yet sure
    d.read()
    assert d.reported_to(t) is True


def test_a_long_step_in_a_grab_does_not_lock_the_dial_from_before_the_turn():
    """P1 turns 3 -> 5, presses 1 ms later; right after the grab the loop is
    held 60 ms (a save elsewhere, a long step), no dial read meanwhile. The
    lock waits for the reads (counted, not ms): the grab is a 5. (Locked
    20 ms after the press by the clock, it was the 3 from before the turn.)"""
    import json
    from sim.scenario import Sim, match_of, run_script
    from sim.simport import DIAL_READ_US
    lines = []
    sim = Sim(read_board("boards/pico2-8p.json"), seed=3, log=lines.append)
    run_script(sim, "players 3\ndice yellow\nanswer P1 3\nrollbutton\nwait 1700\n")
    assert sim.box.state_name() == "grab"
    port = sim.port
    sim.run_until(port._next_read(port.t + 1, DIAL_READ_US))   # on a read: stamped now
    port.place(0, 5)
    t = port.t
    port.schedule(t + 1000, 0, 1)
    port.schedule(t + 61000, 0, 0)
    sim.run_until(t + 4000)             # the press counted (2 ms), the wheel lit
    m = match_of(sim.box)
    assert m.holder[0] == 1
    port.hold(60000)                    # the loop held: the turn's reads wait
    sim.wait(200)
    events = [json.loads(x) for x in lines]
    grab = [(e["p"], e["plate"]) for e in events if e["ev"] == "grab"]
    assert grab == [("P1", 5)], grab
    assert m.locked[0] == 5


def test_each_dial_is_read_settled_and_the_mux_moves_on_at_once(monkeypatch):
    """The COM node needs ~25 us (5 time constants) after the 4051 switches.
    Every reading is taken at least that long after the select pins last
    changed, and the mux switches to the next station as soon as one is
    read, so that time passes while the reading is stored: the scan waits
    less than the 8 x 60 us it used to sleep (12 % of the CPU at a scan
    every 4 ms)."""
    clock = [0]
    work_us = 9                              # a read's bookkeeping, as on the chip

    def ticks_us():
        clock[0] += 1
        return clock[0]

    def sleep_us(us):
        clock[0] += us
    fake = types.ModuleType("machine")
    monkeypatch.setitem(sys.modules, "machine", fake)
    for name, f in (("ticks_us", ticks_us), ("ticks_ms", lambda: clock[0] // 1000),
                    ("ticks_diff", lambda a, b: a - b), ("ticks_add", lambda a, b: a + b),
                    ("sleep_us", sleep_us)):
        monkeypatch.setattr(time, name, f, raising=False)
    monkeypatch.delitem(sys.modules, "rp2port.dials", raising=False)
    from rp2port import dials as plates
    switched = [0]

    class Pin(FakePin):
        def value(self, v):
            if v != self.v:
                switched[0] = clock[0]
            self.v = v
    sel = [Pin() for _ in range(3)]
    waited = []

    class Adc(FakeAdc):
        def read_u16(self):
            waited.append(clock[0] - switched[0])
            clock[0] += work_us
            return FakeAdc.read_u16(self)
    adc = Adc(sel)
    d = plates.Dials(read_board("boards/pico2-8p.json"), adc=adc, sel=sel)
    clock[0] += 4000
    for _ in range(4):
        start = clock[0]
        del waited[:]
        d.read()
        took = clock[0] - start
        clock[0] += 4000                     # the next scan, 4 ms on
        assert min(waited[0::2]) >= 25, waited      # the first read of each station
        assert took < 8 * 60, took
    sys.modules.pop("rp2port.dials", None)
