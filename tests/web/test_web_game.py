"""A scripted Cheese Master game by touch gives the same event log in the page
as in the simulator, on the same board and seed (a differential, as the
emulated Pico's); a reload mid-game (the page's power cut) offers the saved
game and resumes it. Screenshots of the game are kept in build/web-shots."""
import json
import os
import time

import pytest

from cheesebox.board import read_board
from sim.scenario import Sim

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 7
# what only the clock decides: when, and how fast
TIMING = ("t", "t_us", "ms", "paused_ms")


def _comparable(events):
    """The events without clocks, and without the boot's icons_baked: the
    simulator runs the icon art's sources and bakes it, the page takes it
    baked by its build (the same pixels: tests/test_baked_icons.py)."""
    out = []
    for e in events:
        e = dict((k, v) for k, v in e.items() if k not in TIMING and k != "icons_baked"
                 and not k.endswith("_ms") and not k.endswith("_us"))
        out.append(e)
    return out


# The game: P1 and P2 join, the menu's dice, two rounds in which both key a
# plate and grab, then table penalties on P2 until the game is over.
ROUNDS = ((3, 5), (2, 7))


class SimTable:
    """The script on the simulator (virtual time)."""

    def __init__(self, board):
        self.lines = []
        self.sim = Sim(read_board(os.path.join(REPO, "boards", board + ".json")), seed=SEED,
                       log=self.lines.append)

    def events(self, name=None):
        evs = [json.loads(x) for x in self.lines]
        return [e for e in evs if name is None or e["ev"] == name]

    def buzz(self, s):
        self.sim.press(s)

    def roll(self):
        self.sim.press(8)

    def key(self, s, k):
        self.sim.place(s, k)

    def wait(self, ms):
        self.sim.wait(ms)

    def state(self):
        return self.sim.box.state_name()

    def until(self, what):
        for _ in range(400):
            if what():
                return
            self.sim.wait(50)
        raise AssertionError("the simulated box never got there")

    def penalty(self, s):
        self.sim.penalty(s)


class PageTable:
    """The same script by touch on the page (real time)."""

    def __init__(self, page):
        self.page = page

    def events(self, name=None):
        return self.page.events(name)

    def buzz(self, s):
        self.page.buzz(s)

    def roll(self):
        self.page.roll()

    def key(self, s, k):
        self.page.key(s, k, gap=0.02)

    def wait(self, ms):
        time.sleep(ms / 1000)

    def state(self):
        return self.page.state().split()[0]

    def until(self, what):
        try:
            self.page.wait_for(what, timeout=30)      # a loaded machine: a wait, not a speed test
        except AssertionError:
            raise AssertionError("the page never got there: state %r, last events %s"
                                 % (self.page.state(), [e["ev"] for e in self.page.events()][-8:]))

    def penalty(self, s):
        p = self.page
        f = p.down('[data-input="8"]')
        time.sleep(0.4)
        p.tap('[data-input="%d"]' % s, hold=0.04, gap=0.02)
        p.up(f)
        time.sleep(0.1)


def play(t, shots=None, upto=None):
    """The script on a table; shots(name) at the moments worth a picture.
    upto: stop after that many rounds (the reload test)."""
    # each step waits for the box to have taken the last one, as a table
    # looks before it presses on (a loaded machine may take a while)
    t.buzz(0)
    t.buzz(1)
    t.until(lambda: len(t.events("join")) >= 2)
    t.wait(200)
    if shots:
        shots("joined")
    t.roll()                    # the dice menu
    t.until(lambda: t.state() == "menu")
    t.wait(300)
    t.roll()                    # the menu's choice: the game starts
    for r, (k1, k2) in enumerate(ROUNDS):
        t.until(lambda: t.state() == "ready")
        t.roll()
        if shots and r == 0:
            t.wait(500)
            shots("tumbling")
        t.until(lambda: len(t.events("faces")) > r)
        t.key(0, k1)
        t.buzz(0)
        t.key(1, k2)
        t.buzz(1)
        t.wait(600)
        if shots and r == 0:
            shots("faces")
        # the round is scored once nobody owns up: ROLL in the check ends it
        t.until(lambda: len(t.events("score")) > r or t.state() == "check")
        if len(t.events("score")) <= r:
            t.roll()
        t.until(lambda: len(t.events("score")) > r)
        if upto is not None and r + 1 >= upto:
            return
    for _ in range(10):
        if t.events("winner"):
            break
        t.until(lambda: t.state() == "ready")
        t.penalty(1)
    t.wait(500)
    if shots:
        shots("gameover")


@pytest.mark.parametrize("board", ["tablet", "pico-8p"])
def test_a_touch_game_logs_what_the_simulator_logs(page, board):
    sim = SimTable(board)
    play(sim)
    want = _comparable(sim.events())
    assert sim.events("winner"), "the script does not end the game in the simulator"
    page.open("?board=%s&seed=%d" % (board, SEED))
    play(PageTable(page), shots=(lambda name: page.shot("%s-%s" % (board, name))) if board == "tablet" else None)
    page.wait_event("winner", timeout=5)
    time.sleep(0.3)
    got = _comparable(page.events())
    assert got == want
    assert page.console_errors() == []


def test_a_reload_mid_game_offers_the_saved_game_and_resumes_it(page):
    page.open("?board=tablet&seats=4&seed=%d" % SEED)
    play(PageTable(page), upto=1)
    before = page.events("score")[-1]["points"]
    page.reload()                                   # the power cut
    boot = page.events("boot")
    assert boot[-1]["resume"] is True
    page.wait_for(lambda: page.state().startswith("resume"))
    page.shot("tablet-resume-offer")
    page.roll()                                     # ROLL: back to the saved game
    ev = page.wait_for(lambda: page.events("resume"))
    assert ev[-1]["round"] == 1
    assert ev[-1]["points"] == before               # the points the table had
    page.wait_for(lambda: page.state().startswith("ready"))
    # and the game goes on from there: the next round is round 2
    page.roll()
    page.wait_for(lambda: page.events("roll"), timeout=5)
    assert page.events("roll")[-1]["round"] == 2
    page.shot("tablet-resumed")
