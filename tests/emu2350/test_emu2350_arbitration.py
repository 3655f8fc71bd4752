"""Arbitration on the Pico 2: two buzzers 20 us apart come out in
that order, with and without the 384-pixel dice chain going out; two in the
same 16 us sampler loop are a tie for the last wheel."""
from emu.table import MS, EmuTable

US = 1000


def _start_game(t, players):
    t.boot(3000)
    for s in range(players):
        t.press(s)
    t.press("roll")            # to the dice menu
    t.press("roll")            # 3 yellow dice: the game starts
    t.wait_event("game", 1000)


def _during_reveal_write(t, roll_ev):
    """Run to the moment the faces are going out on the dice chain; returns
    that frame's start (ns)."""
    reveal_ns = (roll_ev["t"] + 1500) * MS
    t.run(max(0, (reveal_ns - t.pico.nanos) / MS - 3))
    for _ in range(200):
        since = t.pico.writing_since(t.chain_pins[0])
        if since >= reveal_ns - MS:
            return since
        t.pico.run(0.25)
    raise AssertionError("the faces never went out")


def test_20us_apart_in_order_during_and_outside_a_dice_write(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        _start_game(t, 4)
        for rnd in range(2):
            n = len(t.events)
            t.press("roll")
            roll = t.wait_event("roll", 1000, since=n)
            if rnd:
                start = _during_reveal_write(t, roll)      # 11.5 ms of dice on the wire now
                at = t.pico.nanos + 2 * MS
                assert at < start + 11 * MS
            else:
                t.wait_event("faces", 3000, since=n)
                t.run(300)
                at = t.pico.nanos + MS
            t.press_at(0, at)                  # P1, then P2 20 us later
            t.press_at(1, at + 20 * US)
            t.press_at(2, at + 100 * MS)       # P3 and P4 in the same instant:
            t.press_at(3, at + 100 * MS)       # one wheel left, a tie
            t.wait_event("score", 1500, since=n)
            grabs = [(e["p"], e["t_us"]) for e in t.events[n:] if e["ev"] == "grab"]
            assert [g[0] for g in grabs[:2]] == ["P1", "P2"], grabs
            assert 16 <= grabs[1][1] - grabs[0][1] <= 32, grabs     # one or two sampler loops
            assert len(grabs) == 3 and grabs[2][0] in ("P3", "P4"), grabs
            if rnd:
                frame = [f for f in t.frames(0)[1] if f["start"] == start]
                assert frame and frame[0]["end"] > at + 20 * US       # really during the write
            t.run(1100)                        # the next roll may start 1 s after scoring
