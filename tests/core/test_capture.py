# Button capture: debounce, first-edge stamps, fair time order, random ties.
# Driven as the port does: cap.sample(bits, t_us) on every change, then
# n = cap.pop(now_us) and cap.kind[i], cap.input[i], cap.time[i].
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython.
from cheesebox.capture import Capture, PRESS, RELEASE
from cheesebox import ticks
from sim.rng import SeededRandom

DEB = 12000          # debounce window, us
WRAP = 1 << 30       # ticks_us wraps here


def cap_for(n=4, seed=1):
    return Capture(n, DEB, SeededRandom(seed))


def events(cap, now):
    """pop(now) as a list of (kind, input, time)."""
    n = cap.pop(now)
    return [(cap.kind[i], cap.input[i], cap.time[i]) for i in range(n)]


def drive(cap, edges, until, step=500):
    """Feed edges [(t, bits)] in order and pop every `step` us up to `until`.

    Returns every event handed out, in the order handed out. Times wrap.
    """
    out = []
    k = 0
    t = edges[0][0]
    end = ticks.add(edges[0][0], until)
    while ticks.diff(t, end) <= 0:
        while k < len(edges) and ticks.diff(edges[k][0], t) <= 0:
            cap.sample(edges[k][1], edges[k][0])
            k += 1
        out.extend(events(cap, t))
        t = ticks.add(t, step)
    return out


# -- one button ---------------------------------------------------------------------
def test_clean_press_gives_one_press_stamped_at_edge():
    cap = cap_for()
    cap.sample(0b0010, 1000)
    assert cap.pop(1000) == 0
    assert cap.pop(1000 + DEB - 1) == 0       # not yet confirmed
    assert cap.pop(1000 + DEB) == 1
    assert cap.kind[0] == PRESS and cap.input[0] == 1 and cap.time[0] == 1000
    assert ((cap.stable >> 1) & 1)
    assert cap.pop(50000) == 0                 # only once


def test_release_gives_release():
    cap = cap_for()
    cap.sample(0b0001, 0)
    assert events(cap, 20000) == [(PRESS, 0, 0)]
    cap.sample(0, 80000)
    assert events(cap, 80000 + DEB) == [(RELEASE, 0, 80000)]
    assert not ((cap.stable >> 0) & 1)


def test_bounces_give_one_press_at_first_edge():
    cap = cap_for()
    # 5 edges within 8 ms, then stable pressed
    edges = [(1000, 1), (1500, 0), (3000, 1), (5200, 0), (9000, 1)]
    got = drive(cap, edges, 60000)
    assert got == [(PRESS, 0, 1000)]


def test_confirmed_only_after_last_bounce_settles():
    cap = cap_for()
    for t, b in ((0, 1), (2000, 0), (7000, 1)):
        cap.sample(b, t)
    assert cap.pop(DEB + 100) == 0             # last edge at 7000: not settled
    assert cap.pop(7000 + DEB) == 1
    assert cap.time[0] == 0


def test_release_bounces_give_one_release():
    cap = cap_for()
    cap.sample(1, 0)
    assert len(events(cap, 30000)) == 1
    got = drive(cap, [(100000, 0), (100300, 1), (101000, 0), (104000, 1), (106000, 0)], 50000)
    assert got == [(RELEASE, 0, 100000)]


def test_glitch_shorter_than_debounce_gives_nothing():
    cap = cap_for()
    got = drive(cap, [(1000, 0b100), (1000 + DEB - 2000, 0)], 100000)
    assert got == []
    assert not ((cap.stable >> 2) & 1)
    got = drive(cap, [(200000, 0b100), (200050, 0)], 100000)   # a spike
    assert got == []


def test_glitch_does_not_delay_forever():
    # after a glitch on pin 0, a clean press on pin 1 still comes out
    cap = cap_for()
    got = drive(cap, [(0, 1), (3000, 0), (5000, 3 - 1)], 40000)
    assert got == [(PRESS, 1, 5000)]


def test_press_and_release_after_each_other():
    cap = cap_for()
    got = drive(cap, [(0, 1), (60000, 0), (120000, 1), (180000, 0)], 250000)
    assert got == [(PRESS, 0, 0), (RELEASE, 0, 60000),
                   (PRESS, 0, 120000), (RELEASE, 0, 180000)]


# -- fairness between buttons --------------------------------------------------------------
def test_earlier_bouncy_press_beats_later_clean_press():
    cap = cap_for()
    # pin 0 closes first at 0 but bounces until 9000 (confirmed at 21000);
    # pin 1 closes cleanly at 1000 (confirmed at 13000)
    edges = [(0, 0b01), (400, 0b00), (1000, 0b10), (2000, 0b11), (4000, 0b10), (9000, 0b11)]
    for t, b in edges:
        cap.sample(b, t)
    # pin 1 is confirmed but must wait for pin 0's earlier pending edge
    assert cap.pop(1000 + DEB) == 0
    assert cap.pop(9000 + DEB - 1) == 0
    assert events(cap, 9000 + DEB) == [(PRESS, 0, 0), (PRESS, 1, 1000)]


def test_fair_order_when_popping_often():
    cap = cap_for()
    edges = [(0, 0b01), (400, 0b00), (1000, 0b10), (2000, 0b11), (4000, 0b10), (9000, 0b11)]
    assert drive(cap, edges, 50000, 100) == [(PRESS, 0, 0), (PRESS, 1, 1000)]


def test_later_press_leaves_first_if_earlier_was_a_glitch():
    cap = cap_for()
    edges = [(0, 0b01), (300, 0b00), (1000, 0b10)]
    assert drive(cap, edges, 50000, 100) == [(PRESS, 1, 1000)]


def test_three_buttons_in_time_order():
    cap = cap_for(n=8)
    # pin 5 first, then pin 2, then pin 7 (bouncy), all within 2 ms
    edges = [(100, 1 << 5), (600, (1 << 5) | (1 << 2)),
             (900, (1 << 5) | (1 << 2) | (1 << 7)),
             (1200, (1 << 5) | (1 << 2)),
             (1900, (1 << 5) | (1 << 2) | (1 << 7))]
    got = drive(cap, edges, 40000, 250)
    assert got == [(PRESS, 5, 100), (PRESS, 2, 600), (PRESS, 7, 900)]


def test_events_are_handed_out_in_time_order_only():
    # many staggered presses with varied bounces: every batch is in time order
    # and all batches together are in time order
    cap = cap_for(n=8, seed=3)
    rng = SeededRandom(11)
    edges = []
    bits = 0
    t = 0
    for pin in (3, 0, 6, 1, 7, 2, 5, 4):
        t += 1900 + rng.getrandbits(10)   # bounces end before the next press
        bits |= 1 << pin
        edges.append((t, bits))
        for b in range(rng.getrandbits(2)):   # a few bounces
            edges.append((t + 300 * (2 * b + 1), bits & ~(1 << pin)))
            edges.append((t + 300 * (2 * b + 2), bits))
    edges.sort(key=lambda e: e[0])
    got = drive(cap, edges, 60000, 300)
    assert len(got) == 8
    times = [e[2] for e in got]
    assert times == sorted(times)
    assert [e[1] for e in got] == [3, 0, 6, 1, 7, 2, 5, 4]


# -- ties ------------------------------------------------------------------------
def test_same_sample_ties_ordered_by_rng_not_pin():
    first = {}
    for seed in range(1, 81):
        cap = cap_for(seed=seed)
        cap.sample(0b0101, 5000)                 # pins 0 and 2 in one sample
        got = events(cap, 5000 + DEB)
        assert len(got) == 2
        assert got[0][2] == got[1][2] == 5000
        assert sorted([got[0][1], got[1][1]]) == [0, 2]
        first[got[0][1]] = first.get(got[0][1], 0) + 1
    # both orders occur, and not lopsided towards the lower pin
    assert first.get(0, 0) > 15 and first.get(2, 0) > 15


def test_tie_of_four_all_orders_vary():
    seen_first = set()
    seen_last = set()
    for seed in range(1, 61):
        cap = cap_for(seed=seed)
        cap.sample(0b1111, 100)
        got = events(cap, 100 + DEB)
        assert sorted([e[1] for e in got]) == [0, 1, 2, 3]
        seen_first.add(got[0][1])
        seen_last.add(got[3][1])
    assert seen_first == set([0, 1, 2, 3])
    assert seen_last == set([0, 1, 2, 3])


def test_tie_kept_together_when_one_bounces_longer():
    # same first edge; pin 1 bounces longer: neither leaves before the other is
    # confirmed, and the order is still decided by the rng
    orders = set()
    for seed in range(1, 41):
        cap = cap_for(seed=seed)
        cap.sample(0b11, 0)
        cap.sample(0b01, 2000)
        cap.sample(0b11, 4000)
        assert cap.pop(DEB) == 0                # pin 0 confirmed, pin 1 pending
        got = events(cap, 4000 + DEB)
        assert len(got) == 2 and got[0][2] == got[1][2] == 0
        orders.add(got[0][1])
    assert orders == set([0, 1])


def test_tie_order_replays_with_same_seed():
    a = []
    b = []
    for out in (a, b):
        for seed in range(1, 20):
            cap = cap_for(seed=seed)
            cap.sample(0b111, 0)
            out.append(events(cap, DEB))
    assert a == b


# -- tick wrap -------------------------------------------------------------------------
def test_press_across_the_wrap():
    cap = cap_for()
    t0 = WRAP - 3000
    cap.sample(1, t0)
    assert cap.pop(ticks.add(t0, DEB - 1)) == 0
    assert events(cap, ticks.add(t0, DEB)) == [(PRESS, 0, t0)]
    assert ticks.add(t0, DEB) < t0               # the clock did wrap


def test_order_across_the_wrap():
    cap = cap_for()
    before = WRAP - 500       # pin 1, bouncy, just before the wrap
    after = 700               # pin 0, clean, just after it
    edges = [(before, 0b10), (WRAP - 200, 0b00), (300, 0b10), (after, 0b11)]
    got = drive(cap, edges, 60000, 100)
    assert got == [(PRESS, 1, before), (PRESS, 0, after)]


def test_order_across_the_wrap_reverse_pins():
    cap = cap_for()
    edges = [(WRAP - 100, 0b01), (50, 0b11)]
    for t, b in edges:
        cap.sample(b, t)
    assert events(cap, 50 + DEB) == [(PRESS, 0, WRAP - 100), (PRESS, 1, 50)]


def test_next_deadline():
    cap = cap_for()
    assert cap.next_deadline(0) == -1
    cap.sample(1, 1000)
    assert cap.next_deadline(1000) == DEB
    assert cap.next_deadline(5000) == DEB - 4000
    assert cap.next_deadline(1000 + DEB + 5) == 0
    assert cap.pop(1000 + DEB) == 1
    assert cap.next_deadline(1000 + DEB) == -1


# -- a gap in the samples (the Pico's ring overran) -------------------------------------
def test_a_pin_pending_across_a_gap_does_not_settle_across_it():
    """Pin 0 went down, then samples were lost; the first after the gap comes
    20 ms later, still down. Its last edge seen is 20 ms old, but it may
    have bounced in the gap: its debounce starts again at the gap's end, so
    the press counts a window after it (stamped at its first edge), not at
    once."""
    cap = cap_for()
    cap.sample(0b0001, 1000)
    cap.restart(21000)                          # the gap: samples lost before 21 ms
    cap.sample(0b0011, 21000)                   # pin 1 goes down after it
    assert events(cap, 21000) == []
    assert events(cap, 21000 + DEB - 1) == []
    assert events(cap, 21000 + DEB) == [(PRESS, 0, 1000), (PRESS, 1, 21000)]


def test_without_a_restart_the_same_samples_settle_at_once():
    """What the restart prevents: the same samples taken as complete."""
    cap = cap_for()
    cap.sample(0b0001, 1000)
    cap.sample(0b0011, 21000)
    assert events(cap, 21000) == [(PRESS, 0, 1000)]


def test_the_queue_holds_48_events_unpopped():
    """8 players pressing 3 times each during a 400 ms flash erase: 48 events
    confirmed while the box pops none (the port reads the buttons between a
    save's flash operations); every one comes out, in time order."""
    cap = Capture(8, DEB, SeededRandom(1))
    want = []
    for r in range(3):
        for s in range(8):
            down = 100000 + r * 90000 + s * 3000
            want.append((PRESS, s, down))
            want.append((RELEASE, s, down + 40000))
    for t in range(0, 400000, 1000):            # samples at every edge, as the ring gives
        bits = 0
        for kind, s, at in want:
            if kind == PRESS and at <= t < at + 40000:
                bits |= 1 << s
        if bits != cap.raw:
            cap.sample(bits, t)
    out = events(cap, 400000 + DEB)
    assert out == sorted(want, key=lambda e: e[2]), out
